/* Native (128-bit) instruction encoding for Gen8/Gen9, and eu_encode which
 * also tries the 64-bit compacted form. */
#include <string.h>

#include "gpu/eu/isa.h"
#include "gpu/eu/isa_bits.h"
#include "gpu/eu/isa_fields.h"

static int enc_vstride(unsigned v)
{
	switch (v) {
	case 0: return 0; case 1: return 1; case 2: return 2; case 4: return 3;
	case 8: return 4; case 16: return 5; case 32: return 6;
	case EU_VSTRIDE_VXH: return 15;
	default: return -1;
	}
}

static int enc_width(unsigned w)
{
	switch (w) {
	case 0: case 1: return 0; case 2: return 1; case 4: return 2;
	case 8: return 3; case 16: return 4;
	default: return -1;
	}
}

static int enc_hstride(unsigned h)
{
	switch (h) {
	case 0: return 0; case 1: return 1; case 2: return 2; case 4: return 3;
	default: return -1;
	}
}

static int enc_log2(unsigned n)
{
	for (int i = 0; i < 6; i++)
		if (n == (1u << i))
			return i;
	return -1;
}

static int encode_dst(uint64_t q[2], bool align16, const struct eu_operand *d)
{
	int type = eu_type_to_hw(d->type, false);
	int hs = enc_hstride(d->hstride);
	if (type < 0 || hs < 0 || d->file == EU_FILE_IMM || d->file > 3)
		return -1;
	isa_set(q, 36, 35, d->file);
	isa_set(q, 40, 37, (unsigned)type);
	isa_set(q, 63, 63, d->addr_mode);
	isa_set(q, 62, 61, (unsigned)hs);
	if (d->addr_mode == EU_ADDR_DIRECT) {
		isa_set(q, 60, 53, d->nr);
		if (align16)
			isa_set(q, 52, 52, d->subnr >= 16);
		else
			isa_set(q, 52, 48, d->subnr);
	} else {
		uint32_t imm = (uint32_t)d->indirect_offset & 0x3ff;
		isa_set(q, 60, 57, d->indirect_subnr);
		if (align16)
			isa_set(q, 56, 52, imm >> 4);
		else
			isa_set(q, 56, 48, imm);
		isa_set(q, 47, 47, imm >> 9);
	}
	if (align16)
		isa_set(q, 51, 48, d->writemask);
	return 0;
}

static int encode_src(uint64_t q[2], bool align16, int which,
		      const struct eu_operand *s)
{
	const struct isa_src_fields *f = &isa_src_f[which];
	unsigned b = f->base;
	bool imm = s->file == EU_FILE_IMM;
	int type = eu_type_to_hw(s->type, imm);
	if (type < 0 || s->file == 2 || s->file > 3)
		return -1;
	isa_set(q, f->file_lo + 1, f->file_lo, s->file);
	isa_set(q, f->type_lo + 3, f->type_lo, (unsigned)type);
	if (imm) {
		if (eu_type_size(s->type) == 8) {
			if (which != 0)
				return -1;
			q[1] = s->imm;
		} else {
			isa_set(q, 127, 96, s->imm & 0xffffffffu);
		}
		return 0;
	}
	int vs = enc_vstride(s->vstride);
	if (vs < 0)
		return -1;
	isa_set(q, b + SRC_NEG, b + SRC_NEG, s->negate);
	isa_set(q, b + SRC_ABS, b + SRC_ABS, s->abs);
	isa_set(q, b + SRC_ADDR_MODE, b + SRC_ADDR_MODE, s->addr_mode);
	isa_set(q, b + SRC_VSTRIDE_LO + 3, b + SRC_VSTRIDE_LO, (unsigned)vs);
	if (s->addr_mode == EU_ADDR_DIRECT) {
		isa_set(q, b + SRC_REG_LO + 7, b + SRC_REG_LO, s->nr);
		if (!align16)
			isa_set(q, b + SRC_SUBREG_HI, b, s->subnr);
	} else {
		uint32_t im = (uint32_t)s->indirect_offset & 0x3ff;
		isa_set(q, b + 12, b + SRC_IA_SUBREG_LO, s->indirect_subnr);
		if (align16)
			isa_set(q, b + 8, b + 4, im >> 4);
		else
			isa_set(q, b + SRC_IA_IMM_HI, b, im);
		isa_set(q, f->imm9, f->imm9, im >> 9);
	}
	if (align16) {
		if (s->addr_mode == EU_ADDR_DIRECT)
			isa_set(q, b + 4, b + 4, s->subnr >= 16);
		isa_set(q, b + 1, b, s->swizzle[0]);
		isa_set(q, b + 3, b + 2, s->swizzle[1]);
		isa_set(q, b + 17, b + 16, s->swizzle[2]);
		isa_set(q, b + 19, b + 18, s->swizzle[3]);
	} else {
		int w = enc_width(s->width), h = enc_hstride(s->hstride);
		if (w < 0 || h < 0)
			return -1;
		isa_set(q, b + SRC_WIDTH_LO + 2, b + SRC_WIDTH_LO, (unsigned)w);
		isa_set(q, b + SRC_HSTRIDE_LO + 1, b + SRC_HSTRIDE_LO, (unsigned)h);
	}
	return 0;
}

