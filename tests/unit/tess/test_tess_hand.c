/* The tessellator against hand-computed patches: levels 1, 2 and 3 with
 * INTEGER partitioning on each domain (point coordinates in the emitted
 * order and the exact primitive lists), the cull rule, the clamping of
 * out-of-range factors, and the CW/CCW winding. The coordinates are the
 * 16.16 fixed-point values the D3D11 rules give: 1/3 is 0x5555/65536 and
 * 2/3 is 1 - 1/3 (the second half of an edge mirrors the first). */
#include <stdlib.h>

#include "gpu/render/te_tessellator.h"
#include "test.h"

#define THIRD (21845.0f / 65536.0f)
#define TWO_THIRDS (1.0f - THIRD)

static struct te_output *out;

static void run(enum te_domain d, enum te_partitioning p, enum te_topology t, float o0, float o1,
		float o2, float o3, float i0, float i1)
{
	struct te_factors f = { { o0, o1, o2, o3 }, { i0, i1 } };
	te_tessellate(d, p, t, &f, out);
}

static void check_points(const float (*uv)[2], unsigned n, int line)
{
	if (out->npoints != n) {
		fprintf(stderr, "line %d: %u points, want %u\n", line, out->npoints, n);
		CHECK_EQ(out->npoints, n);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		if (out->u[i] != uv[i][0] || out->v[i] != uv[i][1])
			fprintf(stderr, "line %d: point %u is (%.8f, %.8f), want (%.8f, %.8f)\n",
				line, i, out->u[i], out->v[i], uv[i][0], uv[i][1]);
		CHECK(out->u[i] == uv[i][0] && out->v[i] == uv[i][1]);
	}
}

static void check_indices(const uint32_t *idx, unsigned n, int line)
{
	if (out->nindices != n) {
		fprintf(stderr, "line %d: %u indices, want %u\n", line, out->nindices, n);
		CHECK_EQ(out->nindices, n);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		if (out->index[i] != idx[i])
			fprintf(stderr, "line %d: index %u is %u, want %u\n", line, i,
				out->index[i], idx[i]);
		CHECK_EQ(out->index[i], idx[i]);
	}
}

#define POINTS(...)                                                             \
	do {                                                                    \
		const float uv_[][2] = { __VA_ARGS__ };                         \
		check_points(uv_, sizeof(uv_) / sizeof(uv_[0]), __LINE__);      \
	} while (0)
#define INDICES(...)                                                            \
	do {                                                                    \
		static const uint32_t i_[] = { __VA_ARGS__ };                   \
		check_indices(i_, sizeof(i_) / sizeof(i_[0]), __LINE__);        \
	} while (0)

