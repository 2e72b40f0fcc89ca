/* The file descriptors inside DRM ioctl arguments (drm_fd_args.h). */
#include "common/drm_fd_args.h"

#include <drm.h>
#include <i915_drm.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct drm_fd_args drm_fd_args(unsigned long request, const void *arg)
{
	struct drm_fd_args a = { 0 };
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
