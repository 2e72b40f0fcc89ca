/* The translation cache of vm_map (gtt_walk.c) against hand-built PPGTT
 * and GGTT tables: a translation once made is reused (a PTE rewritten
 * behind the GPU's back is not seen, as on the hardware, whose TLBs also
 * need an invalidation), phys_tlb_invalidate drops it (a cleared PTE then
 * faults, a remapped one reaches the new page), removing a physical range
 * drops it too, a read-only translation never serves a write, faults are
 * not cached, and each host thread has its own cache. Oracle: the data
 * pages' host memory, written and read directly. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/mem/mem.h"
#include "test.h"

static uint64_t *new_page(struct gt_phys *phys, uint64_t *pa)
{
	uint64_t *t = aligned_alloc(4096, 4096);
	memset(t, 0, 4096);
	*pa = phys_add(phys, t, 4096);
	return t;
}

static uint32_t read32(const struct gt_vm *vm, uint64_t va, int *err)
{
	uint32_t v = 0;
	*err = vm_read(vm, va, &v, 4);
	return v;
}

struct other_thread {
	const struct gt_vm *vm;
	uint64_t va;
	int err;
	uint32_t value;
};

static void *read_in_thread(void *arg)
{
	struct other_thread *o = arg;
	o->value = read32(o->vm, o->va, &o->err);
	return NULL;
}

int main(void)
{
	struct gt_phys *phys = phys_create();
	uint64_t pa[6];
	uint64_t *pml4 = new_page(phys, &pa[0]), *pdp = new_page(phys, &pa[1]);
	uint64_t *pd = new_page(phys, &pa[2]), *pt = new_page(phys, &pa[3]);
	uint32_t *a = (uint32_t *)new_page(phys, &pa[4]), *b = (uint32_t *)new_page(phys, &pa[5]);
	a[1] = 0xaaaa0001;
	b[1] = 0xbbbb0001;
	/* va 0x1000: PML4 0, PDP 0, PD 0, PT 1 */
	const uint64_t va = 0x1000;
	pml4[0] = pa[1] | GT_PTE_PRESENT | GT_PTE_RW;
	pdp[0] = pa[2] | GT_PTE_PRESENT | GT_PTE_RW;
	pd[0] = pa[3] | GT_PTE_PRESENT | GT_PTE_RW;
	pt[1] = pa[4] | GT_PTE_PRESENT | GT_PTE_RW;
	struct gt_vm vm = { .phys = phys, .pml4 = pa[0] };
	int err;

	/* a miss is not cached: unmapped, then mapped, is seen at once */
	CHECK_EQ(read32(&vm, va + 4096 + 4, &err), 0);
	CHECK_EQ(err, -EFAULT);
	pt[2] = pa[5] | GT_PTE_PRESENT;            /* read-only */
	CHECK_EQ(read32(&vm, va + 4096 + 4, &err), 0xbbbb0001);
	CHECK_EQ(err, 0);
	/* the read-only translation is not used for a write */
	uint32_t w = 7;
	CHECK_EQ(vm_write(&vm, va + 4096, &w, 4), -EFAULT);
	CHECK_EQ(b[0], 0);

	CHECK_EQ(read32(&vm, va + 4, &err), 0xaaaa0001);
	CHECK_EQ(err, 0);
	/* cleared behind the cache: still translated until invalidated */
	pt[1] = 0;
	CHECK_EQ(read32(&vm, va + 4, &err), 0xaaaa0001);
	/* another host thread has its own cache: it walks and faults */
	struct other_thread o = { &vm, va + 4, 0, 0 };
	pthread_t th;
	CHECK_EQ(pthread_create(&th, NULL, read_in_thread, &o), 0);
	pthread_join(th, NULL);
	CHECK_EQ(o.err, -EFAULT);
	/* unbind: invalidated, the access faults */
	phys_tlb_invalidate(phys);
	CHECK_EQ(read32(&vm, va + 4, &err), 0);
	CHECK_EQ(err, -EFAULT);
	uint64_t avail;
	CHECK(vm_map(&vm, va, false, &avail) == NULL);

	/* remap to page b: after the invalidation the new page is seen */
	pt[1] = pa[4] | GT_PTE_PRESENT | GT_PTE_RW;
	CHECK_EQ(read32(&vm, va + 4, &err), 0xaaaa0001);
	pt[1] = pa[5] | GT_PTE_PRESENT | GT_PTE_RW;
	phys_tlb_invalidate(phys);
	CHECK_EQ(read32(&vm, va + 4, &err), 0xbbbb0001);
	CHECK_EQ(err, 0);
	w = 0x12345678;
	CHECK_EQ(vm_write(&vm, va + 8, &w, 4), 0);
	CHECK_EQ(b[2], 0x12345678);
	CHECK_EQ(a[2], 0);
	/* vm_map's pointer and span come from the cache on a hit */
	char *h = vm_map(&vm, va + 0x10, true, &avail);
	CHECK(h == (char *)b + 0x10);
	CHECK_EQ(avail, 4096 - 0x10);

	/* removing the physical range behind a cached translation drops it */
	phys_remove(phys, pa[5]);
	CHECK_EQ(read32(&vm, va + 4, &err), 0);
	CHECK_EQ(err, -EFAULT);

	/* a GGTT beside it: its own space, same rules */
	uint64_t ptes[4] = { 0, pa[4] | GT_PTE_PRESENT, 0, 0 };
	struct gt_ggtt ggtt = { ptes, sizeof(ptes) / 8 * 4096 };
	struct gt_vm g = { .phys = phys, .ggtt = &ggtt };
	CHECK_EQ(read32(&g, 4096 + 4, &err), 0xaaaa0001);
	CHECK_EQ(vm_write(&g, 4096 + 12, &w, 4), 0);  /* GGTT pages are writable */
	CHECK_EQ(a[3], 0x12345678);
	ptes[1] = 0;
	phys_tlb_invalidate(phys);
	CHECK_EQ(read32(&g, 4096 + 4, &err), 0);
	CHECK_EQ(err, -EFAULT);

	phys_destroy(phys);
	free(pml4); free(pdp); free(pd); free(pt); free(a); free(b);
	return test_exit();
}
