/* The fixed-function tessellator: the D3D11 reference tessellation the
 * GEN8/9 TE implements (PRM vol. 2 "Tessellation Engine"; the rules are
 * restated in docs/tessellation.md). Factors are clamped by partitioning,
 * rounded up for INTEGER, converted to 16.16 fixed point; each factor
 * gives a row of points along its edge or axis ("1D placement"); points
 * are emitted as the outer ring, then inner rings spiralling in, then the
 * centre; primitives ring by ring, the first ring stitched to the outer
 * edges by ruler-function order, later rings as regular trapezoids. */
#include <math.h>
#include <stdbool.h>

#include "gpu/render/te_tessellator.h"

typedef uint32_t fxp;             /* unsigned 16.16 */
#define FXP_ONE 0x10000u
#define FXP_HALF 0x8000u
#define FXP_THIRD 0x5555u
#define FXP_TWO_THIRDS 0xaaaau

static fxp fxp_floor(fxp x) { return x & 0x7fff0000u; }
static fxp fxp_ceil(fxp x) { return (x & 0xffffu) ? fxp_floor(x) + FXP_ONE : x; }

/* float -> 16.16, rounded to nearest even (the factors are in [1, 64]). */
static fxp to_fxp(float x) { return (fxp)nearbyint((double)x * 65536.0); }

/* round(2^16 / n): the reciprocal of a segment count. */
static fxp fxp_recip(unsigned n) { return n ? (FXP_ONE + n / 2) / n : 0xffffffffu; }

/* Clamp with NaN going to the lower bound (IEEE 754R min/max semantics). */
static float clampf(float x, float lo, float hi)
{
	if (!(x >= lo))
		return lo;
	return x > hi ? hi : x;
}

static unsigned remove_msb(unsigned v)
{
	for (int b = 31; b >= 0; b--)
		if (v & (1u << b))
			return v & ~(1u << b);
	return 0;
}

/* What 1D placement needs to know of one factor. */
struct factor_ctx {
	bool odd;                   /* parity the factor is tessellated with */
	fxp frac;                   /* fraction of half the factor */
	unsigned half_points;       /* points on half the edge */
	unsigned split;             /* point index where floor and ceil split */
	fxp inv_floor, inv_ceil;    /* 1 / segments of the floor / ceil factor */
	unsigned points;            /* points on the whole edge */
};

static struct factor_ctx factor_ctx(fxp f, bool odd)
{
	struct factor_ctx c = { .odd = odd };
	fxp half = (f + 1) / 2;
	if (odd || half == FXP_HALF)  /* factor 1 under even parity acts as odd */
		half += FXP_HALF;
	fxp fl = fxp_floor(half), ce = fxp_ceil(half);
	c.frac = half - fl;
	c.half_points = ce >> 16;
	if (ce == fl)
		c.split = c.half_points + 1;          /* never reached */
	else if (odd)
		c.split = fl == FXP_ONE ? 0 : (remove_msb((fl >> 16) - 1) << 1) + 1;
	else
		c.split = (remove_msb(fl >> 16) << 1) + 1;
	unsigned nfloor = (fl * 2) >> 16, nceil = (ce * 2) >> 16;
	if (odd) {
		nfloor--;
		nceil--;
	}
	c.inv_floor = fxp_recip(nfloor);
	c.inv_ceil = fxp_recip(nceil);
	if (odd)
		c.points = (fxp_ceil(FXP_HALF + (f + 1) / 2) * 2) >> 16;
	else
		c.points = ((fxp_ceil((f + 1) / 2) * 2) >> 16) + 1;
	return c;
}

/* Location in [0, 1] of point i of a row: the first half lerps between
 * the floor and ceil factors' spacing, the second half mirrors it. */
static fxp place(const struct factor_ctx *c, unsigned i)
{
	bool flip = false;
	if (i >= c->half_points) {
		i = 2 * c->half_points - i - (c->odd ? 1 : 0);
		flip = true;
	}
	if (i == c->half_points)
		return FXP_HALF;
	unsigned on_floor = i > c->split ? i - 1 : i;
	uint64_t lf = (uint64_t)on_floor * c->inv_floor, lc = (uint64_t)i * c->inv_ceil;
	fxp loc = (fxp)((lf * (FXP_ONE - c->frac) + lc * c->frac + FXP_HALF) >> 16);
	return flip ? FXP_ONE - loc : loc;
}

