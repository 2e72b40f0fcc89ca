/* A draw rasterized by bands of rows on several host threads
 * (GTSIM_THREADS, wm_band.c) keeps the hardware's pixel order: one draw of
 * 8 overlapping squares, drawn with GTSIM_THREADS=1 and =4 (bands of 8
 * rows, GTSIM_BAND_ROWS=8, so that the 32 rows are 4 bands over 4
 * tasks), against an image computed here layer by layer in primitive
 * order:
 *  - blending SRC_ALPHA / INV_SRC_ALPHA ("over"), which depends on the
 *    order of the layers (red, green and blue at alpha 0.6 alternate);
 *  - a D32_FLOAT depth test LESS with depth writes, the layers' depths not
 *    sorted, with the test before the PS (early) and after it
 *    (3DSTATE_WM Early Depth/Stencil Control PSEXEC: the host threads
 *    make the read-modify-write of the depth buffer).
 * The two thread counts must give the same bytes, and each the CPU's
 * image (within one step of rounding for blending, exactly for depth);
 * the 4-thread draws must really have been shared by host threads. Each
 * case is drawn several times: a pixel of two tasks shows as a race. */
#include <stdio.h>

#include "backend_fixture.h"
#include "drv/seed_shaders.h"
#include "gpu/eu/exec.h"
#include "gpu/render/topology.h"
#include "gpu/render/wm_draw.h"

#define W 32
#define H 32
#define PITCH (W * 4)
#define LAYERS 8
#define SIDE 20
#define ROUNDS 50

enum { BF_SRC_ALPHA_ = 3, BF_INV_SRC_ALPHA_ = 19, CMP_LESS_ = 2 };

static const float colours[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };

/* Layer k: the pixels [x0, x0 + SIDE) x [y0, y0 + SIDE) (edges on pixel
 * boundaries, so coverage of centres is plain), depth z. */
static void layer(int k, int *x0, int *y0, float *z)
{
	*x0 = (k * 5) % (W - SIDE + 1);
	*y0 = (k * 7 + 3) % (H - SIDE + 1);
	*z = (float)((k * 5) % LAYERS + 1) / 16;   /* unsorted, distinct */
}

static int draw_layers(void)
{
	fx_begin();
	unsigned prims[LAYERS * 6];
	for (int k = 0; k < LAYERS; k++) {
		int x0, y0;
		float z;
		layer(k, &x0, &y0, &z);
		float c[4] = { colours[k % 3][0], colours[k % 3][1], colours[k % 3][2], 0.6f };
		for (int i = 0; i < 4; i++)
			fx_vertex(4 * k + i, fx_ndc(x0 + (i & 1) * SIDE, W), fx_ndc(y0 + (i >> 1) * SIDE, H),
				  z, 1, c);
		const unsigned q[6] = { 0, 1, 2, 2, 1, 3 };
		for (int i = 0; i < 6; i++)
			prims[6 * k + i] = 4 * k + q[i];
	}
	return fx_draw(4, prims, 2 * LAYERS, 3);
}

/* The image a draw of the layers gives, from a cleared target: blend
 * "over" or the depth test, computed in primitive order. */
static void reference(bool blend, uint8_t out[H][W][4])
{
	float depth[H][W];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			depth[y][x] = 1;
			memset(out[y][x], 0, 4);
		}
	for (int k = 0; k < LAYERS; k++) {
		int x0, y0;
		float z;
		layer(k, &x0, &y0, &z);
		const double src[4] = { colours[k % 3][0], colours[k % 3][1], colours[k % 3][2], 0.6 };
		for (int y = y0; y < y0 + SIDE; y++)
			for (int x = x0; x < x0 + SIDE; x++) {
				if (!blend) {
					if (!(z < depth[y][x]))
						continue;
					depth[y][x] = z;
				}
				for (int c = 0; c < 4; c++) {
					double d = out[y][x][c] / 255.0;
					out[y][x][c] = fx_unorm8(blend ? src[c] * 0.6 + d * 0.4 : src[c]);
				}
			}
	}
}

/* Draws the case with `threads` host threads into img. */
static void run(bool blend, int early_ds, const char *threads, uint8_t img[H][W][4])
{
	setenv("GTSIM_THREADS", threads, 1);
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	if (blend) {
		PUT("BLEND_STATE_ENTRY", FX_DYN + FX_BLEND + 4, { "Color Buffer Blend Enable", 1 },
		    { "Source Blend Factor", BF_SRC_ALPHA_ },
		    { "Destination Blend Factor", BF_INV_SRC_ALPHA_ },
		    { "Source Alpha Blend Factor", BF_SRC_ALPHA_ },
		    { "Destination Alpha Blend Factor", BF_INV_SRC_ALPHA_ });
	} else {
		/* D32_FLOAT, Y-tiled, pitch 128, cleared to 1.0 */
		REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", 1 },
		    { "Depth Write Enable", 1 }, { "Width", W - 1 }, { "Height", H - 1 },
		    { "Surface Pitch", 127 }, { "Surface Base Address", FX_DEPTH });
		REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", 1 },
		    { "Depth Buffer Write Enable", 1 }, { "Depth Test Function", CMP_LESS_ });
		REC("3DSTATE_WM", { "Barycentric Interpolation Mode", 1 },
		    { "Early Depth/Stencil Control", (uint64_t)early_ds });
		const float one = 1.0f;
		for (uint32_t i = 0; i < 128 * H; i += 4)
			memcpy(fx_mem + FX_DEPTH + i, &one, 4);
	}
	CHECK_EQ(draw_layers(), 0);
	for (int y = 0; y < H; y++)
		memcpy(img[y], fx_px(PITCH, 4, 0, y), W * 4);
}

