/* The file descriptors inside DRM ioctl arguments (drm_fd_args.h). */
#include "common/drm_fd_args.h"

#include <drm.h>
#include <i915_drm.h>
#include <linux/sync_file.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The sw_sync debugfs file's CREATE_FENCE argument (drivers/dma-buf/
 * sw_sync.c's uAPI, in no installed header). */
struct sw_sync_fence_arg {
	uint32_t value;
	char name[32];
	int32_t fence;
};

struct drm_fd_args drm_fd_args(unsigned long request, const void *arg)
{
	struct drm_fd_args a = { 0 };
	if (_IOC_TYPE(request) == SYNC_IOC_MAGIC) {
		if (_IOC_NR(request) == _IOC_NR(SYNC_IOC_MERGE)) {
			a.has_in = a.has_out = true;
			a.in_off = offsetof(struct sync_merge_data, fd2);
			a.out_off = offsetof(struct sync_merge_data, fence);
		}
		return a;
	}
	if (_IOC_TYPE(request) == 'W') {
		if (_IOC_NR(request) == 0) {   /* SW_SYNC_IOC_CREATE_FENCE */
			a.has_out = true;
			a.out_off = offsetof(struct sw_sync_fence_arg, fence);
		}
		return a;
	}
	switch (_IOC_NR(request)) {
	case _IOC_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE):
		a.has_in = true;
		a.in_off = offsetof(struct drm_prime_handle, fd);
		break;
	case _IOC_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD):
		a.has_out = true;
		a.out_off = offsetof(struct drm_prime_handle, fd);
		break;
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE):
		a.has_in = true;
		a.in_off = offsetof(struct drm_syncobj_handle, fd);
		break;
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD):
		a.has_out = true;
		a.out_off = offsetof(struct drm_syncobj_handle, fd);
		break;
	case _IOC_NR(DRM_IOCTL_I915_GEM_EXECBUFFER2): {
		if (!arg || _IOC_SIZE(request) < sizeof(struct drm_i915_gem_execbuffer2))
			break;
		uint64_t flags;
		memcpy(&flags, (const char *)arg + offsetof(struct drm_i915_gem_execbuffer2, flags),
		       sizeof(flags));
		/* rsvd2 is little-endian: its low half first */
		a.has_in = flags & (I915_EXEC_FENCE_IN | I915_EXEC_FENCE_SUBMIT);
		a.in_off = offsetof(struct drm_i915_gem_execbuffer2, rsvd2);
		a.has_out = flags & I915_EXEC_FENCE_OUT;
		a.out_off = offsetof(struct drm_i915_gem_execbuffer2, rsvd2) + 4;
		break;
	}
	}
	return a;
}
