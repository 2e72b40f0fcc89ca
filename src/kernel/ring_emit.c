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

#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/engine.h"
#include "gpu/gpu.h"
#include "kernel/context.h"

/* The commands are packed by the description's generated code
 * (gpu/cmd/cmd_structs.h), like every other emitter of the project. */
#define EMIT(gen, dw, n, NAME, ...)                                              \
	do {                                                                      \
		uint32_t len_ = cmd_##NAME##_length(gen);                        \
		cmd_##NAME##_pack(gen, &(dw)[n], len_, &(struct cmd_##NAME){ __VA_ARGS__ }); \
		(n) += len_;                                                      \
	} while (0)

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
	int gen = e->dev->info->gen;

	rq->head = e->emit;
	uint32_t ctx_addr = rq->ctx ? ctx_logical_addr(rq->ctx, rq->ctx_slot) : 0;
	/* The kernel worker emits queued requests without dev->lock: only the
	 * request and this engine (its lock held) are touched here, never the
	 * context's fields (eb_submit decided ctx_first_use). */
	if (e->id == ENGINE_RCS && rq->ctx && ctx_addr != e->last_ctx_addr) {
		e->last_ctx_addr = ctx_addr;
		EMIT(gen, dw, n, MI_SET_CONTEXT, .logical_context_address = ctx_addr,
		     .reserved_must_be_1 = 1, .restore_inhibit = rq->ctx_first_use);
	}
	if (rq->pml4 != e->last_pml4) {
		/* two register/value pairs */
		cmd_MI_LOAD_REGISTER_IMM_pack(gen, &dw[n], 5, &(struct cmd_MI_LOAD_REGISTER_IMM){ 0 });
		cmd_MI_LOAD_REGISTER_IMM_register_offset_set(gen, &dw[n], 5, 0, base + RING_PDP_UDW(0));
		cmd_MI_LOAD_REGISTER_IMM_data_dword_set(gen, &dw[n], 5, 0, (uint32_t)(rq->pml4 >> 32));
		cmd_MI_LOAD_REGISTER_IMM_register_offset_set(gen, &dw[n], 5, 1, base + RING_PDP_LDW(0));
		cmd_MI_LOAD_REGISTER_IMM_data_dword_set(gen, &dw[n], 5, 1, (uint32_t)rq->pml4);
		n += 5;
		e->last_pml4 = rq->pml4;
	}
	bb = n;
	if (!rq->skip) {
		/* Address Space Indicator 1: PPGTT (the batch is non-privileged) */
		EMIT(gen, dw, n, MI_BATCH_BUFFER_START, .address_space_indicator = 1,
		     .batch_buffer_start_address = rq->batch_addr & ((1ull << 48) - 4));
	} else {
		for (int i = 0; i < 3; i++)
			EMIT(gen, dw, n, MI_NOOP, 0);
	}
	EMIT(gen, dw, n, MI_STORE_DATA_INDEX, .offset = HWS_SEQNO_INDEX,
	     .data_dword_0 = rq->seqno);
	EMIT(gen, dw, n, MI_USER_INTERRUPT, 0);
	if (n & 1)
		EMIT(gen, dw, n, MI_NOOP, 0);
	rq->bb_pos = (rq->head + bb * 4) & (RING_BYTES - 1);
	ring_write(e, dw, n);
	rq->tail = e->emit;
	rq->submit_ns = 0;
	__atomic_store_n(&e->emitted_tail, e->emit, __ATOMIC_RELEASE);
}

void ring_skip_batch(struct rq_engine *e, struct gem_request *rq)
{
	uint32_t noop;
	cmd_MI_NOOP_pack(e->dev->info->gen, &noop, 1, &(struct cmd_MI_NOOP){ 0 });
	for (unsigned i = 0; i < 3; i++)
		__atomic_store_n(&e->ring[((rq->bb_pos + 4 * i) & (RING_BYTES - 1)) / 4], noop,
				 __ATOMIC_RELEASE);
	rq->skip = true;
}
