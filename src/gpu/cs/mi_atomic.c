/* MI_ATOMIC (BDW/SKL PRM vol. 2a "MI_ATOMIC"; the atomic operations are
 * those of the data port, vol. 7 "Atomic Operations"): a read-modify-write
 * of a DWord (opcodes 0x01-0x0f), a QWord (0x21-0x2f, the same operations)
 * or an OctWord (0x4e, compare-and-write only) in memory. Commands run one
 * at a time, so the read and the write are atomic with respect to the
 * engine.
 *
 * Operands: inline in dwords 3..10 when Inline Data is set (Operand1 in
 * the odd dwords 3, 5, 7, 9, Operand2 in the even ones); when it is clear
 * the command is three dwords and Operand1 is [CS_GPR1:CS_GPR0], Operand2
 * [CS_GPR3:CS_GPR2] of the engine. Return Data Control stores the value
 * memory held before the operation in CS_GPR4 (its low dword for a DWord,
 * the qword for a QWord) and CS_GPR5 (upper qword of an OctWord).
 *
 * Not modelled, and so a GPU fault: Post-Sync Operation. CS STALL only
 * orders the command after earlier work, which commands executed in order
 * already are. */
#include "gpu/cs/mi.h"

#include "common/trace.h"
#include "gpu/cs/regs.h"

enum {
	ATOMIC_AND = 1, ATOMIC_OR, ATOMIC_XOR, ATOMIC_MOVE, ATOMIC_INC, ATOMIC_DEC,
	ATOMIC_ADD, ATOMIC_SUB, ATOMIC_RSUB, ATOMIC_IMAX, ATOMIC_IMIN, ATOMIC_UMAX,
	ATOMIC_UMIN, ATOMIC_CMP_WR, ATOMIC_PREDEC,
	ATOMIC_QWORD = 0x20,     /* added to the DWord opcode */
	ATOMIC_CMP_WR16B = 0x4e, /* the one OctWord opcode */
};

enum { SIZE_DWORD, SIZE_QWORD, SIZE_OCTWORD };

/* The new memory value from old and the operands, over `bits` bits (32 or
 * 64): false for an opcode with no operation. */
static bool atomic_apply(uint32_t op, unsigned bits, uint64_t old, uint64_t src1,
			 uint64_t src2, uint64_t *out)
{
	uint64_t mask = bits == 64 ? ~0ull : 0xffffffffull;
	int64_t so = bits == 64 ? (int64_t)old : (int64_t)(int32_t)old;
	int64_t s1 = bits == 64 ? (int64_t)src1 : (int64_t)(int32_t)src1;
	uint64_t v;
	switch (op) {
	case ATOMIC_AND: v = old & src1; break;
	case ATOMIC_OR: v = old | src1; break;
	case ATOMIC_XOR: v = old ^ src1; break;
	case ATOMIC_MOVE: v = src1; break;
	case ATOMIC_INC: v = old + 1; break;
	case ATOMIC_DEC: case ATOMIC_PREDEC: v = old - 1; break;
	case ATOMIC_ADD: v = old + src1; break;
	case ATOMIC_SUB: v = old - src1; break;
	case ATOMIC_RSUB: v = src1 - old; break;
	case ATOMIC_IMAX: v = so > s1 ? old : src1; break;
	case ATOMIC_IMIN: v = so < s1 ? old : src1; break;
	case ATOMIC_UMAX: v = (old & mask) > (src1 & mask) ? old : src1; break;
	case ATOMIC_UMIN: v = (old & mask) < (src1 & mask) ? old : src1; break;
	/* compare-and-write: Operand1 is the compare value, Operand2 the new
	 * value */
	case ATOMIC_CMP_WR: v = (old & mask) == (src1 & mask) ? src2 : old; break;
	default: return false;
	}
	*out = v & mask;
	return true;
}

