/* Translate one decoded instruction into an exec_op: operand regions
 * become per-channel byte offsets into eu_thread.regs (bounds checked
 * here, once), branch offsets become instruction indices, and the handler
 * is chosen. Illegal forms become ops that fault when executed (PRM vol. 7
 * "Illegal Instruction Exception"), since the hardware only raises the
 * exception when it meets the instruction. */
#include <string.h>

#include "gpu/eu/exec_internal.h"
#include "gpu/eu/opcodes.h"

long exec_index_of(const struct exec_prog *p, int64_t off)
{
	size_t lo = 0, hi = p->count;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (p->offsets[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->count && p->offsets[lo] == off)
		return (long)lo;
	return -1;
}

/* Number of source operands an ALU opcode reads: the table's, except for
 * math, whose one-source functions leave src1 unused, and movi, which
 * gtsim runs as a mov of src0. */
static unsigned alu_nsrc(const struct eu_inst *in, const struct eu_opcode_info *info)
{
	if (in->opcode == EU_OP_MOVI)
		return 1;
	if (in->opcode != EU_OP_MATH)
		return info->nsrc;
	switch (in->math_fn) {
	case EU_MATH_FDIV: case EU_MATH_POW: case EU_MATH_INT_DIV_BOTH:
	case EU_MATH_INT_DIV_QUOTIENT: case EU_MATH_INT_DIV_REMAINDER:
	case EU_MATH_INVM:
		return 2;
	default:
		return 1;
	}
}

bool exec_type_is_float(unsigned type)
{
	return type == EU_TYPE_F || type == EU_TYPE_DF || type == EU_TYPE_HF ||
	       type == EU_TYPE_VF;
}

bool exec_type_is_signed(unsigned type)
{
	return type == EU_TYPE_D || type == EU_TYPE_W || type == EU_TYPE_B ||
	       type == EU_TYPE_Q || type == EU_TYPE_V;
}

unsigned exec_type_bytes(unsigned type)
{
	switch (type) {
	case EU_TYPE_UB: case EU_TYPE_B: return 1;
	case EU_TYPE_UW: case EU_TYPE_W: case EU_TYPE_HF: return 2;
	case EU_TYPE_DF: case EU_TYPE_UQ: case EU_TYPE_Q: return 8;
	default: return 4;
	}
}

/* Byte limit of the register block an access starting at register nr
 * must stay in: the GRF file, or the rest of its ARF class (acc0..acc9,
 * f0..f1, ...). */
static unsigned block_limit(unsigned file, unsigned nr)
{
	if (file == EU_FILE_GRF)
		return EU_GRF_BYTES;
	unsigned left = 0;
	int slot = eu_arf_slot(nr, &left);
	return slot < 0 ? 0 : EU_ARF_BASE + ((unsigned)slot + left) * EU_REG_SIZE;
}

static bool arf_exists(unsigned nr)
{
	return eu_arf_slot(nr, NULL) >= 0;
}

static unsigned reg_base(unsigned file, unsigned nr)
{
	int slot = eu_arf_slot(nr, NULL);
	return file == EU_FILE_GRF ? nr * EU_REG_SIZE
				   : EU_ARF_BASE + (unsigned)(slot < 0 ? 0 : slot) * EU_REG_SIZE;
}

static float vf_to_float(uint8_t vf)
{
	/* PRM "Restricted Float": sign, 3-bit exponent (bias 3), 4-bit
	 * mantissa; 0 and 0x80 are the zeros. */
	if ((vf & 0x7f) == 0)
		return vf & 0x80 ? -0.0f : 0.0f;
	unsigned e = (vf >> 4) & 7, m = vf & 15;
	uint32_t bits = (uint32_t)(vf & 0x80) << 24 | (e - 3 + 127) << 23 | m << 19;
	float f;
	memcpy(&f, &bits, 4);
	return f;
}

static void set_imm(struct exec_src *s, const struct eu_operand *o)
{
	s->kind = SRC_IMM;
	s->type = o->type;
	s->scalar = true;
	switch (o->type) {
	case EU_TYPE_V: case EU_TYPE_UV:
		/* eight 4-bit integers, channel i takes element i % 8 */
		s->type = o->type == EU_TYPE_V ? EU_TYPE_W : EU_TYPE_UW;
		s->scalar = false;
		for (unsigned i = 0; i < 8; i++) {
			unsigned n = (o->imm >> (4 * i)) & 15;
			int v = o->type == EU_TYPE_V && n >= 8 ? (int)n - 16 : (int)n;
			s->imm[i] = (uint16_t)v;
		}
		break;
	case EU_TYPE_VF:
		s->type = EU_TYPE_F;
		s->scalar = false;
		for (unsigned i = 0; i < 8; i++) {
			float f = vf_to_float((uint8_t)(o->imm >> (8 * (i % 4))));
			uint32_t b;
			memcpy(&b, &f, 4);
			s->imm[i] = b;
		}
		break;
	default:
		for (unsigned i = 0; i < 8; i++)
			s->imm[i] = o->imm;
		break;
	}
	s->size = (uint8_t)exec_type_bytes(s->type);
}

/* Returns NULL, or why the region is illegal. */
static const char *set_src(struct exec_op *op, struct exec_src *s,
			   const struct eu_operand *o, bool align16)
{
	memset(s, 0, sizeof(*s));
	s->neg = o->negate;
	s->abs = o->abs;
	if (o->file == EU_FILE_IMM) {
		set_imm(s, o);
		return NULL;
	}
	if (o->file != EU_FILE_GRF && o->file != EU_FILE_ARF)
		return "source register file is reserved";
	if (o->type >= EU_TYPE_V)
		return "vector immediate type on a register source";
	s->type = o->type;
	s->size = (uint8_t)exec_type_bytes(o->type);
	s->align16 = align16;
	memcpy(s->swz, o->swizzle, 4);
	unsigned n = op->exec_size;
	unsigned vs = o->vstride, w = o->width, hs = o->hstride;
	/* 3-source RepCtrl (decoded as <0;1,0>): one scalar for all
	 * channels, the swizzle does not apply */
	bool rep = align16 && vs == 0 && w == 1 && hs == 0;
	if (align16) {
		w = 4;
		hs = 1;
		if (vs == 0xff)
			return "VxH region in align16";
	} else if (vs != 0xff) {
		if (w == 0 || w > 16 || hs > 4 || vs > 32)
			return "source region out of range";
		if (w > n)
			return "source region width greater than the execution size";
	}
	if (o->addr_mode == EU_ADDR_INDIRECT) {
		if (o->file != EU_FILE_GRF)
			return "indirect addressing of an ARF";
		s->kind = SRC_INDIRECT;
		s->a0_sub = o->indirect_subnr;
		s->ind_off = o->indirect_offset;
		s->vxh = vs == 0xff;
		s->vstride = s->vxh ? 0 : (uint8_t)vs;
		s->width = (uint8_t)(w ? w : 1);
		s->hstride = (uint8_t)hs;
		if (s->a0_sub >= 16)
			return "address subregister past a0.15";
		return NULL;
	}
	if (vs == 0xff)
		return "VxH region with direct addressing";
	s->kind = SRC_DIRECT;
	if (o->file == EU_FILE_ARF && !arf_exists(o->nr))
		return "source is an architecture register that does not exist";
	if (o->file == EU_FILE_ARF) {
		unsigned cls = o->nr & 0xf0;
		if (cls == EU_ARF_CE0 || cls == EU_ARF_IP || cls == EU_ARF_TM0)
			s->reads_special = true;
		if (cls == EU_ARF_CE0)
			op->reads_ce0 = true;
		if (cls == EU_ARF_IP)
			op->reads_ip = true;
	}
	unsigned base = reg_base(o->file, o->nr) + o->subnr;
	unsigned limit = block_limit(o->file, o->nr);
	s->contiguous = s->scalar = true;
	for (unsigned i = 0; i < n; i++) {
		unsigned elem = rep ? 0 : align16
			? (i / 4) * vs + (o->swizzle[i % 4] & 3)
			: (i / w) * vs + (i % w) * hs;
		unsigned off = base + elem * s->size;
		if (off + s->size > limit)
			return "source region past the end of the register file";
		s->off[i] = (uint16_t)off;
		if (off != base + i * s->size)
			s->contiguous = false;
		if (off != base)
			s->scalar = false;
	}
	if (n == 1)
		s->contiguous = true;
	return NULL;
}

static const char *set_dst(struct exec_op *op, const struct eu_operand *o,
			   bool align16)
{
	struct exec_dst *d = &op->dst;
	memset(d, 0, sizeof(*d));
	if (o->file != EU_FILE_GRF && o->file != EU_FILE_ARF)
		return "destination register file is not GRF or ARF";
	if (o->type >= EU_TYPE_V)
		return "vector immediate type on the destination";
	d->type = o->type;
	d->size = (uint8_t)exec_type_bytes(o->type);
	unsigned n = op->exec_size;
	d->wmask = op->full;
	if (align16) {
		uint32_t wm = 0;
		for (unsigned i = 0; i < n; i++)
			if ((o->writemask >> (i % 4)) & 1)
				wm |= 1u << i;
		d->wmask = wm;
	}
	unsigned hs = align16 ? 1 : o->hstride;
	if (hs == 0 && n > 1)
		return "destination horizontal stride 0";
	if (hs == 0)
		hs = 1;
	d->hstride = (uint8_t)hs;
	if (o->addr_mode == EU_ADDR_INDIRECT) {
		if (o->file != EU_FILE_GRF)
			return "indirect addressing of an ARF";
		if (o->indirect_subnr >= 16)
			return "address subregister past a0.15";
		d->kind = DST_INDIRECT;
		d->a0_sub = o->indirect_subnr;
		d->ind_off = o->indirect_offset;
		return NULL;
	}
	if (o->file == EU_FILE_ARF && !arf_exists(o->nr))
		return "destination is an architecture register that does not exist";
	if (o->file == EU_FILE_ARF) {
		unsigned cls = o->nr & 0xf0;
		if (cls == EU_ARF_NULL) {
			d->kind = DST_NULL;
			return NULL;
		}
		d->is_acc = cls == EU_ARF_ACC0;
		d->is_cr0 = cls == EU_ARF_CR0;
		d->is_ip = cls == EU_ARF_IP;
	}
	d->kind = DST_DIRECT;
	unsigned base = reg_base(o->file, o->nr) + o->subnr;
	unsigned limit = block_limit(o->file, o->nr);
	if (o->subnr % d->size)
		return "destination subregister not aligned to its type";
	d->contiguous = hs == 1;
	for (unsigned i = 0; i < n; i++) {
		unsigned off = base + i * hs * d->size;
		if (off + d->size > limit)
			return "destination region past the end of the register file";
		d->off[i] = (uint16_t)off;
	}
	return NULL;
}

/* An explicit accumulator source takes the destination's region (IGC's
 * HWConformity cites the PRM: "If an accumulator is an explicit source
 * operand, its register region must match that of the destination
 * register"). The accumulator is per channel: Mesa 22.3's usub_sat
 * lowering (`mov acc0 b; add.sat dst -acc0<0,1,0>UD a`, fs_reg(ARF, acc)
 * leaves the region fields zero) gets each channel's own acc0 value on
 * hardware (piglit intel_shader_integer_functions2 subtractSaturate), so
 * the encoded region is not used. align1 direct sources only. */
static const char *acc_src_region(struct exec_op *op, struct exec_src *s,
				  const struct eu_operand *o)
{
	if (o->file != EU_FILE_ARF || (o->nr & 0xf0) != EU_ARF_ACC0 ||
	    s->kind != SRC_DIRECT || s->align16 || op->exec_size == 1)
		return NULL;
	unsigned base = reg_base(o->file, o->nr) + o->subnr;
	unsigned limit = block_limit(o->file, o->nr);
	unsigned hs = op->dst.hstride ? op->dst.hstride : 1;
	s->contiguous = hs == 1;
	s->scalar = false;
	for (unsigned i = 0; i < op->exec_size; i++) {
		unsigned off = base + i * hs * s->size;
		if (off + s->size > limit)
			return "source region past the end of the register file";
		s->off[i] = (uint16_t)off;
	}
	return NULL;
}

static enum exec_dom pick_dom(const struct exec_op *op,
			      const struct eu_opcode_info *info)
{
	bool f = false, df = false;
	for (unsigned s = 0; s < op->nsrc; s++) {
		unsigned ty = op->src[s].type;
		if (ty == EU_TYPE_DF)
			df = true;
		else if (ty == EU_TYPE_F || ty == EU_TYPE_HF)
			f = true;
	}
	if (info->flags & EU_OPF_INT)
		return DOM_INT;
	if (op->opcode == EU_OP_F32TO16)
		return DOM_F;
	if (op->opcode == EU_OP_MATH && op->inst.math_fn >= EU_MATH_INT_DIV_BOTH &&
	    op->inst.math_fn <= EU_MATH_INT_DIV_REMAINDER)
		return DOM_INT;
	return df ? DOM_DF : f ? DOM_F : DOM_INT;
}

static uint32_t target(const struct exec_prog *p, const struct exec_op *op,
		       int32_t rel)
{
	long idx = exec_index_of(p, (int64_t)op->offset + rel);
	return idx < 0 ? EXEC_NO_TARGET : (uint32_t)idx;
}

static void translate_alu(struct exec_op *op, const struct eu_opcode_info *info)
{
	const struct eu_inst *in = &op->inst;
	bool a16 = in->access_mode == EU_ALIGN16;
	op->nsrc = (uint8_t)alu_nsrc(in, info);
	if (in->num_srcs && in->num_srcs < op->nsrc) {
		op->illegal = "too few source operands";
		return;
	}
	for (unsigned s = 0; s < op->nsrc && !op->illegal; s++)
		op->illegal = set_src(op, &op->src[s], &in->src[s], a16);
	if (!op->illegal)
		op->illegal = set_dst(op, &in->dst, a16);
	for (unsigned s = 0; s < op->nsrc && !op->illegal; s++)
		op->illegal = acc_src_region(op, &op->src[s], &in->src[s]);
	if (op->illegal)
		return;
	if (in->opcode == EU_OP_MATH && (in->math_fn == 0 || in->math_fn == 8 ||
					 in->math_fn > EU_MATH_RSQRTM)) {
		op->illegal = "undefined math function";
		return;
	}
	if (in->opcode == EU_OP_MATH) {
		/* PRM vol. 7, "math": the INT DIV functions take and give
		 * integers, every other function floats; mixing is undefined. */
		bool int_fn = in->math_fn >= EU_MATH_INT_DIV_BOTH &&
			      in->math_fn <= EU_MATH_INT_DIV_REMAINDER;
		bool ok = exec_type_is_float(op->dst.type) != int_fn;
		for (unsigned s = 0; s < op->nsrc; s++)
			ok = ok && exec_type_is_float(op->src[s].type) != int_fn;
		if (!ok) {
			op->illegal = int_fn ? "math integer divide with a float operand"
					     : "math float function with an integer operand";
			return;
		}
	}
	if (in->opcode == EU_OP_PLN && op->src[1].kind != SRC_DIRECT) {
		op->illegal = "pln needs a register src1";
		return;
	}
	op->dom = (uint8_t)pick_dom(op, info);
	op->logic = (info->flags & EU_OPF_LOGIC) != 0;
	op->acc_implicit = (info->flags & EU_OPF_ACC_IMPLICIT) != 0;
	for (unsigned s = 0; s < op->nsrc; s++)
		if (op->src[s].type == EU_TYPE_UQ)
			op->uq_src = true;
	/* PRM: sel/csel use the conditional modifier to choose, not to
	 * write a flag; math keeps its function in that field. */
	op->writes_flag = in->cond != EU_COND_NONE &&
			  !(info->flags & EU_OPF_COND_SELECTS) &&
			  info->kind != EU_KIND_MATH;
	exec_fn fast = exec_fast_select(op);
	op->fn = fast ? fast : exec_alu_generic;
}

static void translate_flow(struct exec_prog *p, struct exec_op *op)
{
	const struct eu_inst *in = &op->inst;
	op->fn = exec_flow;
	op->target_jip = target(p, op, in->jip);
	op->target_uip = target(p, op, in->uip);
	if (in->opcode == EU_OP_CALL || in->opcode == EU_OP_RET ||
	    in->opcode == EU_OP_CALLA) {
		op->nsrc = 1;
		op->illegal = set_src(op, &op->src[0], &in->src[0], false);
		if (!op->illegal && in->opcode != EU_OP_RET)
			op->illegal = set_dst(op, &in->dst, false);
	}
	if (in->opcode == EU_OP_JMPI) {
		/* jmpi's offset is its src1 immediate when given, in bytes
		 * from the instruction after the jmpi (the incremented IP;
		 * iga64 resolves labels that way: test_exec_iga). */
		int32_t rel = in->jip;
		if (in->src[1].file == EU_FILE_IMM)
			rel = (int32_t)(uint32_t)in->src[1].imm;
		long idx = exec_index_of(p, (int64_t)op->offset +
					 (in->compacted ? 8 : 16) + rel);
		op->target_jip = idx < 0 ? EXEC_NO_TARGET : (uint32_t)idx;
	}
}

static void translate_one(int gen, struct exec_prog *p, size_t i,
			  const struct eu_inst *in)
{
	struct exec_op *op = &p->ops[i];
	memset(op, 0, sizeof(*op));
	op->inst = *in;
	op->prog = p;
	op->index = (uint32_t)i;
	op->offset = p->offsets[i];
	op->opcode = in->opcode;
	op->exec_size = in->exec_size;
	op->group = in->group;
	op->no_mask = in->no_mask;
	op->fn = exec_illegal;
	op->target_jip = op->target_uip = EXEC_NO_TARGET;
	unsigned n = in->exec_size;
	if (n != 1 && n != 2 && n != 4 && n != 8 && n != 16 && n != 32) {
		op->illegal = "execution size is not 1, 2, 4, 8, 16 or 32";
		return;
	}
	if (in->group % 4 || in->group + n > EU_MAX_CHANNELS) {
		op->illegal = "channel group past channel 31";
		return;
	}
	op->full = n == 32 ? UINT32_MAX : (1u << n) - 1;
	if (in->pred > EU_PRED_ALL32H || in->flag_nr > 1 || in->flag_subnr > 1) {
		op->illegal = "predicate control or flag register out of range";
		return;
	}
	/* the opcode table says whether the opcode exists on this gen and
	 * which handler runs it */
	const struct eu_opcode_info *info = eu_opcode_lookup(gen, in->opcode);
	if (!info) {
		op->illegal = "undefined opcode";
		return;
	}
	/* sel and the branches read the predicate themselves */
	op->pred_is_operand = (info->flags & EU_OPF_PRED_OPERAND) != 0;
	switch (info->exec) {
	case EU_EXEC_ALU:
		translate_alu(op, info);
		break;
	case EU_EXEC_FLOW:
		translate_flow(p, op);
		break;
	case EU_EXEC_SEND:
		op->fn = exec_send;
		break;
	default:
		/* EU_EXEC_NONE: smov on gen8/9 */
		op->illegal = "not implemented in gtsim";
		break;
	}
	if (op->illegal)
		op->fn = exec_illegal;
}

void exec_translate(int gen, struct exec_prog *p, size_t i,
		    const struct eu_inst *in)
{
	translate_one(gen, p, i, in);
	struct exec_op *op = &p->ops[i];
	op->run = (uint8_t)((op->inst.pred != EU_PRED_NONE && !op->pred_is_operand
			     ? EXEC_RUN_PRED : 0) | (op->dst.is_ip ? EXEC_RUN_IP : 0));
	if (op->illegal) {
		/* nothing of it may be used before the fault is raised */
		op->fn = exec_illegal;
		op->group = 0;
		op->full = 0;
		op->no_mask = false;
		op->inst.pred = EU_PRED_NONE;
		op->dst.is_ip = false;
		op->run = 0;
	}
}
