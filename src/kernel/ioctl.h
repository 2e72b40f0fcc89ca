/* The kernel model's ioctl handlers. Each takes the calling file and the
 * uAPI struct and returns 0 or -errno. The table in ioctl.c routes every
 * DRM ioctl number the model knows to one of them (or marks it not
 * implemented: -ENOTTY, reported once under trace category "stub"). */
#ifndef GTSIM_KERNEL_IOCTL_H
#define GTSIM_KERNEL_IOCTL_H

struct gtsim_file;
typedef int (*ioctl_handler)(struct gtsim_file *file, void *arg);

/* The running ioctl's descriptor status flags (gtsim_ioctl_flags; 0 for
 * gtsim_ioctl): a handler's file->f_flags. */
int ioctl_file_flags(void);

/* DRM core: drm_core.c, gem_close.c, flink.c, prime.c */
int drm_version_ioctl(struct gtsim_file *file, void *arg);
int drm_get_unique_ioctl(struct gtsim_file *file, void *arg);
int drm_set_version_ioctl(struct gtsim_file *file, void *arg);
int drm_get_cap_ioctl(struct gtsim_file *file, void *arg);
int drm_set_client_cap_ioctl(struct gtsim_file *file, void *arg);
int drm_gem_close_ioctl(struct gtsim_file *file, void *arg);
int drm_gem_flink_ioctl(struct gtsim_file *file, void *arg);
int drm_gem_open_ioctl(struct gtsim_file *file, void *arg);
int drm_prime_handle_to_fd_ioctl(struct gtsim_file *file, void *arg);
int drm_prime_fd_to_handle_ioctl(struct gtsim_file *file, void *arg);

/* syncobjs: sync/syncobj_ioctl.c */
int drm_syncobj_create_ioctl(struct gtsim_file *file, void *arg);
int drm_syncobj_destroy_ioctl(struct gtsim_file *file, void *arg);
int drm_syncobj_handle_to_fd_ioctl(struct gtsim_file *file, void *arg);
int drm_syncobj_fd_to_handle_ioctl(struct gtsim_file *file, void *arg);
int drm_syncobj_wait_ioctl(struct gtsim_file *file, void *arg);
int drm_syncobj_reset_ioctl(struct gtsim_file *file, void *arg);
int drm_syncobj_signal_ioctl(struct gtsim_file *file, void *arg);
int drm_syncobj_timeline_wait_ioctl(struct gtsim_file *file, void *arg);
int drm_syncobj_query_ioctl(struct gtsim_file *file, void *arg);
int drm_syncobj_transfer_ioctl(struct gtsim_file *file, void *arg);
int drm_syncobj_timeline_signal_ioctl(struct gtsim_file *file, void *arg);

/* i915 parameters and identity: getparam.c, query.c, reg_read.c,
 * get_reset_stats.c */
int i915_getparam_ioctl(struct gtsim_file *file, void *arg);
int i915_setparam_ioctl(struct gtsim_file *file, void *arg);
int i915_query_ioctl(struct gtsim_file *file, void *arg);
int i915_reg_read_ioctl(struct gtsim_file *file, void *arg);
int i915_get_reset_stats_ioctl(struct gtsim_file *file, void *arg);

/* i915 GEM objects: gem_*.c */
int i915_gem_create_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_create_ext_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_pread_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_pwrite_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_mmap_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_mmap_offset_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_set_tiling_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_get_tiling_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_get_aperture_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_set_caching_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_get_caching_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_madvise_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_userptr_ioctl(struct gtsim_file *file, void *arg);

/* contexts and address spaces: context_ioctl.c, context_param.c */
int i915_gem_context_create_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_context_destroy_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_context_getparam_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_context_setparam_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_vm_create_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_vm_destroy_ioctl(struct gtsim_file *file, void *arg);

/* submission and waits: execbuf.c, busy.c, wait.c, domain.c */
int i915_gem_execbuffer2_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_busy_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_wait_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_throttle_ioctl(struct gtsim_file *file, void *arg);
/* DRM master and authentication: drm_auth.c. drm_auth_check: 0 when the
 * file may use a DRM_AUTH ioctl, else -EACCES. */
int drm_set_master_ioctl(struct gtsim_file *file, void *arg);
int drm_drop_master_ioctl(struct gtsim_file *file, void *arg);
int drm_get_client_ioctl(struct gtsim_file *file, void *arg);
int drm_get_stats_ioctl(struct gtsim_file *file, void *arg);
int drm_get_magic_ioctl(struct gtsim_file *file, void *arg);
int drm_auth_magic_ioctl(struct gtsim_file *file, void *arg);
int drm_auth_check(struct gtsim_file *file);
int i915_gem_set_domain_ioctl(struct gtsim_file *file, void *arg);
int i915_gem_sw_finish_ioctl(struct gtsim_file *file, void *arg);

#endif
