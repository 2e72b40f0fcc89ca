/* GPU memory: physical pages and the address spaces that map them.
 *
 * Contract between the kernel model (which creates objects, page tables and
 * PTEs) and the device model (which walks them on every access).
 *
 * Physical memory: every GEM object's backing store (a host mapping of its
 * memfd) and every page-table page is registered as a range of GPU physical
 * addresses. A physical address that no range covers is not backed; the GPU
 * faults on it instead of touching host memory.
 *
 * Address spaces (gen8 formats, PRM vol. 5 "Memory Views"):
 *  - GGTT: a flat table of 64-bit PTEs, one per 4 KiB page.
 *  - PPGTT: 4-level 48-bit tables (PML4 -> PDP -> PD -> PT), each a 4 KiB
 *    physical page of 512 64-bit entries. Entry bit 0 = present, bit 1 = RW,
 *    bits 12..47 = physical address of the next level or of the page. */
#ifndef GTSIM_GPU_MEM_H
#define GTSIM_GPU_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GT_PAGE_SIZE 4096ull
#define GT_PTE_PRESENT (1ull << 0)
#define GT_PTE_RW (1ull << 1)
#define GT_PTE_ADDR_MASK 0x0000fffffffff000ull

struct gt_phys;

struct gt_phys *phys_create(void);
void phys_destroy(struct gt_phys *phys);
/* Register host memory [host, host + size), both page aligned, and return
 * its physical base address (page aligned, never 0). 0 on failure. */
uint64_t phys_add(struct gt_phys *phys, void *host, uint64_t size);
void phys_remove(struct gt_phys *phys, uint64_t pa);
/* Host pointer for physical address pa, and in *avail the number of bytes
 * from pa to the end of its range. NULL when pa is not backed. Safe to call
 * from any thread. */
void *phys_lookup(struct gt_phys *phys, uint64_t pa, uint64_t *avail);
/* Every translation cached from address spaces over phys is dropped (the
 * GPU's TLB invalidation): the kernel model calls it after it clears or
 * changes a present PTE or frees a page table (unbind, PPGTT updates, VM
 * destruction). Removing a range does it too. Any thread. */
void phys_tlb_invalidate(struct gt_phys *phys);

struct gt_ggtt {
	uint64_t *ptes;           /* size / 4096 entries */
	uint64_t size;            /* bytes of address space */
};

/* The GPU's view of one address space; a small value, copied freely. */
struct gt_vm {
	struct gt_phys *phys;
	const struct gt_ggtt *ggtt; /* set: this is the GGTT */
	uint64_t pml4;              /* PPGTT: physical address of the PML4 page */
};

/* Translate one address. 0, or -EFAULT when any level is not present (or,
 * with write, not writable) or the address is out of range. */
int vm_translate(const struct gt_vm *vm, uint64_t va, bool write, uint64_t *pa);
/* Copy between an address space and host memory, page by page.
 * 0 or -EFAULT; nothing is written past the first faulting page. */
int vm_read(const struct gt_vm *vm, uint64_t va, void *dst, size_t len);
int vm_write(const struct gt_vm *vm, uint64_t va, const void *src, size_t len);
/* Host pointer for va, valid for *avail bytes (at least to the end of the
 * page). NULL when not mapped. Translations are cached per host thread
 * until phys_tlb_invalidate (vm_translate always walks). */
void *vm_map(const struct gt_vm *vm, uint64_t va, bool write, uint64_t *avail);

/* A hold on one page's translation over a batch of accesses the GPU makes
 * as one (a render target write message, a run of depth tests): one
 * vm_map per 4 KiB page instead of one per access. Start each batch with
 * vm_page_hold_init: a hold is not invalidated (phys_tlb_invalidate)
 * while it lasts, as a message in flight keeps its translation. */
struct vm_page_hold {
	uint64_t page;            /* va >> 12, UINT64_MAX: none */
	char *host;               /* the page's first byte, NULL: not wholly mapped */
	bool write;               /* mapped for writing */
};

static inline void vm_page_hold_init(struct vm_page_hold *h)
{
	h->page = UINT64_MAX;
	h->host = NULL;
	h->write = false;
}

/* Slow path of vm_page_map: map va's page (gtt_walk.c). */
char *vm_page_hold_fill(const struct gt_vm *vm, struct vm_page_hold *h, uint64_t va, bool write);

/* Host address of va when its whole 4 KiB page is mapped (writable with
 * write), else NULL: the caller then goes through vm_read/vm_write, which
 * fault as the access would. */
static inline void *vm_page_map(const struct gt_vm *vm, struct vm_page_hold *h, uint64_t va,
				bool write)
{
	char *base = va >> 12 == h->page && (h->write || !write) ? h->host :
		     vm_page_hold_fill(vm, h, va, write);
	return base ? base + (va & (GT_PAGE_SIZE - 1)) : NULL;
}

#endif
