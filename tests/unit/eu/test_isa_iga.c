/* Oracle: Intel's own assembler. Thousands of random instructions (fixed
 * seed) across opcodes and forms are encoded by gtsim (compacted where the
 * hardware allows); iga64 -p=8 (and -p=9) must disassemble the batch and
 * assemble its own text back to exactly the same bytes. Operand fields the
 * text does not show are generated in iga's normal form. Skips (exit 77)
 * only when iga64 is not installed. */
#include <unistd.h>

#include "test.h"
#include "test_isa_util.h"
#include "gpu/eu/isa.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static int cur_gen = 8;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)((rng >> 11) % n);
}

static const uint8_t int_types[] = { EU_TYPE_UD, EU_TYPE_D, EU_TYPE_UW, EU_TYPE_W };
static const uint8_t all_types[] = { EU_TYPE_UD, EU_TYPE_D, EU_TYPE_UW, EU_TYPE_W,
				     EU_TYPE_F };

static void grf(struct eu_operand *o, unsigned type, unsigned exec)
{
	memset(o, 0, sizeof(*o));
	o->file = EU_FILE_GRF;
	o->type = (uint8_t)type;
	o->nr = (uint8_t)rnd(112);
	unsigned esz = eu_type_size(type);
	switch (rnd(4)) {
	case 0: /* scalar */
		o->vstride = 0; o->width = 1; o->hstride = 0;
		o->subnr = (uint8_t)(rnd(32 / esz) * esz);
		break;
	case 1: /* <4;4,1> */
		o->vstride = 4; o->width = 4; o->hstride = 1;
		break;
	case 2: /* <16;8,2> for words, else <8;8,1> */
		if (esz == 2) {
			o->vstride = 16; o->width = 8; o->hstride = 2;
		} else {
			o->vstride = 8; o->width = 8; o->hstride = 1;
		}
		break;
	default: /* <8;8,1> */
		o->vstride = exec >= 8 ? 8 : exec; o->width = (uint8_t)(exec >= 8 ? 8 : exec);
		o->hstride = 1;
	}
	for (int i = 0; i < 4; i++)
		o->swizzle[i] = (uint8_t)i;
	o->negate = rnd(5) == 0;
	o->abs = rnd(6) == 0;
}

static void dst_grf(struct eu_operand *o, unsigned type)
{
	memset(o, 0, sizeof(*o));
	o->file = EU_FILE_GRF;
	o->type = (uint8_t)type;
	o->nr = (uint8_t)rnd(112);
	o->hstride = 1;
	o->width = 1;
	o->writemask = 0xf;
	if (eu_type_size(type) == 2 && rnd(3) == 0)
		o->hstride = 2;
}

static void imm(struct eu_operand *o, unsigned type)
{
	memset(o, 0, sizeof(*o));
	o->file = EU_FILE_IMM;
	o->type = (uint8_t)type;
	switch (rnd(3)) {
	case 0: o->imm = rnd(4096); break;
	case 1: o->imm = (uint32_t)(rng >> 7); break;
	default: o->imm = (uint32_t)-(int)rnd(300); break;
	}
	if (type == EU_TYPE_W || type == EU_TYPE_UW)
		o->imm = (o->imm & 0xffff) | (o->imm & 0xffff) << 16;
	if (type == EU_TYPE_F)
		o->imm = rnd(2) ? 0x3f800000u + rnd(100) * 0x100000u : 0;
}

static void common(struct eu_inst *in)
{
	static const uint8_t sizes[] = { 1, 2, 4, 8, 8, 8, 16, 16 };
	in->exec_size = sizes[rnd(8)];
	if (in->exec_size == 16)
		in->group = rnd(2) ? 16 : 0;
	else if (in->exec_size == 8)
		in->group = (uint8_t)(rnd(4) * 8);
	else
		in->group = (uint8_t)(rnd(8) * 4);
	in->no_mask = rnd(4) == 0;
	in->dep_ctrl = rnd(6) == 0 ? (uint8_t)(1 + rnd(3)) : 0;
	if (rnd(4) == 0) {
		in->pred = EU_PRED_NORMAL;
		in->pred_inv = rnd(2);
	}
	in->flag_nr = (uint8_t)rnd(2);
	in->flag_subnr = (uint8_t)rnd(2);
}

