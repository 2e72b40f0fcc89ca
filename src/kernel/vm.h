/* Address spaces as the kernel manages them (i915_address_space + drm_mm):
 * the global GTT, whose first aperture_size bytes are the CPU-mappable
 * aperture, and one full 48-bit PPGTT per context with real 4-level page
 * tables in kernel-owned pages registered in phys (the GPU walks them).
 *
 * A vma is one object bound into one address space at [start, start+size).
 * Binding writes PTEs; unbinding clears them (not present: a stray GPU
 * access faults). When no hole fits, unpinned inactive vmas are evicted in
 * LRU order (seed 002: the kernel moves buffers when they don't all fit);
 * -ENOSPC when that cannot make room. Everything here: dev->lock held. */
#ifndef GTSIM_KERNEL_VM_H
#define GTSIM_KERNEL_VM_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/mem/mem.h"
#include "kernel/list.h"

struct gtsim_device;
struct gem_object;

struct gem_vm {
	struct gtsim_device *dev;
	bool is_ggtt;
	uint64_t total;           /* bytes of address space */
	uint64_t mappable_end;    /* GGTT: end of the aperture; PPGTT: 0 */
	struct gt_vm gt;          /* the GPU's view: give this to the engines */
	unsigned refcount;
	uint32_t file_id;         /* id in its file's VM table (VM_CREATE), 0 otherwise */
	struct list_node nodes;   /* vmas sorted by start (vm_link) */
	/* The last vma of the gap-free run that starts at the first one
	 * (NULL: not known): first fit need not look below it again, so
	 * binding n objects one after another is not quadratic (vm.c). */
	struct gem_vma *hole_hint;
	struct list_node lru;     /* vmas, least recently used first (lru_link) */
	uint64_t bound_bytes;
	/* PPGTT: host pointer of the PML4 page (gt.pml4 is its phys address). */
	uint64_t *pml4;
};

struct gem_vma {
	struct gem_vm *vm;
	struct gem_object *obj;
	uint64_t start, size;
	unsigned pin_count;       /* > 0: never evicted or moved */
	bool scan_mark;           /* eviction scan: chosen as a victim */
	/* its file closed its last handle while the GPU still used the object:
	 * unbound when the object goes idle (i915_vma_close, reaped on retire) */
	bool closed;
	struct list_node vm_link, lru_link, obj_link;
};

/* vma_bind() flags (i915's PIN_*). */
#define PIN_MAPPABLE     (1u << 0)  /* GGTT: inside the CPU-visible aperture */
#define PIN_ZONE_4G      (1u << 1)  /* end below 4 GiB - 4 KiB (no 48-bit support) */
#define PIN_OFFSET_FIXED (1u << 2)  /* exactly at offset (softpin) */
#define PIN_OFFSET_BIAS  (1u << 3)  /* at or above offset */
#define PIN_NOEVICT      (1u << 4)  /* fail with -ENOSPC rather than evict */
#define PIN_HIGH         (1u << 5)  /* prefer the top of the range */
#define PIN_PIN          (1u << 6)  /* also take a pin (pin_count++) */
/* Wait for busy objects in the way and evict them too (i915 evicts active
 * vmas after the idle ones, unbinding waits); dev->lock is dropped while
 * waiting. For execbuf, whose objects are held and pinned meanwhile. */
#define PIN_WAIT         (1u << 7)

/* The GGTT (wrapping gpu->ggtt) and PPGTTs. */
struct gem_vm *vm_ggtt_create(struct gtsim_device *dev, uint64_t mappable_end);
/* A fresh 48-bit PPGTT with an empty PML4. NULL on -ENOMEM. */
struct gem_vm *vm_ppgtt_create(struct gtsim_device *dev);
struct gem_vm *vm_get(struct gem_vm *vm);
/* The last put unbinds everything and frees the page tables. */
void vm_put(struct gem_vm *vm);

/* Bind obj into vm (or reuse its binding when it already satisfies flags,
 * offset and alignment; an unpinned binding that doesn't is moved).
 * offset: the address for PIN_OFFSET_FIXED, the minimum for
 * PIN_OFFSET_BIAS. alignment: 0 or a power of two (at least 4096 used).
 * 0 and *out, or -EINVAL (bad offset/alignment, object larger than the
 * allowed range), -ENOSPC (nothing evictable makes room; a pinned binding
 * in the way), -EFAULT (obj was purged: it has no pages). Nothing changes on failure except evictions. */
int vma_bind(struct gem_vm *vm, struct gem_object *obj, unsigned flags,
	     uint64_t offset, uint64_t alignment, struct gem_vma **out);
/* vma_bind with a node of at least pad bytes (execbuf's PAD_TO_SIZE: the
 * object takes pad bytes of address space; the rest is left unmapped). */
int vma_bind_padded(struct gem_vm *vm, struct gem_object *obj, uint64_t pad, unsigned flags,
		    uint64_t offset, uint64_t alignment, struct gem_vma **out);
/* obj's binding in vm, or NULL. */
struct gem_vma *vma_lookup(struct gem_vm *vm, struct gem_object *obj);
void vma_pin(struct gem_vma *vma);
void vma_unpin(struct gem_vma *vma);
/* Clear its PTEs and free the vma. -EBUSY when pinned. */
int vma_unbind(struct gem_vma *vma);
/* Unbind every (unpinned) binding of obj: 0 or -EBUSY. */
int obj_unbind_all(struct gem_object *obj);
/* A file closed its handle of obj: its bindings in vm are unbound now if
 * the object is idle, else marked closed and unbound by vma_reap_closed
 * when it goes idle (i915_gem_close_object -> i915_vma_close). */
void vma_close(struct gem_vma *vma);
/* Unbind obj's closed, unpinned bindings (obj just went idle). */
void vma_reap_closed(struct gem_object *obj);
/* Mark recently used (moves to the LRU tail). */
void vma_touch(struct gem_vma *vma);
/* Does the vma satisfy these placement flags? */
bool vma_fits(const struct gem_vma *vma, unsigned flags, uint64_t offset, uint64_t alignment);

/* PPGTT page-table pool (kernel-owned, phys-registered pages). */
struct pt_pool;
struct pt_pool *pt_pool_create(struct gt_phys *phys);
void pt_pool_destroy(struct pt_pool *pool);
/* A zeroed 4 KiB page: host pointer, and its phys address in *pa. */
uint64_t *pt_page_alloc(struct pt_pool *pool, uint64_t *pa);
void pt_page_free(struct pt_pool *pool, uint64_t *page);

/* Write or clear the PTEs for [va, va + size) -> physical pa (contiguous);
 * readonly: PPGTT PTEs without RW (the gen8 GGTT has no such bit).
 * PPGTT: allocates table pages on demand (-ENOMEM). */
int vm_map_range(struct gem_vm *vm, uint64_t va, uint64_t pa, uint64_t size, bool readonly);
void vm_unmap_range(struct gem_vm *vm, uint64_t va, uint64_t size);
/* PPGTT teardown (vm_put): frees every table page. */
void vm_ppgtt_free_tables(struct gem_vm *vm);

#endif
