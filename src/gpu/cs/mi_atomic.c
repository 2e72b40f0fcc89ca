/* MI_ATOMIC (BDW PRM vol. 2a "MI_ATOMIC"; the atomic operations are those
 * of the data port, vol. 7 "Atomic Operations"): a read-modify-write of a
 * DWord (opcodes 0x01-0x0f) or a QWord (0x21-0x2f, the same operations) in
 * memory with the command's inline operands. Commands run one at a time,
 * so the read and the write are atomic with respect to the engine.
 *
 * Modelled: Inline Data set, Data Size DWORD or QWORD. Not modelled, and
 * so a GPU fault: operands from the GPRs (Inline Data clear), Return Data
 * Control (the old value written back), Post-Sync Operation, OCTWORD
 * compare-and-write. CS STALL only orders the command after earlier work,
 * which commands executed in order already are. */
#include "gpu/cs/mi.h"

#include "common/trace.h"

enum {
	ATOMIC_AND = 1, ATOMIC_OR, ATOMIC_XOR, ATOMIC_MOVE, ATOMIC_INC, ATOMIC_DEC,
	ATOMIC_ADD, ATOMIC_SUB, ATOMIC_RSUB, ATOMIC_IMAX, ATOMIC_IMIN, ATOMIC_UMAX,
	ATOMIC_UMIN, ATOMIC_CMP_WR, ATOMIC_PREDEC,
	ATOMIC_QWORD = 0x20,     /* added to the DWord opcode */
};

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

MI_HANDLER(mi_atomic)
{
	struct cmd_MI_ATOMIC c;
	cmd_MI_ATOMIC_unpack(cs_gen(e), dw, len, &c);
	if (!c.inline_data)
		return cs_not_implemented(e, d, dw, len, "with operands from the GPRs");
	if (c.return_data_control)
		return cs_not_implemented(e, d, dw, len, "with Return Data Control");
	if (c.post_sync_operation)
		return cs_not_implemented(e, d, dw, len, "with Post-Sync Operation");
	if (c.data_size > 1)
		return cs_not_implemented(e, d, dw, len, "on an OCTWORD");
	unsigned bits = c.data_size ? 64 : 32;
	uint32_t op = c.atomic_opcode;
	if (bits == 64) {
		if (op < ATOMIC_QWORD)
			return cs_fault(e, "MI_ATOMIC: DWord opcode 0x%02x with QWORD size", op);
		op -= ATOMIC_QWORD;
	} else if (op >= ATOMIC_QWORD) {
		return cs_fault(e, "MI_ATOMIC: opcode 0x%02x with DWORD size", op);
	}
	uint64_t src1 = c.operand1_data_dword_0, src2 = c.operand2_data_dword_0;
	if (bits == 64) {
		src1 |= (uint64_t)c.operand1_data_dword_1 << 32;
		src2 |= (uint64_t)c.operand2_data_dword_1 << 32;
	}
	uint64_t old = 0, v;
	enum cs_result r = mi_read(e, d, c.memory_type != 0, c.memory_address, &old, bits / 8);
	if (r != CS_NEXT)
		return r;
	if (!atomic_apply(op, bits, old, src1, src2, &v))
		return cs_fault(e, "MI_ATOMIC: unknown atomic opcode 0x%02x", c.atomic_opcode);
	TRACE(TRACE_CS, "%s: MI_ATOMIC op 0x%02x at 0x%llx: 0x%llx -> 0x%llx", e->name,
	      c.atomic_opcode, (unsigned long long)c.memory_address,
	      (unsigned long long)old, (unsigned long long)v);
	return mi_write(e, d, c.memory_type != 0, c.memory_address, &v, bits / 8);
}