static void gen_alu2(struct eu_inst *in)
{
	static const uint8_t ops[] = { EU_OP_ADD, EU_OP_MUL, EU_OP_AND, EU_OP_OR,
				       EU_OP_XOR, EU_OP_SHL, EU_OP_SHR, EU_OP_ASR,
				       EU_OP_SEL, EU_OP_CMP, EU_OP_AVG };
	in->opcode = ops[rnd(sizeof(ops))];
	bool is_int = in->opcode != EU_OP_ADD && in->opcode != EU_OP_MUL &&
		      in->opcode != EU_OP_SEL && in->opcode != EU_OP_CMP;
	unsigned t = is_int ? int_types[rnd(4)] : all_types[rnd(5)];
	if (in->opcode == EU_OP_MUL && t != EU_TYPE_F)
		t = rnd(2) ? EU_TYPE_D : EU_TYPE_W;
	in->num_srcs = 2;
	dst_grf(&in->dst, t);
	grf(&in->src[0], t, in->exec_size);
	if (rnd(3) == 0)
		imm(&in->src[1], t);
	else
		grf(&in->src[1], t, in->exec_size);
	if (is_int && in->opcode != EU_OP_ADD)
		in->src[0].abs = in->src[1].abs = false;
	if (in->opcode == EU_OP_CMP || rnd(5) == 0)
		in->cond = (uint8_t)(1 + rnd(6));
	if (in->opcode == EU_OP_SEL && !in->pred && !in->cond)
		in->cond = EU_COND_GE;
	in->saturate = t == EU_TYPE_F && rnd(4) == 0;
}

static void gen_alu1(struct eu_inst *in)
{
	static const uint8_t ops[] = { EU_OP_MOV, EU_OP_NOT, EU_OP_FRC, EU_OP_RNDD,
				       EU_OP_RNDE, EU_OP_RNDZ, EU_OP_LZD, EU_OP_FBH,
				       EU_OP_FBL, EU_OP_CBIT, EU_OP_BFREV };
	in->opcode = ops[rnd(sizeof(ops))];
	bool fl = in->opcode == EU_OP_FRC || (in->opcode >= EU_OP_RNDU &&
					       in->opcode <= EU_OP_RNDZ);
	unsigned t = fl ? EU_TYPE_F : in->opcode == EU_OP_MOV ? all_types[rnd(5)] :
		     rnd(2) ? EU_TYPE_UD : EU_TYPE_D;
	in->num_srcs = 1;
	dst_grf(&in->dst, t);
	if (in->opcode == EU_OP_MOV && rnd(3) == 0) {
		static const uint8_t it[] = { EU_TYPE_UD, EU_TYPE_D, EU_TYPE_W,
					      EU_TYPE_UW, EU_TYPE_F, EU_TYPE_V,
					      EU_TYPE_UV, EU_TYPE_VF };
		unsigned ti = it[rnd(sizeof(it))];
		imm(&in->src[0], ti);
		if (ti == EU_TYPE_V || ti == EU_TYPE_UV)
			in->dst.type = EU_TYPE_W;
		if (ti == EU_TYPE_VF)
			in->dst.type = EU_TYPE_F;
	} else {
		grf(&in->src[0], t, in->exec_size);
		if (!fl && in->opcode != EU_OP_MOV)
			in->src[0].abs = in->src[0].negate = false;
	}
	in->src[1].type = EU_TYPE_UD; /* iga's normal form: zero */
	in->src[1].type = 0;
}

