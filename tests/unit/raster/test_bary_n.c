/* bary_at_n, the vectorised barycentrics of a PS thread's pixels, against
 * the weights computed here one point at a time from their definition:
 * edge functions of the point over twice the triangle's area (as the
 * product with the reciprocal area, in double), l0 = 1 - l1 - l2, and the
 * perspective weights l_i * rhw_i over their sum, the linear ones where
 * that sum is 0. Bit for bit, for random triangles (some with rhw 0 or of
 * mixed signs) and every count of points from 1 to 32, and every pixel
 * of 256x256 for triangles with perspective; bary_at, bary_lin_at (the
 * linear weights alone, for depth) and bary_z_quad (the depth plane of a
 * quad, against wm_prim_z's definition) at each point too. bary_pixels
 * (integer pixels' centres, only the outputs asked for) likewise, with
 * triangles on the pixel grid and w of 1, 2, 0.5, whose sums are often
 * powers of two (divided as exact products there); bary_z_quads (runs of
 * quads of a row) against the same depth definition. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gpu/render/raster.h"
#include "test.h"

static uint32_t seed = 12345;

static float rnd(float lo, float hi)
{
	seed = seed * 1664525u + 1013904223u;
	return lo + (hi - lo) * (float)(seed >> 8) / (float)(1u << 24);
}

static void oracle(const struct win_vertex v[3], double x, double y, float lin[3], float persp[3])
{
	double e1x = (double)v[1].x - v[0].x, e1y = (double)v[1].y - v[0].y;
	double e2x = (double)v[2].x - v[0].x, e2y = (double)v[2].y - v[0].y;
	double area = e1x * e2y - e2x * e1y, inv = area != 0 ? 1.0 / area : 0;
	double px = x - v[0].x, py = y - v[0].y;
	double l[3];
	l[1] = (px * e2y - e2x * py) * inv;
	l[2] = (e1x * py - px * e1y) * inv;
	l[0] = 1.0 - l[1] - l[2];
	double p[3], sum = 0;
	for (int k = 0; k < 3; k++) {
		p[k] = l[k] * (double)v[k].rhw;
		sum = k ? sum + p[k] : p[k];
	}
	for (int k = 0; k < 3; k++) {
		lin[k] = (float)l[k];
		persp[k] = sum != 0 ? (float)(p[k] / sum) : lin[k];
	}
}

/* The depth plane at a point (wm_draw.h wm_prim_z's definition): the
 * linear weights rounded to float, then z0 + l1 (z1 - z0) + l2 (z2 - z0)
 * in double, rounded to float. */
static float z_oracle(const struct win_vertex v[3], double x, double y)
{
	float lin[3], persp[3];
	oracle(v, x, y, lin, persp);
	double z0 = v[0].z;
	return (float)(z0 + lin[1] * ((double)v[1].z - z0) + lin[2] * ((double)v[2].z - z0));
}

/* n points of one triangle through bary_at_n, each against the oracle;
 * nothing written past the n points. */
static unsigned check_points(const struct win_vertex v[3], unsigned n, const double *x,
			     const double *y)
{
	struct bary_setup s;
	bary_setup(&s, &v[0], &v[1], &v[2]);
	float lin[3][33], persp[3][33];
	memset(lin, 0xcd, sizeof(lin));
	memset(persp, 0xcd, sizeof(persp));
	bary_at_n(&s, n, x, y, (float *const[3]){ lin[0], lin[1], lin[2] },
		  (float *const[3]){ persp[0], persp[1], persp[2] });
	unsigned bad = 0;
	for (unsigned i = 0; i < n; i++) {
		float wl[3], wp[3];
		oracle(v, x[i], y[i], wl, wp);
		for (int c = 0; c < 3; c++)
			bad += memcmp(&wl[c], &lin[c][i], 4) != 0 || memcmp(&wp[c], &persp[c][i], 4) != 0;
	}
	uint8_t cd[4];
	memset(cd, 0xcd, sizeof(cd));
	for (int c = 0; c < 3; c++)
		for (unsigned i = n; i < 33; i++)
			bad += memcmp(&lin[c][i], cd, 4) != 0 || memcmp(&persp[c][i], cd, 4) != 0;
	return bad;
}

/* The perspective sum of the definition at a point, for counting the
 * groups of four whose sums are all powers of two (or 0). */
