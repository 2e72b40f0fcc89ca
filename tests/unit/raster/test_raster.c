/* Rasterization rules (PRM vol. 2 "Rasterization Rules"): coverage of
 * random triangles against an exact point-in-triangle oracle written from
 * the rule's definition, and the shared-edge property on a jittered mesh:
 * every pixel covered once, none twice, none missed; large triangles
 * under odd scissors, whose quads are mostly covered whole. */
#include <math.h>

#include "gpu/render/raster.h"
#include "test.h"

#define W 64
#define H 48

static uint8_t hits[H][W];

static int count_quad(void *ctx, int32_t x, int32_t y, unsigned mask)
{
	(void)ctx;
	for (unsigned p = 0; p < 4; p++) {
		if (!(mask >> p & 1))
			continue;
		int32_t px = x + (int32_t)(p & 1), py = y + (int32_t)(p >> 1);
		if (px < 0 || py < 0 || px >= W || py >= H)
			return 1;   /* outside the clip rectangle: a bug */
		hits[py][px]++;
	}
	return 0;
}

/* Oracle: vertices snapped to 1/256 pixel; the pixel centre c is covered
 * when it is strictly inside, or on an edge that is a top edge (exactly
 * horizontal, the third vertex below it: y grows downwards) or a left edge
 * (the third vertex lies to the right of the edge at c's height). */