static void gen_3src(struct eu_inst *in)
{
	static const uint8_t ops[] = { EU_OP_MAD, EU_OP_LRP, EU_OP_BFE, EU_OP_BFI2,
				       EU_OP_CSEL };
	in->opcode = ops[rnd(sizeof(ops))];
	in->access_mode = EU_ALIGN16;
	if (in->exec_size < 4)
		in->exec_size = 8, in->group = 0;
	unsigned t = in->opcode == EU_OP_BFE || in->opcode == EU_OP_BFI2 ?
		     (rnd(2) ? EU_TYPE_UD : EU_TYPE_D) : EU_TYPE_F;
	in->num_srcs = 3;
	memset(&in->dst, 0, sizeof(in->dst));
	in->dst.file = EU_FILE_GRF;
	in->dst.type = (uint8_t)t;
	in->dst.nr = (uint8_t)rnd(120);
	in->dst.writemask = 0xf;
	in->dst.hstride = 1;
	for (int i = 0; i < 3; i++) {
		struct eu_operand *s = &in->src[i];
		memset(s, 0, sizeof(*s));
		s->file = EU_FILE_GRF;
		s->type = (uint8_t)t;
		s->nr = (uint8_t)rnd(120);
		bool rep = rnd(3) == 0;
		s->vstride = rep ? 0 : 4; s->width = rep ? 1 : 4; s->hstride = rep ? 0 : 1;
		s->subnr = rep ? (uint8_t)(rnd(8) * 4) : 0;
		for (int c = 0; c < 4; c++)
			s->swizzle[c] = (uint8_t)c;
		if (t == EU_TYPE_F) {
			s->negate = rnd(4) == 0;
			s->abs = rnd(5) == 0;
		}
	}
	if (in->opcode == EU_OP_CSEL)
		in->cond = (uint8_t)(1 + rnd(6));
}

static void gen_math(struct eu_inst *in)
{
	static const uint8_t fns[] = { 1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 13 };
	in->opcode = EU_OP_MATH;
	in->math_fn = fns[rnd(sizeof(fns))];
	bool intdiv = in->math_fn >= 11;
	unsigned t = intdiv ? (rnd(2) ? EU_TYPE_D : EU_TYPE_UD) : EU_TYPE_F;
	if (in->exec_size > 8)
		in->exec_size = 8;
	if (in->group > 24)
		in->group = 0;
	in->num_srcs = 2;
	dst_grf(&in->dst, t);
	grf(&in->src[0], t, in->exec_size);
	bool two = intdiv || in->math_fn == 9 || in->math_fn == 10;
	if (two) {
		grf(&in->src[1], t, in->exec_size);
	} else {
		memset(&in->src[1], 0, sizeof(in->src[1])); /* iga: all zero */
	}
	if (intdiv)
		in->src[0].abs = in->src[0].negate = in->src[1].abs = in->src[1].negate = false;
}

static void gen_send(struct eu_inst *in)
{
	static const uint8_t sfids[] = { EU_SFID_SAMPLER, EU_SFID_URB, EU_SFID_DP_RC,
					 EU_SFID_DP_DC0, EU_SFID_DP_DC1, EU_SFID_DP_CC,
					 EU_SFID_GATEWAY, EU_SFID_PI };
	in->opcode = rnd(4) ? EU_OP_SEND : EU_OP_SENDC;
	in->num_srcs = 1;
	in->exec_size = rnd(2) ? 8 : 16;
	in->group = in->exec_size == 8 ? (uint8_t)(rnd(2) * 8) : 0;
	in->pred = 0;
	dst_grf(&in->dst, EU_TYPE_UD);
	if (rnd(3) == 0) {
		in->dst.file = EU_FILE_ARF;
		in->dst.nr = EU_ARF_NULL;
	}
	grf(&in->src[0], EU_TYPE_UD, 8);
	/* iga's normal form for the payload: no region (<0;1,0>) */
	in->src[0].vstride = 0; in->src[0].width = 1; in->src[0].hstride = 0;
	in->src[0].subnr = 0;
	in->dep_ctrl = 0;
	in->src[0].negate = in->src[0].abs = false;
	in->sfid = sfids[rnd(sizeof(sfids))];
	in->desc = (1 + rnd(15)) << 25 | rnd(9) << 20 | rnd(2) << 19 | rnd(1 << 19);
	in->src[1].file = EU_FILE_IMM;
	in->src[1].type = EU_TYPE_UD;
	in->eot = rnd(8) == 0 && in->opcode == EU_OP_SEND;
	if (in->eot)
		in->desc &= ~(31u << 20);
}

