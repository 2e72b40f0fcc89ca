/* The fenced GTT view: what a CPU mapping through the aperture (MMAP_GTT,
 * MMAP_OFFSET GTT) of an X- or Y-tiled object shows on i915. A fence
 * register covers the object there and detiles it: the CPU sees the
 * surface's rows linearly (byte L of the mapping is the byte of row
 * L / stride, column L % stride), while the object's memory, which the GPU,
 * pread/pwrite and CPU (WB/WC) maps see, stays tiled.
 *
 * gtsim maps such an object's GTT mappings onto a linear shadow (a memfd
 * per object) whose pages are kept coherent with the tiled memory by page
 * faults, as a software fence:
 *  - a page is STALE (mapped PROT_NONE), CLEAN (read-only: detiled from
 *    the object on a read fault) or DIRTY (writable, after a write fault);
 *  - at a synchronisation point (gtt_fence_sync: execbuf, pread, pwrite,
 *    SET_DOMAIN, SET_TILING changes, the object's end) the DIRTY pages are
 *    tiled back into the object and every page becomes STALE again.
 * The tiling facts (X/Y layouts) are the surface module's
 * (gpu/surface/surface.h). No bit-6 swizzling on gen8+.
 *
 * Limitation: the kernel model's own copies (pread into a buffer that is
 * such a mapping) do not fault pages in: they are -EFAULT. */
#ifndef GTSIM_KERNEL_GTT_FENCE_H
#define GTSIM_KERNEL_GTT_FENCE_H

#include <stddef.h>
#include <stdint.h>

struct gem_object;

/* Maps obj's fenced view at addr (as mmap(2): addr is a hint unless flags
 * has MAP_FIXED) for len bytes: the mapping, or MAP_FAILED with errno.
 * obj is tiled. dev->lock held. */
void *gtt_fence_map(struct gem_object *obj, void *addr, size_t len, int prot, int flags);

/* A synchronisation point of obj: its dirty view pages written back into
 * the tiled memory, every page stale again. No-op without a view.
 * dev->lock held. */
void gtt_fence_sync(struct gem_object *obj);

/* obj is freed: its view is written back and forgotten (its mappings stay
 * valid memory, no longer coherent). dev->lock held. */
void gtt_fence_release(struct gem_object *obj);

#endif
