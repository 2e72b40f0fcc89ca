/* Control flow with per-channel masks (PRM vol. 7 "Structured Control
 * Flow"; offsets as Mesa's brw_eu_emit.c sets them on Gen8: if -> else+1
 * or endif (JIP), endif (UIP); else -> endif; while -> loop start;
 * break -> block end (JIP), while (UIP); continue -> while (UIP); halt ->
 * the final halt (UIP)).
 *
 * Model: every live channel has an instruction pointer. Enabled channels
 * are those whose pointer equals the thread's IP; a channel switched off
 * by a branch waits at the instruction where it rejoins (pcip). When the
 * thread reaches that instruction the channel is enabled again, and when no
 * channel is left enabled the thread goes straight to the lowest waiting
 * pointer (the hardware does the same through its JIP jumps). */
#include <string.h>

#include "gpu/eu/exec_internal.h"
#include "gpu/eu/opcodes.h"

static void recompute_wake(struct eu_thread *t)
{
	uint32_t waiting = t->live & ~t->active, w = UINT32_MAX;
	while (waiting) {
		unsigned c = (unsigned)__builtin_ctz(waiting);
		waiting &= waiting - 1;
		if (t->pcip[c] < w)
			w = t->pcip[c];
	}
	t->wake_at = w;
}

/* Enable the channels waiting at ip. */
void exec_wake(struct eu_thread *t, uint32_t ip)
{
	uint32_t waiting = t->live & ~t->active;
	while (waiting) {
		unsigned c = (unsigned)__builtin_ctz(waiting);
		waiting &= waiting - 1;
		if (t->pcip[c] == ip)
			t->active |= 1u << c;
	}
	recompute_wake(t);
}

/* Channels in `bits` stop and wait at instruction `at`. */
static void park(struct eu_thread *t, uint32_t bits, uint32_t at)
{
	bits &= t->active;
	t->active &= ~bits;
	while (bits) {
		unsigned c = (unsigned)__builtin_ctz(bits);
		bits &= bits - 1;
		t->pcip[c] = at;
	}
}

/* Continue at `next`; with nobody enabled, go to the first waiting point. */
static uint32_t settle(struct eu_thread *t, uint32_t next)
{
	recompute_wake(t);
	if (t->wake_at == next)
		exec_wake(t, next);
	if (!(t->active & t->live) && t->wake_at != UINT32_MAX) {
		next = t->wake_at;
		exec_wake(t, next);
	}
	return next;
}

static uint32_t need(struct eu_thread *t, const struct exec_op *op,
		     uint32_t target, const char *which)
{
	if (target == EXEC_NO_TARGET)
		eu_thread_fault(t, "ip 0x%x: %s %s does not land on an instruction",
				op->offset, eu_opcode_name(op->opcode), which);
	return target;
}

static uint32_t ud_of(struct eu_thread *t, const struct exec_op *op)
{
	uint64_t raw[EU_MAX_CHANNELS];
	if (exec_load_raw(t, op, 0, op->full, raw))
		return UINT32_MAX;
	return (uint32_t)raw[0];
}

