/* Routes DRM ioctl numbers to the kernel model's handlers. Like drm_ioctl()
 * the command number decides; the direction and size bits of the request
 * are not checked because the caller hands over the struct itself.
 *
 * The table lists every ioctl the model knows, indexed by its number (the
 * nr of the uAPI request macro), like drm-shim's driver_ioctls[]: handler,
 * flags, the size of the struct the handler reads, name. An entry without
 * a handler is an i915 ioctl the model does not implement: -ENOTTY,
 * reported once under trace category "stub" by its name. A number outside
 * the table is not a DRM/i915 ioctl at all. */
#include "kernel/ioctl.h"
#include "kernel/ioctl_table.h"

#include <errno.h>
#include <i915_drm.h>
#include <string.h>

#include "common/trace.h"
#include "gtsim/gtsim.h"
#include "kernel/file.h"
#include "kernel/vgem/vgem.h"

#define TABLE_SIZE 0x100
static const struct ioctl_desc table[TABLE_SIZE] = {
	/* DRM core */
	IOCTL(DRM_IOCTL_VERSION, drm_version, 0),
	IOCTL(DRM_IOCTL_GET_UNIQUE, drm_get_unique, 0),
	IOCTL(DRM_IOCTL_SET_VERSION, drm_set_version, 0),
	IOCTL(DRM_IOCTL_GEM_CLOSE, drm_gem_close, 0),
	IOCTL(DRM_IOCTL_GEM_FLINK, drm_gem_flink, IOCTL_AUTH),
	IOCTL(DRM_IOCTL_GEM_OPEN, drm_gem_open, IOCTL_AUTH),
	IOCTL(DRM_IOCTL_GET_MAGIC, drm_get_magic, 0),
	IOCTL(DRM_IOCTL_GET_CLIENT, drm_get_client, 0),
	IOCTL(DRM_IOCTL_GET_STATS, drm_get_stats, 0),
	IOCTL(DRM_IOCTL_AUTH_MAGIC, drm_auth_magic, 0),
	IOCTL(DRM_IOCTL_SET_MASTER, drm_set_master, 0),
	IOCTL(DRM_IOCTL_DROP_MASTER, drm_drop_master, 0),
	IOCTL(DRM_IOCTL_GET_CAP, drm_get_cap, 0),
	IOCTL(DRM_IOCTL_SET_CLIENT_CAP, drm_set_client_cap, 0),
	IOCTL(DRM_IOCTL_PRIME_HANDLE_TO_FD, drm_prime_handle_to_fd, 0),
	IOCTL(DRM_IOCTL_PRIME_FD_TO_HANDLE, drm_prime_fd_to_handle, 0),
	/* DRM syncobjs */
	IOCTL(DRM_IOCTL_SYNCOBJ_CREATE, drm_syncobj_create, 0),
	IOCTL(DRM_IOCTL_SYNCOBJ_DESTROY, drm_syncobj_destroy, 0),
	IOCTL(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, drm_syncobj_handle_to_fd, 0),
	IOCTL(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, drm_syncobj_fd_to_handle, 0),
	IOCTL(DRM_IOCTL_SYNCOBJ_WAIT, drm_syncobj_wait, 0),
	IOCTL(DRM_IOCTL_SYNCOBJ_RESET, drm_syncobj_reset, 0),
	IOCTL(DRM_IOCTL_SYNCOBJ_SIGNAL, drm_syncobj_signal, 0),
	IOCTL(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, drm_syncobj_timeline_wait, 0),
	IOCTL(DRM_IOCTL_SYNCOBJ_QUERY, drm_syncobj_query, 0),
	IOCTL(DRM_IOCTL_SYNCOBJ_TRANSFER, drm_syncobj_transfer, 0),
	IOCTL(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, drm_syncobj_timeline_signal, 0),
	/* i915 */
	IOCTL(DRM_IOCTL_I915_GETPARAM, i915_getparam, 0),
	IOCTL(DRM_IOCTL_I915_SETPARAM, i915_setparam, 0),
	IOCTL(DRM_IOCTL_I915_GEM_EXECBUFFER2, i915_gem_execbuffer2, 0),
	IOCTL(DRM_IOCTL_I915_GEM_BUSY, i915_gem_busy, 0),
	IOCTL(DRM_IOCTL_I915_GEM_THROTTLE, i915_gem_throttle, 0),
	IOCTL(DRM_IOCTL_I915_GEM_CREATE, i915_gem_create, 0),
	IOCTL(DRM_IOCTL_I915_GEM_PREAD, i915_gem_pread, 0),
	IOCTL(DRM_IOCTL_I915_GEM_PWRITE, i915_gem_pwrite, 0),
	IOCTL(DRM_IOCTL_I915_GEM_MMAP, i915_gem_mmap, IOCTL_ZERO_EXTEND),
	IOCTL(DRM_IOCTL_I915_GEM_SET_DOMAIN, i915_gem_set_domain, 0),
	IOCTL(DRM_IOCTL_I915_GEM_SW_FINISH, i915_gem_sw_finish, 0),
	IOCTL(DRM_IOCTL_I915_GEM_SET_TILING, i915_gem_set_tiling, 0),
	IOCTL(DRM_IOCTL_I915_GEM_GET_TILING, i915_gem_get_tiling, 0),
	IOCTL(DRM_IOCTL_I915_GEM_GET_APERTURE, i915_gem_get_aperture, 0),
	/* MMAP_GTT's number, with MMAP_OFFSET's larger struct */
	IOCTL(DRM_IOCTL_I915_GEM_MMAP_OFFSET, i915_gem_mmap_offset, IOCTL_ZERO_EXTEND),
	IOCTL(DRM_IOCTL_I915_GEM_MADVISE, i915_gem_madvise, 0),
	IOCTL(DRM_IOCTL_I915_GEM_WAIT, i915_gem_wait, 0),
	/* CONTEXT_CREATE's number, with CONTEXT_CREATE_EXT's larger struct */
	IOCTL(DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, i915_gem_context_create, IOCTL_ZERO_EXTEND),
	IOCTL(DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, i915_gem_context_destroy, 0),
	IOCTL(DRM_IOCTL_I915_GEM_SET_CACHING, i915_gem_set_caching, 0),
	IOCTL(DRM_IOCTL_I915_GEM_GET_CACHING, i915_gem_get_caching, 0),
	IOCTL(DRM_IOCTL_I915_REG_READ, i915_reg_read, 0),
	IOCTL(DRM_IOCTL_I915_GET_RESET_STATS, i915_get_reset_stats, 0),
	IOCTL(DRM_IOCTL_I915_GEM_USERPTR, i915_gem_userptr, 0),
	IOCTL(DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, i915_gem_context_getparam, 0),
	IOCTL(DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, i915_gem_context_setparam, 0),
	IOCTL(DRM_IOCTL_I915_QUERY, i915_query, 0),
	IOCTL(DRM_IOCTL_I915_GEM_VM_CREATE, i915_gem_vm_create, 0),
	IOCTL(DRM_IOCTL_I915_GEM_VM_DESTROY, i915_gem_vm_destroy, 0),
	IOCTL(DRM_IOCTL_I915_GEM_CREATE_EXT, i915_gem_create_ext, 0),
};

