/* Native (128-bit) instruction decoding for Gen8/Gen9. */
#include <string.h>

#include "gpu/eu/isa.h"
#include "gpu/eu/isa_bits.h"
#include "gpu/eu/isa_fields.h"

static const uint8_t vstride_dec[16] = { 0, 1, 2, 4, 8, 16, 32, 0, 0, 0, 0, 0,
					 0, 0, 0, EU_VSTRIDE_VXH };
static const uint8_t hstride_dec[4] = { 0, 1, 2, 4 };

static int decode_file(unsigned f)
{
	/* 0 ARF, 1 GRF, 3 IMM; 2 (MRF) does not exist on gen7+. */
	return f == 2 ? -1 : (int)f;
}

static int decode_dst(const uint64_t q[2], bool align16, struct eu_operand *d)
{
	int file = decode_file((unsigned)isa_get(q, 36, 35));
	int type = eu_type_from_hw((unsigned)isa_get(q, 40, 37), false);
	if (file < 0 || file == EU_FILE_IMM || type < 0)
		return -1;
	d->file = (uint8_t)file;
	d->type = (uint8_t)type;
	d->addr_mode = (uint8_t)isa_get(q, 63, 63);
	d->hstride = hstride_dec[isa_get(q, 62, 61)];
	d->width = 1;
	if (d->addr_mode == EU_ADDR_DIRECT) {
		d->nr = (uint8_t)isa_get(q, 60, 53);
		d->subnr = align16 ? (uint8_t)(isa_get(q, 52, 52) * 16)
				   : (uint8_t)isa_get(q, 52, 48);
	} else {
		d->indirect_subnr = (uint8_t)isa_get(q, 60, 57);
		uint32_t imm = align16 ? (uint32_t)isa_get(q, 56, 52) << 4
				       : (uint32_t)isa_get(q, 56, 48);
		imm |= (uint32_t)isa_get(q, 47, 47) << 9;
		d->indirect_offset = (int16_t)(imm & 0x200 ? (int)imm - 0x400 : (int)imm);
	}
	d->writemask = align16 ? (uint8_t)isa_get(q, 51, 48) : 0xf;
	return 0;
}

/* One source of a two-source form. */
static int decode_src(const uint64_t q[2], bool align16, int which,
		      struct eu_operand *s)
{
	const struct isa_src_fields *f = &isa_src_f[which];
	unsigned b = f->base;
	int file = decode_file((unsigned)isa_get(q, f->file_lo + 1, f->file_lo));
	if (file < 0)
		return -1;
	int type = eu_type_from_hw((unsigned)isa_get(q, f->type_lo + 3, f->type_lo),
				   file == EU_FILE_IMM);
	if (type < 0)
		return -1;
	s->file = (uint8_t)file;
	s->type = (uint8_t)type;
	if (file == EU_FILE_IMM) {
		if (eu_type_size((unsigned)type) == 8) {
			if (which != 0)
				return -1;
			s->imm = q[1];
		} else {
			s->imm = isa_get(q, 127, 96);
		}
		s->vstride = 0; s->width = 1; s->hstride = 0;
		for (int i = 0; i < 4; i++) s->swizzle[i] = (uint8_t)i;
		return 0;
	}
	s->negate = isa_get(q, b + SRC_NEG, b + SRC_NEG);
	s->abs = isa_get(q, b + SRC_ABS, b + SRC_ABS);
	s->addr_mode = (uint8_t)isa_get(q, b + SRC_ADDR_MODE, b + SRC_ADDR_MODE);
	unsigned vs = (unsigned)isa_get(q, b + SRC_VSTRIDE_LO + 3, b + SRC_VSTRIDE_LO);
	if (vs > 6 && vs != 15)
		return -1;
	s->vstride = vstride_dec[vs];
	if (s->addr_mode == EU_ADDR_DIRECT) {
		s->nr = (uint8_t)isa_get(q, b + SRC_REG_LO + 7, b + SRC_REG_LO);
		s->subnr = align16 ? (uint8_t)(isa_get(q, b + 4, b + 4) * 16)
				   : (uint8_t)isa_get(q, b + SRC_SUBREG_HI, b);
	} else {
		s->indirect_subnr = (uint8_t)isa_get(q, b + 12, b + SRC_IA_SUBREG_LO);
		uint32_t imm = align16 ? (uint32_t)isa_get(q, b + 8, b + 4) << 4
				       : (uint32_t)isa_get(q, b + SRC_IA_IMM_HI, b);
		imm |= (uint32_t)isa_get(q, f->imm9, f->imm9) << 9;
		s->indirect_offset = (int16_t)(imm & 0x200 ? (int)imm - 0x400 : (int)imm);
	}
	if (align16) {
		s->swizzle[0] = (uint8_t)isa_get(q, b + 1, b);
		s->swizzle[1] = (uint8_t)isa_get(q, b + 3, b + 2);
		s->swizzle[2] = (uint8_t)isa_get(q, b + 17, b + 16);
		s->swizzle[3] = (uint8_t)isa_get(q, b + 19, b + 18);
		s->width = 4;
		s->hstride = 1;
		if (s->addr_mode == EU_ADDR_DIRECT)
			s->subnr = (uint8_t)(isa_get(q, b + 4, b + 4) * 16);
	} else {
		unsigned w = (unsigned)isa_get(q, b + SRC_WIDTH_LO + 2, b + SRC_WIDTH_LO);
		if (w > 4)
			return -1;
		s->width = (uint8_t)(1u << w);
		s->hstride = hstride_dec[isa_get(q, b + SRC_HSTRIDE_LO + 1, b + SRC_HSTRIDE_LO)];
		for (int i = 0; i < 4; i++) s->swizzle[i] = (uint8_t)i;
	}
	return 0;
}

