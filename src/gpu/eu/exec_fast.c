/* Specialised handlers for the shapes that dominate real shaders: mov,
 * add, mul, mad and cmp on F or D/UD, SIMD8/16, every source a register
 * row (<8;8,1>, <16;16,1>, align16 .xyzw), a scalar (<0;1,0>) or an
 * immediate, destination stride 1, no saturation, no accumulator write.
 * They give the same results as the generic path (exec_alu.c): F
 * arithmetic flushes denormals as cr0's reset state asks, and a thread in
 * any other float mode (rounding, ALT, denormals kept) falls back to the
 * generic path at run time. */
#include <string.h>

#include "common/clones.h"
#include "gpu/eu/exec_internal.h"

/* The N 32-bit values of source s: a row is read in place (the project
 * builds with -fno-strict-aliasing; exec_fast_select checks alignment), a
 * scalar or immediate is broadcast into tmp. Copying rows would cost a
 * store-forwarding stall per register. */
static inline const uint32_t *src32(const struct eu_thread *t,
				    const struct exec_src *s, uint32_t *tmp,
				    unsigned n)
{
	if (s->kind == SRC_DIRECT && !s->scalar)
		return (const uint32_t *)(const void *)(t->regs + s->off[0]);
	uint32_t x;
	if (s->kind == SRC_IMM)
		x = (uint32_t)s->imm[0];
	else
		memcpy(&x, t->regs + s->off[0], 4);
	for (unsigned i = 0; i < n; i++)
		tmp[i] = x;
	return tmp;
}

/* Flush a single-precision denormal to a signed zero (unless the host's
 * DAZ/FTZ does it, see exec_internal.h). */
static inline uint32_t flush_bits(uint32_t x)
{
	if (EXEC_HOST_DAZ)
		return x;
	return (x & 0x7f800000u) ? x : (x & 0x80000000u);
}

/* Source modifiers: abs clears the sign (keep = 0x7fffffff), then
 * negate flips it (sign = 0x80000000). */
static inline float as_f(uint32_t x, uint32_t keep, uint32_t sign)
{
	float f;
	x = (flush_bits(x) & keep) ^ sign;
	memcpy(&f, &x, 4);
	return f;
}

/* A NaN result is the first NaN source in the instruction's order (src0,
 * src1, src2; after source modifiers), quieted; made from numbers (inf -
 * inf, 0 x inf) it is the host's NaN. IEEE 754-2008 6.2.3 asks for one
 * input NaN's payload; taking the first makes the choice independent of
 * how a host compiler ordered the operands of its add, mul or fma (with
 * two NaN sources the host returns the one its instruction names first:
 * the interpreter and the JIT (jit_llvm.c `nan_first`) disagreed, fuzz
 * target eu_jit, docs/fuzzing.md finding 16). */
static inline float nan_first(float v, float x, float y, float z)
{
	if (__builtin_expect(v == v, 1))
		return v;
	float n = x != x ? x : y != y ? y : z != z ? z : v;
	uint32_t u;
	memcpy(&u, &n, 4);
	u |= 0x00400000u;
	memcpy(&n, &u, 4);
	return n;
}

/* .sat on a float: clamp to [0, 1], NaN to 0 */
static inline float sat_f(float f)
{
	return f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f;
}

static inline uint32_t as_u(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	return flush_bits(x);
}

static inline void st32(struct eu_thread *t, const struct exec_op *op,
			const uint32_t *r, uint32_t en, unsigned n)
{
	uint8_t *d = t->regs + op->dst.off[0];
	if (en == op->full) {
		/* whole-vector stores, so the next instruction's loads of this
		 * register forward from them */
		uint32_t *d32 = (uint32_t *)(void *)d;
		for (unsigned i = 0; i < n; i++)
			d32[i] = r[i];
		return;
	}
	for (unsigned i = 0; i < n; i++)
		if ((en >> i) & 1)
			memcpy(d + 4 * i, &r[i], 4);
}

