/* Batch buffers (seed 004): MI_BATCH_BUFFER_START from the ring enters a
 * first-level batch, from a first-level batch either chains (replaces it)
 * or, with Second Level Batch Buffer set, enters a second-level batch that
 * returns to the first-level one on MI_BATCH_BUFFER_END. ACTHD follows the
 * batch while HEAD stays after the MI_BATCH_BUFFER_START in the ring.
 * A batch is privileged when it is in the GGTT and whoever started it was
 * privileged (the ring is); a PPGTT batch never is. */
#include "gpu/cs/cs.h"

#include "common/trace.h"
#include "gpu/cs/mi.h"

static const char *const level_names[] = { "ring", "first-level", "second-level" };

enum cs_result cs_batch_start(struct gt_engine *e, const struct cmd_desc *d,
			      const uint32_t *dw, uint32_t len)
{
	struct cmd_MI_BATCH_BUFFER_START c;
	cmd_MI_BATCH_BUFFER_START_unpack(cs_gen(e), dw, len, &c);
	if (c.predication_enable && !mi_predicate_value(e))
		return CS_NEXT;
	uint64_t addr = c.batch_buffer_start_address;
	/* Add Offset Enable: the batch starts at the address plus the BB_OFFSET
	 * register (BDW/SKL PRM vol. 2a MI_BATCH_BUFFER_START, vol. 2c
	 * BB_OFFSET). */
	if (c.add_offset_enable) {
		uint32_t off = cs_reg_read(e, e->base + REG_RING_BB_OFFSET) & REG_RING_BB_OFFSET_OFFSET_MASK;
		addr = (addr + off) & ((1ull << 48) - 1);
	}
	bool ppgtt = c.address_space_indicator != 0;
	bool second = c.second_level_batch_buffer != 0;
	bool parent_priv = cs_privileged(e);
	enum cs_level from = e->level, to;

	if (from == CS_RING) {
		to = CS_BATCH1;
		if (e->next_head < e->head)
			e->head_wraps++;
		e->head = e->next_head;  /* HEAD moves past the start command */
	} else if (from == CS_BATCH1 && second) {
		to = CS_BATCH2;
		e->bb[CS_BATCH1].addr += len * 4ull;  /* return point */
	} else {
		to = from;  /* a chain: the new batch replaces the current one */
	}
	e->bb[to] = (struct cs_batch){
		.start = addr, .addr = addr, .ppgtt = ppgtt,
		.privileged = parent_priv && !ppgtt,
	};
	e->level = to;
	TRACE(TRACE_CS, "%s: %s %s batch at 0x%llx (%s, %s), ACTHD 0x%llx, HEAD 0x%x",
	      e->name, to == from ? "chain to" : "start", level_names[to],
	      (unsigned long long)addr, ppgtt ? "PPGTT" : "GGTT",
	      e->bb[to].privileged ? "privileged" : "non-privileged",
	      (unsigned long long)addr, e->head);
	return CS_JUMPED;
}

enum cs_result cs_batch_end(struct gt_engine *e)
{
	enum cs_level from = e->level;
	if (from == CS_RING) {
		TRACE(TRACE_CS, "%s: MI_BATCH_BUFFER_END in the ring ignored", e->name);
		return CS_NEXT;
	}
	/* One MI_BATCH_BUFFER_END ends a whole chain (seed 004); a
	 * second-level batch returns after its MI_BATCH_BUFFER_START. */
	e->level = from == CS_BATCH2 ? CS_BATCH1 : CS_RING;
	TRACE(TRACE_CS, "%s: end of %s batch at 0x%llx, back to the %s at 0x%llx",
	      e->name, level_names[from], (unsigned long long)e->bb[from].addr,
	      e->level == CS_RING ? "ring" : "first-level batch",
	      (unsigned long long)cs_acthd(e));
	return CS_JUMPED;
}