/* gen9 split send: two payloads, immediate or a0 descriptors */
static void gen_sends(struct eu_inst *in)
{
	in->opcode = rnd(4) ? EU_OP_SENDS : EU_OP_SENDSC;
	in->num_srcs = 2;
	in->pred = 0;
	in->pred_inv = false;
	in->dep_ctrl = 0;
	struct eu_operand *o[3] = { &in->dst, &in->src[0], &in->src[1] };
	for (int i = 0; i < 3; i++) {
		memset(o[i], 0, sizeof(*o[i]));
		o[i]->file = EU_FILE_GRF;
		o[i]->type = EU_TYPE_UD;
		o[i]->nr = (uint8_t)rnd(120);
	}
	if (rnd(3) == 0)
		in->dst.file = EU_FILE_ARF, in->dst.nr = EU_ARF_NULL;
	in->sfid = (uint8_t)(rnd(2) ? EU_SFID_DP_RC : EU_SFID_DP_DC1);
	in->desc = (1 + rnd(15)) << 25 | rnd(9) << 20 | rnd(2) << 19 | rnd(1 << 19);
	in->ex_desc = rnd(16) << 6;
	if (rnd(4) == 0)
		in->desc_is_reg = true, in->desc = 0;
	if (rnd(4) == 0)
		in->ex_desc_is_reg = true, in->ex_desc = 0, in->sfid = 0,
		in->ex_desc_subnr = (uint8_t)rnd(8);
	in->eot = rnd(8) == 0;
}

static void gen_arf(struct eu_inst *in)
{
	static const uint8_t arfs[] = { EU_ARF_ACC0, EU_ARF_A0, EU_ARF_F0, EU_ARF_SR0,
					EU_ARF_CR0, EU_ARF_N0, EU_ARF_TM0, EU_ARF_CE0,
					EU_ARF_F1 };
	in->opcode = EU_OP_MOV;
	in->num_srcs = 1;
	in->exec_size = 1;
	in->group = 0;
	in->no_mask = true;
	unsigned t = EU_TYPE_UD;
	dst_grf(&in->dst, t);
	grf(&in->src[0], t, 1);
	in->src[0].vstride = 0; in->src[0].width = 1; in->src[0].hstride = 0;
	in->src[0].negate = in->src[0].abs = false;
	struct eu_operand *a = rnd(2) ? &in->dst : &in->src[0];
	a->file = EU_FILE_ARF;
	a->nr = arfs[rnd(sizeof(arfs))];
	a->subnr = 0;
	if (a == &in->dst && (a->nr == EU_ARF_TM0 || a->nr == EU_ARF_CE0))
		a->nr = EU_ARF_ACC0;
	memset(&in->src[1], 0, sizeof(in->src[1]));
}

static void gen_indirect(struct eu_inst *in)
{
	in->opcode = EU_OP_MOV;
	in->num_srcs = 1;
	in->exec_size = rnd(2) ? 1 : 8;
	in->group = 0;
	unsigned t = all_types[rnd(5)];
	dst_grf(&in->dst, t);
	grf(&in->src[0], t, in->exec_size);
	struct eu_operand *o = rnd(2) ? &in->dst : &in->src[0];
	o->addr_mode = EU_ADDR_INDIRECT;
	o->nr = 0;
	o->subnr = 0;
	o->indirect_subnr = (uint8_t)rnd(8);
	o->indirect_offset = (int16_t)((int)rnd(1024) - 512);
	if (o == &in->src[0] && in->exec_size == 1) {
		o->vstride = 0; o->width = 1; o->hstride = 0;
	}
	memset(&in->src[1], 0, sizeof(in->src[1]));
}

static void gen_branch(struct eu_inst *in)
{
	static const uint8_t ops[] = { EU_OP_IF, EU_OP_ELSE, EU_OP_ENDIF, EU_OP_WHILE,
				       EU_OP_BREAK, EU_OP_CONTINUE, EU_OP_HALT };
	in->opcode = ops[rnd(sizeof(ops))];
	in->exec_size = rnd(2) ? 8 : 16;
	in->group = 0;
	in->no_mask = false;
	in->dep_ctrl = 0;
	/* iga's normal form: null:ud destination; the JIP immediate is src0
	 * when there is a UIP, src1 otherwise. */
	in->dst.file = EU_FILE_ARF;
	in->dst.nr = EU_ARF_NULL;
	in->dst.type = EU_TYPE_UD;
	in->dst.hstride = 1;
	bool uip = eu_opcode_lookup(8, in->opcode)->has_uip;
	in->src[0].file = uip ? EU_FILE_IMM : EU_FILE_ARF;
	in->src[0].type = uip ? EU_TYPE_D : EU_TYPE_UD;
	in->src[1].file = EU_FILE_IMM;
	in->src[1].type = EU_TYPE_D;
	if (in->opcode == EU_OP_ENDIF)
		in->pred = 0;
	in->jip = 16;  /* the next instruction (a nop follows every branch) */
	in->uip = 16;
}