/* 3-source, align16 only on gen8/9 (PRM "3-Src Instruction Format"). */
static int decode_3src(const uint64_t q[2], struct eu_inst *in)
{
	static const int8_t t3[8] = { EU_TYPE_F, EU_TYPE_D, EU_TYPE_UD, EU_TYPE_DF,
				      EU_TYPE_HF, -1, -1, -1 };
	if (in->access_mode != EU_ALIGN16)
		return -1;
	int dt = t3[isa_get(q, 48, 46)], st = t3[isa_get(q, 45, 43)];
	if (dt < 0 || st < 0)
		return -1;
	struct eu_operand *d = &in->dst;
	d->file = EU_FILE_GRF;
	d->type = (uint8_t)dt;
	d->nr = (uint8_t)isa_get(q, 63, 56);
	d->subnr = (uint8_t)(isa_get(q, 55, 53) * 4);
	d->writemask = (uint8_t)isa_get(q, 52, 49);
	d->hstride = 1;
	d->width = 1;
	static const unsigned base[3] = { 64, 85, 106 };
	for (int i = 0; i < 3; i++) {
		struct eu_operand *s = &in->src[i];
		unsigned b = base[i];
		s->file = EU_FILE_GRF;
		s->type = (uint8_t)st;
		s->negate = isa_get(q, 38 + 2 * i, 38 + 2 * i);
		s->abs = isa_get(q, 37 + 2 * i, 37 + 2 * i);
		bool rep = isa_get(q, b, b);
		unsigned swz = (unsigned)isa_get(q, b + 8, b + 1);
		for (int c = 0; c < 4; c++)
			s->swizzle[c] = (uint8_t)((swz >> (2 * c)) & 3);
		s->subnr = (uint8_t)(isa_get(q, b + 11, b + 9) * 4);
		s->nr = (uint8_t)isa_get(q, b + 19, b + 12);
		s->vstride = rep ? 0 : 4;
		s->width = rep ? 1 : 4;
		s->hstride = rep ? 0 : 1;
	}
	/* Gen8 mixed mode: src1/src2 may be half float (bits 36/35). */
	if (isa_get(q, 36, 36))
		in->src[1].type = EU_TYPE_HF;
	if (isa_get(q, 35, 35))
		in->src[2].type = EU_TYPE_HF;
	in->flag_nr = (uint8_t)isa_get(q, 33, 33);
	in->flag_subnr = (uint8_t)isa_get(q, 32, 32);
	in->no_mask = isa_get(q, 34, 34);
	return 0;
}

static int decode_send(int gen, const uint64_t q[2], struct eu_inst *in)
{
	in->sfid = (uint8_t)isa_get(q, 27, 24);
	in->cond = 0;
	in->eot = isa_get(q, 127, 127);
	if (in->src[1].file == EU_FILE_IMM) {
		in->desc = (uint32_t)isa_get(q, 126, 96); /* gen8 uses 124:96 */
		in->desc_is_reg = false;
	} else {
		in->desc = 0;
		in->desc_is_reg = true;
	}
	if (gen >= 9)
		in->ex_desc = (uint32_t)(isa_get(q, 94, 91) << 28 | isa_get(q, 88, 85) << 24 |
					 isa_get(q, 83, 80) << 20 | isa_get(q, 67, 64) << 16);
	return 0;
}