struct tess {
	struct te_output *out;
	bool cw;
};

static void point(struct tess *t, fxp u, fxp v)
{
	struct te_output *o = t->out;
	if (o->npoints < TE_MAX_POINTS) {
		o->u[o->npoints] = (float)u / 65536.0f;
		o->v[o->npoints] = (float)v / 65536.0f;
	}
	o->npoints++;
}

static void index1(struct tess *t, uint32_t i)
{
	struct te_output *o = t->out;
	if (o->nindices < TE_MAX_INDICES)
		o->index[o->nindices] = i;
	o->nindices++;
}

/* A triangle given clockwise, stored in the output winding. */
static void tri(struct tess *t, uint32_t a, uint32_t b, uint32_t c)
{
	index1(t, a);
	index1(t, t->cw ? b : c);
	index1(t, t->cw ? c : b);
}

/* ---- connectivity between two rows of points ---- */

/* Position i of a row: the rows are index arrays. */
struct row {
	const uint32_t *p;
	unsigned n;
};

enum diagonals { DIAG_INSIDE_TO_OUTSIDE, DIAG_INSIDE_TO_OUTSIDE_EXCEPT_MIDDLE, DIAG_MIRRORED };

/* Rows of n inside and n (or n + 2 with trapezoid) outside points. */
static void stitch_regular(struct tess *t, bool trapezoid, enum diagonals d, struct row in,
			   struct row out)
{
	const uint32_t *I = in.p, *O = out.p;
	unsigned i = 0, o = 0, n = in.n, p;
	if (trapezoid) {
		tri(t, O[o], O[o + 1], I[i]);
		o++;
	}
	switch (d) {
	case DIAG_INSIDE_TO_OUTSIDE:
		for (p = 0; p + 1 < n; p++, i++, o++) {
			tri(t, I[i], O[o], O[o + 1]);
			tri(t, I[i], O[o + 1], I[i + 1]);
		}
		break;
	case DIAG_INSIDE_TO_OUTSIDE_EXCEPT_MIDDLE:
		for (p = 0; p + 1 < n / 2; p++, i++, o++) {
			tri(t, O[o], O[o + 1], I[i]);
			tri(t, I[i], O[o + 1], I[i + 1]);
		}
		tri(t, O[o], I[i + 1], I[i]);
		tri(t, O[o], O[o + 1], I[i + 1]);
		i++, o++, p += 2;
		for (; p < n; p++, i++, o++) {
			tri(t, O[o], O[o + 1], I[i]);
			tri(t, I[i], O[o + 1], I[i + 1]);
		}
		break;
	case DIAG_MIRRORED:
		for (p = 0; p < n / 2; p++, i++, o++) {
			tri(t, O[o], I[i + 1], I[i]);
			tri(t, O[o], O[o + 1], I[i + 1]);
		}
		for (; p + 1 < n; p++, i++, o++) {
			tri(t, I[i], O[o], O[o + 1]);
			tri(t, I[i], O[o + 1], I[i + 1]);
		}
		break;
	}
	if (trapezoid)
		tri(t, O[o], O[o + 1], I[i]);
}

/* Where point k of a half edge ends up at the largest factor when points
 * are split in ruler-function order (D3D11 tessellator; factors to 64). */
static const uint8_t ruler_position[33] = {
	0, 32, 16, 8, 17, 4, 18, 9, 19, 2, 20, 10, 21, 5, 22, 11, 23,
	1, 24, 12, 25, 6, 26, 13, 27, 3, 28, 14, 29, 7, 30, 15, 31,
};

/* The first ring against the outer edge, whose factors differ: a point
 * advances on the side whose half has reached it in ruler order, then the
 * middle, then the second half in mirror order. */