typedef __int128 i128;
static i128 cross(i128 ax, i128 ay, i128 bx, i128 by, i128 cx, i128 cy)
{
	return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

static bool oracle(const int64_t *x, const int64_t *y, int64_t cx, int64_t cy)
{
	i128 area = cross(x[0], y[0], x[1], y[1], x[2], y[2]);
	if (area == 0)
		return false;
	for (int i = 0; i < 3; i++) {
		int a = i, b = (i + 1) % 3, o = (i + 2) % 3;
		i128 s = cross(x[a], y[a], x[b], y[b], cx, cy);
		i128 so = cross(x[a], y[a], x[b], y[b], x[o], y[o]);
		if (s == 0) {
			bool top = y[a] == y[b] && y[o] > y[a];
			/* left: the edge is not horizontal and the opposite vertex is
			 * on the side of increasing x */
			bool left = false;
			if (y[a] != y[b]) {
				/* x of the edge line at the opposite vertex's height */
				i128 num = (i128)(x[b] - x[a]) * (y[o] - y[a]);
				i128 den = y[b] - y[a];
				/* x[o] > x[a] + num/den  <=>  (x[o]-x[a])*den > num (den>0) */
				i128 lhs = (i128)(x[o] - x[a]) * den;
				left = den > 0 ? lhs > num : lhs < num;
			}
			if (!top && !left)
				return false;
		} else if ((s > 0) != (so > 0)) {
			return false;
		}
	}
	return true;
}

static uint64_t rng = 88172645463325252ull;
static double frand(double lo, double hi)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

static const struct pixel_rect full = { 0, 0, W - 1, H - 1 };

static void random_triangles(void)
{
	int mismatches = 0;
	for (int t = 0; t < 400; t++) {
		struct win_vertex v[3];
		for (int i = 0; i < 3; i++) {
			v[i] = (struct win_vertex){ (float)frand(-8, W + 8), (float)frand(-8, H + 8), 0, 1 };
			/* often put vertices exactly on pixel centres and edges */
			if (t % 3 == 0) {
				v[i].x = floorf(v[i].x) + 0.5f;
				v[i].y = floorf(v[i].y) + (t % 2 ? 0.5f : 0.0f);
			}
		}
		if (t % 5 == 0)
			v[1].y = v[0].y;   /* horizontal edges */
		memset(hits, 0, sizeof(hits));
		CHECK_EQ(raster_triangle(&v[0], &v[1], &v[2], &full, count_quad, NULL), 0);
		int64_t x[3], y[3];
		for (int i = 0; i < 3; i++) {
			x[i] = lrint(v[i].x * 256.0);
			y[i] = lrint(v[i].y * 256.0);
		}
		for (int py = 0; py < H; py++)
			for (int px = 0; px < W; px++) {
				bool want = oracle(x, y, px * 256 + 128, py * 256 + 128);
				if (hits[py][px] != want && mismatches++ < 5)
					fprintf(stderr, "triangle %d pixel %d,%d: got %d want %d\n",
						t, px, py, hits[py][px], want);
			}
	}
	CHECK_EQ(mismatches, 0);
}

/* A jittered grid of vertices over [0, W] x [0, H] (the border vertices on
 * the border), two triangles per cell with random diagonals and random
 * vertex order: every pixel of the rectangle exactly once. The jitter is
 * small enough that every cell stays convex, so either diagonal splits it
 * into two triangles that do not overlap. */
static void shared_edges(void)
{
	enum { GX = 9, GY = 7 };
	struct win_vertex g[GY + 1][GX + 1];
	for (int trial = 0; trial < 20; trial++) {
		for (int j = 0; j <= GY; j++)
			for (int i = 0; i <= GX; i++) {
				float x = (float)i * W / GX, y = (float)j * H / GY;
				if (i > 0 && i < GX)
					x += (float)frand(-1.5, 1.5);
				if (j > 0 && j < GY)
					y += (float)frand(-1.5, 1.5);
				/* sometimes snap onto pixel centres: the ties that matter */
				if (trial % 2) {
					x = roundf(x * 2) / 2;
					y = roundf(y * 2) / 2;
				}
				g[j][i] = (struct win_vertex){ x, y, 0, 1 };
			}
		memset(hits, 0, sizeof(hits));
		for (int j = 0; j < GY; j++)
			for (int i = 0; i < GX; i++) {
				const struct win_vertex *a = &g[j][i], *b = &g[j][i + 1],
							*c = &g[j + 1][i + 1], *d = &g[j + 1][i];
				if (frand(0, 1) < 0.5) {
					raster_triangle(a, b, c, &full, count_quad, NULL);
					raster_triangle(c, d, a, &full, count_quad, NULL);
				} else {
					raster_triangle(b, a, d, &full, count_quad, NULL);
					raster_triangle(b, d, c, &full, count_quad, NULL);
				}
			}
		int bad = 0;
		for (int py = 0; py < H; py++)
			for (int px = 0; px < W; px++)
				if (hits[py][px] != 1 && bad++ < 5)
					fprintf(stderr, "mesh %d: pixel %d,%d covered %d times\n",
						trial, px, py, hits[py][px]);
		CHECK_EQ(bad, 0);
	}
}

static void clip_rect_and_shapes(void)
{
	/* a rectangle from RECTLIST corners covers exactly its pixels */
	struct win_vertex v0 = { 20, 10, 0, 1 }, v1 = { 4, 10, 0, 1 }, v2 = { 4, 2, 0, 1 };
	memset(hits, 0, sizeof(hits));
	raster_rect(&v0, &v1, &v2, &full, count_quad, NULL);
	int n = 0, wrong = 0;
	for (int py = 0; py < H; py++)
		for (int px = 0; px < W; px++) {
			bool want = px >= 4 && px < 20 && py >= 2 && py < 10;
			n += hits[py][px];
			wrong += hits[py][px] != want;
		}
	CHECK_EQ(n, 16 * 8);
	CHECK_EQ(wrong, 0);

	/* the clip rectangle (scissor) limits coverage, inclusive */
	struct pixel_rect sc = { 5, 3, 9, 6 };
	memset(hits, 0, sizeof(hits));
	raster_rect(&v0, &v1, &v2, &sc, count_quad, NULL);
	n = 0;
	for (int py = 0; py < H; py++)
		for (int px = 0; px < W; px++)
			n += hits[py][px];
	CHECK_EQ(n, 5 * 4);

	/* a 3-pixel point centred on a pixel centre: 3x3 pixels */
	struct win_vertex p = { 10.5f, 10.5f, 0, 1 };
	memset(hits, 0, sizeof(hits));
	raster_point(&p, 3.0f, &full, count_quad, NULL);
	n = 0;
	for (int py = 9; py <= 11; py++)
		for (int px = 9; px <= 11; px++)
			n += hits[py][px];
	CHECK_EQ(n, 9);

	/* a horizontal 1-wide line from x=2 to x=12 at a row centre:
	 * pixels 2..11 of that row */
	struct win_vertex l0 = { 2, 5.5f, 0, 1 }, l1 = { 12, 5.5f, 0, 1 };
	memset(hits, 0, sizeof(hits));
	raster_line(&l0, &l1, 1.0f, false, &full, count_quad, NULL);
	n = 0;
	for (int px = 0; px < W; px++)
		n += hits[5][px];
	CHECK_EQ(n, 10);
	CHECK_EQ(hits[5][2], 1);
	CHECK_EQ(hits[5][11], 1);
	CHECK_EQ(hits[4][5] + hits[6][5], 0);
}

/* Quads as they arrive: row-major order, each once, how many whole. */
struct quad_log {
	int32_t last_x, last_y;
	int out_of_order, whole;
};

static int log_quad(void *ctx, int32_t x, int32_t y, unsigned mask)
{
	struct quad_log *l = ctx;
	if (y < l->last_y || (y == l->last_y && x <= l->last_x))
		l->out_of_order++;
	l->last_x = x;
	l->last_y = y;
	l->whole += mask == 15;
	return count_quad(NULL, x, y, mask);
}

/* Large triangles, whose quads are mostly covered whole (raster_tri.c
 * takes those without testing pixels), under scissors with odd and even
 * bounds: the oracle's coverage inside the rectangle, quads in row-major
 * order. */
static void whole_quads(void)
{
	int mismatches = 0, whole = 0, disorder = 0;
	for (int t = 0; t < 200; t++) {
		struct win_vertex v[3];
		for (int i = 0; i < 3; i++)
			v[i] = (struct win_vertex){ (float)frand(-W, 2 * W), (float)frand(-H, 2 * H), 0, 1 };
		int32_t x0 = (int32_t)frand(0, 8), y0 = (int32_t)frand(0, 8);
		struct pixel_rect sc = { x0, y0, W - 1 - (int32_t)frand(0, 8), H - 1 - (int32_t)frand(0, 8) };
		memset(hits, 0, sizeof(hits));
		struct quad_log l = { INT32_MIN, INT32_MIN, 0, 0 };
		CHECK_EQ(raster_triangle(&v[0], &v[1], &v[2], &sc, log_quad, &l), 0);
		whole += l.whole;
		disorder += l.out_of_order;
		int64_t x[3], y[3];
		for (int i = 0; i < 3; i++) {
			x[i] = lrint(v[i].x * 256.0);
			y[i] = lrint(v[i].y * 256.0);
		}
		for (int py = 0; py < H; py++)
			for (int px = 0; px < W; px++) {
				bool want = px >= sc.x0 && px <= sc.x1 && py >= sc.y0 && py <= sc.y1 &&
					    oracle(x, y, px * 256 + 128, py * 256 + 128);
				if (hits[py][px] != want && mismatches++ < 5)
					fprintf(stderr, "large triangle %d pixel %d,%d: got %d want %d\n",
						t, px, py, hits[py][px], want);
			}
	}
	CHECK_EQ(mismatches, 0);
	CHECK_EQ(disorder, 0);
	CHECK(whole > 1000);
}

/* Samples of a 4x pattern (offsets in 1/256 pixel, as raster_samples
 * holds them), coverage recorded per sample. */
static uint8_t sample_hits[H][W][4];
static int empty_quads;

static int count_samples(void *ctx, int32_t x, int32_t y, uint64_t cov)
{
	(void)ctx;
	empty_quads += cov == 0;
	for (unsigned p = 0; p < 4; p++)
		for (unsigned s = 0; s < 4; s++) {
			if (!(cov >> (16 * p + s) & 1))
				continue;
			int32_t px = x + (int32_t)(p & 1), py = y + (int32_t)(p >> 1);
			if (px < 0 || py < 0 || px >= W || py >= H)
				return 1;
			sample_hits[py][px][s]++;
		}
	return 0;
}

/* Triangle t of a lattice test: vertices on a lattice of 1/4 (t % 4 < 2)
 * or 1/8 pixel, within span of the first; a scissor up to `inset` pixels
 * inside the screen on each side. */
static void lattice_triangle(int t, double span, int inset, struct win_vertex v[3],
			     struct pixel_rect *sc)
{
	double unit = t % 4 < 2 ? 4.0 : 8.0;
	for (int i = 0; i < 3; i++) {
		double cx = frand(-8, W + 8), cy = frand(-8, H + 8);
		if (i) {
			cx = v[0].x + frand(-span, span);
			cy = v[0].y + frand(-span, span);
		}
		v[i] = (struct win_vertex){ (float)(floor(cx * unit) / unit),
					    (float)(floor(cy * unit) / unit), 0, 1 };
	}
	*sc = (struct pixel_rect){ (int32_t)frand(0, inset), (int32_t)frand(0, inset),
				   W - 1 - (int32_t)frand(0, inset), H - 1 - (int32_t)frand(0, inset) };
}

/* Triangles with vertices on a lattice of 1/4 and 1/8 pixels, small and
 * large (edges through many samples exactly, where the row's first and
 * last visited quads are decided: raster_tri.c skips the quads an edge
 * misses whole), at 4 samples a pixel and at the centre alone: every
 * sample against the oracle, under scissors with odd and even bounds, and
 * no quad reported without coverage. */
static void lattice_samples(void)
{
	static const struct raster_samples four = { 4, { 96, 224, 32, 160 }, { 32, 96, 160, 224 } };
	int mismatches = 0;
	empty_quads = 0;
	for (int t = 0; t < 600; t++) {
		const struct raster_samples *sp = t % 2 ? &four : &raster_centre;
		struct win_vertex v[3];
		struct pixel_rect sc;
		lattice_triangle(t, t % 3 ? 2.0 * W : 12.0, 5, v, &sc);
		memset(sample_hits, 0, sizeof(sample_hits));
		CHECK_EQ(raster_triangle_ms(&v[0], &v[1], &v[2], &sc, sp, count_samples, NULL), 0);
		int64_t x[3], y[3];
		for (int i = 0; i < 3; i++) {
			x[i] = lrint(v[i].x * 256.0);
			y[i] = lrint(v[i].y * 256.0);
		}
		for (int py = 0; py < H; py++)
			for (int px = 0; px < W; px++)
				for (unsigned s = 0; s < sp->n; s++) {
					bool want = px >= sc.x0 && px <= sc.x1 && py >= sc.y0 &&
						    py <= sc.y1 &&
						    oracle(x, y, px * 256 + sp->x[s], py * 256 + sp->y[s]);
					if (sample_hits[py][px][s] != want && mismatches++ < 5)
						fprintf(stderr, "lattice triangle %d pixel %d,%d sample %u: "
							"got %d want %d\n", t, px, py, s,
							sample_hits[py][px][s], want);
				}
	}
	CHECK_EQ(mismatches, 0);
	CHECK_EQ(empty_quads, 0);
}

/* Quads as raster_triangle_runs hands them over, a run expanded to its
 * quads in order. */
#define MAX_EVENTS (W * H)
struct quad_event {
	int32_t x, y;
	uint64_t cov;
	bool in_run;
};
static struct quad_event events[MAX_EVENTS];
static unsigned nevents;
static int run_bad;

static int event_quad(void *ctx, int32_t x, int32_t y, uint64_t cov)
{
	(void)ctx;
	if (nevents < MAX_EVENTS)
		events[nevents++] = (struct quad_event){ x, y, cov, false };
	return 0;
}

static int event_run(void *ctx, int32_t x, int32_t y, unsigned n, uint64_t cov)
{
	const uint64_t *all = ctx;
	run_bad += cov != *all || n == 0;
	for (unsigned k = 0; k < n && nevents < MAX_EVENTS; k++)
		events[nevents++] = (struct quad_event){ x + 2 * (int32_t)k, y, cov, true };
	return 0;
}

/* 8x8 blocks (raster_tri.c): triangles on a 1/4 and 1/8 pixel lattice,
 * small and large, 4 samples and 1, under odd and even scissors. The
 * quads handed over (runs of whole quads and single quads) must be,
 * in order and coverage, the quads with a covered sample in row-major
 * order over the screen, each sample decided by the oracle; every quad of
 * a run lies in an 8x8 block whose every sample the oracle covers. */
static void block_runs(void)
{
	static const struct raster_samples four = { 4, { 96, 224, 32, 160 }, { 32, 96, 160, 224 } };
	int mismatches = 0, outside_block = 0;
	unsigned in_runs = 0;
	run_bad = 0;
	for (int t = 0; t < 600; t++) {
		const struct raster_samples *sp = t % 2 ? &four : &raster_centre;
		struct win_vertex v[3];
		struct pixel_rect sc;
		lattice_triangle(t, t % 3 ? 3.0 * W : 16.0, 9, v, &sc);
		uint64_t all = (1u << sp->n) - 1;
		all |= all << 16 | all << 32 | all << 48;
		nevents = 0;
		CHECK_EQ(raster_triangle_runs(&v[0], &v[1], &v[2], &sc, sp, event_quad, event_run,
					      &all), 0);
		int64_t x[3], y[3];
		for (int i = 0; i < 3; i++) {
			x[i] = lrint(v[i].x * 256.0);
			y[i] = lrint(v[i].y * 256.0);
		}
		/* the oracle's coverage of every quad, row-major */
		static uint64_t cov[H / 2][W / 2];
		for (int qy = 0; qy < H / 2; qy++)
			for (int qx = 0; qx < W / 2; qx++) {
				cov[qy][qx] = 0;
				for (unsigned p = 0; p < 4; p++)
					for (unsigned s = 0; s < sp->n; s++) {
						int px = 2 * qx + (int)(p & 1), py = 2 * qy + (int)(p >> 1);
						bool in = px >= sc.x0 && px <= sc.x1 && py >= sc.y0 &&
							  py <= sc.y1 &&
							  oracle(x, y, px * 256 + sp->x[s], py * 256 + sp->y[s]);
						cov[qy][qx] |= (uint64_t)in << (16 * p + s);
					}
			}
		unsigned e = 0;
		for (int qy = 0; qy < H / 2; qy++)
			for (int qx = 0; qx < W / 2; qx++) {
				if (!cov[qy][qx])
					continue;
				bool same = e < nevents && events[e].x == 2 * qx && events[e].y == 2 * qy &&
					    events[e].cov == cov[qy][qx];
				if (!same && mismatches++ < 5)
					fprintf(stderr, "blocks: triangle %d quad %d,%d cov 0x%016llx: "
						"event %u is %d,%d 0x%016llx\n", t, 2 * qx, 2 * qy,
						(unsigned long long)cov[qy][qx], e,
						e < nevents ? events[e].x : -1, e < nevents ? events[e].y : -1,
						e < nevents ? (unsigned long long)events[e].cov : 0ull);
				if (!same)
					break;
				if (events[e].in_run) {
					in_runs++;
					int bx = (2 * qx) & ~7, by = (2 * qy) & ~7;
					for (int j = 0; j < 16; j++)
						outside_block += bx / 2 + j % 4 >= W / 2 || by / 2 + j / 4 >= H / 2 ||
								 cov[by / 2 + j / 4][bx / 2 + j % 4] != all;
				}
				e++;
			}
		if (e != nevents && mismatches++ < 5)
			fprintf(stderr, "blocks: triangle %d: %u quads handed over, %u covered\n", t,
				nevents, e);
	}
	CHECK_EQ(mismatches, 0);
	CHECK_EQ(outside_block, 0);
	CHECK_EQ(run_bad, 0);
	CHECK(in_runs > 5000);
}

static void area_sign(void)
{
	/* y points down: right then down is clockwise on the screen */
	struct win_vertex a = { 0, 0, 0, 1 }, b = { 1, 0, 0, 1 }, c = { 0, 1, 0, 1 };
	CHECK(raster_area2(&a, &b, &c) > 0);
	CHECK(raster_area2(&a, &c, &b) < 0);
}

int main(void)
{
	random_triangles();
	shared_edges();
	clip_rect_and_shapes();
	whole_quads();
	area_sign();
	lattice_samples();
	block_runs();
	return test_exit();
}