static inline uint32_t done(struct eu_thread *t, const struct exec_op *op,
			    uint32_t en)
{
	t->channel_ops += en == op->full ? op->exec_size
					 : (uint64_t)__builtin_popcount(en);
	return op->index + 1;
}

static inline uint32_t neg_mask(const struct exec_op *op, unsigned s, bool flt)
{
	return op->src[s].neg ? (flt ? 0x80000000u : UINT32_MAX) : 0;
}

static inline uint32_t keep_mask(const struct exec_op *op, unsigned s)
{
	return op->src[s].abs ? 0x7fffffffu : UINT32_MAX;
}

/* x, y, z: the sources of channel i as float (F_OP) or uint32 (I_OP). */
#define F_OP(name, N, expr)                                                    \
static uint32_t name##_##N(struct eu_thread *t, const struct exec_op *op,     \
			   uint32_t en)                                        \
{                                                                              \
	if (!exec_fpmode_is_default(t))                                        \
		return exec_alu_generic(t, op, en);                            \
	uint32_t ta[N], tb[N], tc[N], r[N];                                    \
	unsigned ns = op->nsrc;                                                \
	const uint32_t *a = src32(t, &op->src[0], ta, N);                      \
	const uint32_t *b = ns > 1 ? src32(t, &op->src[1], tb, N) : a;         \
	const uint32_t *c = ns > 2 ? src32(t, &op->src[2], tc, N) : a;         \
	uint32_t na = neg_mask(op, 0, true), nb = neg_mask(op, 1, true);       \
	uint32_t nc = neg_mask(op, 2, true), ka = keep_mask(op, 0);            \
	uint32_t kb = keep_mask(op, 1), kc = keep_mask(op, 2);                 \
	float v[N];                                                            \
	for (unsigned i = 0; i < N; i++) {                                     \
		float x = as_f(a[i], ka, na), y = as_f(b[i], kb, nb);          \
		float z = as_f(c[i], kc, nc);                                  \
		(void)y; (void)z;                                              \
		v[i] = nan_first(expr, x, y, z);                               \
	}                                                                      \
	if (op->inst.saturate)                                                 \
		for (unsigned i = 0; i < N; i++)                               \
			v[i] = sat_f(v[i]);                                    \
	for (unsigned i = 0; i < N; i++)                                       \
		r[i] = as_u(v[i]);                                             \
	st32(t, op, r, en, N);                                                 \
	return done(t, op, en);                                                \
}

#define I_OP(name, N, expr)                                                    \
static uint32_t name##_##N(struct eu_thread *t, const struct exec_op *op,     \
			   uint32_t en)                                        \
{                                                                              \
	uint32_t ta[N], tb[N], r[N];                                           \
	const uint32_t *a = src32(t, &op->src[0], ta, N);                      \
	const uint32_t *b = op->nsrc > 1 ? src32(t, &op->src[1], tb, N) : a;   \
	/* negate is two's complement: (x ^ m) - m with m all ones */          \
	uint32_t na = neg_mask(op, 0, false), nb = neg_mask(op, 1, false);     \
	for (unsigned i = 0; i < N; i++) {                                     \
		uint32_t x = (a[i] ^ na) - na, y = (b[i] ^ nb) - nb;           \
		(void)y;                                                       \
		r[i] = expr;                                                   \
	}                                                                      \
	st32(t, op, r, en, N);                                                 \
	return done(t, op, en);                                                \
}

/* mad is fused (no rounding of the product); hosts with FMA get it in
 * SIMD, others call fmaf per channel. */
#define FMA_CLONES GT_CLONES("fma", "default")
#define SIMD_CLONES GT_CLONES("avx2", "default")

SIMD_CLONES F_OP(f_add, 8, x + y)
SIMD_CLONES F_OP(f_add, 16, x + y)
SIMD_CLONES F_OP(f_mul, 8, x * y)
SIMD_CLONES F_OP(f_mul, 16, x * y)
FMA_CLONES F_OP(f_mad, 8, __builtin_fmaf(y, z, x))
FMA_CLONES F_OP(f_mad, 16, __builtin_fmaf(y, z, x))
/* lrp: src1 * src0 + src2 * (1 - src0), rounded step by step as in the
 * generic path (ISO C: no contraction) */