static void stitch_transition(struct tess *t, const struct factor_ctx *inc, struct row in,
			      const struct factor_ctx *outc, struct row out)
{
	const uint32_t *I = in.p, *O = out.p;
	unsigned i = 0, o = 0;
	unsigned in_half = inc->half_points - (inc->odd ? 1 : 0);
	unsigned out_half = outc->half_points - (outc->odd ? 1 : 0);

#define ADVANCE_OUT() (tri(t, O[o], O[o + 1], I[i]), o++)
#define ADVANCE_IN() (tri(t, I[i], O[o], I[i + 1]), i++)
	if (ruler_position[0] < out_half)
		ADVANCE_OUT();
	for (unsigned k = 1; k <= 32; k++) {
		if (ruler_position[k] < in_half)
			ADVANCE_IN();
		if (ruler_position[k] < out_half)
			ADVANCE_OUT();
	}
	if (inc->odd != outc->odd || inc->odd) {
		if (inc->odd == outc->odd) {      /* both odd: a quad in the middle */
			tri(t, I[i], O[o], I[i + 1]);
			tri(t, I[i + 1], O[o], O[o + 1]);
			i++, o++;
		} else if (!inc->odd) {           /* a triangle pointing inside */
			tri(t, I[i], O[o], O[o + 1]);
			o++;
		} else {                          /* a triangle pointing outside */
			ADVANCE_IN();
		}
	}
	for (unsigned k = 32; k >= 1; k--) {
		if (ruler_position[k] < out_half)
			ADVANCE_OUT();
		if (ruler_position[k] < in_half)
			ADVANCE_IN();
	}
	if (ruler_position[0] < out_half)
		ADVANCE_OUT();
#undef ADVANCE_OUT
#undef ADVANCE_IN
}

/* ---- rings: where the points of each edge of a ring are ---- */

enum ring_shape { RING_NORMAL, RING_ROW, RING_COLUMN };

struct ring {
	uint32_t start;          /* index of its first point */
	unsigned nedges;         /* 3 or 4 */
	unsigned n[4];           /* points per edge, both corners included */
	enum ring_shape shape;   /* quads: a degenerate ring of one row/column */
};

/* Point k of edge e (edges run clockwise, the last one ends where the
 * first starts). A degenerate row (V edges of 1 point) is stored once,
 * U increasing; a degenerate column once, V decreasing. */
static uint32_t ring_point(const struct ring *r, unsigned e, unsigned k)
{
	if (r->shape == RING_ROW) {
		unsigned last = r->n[1] - 1;
		switch (e) {
		case 0: return r->start;
		case 1: return r->start + k;
		case 2: return r->start + last;
		default: return r->start + last - k;
		}
	}
	if (r->shape == RING_COLUMN) {
		unsigned last = r->n[0] - 1;
		switch (e) {
		case 0: return r->start + k;
		case 1: return r->start + last;
		case 2: return r->start + last - k;
		default: return r->start;
		}
	}
	uint32_t off = 0;
	for (unsigned j = 0; j < e; j++)
		off += r->n[j] - 1;
	if (e == r->nedges - 1 && k == r->n[e] - 1)
		return r->start;
	return r->start + off + k;
}

static unsigned ring_size(const struct ring *r)
{
	unsigned s = 0;
	for (unsigned e = 0; e < r->nedges; e++)
		s += r->n[e] - 1;
	return s;
}

static struct row ring_row(const struct ring *r, unsigned e, uint32_t *buf, bool reversed)
{
	for (unsigned k = 0; k < r->n[e]; k++)
		buf[reversed ? r->n[e] - 1 - k : k] = ring_point(r, e, k);
	return (struct row){ buf, r->n[e] };
}

/* Stitch each edge of ring `in` to the same edge of ring `out`. */
static void stitch_ring(struct tess *t, const struct ring *out, const struct factor_ctx *outc,
			const struct ring *in, const struct factor_ctx *inc, bool first)
{
	uint32_t ibuf[70], obuf[70];          /* rows of <= 65 points */
	for (unsigned e = 0; e < in->nedges; e++) {
		struct row ri = ring_row(in, e, ibuf, false), ro = ring_row(out, e, obuf, false);
		if (first)
			stitch_transition(t, &inc[e], ri, &outc[e], ro);
		else
			stitch_regular(t, true, DIAG_MIRRORED, ri, ro);
	}
}

/* ---- factor processing shared by the domains ---- */

struct limits {
	float lo, hi;
};

static struct limits part_limits(enum te_partitioning p)
{
	switch (p) {
	case TE_PART_EVEN_FRACTIONAL: return (struct limits){ 2.0f, 64.0f };
	case TE_PART_ODD_FRACTIONAL: return (struct limits){ 1.0f, 63.0f };
	default: return (struct limits){ 1.0f, 64.0f };
	}
}

/* Parity of a clamped factor: INTEGER takes the rounded factor's, an
 * inside factor of 1 counting as even; fractional ones the mode's. */
