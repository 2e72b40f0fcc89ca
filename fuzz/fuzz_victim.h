/* An isolation oracle for the device-level targets: a second file on the
 * same device (the "victim") whose object, bound once by an execbuf of its
 * own, holds a known pattern. Whatever the fuzzed client does, the
 * victim's object must keep its pattern (a batch cannot reach another
 * file's objects or another context's PPGTT); a change aborts the run as
 * a finding. */
#ifndef GTSIM_FUZZ_VICTIM_H
#define GTSIM_FUZZ_VICTIM_H

#include <drm.h>
#include <i915_drm.h>
#include <stdio.h>
#include <stdlib.h>

#include "gtsim/gtsim.h"

#define VICTIM_WORDS 1024
#define VICTIM_FILL(i) (0x5a000000u ^ ((uint32_t)(i) * 0x9e3779b9u))

struct victim {
	struct gtsim_file *file;
	uint32_t bo, batch;
};

static inline void victim_init(struct victim *v, struct gtsim_device *dev)
{
	static uint32_t words[VICTIM_WORDS];
	v->file = gtsim_open(dev);
	struct drm_i915_gem_create c1 = { .size = sizeof(words) }, c2 = { .size = 4096 };
	if (!v->file || gtsim_ioctl(v->file, DRM_IOCTL_I915_GEM_CREATE, &c1) ||
	    gtsim_ioctl(v->file, DRM_IOCTL_I915_GEM_CREATE, &c2))
		abort();
	v->bo = c1.handle;
	v->batch = c2.handle;
	for (unsigned i = 0; i < VICTIM_WORDS; i++)
		words[i] = VICTIM_FILL(i);
	const uint32_t bbe[2] = { 0x0a << 23, 0 };   /* MI_BATCH_BUFFER_END */
	struct drm_i915_gem_pwrite p1 = { .handle = v->bo, .size = sizeof(words),
					  .data_ptr = (uintptr_t)words };
	struct drm_i915_gem_pwrite p2 = { .handle = v->batch, .size = sizeof(bbe),
					  .data_ptr = (uintptr_t)bbe };
	struct drm_i915_gem_exec_object2 obj[2] = { { .handle = v->bo },
						    { .handle = v->batch } };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)obj,
					       .buffer_count = 2 };
	struct drm_i915_gem_wait w = { .bo_handle = v->batch, .timeout_ns = -1 };
	if (gtsim_ioctl(v->file, DRM_IOCTL_I915_GEM_PWRITE, &p1) ||
	    gtsim_ioctl(v->file, DRM_IOCTL_I915_GEM_PWRITE, &p2) ||
	    gtsim_ioctl_retry(v->file, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb) ||
	    gtsim_ioctl_retry(v->file, DRM_IOCTL_I915_GEM_WAIT, &w))
		abort();
}

/* Aborts when the victim's object lost its pattern. */
static inline void victim_check(struct victim *v)
{
	static uint32_t words[VICTIM_WORDS];
	struct drm_i915_gem_pread p = { .handle = v->bo, .size = sizeof(words),
					.data_ptr = (uintptr_t)words };
	if (gtsim_ioctl_retry(v->file, DRM_IOCTL_I915_GEM_PREAD, &p))
		abort();
	for (unsigned i = 0; i < VICTIM_WORDS; i++)
		if (words[i] != VICTIM_FILL(i)) {
			fprintf(stderr, "another file's object changed: dword %u = 0x%08x\n", i,
				words[i]);
			abort();
		}
}

#endif
