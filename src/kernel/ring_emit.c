/* What the kernel writes into an engine's ring for one request (seed 002,
 * seed 004; i915's gen8 legacy ring submission):
 *   MI_SET_CONTEXT <- the context's logical context address, on the render
 *     engine when the context changes, with Restore Inhibit on the
 *     context's first switch (BDW PRM vol. 2a; its 3D state is its own);
 *   MI_LOAD_REGISTER_IMM RING_PDP0_UDW/LDW <- the context's PML4, when the
 *     PPGTT changes (4-level PPGTT: PDP0 holds the PML4, BDW PRM vol. 2c);
 *   MI_BATCH_BUFFER_START, Address Space Indicator = PPGTT (so the batch
 *     is non-privileged), 48-bit address;
 *   MI_STORE_DATA_INDEX seqno -> status page dword I915_GEM_HWS_INDEX;
 *   MI_USER_INTERRUPT;
 * padded with MI_NOOP to a qword, as TAIL must be qword aligned. */
#include "kernel/request.h"

#include "gpu/cs/engine.h"
#include "kernel/context.h"

#define MI_NOOP 0u
#define MI_USER_INTERRUPT (0x02u << 23)
#define MI_LOAD_REGISTER_IMM(pairs) ((0x22u << 23) | (2u * (pairs) - 1))
#define MI_BATCH_BUFFER_START_GEN8 ((0x31u << 23) | 1u)
#define MI_BB_START_PPGTT (1u << 8)
#define MI_STORE_DATA_INDEX ((0x21u << 23) | 1u)
#define MI_SET_CONTEXT (0x18u << 23)
#define MI_SET_CONTEXT_MBO (1u << 8)            /* dword 1 bit 8: must be 1 */
#define MI_RESTORE_INHIBIT 1u

static void ring_write(struct rq_engine *e, const uint32_t *dw, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		e->ring[e->emit / 4] = dw[i];
		e->emit = (e->emit + 4) & (RING_BYTES - 1);
	}
}

void ring_emit_request(struct rq_engine *e, struct gem_request *rq)
{
	uint32_t dw[REQUEST_MAX_BYTES / 4];
	unsigned n = 0, bb;
	uint32_t base = engine_mmio_base(e->id);

	rq->head = e->emit;
	uint32_t ctx_addr = rq->ctx ? ctx_logical_addr(rq->ctx, rq->ctx_slot) : 0;
	/* The kernel worker emits queued requests without dev->lock: only the
	 * request and this engine (its lock held) are touched here, never the
	 * context's fields (eb_submit decided ctx_first_use). */
	if (e->id == ENGINE_RCS && rq->ctx && ctx_addr != e->last_ctx_addr) {
		e->last_ctx_addr = ctx_addr;
		dw[n++] = MI_SET_CONTEXT;
		dw[n++] = ctx_addr | MI_SET_CONTEXT_MBO |
			  (rq->ctx_first_use ? MI_RESTORE_INHIBIT : 0);
	}
	if (rq->pml4 != e->last_pml4) {
		dw[n++] = MI_LOAD_REGISTER_IMM(2);
		dw[n++] = base + RING_PDP_UDW(0);
		dw[n++] = (uint32_t)(rq->pml4 >> 32);
		dw[n++] = base + RING_PDP_LDW(0);
		dw[n++] = (uint32_t)rq->pml4;
		e->last_pml4 = rq->pml4;
	}
	bb = n;
	if (!rq->skip) {
		dw[n++] = MI_BATCH_BUFFER_START_GEN8 | MI_BB_START_PPGTT;
		dw[n++] = (uint32_t)rq->batch_addr & ~3u;
		dw[n++] = (uint32_t)(rq->batch_addr >> 32) & 0xffff;
	} else {
		dw[n++] = MI_NOOP;
		dw[n++] = MI_NOOP;
		dw[n++] = MI_NOOP;
	}
	dw[n++] = MI_STORE_DATA_INDEX;
	dw[n++] = HWS_SEQNO_INDEX * 4;
	dw[n++] = rq->seqno;
	dw[n++] = MI_USER_INTERRUPT;
	if (n & 1)
		dw[n++] = MI_NOOP;
	rq->bb_pos = (rq->head + bb * 4) & (RING_BYTES - 1);
	ring_write(e, dw, n);
	rq->tail = e->emit;
	rq->submit_ns = 0;
	__atomic_store_n(&e->emitted_tail, e->emit, __ATOMIC_RELEASE);
}

void ring_skip_batch(struct rq_engine *e, struct gem_request *rq)
{
	for (unsigned i = 0; i < 3; i++)
		__atomic_store_n(&e->ring[((rq->bb_pos + 4 * i) & (RING_BYTES - 1)) / 4], MI_NOOP,
				 __ATOMIC_RELEASE);
	rq->skip = true;
}
