/* Triangle rasterization in fixed point (PRM vol. 2 "Rasterization":
 * 8 bits of sub-pixel precision). Each edge a->b of the triangle, wound so
 * that the inside is where E(p) = (b - a) x (p - a) > 0, covers a pixel
 * centre exactly on it only when it is a top edge (horizontal, inside
 * below) or a left edge (inside to its right): two triangles sharing an
 * edge then never both cover, and never both miss, a pixel on it. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/clones.h"
#include "gpu/render/raster.h"

/* Window coordinates beyond the guard band never reach here; clamp so the
 * edge products stay well inside 64 bits. */
#define RASTER_MAX_COORD 65536.0f

int64_t raster_fixed(float v)
{
	if (!(v > -RASTER_MAX_COORD))
		v = -RASTER_MAX_COORD;
	if (v > RASTER_MAX_COORD)
		v = RASTER_MAX_COORD;
	return (int64_t)lrintf(v * RASTER_ONE);
}

double raster_area2(const struct win_vertex *v0, const struct win_vertex *v1,
		    const struct win_vertex *v2)
{
	return ((double)v1->x - v0->x) * ((double)v2->y - v0->y) -
	       ((double)v2->x - v0->x) * ((double)v1->y - v0->y);
}

struct edge {
	int64_t a, b, c;   /* E(x, y) = a*x + b*y + c, x/y fixed point */
	int64_t bias;      /* 0 for top-left edges, 1 otherwise: E - bias >= 0 */
};

static void edge_init(struct edge *e, int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
	int64_t dx = bx - ax, dy = by - ay;
	e->a = -dy;
	e->b = dx;
	e->c = dy * ax - dx * ay;
	bool top_left = dy < 0 || (dy == 0 && dx > 0);
	e->bias = top_left ? 0 : 1;
}

/* Offsets of the pixel centre alone: the single-sample pattern. */
const struct raster_samples raster_centre = { 1, { RASTER_ONE / 2 }, { RASTER_ONE / 2 } };

int raster_triangle_ms(const struct win_vertex *v0, const struct win_vertex *v1,
		       const struct win_vertex *v2, const struct pixel_rect *clip,
		       const struct raster_samples *sp, raster_cov_fn fn, void *ctx)
{
	return raster_triangle_runs(v0, v1, v2, clip, sp, fn, NULL, ctx);
}

/* Quads covered whole: to the run callback as runs of a row, else one by
 * one to the quad callback with every sample covered. */
static int emit_whole(raster_cov_fn fn, raster_run_fn run, void *ctx, int32_t x, int32_t y,
		      unsigned n, uint64_t all)
{
	if (run)
		return n ? run(ctx, x, y, n, all) : 0;
	for (unsigned k = 0; k < n; k++) {
		int ret = fn(ctx, x + 2 * (int32_t)k, y, all);
		if (ret)
			return ret;
	}
	return 0;
}

