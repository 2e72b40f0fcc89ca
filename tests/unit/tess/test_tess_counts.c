/* The tessellator on a grid of factors for every domain x partitioning x
 * output topology, checked against rules written here from the GL spec
 * (section "Tessellation Primitive Generation") and not from the module:
 *  - counting: a factor rounds up to n segments (INTEGER: ceil in [1,64];
 *    ODD: next odd in [1,63]; EVEN: next even in [2,64]); an inner level
 *    of 1 with any other level > 1 counts as 1 + e (2 or 3 segments); all
 *    levels 1 make one quad / triangle. A quad has the outer edges' points
 *    plus (nu-1)(nv-1) inside, and sum(outer) + 2(nu-2) + 2(nv-2) +
 *    2(nu-2)(nv-2) triangles; a triangle has concentric rings of n-2k
 *    segments down to a point or a centre triangle; isolines are d lines
 *    of n segments;
 *  - the triangles tile the domain: every triangle has the winding asked
 *    for, their areas sum to the domain's, every inner edge is shared by
 *    exactly two triangles in opposite directions;
 *  - spacing along an edge: INTEGER equal segments; fractional ones n-2
 *    equal segments and two equal shorter ones, symmetric about 1/2. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "gpu/render/te_tessellator.h"
#include "test.h"

static struct te_output *out;

/* Segments for a factor by the GL rules. */
static unsigned segments(float f, enum te_partitioning p)
{
	float lo = p == TE_PART_EVEN_FRACTIONAL ? 2 : 1;
	float hi = p == TE_PART_ODD_FRACTIONAL ? 63 : 64;
	if (!(f >= lo))
		f = lo;
	if (f > hi)
		f = hi;
	unsigned n = (unsigned)ceilf(f);
	if (p == TE_PART_ODD_FRACTIONAL && !(n & 1))
		n++;
	if (p == TE_PART_EVEN_FRACTIONAL && (n & 1))
		n++;
	return n;
}

struct expect {
	unsigned points, prims;
};

static unsigned inner_min(enum te_partitioning p) { return p == TE_PART_ODD_FRACTIONAL ? 3 : 2; }

static struct expect quad_expect(const struct te_factors *f, enum te_partitioning p)
{
	struct expect e = { 0, 0 };
	unsigned no[4], sum = 0;
	bool all_one = p != TE_PART_EVEN_FRACTIONAL;
	for (int i = 0; i < 4; i++) {
		if (!(f->outer[i] > 0))
			return e;
		no[i] = segments(f->outer[i], p);
		sum += no[i];
		all_one &= no[i] == 1;
	}
	unsigned nu = segments(f->inner[0], p), nv = segments(f->inner[1], p);
	/* an inner level counts as 1 only when every level is at most 1 */
	all_one &= !(f->inner[0] > 1) && !(f->inner[1] > 1);
	if (all_one)
		return (struct expect){ 4, 2 };
	if (nu < inner_min(p))
		nu = inner_min(p);
	if (nv < inner_min(p))
		nv = inner_min(p);
	e.points = sum + (nu - 1) * (nv - 1);
	e.prims = sum + 2 * (nu - 2) + 2 * (nv - 2) + 2 * (nu - 2) * (nv - 2);
	return e;
}

static struct expect tri_expect(const struct te_factors *f, enum te_partitioning p)
{
	struct expect e = { 0, 0 };
	unsigned sum = 0;
	bool all_one = p != TE_PART_EVEN_FRACTIONAL;
	for (int i = 0; i < 3; i++) {
		if (!(f->outer[i] > 0))
			return e;
		unsigned n = segments(f->outer[i], p);
		sum += n;
		all_one &= n == 1;
	}
	unsigned n = segments(f->inner[0], p);
	all_one &= !(f->inner[0] > 1);
	if (all_one)
		return (struct expect){ 3, 1 };
	if (n < inner_min(p))
		n = inner_min(p);
	e.points = sum;
	e.prims = sum + 3 * (n - 2);
	for (int s = (int)n - 2; s >= 0; s -= 2) {
		e.points += s ? 3 * (unsigned)s : 1;
		if (s >= 2)
			e.prims += 3 * (2 * (unsigned)s - 2);
	}
	if (n & 1)
		e.prims++;
	return e;
}