uint32_t exec_flow(struct eu_thread *t, const struct exec_op *op, uint32_t en)
{
	const struct eu_inst *in = &op->inst;
	uint32_t p = in->pred != EU_PRED_NONE ? exec_pred_mask(t, op) : op->full;
	uint32_t E = en << op->group, P = p << op->group;
	uint32_t next = op->index + 1, tgt;

	switch (op->opcode) {
	case EU_OP_NOP: case EU_OP_ENDIF: case EU_OP_JOIN:
		/* join/endif: waiting channels were woken on arrival */
		return next;
	case EU_OP_GOTO:
		/* goto: channels whose predicate holds go to UIP, the others
		 * fall through; they meet again at a join */
		if ((tgt = need(t, op, op->target_uip, "UIP")) == EXEC_NO_TARGET)
			return op->index;
		park(t, E & P, tgt);
		return settle(t, next);
	case EU_OP_WAIT: {
		/* PRM vol. 7 "wait": a pending notification (the count in
		 * n0.0) is consumed and the thread goes on; with none the
		 * thread is suspended at the wait until one arrives
		 * (EU_THREAD_WAIT: exec_run returns, the owner resumes it) */
		uint32_t n0;
		memcpy(&n0, eu_arf(t, EU_ARF_N0), 4);
		if (!n0) {
			t->state = EU_THREAD_WAIT;
			return op->index;
		}
		n0--;
		memcpy(eu_arf(t, EU_ARF_N0), &n0, 4);
		return next;
	}
	case EU_OP_IF:
		if ((tgt = need(t, op, op->target_jip, "JIP")) == EXEC_NO_TARGET)
			return op->index;
		park(t, E & ~P, tgt);
		return settle(t, next);
	case EU_OP_ELSE:
		if ((tgt = need(t, op, op->target_jip, "JIP")) == EXEC_NO_TARGET)
			return op->index;
		park(t, E, tgt);
		return settle(t, next);
	case EU_OP_WHILE:
		if ((tgt = need(t, op, op->target_jip, "JIP")) == EXEC_NO_TARGET)
			return op->index;
		park(t, E & ~P, next);
		if (E & P & t->active) {
			recompute_wake(t);
			return tgt;
		}
		return settle(t, next);
	case EU_OP_BREAK:
		if ((tgt = need(t, op, op->target_uip, "UIP")) == EXEC_NO_TARGET)
			return op->index;
		/* Gen7+: UIP names the while; broken channels rejoin after it */
		if (op->prog->ops[tgt].opcode == EU_OP_WHILE)
			tgt++;
		park(t, E & P, tgt);
		return settle(t, next);
	case EU_OP_CONTINUE: case EU_OP_HALT:
		if ((tgt = need(t, op, op->target_uip, "UIP")) == EXEC_NO_TARGET)
			return op->index;
		park(t, E & P, tgt);
		return settle(t, next);
	case EU_OP_BRD:
		if ((tgt = need(t, op, op->target_jip, "JIP")) == EXEC_NO_TARGET)
			return op->index;
		park(t, E & P, tgt);
		return settle(t, next);
	case EU_OP_BRC: {
		if ((tgt = need(t, op, op->target_jip, "JIP")) == EXEC_NO_TARGET)
			return op->index;
		uint32_t u = op->target_uip == EXEC_NO_TARGET ? next : op->target_uip;
		park(t, E & P, tgt);
		park(t, E & ~P, u);
		return settle(t, next);
	}
	case EU_OP_JMPI:
		/* the whole thread jumps when any enabled channel's predicate
		 * holds (exec size 1: channel 0) */
		if (in->pred != EU_PRED_NONE && !(E & P))
			return next;
		if ((tgt = need(t, op, op->target_jip, "target")) == EXEC_NO_TARGET)
			return op->index;
		return settle(t, tgt);
	case EU_OP_CALL: case EU_OP_CALLA: {
		/* dst.0 = return address (bytes), dst.1 = the enabled mask */
		uint64_t raw[EU_MAX_CHANNELS] = { 0 };
		if (op->opcode == EU_OP_CALLA) {
			/* calla: JIP is an absolute offset in the program */
			long idx = exec_index_of(op->prog, (uint32_t)in->jip);
			tgt = idx < 0 ? EXEC_NO_TARGET : (uint32_t)idx;
		} else {
			tgt = op->target_jip;
		}
		if (need(t, op, tgt, "target") == EXEC_NO_TARGET)
			return op->index;
		raw[0] = op->index + 1 < op->prog->count ? op->prog->offsets[op->index + 1]
							       : op->prog->end_offset;
		raw[1] = t->active;
		struct exec_op w = *op;
		w.exec_size = 2;
		w.dst.off[1] = (uint16_t)(w.dst.off[0] + 4);
		w.dst.size = 4;
		w.dst.wmask = 3;
		/* dst.1 only when it is a GRF dword inside the file */
		if (w.dst.kind == DST_DIRECT &&
		    (w.dst.off[0] >= EU_GRF_BYTES || w.dst.off[1] + 4 > EU_GRF_BYTES))
			w.exec_size = 1;
		if (exec_store_raw(t, &w, 3, raw))
			return op->index;
		return settle(t, tgt);
	}
	case EU_OP_RET: {
		long idx = exec_index_of(op->prog, ud_of(t, op));
		if (idx < 0) {
			eu_thread_fault(t, "ip 0x%x: ret to an address that is not an instruction",
					op->offset);
			return op->index;
		}
		return settle(t, (uint32_t)idx);
	}
	default:
		return exec_illegal(t, op, en);
	}
}
