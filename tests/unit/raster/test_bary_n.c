/* bary_at_n, the vectorised barycentrics of a PS thread's pixels, against
 * the weights computed here one point at a time from their definition:
 * edge functions of the point over twice the triangle's area (as the
 * product with the reciprocal area, in double), l0 = 1 - l1 - l2, and the
 * perspective weights l_i * rhw_i over their sum, the linear ones where
 * that sum is 0. Bit for bit, for random triangles (some with rhw 0 or of
 * mixed signs) and every count of points from 1 to 32; bary_at and
 * bary_lin_at (the linear weights alone, for depth) at each point too. */
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

int main(void)
{
	unsigned mismatches = 0, lin_mismatches = 0, zero_sums = 0;
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
		float lin[32][3], persp[32][3];
		memset(lin, 0xcd, sizeof(lin));
		memset(persp, 0xcd, sizeof(persp));
		bary_at_n(&s, n, x, y, lin, persp);
		for (unsigned i = 0; i < n; i++) {
			float wl[3], wp[3];
			oracle(v, x[i], y[i], wl, wp);
			zero_sums += tri % 7 == 0 && tri % 5 != 0;
			mismatches += memcmp(wl, lin[i], sizeof(wl)) != 0 ||
				      memcmp(wp, persp[i], sizeof(wp)) != 0;
			/* the linear weights alone (depth's) and one point
			 * at a time: the same bits */
			float ol[3], sl[3], sp[3];
			memset(ol, 0xcd, sizeof(ol));
			bary_lin_at(&s, x[i], y[i], ol);
			bary_at(&s, x[i], y[i], sl, sp);
			lin_mismatches += memcmp(wl, ol, sizeof(wl)) != 0;
			mismatches += memcmp(wl, sl, sizeof(wl)) != 0 || memcmp(wp, sp, sizeof(wp)) != 0;
		}
		/* nothing past the n points is written */
		uint8_t cd[12];
		memset(cd, 0xcd, sizeof(cd));
		if (n < 32)
			CHECK(!memcmp(lin[n], cd, 12) && !memcmp(persp[n], cd, 12));
	}
	CHECK_EQ(mismatches, 0);
	CHECK_EQ(lin_mismatches, 0);
	CHECK(zero_sums > 0);
	return test_exit();
}