int main(void)
{
	out = malloc(sizeof(*out));
	if (!out)
		return 1;

	/* ---- level 1: the patch's corners, one quad as two triangles ---- */
	run(TE_DOMAIN_QUAD, TE_PART_INTEGER, TE_TOPO_TRI_CW, 1, 1, 1, 1, 1, 1);
	POINTS({ 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 });
	INDICES(0, 1, 3, 1, 2, 3);
	CHECK_EQ(out->prim_vertices, 3);
	run(TE_DOMAIN_QUAD, TE_PART_INTEGER, TE_TOPO_TRI_CCW, 1, 1, 1, 1, 1, 1);
	INDICES(0, 3, 1, 1, 3, 2);
	/* factors below 1 clamp to 1 (0.2 and inner 0 are not culled: only
	 * outer factors <= 0 cull) */
	run(TE_DOMAIN_QUAD, TE_PART_INTEGER, TE_TOPO_TRI_CW, 0.2f, 1, 0.7f, 1, 0, -3);
	INDICES(0, 1, 3, 1, 2, 3);
	run(TE_DOMAIN_QUAD, TE_PART_ODD_FRACTIONAL, TE_TOPO_POINT, 1, 1, 1, 1, 1, 1);
	POINTS({ 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 });
	INDICES(0, 1, 2, 3);
	CHECK_EQ(out->prim_vertices, 1);

	run(TE_DOMAIN_TRI, TE_PART_INTEGER, TE_TOPO_TRI_CW, 1, 1, 1, 0, 1, 0);
	POINTS({ 0, 1 }, { 0, 0 }, { 1, 0 });
	INDICES(0, 1, 2);
	run(TE_DOMAIN_TRI, TE_PART_INTEGER, TE_TOPO_TRI_CCW, 1, 1, 1, 0, 1, 0);
	INDICES(0, 2, 1);

	/* ---- culling: an outer factor <= 0 or NaN ---- */
	run(TE_DOMAIN_QUAD, TE_PART_INTEGER, TE_TOPO_TRI_CW, 4, 0, 4, 4, 4, 4);
	CHECK_EQ(out->npoints, 0);
	CHECK_EQ(out->nindices, 0);
	run(TE_DOMAIN_TRI, TE_PART_EVEN_FRACTIONAL, TE_TOPO_TRI_CW, 4, 4, -1, 0, 4, 0);
	CHECK_EQ(out->npoints, 0);
	run(TE_DOMAIN_ISOLINE, TE_PART_INTEGER, TE_TOPO_LINE, __builtin_nanf(""), 4, 0, 0, 0, 0);
	CHECK_EQ(out->npoints, 0);
	/* a NaN inner factor is not a cull: it clamps to the lower bound */
	run(TE_DOMAIN_TRI, TE_PART_INTEGER, TE_TOPO_TRI_CW, 1, 1, 1, 0, __builtin_nanf(""), 0);
	CHECK_EQ(out->npoints, 3);

	/* ---- level 2: the outer ring from (0,1), clockwise; the centre
	 * point; each edge's two segments fanned around the centre ---- */
	run(TE_DOMAIN_QUAD, TE_PART_INTEGER, TE_TOPO_TRI_CW, 2, 2, 2, 2, 2, 2);
	POINTS({ 0, 1 }, { 0, 0.5f }, { 0, 0 }, { 0.5f, 0 }, { 1, 0 }, { 1, 0.5f }, { 1, 1 },
	       { 0.5f, 1 }, { 0.5f, 0.5f });
	INDICES(0, 1, 8, 1, 2, 8, 2, 3, 8, 3, 4, 8, 4, 5, 8, 5, 6, 8, 6, 7, 8, 7, 0, 8);
	/* 1.3 rounds up to 2 under INTEGER */
	run(TE_DOMAIN_QUAD, TE_PART_INTEGER, TE_TOPO_TRI_CW, 1.3f, 2, 1.01f, 2, 1.5f, 2);
	INDICES(0, 1, 8, 1, 2, 8, 2, 3, 8, 3, 4, 8, 4, 5, 8, 5, 6, 8, 6, 7, 8, 7, 0, 8);
	/* POINT and LINE outputs on a quad: the points in order */
	run(TE_DOMAIN_QUAD, TE_PART_INTEGER, TE_TOPO_LINE, 2, 2, 2, 2, 2, 2);
	INDICES(0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8);
	CHECK_EQ(out->prim_vertices, 2);

	run(TE_DOMAIN_TRI, TE_PART_INTEGER, TE_TOPO_TRI_CW, 2, 2, 2, 0, 2, 0);
	POINTS({ 0, 1 }, { 0, 0.5f }, { 0, 0 }, { 0.5f, 0 }, { 1, 0 }, { 0.5f, 0.5f },
	       { THIRD, THIRD });
	INDICES(0, 1, 6, 1, 2, 6, 2, 3, 6, 3, 4, 6, 4, 5, 6, 5, 0, 6);

	/* quad, outer 1, inner 2: one triangle from each edge to the centre */
	run(TE_DOMAIN_QUAD, TE_PART_INTEGER, TE_TOPO_TRI_CW, 1, 1, 1, 1, 2, 2);
	POINTS({ 0, 1 }, { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0.5f, 0.5f });
	INDICES(4, 0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0);

	/* ---- level 3 ---- */
	/* quad: a 4 x 4 grid, the outer ring of 12 then the inner ring of 4
	 * (U==1/3 at V==2/3 first, clockwise) */
	run(TE_DOMAIN_QUAD, TE_PART_INTEGER, TE_TOPO_TRI_CW, 3, 3, 3, 3, 3, 3);
	POINTS({ 0, 1 }, { 0, TWO_THIRDS }, { 0, THIRD }, { 0, 0 }, { THIRD, 0 },
	       { TWO_THIRDS, 0 }, { 1, 0 }, { 1, THIRD }, { 1, TWO_THIRDS }, { 1, 1 },
	       { TWO_THIRDS, 1 }, { THIRD, 1 },
	       { THIRD, TWO_THIRDS }, { THIRD, THIRD }, { TWO_THIRDS, THIRD },
	       { TWO_THIRDS, TWO_THIRDS });
	/* each edge of the first ring: 3 outer and 1 inner segment, 4
	 * triangles, stitched as outer, inner-facing quad, outer; then the
	 * centre quad */
	INDICES(0, 1, 12, 12, 1, 13, 13, 1, 2, 2, 3, 13,
		3, 4, 13, 13, 4, 14, 14, 4, 5, 5, 6, 14,
		6, 7, 14, 14, 7, 15, 15, 7, 8, 8, 9, 15,
		9, 10, 15, 15, 10, 12, 12, 10, 11, 11, 0, 12,
		12, 14, 15, 12, 13, 14);

	/* tri: outer ring of 9, an inner triangle of 3 at 2/3 of the first
	 * ring's position (U = 2/9 rounded in 16.16) and the centre triangle */
	run(TE_DOMAIN_TRI, TE_PART_INTEGER, TE_TOPO_TRI_CW, 3, 3, 3, 0, 3, 0);
	CHECK_EQ(out->npoints, 12);
	CHECK_EQ(out->nindices, 13 * 3);
	{
		/* perp = round(0x5555 * 0xaaaa / 2^16) = 0x38e3; the edge
		 * parameter moves by (perp + 1) / 2 = 0x1c72 */
		float perp = (float)0x38e3 / 65536.0f;
		float a = (float)(0x5555 - 0x1c72) / 65536.0f, b = (float)(0xaaab - 0x1c72) / 65536.0f;
		POINTS({ 0, 1 }, { 0, TWO_THIRDS }, { 0, THIRD }, { 0, 0 }, { THIRD, 0 },
		       { TWO_THIRDS, 0 }, { 1, 0 }, { TWO_THIRDS, THIRD }, { THIRD, TWO_THIRDS },
		       { perp, b }, { a, perp },
		       { b, (float)(0x10000 - (0xaaab - 0x1c72) - 0x38e3) / 65536.0f });
	}
	INDICES(0, 1, 9, 9, 1, 10, 10, 1, 2, 2, 3, 10,
		3, 4, 10, 10, 4, 11, 11, 4, 5, 5, 6, 11,
		6, 7, 11, 11, 7, 9, 9, 7, 8, 8, 0, 9,
		9, 10, 11);

	/* ---- isolines: density lines at V = 0, 1/d, ...; detail points
	 * along U; a line list per line ---- */
	run(TE_DOMAIN_ISOLINE, TE_PART_INTEGER, TE_TOPO_LINE, 2, 3, 0, 0, 0, 0);
	POINTS({ 0, 0 }, { THIRD, 0 }, { TWO_THIRDS, 0 }, { 1, 0 },
	       { 0, 0.5f }, { THIRD, 0.5f }, { TWO_THIRDS, 0.5f }, { 1, 0.5f });
	INDICES(0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7);
	CHECK_EQ(out->prim_vertices, 2);
	/* density is always integer: 1.2 gives 2 lines even when fractional */
	run(TE_DOMAIN_ISOLINE, TE_PART_EVEN_FRACTIONAL, TE_TOPO_POINT, 1.2f, 2, 0, 0, 0, 0);
	POINTS({ 0, 0 }, { 0.5f, 0 }, { 1, 0 }, { 0, 0.5f }, { 0.5f, 0.5f }, { 1, 0.5f });
	INDICES(0, 1, 2, 3, 4, 5);
	/* density 1, detail 1: one segment */
	run(TE_DOMAIN_ISOLINE, TE_PART_INTEGER, TE_TOPO_LINE, 1, 1, 0, 0, 0, 0);
	POINTS({ 0, 0 }, { 1, 0 });
	INDICES(0, 1);
	/* above the maximum: 64 lines of 64 segments */
	run(TE_DOMAIN_ISOLINE, TE_PART_INTEGER, TE_TOPO_LINE, 1000, 99, 0, 0, 0, 0);
	CHECK_EQ(out->npoints, 64 * 65);
	CHECK_EQ(out->nindices, 64 * 64 * 2);

	/* ---- fractional hand cases (GL: n-2 equal segments, two shorter
	 * ones placed symmetrically) ---- */
	/* odd 2.5: rounds to 3 segments; the half factor 1.75 lerps 3/4 of
	 * the way from 1 segment to 3: the first point at 0.75 * 1/3 */
	run(TE_DOMAIN_ISOLINE, TE_PART_ODD_FRACTIONAL, TE_TOPO_LINE, 1, 2.5f, 0, 0, 0, 0);
	POINTS({ 0, 0 }, { 0.25f, 0 }, { 0.75f, 0 }, { 1, 0 });
	/* even 2.5: 4 segments; half factor 1.25 lerps 1/4 of the way from
	 * spacing 1/2 to 1/4: 0.5 * 0.75 + 0.25 * 0.25 = 0.4375 */
	run(TE_DOMAIN_ISOLINE, TE_PART_EVEN_FRACTIONAL, TE_TOPO_LINE, 1, 2.5f, 0, 0, 0, 0);
	POINTS({ 0, 0 }, { 0.4375f, 0 }, { 0.5f, 0 }, { 0.5625f, 0 }, { 1, 0 });
	/* even 5.5: 6 segments; half factor 2.75 between 2 (spacing 1/4)
	 * and 3 (1/6); point 2 is past the split point 1, so it uses 1
	 * floor segment: 0.25 * 0.25 + 2/6 * 0.75, in 16.16 with 1/6 as
	 * 0x2aab (so 0.3125 + 2^-16) */
	run(TE_DOMAIN_ISOLINE, TE_PART_EVEN_FRACTIONAL, TE_TOPO_LINE, 1, 5.5f, 0, 0, 0, 0);
	CHECK_EQ(out->npoints, 7);
	{
		float p1 = (float)((0x4000u * 0x4000u + 0x2aabu * 0xc000u + 0x8000u) >> 16) / 65536;
		float p2 = (float)((0x4000u * 0x4000u + 2 * 0x2aabu * 0xc000u + 0x8000u) >> 16) /
			   65536;
		CHECK(p1 == 0.1875f);
		CHECK(out->u[1] == p1 && out->u[2] == p2 && out->u[3] == 0.5f &&
		      out->u[4] == 1 - p2 && out->u[5] == 1 - p1 && out->u[6] == 1);
	}

	free(out);
	return test_exit();
}
