/* Which DRM/i915 ioctl arguments carry file descriptors, and where: what a
 * transport that crosses a process boundary (the device server,
 * kernel/server/, and its clients, shim/remote/) must pass as descriptors
 * (SCM_RIGHTS) instead of as numbers. The uAPI fixes the places:
 *  - PRIME_FD_TO_HANDLE: drm_prime_handle.fd in; PRIME_HANDLE_TO_FD: out;
 *  - SYNCOBJ_FD_TO_HANDLE / HANDLE_TO_FD: drm_syncobj_handle.fd in / out;
 *  - EXECBUFFER2(_WR): the in-fence in rsvd2's low 32 bits with
 *    I915_EXEC_FENCE_IN or _SUBMIT, the out-fence in its high 32 bits with
 *    I915_EXEC_FENCE_OUT (i915_drm.h);
 *  - a sync_file's SYNC_IOC_MERGE: sync_merge_data.fd2 in, .fence out;
 *    the sw_sync file's SW_SYNC_IOC_CREATE_FENCE: the fence out. */
#ifndef GTSIM_COMMON_DRM_FD_ARGS_H
#define GTSIM_COMMON_DRM_FD_ARGS_H

#include <stdbool.h>

struct drm_fd_args {
	bool has_in, has_out;
	unsigned in_off, out_off;   /* byte offsets of the int fds in the struct */
};

/* arg: the ioctl's struct as the caller filled it (read for execbuf's
 * flags). Returns the places, none for every other request. */
struct drm_fd_args drm_fd_args(unsigned long request, const void *arg);

#endif