static bool factor_odd(enum te_partitioning p, float f, bool inside)
{
	if (p == TE_PART_INTEGER)
		return ((int)f & 1) && !(inside && f == 1.0f);
	return p == TE_PART_ODD_FRACTIONAL;
}

/* Clamps and rounds outer[0..nout) and inner[0..nin); false: culled. */
static bool process_factors(enum te_partitioning p, const struct te_factors *f, unsigned nout,
			    unsigned nin, float *outer, float *inner)
{
	struct limits l = part_limits(p);
	for (unsigned e = 0; e < nout; e++)
		if (!(f->outer[e] > 0))
			return false;
	bool frame = false;
	const float one_plus_half_eps = 1.0f + 1.0f / 131072.0f;
	for (unsigned e = 0; e < nout; e++) {
		outer[e] = clampf(f->outer[e], l.lo, l.hi);
		if (p == TE_PART_INTEGER)
			outer[e] = ceilf(outer[e]);
		frame |= outer[e] > one_plus_half_eps;
	}
	/* odd fractional: if any factor stays above 1 in fixed point, the
	 * inside ones are kept above 1 so the patch gets a picture frame
	 * (tri patches look at the outer factors only) */
	for (unsigned a = 0; nout == 4 && a < nin; a++)
		frame |= f->inner[a] > one_plus_half_eps;
	float lo = l.lo;
	if (p == TE_PART_ODD_FRACTIONAL && frame)
		lo = 1.0f + 1.0f / 65536.0f;
	for (unsigned a = 0; a < nin; a++) {
		inner[a] = clampf(f->inner[a], lo, l.hi);
		if (p == TE_PART_INTEGER)
			inner[a] = ceilf(inner[a]);
	}
	return true;
}

/* ---- the domains ---- */

static void all_points_as(struct tess *t, enum te_topology topo)
{
	struct te_output *o = t->out;
	if (topo == TE_TOPO_POINT) {
		o->prim_vertices = 1;
		for (uint32_t i = 0; i < o->npoints; i++)
			index1(t, i);
	} else {          /* LINE: the points in order as a line list */
		o->prim_vertices = 2;
		for (uint32_t i = 1; i < o->npoints; i++) {
			index1(t, i - 1);
			index1(t, i);
		}
	}
}

