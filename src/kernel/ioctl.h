/* The kernel model's ioctl handlers. Each takes the calling file and the
 * uAPI struct and returns 0 or -errno. The dispatcher (ioctl.c) routes by
 * DRM ioctl number; a handler that no unit implements yet answers -ENOTTY
 * (weak default) and is reported once under trace category "stub". */
#ifndef GTSIM_KERNEL_IOCTL_H
#define GTSIM_KERNEL_IOCTL_H

struct gtsim_file;
typedef int (*ioctl_handler)(struct gtsim_file *file, void *arg);

#define IOCTL_HANDLERS(X) \
	/* DRM core: src/kernel/drm_core.c, src/kernel/prime.c */ \
	X(drm_version) X(drm_get_cap) X(drm_set_client_cap) X(drm_get_unique) \
	X(drm_gem_close) X(drm_gem_flink) X(drm_gem_open) \
	X(drm_prime_handle_to_fd) X(drm_prime_fd_to_handle) \
	/* syncobjs: src/kernel/sync/ */ \
	X(drm_syncobj_create) X(drm_syncobj_destroy) X(drm_syncobj_handle_to_fd) \
	X(drm_syncobj_fd_to_handle) X(drm_syncobj_wait) X(drm_syncobj_reset) \
	X(drm_syncobj_signal) X(drm_syncobj_timeline_wait) X(drm_syncobj_query) \
	X(drm_syncobj_transfer) X(drm_syncobj_timeline_signal) \
	/* i915 GEM objects, params, contexts: src/kernel/gem_*.c, context.c */ \
	X(i915_getparam) X(i915_setparam) X(i915_query) X(i915_reg_read) \
	X(i915_gem_create) X(i915_gem_create_ext) X(i915_gem_userptr) \
	X(i915_gem_pread) X(i915_gem_pwrite) X(i915_gem_mmap) X(i915_gem_mmap_offset) \
	X(i915_gem_set_tiling) X(i915_gem_get_tiling) X(i915_gem_get_aperture) \
	X(i915_gem_set_caching) X(i915_gem_get_caching) X(i915_gem_madvise) \
	X(i915_gem_throttle) X(i915_gem_context_create) X(i915_gem_context_destroy) \
	X(i915_gem_context_getparam) X(i915_gem_context_setparam) \
	X(i915_get_reset_stats) X(i915_gem_vm_create) X(i915_gem_vm_destroy) \
	/* submission and waits: src/kernel/execbuf*.c, request.c, wait.c */ \
	X(i915_gem_execbuffer2) X(i915_gem_busy) X(i915_gem_wait) \
	X(i915_gem_set_domain) X(i915_gem_sw_finish)

#define DECLARE_HANDLER(name) int name##_ioctl(struct gtsim_file *file, void *arg);
IOCTL_HANDLERS(DECLARE_HANDLER)
#undef DECLARE_HANDLER

#endif