/* goto/join/brd/brc (targets in the JIP/UIP dwords), jmpi, call, calla
 * and ret, in iga's normal form (read from iga64's own encodings of
 * `goto (8|M0) L1 L2`, `call (8|M0) r10.0 L1`, ...). Every target is the
 * nop that follows. */
static void gen_flow(struct eu_inst *in, uint32_t at)
{
	static const uint8_t ops[] = { EU_OP_GOTO, EU_OP_JOIN, EU_OP_BRD, EU_OP_BRC,
				       EU_OP_JMPI, EU_OP_CALL, EU_OP_CALLA, EU_OP_RET };
	in->opcode = ops[rnd(sizeof(ops))];
	in->exec_size = rnd(2) ? 8 : 16;
	in->group = 0;
	in->no_mask = false;
	in->dep_ctrl = 0;
	in->thread_ctrl = 0;
	bool brd_like = in->opcode == EU_OP_BRD || in->opcode == EU_OP_BRC;
	in->dst.file = EU_FILE_ARF;
	in->dst.nr = brd_like ? EU_ARF_IP : EU_ARF_NULL;
	in->dst.type = brd_like ? EU_TYPE_D : EU_TYPE_UD;
	in->dst.hstride = 1;
	switch (in->opcode) {
	case EU_OP_GOTO: case EU_OP_BRD: case EU_OP_BRC:
		in->src[0].file = EU_FILE_IMM;
		in->src[0].type = EU_TYPE_D;
		in->src[1].file = EU_FILE_ARF;
		in->src[1].type = EU_TYPE_UD;
		break;
	case EU_OP_JOIN:
		in->src[0].file = EU_FILE_ARF;
		in->src[0].type = EU_TYPE_UD;
		in->src[1].file = EU_FILE_IMM;
		in->src[1].type = EU_TYPE_D;
		in->pred = 0;
		break;
	case EU_OP_JMPI:
		/* (W) jmpi (1): dst and src0 are ip, src1 the offset from the
		 * next instruction */
		in->exec_size = 1;
		in->no_mask = true;
		in->dst.nr = EU_ARF_IP;
		in->src[0] = in->dst;
		in->src[0].hstride = 0;
		in->src[0].width = 1;
		in->src[1].file = EU_FILE_IMM;
		in->src[1].type = EU_TYPE_D;
		in->src[1].imm = 0;
		break;
	default: { /* call, calla: dst gN:D; ret: src0 gN:D <2;2,1> */
		struct eu_operand *r = in->opcode == EU_OP_RET ? &in->src[0] : &in->dst;
		r->file = EU_FILE_GRF;
		r->nr = (uint8_t)rnd(120);
		r->type = EU_TYPE_D;
		in->src[in->opcode == EU_OP_RET].file = EU_FILE_ARF;
		in->src[in->opcode == EU_OP_RET].type = EU_TYPE_UD;
		bool wide = in->opcode != EU_OP_CALL || cur_gen >= 9;
		if (in->opcode != EU_OP_RET && wide) {
			in->src[0].vstride = 2; in->src[0].width = 2; in->src[0].hstride = 1;
		}
		if (in->opcode == EU_OP_RET) {
			in->src[0].vstride = 2; in->src[0].width = 2; in->src[0].hstride = 1;
			in->src[1].width = 1;
		} else {
			if (!wide)
				in->src[0].width = 1;
			in->src[1].file = EU_FILE_IMM;
			in->src[1].type = EU_TYPE_D;
			/* call: bytes from the call; calla: absolute */
			in->src[1].imm = in->opcode == EU_OP_CALL ? 16 : at + 16;
		}
	}
	}
	if (in->src[1].file == EU_FILE_IMM)
		in->jip = (int32_t)in->src[1].imm;
	if (in->opcode == EU_OP_GOTO || in->opcode == EU_OP_JOIN ||
	    in->opcode == EU_OP_BRD || in->opcode == EU_OP_BRC)
		in->jip = in->uip = 16;
}