/* Gen9 split send (PRM vol. 2a "SENDS"): two payloads, direct GRF/ARF
 * registers only (no regions), descriptors immediate or from a0. */
static int decode_sends(const uint64_t q[2], struct eu_inst *in)
{
	/* src1's register number (51:44) takes the place of src0's type */
	int dt = eu_type_from_hw((unsigned)isa_get(q, 40, 37), false);
	int st = EU_TYPE_UD;
	if (dt < 0 || isa_get(q, 63, 63) || isa_get(q, 79, 79))
		return -1; /* indirect payloads are not supported */
	struct eu_operand *d = &in->dst, *s0 = &in->src[0], *s1 = &in->src[1];
	d->file = (uint8_t)isa_get(q, 35, 35);
	d->type = (uint8_t)dt;
	d->nr = (uint8_t)isa_get(q, 60, 53);
	d->subnr = (uint8_t)(isa_get(q, 52, 52) * 16);
	d->hstride = 1; d->width = 1; d->writemask = 0xf;
	s0->file = EU_FILE_GRF; /* bits 42:41 unused (iga writes 0) */
	s0->type = (uint8_t)st;
	s0->nr = (uint8_t)isa_get(q, 76, 69);
	s0->subnr = (uint8_t)(isa_get(q, 68, 68) * 16);
	s1->file = (uint8_t)isa_get(q, 36, 36);
	s1->type = EU_TYPE_UD;
	s1->nr = (uint8_t)isa_get(q, 51, 44);
	for (int i = 0; i < 2; i++) {
		in->src[i].vstride = 8; in->src[i].width = 8; in->src[i].hstride = 1;
		for (int c = 0; c < 4; c++)
			in->src[i].swizzle[c] = (uint8_t)c;
	}
	in->sfid = (uint8_t)isa_get(q, 27, 24);
	in->cond = 0;
	in->eot = isa_get(q, 127, 127);
	in->desc_is_reg = isa_get(q, 77, 77);
	in->desc = in->desc_is_reg ? 0 : (uint32_t)isa_get(q, 126, 96);
	/* With the extended descriptor in a0, the SFID comes from its low
	 * bits at run time and the instruction's SFID field is 0. */
	in->ex_desc_is_reg = isa_get(q, 61, 61);
	if (in->ex_desc_is_reg)
		in->ex_desc_subnr = (uint8_t)isa_get(q, 82, 80);
	else
		in->ex_desc = (uint32_t)(isa_get(q, 95, 80) << 16 | isa_get(q, 67, 64) << 6);
	in->flag_nr = (uint8_t)isa_get(q, 33, 33);
	in->flag_subnr = (uint8_t)isa_get(q, 32, 32);
	in->no_mask = isa_get(q, 34, 34);
	return 0;
}

