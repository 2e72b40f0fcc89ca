/* The early depth test of whole quads and of whole runs of quads
 * (depth_test.c depth_test_quad, depth_test_run): one
 * draw of 8 overlapping rectangles at unsorted depths, their edges on odd
 * and even pixel boundaries (so quads are partly covered, at every corner),
 * a LESS test with depth writes made before the PS, into D16_UNORM,
 * D24_UNORM_X8 and D32_FLOAT Y-tiled buffers, with one host thread and with
 * four; the buffer is three Y tiles wide and two high, so runs cross
 * OWord columns, tiles (4 KiB pages) and tile rows. Oracle, computed here layer by layer in primitive order: the
 * colour image and the depth buffer's bytes, each depth encoded by the
 * PRM's rule (UNORM: round(z * (2^n - 1)); D32: the float), each byte of
 * the buffer found by the Y-tile layout (PRM vol. 5 "Y-Major Tiling":
 * 128-byte x 32-row tiles of 16-byte columns). Also a GREATER test with
 * no depth write against a buffer of 5/17: each pixel the colour of
 * the last layer farther than it, the buffer unchanged. The whole-run
 * path must have taken quads (depth_test_run_quads). The same with
 * layers large enough for whole 8x8 blocks (runs of quads tested a run at
 * a time). And a sloped plane, whose depth differs at every pixel
 * (check_slope). */
#include <math.h>
#include <stdio.h>

#include "backend_fixture.h"
#include "drv/seed_shaders.h"
#include "gpu/render/wm_draw.h"
#include "tiling_ref.h"

#define W 80
#define H 40
#define PITCH (W * 4)
#define DPITCH 384
#define LAYERS 8

enum { CMP_LESS_ = 2, CMP_GREATER_ = 5 };
enum { D32 = 1, D24 = 3, D16 = 5 };

static const float colours[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };

/* big: layers of 20-28 pixels, whose triangles hold whole 8x8 blocks
 * (the rasterizer's runs of whole quads, tested before the PS a run at a
 * time: ps_dispatch.c ps_add_run) */
static bool big;

/* Layer k: pixels [x0, x1) x [y0, y1), depth z (unsorted, distinct). */
static void layer(int k, int r[4], float *z)
{
	r[0] = big ? k % 3 : (k * 9) % 41 + (k & 1);
	r[1] = big ? (k * 2) % 5 : (k * 7 + 3) % 19 + (k >> 1 & 1);
	r[2] = r[0] + (big ? 20 + k % 7 : 35 + (k % 3));
	r[3] = r[1] + (big ? 22 + k % 4 : 17 + (k % 2));
	/* m/17: (2^16 - 1) and (2^24 - 1) are multiples of 17, so z times
	 * either is within float rounding of an integer, never near a half
	 * (how a float z at a half rounds is not this test's question) */
	*z = (float)((k * 5) % LAYERS + 1) / 17;
}

static int draw_layers(void)
{
	fx_begin();
	unsigned prims[LAYERS * 6];
	for (int k = 0; k < LAYERS; k++) {
		int r[4];
		float z;
		layer(k, r, &z);
		float c[4] = { colours[k % 3][0], colours[k % 3][1], colours[k % 3][2], 1 };
		for (int i = 0; i < 4; i++)
			fx_vertex(4 * k + i, fx_ndc(r[i & 1 ? 2 : 0], W), fx_ndc(r[i >> 1 ? 3 : 1], H), z, 1, c);
		const unsigned q[6] = { 0, 1, 2, 2, 1, 3 };
		for (int i = 0; i < 6; i++)
			prims[6 * k + i] = 4 * k + q[i];
	}
	return fx_draw(4, prims, 2 * LAYERS, 3);
}

static uint32_t cpp_of(int fmt)
{
	return fmt == D16 ? 2 : 4;
}

