/* What the kernel writes into a context's ring for one request (seed 002,
 * seed 004; the commands of i915's gen8 submission):
 *   when the context (its register image slot, lrc.h) changes, or on the
 *     slot's first request: MI_BATCH_BUFFER_START of the previous image's
 *     save batch, then of the new image's restore batch (the default
 *     image's on first use), GGTT batches, so privileged;
 *   MI_SET_CONTEXT <- the context's logical context address, on the render
 *     engine when the context changes, with Restore Inhibit on the
 *     context's first switch (BDW PRM vol. 2a; its 3D state is its own);
 *   MI_LOAD_REGISTER_IMM RING_PDP0_UDW/LDW <- the context's PML4, when the
 *     PPGTT changes (4-level PPGTT: PDP0 holds the PML4, BDW PRM vol. 2c);
 *   MI_BATCH_BUFFER_START, Address Space Indicator = PPGTT (so the batch
 *     is non-privileged), 48-bit address;
 *   MI_SEMAPHORE_WAIT per other engine's request it waits for on the GPU
 *     (execbuf_sema.c), after arbitration is enabled, before the batch;
 *   MI_STORE_DATA_INDEX seqno -> status page dword I915_GEM_HWS_INDEX;
 *   MI_STORE_DATA_IMM of the context's timeline seqno (lrc.h), after the
 *     status page: a request that passed its semaphore on this dword
 *     finds the signaler's seqno passed (i915 has one dword for both, and
 *     its fence reads as signaled once it is written);
 *   MI_USER_INTERRUPT;
 * padded with MI_NOOP to a qword, as TAIL must be qword aligned. */
#include "kernel/request.h"

#include <pthread.h>

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

/* The fixed dwords of the commands every request ends with, packed once
 * per generation (the per-request pack cost 8% of an empty batch). What
 * varies are whole dwords: the batch address (MI_BATCH_BUFFER_START's
 * address field lies in place in dwords 1-2) and the seqno (Data DWord 0). */
struct request_tail_cmds {
	uint32_t noop, user_interrupt, arb_check, arb_on, arb_off;
	uint32_t bb_start[3];          /* address 0 */
	uint32_t sdi[3];               /* seqno 0 */
	uint32_t tl_store[4];          /* GGTT address 0 (dwords 1-2), data 0 (dword 3) */
};
static struct request_tail_cmds tail_cmds[2];
static pthread_once_t tail_cmds_once = PTHREAD_ONCE_INIT;

static void pack_tail_cmds(void)
{
	for (int g = 0; g < 2; g++) {
		int gen = 8 + g;
		struct request_tail_cmds *t = &tail_cmds[g];
		unsigned n = 0;
		EMIT(gen, &t->noop, n, MI_NOOP, 0);
		n = 0;
		EMIT(gen, &t->user_interrupt, n, MI_USER_INTERRUPT, 0);
		n = 0;
		EMIT(gen, &t->arb_check, n, MI_ARB_CHECK, 0);
		n = 0;
		EMIT(gen, &t->arb_on, n, MI_ARB_ON_OFF, .arbitration_enable = true);
		n = 0;
		EMIT(gen, &t->arb_off, n, MI_ARB_ON_OFF, .arbitration_enable = false);
		n = 0;
		/* Address Space Indicator 1: PPGTT (the batch is non-privileged) */
		EMIT(gen, t->bb_start, n, MI_BATCH_BUFFER_START, .address_space_indicator = 1);
		n = 0;
		EMIT(gen, t->sdi, n, MI_STORE_DATA_INDEX, .offset = HWS_SEQNO_INDEX);
		n = 0;
		EMIT(gen, t->tl_store, n, MI_STORE_DATA_IMM, .use_global_gtt = true);
	}
}

static const struct request_tail_cmds *tail_cmds_of(int gen)
{
	pthread_once(&tail_cmds_once, pack_tail_cmds);
	return &tail_cmds[gen == 9];
}

static void ring_write(struct ctx_ring *r, const uint32_t *dw, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		r->map[r->emit / 4] = dw[i];
		r->emit = (r->emit + 4) & (r->size - 1);
	}
	/* the context image's RING_TAIL, which a context switch loads */
	r->state[CTX_RING_TAIL] = r->emit;
}

