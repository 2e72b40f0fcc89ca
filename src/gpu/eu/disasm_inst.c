/* One instruction as text, in the layout of Mesa's brw_disasm.c (the
 * INTEL_DEBUG syntax of the seeds and of Mesa's assembler tests). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gpu/eu/disasm.h"
#include "gpu/eu/isa_fields.h"
#include "gpu/eu/isa_names.h"

static const char *const cond_names[16] = {
	"", ".z", ".nz", ".g", ".ge", ".l", ".le", ".r", ".o", ".u",
};
static const char *const pred_a16[16] = {
	"", "", ".x", ".y", ".z", ".w", ".any4h", ".all4h",
};
static const char *const pred_a1[16] = {
	"", "", ".anyv", ".allv", ".any2h", ".all2h", ".any4h", ".all4h",
	".any8h", ".all8h", ".any16h", ".all16h", ".any32h", ".all32h",
};
static const char *const writemask_names[16] = {
	".", ".x", ".y", ".xy", ".z", ".xz", ".yz", ".xyz", ".w", ".xw",
	".yw", ".xyw", ".zw", ".xzw", ".yzw", "",
};
static const char *const thread_names[4] = { "", "atomic", "switch", NULL };
static const char *const dep_names[4] = { "", "NoDDClr", "NoDDChk",
					   "NoDDClr,NoDDChk" };
static const char chan[4] = { 'x', 'y', 'z', 'w' };

/* Mesa's control(): an optional leading space, then the name. */
static void control(struct eu_text *t, const char *name, const char *const *tbl,
		    unsigned n, unsigned id, int *space)
{
	if (id >= n || !tbl[id]) {
		eu_text_printf(t, "*** invalid %s value %u ", name, id);
		return;
	}
	if (tbl[id][0]) {
		if (space && *space)
			eu_text_puts(t, " ");
		eu_text_puts(t, tbl[id]);
		if (space)
			*space = 1;
	}
}

/* Register name; returns -1 for ip/tdr0 (nothing follows them). */
static int reg_name(struct eu_text *t, unsigned file, unsigned nr)
{
	if (file == EU_FILE_GRF) {
		eu_text_printf(t, "g%u", nr);
		return 0;
	}
	if (file != EU_FILE_ARF) {
		eu_text_printf(t, "%s%u", file == 2 ? "m" : "imm", nr);
		return 0;
	}
	unsigned n = nr & 0xf;
	switch (nr & 0xf0) {
	case 0x00: eu_text_puts(t, "null"); break;
	case 0x10: eu_text_printf(t, "a%u", n); break;
	case 0x20: eu_text_printf(t, "acc%u", n); break;
	case 0x30: eu_text_printf(t, "f%u", n); break;
	case 0x40: eu_text_printf(t, "mask%u", n); break;
	case 0x50: eu_text_printf(t, "ms%u", n); break;
	case 0x60: eu_text_printf(t, "msd%u", n); break;
	case 0x70: eu_text_printf(t, "sr%u", n); break;
	case 0x80: eu_text_printf(t, "cr%u", n); break;
	case 0x90: eu_text_printf(t, "n%u", n); break;
	case 0xa0: eu_text_puts(t, "ip"); return -1;
	case 0xb0: eu_text_puts(t, "tdr0"); return -1;
	case 0xc0: eu_text_printf(t, "tm%u", n); break;
	default: eu_text_printf(t, "ARF%u", nr); break;
	}
	return 0;
}

static const char *vstride_name(unsigned v)
{
	static char buf[8];
	if (v == EU_VSTRIDE_VXH)
		return "VxH";
	snprintf(buf, sizeof(buf), "%u", v);
	return buf;
}

static void region(struct eu_text *t, const struct eu_operand *s)
{
	eu_text_printf(t, "<%s,", vstride_name(s->vstride));
	eu_text_printf(t, "%u,%u>", s->width ? s->width : 1, s->hstride);
}

