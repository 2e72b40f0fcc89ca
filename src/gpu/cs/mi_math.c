/* MI_MATH, the command streamer's ALU, and MI_PREDICATE.
 *
 * MI_MATH (BDW PRM vol. 2a; Mesa's mi_builder relies on the same rules):
 * sixteen 64-bit GPRs at engine base + 0x600, two source registers SRCA
 * and SRCB, an accumulator and the carry and zero flags. LOAD/LOADINV copy
 * a GPR (or flag, or the accumulator) into SRCA/SRCB, LOAD0/LOAD1 load a
 * constant; ADD/SUB/AND/OR/XOR compute SRCA op SRCB into the accumulator
 * and set ZF (result zero) and CF (carry out of ADD, borrow of SUB);
 * STORE/STOREINV copy the accumulator or a flag into a GPR. A flag reads
 * as all ones when set, so that a stored CF or ZF is a 64-bit mask.
 *
 * MI_PREDICATE: compares REG_MI_PREDICATE_SRC0 with SRC1 (SRCS_EQUAL), or their
 * difference with REG_MI_PREDICATE_DATA (DELTAS_EQUAL), or takes TRUE or
 * FALSE, optionally inverts the result (LOADINV), and combines it with the
 * current predicate (SET, AND, OR, XOR) into REG_MI_PREDICATE_RESULT. */
#include "gpu/cs/mi.h"

#include "common/trace.h"

enum {
	ALU_NOOP = 0x000, ALU_LOAD = 0x080, ALU_LOADINV = 0x480,
	ALU_LOAD0 = 0x081, ALU_LOAD1 = 0x481, ALU_ADD = 0x100, ALU_SUB = 0x101,
	ALU_AND = 0x102, ALU_OR = 0x103, ALU_XOR = 0x104, ALU_STORE = 0x180,
	ALU_STOREINV = 0x580,
};
enum { OP_SRCA = 0x20, OP_SRCB = 0x21, OP_ACCU = 0x31, OP_ZF = 0x32, OP_CF = 0x33 };

struct alu {
	uint64_t srca, srcb, accu;
	bool zf, cf;
};

/* Value of an ALU operand used as a source; false when it names none. */
static bool operand_value(struct gt_engine *e, const struct alu *a, uint32_t op,
			  uint64_t *v)
{
	if (op < 16) {
		*v = cs_reg_read64(e, CS_GPR(e->base, op));
		return true;
	}
	switch (op) {
	case OP_SRCA: *v = a->srca; return true;
	case OP_SRCB: *v = a->srcb; return true;
	case OP_ACCU: *v = a->accu; return true;
	case OP_ZF: *v = a->zf ? ~0ull : 0; return true;
	case OP_CF: *v = a->cf ? ~0ull : 0; return true;
	default: return false;
	}
}

MI_HANDLER(mi_math)
{
	int gen = cs_gen(e);
	struct alu a = { 0 };
	uint32_t n = cmd_MI_MATH_instruction_count(gen, len);

	for (uint32_t i = 0; i < n; i++) {
		struct cmd_MI_MATH_ALU_INSTRUCTION in;
		cmd_MI_MATH_instruction_at(gen, dw, len, i, &in);
		uint32_t opc = in.alu_opcode, op1 = in.operand_1, op2 = in.operand_2;
		uint64_t v;
		switch (opc) {
		case ALU_NOOP:
			break;
		case ALU_LOAD:
		case ALU_LOADINV:
			if ((op1 != OP_SRCA && op1 != OP_SRCB) || !operand_value(e, &a, op2, &v))
				return cs_fault(e, "MI_MATH: bad LOAD operands 0x%x, 0x%x", op1, op2);
			if (opc == ALU_LOADINV)
				v = ~v;
			*(op1 == OP_SRCA ? &a.srca : &a.srcb) = v;
			break;
		case ALU_LOAD0:
		case ALU_LOAD1:
			if (op1 != OP_SRCA && op1 != OP_SRCB)
				return cs_fault(e, "MI_MATH: bad LOAD0/1 operand 0x%x", op1);
			*(op1 == OP_SRCA ? &a.srca : &a.srcb) = opc == ALU_LOAD1;
			break;
		case ALU_ADD:
			a.accu = a.srca + a.srcb;
			a.cf = a.accu < a.srca;
			a.zf = a.accu == 0;
			break;
		case ALU_SUB:
			a.accu = a.srca - a.srcb;
			a.cf = a.srca < a.srcb;
			a.zf = a.accu == 0;
			break;
		case ALU_AND: case ALU_OR: case ALU_XOR:
			a.accu = opc == ALU_AND ? a.srca & a.srcb :
				 opc == ALU_OR ? a.srca | a.srcb : a.srca ^ a.srcb;
			a.cf = false;
			a.zf = a.accu == 0;
			break;
		case ALU_STORE:
		case ALU_STOREINV:
			if (op1 >= 16 || !operand_value(e, &a, op2, &v))
				return cs_fault(e, "MI_MATH: bad STORE operands 0x%x, 0x%x", op1, op2);
			cs_reg_write64(e, CS_GPR(e->base, op1), opc == ALU_STOREINV ? ~v : v);
			break;
		default:
			return cs_fault(e, "MI_MATH: unknown ALU opcode 0x%03x", opc);
		}
	}
	return CS_NEXT;
}

bool mi_predicate_value(struct gt_engine *e)
{
	return cs_reg_read(e, REG_MI_PREDICATE_RESULT) & REG_MI_PREDICATE_RESULT_MI_PREDICATE_RESULT_MASK;
}

MI_HANDLER(mi_predicate)
{
	struct cmd_MI_PREDICATE c;
	cmd_MI_PREDICATE_unpack(cs_gen(e), dw, len, &c);
	bool cur = mi_predicate_value(e), result;
	uint64_t src0, src1;

	if (c.load_operation == 0) /* LOAD_KEEP */
		return CS_NEXT;
	if (c.load_operation == 1)
		return cs_fault(e, "MI_PREDICATE: reserved load operation 1");
	switch (c.compare_operation) {
	case 0: result = true; break;
	case 1: result = false; break;
	case 2:
		/* SRCS_EQUAL also loads REG_MI_PREDICATE_DATA with SRC0 - SRC1, the
		 * delta a later DELTAS_EQUAL compares with (BDW PRM vol. 2a
		 * MI_PREDICATE; Mesa's MI executor does the same). */
		src0 = cs_reg_read64(e, REG_MI_PREDICATE_SRC0);
		src1 = cs_reg_read64(e, REG_MI_PREDICATE_SRC1);
		cs_reg_write64(e, REG_MI_PREDICATE_DATA, src0 - src1);
		result = src0 == src1;
		break;
	default:
		/* DELTAS_EQUAL: true when SRC0 - SRC1 equals REG_MI_PREDICATE_DATA. */
		src0 = cs_reg_read64(e, REG_MI_PREDICATE_SRC0);
		src1 = cs_reg_read64(e, REG_MI_PREDICATE_SRC1);
		result = src0 - src1 == cs_reg_read64(e, REG_MI_PREDICATE_DATA);
		break;
	}
	if (c.load_operation == 3) /* LOADINV */
		result = !result;
	switch (c.combine_operation) {
	case 1: result = cur && result; break;
	case 2: result = cur || result; break;
	case 3: result = cur != result; break;
	default: break;
	}
	cs_reg_write(e, REG_MI_PREDICATE_RESULT, result);
	TRACE(TRACE_CS, "%s: predicate %d", e->name, result);
	return CS_NEXT;
}