static bool sum_pow2(const struct win_vertex v[3], double x, double y)
{
	double e1x = (double)v[1].x - v[0].x, e1y = (double)v[1].y - v[0].y;
	double e2x = (double)v[2].x - v[0].x, e2y = (double)v[2].y - v[0].y;
	double area = e1x * e2y - e2x * e1y, inv = area != 0 ? 1.0 / area : 0;
	double px = x - v[0].x, py = y - v[0].y;
	double l1 = (px * e2y - e2x * py) * inv, l2 = (e1x * py - px * e1y) * inv;
	double l0 = 1.0 - l1 - l2;
	double sum = l0 * (double)v[0].rhw + l1 * (double)v[1].rhw + l2 * (double)v[2].rhw;
	int e;
	return sum == 0 || (isfinite(sum) && fabs(frexp(sum, &e)) == 0.5 && e > -1020 && e < 1020);
}

/* bary_pixels at the centres of n pixels, for each choice of outputs: the
 * ones asked for against the oracle, the others and the slots past n
 * untouched. *fast counts groups of four whose sums are powers of two. */
static unsigned check_pixels(const struct win_vertex v[3], unsigned n, const int32_t *ix,
			     const int32_t *iy, unsigned *fast)
{
	static const unsigned wants[] = { BARY_LIN, BARY_PERSP, BARY_PERSP12,
					  BARY_LIN | BARY_PERSP12, BARY_LIN | BARY_PERSP };
	struct bary_setup s;
	bary_setup(&s, &v[0], &v[1], &v[2]);
	unsigned bad = 0;
	for (unsigned g = 0; g < n; g += 4) {
		bool all = true;
		for (unsigned i = g; i < n && i < g + 4; i++)
			all = all && sum_pow2(v, ix[i] + 0.5, iy[i] + 0.5);
		*fast += all;
	}
	for (unsigned k = 0; k < sizeof(wants) / sizeof(wants[0]); k++) {
		unsigned want = wants[k];
		float lin[3][33], persp[3][33];
		memset(lin, 0xcd, sizeof(lin));
		memset(persp, 0xcd, sizeof(persp));
		bary_pixels(&s, n, ix, iy, want, (float *const[3]){ lin[0], lin[1], lin[2] },
			    (float *const[3]){ persp[0], persp[1], persp[2] });
		uint8_t cd[4];
		memset(cd, 0xcd, sizeof(cd));
		for (unsigned i = 0; i < 33; i++) {
			float wl[3], wp[3];
			if (i < n)
				oracle(v, ix[i] + 0.5, iy[i] + 0.5, wl, wp);
			for (int c = 0; c < 3; c++) {
				bool l = i < n && (want & BARY_LIN);
				bool p = i < n && ((want & BARY_PERSP) || (c && (want & BARY_PERSP12)));
				bad += memcmp(l ? (const void *)&wl[c] : cd, &lin[c][i], 4) != 0;
				bad += memcmp(p ? (const void *)&wp[c] : cd, &persp[c][i], 4) != 0;
			}
		}
	}
	return bad;
}

/* Points where one reciprocal would give a different float: a setup
 * whose weights are l1 = x, l2 = 0, l0 = 1 - x, rhw (r0, 1, 1), so the
 * perspective l1 is x / ((1 - x) r0 + x); x solved for a quotient at the
 * midpoint between two floats and moved by a few ulps, kept where
 * (float)(x * (1 / sum)) differs from (float)(x / sum). bary_at_n must give
 * the quotient's float there (the lanes it divides). */
static unsigned midpoint_quotients(unsigned *found)
{
	unsigned bad = 0;
	*found = 0;
	for (int t = 0; t < 4000 && *found < 64; t++) {
		double r0 = rnd(0.5f, 2.0f);
		float f = rnd(0.25f, 3.0f);
		double m = f + (double)(nextafterf(f, 4.0f) - f) / 2;   /* a midpoint */
		double x0 = m * r0 / (1 + m * r0 - m);
		double xs[32] = { 0 }, ys[32] = { 0 };
		unsigned n = 0;
		for (int k = -16; k <= 16 && n < 32; k++) {
			double x = x0 + k * (nextafter(x0, 8.0) - x0);
			double sum = ((1.0 - x - 0.0) * r0 + x) + 0.0;
			if ((float)(x / sum) != (float)(x * (1.0 / sum)))
				xs[n++] = x;
		}
		if (!n)
			continue;
		*found += n;
		struct bary_setup s = { .x0 = 0, .y0 = 0, .e1x = 1, .e1y = 0, .e2x = 0, .e2y = 1,
					.inv_area = 1, .rhw = { r0, 1, 1 } };
		float lin[3][32], persp[3][32];
		bary_at_n(&s, n, xs, ys, (float *const[3]){ lin[0], lin[1], lin[2] },
			  (float *const[3]){ persp[0], persp[1], persp[2] });
		for (unsigned i = 0; i < n; i++) {
			double l1 = (xs[i] * 1.0 - 0.0 * 0.0) * 1.0, l0 = 1.0 - l1 - 0.0;
			double sum = (l0 * r0 + l1 * 1.0) + 0.0;
			bad += persp[1][i] != (float)(l1 / sum) || persp[0][i] != (float)(l0 * r0 / sum);
		}
	}
	return bad;
}