static void check(const char *what, bool blend, int early_ds)
{
	static uint8_t want[H][W][4], one[H][W][4], four[H][W][4];
	reference(blend, want);
	int bad = 0, differ = 0, unsplit = 0;
	for (int r = 0; r < ROUNDS; r++) {
		run(blend, early_ds, "1", one);
		uint64_t split = wm_band_split_runs();
		run(blend, early_ds, "4", four);
		unsplit += wm_band_split_runs() == split;
		differ += memcmp(one, four, sizeof(one)) != 0;
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				for (int c = 0; c < 4; c++) {
					int tol = blend ? 1 : 0;
					int e1 = abs(one[y][x][c] - want[y][x][c]) > tol;
					int e4 = abs(four[y][x][c] - want[y][x][c]) > tol;
					if ((e1 || e4) && bad++ < 4)
						fprintf(stderr, "%s: (%d,%d) ch %d: 1 thread %u, 4 "
							"threads %u, want %u\n", what, x, y, c,
							one[y][x][c], four[y][x][c], want[y][x][c]);
				}
	}
	printf("%s: %d rounds, %d pixel errors, %d rounds where 1 and 4 threads differ, "
	       "%d 4-thread draws on one host thread\n", what, ROUNDS, bad, differ, unsplit);
	CHECK_EQ(bad, 0);
	CHECK_EQ(differ, 0);
	CHECK_EQ(unsplit, 0);
}

/* The engine's progress counter (exec_watch_abort's ended, hangcheck's):
 * a draw on 4 host threads has added every PS thread's end by the time it
 * returns, as many as the draw has PS threads: a full-target RECTLIST
 * of W x H pixels (W = H) is two triangles sharing the diagonal x = y,
 * which halves the W / 2 subspans it crosses (a pixel centre on it goes
 * to one triangle, the ones beside it to either), so (W / 2)^2 + W / 2
 * subspans are lit, and SIMD8 threads take two of one triangle each
 * (10 in each triangle of a diagonal 8x8 block, 16 in the others; with
 * bands of 8 rows on 4 tasks, task t has subspan rows 4t to 4t + 3 of
 * each triangle: 58, 42, 26 and 10 subspans of the upper one, 10, 26, 42
 * and 58 of the lower one, all even, so as many threads);
 * and no worker keeps an end pending or the counter's address past its
 * job: each round's counter is freed before the next round's draw (the
 * workers outlive a device and its engine; a late add into the freed
 * counter is a heap-use-after-free under ASan, and leaves the count at
 * the draw's end short here). */
static void check_ended(void)
{
	static const uint32_t flag;
	const uint64_t want = ((W / 2) * (H / 2) + W / 2) / 2;
	int bad = 0;
	for (int r = 0; r < ROUNDS; r++) {
		for (int four = 0; four < 2; four++) {
			uint64_t *ended = calloc(1, sizeof(*ended));
			CHECK(ended != NULL);
			setenv("GTSIM_THREADS", four ? "4" : "1", 1);
			fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
			fx_begin();
			const float c[4] = { 1, 0, 0, 1 };
			fx_vertex(0, 1, 1, 0.5f, 1, c);      /* RECTLIST: v0, v1, v2 */
			fx_vertex(1, -1, 1, 0.5f, 1, c);
			fx_vertex(2, -1, -1, 0.5f, 1, c);
			exec_watch_abort(&flag, ended);
			CHECK_EQ(fx_draw(PRIM_RECTLIST, (const unsigned[]){ 0, 1, 2 }, 1, 3), 0);
			uint64_t at_end = __atomic_load_n(ended, __ATOMIC_RELAXED);
			exec_watch_abort(NULL, NULL);   /* what this thread had pending */
			uint64_t total = *ended;
			free(ended);
			if ((total != want || (four && at_end != want)) && bad++ < 4)
				fprintf(stderr, "round %d, %s host threads: %llu ends at the "
					"draw's end, %llu in all, want %llu\n", r, four ? "4" : "1",
					(unsigned long long)at_end, (unsigned long long)total,
					(unsigned long long)want);
		}
	}
	printf("thread ends: %d rounds, %d wrong counts\n", ROUNDS, bad);
	CHECK_EQ(bad, 0);
}

int main(void)
{
	setenv("GTSIM_BAND_ROWS", "8", 1);
	fx_init();
	check_ended();
	check("blend over", true, 0);
	check("depth LESS, early", false, 0);
	check("depth LESS, after the PS", false, 1);
	fx_fini();
	return test_exit();
}