int raster_triangle_runs(const struct win_vertex *v0, const struct win_vertex *v1,
			 const struct win_vertex *v2, const struct pixel_rect *clip,
			 const struct raster_samples *sp, raster_cov_fn fn, raster_run_fn run,
			 void *ctx)
{
	int64_t x[3] = { raster_fixed(v0->x), raster_fixed(v1->x), raster_fixed(v2->x) };
	int64_t y[3] = { raster_fixed(v0->y), raster_fixed(v1->y), raster_fixed(v2->y) };
	int64_t area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
	unsigned ns = sp->n < 1 ? 1 : sp->n > RASTER_MAX_SAMPLES ? RASTER_MAX_SAMPLES : sp->n;
	if (area == 0)
		return 0;
	if (area < 0) {            /* wind it so the inside is E > 0 */
		int64_t t = x[1]; x[1] = x[2]; x[2] = t;
		t = y[1]; y[1] = y[2]; y[2] = t;
	}
	struct edge e[3];
	edge_init(&e[0], x[0], y[0], x[1], y[1]);
	edge_init(&e[1], x[1], y[1], x[2], y[2]);
	edge_init(&e[2], x[2], y[2], x[0], y[0]);

	/* Pixel bounds: pixels px with a sample (px + offset) inside [min, max]
	 * of the vertices. */
	int64_t xmin = x[0], xmax = x[0], ymin = y[0], ymax = y[0];
	for (int i = 1; i < 3; i++) {
		xmin = x[i] < xmin ? x[i] : xmin;
		xmax = x[i] > xmax ? x[i] : xmax;
		ymin = y[i] < ymin ? y[i] : ymin;
		ymax = y[i] > ymax ? y[i] : ymax;
	}
	int64_t sxmin = sp->x[0], sxmax = sp->x[0], symin = sp->y[0], symax = sp->y[0];
	for (unsigned s = 1; s < ns; s++) {
		sxmin = sp->x[s] < sxmin ? sp->x[s] : sxmin;
		sxmax = sp->x[s] > sxmax ? sp->x[s] : sxmax;
		symin = sp->y[s] < symin ? sp->y[s] : symin;
		symax = sp->y[s] > symax ? sp->y[s] : symax;
	}
	struct pixel_rect r = {
		(int32_t)((xmin - sxmax + RASTER_ONE - 1) >> RASTER_SUBPIXEL_BITS),
		(int32_t)((ymin - symax + RASTER_ONE - 1) >> RASTER_SUBPIXEL_BITS),
		(int32_t)((xmax - sxmin) >> RASTER_SUBPIXEL_BITS),
		(int32_t)((ymax - symin) >> RASTER_SUBPIXEL_BITS),
	};
	rect_intersect(&r, clip);
	if (r.x0 > r.x1 || r.y0 > r.y1)
		return 0;

	/* Each edge's value at sample s of a pixel is its value at the pixel's
	 * corner plus so[i][s]. The smallest value of each edge over a quad's
	 * samples (E is linear: the pixel step and the sample offset that
	 * make it least) says whether the quad is covered whole, without
	 * testing its samples one by one. */
	/* Likewise the largest value says a quad is missed whole: the quads
	 * of a row that some edge misses whole are not visited (half of a
	 * triangle's bounding box). */
	/* An 8x8 block of pixels (at multiples of 8, PRM "Rasterization":
	 * the windower's blocks) whose smallest value of each edge over its
	 * samples is >= 0 is covered whole, one whose largest value of an
	 * edge is < 0 is missed whole: bmin/bmax from its upper left corner. */
	int64_t qmin[3], qmax[3], bmin[3], bmax[3], so[3][RASTER_MAX_SAMPLES];
	for (int i = 0; i < 3; i++) {
		int64_t sx = e[i].a * RASTER_ONE, sy = e[i].b * RASTER_ONE;
		int64_t omin = INT64_MAX, omax = INT64_MIN;
		for (unsigned s = 0; s < ns; s++) {
			so[i][s] = e[i].a * sp->x[s] + e[i].b * sp->y[s];
			omin = so[i][s] < omin ? so[i][s] : omin;
			omax = so[i][s] > omax ? so[i][s] : omax;
		}
		qmin[i] = (sx < 0 ? sx : 0) + (sy < 0 ? sy : 0) + omin;
		qmax[i] = (sx > 0 ? sx : 0) + (sy > 0 ? sy : 0) + omax;
		bmin[i] = 7 * (sx < 0 ? sx : 0) + 7 * (sy < 0 ? sy : 0) + omin;
		bmax[i] = 7 * (sx > 0 ? sx : 0) + 7 * (sy > 0 ? sy : 0) + omax;
	}
	uint64_t all = ns == 16 ? 0xffff : (1u << ns) - 1;
	all |= all << 16 | all << 32 | all << 48;
	int32_t qx0 = r.x0 & ~1, qy0 = r.y0 & ~1;
	for (int32_t qy = qy0; qy <= r.y1; qy += 2) {
		bool rows_inside = qy >= r.y0 && qy + 1 <= r.y1;
		int32_t by = qy & ~7;
		bool brows_inside = by >= r.y0 && by + 7 <= r.y1;
		/* edge values at the corner of pixel (qx0, qy), stepping by a
		 * pixel in x (a*ONE) and y (b*ONE) */
		int64_t px = (int64_t)qx0 * RASTER_ONE, py = (int64_t)qy * RASTER_ONE;
		int64_t row[3], sx[3], sy[3];
		for (int i = 0; i < 3; i++) {
			row[i] = e[i].a * px + e[i].b * py + e[i].c - e[i].bias;
			sx[i] = e[i].a * RASTER_ONE;
			sy[i] = e[i].b * RASTER_ONE;
		}
		/* quads k = 0, 1, ... of the row (qx = qx0 + 2k) whose largest
		 * value of every edge, row + qmax + k * step, is >= 0 */
		int64_t kmin = 0, kmax = (r.x1 - qx0) / 2;
		for (int i = 0; i < 3; i++) {
			int64_t v = row[i] + qmax[i], step = 2 * sx[i];
			if (step > 0 && v < 0)
				kmin = (-v + step - 1) / step > kmin ? (-v + step - 1) / step : kmin;
			else if (step < 0)
				kmax = v < 0 ? -1 : v / -step < kmax ? v / -step : kmax;
			else if (step == 0 && v < 0)
				kmax = -1;
		}
		if (kmin > kmax)
			continue;
		for (int i = 0; i < 3; i++)
			row[i] += kmin * 2 * sx[i];
		int32_t qx_end = qx0 + 2 * (int32_t)kmax;
		/* the row's quads block by block, left to right: the order of
		 * the quads is that of a quad-by-quad walk */
		int32_t run_x = 0;
		unsigned run_n = 0;
		for (int32_t qx = qx0 + 2 * (int32_t)kmin; qx <= qx_end;) {
			int32_t bx = qx & ~7, last = bx + 6 < qx_end ? bx + 6 : qx_end;
			unsigned nq = (unsigned)(last - qx) / 2 + 1;
			bool inside = brows_inside && bx >= r.x0 && bx + 7 <= r.x1, outside = false;
			for (int i = 0; i < 3; i++) {
				int64_t corner = row[i] - (qx - bx) * sx[i] - (qy - by) * sy[i];
				inside = inside && corner + bmin[i] >= 0;
				outside = outside || corner + bmax[i] < 0;
			}
			if (inside) {
				run_x = run_n ? run_x : qx;
				run_n += nq;
			} else {
				int ret = emit_whole(fn, run, ctx, run_x, qy, run_n, all);
				if (ret)
					return ret;
				run_n = 0;
			}
			for (unsigned k = 0; k < nq && !inside && !outside; k++) {
				int32_t x = qx + 2 * (int32_t)k;
				int64_t v[3];
				for (int i = 0; i < 3; i++)
					v[i] = row[i] + 2 * (int64_t)k * sx[i];
				bool whole = rows_inside && x >= r.x0 && x + 1 <= r.x1 &&
					     v[0] + qmin[0] >= 0 && v[1] + qmin[1] >= 0 &&
					     v[2] + qmin[2] >= 0;
				uint64_t cov = whole ? all : 0;
				for (unsigned p = 0; p < 4 && !whole; p++) {
					int32_t dx = p & 1, dy = p >> 1;
					int32_t pxl = x + dx, pyl = qy + dy;
					if (pxl < r.x0 || pxl > r.x1 || pyl < r.y0 || pyl > r.y1)
						continue;
					for (unsigned s = 0; s < ns; s++) {
						bool in = true;
						for (int i = 0; i < 3 && in; i++)
							in = v[i] + dx * sx[i] + dy * sy[i] + so[i][s] >= 0;
						cov |= (uint64_t)in << (16 * p + s);
					}
				}
				if (cov) {
					int ret = fn(ctx, x, qy, cov);
					if (ret)
						return ret;
				}
			}
			for (int i = 0; i < 3; i++)
				row[i] += 2 * (int64_t)nq * sx[i];
			qx += 2 * (int32_t)nq;
		}
		int ret = emit_whole(fn, run, ctx, run_x, qy, run_n, all);
		if (ret)
			return ret;
	}
	return 0;
}