SIMD_CLONES F_OP(f_lrp, 8, y * x + z * (1.0f - x))
SIMD_CLONES F_OP(f_lrp, 16, y * x + z * (1.0f - x))

/* pln: src0.0 * x + src0.1 * y + src0.3 with x/y interleaved per 8
 * channels in src1 (see exec_alu.c); fused like the generic path. */
#define PLN_OP(N)                                                              \
static uint32_t f_pln_##N(struct eu_thread *t, const struct exec_op *op,      \
			  uint32_t en)                                         \
{                                                                              \
	if (!exec_fpmode_is_default(t))                                        \
		return exec_alu_generic(t, op, en);                            \
	const uint8_t *cf = t->regs + op->src[0].off[0];                       \
	uint32_t cb[4];                                                        \
	memcpy(cb, cf, 16);                                                    \
	uint32_t sg = neg_mask(op, 0, true);                                   \
	float p = as_f(cb[0], UINT32_MAX, sg), q = as_f(cb[1], UINT32_MAX, sg); \
	float c = as_f(cb[3], UINT32_MAX, sg);                                 \
	const uint32_t *xy = (const uint32_t *)(const void *)                  \
		(t->regs + op->src[1].off[0]);                                 \
	float v[N];                                                            \
	uint32_t r[N];                                                         \
	for (unsigned i = 0; i < N; i++) {                                     \
		unsigned base = (i / 8) * 16 + i % 8;                          \
		float x = as_f(xy[base], UINT32_MAX, 0);                       \
		float y = as_f(xy[base + 8], UINT32_MAX, 0);                   \
		v[i] = nan_first(nan_first(__builtin_fmaf(q, y,                \
						      __builtin_fmaf(p, x, c)), \
					   x, y, y), p, q, c);                 \
	}                                                                      \
	if (op->inst.saturate)                                                 \
		for (unsigned i = 0; i < N; i++)                               \
			v[i] = sat_f(v[i]);                                    \
	for (unsigned i = 0; i < N; i++)                                       \
		r[i] = as_u(v[i]);                                             \
	st32(t, op, r, en, N);                                                 \
	return done(t, op, en);                                                \
}
FMA_CLONES PLN_OP(8)
FMA_CLONES PLN_OP(16)
SIMD_CLONES I_OP(i_add, 8, x + y)
SIMD_CLONES I_OP(i_add, 16, x + y)
SIMD_CLONES I_OP(i_mul, 8, x * y)
SIMD_CLONES I_OP(i_mul, 16, x * y)
SIMD_CLONES I_OP(i_mov, 8, x)
SIMD_CLONES I_OP(i_mov, 16, x)
SIMD_CLONES I_OP(i_and, 8, x & y)
SIMD_CLONES I_OP(i_and, 16, x & y)
SIMD_CLONES I_OP(i_or, 8, x | y)
SIMD_CLONES I_OP(i_or, 16, x | y)
SIMD_CLONES I_OP(i_xor, 8, x ^ y)
SIMD_CLONES I_OP(i_xor, 16, x ^ y)
SIMD_CLONES I_OP(i_not, 8, ~x)
SIMD_CLONES I_OP(i_not, 16, ~x)
SIMD_CLONES I_OP(i_shl, 8, x << (y & 31))
SIMD_CLONES I_OP(i_shl, 16, x << (y & 31))
SIMD_CLONES I_OP(i_shr, 8, x >> (y & 31))
SIMD_CLONES I_OP(i_shr, 16, x >> (y & 31))
SIMD_CLONES I_OP(i_asr, 8, (uint32_t)((int32_t)x >> (y & 31)))
SIMD_CLONES I_OP(i_asr, 16, (uint32_t)((int32_t)x >> (y & 31)))
/* D/UD to F: the conversion rounds to nearest (cr0's reset state); in
 * another rounding mode (cr0 bits 5:4) the generic path converts */