/* The two operands as qword pairs (index 1 only for an OctWord). */
static void atomic_operands(struct gt_engine *e, const struct cmd_MI_ATOMIC *c,
			    uint64_t src1[2], uint64_t src2[2])
{
	if (c->inline_data) {
		src1[0] = c->operand1_data_dword_0 | (uint64_t)c->operand1_data_dword_1 << 32;
		src2[0] = c->operand2_data_dword_0 | (uint64_t)c->operand2_data_dword_1 << 32;
		src1[1] = c->operand1_data_dword_2 | (uint64_t)c->operand1_data_dword_3 << 32;
		src2[1] = c->operand2_data_dword_2 | (uint64_t)c->operand2_data_dword_3 << 32;
		return;
	}
	for (int i = 0; i < 2; i++) {
		src1[i] = cs_reg_read64(e, CS_GPR(e->base, i));
		src2[i] = cs_reg_read64(e, CS_GPR(e->base, 2 + i));
	}
}

/* Return Data Control: the old value into CS_GPR4 (and 5). A DWord leaves
 * the upper dword of CS_GPR4 as it was. */
static void atomic_return(struct gt_engine *e, unsigned size, const uint64_t old[2])
{
	if (size == SIZE_DWORD) {
		cs_reg_write(e, CS_GPR(e->base, 4), (uint32_t)old[0]);
		return;
	}
	cs_reg_write64(e, CS_GPR(e->base, 4), old[0]);
	if (size == SIZE_OCTWORD)
		cs_reg_write64(e, CS_GPR(e->base, 5), old[1]);
}

MI_HANDLER(mi_atomic)
{
	struct cmd_MI_ATOMIC c;
	cmd_MI_ATOMIC_unpack(cs_gen(e), dw, len, &c);
	if (c.post_sync_operation)
		return cs_not_implemented(e, d, dw, len, "with Post-Sync Operation");
	if (c.data_size > SIZE_OCTWORD)
		return cs_fault(e, "MI_ATOMIC: reserved Data Size 3");
	unsigned size = c.data_size, bytes = 4u << size;
	uint32_t op = c.atomic_opcode;
	if (size == SIZE_OCTWORD) {
		if (op != ATOMIC_CMP_WR16B)
			return cs_fault(e, "MI_ATOMIC: opcode 0x%02x with OCTWORD size", op);
		op = ATOMIC_CMP_WR;
	} else if (size == SIZE_QWORD) {
		if (op < ATOMIC_QWORD || op > ATOMIC_QWORD + ATOMIC_PREDEC)
			return cs_fault(e, "MI_ATOMIC: opcode 0x%02x with QWORD size", op);
		op -= ATOMIC_QWORD;
	} else if (op >= ATOMIC_QWORD) {
		return cs_fault(e, "MI_ATOMIC: opcode 0x%02x with DWORD size", op);
	}
	uint64_t src1[2], src2[2], old[2] = { 0, 0 }, v[2];
	atomic_operands(e, &c, src1, src2);
	bool ggtt = c.memory_type != 0;
	enum cs_result r = mi_read(e, d, ggtt, c.memory_address, old, bytes);
	if (r != CS_NEXT)
		return r;
	if (size == SIZE_OCTWORD) {
		bool equal = old[0] == src1[0] && old[1] == src1[1];
		v[0] = equal ? src2[0] : old[0];
		v[1] = equal ? src2[1] : old[1];
	} else if (!atomic_apply(op, size == SIZE_QWORD ? 64 : 32, old[0], src1[0], src2[0],
				 &v[0])) {
		return cs_fault(e, "MI_ATOMIC: unknown atomic opcode 0x%02x", c.atomic_opcode);
	}
	TRACE(TRACE_CS, "%s: MI_ATOMIC op 0x%02x%s%s at 0x%llx: 0x%llx -> 0x%llx", e->name,
	      c.atomic_opcode, c.inline_data ? "" : " (GPR operands)",
	      c.return_data_control ? " (return data)" : "",
	      (unsigned long long)c.memory_address, (unsigned long long)old[0],
	      (unsigned long long)v[0]);
	r = mi_write(e, d, ggtt, c.memory_address, v, bytes);
	if (r == CS_NEXT && c.return_data_control)
		atomic_return(e, size, old);
	return r;
}
