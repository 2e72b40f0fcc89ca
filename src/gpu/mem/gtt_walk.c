/* Address translation as the GPU does it (PRM vol. 5 "Memory Views"):
 * the GGTT is one flat array of 64-bit PTEs; a 48-bit PPGTT is a 4-level
 * walk PML4[47:39] -> PDP[38:30] -> PD[29:21] -> PT[20:12], each table one
 * 4 KiB physical page of 512 entries. The GGTT has no writable bit on gen8:
 * every present GGTT page is writable.
 *
 * vm_map (and so vm_read/vm_write) first looks in a translation cache of
 * the calling host thread, as the GPU's TLBs do: a small direct-mapped
 * table of page translations to host pointers, each stamped with the
 * generation of the physical memory it was made under. The kernel model
 * changes the generation whenever it clears or changes PTEs or frees page
 * tables (phys_tlb_invalidate, through gpu_invalidate_tlbs), and every
 * removal of a physical range changes it too, so a hit needs no walk and
 * no lock: one load of the generation and a compare. Faults are never
 * cached. */
#include "gpu/mem/mem.h"
#include "gpu/mem/phys_internal.h"

#include <errno.h>
#include <string.h>

#define PPGTT_VA_BITS 48

static int walk_ggtt(const struct gt_vm *vm, uint64_t va, uint64_t *pa)
{
	const struct gt_ggtt *g = vm->ggtt;
	if (va >= g->size)
		return -EFAULT;
	uint64_t pte = __atomic_load_n(&g->ptes[va / GT_PAGE_SIZE], __ATOMIC_ACQUIRE);
	if (!(pte & GT_PTE_PRESENT))
		return -EFAULT;
	*pa = (pte & GT_PTE_ADDR_MASK) | (va & (GT_PAGE_SIZE - 1));
	return 0;
}

static int walk_ppgtt(const struct gt_vm *vm, uint64_t va, bool write, uint64_t *pa)
{
	/* Addresses in commands are 64-bit; the GPU uses bits 47:0. i915
	 * writes relocations and softpinned offsets in canonical form (bits
	 * 63:48 copies of bit 47) and Mesa emits both forms, so bits 63:48
	 * may be zero or the sign extension; anything else is a fault. */
	uint64_t upper = va >> PPGTT_VA_BITS;
	bool canonical_high = upper == 0xffff && (va >> (PPGTT_VA_BITS - 1) & 1);
	if (upper != 0 && !canonical_high)
		return -EFAULT;
	va &= (1ull << PPGTT_VA_BITS) - 1;
	uint64_t table = vm->pml4;
	for (int level = 3; level >= 0; level--) {
		unsigned index = (va >> (12 + 9 * level)) & 511;
		uint64_t avail;
		uint64_t *e = phys_lookup(vm->phys, table + index * 8ull, &avail);
		if (!e || avail < 8)
			return -EFAULT;
		uint64_t entry = __atomic_load_n(e, __ATOMIC_ACQUIRE);
		if (!(entry & GT_PTE_PRESENT) || (write && !(entry & GT_PTE_RW)))
			return -EFAULT;
		table = entry & GT_PTE_ADDR_MASK;
	}
	*pa = table | (va & (GT_PAGE_SIZE - 1));
	return 0;
}

int vm_translate(const struct gt_vm *vm, uint64_t va, bool write, uint64_t *pa)
{
	if (!vm || !vm->phys)
		return -EFAULT;
	return vm->ggtt ? walk_ggtt(vm, va, pa) : walk_ppgtt(vm, va, write, pa);
}

#define TLB_ENTRIES 64

struct tlb_entry {
	const struct gt_phys *phys;
	uint64_t generation;      /* phys->generation when made; 0: empty */
	uint64_t space;           /* the GGTT's address, or the PML4's | 1 */
	uint64_t page;            /* va >> 12 */
	char *host;               /* host address of the page's first byte */
	uint64_t avail;           /* bytes backed from there (<= a page) */
	bool writable;            /* a write was allowed through this entry */
};

/* initial-exec: the library is loaded at start (preloaded or linked), so
 * its thread-locals are at a fixed offset from the thread pointer, with
 * no __tls_get_addr call per look-up (1.3% of bench_fill) */
static _Thread_local struct tlb_entry tlb[TLB_ENTRIES] __attribute__((tls_model("initial-exec")));

static uint64_t space_of(const struct gt_vm *vm)
{
	return vm->ggtt ? (uint64_t)(uintptr_t)vm->ggtt : vm->pml4 | 1;
}

static void *walk_map(const struct gt_vm *vm, uint64_t va, bool write, uint64_t *avail)
{
	uint64_t pa, range;
	if (vm_translate(vm, va, write, &pa))
		return NULL;
	char *host = phys_lookup(vm->phys, pa, &range);
	if (!host)
		return NULL;
	/* Valid to the end of this GPU page (the next page may map elsewhere)
	 * and never past the physical range. */
	uint64_t in_page = GT_PAGE_SIZE - (va & (GT_PAGE_SIZE - 1));
	*avail = range < in_page ? range : in_page;
	return host;
}

void *vm_map(const struct gt_vm *vm, uint64_t va, bool write, uint64_t *avail)
{
	if (!vm || !vm->phys)
		return NULL;
	uint64_t gen = __atomic_load_n(&vm->phys->generation, __ATOMIC_ACQUIRE);
	uint64_t page = va >> 12, in = va & (GT_PAGE_SIZE - 1), space = space_of(vm);
	struct tlb_entry *e = &tlb[(page ^ (page >> 6)) % TLB_ENTRIES];
	if (e->generation == gen && e->page == page && e->space == space && e->phys == vm->phys &&
	    (e->writable || !write) && in < e->avail) {
		if (avail)
			*avail = e->avail - in;
		return e->host + in;
	}
	uint64_t got;
	char *host = walk_map(vm, va, write, &got);
	if (!host)
		return NULL;
	if (avail)
		*avail = got;
	/* cached only when made under the generation read first: a change
	 * during the walk leaves the entry empty */
	*e = (struct tlb_entry){ vm->phys, gen, space, page, host - in, got + in,
				 write || vm->ggtt };
	if (__atomic_load_n(&vm->phys->generation, __ATOMIC_ACQUIRE) != gen)
		e->generation = 0;
	return host;
}

char *vm_page_hold_fill(const struct gt_vm *vm, struct vm_page_hold *h, uint64_t va, bool write)
{
	uint64_t avail;
	h->page = va >> 12;
	h->write = write;
	h->host = vm_map(vm, va & ~(GT_PAGE_SIZE - 1), write, &avail);
	if (h->host && avail != GT_PAGE_SIZE)
		h->host = NULL;      /* part of a page backed: access by access */
	return h->host;
}

/* Copies len bytes page by page; to_gpu selects the direction. */
static int vm_copy(const struct gt_vm *vm, uint64_t va, void *host, size_t len, bool to_gpu)
{
	char *h = host;
	while (len) {
		uint64_t avail;
		char *p = vm_map(vm, va, to_gpu, &avail);
		if (!p)
			return -EFAULT;
		size_t n = len < avail ? len : (size_t)avail;
		if (to_gpu)
			memcpy(p, h, n);
		else
			memcpy(h, p, n);
		h += n;
		va += n;
		len -= n;
	}
	return 0;
}

int vm_read(const struct gt_vm *vm, uint64_t va, void *dst, size_t len)
{
	return vm_copy(vm, va, dst, len, false);
}

int vm_write(const struct gt_vm *vm, uint64_t va, const void *src, size_t len)
{
	return vm_copy(vm, va, (void *)src, len, true);
}
