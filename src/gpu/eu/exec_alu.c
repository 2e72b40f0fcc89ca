/* The generic ALU handler: every ALU opcode in every operand form. Sources
 * are read into the execution type (integers as int64, F as float, DF as
 * double), the operation runs per channel, and exec_store converts to the
 * destination type with saturation, conditional-modifier flags and
 * accumulator writes. Integer arithmetic is done on uint64 so it wraps
 * like the hardware and never hits C's signed-overflow rules. */
#include <math.h>
#include <string.h>

#include "gpu/eu/exec_internal.h"
#include "gpu/eu/opcodes.h"

#define CH_LOOP(i) for (unsigned i = 0; i < n; i++) if ((en >> i) & 1)

static uint32_t u32(union exec_val v) { return (uint32_t)v.u; }

/* Compare two values of a domain with a conditional modifier (cmp, sel);
 * unordered operands only satisfy .nz and .u (PRM "cmp"). Integers are
 * int64 (every type up to D/UD fits); UQ sources compare unsigned. */
static bool compare(const struct exec_op *op, unsigned cond, enum exec_dom dom,
		    union exec_val a, union exec_val b)
{
	if (dom == DOM_INT) {
		int c = op->uq_src ? (a.u > b.u) - (a.u < b.u) : (a.i > b.i) - (a.i < b.i);
		switch (cond) {
		case EU_COND_Z: return c == 0;
		case EU_COND_NZ: return c != 0;
		case EU_COND_G: return c > 0;
		case EU_COND_GE: return c >= 0;
		case EU_COND_L: return c < 0;
		case EU_COND_LE: return c <= 0;
		default: return false;
		}
	}
	double x = dom == DOM_F ? a.f : a.d, y = dom == DOM_F ? b.f : b.d;
	switch (cond) {
	case EU_COND_Z: return x == y;
	case EU_COND_NZ: return !(x == y);
	case EU_COND_G: return x > y;
	case EU_COND_GE: return x >= y;
	case EU_COND_L: return x < y;
	case EU_COND_LE: return x <= y;
	case EU_COND_U: return isnan(x) || isnan(y);
	case EU_COND_O: return false;
	default: return false;
	}
}

static bool is_nan(enum exec_dom dom, union exec_val v)
{
	return dom == DOM_F ? isnan(v.f) : dom == DOM_DF ? isnan(v.d) : false;
}

/* A NaN result is the first NaN of the sources src[0..n) (instruction
 * order), quieted; a NaN made from numbers stays the host's (exec_fast.c's
 * nan_first: every path gives the same bits, fuzz findings 16, 17, 18). */
static union exec_val nan_first_of(enum exec_dom d, union exec_val v, const union exec_val *src,
				   unsigned n)
{
	if (!is_nan(d, v))
		return v;
	for (unsigned i = 0; i < n; i++)
		if (is_nan(d, src[i])) {
			union exec_val q = src[i];
			q.u |= d == DOM_F ? 0x00400000u : 0x0008000000000000ull;
			return q;
		}
	return v;
}

/* Unsigned view of an integer source's bits in its own type (shr, lzd). */
static uint64_t src_bits(const struct exec_op *op, unsigned s, union exec_val v)
{
	unsigned sz = op->src[s].size;
	return sz >= 8 ? v.u : v.u & ((1ull << (8 * sz)) - 1);
}

static unsigned shift_mask(const struct exec_op *op)
{
	return op->src[0].size == 8 || op->dst.size == 8 ? 63 : 31;
}

static uint32_t bitrev32(uint32_t x)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= ((x >> i) & 1u) << (31 - i);
	return r;
}

static union exec_val vadd(enum exec_dom d, union exec_val a, union exec_val b)
{
	union exec_val r;
	if (d == DOM_INT) r.u = a.u + b.u;
	else if (d == DOM_F) r.f = a.f + b.f;
	else r.d = a.d + b.d;
	return r;
}