void bary_setup(struct bary_setup *s, const struct win_vertex *v0,
		const struct win_vertex *v1, const struct win_vertex *v2)
{
	s->x0 = v0->x;
	s->y0 = v0->y;
	s->e1x = (double)v1->x - v0->x;
	s->e1y = (double)v1->y - v0->y;
	s->e2x = (double)v2->x - v0->x;
	s->e2y = (double)v2->y - v0->y;
	double area = s->e1x * s->e2y - s->e2x * s->e1y;
	s->inv_area = area != 0 ? 1.0 / area : 0;
	s->rhw[0] = v0->rhw;
	s->rhw[1] = v1->rhw;
	s->rhw[2] = v2->rhw;
	s->rhw_one = v0->rhw == 1.0f && v1->rhw == 1.0f && v2->rhw == 1.0f;
	s->z[0] = v0->z;
	s->z[1] = v1->z;
	s->z[2] = v2->z;
}

/* bary_at at n points (x and y padded to a multiple of BARY_CHUNK): the
 * same IEEE results, so the same bits, on vectors of four doubles (GCC
 * vector extensions; AVX where the host has it). */
typedef double bary_v4d __attribute__((vector_size(32)));
typedef int64_t bary_v4i __attribute__((vector_size(32)));
typedef float bary_v4f __attribute__((vector_size(16)));

