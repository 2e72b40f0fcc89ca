/* GGTT and 4-level PPGTT translation against tables built by hand:
 * table indices computed from the PRM's bit fields
 * (PML4 = va[47:39], PDP = va[38:30], PD = va[29:21], PT = va[20:12]). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/mem/mem.h"
#include "test.h"

static uint64_t *new_table(struct gt_phys *phys, uint64_t *pa)
{
	uint64_t *t = aligned_alloc(4096, 4096);
	memset(t, 0, 4096);
	*pa = phys_add(phys, t, 4096);
	return t;
}

int main(void)
{
	struct gt_phys *phys = phys_create();
	char *data = aligned_alloc(4096, 2 * 4096);
	memset(data, 0, 2 * 4096);
	uint64_t data_pa = phys_add(phys, data, 2 * 4096);

	/* GGTT: 16 pages, page 3 -> data page 1, page 4 -> data page 0. */
	uint64_t ptes[16] = { 0 };
	struct gt_ggtt ggtt = { ptes, sizeof(ptes) / 8 * 4096 };
	ptes[3] = (data_pa + 4096) | GT_PTE_PRESENT;
	ptes[4] = data_pa | GT_PTE_PRESENT;
	struct gt_vm g = { .phys = phys, .ggtt = &ggtt };
	uint64_t pa;
	CHECK_EQ(vm_translate(&g, 3 * 4096 + 0x123, true, &pa), 0);  /* no RW bit in GGTT */
	CHECK_EQ(pa, data_pa + 4096 + 0x123);
	CHECK_EQ(vm_translate(&g, 5 * 4096, false, &pa), -EFAULT);
	CHECK_EQ(vm_translate(&g, 16 * 4096, false, &pa), -EFAULT);   /* past the end */

	/* A write across the page boundary 3 -> 4 lands in two data pages. */
	uint32_t v[2] = { 0x11111111, 0x22222222 };
	CHECK_EQ(vm_write(&g, 4 * 4096 - 4, v, 8), 0);
	CHECK_EQ(*(uint32_t *)(data + 2 * 4096 - 4), 0x11111111);
	CHECK_EQ(*(uint32_t *)(data + 0), 0x22222222);
	uint32_t r[2] = { 0 };
	CHECK_EQ(vm_read(&g, 4 * 4096 - 4, r, 8), 0);
	CHECK_EQ(r[0], 0x11111111);
	CHECK_EQ(r[1], 0x22222222);
	CHECK_EQ(vm_read(&g, 5 * 4096 - 4, r, 8), -EFAULT);

	/* PPGTT: va = 0x0000_7f12_3456_7000 + 0xabc.
	 * PML4 index = va >> 39 = 0xfe, PDP = (va >> 30) & 511 = 0x48,
	 * PD = (va >> 21) & 511 = 0x1a2, PT = (va >> 12) & 511 = 0x167. */
	const uint64_t va = 0x00007f1234567abcull;
	CHECK_EQ(va >> 39, 0xfe);
	CHECK_EQ((va >> 30) & 511, 0x48);
	CHECK_EQ((va >> 21) & 511, 0x1a2);
	CHECK_EQ((va >> 12) & 511, 0x167);
	uint64_t pml4_pa, pdp_pa, pd_pa, pt_pa;
	uint64_t *pml4 = new_table(phys, &pml4_pa), *pdp = new_table(phys, &pdp_pa);
	uint64_t *pd = new_table(phys, &pd_pa), *pt = new_table(phys, &pt_pa);
	pml4[0xfe] = pdp_pa | GT_PTE_PRESENT | GT_PTE_RW;
	pdp[0x48] = pd_pa | GT_PTE_PRESENT | GT_PTE_RW;
	pd[0x1a2] = pt_pa | GT_PTE_PRESENT | GT_PTE_RW;
	pt[0x167] = (data_pa + 4096) | GT_PTE_PRESENT;     /* read-only */
	pt[0x168] = data_pa | GT_PTE_PRESENT | GT_PTE_RW;
	struct gt_vm p = { .phys = phys, .pml4 = pml4_pa };

	CHECK_EQ(vm_translate(&p, va, false, &pa), 0);
	CHECK_EQ(pa, data_pa + 4096 + 0xabc);
	CHECK_EQ(vm_translate(&p, va, true, &pa), -EFAULT);   /* not writable */
	CHECK_EQ(vm_translate(&p, va + 4096, true, &pa), 0);
	CHECK_EQ(pa, data_pa + 0xabc);
	CHECK_EQ(vm_translate(&p, va + 2 * 4096, false, &pa), -EFAULT);
	CHECK_EQ(vm_translate(&p, 1ull << 48, false, &pa), -EFAULT);   /* beyond 48 bits */
	/* Canonical form (bits 63:48 = bit 47, as i915 writes relocations):
	 * the same walk as bits 47:0. PML4 slot 0x1fe = 0xfe | bit 47. */
	pml4[0x1fe] = pdp_pa | GT_PTE_PRESENT | GT_PTE_RW;
	CHECK_EQ(vm_translate(&p, va | 0xffff800000000000ull, false, &pa), 0);
	CHECK_EQ(pa, data_pa + 4096 + 0xabc);
	CHECK_EQ(vm_translate(&p, va | 0x0000800000000000ull, false, &pa), 0);
	CHECK_EQ(pa, data_pa + 4096 + 0xabc);
	/* upper bits that are not bit 47's sign extension */
	CHECK_EQ(vm_translate(&p, va | 0xffff000000000000ull, false, &pa), -EFAULT);
	CHECK_EQ(vm_translate(&p, va | 0x8000800000000000ull, false, &pa), -EFAULT);
	CHECK_EQ(vm_translate(&p, va ^ (1ull << 39), false, &pa), -EFAULT); /* other PML4 slot */

	uint64_t avail;
	char *h = vm_map(&p, va, false, &avail);
	CHECK(h == data + 4096 + 0xabc);
	CHECK_EQ(avail, 4096 - 0xabc);
	CHECK(vm_map(&p, va, true, &avail) == NULL);

	/* A directory entry pointing at unbacked memory faults, no crash. */
	pd[0x1a2] = (1ull << 46) | GT_PTE_PRESENT | GT_PTE_RW;
	CHECK_EQ(vm_translate(&p, va, false, &pa), -EFAULT);
	/* A PTE pointing at unbacked memory: translate works, map fails. */
	pd[0x1a2] = pt_pa | GT_PTE_PRESENT | GT_PTE_RW;
	pt[0x169] = (1ull << 46) | GT_PTE_PRESENT;
	CHECK(vm_map(&p, va + 2 * 4096, false, &avail) == NULL);
	CHECK_EQ(vm_read(&p, va + 2 * 4096, r, 4), -EFAULT);

	phys_destroy(phys);
	free(data); free(pml4); free(pdp); free(pd); free(pt);
	return test_exit();
}