static bool is_logic(unsigned op)
{
	const struct eu_opcode_info *info = eu_opcode_any(op);
	return info && (info->flags & EU_OPF_LOGIC);
}

static bool is_send(unsigned op)
{
	const struct eu_opcode_info *info = eu_opcode_any(op);
	return info && (info->kind == EU_KIND_SEND || info->kind == EU_KIND_SENDS);
}

static void dest(struct eu_text *t, const struct eu_inst *in)
{
	const struct eu_operand *d = &in->dst;
	unsigned esz = eu_type_size(d->type);
	if (in->access_mode == EU_ALIGN1) {
		if (d->addr_mode == EU_ADDR_DIRECT) {
			if (reg_name(t, d->file, d->nr) < 0)
				return;
			if (d->subnr)
				eu_text_printf(t, ".%u", d->subnr / esz);
		} else {
			eu_text_puts(t, "g[a0");
			if (d->indirect_subnr)
				eu_text_printf(t, ".%u", d->indirect_subnr / esz);
			if (d->indirect_offset)
				eu_text_printf(t, " %d", d->indirect_offset);
			eu_text_puts(t, "]");
		}
		eu_text_printf(t, "<%u>%s", d->hstride, eu_type_letters(d->type));
		return;
	}
	if (d->addr_mode != EU_ADDR_DIRECT) {
		eu_text_puts(t, "Indirect align16 address mode not supported");
		return;
	}
	if (reg_name(t, d->file, d->nr) < 0)
		return;
	if (d->subnr)
		eu_text_printf(t, ".%u", 16 / esz);
	eu_text_puts(t, "<1>");
	eu_text_puts(t, writemask_names[d->writemask & 15]);
	eu_text_puts(t, eu_type_letters(d->type));
}

static void swizzle(struct eu_text *t, const uint8_t s[4])
{
	if (s[0] == s[1] && s[0] == s[2] && s[0] == s[3])
		eu_text_printf(t, ".%c", chan[s[0] & 3]);
	else if (!(s[0] == 0 && s[1] == 1 && s[2] == 2 && s[3] == 3))
		eu_text_printf(t, ".%c%c%c%c", chan[s[0] & 3], chan[s[1] & 3],
			       chan[s[2] & 3], chan[s[3] & 3]);
}

static void imm(struct eu_text *t, const struct eu_operand *s)
{
	uint32_t ud = (uint32_t)s->imm;
	union { uint32_t u; float f; } fu = { .u = ud };
	union { uint64_t u; double d; } du = { .u = s->imm };
	switch (s->type) {
	case EU_TYPE_UQ: eu_text_printf(t, "0x%016" PRIx64 "UQ", s->imm); break;
	case EU_TYPE_Q: eu_text_printf(t, "0x%016" PRIx64 "Q", s->imm); break;
	case EU_TYPE_UD: eu_text_printf(t, "0x%08xUD", ud); break;
	case EU_TYPE_D: eu_text_printf(t, "%dD", (int32_t)ud); break;
	case EU_TYPE_UW: eu_text_printf(t, "0x%04xUW", (uint16_t)ud); break;
	case EU_TYPE_W: eu_text_printf(t, "%dW", (int16_t)ud); break;
	case EU_TYPE_UV: eu_text_printf(t, "0x%08xUV", ud); break;
	case EU_TYPE_V: eu_text_printf(t, "0x%08xV", ud); break;
	case EU_TYPE_VF:
		eu_text_printf(t, "0x%xVF", ud);
		eu_text_pad(t, 48);
		eu_text_printf(t, "/* [%-gF, %-gF, %-gF, %-gF]VF */",
			       (double)eu_vf_to_float((uint8_t)ud),
			       (double)eu_vf_to_float((uint8_t)(ud >> 8)),
			       (double)eu_vf_to_float((uint8_t)(ud >> 16)),
			       (double)eu_vf_to_float((uint8_t)(ud >> 24)));
		break;
	case EU_TYPE_F:
		eu_text_printf(t, "0x%xF", ud);
		eu_text_pad(t, 48);
		eu_text_printf(t, " /* %-gF */", (double)fu.f);
		break;
	case EU_TYPE_DF:
		eu_text_printf(t, "0x%016" PRIx64 "DF", s->imm);
		eu_text_pad(t, 48);
		eu_text_printf(t, "/* %-gDF */", du.d);
		break;
	case EU_TYPE_HF:
		/* current Mesa's spelling (older Mesa printed "Half Float
		 * IMM", which no assembler can read back) */
		eu_text_printf(t, "0x%04xHF", (unsigned)(s->imm & 0xffff));
		break;
	default: eu_text_printf(t, "*** invalid immediate type %u ", s->type); break;
	}
}