/* w = 1 at the three vertices (bary_setup's rhw_one): the perspective
 * weights are the linear ones only where l0 + l1 + l2 rounds to exactly
 * 1. Points x (l1 = x, l2 = y, l0 = 1 - x - y) at a float midpoint,
 * with y chosen so that the sum is not 1 and l1 / sum rounds to another
 * float than l1: the perspective weight must be the quotient's float. */
static unsigned w1_sums(unsigned *found)
{
	unsigned bad = 0;
	*found = 0;
	struct bary_setup s;
	struct win_vertex v[3] = { { 0, 0, 0, 1 }, { 1, 0, 0, 1 }, { 0, 1, 0, 1 } };
	bary_setup(&s, &v[0], &v[1], &v[2]);   /* l1 = x, l2 = y */
	double xs[32], ys[32];
	unsigned n = 0;
	for (int t = 0; t < 200000 && n < 32; t++) {
		float f = rnd(0.5f, 0.9f);
		double m = f + (double)(nextafterf(f, 1.0f) - f) / 2;
		/* all 53 bits used, so the sum can round */
		uint32_t hi = seed = seed * 1664525u + 1013904223u;
		uint32_t lo = seed = seed * 1664525u + 1013904223u;
		double y = ((double)hi / 4294967296.0 + (double)lo / 18446744073709551616.0) * 0.3;
		double sum = ((1.0 - m - y) + m) + y;
		if (sum != 1.0 && (float)(m / sum) != (float)m) {
			xs[n] = m;
			ys[n++] = y;
		}
	}
	*found = n;
	float lin[3][32], persp[3][32];
	bary_at_n(&s, n, xs, ys, (float *const[3]){ lin[0], lin[1], lin[2] },
		  (float *const[3]){ persp[0], persp[1], persp[2] });
	for (unsigned i = 0; i < n; i++) {
		double l1 = xs[i], l2 = ys[i], l0 = 1.0 - l1 - l2, sum = (l0 + l1) + l2;
		bad += persp[1][i] != (float)(l1 / sum) || persp[0][i] != (float)(l0 / sum) ||
		       persp[2][i] != (float)(l2 / sum);
	}
	return bad;
}