/* Each number reported once under stub, however often it is called. */
static void report_once(unsigned nr, const char *what, const char *name)
{
	static uint8_t reported[TABLE_SIZE];
	if (trace_on(TRACE_STUB) &&
	    !__atomic_exchange_n(&reported[nr % TABLE_SIZE], 1, __ATOMIC_RELAXED)) {
		if (name)
			trace_printf(TRACE_STUB, "ioctl %s %s: -ENOTTY", name, what);
		else
			trace_printf(TRACE_STUB, "unknown ioctl nr 0x%x: -ENOTTY", nr);
	}
}

int ioctl_call(struct gtsim_file *file, const struct ioctl_desc *d, unsigned long request,
	       void *arg)
{
	if ((d->flags & IOCTL_AUTH) && drm_auth_check(file))
		return -EACCES;
	if (!arg && _IOC_SIZE(request))
		return -EFAULT;
	int ret;
	size_t usize = _IOC_SIZE(request);
	if (usize < d->ksize) {
		/* Any entry: a size-0 request reached handlers with NULL
		 * (found by fuzz/fuzz_ioctl.c). */
		_Alignas(8) unsigned char kdata[128] = { 0 };
		if (d->ksize > sizeof(kdata))   /* no uAPI struct of the table is */
			return -EINVAL;
		if (usize)
			memcpy(kdata, arg, usize);
		ret = d->fn(file, kdata);
		if ((_IOC_DIR(request) & _IOC_READ) && usize)
			memcpy(arg, kdata, usize);
	} else {
		ret = d->fn(file, arg);
	}
	TRACE(TRACE_GEM, "ioctl %s -> %d", d->name, ret);
	return ret;
}

/* The status flags of the descriptor the running ioctl came through
 * (i915 reads file->f_flags; gtsim's caller passes them per call). */
static _Thread_local int call_f_flags;

int ioctl_file_flags(void)
{
	return call_f_flags;
}

int gtsim_ioctl_flags(struct gtsim_file *file, unsigned long request, void *arg, int f_flags)
{
	int outer = call_f_flags;   /* nested calls (none today) keep theirs */
	call_f_flags = f_flags;
	int ret = gtsim_ioctl(file, request, arg);
	call_f_flags = outer;
	return ret;
}

int gtsim_ioctl(struct gtsim_file *file, unsigned long request, void *arg)
{
	unsigned nr = _IOC_NR(request);

	if (!file)
		return -EBADF;
	if (file->vgem)   /* a file of the vgem node: its own driver's table */
		return vgem_ioctl(file, request, arg);
	const struct ioctl_desc *d = nr < TABLE_SIZE ? &table[nr] : NULL;
	if (!d || !d->name) {
		report_once(nr, "", NULL);
		TRACE(TRACE_GEM, "ioctl nr 0x%x: not a known DRM/i915 ioctl", nr);
		return -ENOTTY;
	}
	if (!d->fn) {
		report_once(nr, "not implemented", d->name);
		return -ENOTTY;
	}
	return ioctl_call(file, d, request, arg);
}