/* a where mask m is set, else b (a macro: a vector return is ABI-bound) */
#define bary_pick(m, a, b) ((bary_v4d)(((bary_v4i)(a) & (m)) | ((bary_v4i)(b) & ~(m))))

/* The definition's operations on the four points (vx, vy): the linear
 * weights l, the perspective ones q (the linear ones where the sum of
 * l_i rhw_i is 0); `want` (BARY_*) says which the caller stores, the
 * others may be left out. A sum that is a power of two 2^k (every lane),
 * as with w = 1 everywhere, divides exactly as a product with 2^-k: both
 * are the correctly rounded value of the same real p / 2^k (subnormal
 * results included), so three divisions become three products with the
 * same bits. True when q is l itself (w = 1 at the three vertices and
 * sums of exactly 1). */
static inline __attribute__((always_inline)) bool
bary_core(const struct bary_setup *s, const bary_v4d *vxp, const bary_v4d *vyp, unsigned want,
	  bary_v4d l[3], bary_v4d q[3])
{
	/* positions by pointer: a 32-byte vector argument of the default
	 * target clone is an ABI question clang refuses (-Wpsabi), even inlined */
	bary_v4d vx = *vxp, vy = *vyp;
	const bary_v4d zero = { 0, 0, 0, 0 }, one = zero + 1.0;
	bary_v4d px = vx - s->x0, py = vy - s->y0;
	bary_v4d l1 = (px * s->e2y - s->e2x * py) * s->inv_area;
	bary_v4d l2 = (s->e1x * py - px * s->e1y) * s->inv_area;
	bary_v4d l0 = 1.0 - l1 - l2;
	l[0] = l0;
	l[1] = l1;
	l[2] = l2;
	if (!(want & (BARY_PERSP | BARY_PERSP12)))
		return false;
	if (s->rhw_one) {
		/* l_i * 1 is l_i: a sum of exactly 1 in every lane makes the
		 * perspective weights the linear ones (x / 1 is x) */
		bary_v4i is1 = (l0 + l1) + l2 == one;
		if (is1[0] & is1[1] & is1[2] & is1[3]) {
			q[0] = l0;
			q[1] = l1;
			q[2] = l2;
			return true;
		}
	}
	bary_v4d p0 = l0 * s->rhw[0], p1 = l1 * s->rhw[1], p2 = l2 * s->rhw[2];
	bary_v4d sum = p0 + p1 + p2;
	bary_v4i nz = sum != zero;
	/* 2^k with a normal 2^-k: mantissa 0, biased exponent 1..2045 */
	const bary_v4i zi = { 0, 0, 0, 0 };
	const bary_v4i expo = zi + 0x7ff0000000000000ll, mant = zi + 0x000fffffffffffffll;
	bary_v4i bits = (bary_v4i)sum, e = bits & expo;
	bary_v4i pow2 = ((bits & mant) == 0) & (e >= (1ll << 52)) & (e <= (2045ll << 52));
	bary_v4i fast = pow2 | ~nz;
	if (fast[0] & fast[1] & fast[2] & fast[3]) {
		bary_v4i rbits = (bits & ~(expo | mant)) | ((2046ll << 52) - e);
		bary_v4d r = (bary_v4d)rbits;
		if (want & BARY_PERSP)
			q[0] = bary_pick(nz, p0 * r, l0);
		q[1] = bary_pick(nz, p1 * r, l1);
		q[2] = bary_pick(nz, p2 * r, l2);
		return false;
	}
	bary_v4d div = bary_pick(nz, sum, one);
	/* three divisions: one reciprocal and three products were
	 * measured no faster (the divisions overlap; the checks that
	 * would keep the quotients' bits cost more), the stores of
	 * each weight as four floats were the cost */
	if (want & BARY_PERSP)
		q[0] = bary_pick(nz, p0 / div, l0);
	q[1] = bary_pick(nz, p1 / div, l1);
	q[2] = bary_pick(nz, p2 / div, l2);
	return false;
}

