/* Operand access: reading sources into the execution type and writing
 * results in the destination type (PRM vol. 7 "Execution Data Type",
 * "Type Conversion", "Saturation"), indirect addressing through a0, and
 * the flag register (predication, conditional modifiers). */
#include <math.h>
#include <string.h>

#include "gpu/eu/exec_internal.h"

static uint64_t read_bits(const uint8_t *p, unsigned size)
{
	switch (size) {
	case 1: return p[0];
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}

static void write_bits(uint8_t *p, unsigned size, uint64_t v)
{
	switch (size) {
	case 1: p[0] = (uint8_t)v; break;
	case 2: { uint16_t w = (uint16_t)v; memcpy(p, &w, 2); break; }
	case 4: { uint32_t w = (uint32_t)v; memcpy(p, &w, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

long exec_src_indirect_off(struct eu_thread *t, const struct exec_src *s,
			   unsigned i)
{
	unsigned w = s->width ? s->width : 1;
	unsigned sub = s->a0_sub + (s->vxh ? i / w : 0);
	if (sub >= 16)
		return -1;
	uint16_t a;
	memcpy(&a, eu_arf(t, EU_ARF_A0) + 2 * sub, 2);
	long elem = s->vxh ? (long)(i % w) * s->hstride
			   : (long)(i / w) * s->vstride + (long)(i % w) * s->hstride;
	long off = (long)a + s->ind_off + elem * s->size;
	if (off < 0 || off + s->size > EU_GRF_BYTES)
		return -1;
	return off;
}

/* Refresh ARFs whose value is made on demand (ce0, ip, tm0). */
static void refresh_special(struct eu_thread *t, const struct exec_op *op)
{
	uint32_t v = t->active & t->live;
	memcpy(eu_arf(t, EU_ARF_CE0), &v, 4);
	memcpy(eu_arf(t, EU_ARF_IP), &op->offset, 4);
	uint64_t tm = t->instructions;   /* timestamp: instructions so far */
	memcpy(eu_arf(t, EU_ARF_TM0), &tm, 8);
}

int exec_load_raw(struct eu_thread *t, const struct exec_op *op, unsigned s,
		  uint32_t en, uint64_t *raw)
{
	const struct exec_src *src = &op->src[s];
	unsigned n = op->exec_size;
	switch (src->kind) {
	case SRC_IMM:
		for (unsigned i = 0; i < n; i++)
			raw[i] = src->imm[i % 8];
		return 0;
	case SRC_DIRECT:
		if (src->reads_special)
			refresh_special(t, op);
		for (unsigned i = 0; i < n; i++)
			raw[i] = read_bits(t->regs + src->off[i], src->size);
		return 0;
	case SRC_INDIRECT:
		for (unsigned i = 0; i < n; i++) {
			if (!((en >> i) & 1)) {
				raw[i] = 0;
				continue;
			}
			long off = exec_src_indirect_off(t, src, i);
			if (off < 0)
				return eu_thread_fault(t, "ip 0x%x: indirect source %u of channel %u "
						       "addresses past the GRF file", op->offset, s, i);
			raw[i] = read_bits(t->regs + off, src->size);
		}
		return 0;
	default:
		memset(raw, 0, n * sizeof(*raw));
		return 0;
	}
}

/* cr0 bit 10 (HF denormals flushed) applies to HF arithmetic, not to a
 * mov converting between HF and F/DF: on Gen8/9 Mesa has no f16to32 /
 * f32to16 and lowers GLSL's packHalf2x16/unpackHalf2x16, which must be
 * exact for half denormals (piglit arb_shading_language_packing
 * fs-unpackHalf2x16: 0x83ff -> -6.0975552e-05), to plain movs without
 * setting cr0. */
static bool exec_hf_flush(const struct exec_op *op)
{
	return op->opcode != EU_OP_MOV;
}

/* Raw bits of a type to a value of the domain. */
static union exec_val to_dom(const struct eu_thread *t, uint64_t b,
			     unsigned type, enum exec_dom dom)
{
	union exec_val v;
	int64_t iv = 0;
	bool is_int = true;
	double dv = 0;
	float fv = 0;
	switch (type) {
	case EU_TYPE_UB: iv = (uint8_t)b; break;
	case EU_TYPE_B: iv = (int8_t)b; break;
	case EU_TYPE_UW: iv = (uint16_t)b; break;
	case EU_TYPE_W: iv = (int16_t)b; break;
	case EU_TYPE_UD: iv = (uint32_t)b; break;
	case EU_TYPE_D: iv = (int32_t)b; break;
	case EU_TYPE_UQ: case EU_TYPE_Q: iv = (int64_t)b; break;
	case EU_TYPE_HF:
		is_int = false;
		fv = exec_half_to_float((uint16_t)b);
		dv = fv;
		break;
	case EU_TYPE_F: {
		uint32_t w = (uint32_t)b;
		is_int = false;
		memcpy(&fv, &w, 4);
		dv = fv;
		break;
	}
	default: /* DF */
		is_int = false;
		memcpy(&dv, &b, 8);
		fv = (float)dv;
		break;
	}
	(void)t;
	switch (dom) {
	case DOM_INT:
		if (is_int)
			v.i = iv;
		else /* float source in an integer op: convert (RTZ, clamp) */
			v.i = isnan(dv) ? 0 : dv >= 9.2e18 ? INT64_MAX
			      : dv <= -9.2e18 ? INT64_MIN : (int64_t)dv;
		break;
	case DOM_F:
		if (is_int)
			v.f = type == EU_TYPE_UQ ? (float)(uint64_t)iv : (float)iv;
		else
			v.f = type == EU_TYPE_DF ? (float)dv : fv;
		break;
	default:
		if (is_int)
			v.d = type == EU_TYPE_UQ ? (double)(uint64_t)iv : (double)iv;
		else
			v.d = dv;
		break;
	}
	return v;
}

int exec_load(struct eu_thread *t, const struct exec_op *op, unsigned s,
	      enum exec_dom dom, uint32_t en, union exec_val *v)
{
	uint64_t raw[EU_MAX_CHANNELS];
	const struct exec_src *src = &op->src[s];
	if (exec_load_raw(t, op, s, en, raw))
		return -1;
	unsigned n = op->exec_size;
	struct exec_fpmode m = exec_fpmode(t);
	for (unsigned i = 0; i < n; i++) {
		union exec_val x = to_dom(t, raw[i], src->type, dom);
		if (dom == DOM_F) {
			if (!m.f32_denorm && src->type == EU_TYPE_F)
				x.f = exec_flush_f(x.f);
			/* a half denormal (exponent 0) with cr0 bit 10 clear;
			 * a conversion (mov) keeps it: see exec_hf_flush */
			if (!m.f16_denorm && src->type == EU_TYPE_HF && !(raw[i] & 0x7c00) &&
			    exec_hf_flush(op))
				x.f = copysignf(0.0f, x.f);
			if (src->abs)
				x.f = fabsf(x.f);
			if (src->neg)
				x.f = -x.f;
		} else if (dom == DOM_DF) {
			if (!m.f64_denorm && src->type == EU_TYPE_DF)
				x.d = exec_flush_df(x.d);
			if (src->abs)
				x.d = fabs(x.d);
			if (src->neg)
				x.d = -x.d;
		} else if (op->logic) {
			if (src->neg)   /* PRM: on logic ops, negate is NOT */
				x.u = ~x.u;
		} else {
			if (src->abs && x.i < 0)
				x.u = 0 - x.u;
			if (src->neg)
				x.u = 0 - x.u;
		}
		v[i] = x;
	}
	return 0;
}

static int64_t clamp_i(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void int_range(unsigned type, int64_t *lo, int64_t *hi)
{
	switch (type) {
	case EU_TYPE_UB: *lo = 0; *hi = UINT8_MAX; break;
	case EU_TYPE_B: *lo = INT8_MIN; *hi = INT8_MAX; break;
	case EU_TYPE_UW: *lo = 0; *hi = UINT16_MAX; break;
	case EU_TYPE_W: *lo = INT16_MIN; *hi = INT16_MAX; break;
	case EU_TYPE_UD: *lo = 0; *hi = UINT32_MAX; break;
	case EU_TYPE_D: *lo = INT32_MIN; *hi = INT32_MAX; break;
	case EU_TYPE_UQ: *lo = 0; *hi = INT64_MAX; break;
	default: *lo = INT64_MIN; *hi = INT64_MAX; break;
	}
}

/* Float to an integer type: round toward zero, clamp to the type's range,
 * NaN gives 0 (PRM "Float to Integer conversion"). */
static uint64_t float_to_int_bits(double d, unsigned type)
{
	if (isnan(d))
		return 0;
	int64_t lo, hi;
	int_range(type, &lo, &hi);
	if (type == EU_TYPE_UQ) {
		if (d <= 0)
			return 0;
		if (d >= 18446744073709551615.0)
			return UINT64_MAX;
		return (uint64_t)d;
	}
	if (d <= (double)lo)
		return (uint64_t)lo;
	if (d >= (double)hi)
		return (uint64_t)hi;
	return (uint64_t)(int64_t)d;
}

/* Bits of an integer type, read back as a signed 64-bit value. */
static int64_t int_value(uint64_t bits, unsigned type)
{
	unsigned sz = exec_type_bytes(type);
	if (sz >= 8)
		return (int64_t)bits;
	uint64_t m = (1ull << (8 * sz)) - 1;
	bits &= m;
	if (exec_type_is_signed(type) && (bits >> (8 * sz - 1)))
		return (int64_t)(bits | ~m);
	return (int64_t)bits;
}

/* A result in the domain to the destination's bits; *cmpv receives the
 * written value for the conditional modifier (double when *cmp_is_float,
 * else int64). */
static uint64_t from_dom(const struct exec_op *op, const struct exec_fpmode *m,
			 union exec_val r, enum exec_dom dom, bool sat,
			 union exec_val *cmpv, bool *cmp_is_float)
{
	unsigned type = op->dst.type;
	bool dst_float = exec_type_is_float(type);
	*cmp_is_float = dst_float;
	if (dom == DOM_INT && !dst_float) {
		int64_t v = r.i;
		if (sat && type != EU_TYPE_UQ && type != EU_TYPE_Q) {
			int64_t lo, hi;
			int_range(type, &lo, &hi);
			v = clamp_i(v, lo, hi);
		}
		cmpv->i = int_value((uint64_t)v, type);
		/* a UQ result above INT64_MAX is still > 0 for .g/.l... */
		if (type == EU_TYPE_UQ && cmpv->i < 0)
			cmpv->i = INT64_MAX;
		return (uint64_t)v & (exec_type_bytes(type) >= 8 ? UINT64_MAX
				      : (1ull << (8 * exec_type_bytes(type))) - 1);
	}
	if (dom == DOM_INT) {   /* integer result to a float type */
		if (type == EU_TYPE_DF) {
			r.d = op->uq_src ? (double)r.u : (double)r.i;
			dom = DOM_DF;
		} else {
			r.f = op->uq_src ? (float)r.u : (float)r.i;
			dom = DOM_F;
		}
	}
	double d = dom == DOM_F ? r.f : r.d;
	if (!dst_float) {
		uint64_t bits = float_to_int_bits(d, type);
		cmpv->i = int_value(bits, type);
		return bits & (exec_type_bytes(type) >= 8 ? UINT64_MAX
			       : (1ull << (8 * exec_type_bytes(type))) - 1);
	}
	if (sat) /* PRM "Saturation": clamp to [0.0, 1.0]; NaN becomes 0 */
		d = isnan(d) ? 0.0 : d < 0 ? 0.0 : d > 1 ? 1.0 : d;
	switch (type) {
	case EU_TYPE_F: {
		float f = dom == DOM_F ? r.f : exec_df_to_f(d);
		if (sat)
			f = exec_df_to_f(d);
		if (!m->f32_denorm)
			f = exec_flush_f(f);
		if (m->alt && isinf(f))
			f = copysignf(3.40282347e38f, f);
		cmpv->d = f;
		uint32_t b;
		memcpy(&b, &f, 4);
		return b;
	}
	case EU_TYPE_HF: {
		uint16_t h = exec_float_to_half((float)d, m->round);
		if (!m->f16_denorm && !(h & 0x7c00) && exec_hf_flush(op))
			h &= 0x8000;      /* cr0 bit 10 clear: flush denormals */
		cmpv->d = exec_half_to_float(h);
		return h;
	}
	default: {
		if (!m->f64_denorm)
			d = exec_flush_df(d);
		cmpv->d = d;
		uint64_t b;
		memcpy(&b, &d, 8);
		return b;
	}
	}
}

static bool cond_holds(unsigned cond, union exec_val v, bool is_float)
{
	if (is_float) {
		double d = v.d;
		switch (cond) {
		case EU_COND_Z: return d == 0;
		case EU_COND_NZ: return !(d == 0);   /* NaN: not zero */
		case EU_COND_G: return d > 0;
		case EU_COND_GE: return d >= 0;
		case EU_COND_L: return d < 0;
		case EU_COND_LE: return d <= 0;
		case EU_COND_O: return isinf(d);
		case EU_COND_U: return isnan(d);
		default: return false;
		}
	}
	switch (cond) {
	case EU_COND_Z: return v.i == 0;
	case EU_COND_NZ: return v.i != 0;
	case EU_COND_G: return v.i > 0;
	case EU_COND_GE: return v.i >= 0;
	case EU_COND_L: return v.i < 0;
	case EU_COND_LE: return v.i <= 0;
	default: return false;
	}
}

static int dst_offset(struct eu_thread *t, const struct exec_op *op, unsigned i,
		      long *off)
{
	const struct exec_dst *d = &op->dst;
	if (d->kind == DST_DIRECT) {
		*off = d->off[i];
		return 0;
	}
	uint16_t a;
	memcpy(&a, eu_arf(t, EU_ARF_A0) + 2 * d->a0_sub, 2);
	long o = (long)a + d->ind_off + (long)i * d->hstride * d->size;
	if (o < 0 || o + d->size > EU_GRF_BYTES)
		return eu_thread_fault(t, "ip 0x%x: indirect destination of channel %u "
				       "addresses past the GRF file", op->offset, i);
	*off = o;
	return 0;
}

int exec_store_raw(struct eu_thread *t, const struct exec_op *op,
		   uint32_t en, const uint64_t *raw)
{
	const struct exec_dst *d = &op->dst;
	if (d->kind == DST_NULL)
		return 0;
	uint32_t w = en & d->wmask;
	for (unsigned i = 0; i < op->exec_size; i++) {
		if (!((w >> i) & 1))
			continue;
		long off = 0;
		if (dst_offset(t, op, i, &off))
			return -1;
		write_bits(t->regs + off, d->size, raw[i]);
	}
	return 0;
}

int exec_store(struct eu_thread *t, const struct exec_op *op,
	       enum exec_dom dom, uint32_t en, const union exec_val *v)
{
	uint64_t raw[EU_MAX_CHANNELS];
	uint32_t flag_bits = 0;
	struct exec_fpmode m = exec_fpmode(t);
	unsigned cond = op->inst.cond;
	bool acc = (op->inst.acc_wr && !op->acc_implicit) || op->dst.is_acc;
	for (unsigned i = 0; i < op->exec_size; i++) {
		if (!((en >> i) & 1))
			continue;
		union exec_val cv;
		bool cf;
		/* the flag tests the value written, after .sat: the PRM's
		 * post_zero bit "reflects whether the final result is zero
		 * after all the clamping" (KBL PRM vol. 7 "Assigning
		 * Conditional Flags"; its note that the signals are "before
		 * the .sat" is contradicted by hardware, as Mesa's
		 * brw_fs_cmod_propagation.cpp records from tests on GPUs, and
		 * Mesa emits mad.sat.nz relying on it) */
		raw[i] = from_dom(op, &m, v[i], dom, op->inst.saturate, &cv, &cf);
		if (op->writes_flag && cond_holds(cond, cv, cf))
			flag_bits |= 1u << i;
		if (acc) {
			unsigned ch = op->group + i;
			if (dom == DOM_INT)
				t->acc_wide[ch].i = v[i].i;
			else
				t->acc_wide[ch].d = dom == DOM_F ? v[i].f : v[i].d;
		}
	}
	if (op->writes_flag)
		exec_set_flag_bits(t, op, en, flag_bits);
	if (op->inst.acc_wr && !op->dst.is_acc && !op->acc_implicit) {
		/* AccWrEn: the result also goes to the accumulator, in the
		 * destination's type (PRM "Accumulator Write Enable"). */
		unsigned sz = op->dst.size;
		for (unsigned i = 0; i < op->exec_size; i++)
			if ((en >> i) & 1 && (i + 1) * sz <= 2 * EU_REG_SIZE)
				write_bits(eu_arf(t, EU_ARF_ACC0) + i * sz, sz, raw[i]);
	}
	if (exec_store_raw(t, op, en, raw))
		return -1;
	return 0;
}

uint32_t exec_pred_mask(const struct eu_thread *t, const struct exec_op *op)
{
	const struct eu_inst *in = &op->inst;
	uint64_t flags = eu_thread_flags(t);
	unsigned base = in->flag_nr * 32 + in->flag_subnr * 16;
	uint64_t f = (flags >> base) & 0xffffffffu;   /* bit c = channel c */
	unsigned g = op->group, n = op->exec_size;
	uint32_t m = 0;
	unsigned grp = 1;
	bool all = false;
	if (in->pred == EU_PRED_NORMAL) {
		m = (uint32_t)(f >> g);
	} else if (in->access_mode == EU_ALIGN16 && in->pred <= EU_PRED_XYZW_W) {
		/* replicate one component of each group of 4 */
		unsigned c = in->pred - EU_PRED_XYZW_X;
		for (unsigned i = 0; i < n; i++)
			if ((f >> (g + (i & ~3u) + c)) & 1)
				m |= 1u << i;
	} else if (in->access_mode == EU_ALIGN16) {
		grp = 4;
		all = in->pred == EU_PRED_ALL4H;
	} else if (in->pred == EU_PRED_ANYV || in->pred == EU_PRED_ALLV) {
		/* "vertical": across f0 and f1 of the same channel */
		uint32_t f0 = (uint32_t)(flags >> g), f1 = (uint32_t)(flags >> (32 + g));
		m = in->pred == EU_PRED_ANYV ? (f0 | f1) : (f0 & f1);
	} else {
		switch (in->pred) {
		case EU_PRED_ANY2H: case EU_PRED_ALL2H: grp = 2; break;
		case 6: case 7: grp = 4; break;
		case EU_PRED_ANY8H: case EU_PRED_ALL8H: grp = 8; break;
		case EU_PRED_ANY16H: case EU_PRED_ALL16H: grp = 16; break;
		default: grp = 32; break;
		}
		all = (in->pred & 1) != 0;
	}
	if (grp > 1) {
		for (unsigned i = 0; i < n; i += grp) {
			uint32_t span = grp >= 32 ? UINT32_MAX : (1u << grp) - 1;
			uint32_t bits = (uint32_t)(f >> (g + (i & ~(grp - 1)))) & span;
			bool on = all ? bits == span : bits != 0;
			if (on)
				m |= (grp >= 32 ? UINT32_MAX : span) << i;
		}
	}
	if (in->pred_inv)
		m = ~m;
	return m & op->full;
}

void exec_set_flag_bits(struct eu_thread *t, const struct exec_op *op,
			uint32_t en, uint32_t bits)
{
	const struct eu_inst *in = &op->inst;
	unsigned base = in->flag_nr * 32 + in->flag_subnr * 16 + op->group;
	if (base >= 64)
		return;          /* past f1: nothing to write */
	uint64_t flags = eu_thread_flags(t);
	uint64_t mask = (uint64_t)en << base, val = (uint64_t)bits << base;
	flags = (flags & ~mask) | (val & mask);
	eu_thread_set_flags(t, flags);
}
