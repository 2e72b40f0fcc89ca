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
 * MI_PREDICATE: compares MI_PREDICATE_SRC0 with SRC1 (or takes TRUE or
 * FALSE), optionally inverts the result (LOADINV), and combines it with the
 * current predicate (SET, AND, OR, XOR) into MI_PREDICATE_RESULT. */
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
	const struct cmd_field *inst = NULL;
	for (uint32_t i = 0; i < d->num_fields && !inst; i++)
		if (d->fields[i].in_group)
			inst = &d->fields[i];
	if (!inst)
		return cs_fault(e, "MI_MATH: table has no instruction group");
	struct alu a = { 0 };
	uint32_t n = cmd_group_count(inst, len);

	for (uint32_t i = 0; i < n; i++) {
		uint32_t w = (uint32_t)cmd_field_value(inst, dw, len, i);
		uint32_t opc = w >> 20, op1 = (w >> 10) & 0x3ff, op2 = w & 0x3ff;
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
	return cs_reg_read(e, MI_PREDICATE_RESULT) & 1;
}

MI_HANDLER(mi_predicate)
{
	uint32_t load = (uint32_t)mi_field(d, dw, len, "Load Operation");
	uint32_t combine = (uint32_t)mi_field(d, dw, len, "Combine Operation");
	uint32_t compare = (uint32_t)mi_field(d, dw, len, "Compare Operation");
	bool cur = mi_predicate_value(e), result;

	if (load == 0) /* LOAD_KEEP */
		return CS_NEXT;
	if (load == 1)
		return cs_fault(e, "MI_PREDICATE: reserved load operation 1");
	switch (compare) {
	case 0: result = true; break;
	case 1: result = false; break;
	case 2:
		result = cs_reg_read64(e, MI_PREDICATE_SRC0) ==
			 cs_reg_read64(e, MI_PREDICATE_SRC1);
		break;
	default:
		/* DELTAS_EQUAL compares how SRC0 and SRC1 changed since the
		 * last MI_PREDICATE; not modelled. */
		TRACE(TRACE_STUB, "%s: MI_PREDICATE DELTAS_EQUAL taken as false", e->name);
		result = false;
		break;
	}
	if (load == 3) /* LOADINV */
		result = !result;
	switch (combine) {
	case 1: result = cur && result; break;
	case 2: result = cur || result; break;
	case 3: result = cur != result; break;
	default: break;
	}
	cs_reg_write(e, MI_PREDICATE_RESULT, result);
	TRACE(TRACE_CS, "%s: predicate %d", e->name, result);
	return CS_NEXT;
}