SIMD_CLONES I_OP(i_d2f_rne, 8, as_u((float)(int32_t)x))
SIMD_CLONES I_OP(i_d2f_rne, 16, as_u((float)(int32_t)x))
SIMD_CLONES I_OP(i_ud2f_rne, 8, as_u((float)x))
SIMD_CLONES I_OP(i_ud2f_rne, 16, as_u((float)x))
#define TO_F_OP(name, N)                                                       \
static uint32_t name##_##N(struct eu_thread *t, const struct exec_op *op,     \
			   uint32_t en)                                        \
{                                                                              \
	if (!exec_fpmode_is_default(t))                                        \
		return exec_alu_generic(t, op, en);                            \
	return name##_rne_##N(t, op, en);                                      \
}
TO_F_OP(i_d2f, 8)
TO_F_OP(i_d2f, 16)
TO_F_OP(i_ud2f, 8)
TO_F_OP(i_ud2f, 16)

/* min/max (sel.l, sel.ge): a NaN operand loses; the result is flushed
 * like every float result of the generic path. */
static inline float keep_flush(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	x = (x & 0x7f800000u) ? x : (x & 0x80000000u);
	memcpy(&f, &x, 4);
	return f;
}
static inline float fmin_gen(float x, float y)
{
	return keep_flush(x != x ? y : y != y ? x : x < y ? x : y);
}
static inline float fmax_gen(float x, float y)
{
	return keep_flush(x != x ? y : y != y ? x : x >= y ? x : y);
}
SIMD_CLONES F_OP(f_min, 8, fmin_gen(x, y))
SIMD_CLONES F_OP(f_min, 16, fmin_gen(x, y))
SIMD_CLONES F_OP(f_max, 8, fmax_gen(x, y))
SIMD_CLONES F_OP(f_max, 16, fmax_gen(x, y))

/* F to D: round toward zero, clamp, NaN -> 0 */
static inline uint32_t f2d(uint32_t b)
{
	float f;
	memcpy(&f, &b, 4);
	if (f != f)
		return 0;
	if (f >= 2147483647.0f)
		return 0x7fffffffu;
	if (f <= -2147483648.0f)
		return 0x80000000u;
	return (uint32_t)(int32_t)f;
}
SIMD_CLONES I_OP(i_f2d, 8, f2d(x))
SIMD_CLONES I_OP(i_f2d, 16, f2d(x))

/* cmp on D or F: the flag gets the comparison for enabled channels, the
 * destination (if any) all ones or zero. One loop per condition so the
 * compiler can vectorise it. */
#define CMP_LOOP(T, OP)                                                        \
	for (unsigned i = 0; i < n; i++) {                                     \
		T x, y;                                                        \
		memcpy(&x, &a[i], 4);                                          \
		memcpy(&y, &b[i], 4);                                          \
		bits |= (uint32_t)(OP) << i;                                   \
	}

#define CMP_ALL(T)                                                             \
	switch (cond) {                                                        \
	case EU_COND_Z: CMP_LOOP(T, x == y) break;                             \
	case EU_COND_NZ: CMP_LOOP(T, !(x == y)) break;                         \
	case EU_COND_G: CMP_LOOP(T, x > y) break;                              \
	case EU_COND_GE: CMP_LOOP(T, x >= y) break;                            \
	case EU_COND_L: CMP_LOOP(T, x < y) break;                              \
	default: CMP_LOOP(T, x <= y) break;                                    \
	}

static inline uint32_t cmp_bits(unsigned cond, bool flt, const uint32_t *a,
				const uint32_t *b, unsigned n)
{
	uint32_t bits = 0;
	if (flt)
		CMP_ALL(float)
	else
		CMP_ALL(int32_t)
	return bits;
}