static int type3(unsigned t)
{
	switch (t) {
	case EU_TYPE_F: return 0; case EU_TYPE_D: return 1;
	case EU_TYPE_UD: return 2; case EU_TYPE_DF: return 3;
	case EU_TYPE_HF: return 4; default: return -1;
	}
}

static int encode_3src(uint64_t q[2], const struct eu_inst *in)
{
	int dt = type3(in->dst.type), st = type3(in->src[0].type);
	if (in->access_mode != EU_ALIGN16 || dt < 0 || st < 0)
		return -1;
	isa_set(q, 48, 46, (unsigned)dt);
	isa_set(q, 45, 43, (unsigned)st);
	isa_set(q, 63, 56, in->dst.nr);
	isa_set(q, 55, 53, in->dst.subnr / 4);
	isa_set(q, 52, 49, in->dst.writemask);
	static const unsigned base[3] = { 64, 85, 106 };
	for (int i = 0; i < 3; i++) {
		const struct eu_operand *s = &in->src[i];
		unsigned b = base[i];
		bool rep = s->vstride == 0 && s->hstride == 0;
		unsigned swz = 0;
		for (int c = 0; c < 4; c++)
			swz |= (unsigned)(s->swizzle[c] & 3) << (2 * c);
		isa_set(q, 38 + 2 * i, 38 + 2 * i, s->negate);
		isa_set(q, 37 + 2 * i, 37 + 2 * i, s->abs);
		isa_set(q, b, b, rep);
		isa_set(q, b + 8, b + 1, swz);
		isa_set(q, b + 11, b + 9, s->subnr / 4);
		isa_set(q, b + 19, b + 12, s->nr);
	}
	isa_set(q, 36, 36, in->src[1].type == EU_TYPE_HF && st != 4);
	isa_set(q, 35, 35, in->src[2].type == EU_TYPE_HF && st != 4);
	return 0;
}

static int encode_sends(uint64_t q[2], const struct eu_inst *in)
{
	const struct eu_operand *d = &in->dst, *s0 = &in->src[0], *s1 = &in->src[1];
	int dt = eu_type_to_hw(d->type, false);
	if (dt < 0 || d->addr_mode || s0->addr_mode || s0->file != EU_FILE_GRF ||
	    d->file > 1 || s1->file > 1 || (in->ex_desc & 0xfc3f))
		return -1;
	isa_set(q, 35, 35, d->file);
	isa_set(q, 40, 37, (unsigned)dt);
	isa_set(q, 60, 53, d->nr);
	isa_set(q, 52, 52, d->subnr >= 16);
	isa_set(q, 76, 69, s0->nr);
	isa_set(q, 68, 68, s0->subnr >= 16);
	isa_set(q, 36, 36, s1->file);
	isa_set(q, 51, 44, s1->nr);
	isa_set(q, 77, 77, in->desc_is_reg);
	if (!in->desc_is_reg)
		isa_set(q, 126, 96, in->desc);
	isa_set(q, 61, 61, in->ex_desc_is_reg);
	if (in->ex_desc_is_reg) {
		isa_set(q, 82, 80, in->ex_desc_subnr);
	} else {
		isa_set(q, 95, 80, in->ex_desc >> 16);
		isa_set(q, 67, 64, in->ex_desc >> 6);
	}
	isa_set(q, 127, 127, in->eot);
	return 0;
}