/* Weights c of the points [b, b + 4) (m of them, the rest not written)
 * as floats, those `want` asks for. */
static inline __attribute__((always_inline)) void
bary_store(unsigned want, bool same, unsigned b, unsigned m, const bary_v4d l[3],
	   const bary_v4d q[3], float *const lin[3], float *const persp[3])
{
	for (unsigned c = 0; c < 3; c++) {
		bool wl = want & BARY_LIN;
		bool wq = (want & BARY_PERSP) || (c && (want & BARY_PERSP12));
		bary_v4f fl = __builtin_convertvector(l[c], bary_v4f);
		bary_v4f fq = wq && !same ? __builtin_convertvector(q[c], bary_v4f) : fl;
		if (m >= 4) {
			if (wl)
				memcpy(lin[c] + b, &fl, sizeof(fl));
			if (wq)
				memcpy(persp[c] + b, &fq, sizeof(fq));
			continue;
		}
		for (unsigned i = 0; i < m; i++) {
			if (wl)
				lin[c][b + i] = fl[i];
			if (wq)
				persp[c][b + i] = fq[i];
		}
	}
}

/* An AVX clone picked at load time where GCC makes one (clones.h). */
GT_CLONES("avx2", "avx", "default")
void bary_at_n(const struct bary_setup *s, unsigned n, const double *x, const double *y,
	       float *const lin[3], float *const persp[3])
{
	for (unsigned b = 0; b < n; b += 4) {
		bary_v4d vx, vy, l[3], q[3];
		memcpy(&vx, x + b, sizeof(vx));
		memcpy(&vy, y + b, sizeof(vy));
		bool same = bary_core(s, &vx, &vy, BARY_LIN | BARY_PERSP, l, q);
		bary_store(BARY_LIN | BARY_PERSP, same, b, n - b, l, q, lin, persp);
	}
}

static inline __attribute__((always_inline)) void
bary_pixels_as(const struct bary_setup *s, unsigned n, const int32_t *x, const int32_t *y,
	       unsigned want, float *const lin[3], float *const persp[3])
{
	typedef int32_t v4si __attribute__((vector_size(16)));
	for (unsigned b = 0; b < n; b += 4) {
		v4si ix, iy;
		memcpy(&ix, x + b, sizeof(ix));
		memcpy(&iy, y + b, sizeof(iy));
		/* the centres: exact in double */
		bary_v4d vx = __builtin_convertvector(ix, bary_v4d) + 0.5;
		bary_v4d vy = __builtin_convertvector(iy, bary_v4d) + 0.5;
		bary_v4d l[3], q[3];
		bool same = bary_core(s, &vx, &vy, want, l, q);
		bary_store(want, same, b, n - b, l, q, lin, persp);
	}
}