static uint32_t fast_cmp(struct eu_thread *t, const struct exec_op *op,
			 uint32_t en)
{
	uint32_t ta[16], tb[16], a[16], b[16];
	unsigned n = op->exec_size;
	bool flt = op->src[0].type == EU_TYPE_F;
	if (flt && !exec_fpmode_is_default(t))
		return exec_alu_generic(t, op, en);
	const uint32_t *pa = src32(t, &op->src[0], ta, n);
	const uint32_t *pb = src32(t, &op->src[1], tb, n);
	for (unsigned i = 0; i < n; i++) {
		a[i] = flt ? flush_bits(pa[i]) : pa[i];
		b[i] = flt ? flush_bits(pb[i]) : pb[i];
	}
	uint32_t bits = cmp_bits(op->inst.cond, flt, a, b, n);
	exec_set_flag_bits(t, op, en, bits);
	if (op->dst.kind == DST_DIRECT) {
		uint32_t r[16];
		for (unsigned i = 0; i < n; i++)
			r[i] = (bits >> i) & 1 ? UINT32_MAX : 0;
		st32(t, op, r, en, n);
	}
	return done(t, op, en);
}

/* math on F rows: the same libm functions as the generic path, without
 * its per-channel type dispatch. */
#define MATH_OP(N)                                                             \
static uint32_t f_math_##N(struct eu_thread *t, const struct exec_op *op,     \
			   uint32_t en)                                        \
{                                                                              \
	if (!exec_fpmode_is_default(t))                                        \
		return exec_alu_generic(t, op, en);                            \
	uint32_t ta[N], tb[N], r[N];                                           \
	const uint32_t *a = src32(t, &op->src[0], ta, N);                      \
	const uint32_t *b = op->nsrc > 1 ? src32(t, &op->src[1], tb, N) : a;   \
	uint32_t na = neg_mask(op, 0, true), nb = neg_mask(op, 1, true);       \
	uint32_t ka = keep_mask(op, 0), kb = keep_mask(op, 1);                 \
	unsigned fn = op->inst.math_fn;                                        \
	bool sat = op->inst.saturate;                                          \
	for (unsigned i = 0; i < N; i++) {                                     \
		if (!((en >> i) & 1))                                          \
			continue;                                              \
		union exec_val x, y;                                           \
		x.f = as_f(a[i], ka, na);                                      \
		y.f = as_f(b[i], kb, nb);                                      \
		float v = exec_math_float(fn, DOM_F, false, x, y).f;           \
		r[i] = flush_always(sat ? sat_f(v) : v);                       \
	}                                                                      \
	st32(t, op, r, en, N);                                                 \
	return done(t, op, en);                                                \
}

static inline uint32_t flush_always(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	return (x & 0x7f800000u) ? x : (x & 0x80000000u);
}
MATH_OP(8)
MATH_OP(16)

/* predicated sel: the flag chooses src0 or src1 per channel (F results
 * are flushed like every float result of the generic path) */
#define SEL_OP(N)                                                              \
static uint32_t sel_pred_##N(struct eu_thread *t, const struct exec_op *op,   \
			     uint32_t en)                                      \
{                                                                              \
	bool flt = op->src[0].type == EU_TYPE_F;                               \
	if (flt && !exec_fpmode_is_default(t))                                 \
		return exec_alu_generic(t, op, en);                            \
	uint32_t ta[N], tb[N], r[N];                                           \
	const uint32_t *a = src32(t, &op->src[0], ta, N);                      \
	const uint32_t *b = src32(t, &op->src[1], tb, N);                      \
	uint32_t m = exec_pred_mask(t, op);                                    \
	for (unsigned i = 0; i < N; i++) {                                     \
		uint32_t v = (m >> i) & 1 ? a[i] : b[i];                       \
		r[i] = flt && !(v & 0x7f800000u) ? (v & 0x80000000u) : v;      \
	}                                                                      \
	st32(t, op, r, en, N);                                                 \
	return done(t, op, en);                                                \
}
SIMD_CLONES SEL_OP(8)
SIMD_CLONES SEL_OP(16)

