/* Routes DRM ioctl numbers to the kernel model's handlers. Like drm_ioctl()
 * the command number decides; the direction and size bits of the request
 * are not checked because the caller hands over the struct itself. */
#include "kernel/ioctl.h"

#include <errno.h>
#include <i915_drm.h>
#include <string.h>

#include "common/trace.h"
#include "gtsim/gtsim.h"

/* Weak defaults: each unit's strong definition replaces its entries. */
#define WEAK_DEFAULT(name)                                                   \
	__attribute__((weak)) int name##_ioctl(struct gtsim_file *file, void *arg) \
	{                                                                    \
		(void)file; (void)arg;                                       \
		TRACE_STUB_ONCE("ioctl %s not implemented: -ENOTTY", #name); \
		return -ENOTTY;                                              \
	}
IOCTL_HANDLERS(WEAK_DEFAULT)
#undef WEAK_DEFAULT

struct ioctl_entry {
	const char *name;
	ioctl_handler fn;
	/* Size of the struct the handler reads when an older, shorter struct
	 * shares the ioctl number (MMAP_GTT vs MMAP_OFFSET, CONTEXT_CREATE vs
	 * _EXT, GEM_MMAP without flags): like drm_ioctl, the caller's struct
	 * is zero-extended to it. 0: the handler takes the caller's struct. */
	unsigned ksize;
};

#define DRM_ENTRY(nr, fn) [nr] = { #fn, fn##_ioctl, 0 }
#define I915_ENTRY(nr, fn) [DRM_COMMAND_BASE + (nr)] = { #fn, fn##_ioctl, 0 }
#define I915_ENTRY_EXT(nr, fn, type) \
	[DRM_COMMAND_BASE + (nr)] = { #fn, fn##_ioctl, sizeof(type) }

#define TABLE_SIZE 0x100
static const struct ioctl_entry table[TABLE_SIZE] = {
	DRM_ENTRY(0x00, drm_version),
	DRM_ENTRY(0x01, drm_get_unique),
	DRM_ENTRY(0x09, drm_gem_close),
	DRM_ENTRY(0x0a, drm_gem_flink),
	DRM_ENTRY(0x0b, drm_gem_open),
	DRM_ENTRY(0x0c, drm_get_cap),
	DRM_ENTRY(0x0d, drm_set_client_cap),
	DRM_ENTRY(0x2d, drm_prime_handle_to_fd),
	DRM_ENTRY(0x2e, drm_prime_fd_to_handle),
	DRM_ENTRY(0xbf, drm_syncobj_create),
	DRM_ENTRY(0xc0, drm_syncobj_destroy),
	DRM_ENTRY(0xc1, drm_syncobj_handle_to_fd),
	DRM_ENTRY(0xc2, drm_syncobj_fd_to_handle),
	DRM_ENTRY(0xc3, drm_syncobj_wait),
	DRM_ENTRY(0xc4, drm_syncobj_reset),
	DRM_ENTRY(0xc5, drm_syncobj_signal),
	DRM_ENTRY(0xca, drm_syncobj_timeline_wait),
	DRM_ENTRY(0xcb, drm_syncobj_query),
	DRM_ENTRY(0xcc, drm_syncobj_transfer),
	DRM_ENTRY(0xcd, drm_syncobj_timeline_signal),
	I915_ENTRY(DRM_I915_GETPARAM, i915_getparam),
	I915_ENTRY(DRM_I915_SETPARAM, i915_setparam),
	I915_ENTRY(DRM_I915_GEM_EXECBUFFER2, i915_gem_execbuffer2),
	I915_ENTRY(DRM_I915_GEM_BUSY, i915_gem_busy),
	I915_ENTRY(DRM_I915_GEM_THROTTLE, i915_gem_throttle),
	I915_ENTRY(DRM_I915_GEM_CREATE, i915_gem_create),
	I915_ENTRY(DRM_I915_GEM_PREAD, i915_gem_pread),
	I915_ENTRY(DRM_I915_GEM_PWRITE, i915_gem_pwrite),
	I915_ENTRY_EXT(DRM_I915_GEM_MMAP, i915_gem_mmap, struct drm_i915_gem_mmap),
	I915_ENTRY(DRM_I915_GEM_SET_DOMAIN, i915_gem_set_domain),
	I915_ENTRY(DRM_I915_GEM_SW_FINISH, i915_gem_sw_finish),
	I915_ENTRY(DRM_I915_GEM_SET_TILING, i915_gem_set_tiling),
	I915_ENTRY(DRM_I915_GEM_GET_TILING, i915_gem_get_tiling),
	I915_ENTRY(DRM_I915_GEM_GET_APERTURE, i915_gem_get_aperture),
	I915_ENTRY_EXT(DRM_I915_GEM_MMAP_GTT, i915_gem_mmap_offset, struct drm_i915_gem_mmap_offset),
	I915_ENTRY(DRM_I915_GEM_MADVISE, i915_gem_madvise),
	I915_ENTRY(DRM_I915_GEM_WAIT, i915_gem_wait),
	I915_ENTRY_EXT(DRM_I915_GEM_CONTEXT_CREATE, i915_gem_context_create,
		       struct drm_i915_gem_context_create_ext),
	I915_ENTRY(DRM_I915_GEM_CONTEXT_DESTROY, i915_gem_context_destroy),
	I915_ENTRY(DRM_I915_GEM_SET_CACHING, i915_gem_set_caching),
	I915_ENTRY(DRM_I915_GEM_GET_CACHING, i915_gem_get_caching),
	I915_ENTRY(DRM_I915_REG_READ, i915_reg_read),
	I915_ENTRY(DRM_I915_GET_RESET_STATS, i915_get_reset_stats),
	I915_ENTRY(DRM_I915_GEM_USERPTR, i915_gem_userptr),
	I915_ENTRY(DRM_I915_GEM_CONTEXT_GETPARAM, i915_gem_context_getparam),
	I915_ENTRY(DRM_I915_GEM_CONTEXT_SETPARAM, i915_gem_context_setparam),
	I915_ENTRY(DRM_I915_QUERY, i915_query),
	I915_ENTRY(DRM_I915_GEM_VM_CREATE, i915_gem_vm_create),
	I915_ENTRY(DRM_I915_GEM_VM_DESTROY, i915_gem_vm_destroy),
	I915_ENTRY(DRM_I915_GEM_CREATE_EXT, i915_gem_create_ext),
};

int gtsim_ioctl(struct gtsim_file *file, unsigned long request, void *arg)
{
	unsigned nr = _IOC_NR(request);

	if (!file)
		return -EBADF;
	if (nr >= TABLE_SIZE || !table[nr].fn) {
		/* Reported once per ioctl number, however often it is called. */
		static uint8_t reported[256];
		if (trace_on(TRACE_STUB) &&
		    !__atomic_exchange_n(&reported[nr & 0xff], 1, __ATOMIC_RELAXED))
			trace_printf(TRACE_STUB, "unknown ioctl nr 0x%x: -ENOTTY", nr);
		TRACE(TRACE_GEM, "ioctl nr 0x%x: not a known DRM/i915 ioctl", nr);
		return -ENOTTY;
	}
	if (!arg && _IOC_SIZE(request))
		return -EFAULT;
	int ret;
	size_t usize = _IOC_SIZE(request);
	if (table[nr].ksize && usize && usize < table[nr].ksize) {
		_Alignas(8) unsigned char kdata[64] = { 0 };
		memcpy(kdata, arg, usize);
		ret = table[nr].fn(file, kdata);
		if (_IOC_DIR(request) & _IOC_READ)
			memcpy(arg, kdata, usize);
	} else {
		ret = table[nr].fn(file, arg);
	}
	TRACE(TRACE_GEM, "ioctl %s -> %d", table[nr].name, ret);
	return ret;
}
