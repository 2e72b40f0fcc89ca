/* Helpers for the kernel model's unit tests: a device, ioctl shorthands. */
#ifndef GTSIM_TEST_KERNEL_H
#define GTSIM_TEST_KERNEL_H

#include <drm.h>
#include <fcntl.h>
#include <i915_drm.h>

#include "gtsim/gtsim.h"
#include "test.h"

/* Open descriptors among the first 4096 (the scale tests' limits are
 * lower). */
static inline unsigned test_count_fds(void)
{
	unsigned n = 0;
	for (int fd = 0; fd < 4096; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

static inline struct gtsim_device *test_device(uint64_t ggtt_size, uint64_t aperture)
{
	struct gtsim_config cfg = { .device = "bdw", .sync = 1, .ggtt_size = ggtt_size,
				    .aperture_size = aperture };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	return dev;
}

static inline uint32_t test_create(struct gtsim_file *f, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &c))
		return 0;
	return c.handle;
}

static inline int test_close(struct gtsim_file *f, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };
	return gtsim_ioctl(f, DRM_IOCTL_GEM_CLOSE, &c);
}

static inline int test_pwrite(struct gtsim_file *f, uint32_t h, uint64_t off, const void *p,
			      uint64_t len)
{
	struct drm_i915_gem_pwrite w = { .handle = h, .offset = off, .size = len,
					 .data_ptr = (uintptr_t)p };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_PWRITE, &w);
}

static inline int test_pread(struct gtsim_file *f, uint32_t h, uint64_t off, void *p, uint64_t len)
{
	struct drm_i915_gem_pread r = { .handle = h, .offset = off, .size = len,
					.data_ptr = (uintptr_t)p };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_PREAD, &r);
}

static inline int test_getparam(struct gtsim_file *f, int param, int *value)
{
	drm_i915_getparam_t gp = { .param = param, .value = value };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GETPARAM, &gp);
}

#endif