int eu_encode_native(int gen, const struct eu_inst *in, uint64_t q[2])
{
	q[0] = q[1] = 0;
	const struct eu_opcode_info *op = eu_opcode_lookup(gen, in->opcode);
	int es = enc_log2(in->exec_size);
	if (!op || es < 0 || in->group % 4 || in->group > 28 || in->thread_ctrl > 2)
		return -1;
	isa_set(q, 6, 0, in->opcode);
	isa_set(q, 8, 8, in->access_mode);
	isa_set(q, 9, 9, in->dep_ctrl & 1);
	isa_set(q, 10, 10, in->dep_ctrl >> 1);
	isa_set(q, 11, 11, (in->group / 4) & 1);
	isa_set(q, 13, 12, in->group / 8);
	isa_set(q, 15, 14, in->thread_ctrl);
	isa_set(q, 19, 16, in->pred);
	isa_set(q, 20, 20, in->pred_inv);
	isa_set(q, 23, 21, (unsigned)es);
	isa_set(q, 27, 24, op->kind == EU_KIND_MATH ? in->math_fn :
			   (op->kind == EU_KIND_SEND || op->kind == EU_KIND_SENDS) ? in->sfid : in->cond);
	isa_set(q, 28, 28, in->acc_wr || in->branch_ctrl);
	isa_set(q, 30, 30, in->debug);
	isa_set(q, 31, 31, in->saturate);
	isa_set(q, 32, 32, in->flag_subnr);
	isa_set(q, 33, 33, in->flag_nr);
	isa_set(q, 34, 34, in->no_mask);
	if (op->kind == EU_KIND_ALU3)
		return encode_3src(q, in);
	if (op->kind == EU_KIND_SENDS)
		return encode_sends(q, in);
	bool a16 = in->access_mode == EU_ALIGN16;
	if (encode_dst(q, a16, &in->dst))
		return -1;
	if (op->kind == EU_KIND_BRANCH) {
		int t0 = eu_type_to_hw(in->src[0].type, in->src[0].file == EU_FILE_IMM);
		if (t0 < 0)
			return -1;
		isa_set(q, 42, 41, in->src[0].file);
		isa_set(q, 46, 43, (unsigned)t0);
		if (op->has_uip) {
			isa_set(q, 95, 64, (uint32_t)in->uip);
		} else {
			int t1 = eu_type_to_hw(in->src[1].type, in->src[1].file == EU_FILE_IMM);
			if (t1 < 0)
				return -1;
			isa_set(q, 90, 89, in->src[1].file);
			isa_set(q, 94, 91, (unsigned)t1);
		}
		isa_set(q, 127, 96, (uint32_t)in->jip);
		return 0;
	}
	if (encode_src(q, a16, 0, &in->src[0]))
		return -1;
	if (in->src[0].file != EU_FILE_IMM) {
		if (encode_src(q, a16, 1, &in->src[1]))
			return -1;
	} else if (eu_type_size(in->src[0].type) < 8) {
		int t1 = eu_type_to_hw(in->src[1].type, true);
		isa_set(q, 90, 89, in->src[1].file == EU_FILE_IMM ? 0 : in->src[1].file);
		isa_set(q, 94, 91, t1 < 0 ? 0u : (unsigned)t1);
	}
	if (op->kind == EU_KIND_SEND) {
		if (!in->desc_is_reg) {
			isa_set(q, 127, 96, in->desc & 0x7fffffffu);
			isa_set(q, 90, 89, EU_FILE_IMM);
		}
		isa_set(q, 127, 127, in->eot);
		if (gen >= 9) {
			/* the extended descriptor takes src0's region and
			 * subregister fields: clear them first (iga64 leaves
			 * them 0; the payload is read as whole registers) */
			isa_set(q, 88, 80, 0);
			isa_set(q, 94, 91, in->ex_desc >> 28);
			isa_set(q, 88, 85, in->ex_desc >> 24);
			isa_set(q, 83, 80, in->ex_desc >> 20);
			isa_set(q, 67, 64, in->ex_desc >> 16);
		}
	}
	return 0;
}

int eu_encode(int gen, const struct eu_inst *inst, uint8_t out[16], bool try_compact)
{
	uint64_t q[2];
	if (eu_encode_native(gen, inst, q))
		return -1;
	uint64_t c;
	if (try_compact && eu_compact(gen, q, &c)) {
		memcpy(out, &c, 8);
		return 8;
	}
	memcpy(out, q, 16);
	return 16;
}