static void src(struct eu_text *t, const struct eu_inst *in, int i)
{
	const struct eu_operand *s = &in->src[i];
	if (s->file == EU_FILE_IMM) {
		imm(t, s);
		return;
	}
	if (s->negate)
		eu_text_puts(t, is_logic(in->opcode) ? "~" : "-");
	if (s->abs)
		eu_text_puts(t, "(abs)");
	unsigned esz = eu_type_size(s->type);
	if (in->access_mode == EU_ALIGN1) {
		if (s->addr_mode == EU_ADDR_DIRECT) {
			if (reg_name(t, s->file, s->nr) < 0)
				return;
			if (s->subnr)
				eu_text_printf(t, ".%u", s->subnr / esz);
		} else {
			eu_text_puts(t, "g[a0");
			if (s->indirect_subnr)
				eu_text_printf(t, ".%u", s->indirect_subnr);
			if (s->indirect_offset)
				eu_text_printf(t, " %d", s->indirect_offset);
			eu_text_puts(t, "]");
		}
		region(t, s);
		eu_text_puts(t, eu_type_letters(s->type));
		return;
	}
	if (s->addr_mode != EU_ADDR_DIRECT) {
		eu_text_puts(t, "Indirect align16 address mode not supported");
		return;
	}
	if (reg_name(t, s->file, s->nr) < 0)
		return;
	if (s->subnr)
		eu_text_printf(t, ".%u", 16 / esz);
	eu_text_printf(t, "<%s>", vstride_name(s->vstride));
	swizzle(t, s->swizzle);
	eu_text_puts(t, eu_type_letters(s->type));
}

static void src_3src(struct eu_text *t, const struct eu_operand *s)
{
	bool scalar = s->vstride == 0 && s->hstride == 0;
	if (s->negate)
		eu_text_puts(t, "-");
	if (s->abs)
		eu_text_puts(t, "(abs)");
	eu_text_printf(t, "g%u", s->nr);
	unsigned sub = s->subnr / eu_type_size(s->type);
	if (sub || scalar)
		eu_text_printf(t, ".%u", sub);
	region(t, s);
	if (!scalar)
		swizzle(t, s->swizzle);
	eu_text_puts(t, eu_type_letters(s->type));
}

static void dest_3src(struct eu_text *t, const struct eu_operand *d)
{
	eu_text_printf(t, "g%u", d->nr);
	unsigned sub = d->subnr / eu_type_size(d->type);
	if (sub)
		eu_text_printf(t, ".%u", sub);
	eu_text_puts(t, "<1>");
	eu_text_puts(t, writemask_names[d->writemask & 15]);
	eu_text_puts(t, eu_type_letters(d->type));
}

static void label(struct eu_text *t, long offset, int32_t jump,
		  eu_label_fn label_of, void *ctx)
{
	if (!label_of) {
		eu_text_printf(t, "%d", jump);
		return;
	}
	int n = label_of(ctx, offset + jump);
	if (n >= 0)
		eu_text_printf(t, " LABEL%d", n);
}