static void quad_domain(struct tess *t, enum te_partitioning p, enum te_topology topo,
			const struct te_factors *f)
{
	float outer[4], inner[2];
	if (!process_factors(p, f, 4, 2, outer, inner))
		return;
	struct factor_ctx oc[4], ic[2];
	fxp of[4], inf[2];
	bool all_one = true;
	for (int e = 0; e < 4; e++) {
		of[e] = to_fxp(outer[e]);
		oc[e] = factor_ctx(of[e], factor_odd(p, outer[e], false));
		all_one &= of[e] == FXP_ONE;
	}
	for (int a = 0; a < 2; a++) {
		inf[a] = to_fxp(inner[a]);
		ic[a] = factor_ctx(inf[a], factor_odd(p, inner[a], true));
		all_one &= inf[a] == FXP_ONE;
		unsigned min = ic[a].odd ? 4 : 3;  /* inside 1: a degenerate ring */
		if (ic[a].points < min)
			ic[a].points = min;
	}
	if (all_one && p != TE_PART_EVEN_FRACTIONAL) {
		point(t, 0, 0);
		point(t, FXP_ONE, 0);
		point(t, FXP_ONE, FXP_ONE);
		point(t, 0, FXP_ONE);
		if (topo >= TE_TOPO_TRI_CW) {
			t->out->prim_vertices = 3;
			tri(t, 0, 1, 3);
			tri(t, 1, 2, 3);
		} else {
			all_points_as(t, topo);
		}
		return;
	}

	/* outer ring: U==0 (V down), V==0 (U up), U==1 (V up), V==1 (U down) */
	for (int e = 0; e < 4; e++) {
		unsigned last = oc[e].points - 1;
		for (unsigned k = 0; k < last; k++) {
			fxp x = place(&oc[e], (e == 1 || e == 2) ? k : last - k);
			if (e & 1)
				point(t, x, e == 3 ? FXP_ONE : 0);
			else
				point(t, e == 2 ? FXP_ONE : 0, x);
		}
	}
	/* inner rings, spiralling in the same way */
	unsigned nu = ic[0].points, nv = ic[1].points;
	unsigned gen_rings = (nu < nv ? nu : nv) >> 1;
	for (unsigned r = 1; r < gen_rings; r++) {
		unsigned end[2] = { nu - 1 - r, nv - 1 - r };
		for (int e = 0; e < 4; e++) {
			int perp_axis = e & 1, axis = (e + 1) & 1;
			fxp perp = place(&ic[perp_axis], e < 2 ? r : end[perp_axis]);
			for (unsigned k = r; k < end[axis]; k++) {
				fxp x = place(&ic[axis], (e == 1 || e == 2) ? k : end[axis] - (k - r));
				if (axis)
					point(t, perp, x);
				else
					point(t, x, perp);
			}
		}
	}
	/* even inside parity: the centre is a row (or column) of points */
	if (nu > nv && !ic[1].odd) {
		for (unsigned k = gen_rings; k <= nu - 1 - gen_rings; k++)
			point(t, place(&ic[0], k), FXP_HALF);
	} else if (nv >= nu && !ic[0].odd) {
		for (int k = (int)(nv - 1 - gen_rings); k >= (int)gen_rings; k--)
			point(t, FXP_HALF, place(&ic[1], (unsigned)k));
	}
	if (topo < TE_TOPO_TRI_CW) {
		all_points_as(t, topo);
		return;
	}
	t->out->prim_vertices = 3;

	unsigned rows[2] = { (nu + 1) >> 1, (nv + 1) >> 1 };
	unsigned nrings = rows[0] < rows[1] ? rows[0] : rows[1];
	struct ring out = { .start = 0, .nedges = 4 };
	for (int e = 0; e < 4; e++)
		out.n[e] = oc[e].points;
	for (unsigned r = 1; r < nrings; r++) {
		struct ring in = { .start = out.start + ring_size(&out), .nedges = 4 };
		for (int e = 0; e < 4; e++)
			in.n[e] = ic[(e + 1) & 1].points - 2 * r;
		/* even inside parity: the last ring may be one row (V edges of
		 * one point) or one column (U edges of one point) */
		in.shape = in.n[0] == 1 && in.n[1] != 1 ? RING_ROW :
			   in.n[1] == 1 && in.n[0] != 1 ? RING_COLUMN : RING_NORMAL;
		const struct factor_ctx inc[4] = { ic[1], ic[0], ic[1], ic[0] };
		stitch_ring(t, &out, oc, &in, inc, r == 1);
		out = in;
	}
	/* odd inside parity: a strip of quads across the innermost ring */
	uint32_t ibuf[70], obuf[70];
	if (nu > nv && ic[1].odd) {
		struct row in = ring_row(&out, 3, ibuf, true), o = ring_row(&out, 1, obuf, false);
		stitch_regular(t, false, DIAG_INSIDE_TO_OUTSIDE, in, o);
	} else if (nv >= nu && ic[0].odd) {
		struct row in = ring_row(&out, 2, ibuf, true), o = ring_row(&out, 0, obuf, false);
		stitch_regular(t, false, ic[1].odd ? DIAG_INSIDE_TO_OUTSIDE_EXCEPT_MIDDLE :
			       DIAG_INSIDE_TO_OUTSIDE, in, o);
	}
}