/* The buffer's encoding of z (PRM "Depth Buffer Formats"). */
static uint32_t encode(int fmt, float z)
{
	if (fmt == D32) {
		uint32_t u;
		memcpy(&u, &z, 4);
		return u;
	}
	double max = fmt == D16 ? 65535.0 : 16777215.0;
	return (uint32_t)lrint((double)z * max);
}

/* Byte offset of pixel (x, y) in the Y-tiled buffer (the PRM's bit map). */
static uint32_t ytile(int fmt, int x, int y)
{
	return (uint32_t)ref_tile_y_offset((uint64_t)x * cpp_of(fmt), (uint64_t)y, DPITCH);
}

static uint32_t depth_at(int fmt, int x, int y)
{
	uint32_t v = 0;
	memcpy(&v, fx_mem + FX_DEPTH + ytile(fmt, x, y), cpp_of(fmt));
	return fmt == D24 ? v & 0xffffff : v;
}

static void reference(bool greater, float clear, uint8_t out[H][W][4], float depth[H][W])
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			depth[y][x] = clear;
			memset(out[y][x], 0, 4);
		}
	for (int k = 0; k < LAYERS; k++) {
		int r[4];
		float z;
		layer(k, r, &z);
		for (int y = r[1]; y < r[3] && y < H; y++)
			for (int x = r[0]; x < r[2] && x < W; x++) {
				if (greater ? !(z > depth[y][x]) : !(z < depth[y][x]))
					continue;
				if (!greater)
					depth[y][x] = z;
				for (int c = 0; c < 3; c++)
					out[y][x][c] = fx_unorm8(colours[k % 3][c]);
				out[y][x][3] = 255;
			}
	}
}

static int check(int fmt, bool greater, const char *threads)
{
	setenv("GTSIM_THREADS", threads, 1);
	float clear = greater ? 5.0f / 17 : 1.0f;
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", (uint64_t)fmt },
	    { "Depth Write Enable", 1 }, { "Width", W - 1 }, { "Height", H - 1 },
	    { "Surface Pitch", DPITCH - 1 }, { "Surface Base Address", FX_DEPTH });
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", 1 },
	    { "Depth Buffer Write Enable", greater ? 0 : 1 },
	    { "Depth Test Function", greater ? CMP_GREATER_ : CMP_LESS_ });
	REC("3DSTATE_WM", { "Barycentric Interpolation Mode", 1 });
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint32_t e = encode(fmt, clear);
			memcpy(fx_mem + FX_DEPTH + ytile(fmt, x, y), &e, cpp_of(fmt));
		}
	uint64_t runs = depth_test_run_quads();
	CHECK_EQ(draw_layers(), 0);
	CHECK(depth_test_run_quads() > runs);
	static uint8_t want[H][W][4];
	static float wz[H][W];
	reference(greater, clear, want, wz);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			uint32_t dz = depth_at(fmt, x, y), ez = encode(fmt, wz[y][x]);
			if ((memcmp(p, want[y][x], 4) || dz != ez) && bad++ < 4)
				fprintf(stderr, "fmt %d %s %s threads: (%d,%d) colour %02x%02x%02x%02x "
					"want %02x%02x%02x%02x, depth 0x%x want 0x%x\n", fmt,
					greater ? "GREATER" : "LESS", threads, x, y, p[0], p[1], p[2],
					p[3], want[y][x][0], want[y][x][1], want[y][x][2],
					want[y][x][3], dz, ez);
		}
	printf("D%s %s, %s host threads: %d wrong pixels\n",
	       fmt == D16 ? "16" : fmt == D24 ? "24" : "32F", greater ? "GREATER" : "LESS", threads,
	       bad);
	return bad;
}

/* A sloped plane (the depth differs at every pixel: 0.0075 a pixel in x,
 * 0.005 in y) over pixels [1, W - 1) x [1, H - 1) (partly covered quads
 * on every edge, whole 8x8 blocks inside), LESS with writes against a
 * buffer of 0.55: where the plane's depth at the pixel's centre is below
 * 0.55 the pixel is coloured and takes it (within 0.0005 of the plane
 * evaluated here in double: the walk's rounding), elsewhere it keeps 0.55
 * exactly and no colour; pixels within 0.002 of the crossing are not
 * judged. A pixel tested or written with another pixel's depth is off by
 * 0.005 at least. */