static struct expect isoline_expect(const struct te_factors *f, enum te_partitioning p,
				    enum te_topology t)
{
	struct expect e = { 0, 0 };
	if (!(f->outer[0] > 0) || !(f->outer[1] > 0))
		return e;
	unsigned d = segments(f->outer[0], TE_PART_INTEGER), n = segments(f->outer[1], p);
	e.points = d * (n + 1);
	e.prims = t == TE_TOPO_POINT ? e.points : d * n;
	return e;
}

/* ---- the mesh checks ---- */

#define HASH_SIZE (1u << 16)
static uint64_t edge_key[HASH_SIZE];
static uint32_t edge_gen[HASH_SIZE];  /* a slot is used when it holds the current gen */
static uint32_t gen = 1;

static void edges_clear(void) { gen++; }

static uint32_t edge_slot(uint64_t k, bool *found)
{
	uint32_t h = (uint32_t)((k * 0x9e3779b97f4a7c15ull) >> 48) & (HASH_SIZE - 1);
	while (edge_gen[h] == gen) {
		if (edge_key[h] == k) {
			*found = true;
			return h;
		}
		h = (h + 1) & (HASH_SIZE - 1);
	}
	*found = false;
	return h;
}

static bool edge_insert(uint32_t a, uint32_t b)  /* false: already there */
{
	uint64_t k = ((uint64_t)a << 32) | b;
	bool found;
	uint32_t h = edge_slot(k, &found);
	if (found)
		return false;
	edge_gen[h] = gen;
	edge_key[h] = k;
	return true;
}

static bool edge_has(uint32_t a, uint32_t b)
{
	bool found;
	edge_slot(((uint64_t)a << 32) | b, &found);
	return found;
}

static bool on_boundary(enum te_domain d, uint32_t a, uint32_t b)
{
	double ua = out->u[a], va = out->v[a], ub = out->u[b], vb = out->v[b];
	if ((ua == 0 && ub == 0) || (va == 0 && vb == 0))
		return true;
	if (d == TE_DOMAIN_QUAD)
		return (ua == 1 && ub == 1) || (va == 1 && vb == 1);
	return ua + va == 1 && ub + vb == 1;
}

static int mesh_failures;
static uint32_t canon[TE_MAX_POINTS];

/* Fractional levels just above 1 give zero-length segments (the GL spec
 * lets the two short segments shrink to nothing), so points may coincide:
 * they are merged first, and zero-area triangles take no part in the
 * edge pairing. */
static void merge_points(void)
{
	edges_clear();
	for (uint32_t i = 0; i < out->npoints; i++) {
		uint32_t ku = (uint32_t)(out->u[i] * 65536.0f), kv = (uint32_t)(out->v[i] * 65536.0f);
		canon[i] = i;
		for (uint32_t j = 0; j < i && !edge_insert(ku, kv); j++)
			if (out->u[j] == out->u[i] && out->v[j] == out->v[i]) {
				canon[i] = canon[j];
				break;
			}
	}
}

static double signed_area(uint32_t a, uint32_t b, uint32_t c)
{
	return (((double)out->u[b] - out->u[a]) * ((double)out->v[c] - out->v[a]) -
		((double)out->v[b] - out->v[a]) * ((double)out->u[c] - out->u[a])) / 2;
}

static void check_mesh(enum te_domain d, enum te_topology t, const char *what)
{
	merge_points();
	edges_clear();
	double area = 0;
	bool ok = true;
	for (unsigned i = 0; i + 2 < out->nindices; i += 3) {
		uint32_t a = out->index[i], b = out->index[i + 1], c = out->index[i + 2];
		if (a >= out->npoints || b >= out->npoints || c >= out->npoints) {
			ok = false;
			break;
		}
		/* D3D's "clockwise" has V pointing down: positive in (u, v) */
		double x = signed_area(a, b, c) * (t == TE_TOPO_TRI_CCW ? -1 : 1);
		ok &= x >= 0;
		area += x;
		if (x > 0)
			ok &= edge_insert(canon[a], canon[b]) && edge_insert(canon[b], canon[c]) &&
			      edge_insert(canon[c], canon[a]);
	}
	double want = d == TE_DOMAIN_QUAD ? 1.0 : 0.5;
	ok &= fabs(area - want) <= 1e-9;
	for (unsigned i = 0; ok && i + 2 < out->nindices; i += 3) {
		if (signed_area(out->index[i], out->index[i + 1], out->index[i + 2]) == 0)
			continue;
		for (int k = 0; k < 3; k++) {
			uint32_t a = canon[out->index[i + k]], b = canon[out->index[i + (k + 1) % 3]];
			if (!edge_has(b, a) && !on_boundary(d, a, b))
				ok = false;
		}
	}
	if (!ok && mesh_failures++ < 10)
		fprintf(stderr, "mesh check failed: %s (area %.9f)\n", what, area);
	CHECK(ok);
}

