/* PPGTT page tables: a pool of kernel-owned 4 KiB pages registered in
 * phys (so the GPU's walk reaches them), and the PTE writes for binding.
 * Layout (PRM vol. 5 "Memory Views", 48-bit PPGTT): PML4[47:39] ->
 * PDP[38:30] -> PD[29:21] -> PT[20:12]; directory entries are written
 * present + RW, tables allocated on first use. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kernel/device.h"
#include "kernel/vm.h"

#define POOL_CHUNK_PAGES 512u

struct pt_chunk {
	struct pt_chunk *next;
	void *host;
	uint64_t pa;
};

struct pt_pool {
	struct gt_phys *phys;
	struct pt_chunk *chunks;
	void *free_list;          /* free pages, linked through their first word */
};

struct pt_pool *pt_pool_create(struct gt_phys *phys)
{
	struct pt_pool *pool = calloc(1, sizeof(*pool));
	if (pool)
		pool->phys = phys;
	return pool;
}

void pt_pool_destroy(struct pt_pool *pool)
{
	if (!pool)
		return;
	while (pool->chunks) {
		struct pt_chunk *c = pool->chunks;
		pool->chunks = c->next;
		phys_remove(pool->phys, c->pa);
		munmap(c->host, POOL_CHUNK_PAGES * GT_PAGE_SIZE);
		free(c);
	}
	free(pool);
}

static int pool_grow(struct pt_pool *pool)
{
	struct pt_chunk *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	size_t bytes = POOL_CHUNK_PAGES * GT_PAGE_SIZE;
	c->host = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->host == MAP_FAILED || !(c->pa = phys_add(pool->phys, c->host, bytes))) {
		if (c->host != MAP_FAILED)
			munmap(c->host, bytes);
		free(c);
		return -ENOMEM;
	}
	c->next = pool->chunks;
	pool->chunks = c;
	for (unsigned i = POOL_CHUNK_PAGES; i-- > 0;) {
		void **page = (void **)((char *)c->host + i * GT_PAGE_SIZE);
		*page = pool->free_list;
		pool->free_list = page;
	}
	return 0;
}

static uint64_t pool_page_pa(struct pt_pool *pool, const void *page)
{
	for (struct pt_chunk *c = pool->chunks; c; c = c->next) {
		uintptr_t off = (uintptr_t)page - (uintptr_t)c->host;
		if ((uintptr_t)page >= (uintptr_t)c->host && off < POOL_CHUNK_PAGES * GT_PAGE_SIZE)
			return c->pa + off;
	}
	return 0;
}

uint64_t *pt_page_alloc(struct pt_pool *pool, uint64_t *pa)
{
	if (!pool->free_list && pool_grow(pool))
		return NULL;
	void **page = pool->free_list;
	pool->free_list = *page;
	memset(page, 0, GT_PAGE_SIZE);
	*pa = pool_page_pa(pool, page);
	return (uint64_t *)page;
}

void pt_page_free(struct pt_pool *pool, uint64_t *page)
{
	if (!page)
		return;
	void **p = (void **)page;
	*p = pool->free_list;
	pool->free_list = p;
}

static unsigned pt_index(uint64_t va, int level)
{
	return (va >> (12 + 9 * level)) & 511;
}

/* The table below entry e (allocated when alloc), as a host pointer. */
static uint64_t *next_table(struct gem_vm *vm, uint64_t *e, bool alloc)
{
	uint64_t entry = __atomic_load_n(e, __ATOMIC_ACQUIRE);
	if (entry & GT_PTE_PRESENT)
		return phys_lookup(vm->gt.phys, entry & GT_PTE_ADDR_MASK, NULL);
	if (!alloc)
		return NULL;
	uint64_t pa;
	uint64_t *t = pt_page_alloc(vm->dev->pt_pool, &pa);
	if (t)
		__atomic_store_n(e, pa | GT_PTE_PRESENT | GT_PTE_RW, __ATOMIC_RELEASE);
	return t;
}