static double plane(double x, double y)
{
	return 0.2 + 0.6 * x / W + 0.2 * y / H;
}

static int check_slope(int fmt, const char *threads)
{
	setenv("GTSIM_THREADS", threads, 1);
	const float clear = 0.55f;
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", (uint64_t)fmt },
	    { "Depth Write Enable", 1 }, { "Width", W - 1 }, { "Height", H - 1 },
	    { "Surface Pitch", DPITCH - 1 }, { "Surface Base Address", FX_DEPTH });
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", 1 },
	    { "Depth Buffer Write Enable", 1 }, { "Depth Test Function", CMP_LESS_ });
	REC("3DSTATE_WM", { "Barycentric Interpolation Mode", 1 });
	uint32_t ec = encode(fmt, clear);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			memcpy(fx_mem + FX_DEPTH + ytile(fmt, x, y), &ec, cpp_of(fmt));
	fx_begin();
	static const float red[4] = { 1, 0, 0, 1 };
	static const int corner[4][2] = { { 1, 1 }, { W - 1, 1 }, { 1, H - 1 }, { W - 1, H - 1 } };
	for (int i = 0; i < 4; i++)
		fx_vertex((unsigned)i, fx_ndc(corner[i][0], W), fx_ndc(corner[i][1], H),
			  (float)plane(corner[i][0], corner[i][1]), 1, red);
	static const unsigned prims[6] = { 0, 1, 2, 2, 1, 3 };
	uint64_t runs = depth_test_run_quads();
	CHECK_EQ(fx_draw(4, prims, 2, 3), 0);
	CHECK(depth_test_run_quads() > runs);
	double max = fmt == D16 ? 65535.0 : fmt == D24 ? 16777215.0 : 1.0;
	int bad = 0, judged = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			bool inside = x >= 1 && x < W - 1 && y >= 1 && y < H - 1;
			double z = plane(x + 0.5, y + 0.5);
			if (inside && fabs(z - clear) < 0.002)
				continue;
			bool lit = inside && z < clear;
			judged++;
			uint32_t dz = depth_at(fmt, x, y);
			double got = dz / max;
			if (fmt == D32) {
				float f;
				memcpy(&f, &dz, 4);
				got = f;
			}
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			bool ok = lit ? p[0] == 255 && p[3] == 255 && fabs(got - z) < 0.0005 :
					!p[3] && dz == ec;
			if (!ok && bad++ < 4)
				fprintf(stderr, "slope fmt %d, %s threads: (%d,%d) %s, colour %02x..%02x, "
					"depth %.6f (0x%x), plane %.6f\n", fmt, threads, x, y,
					lit ? "lit" : "unlit", p[0], p[3], got, dz, z);
		}
	printf("slope D%s, %s host threads: %d wrong of %d pixels judged\n",
	       fmt == D16 ? "16" : fmt == D24 ? "24" : "32F", threads, bad, judged);
	return bad;
}

int main(void)
{
	/* bands of 8 rows (whole 8x8 blocks): the 40 rows are 5 bands, shared
	 * by 4 host threads */
	setenv("GTSIM_BAND_ROWS", "8", 1);
	fx_init();
	static const int fmts[3] = { D16, D24, D32 };
	for (int b = 0; b < 2; b++)
		for (int f = 0; f < 3; f++)
			for (int g = 0; g < 2; g++) {
				big = b;
				CHECK_EQ(check(fmts[f], g, "1"), 0);
				CHECK_EQ(check(fmts[f], g, "4"), 0);
			}
	for (int f = 0; f < 3; f++) {
		CHECK_EQ(check_slope(fmts[f], "1"), 0);
		CHECK_EQ(check_slope(fmts[f], "4"), 0);
	}
	fx_fini();
	return test_exit();
}
