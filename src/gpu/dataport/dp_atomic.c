/* The atomic messages (PRM vol. 7 "Untyped Atomic Operation", "Typed
 * Atomic Operation", "Untyped Atomic Float Operation"): a read-modify-
 * write of one dword per slot, done with the host's atomic compare-
 * exchange so threads running at once see each other's updates. Integer
 * operations (descriptor 11:8, Mesa's BRW_AOP_*): 1 AND, 2 OR, 3 XOR, 4
 * MOV, 5 INC, 6 DEC, 7 ADD, 8 SUB (old - src0), 9 REVSUB (src0 - old), 10
 * IMAX, 11 IMIN, 12 UMAX, 13 UMIN, 14 CMPWR (src0 == old: src1), 15
 * PREDEC (returns the new value). Float (BRW_AOP_F*): 1 FMAX, 2 FMIN, 3
 * FCMPWR (float min/max: fminmax below). Descriptor 12: SIMD8 (untyped) or the upper slot group (typed),
 * 13: return the old values. Payload: optional header, addresses, src0,
 * src1, one register per 8 slots each. */
#include <math.h>
#include <string.h>

#include "gpu/dataport/dp_priv.h"

unsigned dp_aop_sources(unsigned op)
{
	return op == 5 || op == 6 || op == 15 ? 0 : op == 14 ? 2 : 1;
}

unsigned dp_fop_sources(unsigned op)
{
	return op == 3 ? 2 : 1;
}

int dp_aop_apply(unsigned op, uint32_t old, uint32_t src0, uint32_t src1, uint32_t *result)
{
	int32_t so = (int32_t)old, s0 = (int32_t)src0;
	switch (op) {
	case 1: *result = old & src0; break;
	case 2: *result = old | src0; break;
	case 3: *result = old ^ src0; break;
	case 4: *result = src0; break;
	case 5: *result = old + 1; break;
	case 6: case 15: *result = old - 1; break;
	case 7: *result = old + src0; break;
	case 8: *result = old - src0; break;
	case 9: *result = src0 - old; break;
	case 10: *result = (uint32_t)(so > s0 ? so : s0); break;
	case 11: *result = (uint32_t)(so < s0 ? so : s0); break;
	case 12: *result = old > src0 ? old : src0; break;
	case 13: *result = old < src0 ? old : src0; break;
	case 14: *result = old == src0 ? src1 : old; break;
	default: return -1;
	}
	return 0;
}

static float as_f(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static bool is_snan(uint32_t u)
{
	return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) && !(u & 0x00400000u);
}

/* FMIN/FMAX as the hardware specification piglit's
 * intel_shader_atomic_float_minmax tests quote: a signaling NaN wins (the
 * source's first, unchanged), a quiet NaN gives the other operand, -0 is
 * below +0. */
static uint32_t fminmax(uint32_t a, uint32_t b, bool max)
{
	float fa = as_f(a), fb = as_f(b);
	if (is_snan(b))
		return b;
	if (is_snan(a))
		return a;
	if (isnan(fb))
		return a;
	if (isnan(fa))
		return b;
	if (fa == fb)                       /* equal, or +0 against -0 */
		return max ? (a & b) : (a | b); /* the sign bit decides */
	return (fa > fb) == max ? a : b;
}

int dp_fop_apply(unsigned op, uint32_t old, uint32_t src0, uint32_t src1, uint32_t *result)
{
	switch (op) {
	case 1: *result = fminmax(old, src0, true); break;
	case 2: *result = fminmax(old, src0, false); break;
	/* a float comparison: NaN equals nothing, -0 equals +0 */
	case 3: *result = as_f(old) == as_f(src0) ? src1 : old; break;
	default: return -1;
	}
	return 0;
}