static union exec_val vmul(enum exec_dom d, union exec_val a, union exec_val b)
{
	union exec_val r;
	if (d == DOM_INT) r.u = a.u * b.u;
	else if (d == DOM_F) r.f = a.f * b.f;
	else r.d = a.d * b.d;
	return r;
}

/* b * c + a, fused (PRM "mad": no intermediate rounding). */
static union exec_val vmad(enum exec_dom d, union exec_val a, union exec_val b,
			   union exec_val c)
{
	union exec_val r;
	if (d == DOM_INT) r.u = b.u * c.u + a.u;
	else if (d == DOM_F) r.f = fmaf(b.f, c.f, a.f);
	else r.d = fma(b.d, c.d, a.d);
	return r;
}

static union exec_val acc_val(const struct eu_thread *t, const struct exec_op *op,
			      unsigned i, enum exec_dom d)
{
	union exec_val r;
	unsigned ch = (op->group + i) % EU_MAX_CHANNELS;
	if (d == DOM_INT) r.i = t->acc_wide[ch].i;
	else if (d == DOM_F) r.f = (float)t->acc_wide[ch].d;
	else r.d = t->acc_wide[ch].d;
	return r;
}

static void set_acc_int(struct eu_thread *t, const struct exec_op *op,
			unsigned i, int64_t v)
{
	unsigned ch = (op->group + i) % EU_MAX_CHANNELS;
	t->acc_wide[ch].i = v;
	uint32_t lo = (uint32_t)v;
	if (i < 16)
		memcpy(eu_arf(t, EU_ARF_ACC0) + 4 * i, &lo, 4);
}

static union exec_val rnd(unsigned opc, enum exec_dom d, union exec_val a)
{
	if (d == DOM_INT)
		return a;
	double x = d == DOM_F ? a.f : a.d, y;
	switch (opc) {
	case EU_OP_RNDU: y = ceil(x); break;
	case EU_OP_RNDD: y = floor(x); break;
	case EU_OP_RNDE: y = x - remainder(x, 1.0); break;   /* ties to even */
	case EU_OP_RNDZ: y = trunc(x); break;
	default: y = x - floor(x); break;                    /* frc */
	}
	union exec_val r;
	if (d == DOM_F) r.f = (float)copysign(y, opc == EU_OP_FRC ? 1.0 : x);
	else r.d = copysign(y, opc == EU_OP_FRC ? 1.0 : x);
	if (opc == EU_OP_FRC && d == DOM_F && r.f >= 1.0f)
		r.f = 0x1.fffffep-1f;   /* frc(-tiny) rounds to 1.0 in float */
	return r;
}

static int64_t int_div(const struct exec_op *op, union exec_val a,
		       union exec_val b, bool want_rem)
{
	bool sgn = exec_type_is_signed(op->src[0].type) ||
		   exec_type_is_signed(op->src[1].type);
	/* Division by zero: quotient all ones, remainder the dividend
	 * (deterministic; the PRM leaves it undefined). */
	if (sgn) {
		int32_t x = (int32_t)a.i, y = (int32_t)b.i;
		if (y == 0)
			return want_rem ? x : -1;
		if (x == INT32_MIN && y == -1)
			return want_rem ? 0 : INT32_MIN;
		return want_rem ? x % y : x / y;
	}
	uint32_t x = (uint32_t)a.u, y = (uint32_t)b.u;
	if (y == 0)
		return want_rem ? x : UINT32_MAX;
	return want_rem ? x % y : x / y;
}

/* Dot products over each group of four channels (align16 vec4). */
static void dot(const struct exec_op *op, enum exec_dom d,
		const union exec_val *a, const union exec_val *b, union exec_val *r)
{
	unsigned n = op->exec_size;
	unsigned terms = op->opcode == EU_OP_DP2 ? 2 : op->opcode == EU_OP_DP4 ? 4 : 3;
	for (unsigned g = 0; g < n; g += 4) {
		union exec_val s = vmul(d, a[g], b[g]);
		for (unsigned k = 1; k < terms && g + k < n; k++)
			s = vadd(d, s, vmul(d, a[g + k], b[g + k]));
		if (op->opcode == EU_OP_DPH && g + 3 < n)
			s = vadd(d, s, b[g + 3]);
		for (unsigned k = 0; k < 4 && g + k < n; k++)
			r[g + k] = s;
	}
}