static void qtr_ctrl(struct eu_text *t, const struct eu_inst *in)
{
	unsigned qtr = in->group / 8, nib = (in->group / 4) & 1;
	if (in->exec_size < 8 || nib)
		eu_text_printf(t, " %uN", qtr * 2 + nib + 1);
	else if (in->exec_size == 8)
		eu_text_printf(t, " %uQ", qtr + 1);
	else if (in->exec_size == 16)
		eu_text_puts(t, qtr < 2 ? " 1H" : " 2H");
}

static void operands(struct eu_text *t, const struct eu_inst *in,
		     const struct eu_opcode_info *op, long offset,
		     eu_label_fn label_of, void *ctx)
{
	switch (op->kind) {
	case EU_KIND_BRANCH:
		if (!eu_opcode_shows_targets(in->opcode))
			return;   /* goto/join/brd/brc: Mesa prints no operands */
		eu_text_pad(t, 16);
		eu_text_puts(t, "JIP: ");
		label(t, offset, in->jip, label_of, ctx);
		if (op->has_uip) {
			eu_text_pad(t, 38);
			eu_text_puts(t, "UIP: ");
			label(t, offset, in->uip, label_of, ctx);
		}
		return;
	case EU_KIND_JMPI:
		if (in->opcode == EU_OP_JMPI) {
			eu_text_pad(t, 16);
			src(t, in, 1);
			return;
		}
		/* call/calla/ret: Mesa prints no operands (its opcode table
		 * gives them none); the assembler accepts them as an
		 * extension. */
		return;
	case EU_KIND_SENDS: {
		/* split send: bare registers, types fixed to UD */
		const struct eu_operand *o[3] = { &in->dst, &in->src[0], &in->src[1] };
		for (int i = 0; i < 3; i++) {
			eu_text_pad(t, 16 * (i + 1));
			if (reg_name(t, o[i]->file, o[i]->nr) < 0)
				continue;
			if (o[i]->subnr)
				eu_text_puts(t, ".1");
			eu_text_puts(t, "UD");
		}
		return;
	}
	case EU_KIND_ALU3:
		eu_text_pad(t, 16);
		dest_3src(t, &in->dst);
		eu_text_pad(t, 32);
		src_3src(t, &in->src[0]);
		eu_text_pad(t, 48);
		src_3src(t, &in->src[1]);
		eu_text_pad(t, 64);
		src_3src(t, &in->src[2]);
		return;
	default:
		if (op->ndst) {
			eu_text_pad(t, 16);
			dest(t, in);
		}
		if (op->nsrc > 0 && op->kind != EU_KIND_WAIT) {
			eu_text_pad(t, 32);
			src(t, in, 0);
		}
		if (op->nsrc > 1 && op->kind != EU_KIND_SEND) {
			eu_text_pad(t, 48);
			src(t, in, 1);
		}
	}
}

static void send_desc_line(struct eu_text *t, int gen, const struct eu_inst *in)
{
	if (in->desc_is_reg) {
		eu_text_pad(t, 48);
		src(t, in, 1);
		eu_text_pad(t, 64);
	} else {
		eu_text_pad(t, 48);
	}
	uint64_t q[2];
	if (eu_encode_native(gen, in, q))
		q[1] = 0;
	eu_text_printf(t, "0x%08" PRIx64, q[1] >> 32);
	eu_text_newline(t);
	eu_text_pad(t, 16);
	eu_text_puts(t, "            ");
	eu_disasm_send_desc(t, gen, in);
}

static void sends_desc_line(struct eu_text *t, int gen, const struct eu_inst *in)
{
	eu_text_pad(t, 64);
	if (in->desc_is_reg)
		eu_text_puts(t, "a0<0>UD");
	else
		eu_text_printf(t, "0x%08x", in->desc);
	eu_text_pad(t, 80);
	if (in->ex_desc_is_reg) {
		eu_text_puts(t, "a0");
		if (in->ex_desc_subnr)
			eu_text_printf(t, ".%u", in->ex_desc_subnr);
		eu_text_puts(t, "<0>UD");
	} else {
		eu_text_printf(t, "0x%08x", in->ex_desc);
	}
	eu_text_newline(t);
	eu_text_pad(t, 16);
	eu_text_puts(t, "            ");
	eu_disasm_send_desc(t, gen, in);
}