int eu_decode_native(int gen, const uint64_t q[2], struct eu_inst *in)
{
	memset(in, 0, sizeof(*in));
	if (gen != 8 && gen != 9)
		return -1;
	in->opcode = (uint8_t)isa_get(q, 6, 0);
	const struct eu_opcode_info *op = eu_opcode_lookup(gen, in->opcode);
	if (!op || isa_get(q, 7, 7))
		return -1;
	unsigned es = (unsigned)isa_get(q, 23, 21);
	if (es > 5)
		return -1;
	in->exec_size = (uint8_t)(1u << es);
	in->access_mode = (uint8_t)isa_get(q, 8, 8);
	in->dep_ctrl = (uint8_t)(isa_get(q, 9, 9) | isa_get(q, 10, 10) << 1);
	in->group = (uint8_t)(isa_get(q, 13, 12) * 8 + isa_get(q, 11, 11) * 4);
	in->thread_ctrl = (uint8_t)isa_get(q, 15, 14);
	if (in->thread_ctrl == 3)
		return -1;
	in->pred = (uint8_t)isa_get(q, 19, 16);
	in->pred_inv = isa_get(q, 20, 20);
	in->cond = (uint8_t)isa_get(q, 27, 24);
	in->debug = isa_get(q, 30, 30);
	in->saturate = isa_get(q, 31, 31);
	in->compacted = false;
	in->num_srcs = op->nsrc;
	bool bc = isa_get(q, 28, 28);
	if (op->flags & EU_OPF_BRANCH_CTRL)
		in->branch_ctrl = bc;
	else
		in->acc_wr = bc;
	if (in->access_mode == EU_ALIGN16 ? in->pred > 7 : in->pred > 13)
		return -1;

	if (op->kind == EU_KIND_ALU3)
		return decode_3src(q, in);

	in->flag_nr = (uint8_t)isa_get(q, 33, 33);
	in->flag_subnr = (uint8_t)isa_get(q, 32, 32);
	in->no_mask = isa_get(q, 34, 34);
	bool a16 = in->access_mode == EU_ALIGN16;
	if (op->kind == EU_KIND_SENDS)
		return decode_sends(q, in);
	if (decode_dst(q, a16, &in->dst))
		return -1;

	if (op->kind == EU_KIND_BRANCH) {
		/* JIP in the src1 immediate dword, UIP in the one below (gen8+:
		 * byte offsets). Only the type/file bits of the sources exist. */
		int f0 = decode_file((unsigned)isa_get(q, 42, 41));
		int t0 = eu_type_from_hw((unsigned)isa_get(q, 46, 43), f0 == EU_FILE_IMM);
		if (f0 < 0 || t0 < 0)
			return -1;
		in->src[0].file = (uint8_t)f0;
		in->src[0].type = (uint8_t)t0;
		in->jip = (int32_t)(uint32_t)isa_get(q, 127, 96);
		if (op->has_uip) {
			in->uip = (int32_t)(uint32_t)isa_get(q, 95, 64);
		} else {
			int f1 = decode_file((unsigned)isa_get(q, 90, 89));
			int t1 = eu_type_from_hw((unsigned)isa_get(q, 94, 91), f1 == EU_FILE_IMM);
			if (f1 < 0 || t1 < 0)
				return -1;
			in->src[1].file = (uint8_t)f1;
			in->src[1].type = (uint8_t)t1;
		}
		return 0;
	}

	/* Gen9 send: the extended descriptor replaces src0's region and
	 * src1's type; read the sources without those bits. */
	uint64_t w[2] = { q[0], q[1] };
	if (op->kind == EU_KIND_SEND && gen >= 9) {
		isa_set(w, 94, 91, 0);
		isa_set(w, 88, 85, 0);
		isa_set(w, 83, 80, 0);
		isa_set(w, 67, 64, 0);
	}
	if (decode_src(w, a16, 0, &in->src[0]))
		return -1;
	if (op->kind == EU_KIND_SEND && gen >= 9 && in->src[0].addr_mode == EU_ADDR_DIRECT) {
		/* Gen9 send: no region bits left; the payload is whole
		 * registers, the <8;8,1> region iga64 and Mesa write */
		in->src[0].vstride = 8;
		in->src[0].width = 8;
		in->src[0].hstride = 1;
	}
	if (in->src[0].file == EU_FILE_IMM) {
		/* The immediate occupies src1's region bits; a 32-bit one
		 * leaves src1's file and type fields (Mesa copies the
		 * immediate's type code there). */
		if (eu_type_size(in->src[0].type) < 8) {
			int t1 = eu_type_from_hw((unsigned)isa_get(q, 94, 91), true);
			in->src[1].file = (uint8_t)isa_get(q, 90, 89);
			in->src[1].type = (uint8_t)(t1 < 0 ? EU_TYPE_UD : t1);
		}
	} else if (decode_src(w, a16, 1, &in->src[1])) {
		return -1;
	}
	if (op->kind == EU_KIND_MATH) {
		in->math_fn = in->cond;
		in->cond = 0;
		if (in->math_fn == 0 || in->math_fn == 8 || in->math_fn > 15)
			return -1;
	}
	if (op->kind == EU_KIND_JMPI && in->src[1].file == EU_FILE_IMM)
		in->jip = (int32_t)(uint32_t)in->src[1].imm;
	if (op->kind == EU_KIND_SEND)
		return decode_send(gen, q, in);
	return 0;
}

int eu_decode(int gen, const void *bytes, size_t avail, struct eu_inst *out,
	      size_t *consumed)
{
	const uint8_t *b = bytes;
	uint64_t q[2] = { 0, 0 };
	if (avail < 8 || !bytes)
		return -1;
	memcpy(&q[0], b, 8);
	if (isa_get(q, 29, 29)) {
		if (eu_uncompact(gen, q[0], q) || eu_decode_native(gen, q, out))
			return -1;
		out->compacted = true;
		if (consumed)
			*consumed = 8;
		return 0;
	}
	if (avail < 16)
		return -1;
	memcpy(&q[1], b + 8, 8);
	if (eu_decode_native(gen, q, out))
		return -1;
	if (consumed)
		*consumed = 16;
	return 0;
}