/* line and pln read scalar coefficients from src0's first element. */
static int plane_coef(struct eu_thread *t, const struct exec_op *op,
		      enum exec_dom d, unsigned k, union exec_val *v)
{
	const struct exec_src *s = &op->src[0];
	unsigned off = s->off[0] + k * s->size;
	if (s->kind != SRC_DIRECT || off + s->size > EU_GRF_BYTES)
		return eu_thread_fault(t, "ip 0x%x: %s coefficient outside the GRF file",
				       op->offset, eu_opcode_name(op->opcode));
	uint32_t bits;
	memcpy(&bits, t->regs + off, 4);
	float f;
	memcpy(&f, &bits, 4);
	if (d == DOM_DF) v->d = f; else v->f = f;
	if (s->neg) { if (d == DOM_DF) v->d = -v->d; else v->f = -v->f; }
	return 0;
}

static int alu_plane(struct eu_thread *t, const struct exec_op *op, uint32_t en,
		     const union exec_val *b, union exec_val *r)
{
	unsigned n = op->exec_size;
	enum exec_dom d = op->dom == DOM_INT ? DOM_F : (enum exec_dom)op->dom;
	union exec_val p, q, c;
	if (plane_coef(t, op, d, 0, &p))
		return -1;
	if (op->opcode == EU_OP_LINE) {
		if (plane_coef(t, op, d, 3, &q))
			return -1;
		CH_LOOP(i) r[i] = nan_first_of(d, vmad(d, q, p, b[i]),
					       (const union exec_val[3]){ p, q, b[i] }, 3);
		return 0;
	}
	if (plane_coef(t, op, d, 1, &q) || plane_coef(t, op, d, 3, &c))
		return -1;
	/* pln: src1 holds x and y interleaved per 8 channels: x of
	 * channels 0-7, their y, x of 8-15, their y (PRM "pln"; the
	 * SIMD16 barycentric payload has this layout). */
	unsigned base = op->src[1].off[0];
	CH_LOOP(i) {
		unsigned xo = base + (i / 8) * 2 * EU_REG_SIZE + (i % 8) * 4;
		if (xo + EU_REG_SIZE + 4 > EU_GRF_BYTES)
			return eu_thread_fault(t, "ip 0x%x: pln src1 past the GRF file", op->offset);
		float x, y;
		memcpy(&x, t->regs + xo, 4);
		memcpy(&y, t->regs + xo + EU_REG_SIZE, 4);
		union exec_val xv, yv;
		if (d == DOM_DF) { xv.d = x; yv.d = y; } else { xv.f = x; yv.f = y; }
		r[i] = nan_first_of(d, vmad(d, vmad(d, c, p, xv), q, yv),
				    (const union exec_val[5]){ p, q, c, xv, yv }, 5);
	}
	return 0;
}

/* sad2/sada2: sum of absolute differences of byte pairs. */
static void alu_sad(struct eu_thread *t, const struct exec_op *op, uint32_t en,
		    union exec_val *r)
{
	unsigned n = op->exec_size;
	bool sa = exec_type_is_signed(op->src[0].type);
	bool sb = exec_type_is_signed(op->src[1].type);
	uint64_t ra[EU_MAX_CHANNELS], rb[EU_MAX_CHANNELS];
	exec_load_raw(t, op, 0, en, ra);
	exec_load_raw(t, op, 1, en, rb);
	CH_LOOP(i) {
		int64_t sum = 0;
		for (unsigned k = 0; k < 2; k++) {
			uint8_t x8 = op->src[0].kind == SRC_DIRECT && op->src[0].off[i] + k < EU_REGS_BYTES
				? t->regs[op->src[0].off[i] + k] : (uint8_t)(ra[i] >> (8 * k));
			uint8_t y8 = op->src[1].kind == SRC_DIRECT && op->src[1].off[i] + k < EU_REGS_BYTES
				? t->regs[op->src[1].off[i] + k] : (uint8_t)(rb[i] >> (8 * k));
			int x = sa ? (int8_t)x8 : x8, y = sb ? (int8_t)y8 : y8;
			sum += x > y ? x - y : y - x;
		}
		if (op->opcode == EU_OP_SADA2)
			sum += acc_val(t, op, i, DOM_INT).i;
		r[i].i = sum;
	}
}

