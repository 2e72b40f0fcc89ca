/* A GPU for command streamer tests: hand-made GGTT and PPGTT mappings, a
 * ring in the GGTT, helpers that write commands (hex dwords from the PRM)
 * and run them. Everything here is built by hand, not through the kernel
 * model. */
#ifndef CS_HARNESS_H
#define CS_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/devinfo.h"
#include "common/trace.h"
#include "gpu/cs/engine.h"
#include "gpu/gpu.h"
#include "gpu/mem/mem.h"

#define H_MAX_PAGES 256
#define H_RING_GGTT 0x100000u   /* 4 pages */
#define H_RING_SIZE 0x4000u
#define H_HWS_GGTT  0x1000u

struct harness {
	struct gt_gpu *gpu;
	void *pages[H_MAX_PAGES];
	int npages;
	uint64_t pml4_pa;
	uint64_t *pml4;
	uint32_t tail[GT_NUM_ENGINES];
	uint32_t *ring[GT_NUM_ENGINES];
	uint32_t *hws[GT_NUM_ENGINES];
	int faults, interrupts, preempted;
	char fault_reason[200];
};

/* A fresh zeroed physical page; its host pointer, its address in *pa. */
static inline void *h_page(struct harness *h, uint64_t *pa)
{
	if (h->npages >= H_MAX_PAGES)
		abort();
	void *p = aligned_alloc(4096, 4096);
	if (!p)
		abort();
	memset(p, 0, 4096);
	h->pages[h->npages++] = p;
	*pa = phys_add(h->gpu->phys, p, 4096);
	if (!*pa)
		abort();
	return p;
}

/* Map npages fresh pages at GGTT address gva; returns the host view of the
 * first one (pages are separate allocations: use h_ggtt_ptr). */
static inline void *h_ggtt_map(struct harness *h, uint64_t gva, int npages)
{
	void *first = NULL;
	for (int i = 0; i < npages; i++) {
		uint64_t pa;
		void *p = h_page(h, &pa);
		if (!first)
			first = p;
		h->gpu->ggtt.ptes[gva / 4096 + (uint64_t)i] = pa | GT_PTE_PRESENT | GT_PTE_RW;
	}
	return first;
}

static inline uint64_t *h_table_next(struct harness *h, uint64_t *table, unsigned idx)
{
	if (!(table[idx] & GT_PTE_PRESENT)) {
		uint64_t pa;
		h_page(h, &pa);
		table[idx] = pa | GT_PTE_PRESENT | GT_PTE_RW;
	}
	uint64_t avail;
	return phys_lookup(h->gpu->phys, table[idx] & GT_PTE_ADDR_MASK, &avail);
}

/* Map one fresh page at PPGTT address va (4-level, 48 bits). */
static inline void *h_ppgtt_map(struct harness *h, uint64_t va)
{
	uint64_t *pdp = h_table_next(h, h->pml4, (va >> 39) & 511);
	uint64_t *pd = h_table_next(h, pdp, (va >> 30) & 511);
	uint64_t *pt = h_table_next(h, pd, (va >> 21) & 511);
	uint64_t pa;
	void *p = h_page(h, &pa);
	pt[(va >> 12) & 511] = pa | GT_PTE_PRESENT | GT_PTE_RW;
	return p;
}

/* Host pointer of a GGTT / PPGTT address (must be mapped). */
static inline void *h_ptr(struct harness *h, bool ggtt, uint64_t va)
{
	struct gt_vm vm = { .phys = h->gpu->phys };
	if (ggtt)
		vm.ggtt = &h->gpu->ggtt;
	else
		vm.pml4 = h->pml4_pa;
	uint64_t avail;
	return vm_map(&vm, va, true, &avail);
}

static inline void h_on_preempted(void *data, struct gt_engine *e)
{
	(void)e;
	__atomic_add_fetch(&((struct harness *)data)->preempted, 1, __ATOMIC_SEQ_CST);
}

static inline void h_on_fault(void *data, struct gt_engine *e, const char *reason)
{
	struct harness *h = data;
	__atomic_add_fetch(&h->faults, 1, __ATOMIC_SEQ_CST);
	snprintf(h->fault_reason, sizeof(h->fault_reason), "%s", reason);
}

static inline void h_on_interrupt(void *data, struct gt_engine *e)
{
	struct harness *h = data;
	__atomic_add_fetch(&h->interrupts, 1, __ATOMIC_SEQ_CST);
}

static inline uint32_t h_base(enum gt_engine_id id)
{
	return engine_mmio_base(id);
}