/* The PTE for va (its page table allocated when alloc), or NULL. */
static uint64_t *ppgtt_pte(struct gem_vm *vm, uint64_t va, bool alloc)
{
	uint64_t *table = vm->pml4;
	for (int level = 3; level > 0 && table; level--)
		table = next_table(vm, &table[pt_index(va, level)], alloc);
	return table ? &table[pt_index(va, 0)] : NULL;
}

/* The page tables are walked once per page table (512 PTEs), not once per
 * page: binding a large object (an execbuf binds every page) walked four
 * levels for each of its pages. va is page aligned. */
int vm_map_range(struct gem_vm *vm, uint64_t va, uint64_t pa, uint64_t size, bool readonly)
{
	for (uint64_t off = 0; off < size;) {
		uint64_t pte = ((pa + off) & GT_PTE_ADDR_MASK) | GT_PTE_PRESENT;
		if (vm->is_ggtt) {
			__atomic_store_n((uint64_t *)&vm->gt.ggtt->ptes[(va + off) / GT_PAGE_SIZE],
					 pte, __ATOMIC_RELEASE);
			off += GT_PAGE_SIZE;
			continue;
		}
		uint64_t *e = ppgtt_pte(vm, va + off, true);
		if (!e) {
			vm_unmap_range(vm, va, off);
			return -ENOMEM;
		}
		for (unsigned i = pt_index(va + off, 0); i < 512 && off < size;
		     i++, e++, off += GT_PAGE_SIZE) {
			pte = ((pa + off) & GT_PTE_ADDR_MASK) | GT_PTE_PRESENT;
			__atomic_store_n(e, readonly ? pte : pte | GT_PTE_RW, __ATOMIC_RELEASE);
		}
	}
	gpu_invalidate_tlbs(vm->dev->gpu);      /* a present PTE may have changed */
	return 0;
}

void vm_unmap_range(struct gem_vm *vm, uint64_t va, uint64_t size)
{
	for (uint64_t off = 0; off < size;) {
		if (vm->is_ggtt) {
			__atomic_store_n((uint64_t *)&vm->gt.ggtt->ptes[(va + off) / GT_PAGE_SIZE], 0,
					 __ATOMIC_RELEASE);
			off += GT_PAGE_SIZE;
			continue;
		}
		/* no page table here: nothing mapped up to the next one */
		uint64_t *e = ppgtt_pte(vm, va + off, false);
		for (unsigned i = pt_index(va + off, 0); i < 512 && off < size;
		     i++, off += GT_PAGE_SIZE)
			if (e)
				__atomic_store_n(e++, 0, __ATOMIC_RELEASE);
	}
	gpu_invalidate_tlbs(vm->dev->gpu);
}

/* Free a table and, below level 0, every table it points to. */
static void free_tables(struct gem_vm *vm, uint64_t *table, int level)
{
	if (level > 0)
		for (unsigned i = 0; i < 512; i++)
			if (table[i] & GT_PTE_PRESENT)
				free_tables(vm, phys_lookup(vm->gt.phys, table[i] & GT_PTE_ADDR_MASK, NULL),
					    level - 1);
	pt_page_free(vm->dev->pt_pool, table);
}

struct gem_vm *vm_ppgtt_create(struct gtsim_device *dev)
{
	struct gem_vm *vm = calloc(1, sizeof(*vm));
	if (!vm)
		return NULL;
	vm->dev = dev;
	vm->total = 1ull << 48;
	vm->refcount = 1;
	list_init(&vm->nodes);
	list_init(&vm->lru);
	vm->pml4 = pt_page_alloc(dev->pt_pool, &vm->gt.pml4);
	if (!vm->pml4) {
		free(vm);
		return NULL;
	}
	vm->gt.phys = dev->gpu->phys;
	return vm;
}

void vm_ppgtt_free_tables(struct gem_vm *vm)
{
	if (vm->pml4)
		free_tables(vm, vm->pml4, 3);
	vm->pml4 = NULL;
	gpu_invalidate_tlbs(vm->dev->gpu);      /* the tables' pages are reused */
}