static uint32_t alu_finish(struct eu_thread *t, const struct exec_op *op,
			   uint32_t en)
{
	t->channel_ops += (uint64_t)__builtin_popcount(en);
	return op->index + 1;
}

/* cmp/cmpn: the flag gets the comparison, the destination all ones or 0
 * in its own size (PRM "cmp"). cmpn is the NaN-aware form Mesa uses for
 * min/max: a NaN src1 compares true, otherwise a NaN src0 false. */
static int alu_cmp(struct eu_thread *t, const struct exec_op *op, uint32_t en,
		   enum exec_dom d, const union exec_val *a, const union exec_val *b)
{
	unsigned n = op->exec_size;
	uint64_t raw[EU_MAX_CHANNELS] = { 0 };
	uint64_t ones = op->dst.size >= 8 ? UINT64_MAX : (1ull << (8 * op->dst.size)) - 1;
	uint32_t bits = 0;
	CH_LOOP(i) {
		bool c;
		if (op->opcode == EU_OP_CMPN && is_nan(d, b[i]))
			c = true;
		else if (op->opcode == EU_OP_CMPN && is_nan(d, a[i]))
			c = false;
		else
			c = compare(op, op->inst.cond, d, a[i], b[i]);
		raw[i] = c ? ones : 0;
		bits |= (uint32_t)c << i;
	}
	if (op->inst.cond != EU_COND_NONE)
		exec_set_flag_bits(t, op, en, bits);
	return exec_store_raw(t, op, en, raw);
}

static bool is_raw_mov(const struct exec_op *op)
{
	const struct exec_src *s = &op->src[0];
	return op->opcode == EU_OP_MOV && !op->inst.saturate && !s->neg && !s->abs &&
	       (s->type == op->dst.type ||
		(!exec_type_is_float(s->type) && !exec_type_is_float(op->dst.type) &&
		 s->size == op->dst.size)) &&
	       op->inst.cond == EU_COND_NONE && !op->inst.acc_wr && !op->dst.is_acc &&
	       !op->dst.is_cr0;
}

static __int128 wide_src(const struct exec_op *op, unsigned s, union exec_val v)
{
	return exec_type_is_signed(op->src[s].type) ? (__int128)v.i : (__int128)v.u;
}

/* add/mul/mad .sat to a Q/UQ destination: the exact result clamped to the
 * destination type's range (PRM "Saturation": integer results clamp to
 * the destination type), where 64-bit arithmetic would wrap. */
static union exec_val sat_q(const struct exec_op *op, union exec_val x,
			    union exec_val y, union exec_val z)
{
	__int128 a = wide_src(op, 0, x), b = wide_src(op, 1, y), v = 0;
	bool ovf, neg = false;
	if (op->opcode == EU_OP_ADD) {
		ovf = __builtin_add_overflow(a, b, &v);
	} else if (op->opcode == EU_OP_MUL) {
		ovf = __builtin_mul_overflow(a, b, &v);
		neg = (a < 0) != (b < 0);
	} else { /* mad: src1 * src2 + src0 */
		__int128 c = wide_src(op, 2, z);
		ovf = __builtin_mul_overflow(b, c, &v);
		neg = (b < 0) != (c < 0);
		if (!ovf && __builtin_add_overflow(v, a, &v))
			ovf = true, neg = a < 0;
	}
	bool is_q = op->dst.type == EU_TYPE_Q;
	__int128 lo = is_q ? (__int128)INT64_MIN : 0;
	__int128 hi = is_q ? (__int128)INT64_MAX : (__int128)UINT64_MAX;
	if (ovf)
		v = neg ? lo : hi;
	union exec_val r;
	r.u = (uint64_t)(v < lo ? lo : v > hi ? hi : v);
	return r;
}

