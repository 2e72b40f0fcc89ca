/* The ioctl tables' entries (ioctl.c's for i915, vgem/vgem.c's for vgem)
 * and the call of one entry, shared by both drivers. */
#ifndef GTSIM_KERNEL_IOCTL_TABLE_H
#define GTSIM_KERNEL_IOCTL_TABLE_H

#include <sys/ioctl.h>

#include "kernel/ioctl.h"

/* The caller's struct may be older and shorter than the handler's (GEM_MMAP
 * without flags, MMAP_GTT vs MMAP_OFFSET, CONTEXT_CREATE vs _EXT), or a
 * request may give any size at all: like drm_ioctl, a struct shorter than
 * the handler's (none included) is zero-extended to the handler's size.
 * A struct of the handler's size or longer is used in place. The flag
 * marks the entries whose struct grew over i915's history. */
#define IOCTL_ZERO_EXTEND 1u
/* DRM_AUTH: on the primary node only authenticated files (drm_auth.c). */
#define IOCTL_AUTH 2u

struct ioctl_desc {
	ioctl_handler fn;          /* NULL: not implemented */
	unsigned flags;            /* IOCTL_* */
	unsigned ksize;            /* size of the handler's struct */
	const char *name;
};

#define IOCTL(request, handler, fl) \
	[_IOC_NR(request)] = { handler##_ioctl, fl, _IOC_SIZE(request), #handler }
#define IOCTL_NOT_IMPLEMENTED(request, handler) \
	[_IOC_NR(request)] = { NULL, 0, _IOC_SIZE(request), #handler }

/* Calls d's handler as drm_ioctl does: the authentication check, the
 * caller's struct zero-extended to the handler's size when shorter. */
int ioctl_call(struct gtsim_file *file, const struct ioctl_desc *d, unsigned long request,
	       void *arg);

#endif
