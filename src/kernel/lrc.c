/* Context-saved registers and the context image slots (lrc.h). */
#include "kernel/lrc.h"

#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cmd/cmd_structs.h"
#include "kernel/object.h"
#include "kernel/request.h"
#include "kernel/vm.h"

#define GEN8_UP 0x3u   /* bit 0: gen8, bit 1: gen9 */
#define GEN9_ONLY 0x2u

/* What the render context image holds on BDW/SKL (PRM vol. 7 "Register
 * State Context" and "Engine Context"; the list is the one IGT's
 * gem_ctx_isolation.c, nonpriv_registers[], checks a context owns: the
 * pipeline statistics and stream-output counters, MI_PREDICATE_*, the
 * 3DPRIM indirect draw registers, GPGPU dispatch dimensions, the batch
 * offset, the per-slice PS counters, the OA context registers, cache and
 * thread dispatcher modes, and on SKL the chicken bits i915 whitelists),
 * then every engine's MI_MATH GPRs and CTX_TIMESTAMP (the context's run
 * time, gpu/cs/ctx_timestamp.c), and the blitter's BCS_SWCTRL. */
static const struct {
	struct lrc_reg r;
	uint8_t gens;
	uint8_t engines;   /* bit = enum gt_engine_id */
} lrc_regs[] = {
	{ { 0xc0, 1, true, true }, GEN8_UP, 1u << ENGINE_RCS },    /* INSTPM */
	{ { 0x2300, 18, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* HS..CL counts */
	{ { 0x22c8, 2, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* PS_INVOCATION_COUNT_0 */
	{ { 0x22d8, 2, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* PS_DEPTH_COUNT_0 */
	{ { 0x22f0, 2, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* PS_INVOCATION_COUNT_1 */
	{ { 0x22f8, 2, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* PS_DEPTH_COUNT_1 */
	{ { 0x2448, 2, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* PS_INVOCATION_COUNT_2 */
	{ { 0x2450, 2, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* PS_DEPTH_COUNT_2 */
	{ { 0x2290, 2, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* GPGPU_THREADS_DISPATCHED */
	{ { 0x2500, 3, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* GPGPU_DISPATCHDIMX/Y/Z */
	{ { 0x2400, 8, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* MI_PREDICATE_SRC0/1, DATA, RESULT(_1) */
	{ { 0x2420, 1, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* 3DPRIM_END_OFFSET */
	{ { 0x2430, 5, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* 3DPRIM_START_VERTEX..BASE_VERTEX */
	{ { 0x158, 1, true, false }, GEN8_UP, 1u << ENGINE_RCS },   /* BB_OFFSET */
	{ { 0x2360, 2, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* OA_CTX_CONTROL, OACTXID */
	{ { 0x7000, 1, false, true }, GEN8_UP, 1u << ENGINE_RCS },  /* CACHE_MODE_0 */
	{ { 0x7004, 1, false, true }, GEN8_UP, 1u << ENGINE_RCS },  /* CACHE_MODE_1 */
	{ { 0x7008, 1, false, true }, GEN8_UP, 1u << ENGINE_RCS },  /* GT_MODE */
	{ { 0x7034, 1, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* L3CNTLREG */
	{ { 0xe400, 2, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* TD_CTL, TD_CTL2 */
	{ { 0x5200, 8, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* SO_NUM_PRIMS_WRITTEN0-3 */
	{ { 0x5240, 8, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* SO_PRIM_STORAGE_NEEDED0-3 */
	{ { 0x5280, 4, false, false }, GEN8_UP, 1u << ENGINE_RCS }, /* SO_WRITE_OFFSET0-3 */
	{ { 0x2580, 1, false, true }, GEN9_ONLY, 1u << ENGINE_RCS }, /* CS_CHICKEN1 */
	{ { 0x7014, 1, false, true }, GEN9_ONLY, 1u << ENGINE_RCS }, /* COMMON_SLICE_CHICKEN2 */
	{ { 0x7304, 1, false, true }, GEN9_ONLY, 1u << ENGINE_RCS }, /* HDC_CHICKEN1 */
	{ { 0x600, 32, true, false }, GEN8_UP, 0xf },                 /* CS_GPR0-15 */
	{ { REG_RING_CTX_TIMESTAMP, 1, true, false }, GEN8_UP, 0xf }, /* CTX_TIMESTAMP */
	{ { 0x22200, 1, false, true }, GEN8_UP, 1u << ENGINE_BCS }, /* BCS_SWCTRL */
};

unsigned lrc_reg_list(int gen, enum gt_engine_id id, uint32_t *offsets, bool *masked,
		      unsigned max)
{
	unsigned n = 0;
	uint8_t genbit = gen == 9 ? 2 : 1;
	for (size_t i = 0; i < sizeof(lrc_regs) / sizeof(lrc_regs[0]); i++) {
		if (!(lrc_regs[i].gens & genbit) || !(lrc_regs[i].engines >> id & 1))
			continue;
		const struct lrc_reg *r = &lrc_regs[i].r;
		uint32_t base = r->relative ? engine_mmio_base(id) : 0;
		for (unsigned k = 0; k < r->count; k++, n++) {
			if (n < max) {
				offsets[n] = base + r->offset + 4 * k;
				masked[n] = r->masked;
			}
		}
	}
	return n;
}

#define LRC_MAX_REGS 192
_Static_assert(LRC_IMAGE_OFFSET + 4 * LRC_MAX_REGS <= LRC_RING_STATE_OFFSET &&
	       LRC_RING_STATE_OFFSET + 4 * LRC_RING_STATE_DWORDS <= LRC_TIMELINE_OFFSET &&
	       LRC_TIMELINE_NEXT + 4 <= LRC_SAVE_OFFSET, "slot layout");
/* CTX_CONTEXT_CONTROL, from the engine's MMIO base (BDW PRM vol. 2c;
 * i915's RING_CONTEXT_CONTROL): only named in the image, not modelled. */
#define CTX_CONTEXT_CONTROL 0x244u
#define MI_ATOMIC_OR 0x02    /* DWord OR (BDW PRM vol. 2a MI_ATOMIC) */
#define MASK_ENABLES 0xffff0000u

/* Write the slot's save and restore batches (the image's GGTT address is
 * baked in). The default image's CTX_TIMESTAMP is 0, not the engine's run
 * time when it was recorded: a new context has not run (i915's
 * init_common_regs writes ce->runtime.last, 0 for a new context). */
static void write_batches(struct rq_engine *e, uint32_t *slot, uint64_t img, bool default_image)
{
	int gen = e->dev->info->gen;
	uint32_t regs[LRC_MAX_REGS];
	bool masked[LRC_MAX_REGS];
	unsigned n = lrc_reg_list(gen, e->id, regs, masked, LRC_MAX_REGS);
	uint32_t *s = slot + LRC_SAVE_OFFSET / 4, *r = slot + LRC_RESTORE_OFFSET / 4;
	unsigned ns = 0, nr = 0;
	for (unsigned i = 0; i < n && i < LRC_MAX_REGS; i++) {
		uint64_t addr = img + 4 * i;
		unsigned len;
		if (default_image && regs[i] == engine_mmio_base(e->id) + REG_RING_CTX_TIMESTAMP) {
			len = cmd_MI_STORE_DATA_IMM_length(gen);
			cmd_MI_STORE_DATA_IMM_pack(gen, &s[ns], len, &(struct cmd_MI_STORE_DATA_IMM){
				.use_global_gtt = true, .address = addr, .immediate_data = 0 });
		} else {
			len = cmd_MI_STORE_REGISTER_MEM_length(gen);
			cmd_MI_STORE_REGISTER_MEM_pack(gen, &s[ns], len, &(struct cmd_MI_STORE_REGISTER_MEM){
				.use_global_gtt = true, .register_address = regs[i], .memory_address = addr });
		}
		ns += len;
		if (masked[i]) {
			len = 11;  /* with Inline Data: four operand pairs */
			cmd_MI_ATOMIC_pack(gen, &s[ns], len, &(struct cmd_MI_ATOMIC){
				.atomic_opcode = MI_ATOMIC_OR,
				.inline_data = 1, .memory_type = 1, .memory_address = addr,
				.operand1_data_dword_0 = MASK_ENABLES });
			ns += len;
		}
		len = cmd_MI_LOAD_REGISTER_MEM_length(gen);
		cmd_MI_LOAD_REGISTER_MEM_pack(gen, &r[nr], len, &(struct cmd_MI_LOAD_REGISTER_MEM){
			.use_global_gtt = true, .register_address = regs[i], .memory_address = addr });
		nr += len;
	}
	cmd_MI_BATCH_BUFFER_END_pack(gen, &s[ns++], 1, &(struct cmd_MI_BATCH_BUFFER_END){ 0 });
	cmd_MI_BATCH_BUFFER_END_pack(gen, &r[nr++], 1, &(struct cmd_MI_BATCH_BUFFER_END){ 0 });
}

static uint32_t *slot_map(const struct rq_engine *e, uint32_t id)
{
	const struct lrc_arena *a = &e->lrc.arenas[id / LRC_ARENA_SLOTS];
	return a->map + (id % LRC_ARENA_SLOTS) * (LRC_SLOT_BYTES / 4);
}

uint64_t lrc_slot_ggtt(const struct rq_engine *e, uint32_t id)
{
	return e->lrc.arenas[id / LRC_ARENA_SLOTS].ggtt + (uint64_t)(id % LRC_ARENA_SLOTS) * LRC_SLOT_BYTES;
}

volatile uint32_t *lrc_slot_dword(const struct rq_engine *e, uint32_t id, uint32_t off)
{
	return slot_map(e, id) + off / 4;
}

struct ctx_ring *lrc_slot_ring(const struct rq_engine *e, uint32_t id)
{
	return &e->lrc.arenas[id / LRC_ARENA_SLOTS].rings[id % LRC_ARENA_SLOTS];
}

/* A new slot's ring and the image's ring registers (HEAD = TAIL = 0);
 * false when out of memory or GGTT space. */
static bool ring_init(struct rq_engine *e, uint32_t id)
{
	int gen = e->dev->info->gen;
	struct ctx_ring *r = lrc_slot_ring(e, id);
	int err;
	struct gem_vma *vma;
	r->obj = obj_create(e->dev, CTX_RING_BYTES, &err);
	if (!r->obj)
		return false;
	if (vma_bind(e->dev->ggtt, r->obj, PIN_PIN | PIN_HIGH, 0, 0, &vma)) {
		obj_put(r->obj);
		r->obj = NULL;
		return false;
	}
	r->size = CTX_RING_BYTES;
	r->ggtt = vma->start;
	r->map = r->obj->map;
	r->emit = r->space_head = 0;
	r->queued = 0;
	r->state = slot_map(e, id) + LRC_RING_STATE_OFFSET / 4;
	uint32_t *st = (uint32_t *)r->state, base = engine_mmio_base(e->id);
	cmd_MI_NOOP_pack(gen, &st[0], 1, &(struct cmd_MI_NOOP){ 0 });
	cmd_MI_LOAD_REGISTER_IMM_pack(gen, &st[1], 11, &(struct cmd_MI_LOAD_REGISTER_IMM){ 0 });
	/* CONTEXT_CONTROL: masked, write enables 0 (its bits are not
	 * modelled: the kernel's ring commands save and restore) */
	st[2] = base + CTX_CONTEXT_CONTROL;
	st[3] = 0;
	st[4] = base + REG_RING_HEAD;
	st[6] = base + REG_RING_TAIL;
	st[8] = base + REG_RING_START;
	st[10] = base + REG_RING_CTL;
	st[CTX_RING_HEAD] = st[CTX_RING_TAIL] = 0;
	st[CTX_RING_START] = (uint32_t)r->ggtt;
	cmd_RING_CTL_pack(gen, &st[CTX_RING_CTL], 1, &(struct cmd_RING_CTL){
		.ring_buffer_enable = true, .buffer_length = CTX_RING_BYTES / GT_PAGE_SIZE - 1 });
	return true;
}

static bool add_arena(struct rq_engine *e)
{
	struct lrc_pool *p = &e->lrc;
	struct lrc_arena *a = realloc(p->arenas, (p->narenas + 1) * sizeof(*a));
	if (!a)
		return false;
	p->arenas = a;
	/* Room on the free list for every slot there will be, so that
	 * freeing (context destruction) never allocates. */
	uint32_t *f = realloc(p->free, (p->narenas + 1) * LRC_ARENA_SLOTS * sizeof(*f));
	if (!f)
		return false;
	p->free = f;
	int err;
	struct gem_object *obj = obj_create(e->dev, LRC_ARENA_SLOTS * LRC_SLOT_BYTES, &err);
	struct gem_vma *vma;
	if (!obj)
		return false;
	if (vma_bind(e->dev->ggtt, obj, PIN_PIN | PIN_HIGH, 0, 0, &vma)) {
		obj_put(obj);
		return false;
	}
	struct lrc_arena *n = &a[p->narenas];
	*n = (struct lrc_arena){ obj, vma->start, obj->map, NULL };
	n->rings = calloc(LRC_ARENA_SLOTS, sizeof(*n->rings));
	if (!n->rings) {
		obj_put(obj);
		return false;
	}
	p->narenas++;
	TRACE(TRACE_GEM, "%s: context image arena %u at GGTT 0x%llx", engine_name(e->id),
	      p->narenas - 1, (unsigned long long)n->ggtt);
	return true;
}

uint32_t lrc_slot_alloc(struct rq_engine *e)
{
	struct lrc_pool *p = &e->lrc;
	if (p->nfree)
		return p->free[--p->nfree];
	if (p->nslots == p->narenas * LRC_ARENA_SLOTS && !add_arena(e))
		return 0;
	uint32_t id = p->nslots++;
	write_batches(e, slot_map(e, id), lrc_slot_ggtt(e, id) + LRC_IMAGE_OFFSET, id == 0);
	if (!ring_init(e, id)) {
		p->nslots--;
		return 0;
	}
	return id;
}

void lrc_slot_free(struct rq_engine *e, uint32_t id)
{
	struct lrc_pool *p = &e->lrc;
	/* At device destruction a context can go with the last request of
	 * a later engine, after this engine's pool is gone (lrc_engine_fini):
	 * nothing is left to give the slot back to. */
	if (!id || !p->free)
		return;
	p->free[p->nfree++] = id;
}

unsigned lrc_call_dwords(int gen)
{
	return cmd_MI_BATCH_BUFFER_START_length(gen);
}

unsigned lrc_emit_call(int gen, uint32_t *dw, uint64_t addr)
{
	unsigned len = lrc_call_dwords(gen);
	/* Address Space Indicator 0: GGTT, a privileged batch. */
	cmd_MI_BATCH_BUFFER_START_pack(gen, dw, len, &(struct cmd_MI_BATCH_BUFFER_START){
		.batch_buffer_start_address = addr });
	return len;
}

unsigned lrc_engine_setup(struct rq_engine *e, uint32_t *dw)
{
	if (lrc_slot_alloc(e) != 0 || !e->lrc.nslots)
		return 0;
	return lrc_emit_call(e->dev->info->gen, dw, lrc_slot_ggtt(e, 0) + LRC_SAVE_OFFSET);
}

void lrc_engine_fini(struct rq_engine *e)
{
	struct lrc_pool *p = &e->lrc;
	for (unsigned id = 0; id < p->nslots; id++)
		obj_put(lrc_slot_ring(e, id)->obj);
	for (unsigned i = 0; i < p->narenas; i++) {
		obj_put(p->arenas[i].obj);
		free(p->arenas[i].rings);
	}
	free(p->arenas);
	free(p->free);
	memset(p, 0, sizeof(*p));
}