void eu_disasm_inst(struct eu_text *t, int gen, const struct eu_inst *in,
		    long offset, eu_label_fn label_of, void *ctx)
{
	const struct eu_opcode_info *op = eu_opcode_lookup(gen, in->opcode);
	if (!op) {
		eu_text_printf(t, "*** invalid opcode value %u ;\n", in->opcode);
		return;
	}
	bool a1 = in->access_mode == EU_ALIGN1;
	if (in->pred) {
		eu_text_printf(t, "(%sf%u.%u", in->pred_inv ? "-" : "+",
			       in->flag_nr, in->flag_subnr);
		control(t, "predicate control", a1 ? pred_a1 : pred_a16, 16,
			in->pred, NULL);
		eu_text_puts(t, ") ");
	}
	eu_text_puts(t, op->name);
	if (!is_send(in->opcode) && in->saturate)
		eu_text_puts(t, ".sat");
	if (in->debug)
		eu_text_puts(t, ".breakpoint");
	if (op->kind == EU_KIND_MATH) {
		eu_text_puts(t, " ");
		control(t, "function", eu_math_fn_names, 16, in->math_fn, NULL);
	} else if (!is_send(in->opcode)) {
		control(t, "conditional modifier", cond_names, 16, in->cond, NULL);
		/* sel/csel and flow control use the condition without
		 * updating a flag register. */
		if (in->cond && !(op->flags & EU_OPF_COND_SELECTS) &&
		    in->opcode != EU_OP_IF && in->opcode != EU_OP_WHILE)
			eu_text_printf(t, ".f%u.%u", in->flag_nr, in->flag_subnr);
	}
	if (in->opcode != EU_OP_NOP)
		eu_text_printf(t, "(%u)", in->exec_size);

	operands(t, in, op, offset, label_of, ctx);
	if (op->kind == EU_KIND_SEND)
		send_desc_line(t, gen, in);
	else if (op->kind == EU_KIND_SENDS)
		sends_desc_line(t, gen, in);

	eu_text_pad(t, 64);
	if (in->opcode != EU_OP_NOP) {
		int space = 1;
		eu_text_puts(t, "{");
		control(t, "access mode", (const char *const[]){ "align1", "align16" },
			2, in->access_mode, &space);
		control(t, "write enable control", (const char *const[]){ "", "WE_all" },
			2, in->no_mask, &space);
		control(t, "dependency control", dep_names, 4, in->dep_ctrl & 3, &space);
		qtr_ctrl(t, in);
		control(t, "compaction", (const char *const[]){ "", "compacted" }, 2,
			in->compacted, &space);
		control(t, "thread control", thread_names, 4, in->thread_ctrl, &space);
		/* Mesa's has_branch_ctrl(): if and else only; on goto the
		 * same bit prints as AccWrEnable */
		if (in->opcode == EU_OP_IF || in->opcode == EU_OP_ELSE)
			control(t, "branch ctrl", (const char *const[]){ "", "BranchCtrl" },
				2, in->branch_ctrl, &space);
		else
			control(t, "acc write control",
				(const char *const[]){ "", "AccWrEnable" }, 2,
				in->acc_wr || (in->opcode == EU_OP_GOTO && in->branch_ctrl),
				&space);
		if (is_send(in->opcode))
			control(t, "end of thread", (const char *const[]){ "", "EOT" },
				2, in->eot, &space);
		if (space)
			eu_text_puts(t, " ");
		eu_text_puts(t, "}");
	}
	eu_text_puts(t, ";");
	eu_text_newline(t);
}