static bool src_ok(const struct exec_src *s, unsigned type)
{
	if (s->type != type || (s->abs && type != EU_TYPE_F))
		return false;
	if (s->kind == SRC_IMM)
		return s->scalar;
	return s->kind == SRC_DIRECT && !s->reads_special && s->off[0] % 4 == 0 &&
	       (s->contiguous || s->scalar);
}

exec_fn exec_fast_select(const struct exec_op *op)
{
	const struct eu_inst *in = &op->inst;
	unsigned n = op->exec_size;
	if ((n != 8 && n != 16) || in->acc_wr || op->dst.is_acc ||
	    op->dst.is_cr0 || op->dst.is_ip)
		return NULL;
	/* .sat only on float add/mul/mad/math (applied in F_OP/MATH_OP) */
	if (in->saturate && !(op->src[0].type == EU_TYPE_F && op->dst.type == EU_TYPE_F &&
			      (op->opcode == EU_OP_ADD || op->opcode == EU_OP_MUL ||
			       op->opcode == EU_OP_MAD || op->opcode == EU_OP_MATH ||
			       op->opcode == EU_OP_LRP || op->opcode == EU_OP_PLN)))
		return NULL;
	if (op->opcode == EU_OP_PLN) {
		const struct exec_src *c = &op->src[0], *xy = &op->src[1];
		bool ok = c->kind == SRC_DIRECT && c->type == EU_TYPE_F && !c->abs &&
			  c->off[0] % 4 == 0 && c->off[0] + 16 <= EU_GRF_BYTES &&
			  xy->kind == SRC_DIRECT && xy->type == EU_TYPE_F && !xy->neg &&
			  !xy->abs && xy->off[0] % 4 == 0 &&
			  xy->off[0] + (n / 8) * 2 * EU_REG_SIZE <= EU_GRF_BYTES &&
			  op->dst.kind == DST_DIRECT && op->dst.type == EU_TYPE_F &&
			  op->dst.off[0] % 4 == 0 && op->dst.contiguous &&
			  op->dst.wmask == op->full && in->cond == EU_COND_NONE;
		return !ok ? NULL : n == 16 ? f_pln_16 : f_pln_8;
	}
	unsigned ty = op->src[0].type;
	bool flt = ty == EU_TYPE_F;
	if (!flt && ty != EU_TYPE_D && ty != EU_TYPE_UD)
		return NULL;
	bool conv = op->opcode == EU_OP_MOV && op->dst.type != ty &&
		    (flt || op->dst.type == EU_TYPE_F);
	if (op->opcode == EU_OP_SHL || op->opcode == EU_OP_SHR || op->opcode == EU_OP_ASR) {
		/* the count may be D or UD whatever src0 is */
		unsigned ct = op->src[1].type;
		if (ct != EU_TYPE_D && ct != EU_TYPE_UD)
			return NULL;
		if (!src_ok(&op->src[0], ty) || !src_ok(&op->src[1], ct) ||
		    op->src[0].neg || op->src[1].neg)
			return NULL;
		if (op->opcode == EU_OP_ASR && ty != EU_TYPE_D)
			return NULL;
	} else {
		for (unsigned s = 0; s < op->nsrc; s++)
			if (!src_ok(&op->src[s], ty) || (op->logic && op->src[s].neg))
				return NULL;
	}
	if (op->opcode == EU_OP_CMP) {
		bool dst_ok = op->dst.kind == DST_NULL ||
			      (op->dst.kind == DST_DIRECT && op->dst.contiguous &&
			       op->dst.size == 4 && op->dst.wmask == op->full);
		if (!dst_ok || in->cond < EU_COND_Z || in->cond > EU_COND_LE ||
		    op->src[0].neg || op->src[1].neg || op->src[0].abs || op->src[1].abs ||
		    (ty == EU_TYPE_UD && in->cond >= EU_COND_G))
			return NULL;
		return fast_cmp;
	}
	bool dst_row = op->dst.kind == DST_DIRECT && op->dst.off[0] % 4 == 0 &&
		       op->dst.contiguous && op->dst.wmask == op->full &&
		       op->dst.type == ty;
	if (op->opcode == EU_OP_SEL && in->pred != EU_PRED_NONE &&
	    in->cond == EU_COND_NONE) {
		if (!dst_row || op->src[0].neg || op->src[1].neg || op->src[0].abs ||
		    op->src[1].abs)
			return NULL;
		return n == 16 ? sel_pred_16 : sel_pred_8;
	}
	if (op->opcode == EU_OP_MATH) {
		unsigned fn = in->math_fn;
		bool fl = fn == EU_MATH_INV || fn == EU_MATH_LOG || fn == EU_MATH_EXP ||
			  fn == EU_MATH_SQRT || fn == EU_MATH_RSQ || fn == EU_MATH_SIN ||
			  fn == EU_MATH_COS || fn == EU_MATH_FDIV || fn == EU_MATH_POW;
		if (!flt || !fl || !dst_row)
			return NULL;
		return n == 16 ? f_math_16 : f_math_8;
	}
	if (op->opcode == EU_OP_SEL) {
		/* min/max only; a predicated sel chooses by flag (generic) */
		if (!flt || in->pred != EU_PRED_NONE || !dst_row)
			return NULL;
		if (in->cond == EU_COND_L)
			return n == 16 ? f_min_16 : f_min_8;
		if (in->cond == EU_COND_GE)
			return n == 16 ? f_max_16 : f_max_8;
		return NULL;
	}
	if (in->cond != EU_COND_NONE || op->dst.kind != DST_DIRECT || op->dst.off[0] % 4 ||
	    !op->dst.contiguous || op->dst.wmask != op->full)
		return NULL;
	bool n16 = n == 16;
	if (conv) {
		/* mov F <-> D/UD: one conversion, no modifier */
		if (op->src[0].neg || op->src[0].abs)
			return NULL;
		if (flt && op->dst.type == EU_TYPE_D)
			return n16 ? i_f2d_16 : i_f2d_8;
		if (ty == EU_TYPE_D)
			return n16 ? i_d2f_16 : i_d2f_8;
		if (ty == EU_TYPE_UD)
			return n16 ? i_ud2f_16 : i_ud2f_8;
		return NULL;
	}
	/* otherwise the destination has the sources' type */
	if (flt ? op->dst.type != EU_TYPE_F
		: op->dst.type != EU_TYPE_D && op->dst.type != EU_TYPE_UD)
		return NULL;
	switch (op->opcode) {
	case EU_OP_ADD:
		return flt ? (n16 ? f_add_16 : f_add_8) : (n16 ? i_add_16 : i_add_8);
	case EU_OP_MUL:
		return flt ? (n16 ? f_mul_16 : f_mul_8) : (n16 ? i_mul_16 : i_mul_8);
	case EU_OP_MAD:
		return flt ? (n16 ? f_mad_16 : f_mad_8) : NULL;
	case EU_OP_LRP:
		return flt ? (n16 ? f_lrp_16 : f_lrp_8) : NULL;
	case EU_OP_MOV:
		/* a raw copy: no modifier, F to F or D/UD to D/UD */
		if (op->src[0].neg || op->src[0].abs)
			return NULL;
		return n16 ? i_mov_16 : i_mov_8;
	case EU_OP_AND: return flt ? NULL : n16 ? i_and_16 : i_and_8;
	case EU_OP_OR: return flt ? NULL : n16 ? i_or_16 : i_or_8;
	case EU_OP_XOR: return flt ? NULL : n16 ? i_xor_16 : i_xor_8;
	case EU_OP_NOT: return flt ? NULL : n16 ? i_not_16 : i_not_8;
	case EU_OP_SHL: return n16 ? i_shl_16 : i_shl_8;
	case EU_OP_SHR: return n16 ? i_shr_16 : i_shr_8;
	case EU_OP_ASR: return n16 ? i_asr_16 : i_asr_8;

	default:
		return NULL;
	}
}