/* wait, nop, 64-bit types, AccWrEnable and thread control. */
static void gen_misc(struct eu_inst *in)
{
	switch (rnd(4)) {
	case 0:
		in->opcode = EU_OP_WAIT;
		in->exec_size = 1; in->group = 0; in->no_mask = true; in->pred = 0;
		memset(&in->dst, 0, sizeof(in->dst));
		in->dst.nr = EU_ARF_N0; in->dst.subnr = (uint8_t)(rnd(2) * 4);
		in->dst.hstride = 1;
		in->src[0] = in->dst;
		in->src[0].hstride = 0; in->src[0].width = 1;
		break;
	case 1:
		memset(in, 0, sizeof(*in));
		in->opcode = EU_OP_NOP;
		in->exec_size = 1;
		break;
	case 2: {
		unsigned t = rnd(2) ? EU_TYPE_DF : rnd(2) ? EU_TYPE_Q : EU_TYPE_UQ;
		in->opcode = t == EU_TYPE_DF ? EU_OP_ADD : EU_OP_MOV;
		in->num_srcs = in->opcode == EU_OP_ADD ? 2 : 1;
		if (in->exec_size > 8)
			in->exec_size = 8, in->group = 0;
		dst_grf(&in->dst, t);
		for (int i = 0; i < in->num_srcs; i++) {
			grf(&in->src[i], t, in->exec_size);
			if (in->src[i].vstride == 8 || in->src[i].vstride == 16) {
				in->src[i].vstride = 4; in->src[i].width = 4; in->src[i].hstride = 1;
			}
			in->src[i].subnr = 0;
		}
		if (in->opcode == EU_OP_MOV) {
			in->src[0].negate = in->src[0].abs = false;
			if (rnd(2)) {
				memset(&in->src[0], 0, sizeof(in->src[0]));
				in->src[0].file = EU_FILE_IMM;
				in->src[0].type = (uint8_t)t;
				in->src[0].imm = (uint64_t)rng;
			}
		}
		break;
	}
	default:
		gen_alu2(in);
		in->acc_wr = rnd(2);
		in->thread_ctrl = (uint8_t)rnd(3);
	}
}

static void generate(struct eu_inst *in, uint32_t at)
{
	memset(in, 0, sizeof(*in));
	common(in);
	switch (rnd(14)) {
	case 13: gen_flow(in, at); break;
	case 11: gen_misc(in); break;
	case 0: case 1: case 2: gen_alu2(in); break;
	case 3: case 4: gen_alu1(in); break;
	case 5: gen_alu2(in); break; /* align16 2-src: iga rewrites it as align1 */
	case 6: gen_3src(in); break;
	case 7: gen_math(in); break;
	case 8:
		if (cur_gen >= 9 && rnd(3) == 0)
			gen_sends(in);
		else
			gen_send(in);
		break;
	case 9: gen_arf(in); break;
	case 10: gen_indirect(in); break;
	default: gen_branch(in); break;
	}
	/* iga's normal form: no predicate on csel/else/endif, no .sat on cmp,
	 * unused flag f0.0 */
	if (in->opcode == EU_OP_CSEL || in->opcode == EU_OP_ELSE || in->opcode == EU_OP_ENDIF)
		in->pred = 0;
	if (in->opcode == EU_OP_CMP)
		in->saturate = false;
	if (!in->pred)
		in->pred_inv = false;
	if (!in->pred && !in->cond)
		in->flag_nr = in->flag_subnr = 0;
}