int dp_atomic_slot(struct dp_msg *m, const struct dp_surface *s, uint64_t off, bool is_float,
		   unsigned op, uint32_t src0, uint32_t src1, uint32_t *ret, unsigned slot)
{
	bool oob;
	uint32_t *p = dp_atomic_ptr(m, s, off, &oob);
	if (!p) {
		if (!oob)
			return -1;
		/* out of bounds: nothing changes, the lane returns 0 */
		m->oob |= 1u << slot;
		*ret = 0;
		dp_tr(m, " %u:0x%llx oob", slot, (unsigned long long)off);
		return 0;
	}
	uint32_t old = __atomic_load_n(p, __ATOMIC_RELAXED), val;
	do {
		if (is_float ? dp_fop_apply(op, old, src0, src1, &val)
			     : dp_aop_apply(op, old, src0, src1, &val))
			return dp_fail(m, "reserved atomic operation %u", op);
	} while (!__atomic_compare_exchange_n(p, &old, val, false, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	*ret = !is_float && op == 15 ? val : old;
	dp_tr(m, " %u:0x%llx 0x%x->0x%x", slot, (unsigned long long)off, old, val);
	return 0;
}

/* The common part: addresses at payload register areg (off[] already
 * computed by the caller), sources after them. */
static int atomic_slots(struct dp_msg *m, const struct dp_surface *s, const uint64_t *off,
			const uint8_t *skip, unsigned simd, bool is_float, unsigned op,
			unsigned src_reg)
{
	static const char *const aops[16] = { "?", "and", "or", "xor", "mov", "inc", "dec", "add",
					      "sub", "revsub", "imax", "imin", "umax", "umin",
					      "cmpwr", "predec" };
	static const char *const fops[4] = { "?", "fmax", "fmin", "fcmpwr" };
	unsigned regs = simd / 8, nsrc = is_float ? dp_fop_sources(op) : dp_aop_sources(op);
	bool ret_data = (m->ctrl >> 5) & 1;
	dp_tr(m, ": SIMD%u %s%s:", simd, is_float ? fops[op & 3] : aops[op & 15],
	      ret_data ? " return" : "");
	uint32_t slots = dp_slots(m, simd);
	for (unsigned i = 0; i < simd; i++) {
		if (!(slots >> i & 1) || (skip && skip[i] == 1))
			continue;
		if (skip && skip[i] == 2) {
			/* coordinates out of bounds: nothing changes, 0 returns */
			m->oob |= 1u << i;
			if (ret_data)
				dp_set_slot(m, 0, i, 0);
			dp_tr(m, " %u:oob", i);
			continue;
		}
		uint32_t s0 = nsrc > 0 ? dp_slot(m, src_reg, i) : 0;
		uint32_t s1 = nsrc > 1 ? dp_slot(m, src_reg + regs, i) : 0;
		uint32_t r;
		if (dp_atomic_slot(m, s, off[i], is_float, op, s0, s1, &r, i))
			return -1;
		if (ret_data)
			dp_set_slot(m, 0, i, r);
	}
	return 0;
}

static int untyped(struct dp_msg *m, bool is_float)
{
	unsigned op = m->ctrl & 15, simd = (m->ctrl >> 4) & 1 ? 8 : 16, regs = simd / 8;
	if (is_float ? op < 1 || op > 3 : op < 1)
		return dp_fail(m, "reserved atomic operation %u", op);
	unsigned nsrc = is_float ? dp_fop_sources(op) : dp_aop_sources(op), h = m->s->header;
	bool ret_data = (m->ctrl >> 5) & 1;
	if (dp_check_len(m, h + regs * (1 + nsrc), ret_data ? regs : 0))
		return -1;
	struct dp_surface s;
	if (dp_surface_open(m, &s))
		return -1;
	uint64_t off[DP_MAX_SLOTS];
	for (unsigned i = 0; i < simd; i++)
		off[i] = dp_slot(m, h, i);
	dp_tr_surface(m, &s);
	return atomic_slots(m, &s, off, NULL, simd, is_float, op, h + regs);
}

int dp_untyped_atomic(struct dp_msg *m)
{
	return untyped(m, false);
}

int dp_untyped_atomic_float(struct dp_msg *m)
{
	return untyped(m, true);
}

int dp_typed_atomic(struct dp_msg *m)
{
	unsigned op = m->ctrl & 15;
	if (op < 1)
		return dp_fail(m, "reserved atomic operation 0");
	unsigned nsrc = dp_aop_sources(op), h = m->s->header;
	bool ret_data = (m->ctrl >> 5) & 1;
	if (m->s->mlen < h + nsrc + 1 || m->s->mlen - h - nsrc > 4)
		return dp_fail(m, "message length %u leaves no room for 1 to 4 coordinates",
			       m->s->mlen);
	unsigned ncoord = m->s->mlen - h - nsrc;
	if (dp_check_len(m, m->s->mlen, ret_data ? 1 : 0))
		return -1;
	struct dp_surface s;
	if (dp_surface_open(m, &s) || dp_surface_typed(m, &s))
		return -1;
	if (s.l->type != SURF_NULL && s.fi->bpe != 32)
		return dp_fail(m, "atomic on a %u-bit format (%s)", s.fi->bpe, s.fi->name);
	uint64_t off[8];
	uint8_t skip[8];   /* 0: do, 1: masked by the header, 2: out of bounds */
	uint32_t hmask = dp_typed_header_mask(m, h, (m->ctrl >> 4) & 1);
	for (unsigned i = 0; i < 8; i++) {
		uint32_t c[4] = { 0, 0, 0, 0 };
		for (unsigned k = 0; k < ncoord; k++)
			c[k] = dp_slot(m, h + k, i);
		bool oob = false;
		skip[i] = !(hmask >> i & 1);
		if (!skip[i] && dp_typed_offset(m, &s, c, &off[i], &oob))
			return -1;
		if (!skip[i] && oob)
			skip[i] = 2;
	}
	dp_tr_surface(m, &s);
	return atomic_slots(m, &s, off, skip, 8, false, op, h + ncoord);
}