int main(void)
{
	unsigned mismatches = 0, lin_mismatches = 0, zero_sums = 0, z_mismatches = 0;
	for (int tri = 0; tri < 400; tri++) {
		struct win_vertex v[3];
		for (int k = 0; k < 3; k++) {
			v[k].x = rnd(-50, 1100);
			v[k].y = rnd(-50, 1100);
			v[k].z = rnd(0, 1);
			v[k].rhw = tri % 5 == 0 ? 1.0f : tri % 7 == 0 ? 0.0f : rnd(-2, 4);
		}
		if (tri % 11 == 0)
			v[1].rhw = -v[0].rhw;   /* sums of 0 along a line */
		struct bary_setup s;
		bary_setup(&s, &v[0], &v[1], &v[2]);
		unsigned n = 1 + tri % 32;
		double x[32 + BARY_CHUNK] = { 0 }, y[32 + BARY_CHUNK] = { 0 };
		for (unsigned i = 0; i < n; i++) {
			x[i] = (int)rnd(0, 1024) + 0.5;
			y[i] = (int)rnd(0, 1024) + 0.5;
		}
		mismatches += check_points(v, n, x, y);
		for (unsigned i = 0; i < n; i++) {
			float wl[3], wp[3];
			oracle(v, x[i], y[i], wl, wp);
			zero_sums += tri % 7 == 0 && tri % 5 != 0;
			/* the linear weights alone (depth's) and one point
			 * at a time: the same bits */
			float ol[3], sl[3], sp[3];
			memset(ol, 0xcd, sizeof(ol));
			bary_lin_at(&s, x[i], y[i], ol);
			bary_at(&s, x[i], y[i], sl, sp);
			lin_mismatches += memcmp(wl, ol, sizeof(wl)) != 0;
			mismatches += memcmp(wl, sl, sizeof(wl)) != 0 || memcmp(wp, sp, sizeof(wp)) != 0;
			/* the depth plane of the quad holding the point */
			int32_t qx = (int32_t)x[i] & ~1, qy = (int32_t)y[i] & ~1;
			float z[4];
			bary_z_quad(&s, (const float[3]){ v[0].z, v[1].z, v[2].z }, qx, qy, z);
			for (int p = 0; p < 4; p++) {
				float want = z_oracle(v, qx + (p & 1) + 0.5, qy + (p >> 1) + 0.5);
				z_mismatches += memcmp(&want, &z[p], 4) != 0;
			}
			/* a run of 1..8 quads from there (bary_z_quads), and
			 * nothing written past it */
			unsigned nq = 1 + i % 8;
			float zr[33];
			memset(zr, 0xcd, sizeof(zr));
			bary_z_quads(&s, (const float[3]){ v[0].z, v[1].z, v[2].z }, qx, qy, nq, zr);
			for (unsigned p = 0; p < 4 * nq; p++) {
				float want = z_oracle(v, qx + 2 * (p / 4) + (p & 1) + 0.5,
						      qy + (p >> 1 & 1) + 0.5);
				z_mismatches += memcmp(&want, &zr[p], 4) != 0;
			}
			uint8_t cdz[4];
			memset(cdz, 0xcd, 4);
			for (unsigned p = 4 * nq; p < 33; p++)
				z_mismatches += memcmp(cdz, &zr[p], 4) != 0;
		}
	}
	/* A dense sweep of every pixel centre of 256x256 for triangles with
	 * perspective (rhw of one sign, of both, tiny, and sums near 0: the
	 * quotients bary_at_n takes from one reciprocal and those it
	 * divides), 32 points at a time. */
	for (int tri = 0; tri < 24; tri++) {
		struct win_vertex v[3];
		for (int k = 0; k < 3; k++) {
			v[k].x = rnd(-100, 356);
			v[k].y = rnd(-100, 356);
			v[k].z = rnd(0, 1);
			v[k].rhw = tri % 4 == 0 ? rnd(0.01f, 4) : tri % 4 == 1 ? rnd(-1, 1) :
				   tri % 4 == 2 ? rnd(1e-30f, 1e-29f) : 1.0f;
		}
		if (tri % 3 == 0)
			v[2].rhw = -v[1].rhw * 0.999f;
		for (int py = 0; py < 256; py++)
			for (int px0 = 0; px0 < 256; px0 += 32) {
				double x[32], y[32];
				for (int i = 0; i < 32; i++) {
					x[i] = px0 + i + 0.5;
					y[i] = py + 0.5;
				}
				mismatches += check_points(v, 32, x, y);
			}
	}
	/* bary_pixels (the payload's: integer pixels, some outputs): the
	 * random triangles above, and triangles on whole and half pixels
	 * with w of 1 everywhere, of 2 or 0.5, and mixed, whose perspective
	 * sums are often powers of two (the products instead of divisions) */
	unsigned pix_mismatches = 0, fast = 0, groups = 0;
	for (int tri = 0; tri < 300; tri++) {
		struct win_vertex v[3];
		bool grid = tri % 2 == 0;
		static const float rhws[] = { 1.0f, 2.0f, 0.5f, 0.25f };
		for (int k = 0; k < 3; k++) {
			v[k].x = grid ? (float)(int)rnd(-64, 600) * (tri % 4 ? 1.0f : 0.5f) : rnd(-50, 600);
			v[k].y = grid ? (float)(int)rnd(-64, 600) * (tri % 4 ? 1.0f : 0.5f) : rnd(-50, 600);
			v[k].z = rnd(0, 1);
			v[k].rhw = tri % 3 == 0 ? rhws[tri / 3 % 4] : tri % 3 == 1 ? rnd(-2, 4) :
				   rhws[(tri + k) % 4];
		}
		if (tri % 13 == 0)
			v[1].rhw = -v[0].rhw;
		for (int row = 0; row < 64; row++) {
			int32_t ix[32 + BARY_CHUNK] = { 0 }, iy[32 + BARY_CHUNK] = { 0 };
			unsigned n = row % 8 == 7 ? 1 + (unsigned)row % 31 : 32;
			for (unsigned i = 0; i < n; i++) {   /* quads, as a thread gathers them */
				ix[i] = (int32_t)(i / 4 * 2 + (i & 1)) + row % 9 * 64;
				iy[i] = (int32_t)(row * 8 + (i >> 1 & 1));
			}
			pix_mismatches += check_pixels(v, n, ix, iy, &fast);
			groups += (n + 3) / 4;
		}
	}
	CHECK_EQ(pix_mismatches, 0);
	CHECK(fast > groups / 8);
	CHECK(fast < groups);

	unsigned found;
	CHECK_EQ(w1_sums(&found), 0);
	CHECK(found >= 16);
	CHECK_EQ(midpoint_quotients(&found), 0);
	CHECK(found >= 32);
	CHECK_EQ(mismatches, 0);
	CHECK_EQ(lin_mismatches, 0);
	CHECK_EQ(z_mismatches, 0);
	CHECK(zero_sums > 0);
	return test_exit();
}