static int run(const char *cmd)
{
	int rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void check_gen(int gen, int count)
{
	cur_gen = gen;
	char dir[] = "/tmp/gtsim-iga-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	char bin[128], txt[128], back[128], err[128], cmd[1024];
	snprintf(bin, sizeof(bin), "%s/a.krn", dir);
	snprintf(txt, sizeof(txt), "%s/a.asm", dir);
	snprintf(back, sizeof(back), "%s/b.krn", dir);
	snprintf(err, sizeof(err), "%s/err.txt", dir);
	uint8_t *buf = malloc((size_t)count * 32 + 16);
	size_t *offs = malloc((size_t)count * 2 * sizeof(size_t));
	struct eu_inst *insts = malloc((size_t)count * 2 * sizeof(*insts));
	size_t len = 0, n = 0;
	int compacted = 0;
	for (int i = 0; i < count; i++) {
		struct eu_inst in;
		int size;
		bool flow;
		do {
			generate(&in, (uint32_t)len);
			unsigned kind = eu_opcode_lookup(gen, in.opcode)->kind;
			flow = kind == EU_KIND_BRANCH || kind == EU_KIND_JMPI;
			size = eu_encode(gen, &in, buf + len, !flow);
		} while (size < 0);
		compacted += size == 8;
		offs[n] = len;
		insts[n++] = in;
		len += (size_t)size;
		if (flow) {
			struct eu_inst nop = { .opcode = EU_OP_NOP, .exec_size = 1 };
			offs[n] = len;
			insts[n++] = nop;
			len += (size_t)eu_encode(gen, &nop, buf + len, false);
		}
	}
	CHECK(compacted > count / 20);
	FILE *f = fopen(bin, "wb");
	fwrite(buf, 1, len, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "iga64 -p=%d -d %s -o %s 2>%s && iga64 -p=%d -a %s -o %s 2>>%s",
		 gen, bin, txt, err, gen, txt, back, err);
	int rc = run(cmd);
	CHECK_EQ(rc, 0);
	size_t blen = 0;
	char *b = read_file(back, &blen);
	if (rc || !b) {
		char *e = read_file(err, NULL);
		fprintf(stderr, "gen%d: iga64 failed:\n%s\n", gen, e ? e : "?");
		free(e);
	} else {
		CHECK_EQ(blen, len);
		int shown = 0;
		for (size_t i = 0; i < n; i++) {
			size_t sz = (i + 1 < n ? offs[i + 1] : len) - offs[i];
			if (offs[i] + sz <= blen && !memcmp(b + offs[i], buf + offs[i], sz))
				continue;
			CHECK(!"iga64 re-encodes differently");
			if (shown++ < 12) {
				fprintf(stderr, "gen%d inst %zu (opcode 0x%x) at 0x%zx:\n  gtsim:", gen,
					i, insts[i].opcode, offs[i]);
				for (size_t k = 0; k < sz; k++)
					fprintf(stderr, " %02x", buf[offs[i] + k]);
				fprintf(stderr, "\n    iga:");
				for (size_t k = 0; k < sz && offs[i] + k < blen; k++)
					fprintf(stderr, " %02x", (uint8_t)b[offs[i] + k]);
				fprintf(stderr, "\n");
			}
		}
		/* gtsim decodes its own bytes to what it encoded */
		for (size_t i = 0; i < n; i++) {
			struct eu_inst d;
			size_t used;
			uint8_t re[16];
			int drc = eu_decode(gen, buf + offs[i], len - offs[i], &d, &used);
			CHECK_EQ(drc, 0);
			if (drc)
				fprintf(stderr, "gen%d inst %zu (opcode 0x%x) does not decode\n", gen, i, insts[i].opcode);
			CHECK_EQ(eu_encode(gen, &d, re, d.compacted), (int)used);
			CHECK(!memcmp(re, buf + offs[i], used));
		}
	}
	free(b);
	if (getenv("GTSIM_KEEP_IGA"))
		fprintf(stderr, "kept %s\n", dir);
	else {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		run(cmd);
	}
	free(buf);
	free(offs);
	free(insts);
}

int main(void)
{
	if (run("iga64 --help >/dev/null 2>&1") != 0) {
		printf("*** iga64 (Debian package libigc-tools) is not installed: "
		       "the Intel assembler oracle test is SKIPPED ***\n");
		return 77;
	}
	check_gen(8, 4000);
	check_gen(9, 2000);
	return test_exit();
}