GT_CLONES("avx2", "avx", "default")
void bary_pixels(const struct bary_setup *s, unsigned n, const int32_t *x, const int32_t *y,
		 unsigned want, float *const lin[3], float *const persp[3])
{
	/* the common choices compiled each for itself */
	if (want == BARY_PERSP12)
		bary_pixels_as(s, n, x, y, BARY_PERSP12, lin, persp);
	else if (want == (BARY_PERSP12 | BARY_LIN))
		bary_pixels_as(s, n, x, y, BARY_PERSP12 | BARY_LIN, lin, persp);
	else
		bary_pixels_as(s, n, x, y, want, lin, persp);
}

/* wm_prim_z's depth plane at the four pixel centres of each of the n
 * quads at (x + 2k, y): bary_lin_at's weights rounded to float, then z0 +
 * l1 (z1 - z0) + l2 (z2 - z0) in double, rounded to float; the same
 * operations four at a time. */
static inline __attribute__((always_inline)) void
bary_z_as(const struct bary_setup *s, const float z[3], int32_t x, int32_t y, unsigned n,
	  float *out)
{
	double z0 = z[0], dz1 = (double)z[1] - z0, dz2 = (double)z[2] - z0;
	bary_v4d vy = { y + 0.5, y + 0.5, y + 1.5, y + 1.5 };
	bary_v4d py = vy - s->y0;
	bary_v4d e2xpy = s->e2x * py, e1xpy = s->e1x * py;
	for (unsigned k = 0; k < n; k++) {
		double qx = x + 2.0 * k;
		bary_v4d vx = { qx + 0.5, qx + 1.5, qx + 0.5, qx + 1.5 };
		bary_v4d px = vx - s->x0;
		bary_v4d l1 = (px * s->e2y - e2xpy) * s->inv_area;
		bary_v4d l2 = (e1xpy - px * s->e1y) * s->inv_area;
		l1 = __builtin_convertvector(__builtin_convertvector(l1, bary_v4f), bary_v4d);
		l2 = __builtin_convertvector(__builtin_convertvector(l2, bary_v4f), bary_v4d);
		bary_v4d d = (z0 + l1 * dz1) + l2 * dz2;
		bary_v4f f = __builtin_convertvector(d, bary_v4f);
		memcpy(out + 4 * k, &f, sizeof(f));
	}
}

GT_CLONES("avx", "default")
void bary_z_quad(const struct bary_setup *s, const float z[3], int32_t x, int32_t y,
		 float out[4])
{
	bary_z_as(s, z, x, y, 1, out);
}

GT_CLONES("avx", "default")
void bary_z_quads(const struct bary_setup *s, const float z[3], int32_t x, int32_t y,
		  unsigned n, float *out)
{
	bary_z_as(s, z, x, y, n, out);
}

/* The linear weights in double, the definition both below share. */
static void lin_d(const struct bary_setup *s, double x, double y, double l[3])
{
	double px = x - s->x0, py = y - s->y0;
	l[1] = (px * s->e2y - s->e2x * py) * s->inv_area;
	l[2] = (s->e1x * py - px * s->e1y) * s->inv_area;
	l[0] = 1.0 - l[1] - l[2];
}

void bary_lin_at(const struct bary_setup *s, double x, double y, float lin[3])
{
	double l[3];
	lin_d(s, x, y, l);
	lin[0] = (float)l[0];
	lin[1] = (float)l[1];
	lin[2] = (float)l[2];
}

void bary_at(const struct bary_setup *s, double x, double y, float lin[3], float persp[3])
{
	double l[3];
	lin_d(s, x, y, l);
	double l0 = l[0], l1 = l[1], l2 = l[2];
	lin[0] = (float)l0;
	lin[1] = (float)l1;
	lin[2] = (float)l2;
	double p0 = l0 * s->rhw[0], p1 = l1 * s->rhw[1], p2 = l2 * s->rhw[2];
	double sum = p0 + p1 + p2;
	if (sum != 0) {
		persp[0] = (float)(p0 / sum);
		persp[1] = (float)(p1 / sum);
		persp[2] = (float)(p2 / sum);
	} else {
		persp[0] = lin[0];
		persp[1] = lin[1];
		persp[2] = lin[2];
	}
}