static void tri_domain(struct tess *t, enum te_partitioning p, enum te_topology topo,
		       const struct te_factors *f)
{
	float outer[3], inner[1];
	if (!process_factors(p, f, 3, 1, outer, inner))
		return;
	struct factor_ctx oc[3], ic;
	bool all_one = true;
	for (int e = 0; e < 3; e++) {
		fxp x = to_fxp(outer[e]);
		oc[e] = factor_ctx(x, factor_odd(p, outer[e], false));
		all_one &= x == FXP_ONE;
	}
	fxp xi = to_fxp(inner[0]);
	ic = factor_ctx(xi, factor_odd(p, inner[0], true));
	all_one &= xi == FXP_ONE;
	if (ic.points < (ic.odd ? 4u : 3u))
		ic.points = ic.odd ? 4 : 3;
	if (all_one && p != TE_PART_EVEN_FRACTIONAL) {
		point(t, 0, FXP_ONE);
		point(t, 0, 0);
		point(t, FXP_ONE, 0);
		if (topo >= TE_TOPO_TRI_CW) {
			t->out->prim_vertices = 3;
			tri(t, 0, 1, 2);
		} else {
			all_points_as(t, topo);
		}
		return;
	}

	/* outer ring from V=1: U==0 (V down), V==0 (U up), W==0 (U down) */
	for (int e = 0; e < 3; e++) {
		unsigned last = oc[e].points - 1;
		for (unsigned k = 0; k < last; k++) {
			fxp x = place(&oc[e], (e & 1) ? k : last - k);
			if (e == 0)
				point(t, 0, x);
			else
				point(t, x, e == 2 ? FXP_ONE - x : 0);
		}
	}
	/* inner rings: a ring's 1D points pushed in by 2/3 of its position */
	unsigned n = ic.points;
	for (unsigned r = 1; r < n >> 1; r++) {
		unsigned end = n - 1 - r;
		for (int e = 0; e < 3; e++) {
			fxp perp = (place(&ic, r) * FXP_TWO_THIRDS + FXP_HALF) >> 16;
			fxp shift = (perp + 1) / 2;
			for (unsigned k = r; k < end; k++) {
				fxp x = place(&ic, (e & 1) ? k : end - (k - r)) - shift;
				if (e == 0)
					point(t, perp, x);
				else if (e == 1)
					point(t, x, perp);
				else
					point(t, x, FXP_ONE - x - perp);
			}
		}
	}
	if (!ic.odd)
		point(t, FXP_THIRD, FXP_THIRD);
	if (topo < TE_TOPO_TRI_CW) {
		all_points_as(t, topo);
		return;
	}
	t->out->prim_vertices = 3;

	struct ring out = { .start = 0, .nedges = 3, .n = { oc[0].points, oc[1].points,
							    oc[2].points } };
	const struct factor_ctx inc[3] = { ic, ic, ic };
	for (unsigned r = 1; r < (n + 1) >> 1; r++) {
		struct ring in = { .start = out.start + ring_size(&out), .nedges = 3,
				   .n = { n - 2 * r, n - 2 * r, n - 2 * r } };
		stitch_ring(t, &out, oc, &in, inc, r == 1);
		out = in;
	}
	if (ic.odd)        /* the centre triangle */
		tri(t, out.start, out.start + 1, out.start + 2);
}

static void isoline_domain(struct tess *t, enum te_partitioning p, enum te_topology topo,
			   const struct te_factors *f)
{
	float density = f->outer[0], detail = f->outer[1];
	if (!(density > 0) || !(detail > 0))
		return;
	struct limits l = part_limits(p);
	density = ceilf(clampf(density, 1.0f, 64.0f));    /* always integer */
	detail = clampf(detail, l.lo, l.hi);
	if (p == TE_PART_INTEGER)
		detail = ceilf(detail);
	struct factor_ctx dc = factor_ctx(to_fxp(detail), factor_odd(p, detail, false));
	struct factor_ctx lc = factor_ctx(to_fxp(density), (int)density & 1);
	unsigned lines = lc.points - 1;       /* no line at V == 1 */
	for (unsigned y = 0; y < lines; y++)
		for (unsigned x = 0; x < dc.points; x++)
			point(t, place(&dc, x), place(&lc, y));
	if (topo == TE_TOPO_POINT) {
		all_points_as(t, topo);
		return;
	}
	t->out->prim_vertices = 2;
	for (unsigned y = 0; y < lines; y++)
		for (unsigned x = 1; x < dc.points; x++) {
			index1(t, y * dc.points + x - 1);
			index1(t, y * dc.points + x);
		}
}

void te_tessellate(enum te_domain domain, enum te_partitioning part, enum te_topology topo,
		   const struct te_factors *f, struct te_output *out)
{
	struct tess t = { .out = out, .cw = topo == TE_TOPO_TRI_CW };
	out->npoints = 0;
	out->nindices = 0;
	out->prim_vertices = topo == TE_TOPO_POINT ? 1 : topo == TE_TOPO_LINE ? 2 : 3;
	switch (domain) {
	case TE_DOMAIN_QUAD: quad_domain(&t, part, topo, f); break;
	case TE_DOMAIN_TRI: tri_domain(&t, part, topo, f); break;
	default: isoline_domain(&t, part, topo, f); break;
	}
	if (out->npoints > TE_MAX_POINTS || out->nindices > TE_MAX_INDICES)
		out->npoints = out->nindices = 0;     /* not reachable for factors <= 64 */
}
