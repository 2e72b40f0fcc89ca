/* What the shim's e2e tests submit by hand: the MI commands (BDW PRM
 * vol. 2a) of a batch held by a semaphore, and two GEM calls through the
 * interposed ioctl. */
#ifndef GTSIM_TESTS_SHIM_GEM_H
#define GTSIM_TESTS_SHIM_GEM_H

#include <errno.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <drm.h>
#include <i915_drm.h>

#define MI_BATCH_BUFFER_END (0x0au << 23)
#define MI_STORE_DWORD_IMM_GEN8 ((0x20u << 23) | 2u)
#define MI_SEMAPHORE_WAIT_GEN8 ((0x1cu << 23) | 2u)
#define MI_SEMAPHORE_POLL (1u << 15)
#define MI_SEMAPHORE_SAD_EQ_SDD (4u << 12)

/* a new object's handle, 0 on failure */
static inline uint32_t shim_gem_create(int fd, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };
	return ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c) ? 0 : c.handle;
}

/* the legacy CPU mapping of an object's first page, NULL on failure */
static inline void *shim_gem_cpu_map(int fd, uint32_t h)
{
	struct drm_i915_gem_mmap m = { .handle = h, .size = 4096 };
	return ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &m) ? NULL : (void *)(uintptr_t)m.addr_ptr;
}

/* A new batch object that stores value at the 32-bit address va and
 * ends; 0 on failure. */
static inline uint32_t shim_store_batch(int fd, uint32_t va, uint32_t value)
{
	uint32_t bb = shim_gem_create(fd, 4096);
	const uint32_t dw[] = { MI_STORE_DWORD_IMM_GEN8, va, 0, value, MI_BATCH_BUFFER_END, 0 };
	struct drm_i915_gem_pwrite pw = { .handle = bb, .size = sizeof(dw),
					  .data_ptr = (uintptr_t)dw };
	return bb && !ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw) ? bb : 0;
}

/* Runs batch bb, softpinned at batch_va, writing target, softpinned at
 * target_va; eb gives the flags, context and fences (its buffer list is
 * set here). 0 or -errno. */
static inline int shim_exec_pinned(int fd, uint32_t target, uint64_t target_va, uint32_t bb,
				   uint64_t batch_va, struct drm_i915_gem_execbuffer2 eb)
{
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = target, .offset = target_va,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = batch_va, .flags = EXEC_OBJECT_PINNED },
	};
	eb.buffers_ptr = (uintptr_t)obj;
	eb.buffer_count = 2;
	return ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb) ? -errno : 0;
}

/* A batch that waits until the dword at sema (a 32-bit address) is 1,
 * then stores value at target and ends. */
static inline void shim_sema_batch(uint32_t *bb, uint32_t sema, uint32_t target,
				   uint32_t value)
{
	const uint32_t dw[] = {
		MI_SEMAPHORE_WAIT_GEN8 | MI_SEMAPHORE_POLL | MI_SEMAPHORE_SAD_EQ_SDD, 1, sema, 0,
		MI_STORE_DWORD_IMM_GEN8, target, 0, value,
		MI_BATCH_BUFFER_END,
	};
	for (unsigned i = 0; i < sizeof(dw) / sizeof(dw[0]); i++)
		bb[i] = dw[i];
}

#endif