/* The points of an edge (u == 0 on quads, v == 0 on tri and isolines)
 * sorted: INTEGER equal segments; fractional n - 2 equal segments and two
 * equal shorter ones; symmetric about 1/2. */
static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return x < y ? -1 : x > y;
}

static void check_edge_spacing(enum te_domain d, enum te_partitioning p, float f)
{
	static float x[TE_MAX_POINTS];
	unsigned n = 0;
	for (unsigned i = 0; i < out->npoints; i++) {
		if (d == TE_DOMAIN_QUAD && out->u[i] == 0)
			x[n++] = out->v[i];
		else if (d != TE_DOMAIN_QUAD && out->v[i] == 0)
			x[n++] = out->u[i];
	}
	qsort(x, n, sizeof(x[0]), cmp_float);
	unsigned segs = segments(f, p);
	CHECK_EQ(n, segs + 1);
	if (n != segs + 1)
		return;
	bool ok = x[0] == 0 && x[n - 1] == 1;
	for (unsigned i = 0; i < n; i++)
		ok &= x[i] + x[n - 1 - i] == 1.0f;
	/* 16.16 reciprocals err by <= 1/2 unit a step: up to 32 steps pile
	 * up in the middle segment (where 1/2 is exact) */
	const float tol = 40.0f / 65536;
	if (p == TE_PART_INTEGER || (float)segs == f) {
		for (unsigned i = 0; i < n; i++)
			ok &= fabsf(x[i] - (float)i / (float)segs) <= tol;
	} else {
		float len[TE_MAX_POINTS], big = 0, small = 1;
		for (unsigned i = 0; i + 1 < n; i++) {
			len[i] = x[i + 1] - x[i];
			big = fmaxf(big, len[i]);
			small = fminf(small, len[i]);
		}
		unsigned nbig = 0, nsmall = 0;
		for (unsigned i = 0; i + 1 < n; i++) {
			if (fabsf(len[i] - big) <= tol)
				nbig++;
			else if (fabsf(len[i] - small) <= tol)
				nsmall++;
		}
		ok &= (nbig == segs - 2 && nsmall == 2) || nbig == segs;
	}
	if (!ok)
		fprintf(stderr, "spacing failed: domain %d part %d factor %g\n", d, p, f);
	CHECK(ok);
}

static const float levels[] = { 1, 1.5f, 2, 2.3f, 3, 4, 5.7f, 8, 12.2f, 33, 64, 70 };
#define NLEVELS (sizeof(levels) / sizeof(levels[0]))

static void check_one(enum te_domain d, enum te_partitioning p, enum te_topology t,
		      const struct te_factors *f)
{
	char what[160];
	snprintf(what, sizeof(what), "domain %d part %d topo %d outer %g %g %g %g inner %g %g",
		 d, p, t, f->outer[0], f->outer[1], f->outer[2], f->outer[3], f->inner[0],
		 f->inner[1]);
	te_tessellate(d, p, t, f, out);
	struct expect e = d == TE_DOMAIN_QUAD ? quad_expect(f, p) :
			  d == TE_DOMAIN_TRI ? tri_expect(f, p) : isoline_expect(f, p, t);
	if (d != TE_DOMAIN_ISOLINE && t == TE_TOPO_POINT)
		e.prims = e.points;
	else if (d != TE_DOMAIN_ISOLINE && t == TE_TOPO_LINE)
		e.prims = e.points ? e.points - 1 : 0;   /* the points in order */
	unsigned pv = d == TE_DOMAIN_ISOLINE && t != TE_TOPO_POINT ? 2 :
		      t == TE_TOPO_POINT ? 1 : t == TE_TOPO_LINE ? 2 : 3;
	bool ok = out->npoints == e.points && out->nindices == e.prims * pv &&
		  (!e.points || out->prim_vertices == pv);
	if (!ok)
		fprintf(stderr, "%s: %u points %u indices, want %u points %u prims\n", what,
			out->npoints, out->nindices, e.points, e.prims);
	CHECK(ok);
	if (ok && d != TE_DOMAIN_ISOLINE && t >= TE_TOPO_TRI_CW && e.points)
		check_mesh(d, t, what);
}