/* A GPU (bdw unless gen 9), rings of 16 KiB and status pages for every
 * engine, and an empty PPGTT whose PML4 is loaded into each PDP0. */
static inline void h_init(struct harness *h, int gen, bool sync)
{
	memset(h, 0, sizeof(*h));
	trace_init_from_env();
	h->gpu = gpu_create(devinfo_lookup(gen == 9 ? "skl" : "bdw"), 64ull << 20, sync);
	if (!h->gpu)
		abort();
	h->pml4 = h_page(h, &h->pml4_pa);
	struct engine_callbacks cb = { h_on_interrupt, h_on_fault, h, h_on_preempted };
	for (int i = 0; i < GT_NUM_ENGINES; i++) {
		uint32_t base = h_base((enum gt_engine_id)i);
		uint32_t ring = H_RING_GGTT + (uint32_t)i * 0x10000u;
		uint32_t hws = H_HWS_GGTT + (uint32_t)i * 0x1000u;
		h->ring[i] = NULL;
		for (int p = 0; p < 4; p++) {
			void *pg = h_ggtt_map(h, ring + p * 4096u, 1);
			(void)pg;
		}
		h->hws[i] = h_ggtt_map(h, hws, 1);
		engine_set_callbacks(h->gpu->engines[i], &cb);
		gpu_mmio_write(h->gpu, base + RING_HWS_PGA, hws);
		gpu_mmio_write(h->gpu, base + RING_START, ring);
		gpu_mmio_write(h->gpu, base + RING_HEAD, 0);
		gpu_mmio_write(h->gpu, base + RING_TAIL, 0);
		gpu_mmio_write(h->gpu, base + RING_PDP_LDW(0), (uint32_t)h->pml4_pa);
		gpu_mmio_write(h->gpu, base + RING_PDP_UDW(0), (uint32_t)(h->pml4_pa >> 32));
		/* RING_CTL (PRM vol. 2c): bits 20:12 the length in pages
		 * minus one, bit 0 the enable. */
		gpu_mmio_write(h->gpu, base + RING_CTL,
			       (H_RING_SIZE / 4096u - 1) << 12 | 1u);
	}
}

static inline void h_fini(struct harness *h)
{
	gpu_destroy(h->gpu);
	for (int i = 0; i < h->npages; i++)
		free(h->pages[i]);
}

/* Write dwords into engine id's ring at its tail (wrapping), no TAIL move. */
static inline void h_emit(struct harness *h, enum gt_engine_id id, const uint32_t *dw, int n)
{
	uint32_t ring = H_RING_GGTT + (uint32_t)id * 0x10000u;
	for (int i = 0; i < n; i++) {
		uint32_t *p = h_ptr(h, true, ring + h->tail[id]);
		*p = dw[i];
		h->tail[id] = (h->tail[id] + 4) % H_RING_SIZE;
	}
}

/* Pad to a qword (TAIL is qword aligned) and write RING_TAIL. */
static inline void h_submit(struct harness *h, enum gt_engine_id id)
{
	if (h->tail[id] & 4) {
		uint32_t noop = 0;
		h_emit(h, id, &noop, 1);
	}
	gpu_mmio_write(h->gpu, h_base(id) + RING_TAIL, h->tail[id]);
}

/* Submit and wait for the engine to be idle or stopped. */
static inline bool h_run(struct harness *h, enum gt_engine_id id)
{
	h_submit(h, id);
	return engine_wait_idle(h->gpu->engines[id], 5000000000ull);
}

/* The fault callback runs after the engine stops (with its lock dropped):
 * in async mode wait up to 5 s for it to have been called n times. */
static inline int h_wait_faults(struct harness *h, int n)
{
	for (int i = 0; i < 5000 && __atomic_load_n(&h->faults, __ATOMIC_SEQ_CST) < n; i++) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	return __atomic_load_n(&h->faults, __ATOMIC_SEQ_CST);
}

/* Write dwords at a GGTT or PPGTT address (mapped pages, may cross). */
static inline void h_write(struct harness *h, bool ggtt, uint64_t va, const uint32_t *dw, int n)
{
	for (int i = 0; i < n; i++)
		*(uint32_t *)h_ptr(h, ggtt, va + 4u * (uint64_t)i) = dw[i];
}

static inline uint32_t h_read32(struct harness *h, bool ggtt, uint64_t va)
{
	return *(uint32_t *)h_ptr(h, ggtt, va);
}

static inline uint64_t h_read64(struct harness *h, bool ggtt, uint64_t va)
{
	return h_read32(h, ggtt, va) | (uint64_t)h_read32(h, ggtt, va + 4) << 32;
}

#endif