void ring_emit_request(struct rq_engine *e, struct gem_request *rq)
{
	uint32_t dw[REQUEST_MAX_BYTES / 4];
	unsigned n = 0, bb;
	uint32_t base = engine_mmio_base(e->id);
	int gen = e->dev->info->gen;
	const struct request_tail_cmds *t = tail_cmds_of(gen);
	struct ctx_ring *r = rq->ring;
	uint32_t mask = r->size - 1;

	rq->head = r->emit;
	rq->pre_lrc = e->last_lrc;
	rq->pre_pml4 = e->last_pml4;
	rq->pre_ctx_addr = e->last_ctx_addr;
	/* An arbitration point before the request starts (i915's
	 * emit_init_breadcrumb): a preemption stops here, between requests. */
	dw[n++] = t->arb_check;
	uint32_t ctx_addr = rq->ctx ? ctx_logical_addr(rq->ctx, rq->ctx_slot) : 0;
	/* The kernel worker emits queued requests without dev->lock: only the
	 * request and this engine (its lock held) are touched here, never the
	 * context's fields (eb_submit decided ctx_first_use). */
	if (rq->lrc_img && (rq->lrc_img != e->last_lrc || rq->lrc_first)) {
		if (e->last_lrc && e->last_lrc != rq->lrc_img)
			n += lrc_emit_call(gen, &dw[n], e->last_lrc + LRC_SAVE_OFFSET);
		uint64_t from = rq->lrc_first ? e->lrc_default : rq->lrc_img;
		n += lrc_emit_call(gen, &dw[n], from + LRC_RESTORE_OFFSET);
		e->last_lrc = rq->lrc_img;
	}
	if (e->id == ENGINE_RCS && rq->ctx && ctx_addr != e->last_ctx_addr) {
		e->last_ctx_addr = ctx_addr;
		EMIT(gen, dw, n, MI_SET_CONTEXT, .logical_context_address = ctx_addr,
		     .reserved_must_be_1 = 1, .restore_inhibit = rq->ctx_first_use);
	}
	if (rq->ctx && rq->pml4 != e->last_pml4) {
		/* two register/value pairs */
		cmd_MI_LOAD_REGISTER_IMM_pack(gen, &dw[n], 5, &(struct cmd_MI_LOAD_REGISTER_IMM){ 0 });
		cmd_MI_LOAD_REGISTER_IMM_register_offset_set(gen, &dw[n], 5, 0, base + RING_PDP_UDW(0));
		cmd_MI_LOAD_REGISTER_IMM_data_dword_set(gen, &dw[n], 5, 0, (uint32_t)(rq->pml4 >> 32));
		cmd_MI_LOAD_REGISTER_IMM_register_offset_set(gen, &dw[n], 5, 1, base + RING_PDP_LDW(0));
		cmd_MI_LOAD_REGISTER_IMM_data_dword_set(gen, &dw[n], 5, 1, (uint32_t)rq->pml4);
		n += 5;
		e->last_pml4 = rq->pml4;
	}
	/* Arbitration in the batch where the engine can preempt (i915's
	 * gen8_emit_bb_start; gen8_emit_bb_start_noarb on BDW's render
	 * engine: "we keep arbitration disabled for gen8 batches"), enabled
	 * again after the breadcrumb (emit_fini_breadcrumb). */
	dw[n++] = engine_can_preempt(gen, e->id) ? t->arb_on : t->arb_off;
	/* Waits for other engines' requests, where arbitration is on (only
	 * engines that timeslice use them): i915's __emit_semaphore_wait,
	 * global GTT, poll mode, SAD >= SDD. */
	rq->sema_pos = (rq->head + n * 4) & mask;
	for (unsigned i = 0; i < rq->nsema; i++)
		EMIT(gen, dw, n, MI_SEMAPHORE_WAIT, .memory_type = 1, .wait_mode = 1,
		     .compare_operation = 1, .semaphore_data_dword = rq->sema[i].value,
		     .semaphore_address = (uint32_t)rq->sema[i].addr,
		     .semaphore_address_high = rq->sema[i].addr >> 32);
	bb = n;
	if (!rq->skip) {
		/* a preempted batch resumes after its arbitration point */
		uint64_t addr = (rq->resume_addr ? rq->resume_addr : rq->batch_addr) &
				((1ull << 48) - 4);
		dw[n++] = t->bb_start[0];
		dw[n++] = t->bb_start[1] | (uint32_t)addr;
		dw[n++] = t->bb_start[2] | (uint32_t)(addr >> 32);
	} else {
		for (int i = 0; i < 3; i++)
			dw[n++] = t->noop;
	}
	dw[n++] = t->sdi[0];
	dw[n++] = t->sdi[1];
	dw[n++] = t->sdi[2] | rq->seqno;
	if (rq->tl_addr) {
		/* the context's timeline (lrc.h), which semaphores poll */
		dw[n++] = t->tl_store[0];
		dw[n++] = t->tl_store[1] | (uint32_t)rq->tl_addr;
		dw[n++] = t->tl_store[2] | (uint32_t)(rq->tl_addr >> 32);
		dw[n++] = rq->tl_seqno;
	}
	dw[n++] = t->user_interrupt;
	dw[n++] = t->arb_on;
	if (n & 1)
		dw[n++] = t->noop;
	rq->bb_pos = (rq->head + bb * 4) & mask;
	ring_write(r, dw, n);
	rq->tail = r->emit;
	rq->post_lrc = e->last_lrc;
	rq->post_pml4 = e->last_pml4;
	rq->post_ctx_addr = e->last_ctx_addr;
	rq->submit_ns = 0;
	__atomic_store_n(&e->emitted_tail, r->emit, __ATOMIC_RELEASE);
}

void ring_emit_raw(struct rq_engine *e, const uint32_t *dw, unsigned n)
{
	uint32_t noop = tail_cmds_of(e->dev->info->gen)->noop;
	ring_write(e->cur, dw, n);
	if (n & 1)
		ring_write(e->cur, &noop, 1);
	__atomic_store_n(&e->emitted_tail, e->cur->emit, __ATOMIC_RELEASE);
}

void ring_skip_batch(struct rq_engine *e, struct gem_request *rq)
{
	uint32_t noop = tail_cmds_of(e->dev->info->gen)->noop;
	for (unsigned i = 0; i < 3; i++)
		__atomic_store_n(&rq->ring->map[((rq->bb_pos + 4 * i) & (rq->ring->size - 1)) / 4], noop,
				 __ATOMIC_RELEASE);
	rq->skip = true;
}

void ring_skip_waits_and_batch(struct rq_engine *e, struct gem_request *rq)
{
	uint32_t noop = tail_cmds_of(e->dev->info->gen)->noop;
	uint32_t mask = rq->ring->size - 1;
	for (uint32_t at = rq->sema_pos; at != rq->bb_pos; at = (at + 4) & mask)
		__atomic_store_n(&rq->ring->map[at / 4], noop, __ATOMIC_RELEASE);
	ring_skip_batch(e, rq);
}