int main(void)
{
	out = malloc(sizeof(*out));
	if (!out)
		return 1;
	for (int p = 0; p < 3; p++)
		for (int t = 0; t < 4; t++) {
			/* quads: outer edges from four rotating levels, inner pairs */
			for (unsigned a = 0; a < NLEVELS; a++)
				for (unsigned b = 0; b < NLEVELS; b += 3)
					for (unsigned c = 1; c < NLEVELS; c += 2)
						for (unsigned i = 0; i < NLEVELS; i += 3) {
							struct te_factors f = {
								{ levels[a], levels[b],
								  levels[c], levels[(a + c) % NLEVELS] },
								{ levels[i], levels[(i + b + 1) % NLEVELS] } };
							check_one(TE_DOMAIN_QUAD, p, t, &f);
						}
			for (unsigned a = 0; a < NLEVELS; a++)
				for (unsigned b = 0; b < NLEVELS; b++)
					for (unsigned c = 0; c < NLEVELS; c += 3)
						for (unsigned i = 0; i < NLEVELS; i += 2) {
							struct te_factors f = {
								{ levels[a], levels[b], levels[c], 0 },
								{ levels[i], 0 } };
							check_one(TE_DOMAIN_TRI, p, t, &f);
						}
			for (unsigned a = 0; a < NLEVELS; a++)
				for (unsigned b = 0; b < NLEVELS; b++) {
					struct te_factors f = { { levels[a], levels[b], 0, 0 }, { 0, 0 } };
					check_one(TE_DOMAIN_ISOLINE, p, t, &f);
				}
		}
	/* equal factors everywhere: also the spacing along one edge */
	for (int p = 0; p < 3; p++)
		for (float f = 1; f <= 64; f += 0.37f) {
			struct te_factors q = { { f, f, f, f }, { f, f } };
			te_tessellate(TE_DOMAIN_QUAD, p, TE_TOPO_TRI_CW, &q, out);
			check_edge_spacing(TE_DOMAIN_QUAD, p, f);
			te_tessellate(TE_DOMAIN_TRI, p, TE_TOPO_TRI_CCW, &q, out);
			check_edge_spacing(TE_DOMAIN_TRI, p, f);
			struct te_factors l = { { 1, f, 0, 0 }, { 0, 0 } };
			te_tessellate(TE_DOMAIN_ISOLINE, p, TE_TOPO_LINE, &l, out);
			check_edge_spacing(TE_DOMAIN_ISOLINE, p, f);
		}
	/* inner factors of 1 with larger outer ones, every partitioning */
	for (int p = 0; p < 3; p++)
		for (unsigned a = 0; a < NLEVELS; a++) {
			struct te_factors f = { { levels[a], 1, 1, 1 }, { 1, 1 } };
			check_one(TE_DOMAIN_QUAD, p, TE_TOPO_TRI_CW, &f);
			check_one(TE_DOMAIN_TRI, p, TE_TOPO_TRI_CW, &f);
			struct te_factors g = { { 1, 1, 1, 1 }, { levels[a], 1 } };
			check_one(TE_DOMAIN_QUAD, p, TE_TOPO_TRI_CCW, &g);
			struct te_factors h = { { 1, 1, 1, 1 }, { 1, levels[a] } };
			check_one(TE_DOMAIN_QUAD, p, TE_TOPO_TRI_CCW, &h);
			check_one(TE_DOMAIN_TRI, p, TE_TOPO_TRI_CW, &h);
		}
	free(out);
	return test_exit();
}