uint32_t exec_alu_generic(struct eu_thread *t, const struct exec_op *op,
			  uint32_t en)
{
	union exec_val a[EU_MAX_CHANNELS], b[EU_MAX_CHANNELS], c[EU_MAX_CHANNELS];
	union exec_val r[EU_MAX_CHANNELS];
	unsigned n = op->exec_size;
	enum exec_dom d = (enum exec_dom)op->dom;
	unsigned opc = op->opcode;
	struct exec_fpmode m = exec_fpmode(t);
	uint32_t sel_mask = 0;
	int err = 0;

	if (opc == EU_OP_SEL && op->inst.pred != EU_PRED_NONE)
		sel_mask = exec_pred_mask(t, op);
	if (is_raw_mov(op)) {
		uint64_t raw[EU_MAX_CHANNELS];
		if (exec_load_raw(t, op, 0, en, raw) || exec_store_raw(t, op, en, raw))
			return op->index;
		return alu_finish(t, op, en);
	}
	/* a thread that keeps denormals must not have the host flush them */
	bool keep_denorm = m.f32_denorm || m.f64_denorm;
	unsigned saved_host = keep_denorm ? exec_host_daz(false) : 0;
	int saved_round = 0;
	bool set_round = d != DOM_INT && m.round != 0;
	if (set_round || (m.round && exec_type_is_float(op->dst.type)))
		saved_round = exec_set_host_round(m.round), set_round = true;

	/* f16to32 reads the raw low 16 bits of its source. */
	if (opc == EU_OP_F16TO32) {
		uint64_t raw[EU_MAX_CHANNELS];
		err = exec_load_raw(t, op, 0, en, raw);
		for (unsigned i = 0; i < n && !err; i++)
			r[i].f = exec_half_to_float((uint16_t)raw[i]);
		d = DOM_F;
		goto store;
	}
	for (unsigned s = 0; s < op->nsrc && !err; s++)
		err = exec_load(t, op, s, d, en, s == 0 ? a : s == 1 ? b : c);
	if (err)
		goto out;

	switch (opc) {
	case EU_OP_CMP: case EU_OP_CMPN:
		err = alu_cmp(t, op, en, d, a, b);
		goto out;
	case EU_OP_F32TO16: {
		uint64_t raw[EU_MAX_CHANNELS] = { 0 };
		CH_LOOP(i) raw[i] = exec_float_to_half(a[i].f, m.round);
		err = exec_store_raw(t, op, en, raw);
		goto out;
	}
	case EU_OP_DP4: case EU_OP_DPH: case EU_OP_DP3: case EU_OP_DP2:
		dot(op, d, a, b, r);
		goto store;
	case EU_OP_LINE: case EU_OP_PLN:
		err = alu_plane(t, op, en, b, r);
		if (op->dom == DOM_INT)
			d = DOM_F;
		goto store;
	case EU_OP_SAD2: case EU_OP_SADA2:
		alu_sad(t, op, en, r);
		goto store;
	case EU_OP_MATH:
		if (d == DOM_INT) {
			unsigned fn = op->inst.math_fn;
			CH_LOOP(i) r[i].i = int_div(op, a[i], b[i],
						    fn == EU_MATH_INT_DIV_REMAINDER);
			if (fn == EU_MATH_INT_DIV_BOTH) {
				/* remainder goes to the register after dst */
				struct exec_op rem = *op;
				unsigned span = (n * op->dst.size + EU_REG_SIZE - 1) / EU_REG_SIZE;
				for (unsigned i = 0; i < n; i++) {
					unsigned off = rem.dst.off[i] + span * EU_REG_SIZE;
					if (rem.dst.kind == DST_DIRECT && off + rem.dst.size > EU_GRF_BYTES) {
						err = eu_thread_fault(t, "ip 0x%x: math remainder past g127", op->offset);
						goto out;
					}
					rem.dst.off[i] = (uint16_t)off;
				}
				union exec_val q[EU_MAX_CHANNELS];
				CH_LOOP(i) q[i].i = int_div(op, a[i], b[i], true);
				if (rem.dst.kind == DST_DIRECT && (err = exec_store(t, &rem, d, en, q)))
					goto out;
			}
		} else {
			CH_LOOP(i) r[i] = exec_math_float(op->inst.math_fn, d, m.alt, a[i], b[i]);
		}
		goto store;
	default:
		break;
	}

	CH_LOOP(i) {
		union exec_val x = a[i], y = b[i], z = c[i], v;
		switch (opc) {
		case EU_OP_MOV: case EU_OP_MOVI: v = x; break;
		case EU_OP_SEL:
			if (op->inst.cond != EU_COND_NONE) {
				/* min/max: a NaN loses to a number (PRM "sel");
				 * of two NaNs src0's, quieted (exec_fast.c's
				 * nan_first, fuzz finding 17) */
				if (is_nan(d, x) && is_nan(d, y))
					v.u = x.u | (d == DOM_F ? 0x00400000u : 0x0008000000000000ull);
				else if (is_nan(d, x)) v = y;
				else if (is_nan(d, y)) v = x;
				else v = compare(op, op->inst.cond, d, x, y) ? x : y;
			} else if (op->inst.pred != EU_PRED_NONE) {
				v = (sel_mask >> i) & 1 ? x : y;
			} else {
				v = x;
			}
			break;
		case EU_OP_CSEL: {
			union exec_val zero = { 0 };
			v = compare(op, op->inst.cond, d, z, zero) ? x : y;
			break;
		}
		case EU_OP_NOT: v.u = ~x.u; break;
		case EU_OP_AND: v.u = x.u & y.u; break;
		case EU_OP_OR: v.u = x.u | y.u; break;
		case EU_OP_XOR: v.u = x.u ^ y.u; break;
		case EU_OP_SHL: v.u = x.u << (y.u & shift_mask(op)); break;
		case EU_OP_SHR: v.u = src_bits(op, 0, x) >> (y.u & shift_mask(op)); break;
		case EU_OP_ASR: v.i = x.i >> (y.u & shift_mask(op)); break;
		case EU_OP_BFREV: v.u = bitrev32(u32(x)); break;
		case EU_OP_BFE: {
			/* width = src0, offset = src1, value = src2 */
			unsigned w = u32(x) & 31, o = u32(y) & 31;
			uint32_t val = u32(z);
			if (w == 0) v.u = 0;
			else if (w + o < 32) {
				uint32_t f = (val << (32 - w - o));
				v.u = exec_type_is_signed(op->src[2].type)
					? (uint32_t)((int32_t)f >> (32 - w)) : f >> (32 - w);
			} else {
				v.u = exec_type_is_signed(op->src[2].type)
					? (uint32_t)((int32_t)val >> o) : val >> o;
			}
			if (exec_type_is_signed(op->dst.type)) v.i = (int32_t)v.u;
			break;
		}
		case EU_OP_BFI1: {
			unsigned w = u32(x) & 31, o = u32(y) & 31;
			v.u = (uint32_t)(((1ull << w) - 1) << o);
			break;
		}
		case EU_OP_BFI2: {
			/* mask = src0 (bfi1's result); src1 is shifted to the
			 * mask's lowest set bit before the insert: IGC lowers
			 * vISA BFI ((src2 << offset) & mask) to bfi1 + bfi2
			 * with no shift of its own, and Mesa maps NIR's bfi
			 * (the SM5 semantics, insert shifted the same way)
			 * straight to bfi2. */
			uint32_t m = u32(x), ins = u32(y);
			if (m)
				ins <<= __builtin_ctz(m);
			v.u = (ins & m) | (~m & u32(z));
			break;
		}
		case EU_OP_LZD: v.u = u32(x) ? (unsigned)__builtin_clz(u32(x)) : 32; break;
		case EU_OP_FBH: {
			uint32_t w = u32(x);
			if (exec_type_is_signed(op->src[0].type) && (w >> 31))
				w = ~w;   /* first bit differing from the sign */
			v.u = w ? (unsigned)__builtin_clz(w) : UINT32_MAX;
			break;
		}
		case EU_OP_FBL: v.u = u32(x) ? (unsigned)__builtin_ctz(u32(x)) : UINT32_MAX; break;
		case EU_OP_CBIT: v.u = (unsigned)__builtin_popcountll(src_bits(op, 0, x)); break;
		case EU_OP_ADD: v = vadd(d, x, y); break;
		case EU_OP_MUL: v = vmul(d, x, y); break;
		case EU_OP_AVG: v.i = (int64_t)(x.u + y.u + 1) >> 1; break;
		case EU_OP_ADDC: {
			uint64_t s = (uint64_t)u32(x) + u32(y);
			v.u = (uint32_t)s;
			set_acc_int(t, op, i, (int64_t)(s >> 32));   /* carry */
			break;
		}
		case EU_OP_SUBB: {
			v.u = (uint32_t)(u32(x) - u32(y));
			set_acc_int(t, op, i, u32(x) < u32(y));      /* borrow */
			break;
		}
		case EU_OP_MAC: v = vadd(d, acc_val(t, op, i, d), vmul(d, x, y)); break;
		case EU_OP_MACH: {
			/* acc holds src0 * low16(src1); add src0 * high16(src1)
			 * << 16 for the full product, keep its high half. */
			bool sg = exec_type_is_signed(op->src[0].type) ||
				  exec_type_is_signed(op->src[1].type);
			uint64_t hi16 = sg ? (uint64_t)(int64_t)((int32_t)u32(y) >> 16)
					   : (uint64_t)(u32(y) >> 16);
			uint64_t x64 = sg ? (uint64_t)(int64_t)(int32_t)u32(x) : u32(x);
			uint64_t full = (uint64_t)acc_val(t, op, i, DOM_INT).i + ((x64 * hi16) << 16);
			v.i = sg ? (int64_t)full >> 32 : (int64_t)(full >> 32);
			set_acc_int(t, op, i, (int64_t)full);
			break;
		}
		case EU_OP_MAD: case EU_OP_MADM: v = vmad(d, x, y, z); break;
		case EU_OP_LRP: {
			/* src1 * src0 + src2 * (1 - src0) */
			union exec_val one;
			if (d == DOM_F) { one.f = 1.0f; v.f = y.f * x.f + z.f * (one.f - x.f); }
			else if (d == DOM_DF) { one.d = 1.0; v.d = y.d * x.d + z.d * (one.d - x.d); }
			else v.u = y.u * x.u + z.u * (1 - x.u);
			break;
		}
		case EU_OP_FRC: case EU_OP_RNDU: case EU_OP_RNDD: case EU_OP_RNDE:
		case EU_OP_RNDZ:
			v = rnd(opc, d, x);
			break;
		default:
			v = x;
			break;
		}
		if (opc == EU_OP_ADD || opc == EU_OP_MUL || opc == EU_OP_MAD || opc == EU_OP_LRP)
			v = nan_first_of(d, v, (const union exec_val[3]){ x, y, z },
					 opc == EU_OP_MAD || opc == EU_OP_LRP ? 3 : 2);
		r[i] = v;
	}
	if (d == DOM_INT && op->inst.saturate &&
	    (op->dst.type == EU_TYPE_Q || op->dst.type == EU_TYPE_UQ) &&
	    (opc == EU_OP_ADD || opc == EU_OP_MUL || opc == EU_OP_MAD))
		CH_LOOP(i) r[i] = sat_q(op, a[i], b[i], c[i]);
store:
	if (!err)
		err = exec_store(t, op, d, en, r);
out:
	if (set_round)
		exec_restore_host_round(saved_round);
	if (keep_denorm)
		exec_host_restore(saved_host);
	if (err)
		return op->index;
	return alu_finish(t, op, en);
}
