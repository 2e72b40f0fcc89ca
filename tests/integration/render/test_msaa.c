/* Multisampled rendering through a draw (PRM vol. 2 "Multisample Modes",
 * 3DSTATE_MULTISAMPLE / SAMPLE_PATTERN / SAMPLE_MASK; vol. 5
 * "Multisampled Surfaces", "Multisample Control Surface"), against oracles
 * computed here:
 *  - coverage: the standard 2x/4x/8x/16x positions (D3D's, as Mesa
 *    programs them), each sample tested against the triangle's edges in
 *    the rasterizer's 1/256 pixel grid; every sample of an 8x8 MSS target
 *    (sample s in slice s, QPitch 8 rows) read back by hand;
 *  - per-sample depth: a D32_FLOAT 4x depth buffer in the interleaved
 *    layout (PRM: sample bits above bit 0 of x and y), each sample's depth
 *    the plane's value at its position; then LESS per sample;
 *  - the MCS: iris's cleared MCS (all ones) becomes the identity 0xe4 where
 *    a pixel is written, its uncovered samples take the clear colour;
 *  - oMask and alpha to coverage masks; 3DSTATE_SAMPLE_MASK;
 *  - per-sample dispatch: each sample's PS reads its sample index from
 *    g1.0 as Mesa's gl_SampleID does (4 bits a subspan). */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"
#include "ms_positions.h"

#define W 8
#define H 8
#define PITCH (W * 4)
#define SLICE (PITCH * H)
#define MCS_AT 0x70000u

/* An n-sample MSS target, state for n-sample rasterization. */
static void ms_reset(const char *ps, uint32_t format, unsigned n)
{
	fx_reset(ps, format, W, H, PITCH);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Number of Multisamples", __builtin_ctz(n) },
	    { "Surface QPitch", H / 4 }, { "Surface Vertical Alignment", 1 },
	    { "Surface Horizontal Alignment", 1 });
	REC("3DSTATE_MULTISAMPLE", { "Number of Multisamples", __builtin_ctz(n) });
	REC("3DSTATE_RASTER", { "DX Multisample Rasterization Enable", 1 });
	sample_pattern(n);
	memset(fx_mem + FX_RT, 0x55, (size_t)SLICE * n);
}

/* The triangle, window positions (multiples of 1/256 after snapping:
 * v * 256 stays far from half-integers). */
static const double tri[3][2] = { { 0.3, 0.7 }, { 7.9, 2.3 }, { 2.6, 7.8 } };

/* Whether window position (px, py) (1/256 units) is inside the snapped
 * triangle; no sample of the tests lies on an edge (checked). */
static bool inside(const double v[3][2], int64_t px, int64_t py)
{
	int64_t x[3], y[3];
	for (int i = 0; i < 3; i++) {
		x[i] = llround(v[i][0] * 256);
		y[i] = llround(v[i][1] * 256);
	}
	int64_t area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
	int pos = 0, neg = 0;
	for (int i = 0; i < 3; i++) {
		int j = (i + 1) % 3;
		int64_t e = (x[j] - x[i]) * (py - y[i]) - (y[j] - y[i]) * (px - x[i]);
		CHECK(e != 0);
		pos += (e > 0);
		neg += (e < 0);
	}
	return area > 0 ? pos == 3 : neg == 3;
}

static bool covered(unsigned n, int x, int y, unsigned s)
{
	const uint8_t (*p)[2] = positions(n);
	return inside(tri, (int64_t)x * 256 + p[s][0] * 16, (int64_t)y * 256 + p[s][1] * 16);
}

static int draw_tri(const float c[4], float z)
{
	fx_begin();
	for (unsigned i = 0; i < 3; i++)
		fx_vertex(i, (float)(tri[i][0] / (W / 2) - 1), (float)(tri[i][1] / (H / 2) - 1), z,
			  1, c);
	return fx_draw(4, (const unsigned[]){ 0, 1, 2 }, 1, 3);
}

/* A full-target quad, z from z0 (left, NDC x = -1) to z1 (right). */
static int draw_quad(const float c[4], float z0, float z1)
{
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], pos[i][0] < 0 ? z0 : z1, 1, c);
	return fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

/* Sample s of pixel (x, y) of the MSS RGBA8 target: slice s. */
static const uint8_t *rt_sample(int x, int y, unsigned s)
{
	return fx_px(PITCH, 4, x, y) + (size_t)s * SLICE;
}

static const float green[4] = { 0, 1, 0, 1 };
static const uint8_t g8[4] = { 0, 255, 0, 255 }, old8[4] = { 0x55, 0x55, 0x55, 0x55 };

/* Each sample: green when `expect` says so, else untouched. */
static void check_samples(const char *what, unsigned n, bool (*expect)(unsigned, int, int, unsigned))
{
	int bad = 0;
	for (unsigned s = 0; s < n; s++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				const uint8_t *p = rt_sample(x, y, s);
				bool in = expect(n, x, y, s);
				if (memcmp(p, in ? g8 : old8, 4) && bad++ < 6)
					fprintf(stderr, "%s %ux: sample %u of (%d,%d): %02x %02x %02x %02x, "
						"expected %s\n", what, n, s, x, y, p[0], p[1], p[2], p[3],
						in ? "green" : "untouched");
			}
	CHECK_EQ(bad, 0);
}

static void test_coverage(int gen, unsigned n)
{
	fx_gen = gen;
	ms_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, n);
	CHECK_EQ(draw_tri(green, 0.5f), 0);
	check_samples("coverage", n, covered);
}

/* Triangles with vertices on the 1/16 pixel grid, so that edges pass
 * exactly through standard sample positions: a sample on an edge is
 * covered only on a top or left edge (the PRM's top-left rule in window
 * space, y down). Written here from the rule: orient the triangle so that
 * the inside is E > 0 with E_ij(p) = (xj - xi)(py - yi) - (yj - yi)(px - xi);
 * E's inward normal is (-(yj - yi), xj - xi), so a left edge has
 * yj < yi and a top edge (inside below it) yj == yi with xj > xi. Both
 * windings (no culling). Units 1/16 pixel. */
static int tl_tris[][3][2] = {
	{ { 0 } },     /* top and left edges through sample 0 (tl_place) */
	{ { 0 } },     /* bottom and right edges through sample 0 */
	{ { 16, 16 }, { 112, 64 }, { 48, 120 } },     /* diagonals through 1/16 points */
	{ { 48, 120 }, { 112, 64 }, { 16, 16 } },     /* the same, other winding */
	{ { 0, 72 }, { 128, 8 }, { 128, 136 } },      /* slopes 1/2, edges leave the target */
};
static unsigned tl_cur;

static bool tl_inside(const int v[3][2], int64_t px, int64_t py)
{
	int x[3], y[3], o[3] = { 0, 1, 2 };
	int64_t area = (int64_t)(v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) -
		       (int64_t)(v[2][0] - v[0][0]) * (v[1][1] - v[0][1]);
	if (area < 0)
		o[1] = 2, o[2] = 1;
	for (int i = 0; i < 3; i++)
		x[i] = v[o[i]][0], y[i] = v[o[i]][1];
	for (int i = 0; i < 3; i++) {
		int j = (i + 1) % 3;
		int64_t dx = x[j] - x[i], dy = y[j] - y[i];
		int64_t e = dx * (py - y[i]) - dy * (px - x[i]);
		if (e < 0 || (e == 0 && !(dy < 0 || (dy == 0 && dx > 0))))
			return false;
	}
	return true;
}

static bool tl_covered(unsigned n, int x, int y, unsigned s)
{
	const uint8_t (*p)[2] = positions(n);
	return tl_inside(tl_tris[tl_cur], x * 16 + p[s][0], y * 16 + p[s][1]);
}

/* Triangles 0 and 1 on sample 0 of the n-sample pattern: edges at
 * x = 16 + sx, 96 + sx and y = 16 + sy, 96 + sy. */
static void tl_place(unsigned n)
{
	int a = 16 + positions(n)[0][0], b = 16 + positions(n)[0][1], d = 80;
	const int t0[3][2] = { { a, b }, { a + d, b }, { a, b + d } };
	const int t1[3][2] = { { a + d, b + d }, { a, b + d }, { a + d, b } };
	memcpy(tl_tris[0], t0, sizeof(t0));
	memcpy(tl_tris[1], t1, sizeof(t1));
}

static void test_coverage_ties(int gen, unsigned n)
{
	fx_gen = gen;
	tl_place(n);
	for (tl_cur = 0; tl_cur < sizeof(tl_tris) / sizeof(tl_tris[0]); tl_cur++) {
		ms_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, n);
		/* the oracle's ties are real: some sample lies on an edge */
		unsigned ties = 0;
		const int (*v)[2] = tl_tris[tl_cur];
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				for (unsigned s = 0; s < n; s++)
					for (int i = 0; i < 3; i++) {
						int j = (i + 1) % 3;
						int64_t px = x * 16 + positions(n)[s][0];
						int64_t py = y * 16 + positions(n)[s][1];
						ties += (v[j][0] - v[i][0]) * (py - v[i][1]) ==
							(v[j][1] - v[i][1]) * (px - v[i][0]);
					}
		CHECK(tl_cur > 1 || ties > 0);
		fx_begin();
		for (unsigned i = 0; i < 3; i++)   /* window w / 16 = NDC * W/2 + W/2 */
			fx_vertex(i, v[i][0] / 16.0f / (W / 2) - 1, v[i][1] / 16.0f / (H / 2) - 1,
				  0.5f, 1, green);
		CHECK_EQ(fx_draw(4, (const unsigned[]){ 0, 1, 2 }, 1, 3), 0);
		char what[48];
		snprintf(what, sizeof(what), "top-left gen%d triangle %u", gen, tl_cur);
		check_samples(what, n, tl_covered);
	}
}

/* GL_MULTISAMPLE off: the centre's coverage in every sample. */
static bool centre_covered(unsigned n, int x, int y, unsigned s)
{
	(void)n; (void)s;
	return inside(tri, (int64_t)x * 256 + 128, (int64_t)y * 256 + 128);
}

static void test_raster_off(void)
{
	fx_gen = 8;
	ms_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, 4);
	REC("3DSTATE_RASTER", { "DX Multisample Rasterization Enable", 0 });
	CHECK_EQ(draw_tri(green, 0.5f), 0);
	check_samples("rasterization off", 4, centre_covered);
}

/* 3DSTATE_SAMPLE_MASK 0b1010: samples 1 and 3 only. */
static bool masked(unsigned n, int x, int y, unsigned s)
{
	return (s == 1 || s == 3) && covered(n, x, y, s);
}

static void test_sample_mask(void)
{
	fx_gen = 9;
	ms_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, 4);
	REC("3DSTATE_SAMPLE_MASK", { "Sample Mask", 0xa });
	CHECK_EQ(draw_tri(green, 0.5f), 0);
	check_samples("sample mask", 4, masked);
}

/* Interleaved 4x depth (PRM vol. 5: MSFMT_DEPTH_STENCIL): sample s of
 * pixel (x, y) at x' = (x >> 1) << 2 | (s & 1) << 1 | (x & 1),
 * y' = (y >> 1) << 2 | (s & 2) | (y & 1), Y-tiled, pitch 128. */
static float depth_at(int x, int y, unsigned s)
{
	uint64_t ox = (uint64_t)((x >> 1) << 2 | (int)(s & 1) << 1 | (x & 1));
	uint64_t oy = (uint64_t)((y >> 1) << 2 | (int)(s & 2) | (y & 1));
	float z;
	memcpy(&z, fx_mem + FX_DEPTH + ref_tile_y_offset(ox * 4, oy, 128), 4);
	return z;
}

/* z = window x / 8 (the quad from z 0 at x 0 to 1 at x 8): 0.5 at x 4 */
static bool depth_passes(unsigned n, int x, int y, unsigned s)
{
	return covered(n, x, y, s) && 0.5 < (x + pos4[s][0] / 16.0) / W;
}

static void test_depth(int gen)
{
	fx_gen = gen;
	ms_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, 4);
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", 1 },
	    { "Depth Write Enable", 1 }, { "Width", W - 1 }, { "Height", H - 1 },
	    { "Surface Pitch", 127 }, { "Surface Base Address", FX_DEPTH });
	/* ALWAYS with writes: each sample's depth is the plane at its position */
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", 1 },
	    { "Depth Buffer Write Enable", 1 }, { "Depth Test Function", 0 });
	CHECK_EQ(draw_quad(green, 0, 1), 0);
	int bad = 0;
	for (unsigned s = 0; s < 4; s++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				double want = (x + pos4[s][0] / 16.0) / W;
				if (fabs(depth_at(x, y, s) - want) > 1e-5 && bad++ < 4)
					fprintf(stderr, "depth sample %u of (%d,%d): %f, expected %f\n",
						s, x, y, depth_at(x, y, s), want);
			}
	CHECK_EQ(bad, 0);
	/* LESS at z 0.5: a sample passes where the stored depth is above */
	memset(fx_mem + FX_RT, 0x55, SLICE * 4);
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Function", 2 },
	    { "Depth Buffer Write Enable", 0 });
	CHECK_EQ(draw_tri(green, 0.5f), 0);
	check_samples("depth LESS", 4, depth_passes);
}

/* The MCS (gen9): 8 bits a pixel, Y-tiled at MCS_AT, pitch one tile
 * (128 B); cleared (all ones) by iris at allocation; the clear colour
 * (0, 0, 1, 1) in the surface state. */
static void test_mcs(void)
{
	fx_gen = 9;
	ms_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, 4);
	const float one = 1.0f;
	uint32_t one_bits;
	memcpy(&one_bits, &one, 4);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Auxiliary Surface Mode", 1 },
	    { "Auxiliary Surface Pitch", 0 }, { "Auxiliary Surface QPitch", H / 4 },
	    { "Auxiliary Surface Base Address", MCS_AT }, { "Blue Clear Color", one_bits },
	    { "Alpha Clear Color", one_bits });
	memset(fx_mem + MCS_AT, 0xff, 4096);
	CHECK_EQ(draw_tri(green, 0.5f), 0);
	static const uint8_t clear8[4] = { 0, 0, 255, 255 };
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			bool any = false;
			for (unsigned s = 0; s < 4; s++)
				any = any || covered(4, x, y, s);
			uint8_t mcs = fx_mem[MCS_AT + ref_tile_y_offset((uint64_t)x, (uint64_t)y, 128)];
			/* identity: sample s in plane s, 2 bits each */
			uint8_t want = any ? (0 | 1 << 2 | 2 << 4 | 3 << 6) : 0xff;
			if (mcs != want && bad++ < 4)
				fprintf(stderr, "MCS of (%d,%d): 0x%02x, expected 0x%02x\n", x, y, mcs,
					want);
			for (unsigned s = 0; s < 4; s++) {
				const uint8_t *e = covered(4, x, y, s) ? g8 : any ? clear8 : old8;
				if (memcmp(rt_sample(x, y, s), e, 4) && bad++ < 4)
					fprintf(stderr, "MCS target sample %u of (%d,%d) wrong\n", s, x, y);
			}
		}
	CHECK_EQ(bad, 0);
	/* a fast clear: each pixel of the rectangle stands for 8x2 pixels
	 * (4x: 1/8 of the width, 1/2 of the height); a 1x4 rectangle clears
	 * the 8x8 target, every sample, the MCS at the identity */
	memset(fx_mem + MCS_AT, 0xff, 4096);
	REC("3DSTATE_PS", { "Render Target Fast Clear Enable", 1 });
	fx_begin();
	static const float rect[3][2] = { { -1, -1 }, { -0.75f, -1 }, { -0.75f, 0 } };
	for (unsigned i = 0; i < 3; i++)
		fx_vertex(i, rect[i][0], rect[i][1], 0.5f, 1, green);
	CHECK_EQ(fx_draw(15 /* RECTLIST */, (const unsigned[]){ 0, 1, 2 }, 1, 3), 0);
	bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			if (fx_mem[MCS_AT + ref_tile_y_offset((uint64_t)x, (uint64_t)y, 128)] != 0xe4)
				bad++;
			for (unsigned s = 0; s < 4; s++)
				bad += memcmp(rt_sample(x, y, s), clear8, 4) != 0;
		}
	CHECK_EQ(bad, 0);
}

/* oMask 0b0101 (samples 0 and 2) in the register before the colour. */
static const char omask_fs[] =
	"mov(8)          g123<1>UW       0x0005UW                        { align1 1Q };\n"
	"pln(8)          g124<1>F        g4<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g125<1>F        g4.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g126<1>F        g5<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g127<1>F        g5.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"sendc(8)        null<1>UW       g123<8,8,1>F    0x8a031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 5 rlen 0 { align1 1Q EOT };\n";

static bool omask_covered(unsigned n, int x, int y, unsigned s)
{
	return (s == 0 || s == 2) && covered(n, x, y, s);
}

static void test_omask(void)
{
	fx_gen = 8;
	ms_reset(omask_fs, FMT_R8G8B8A8_UNORM, 4);
	REC("3DSTATE_PS_EXTRA", { "oMask Present to Render Target", 1 });
	CHECK_EQ(draw_tri(green, 0.5f), 0);
	check_samples("oMask", 4, omask_covered);
}

/* Each of the 4 samples: green with alpha a where expect says covered,
 * else untouched. */
static void check_green_alpha(bool (*expect)(unsigned, int, int, unsigned), uint8_t a)
{
	int bad = 0;
	for (unsigned s = 0; s < 4; s++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				const uint8_t *p = rt_sample(x, y, s);
				bool in = expect(4, x, y, s);
				bad += in ? (p[1] != 255 || p[3] != a) : memcmp(p, old8, 4) != 0;
			}
	CHECK_EQ(bad, 0);
}

/* "If Pixel Shader outputs oMask, AlphaToCoverage is disabled in
 * hardware, regardless of the state setting" (SKL PRM vol. 7 "Alpha
 * Coverage"; Mesa relies on it, folding alpha to coverage into the oMask
 * it writes, and sends no source 0 alpha to the other targets): with
 * alpha 0 and alpha to coverage on, oMask's samples 0 and 2 are still
 * written, on Gen8 and Gen9. Before, alpha 0 dropped every sample
 * (piglit sample-mask-mrt-alpha-to-coverage-combinations). */
static void test_omask_a2c(int gen)
{
	fx_gen = gen;
	ms_reset(omask_fs, FMT_R8G8B8A8_UNORM, 4);
	REC("3DSTATE_PS_EXTRA", { "oMask Present to Render Target", 1 });
	PUT("BLEND_STATE", FX_DYN + FX_BLEND, { "Alpha To Coverage Enable", 1 });
	static const float transparent_green[4] = { 0, 1, 0, 0 };
	CHECK_EQ(draw_tri(transparent_green, 0.5f), 0);
	check_green_alpha(omask_covered, 0);
}

/* Alpha to coverage: alpha 0.6 over 4 samples covers floor(0.6 * 4 +
 * 1/2) = 2 samples, the first two (gtsim's rule, docs/backend.md). */
static bool a2c_covered(unsigned n, int x, int y, unsigned s)
{
	return s < 2 && covered(n, x, y, s);
}

static void test_a2c(void)
{
	fx_gen = 9;
	ms_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, 4);
	PUT("BLEND_STATE", FX_DYN + FX_BLEND, { "Alpha To Coverage Enable", 1 });
	static const float c[4] = { 0, 1, 0, 0.6f };
	CHECK_EQ(draw_tri(c, 0.5f), 0);
	check_green_alpha(a2c_covered, 153);
}

/* BLEND_STATE Alpha To Coverage Dither Enable (iris sets it with alpha to
 * coverage): the hardware's pattern is not public, so gtsim's rule covers
 * the same samples as without it, and the stub trace says so once; not
 * before (test_a2c ran without the bit). */
static void test_a2c_dither(void)
{
	static const char said[] = "Alpha To Coverage Dither Enable: the hardware's dither "
				   "pattern is not modelled";
	CHECK(!fx_trace_has(said));
	fx_gen = 9;
	ms_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, 4);
	PUT("BLEND_STATE", FX_DYN + FX_BLEND, { "Alpha To Coverage Enable", 1 },
	    { "Alpha To Coverage Dither Enable", 1 });
	static const float c[4] = { 0, 1, 0, 0.6f };
	CHECK_EQ(draw_tri(c, 0.5f), 0);
	check_green_alpha(a2c_covered, 153);
	CHECK(fx_trace_has(said));
}

/* gl_SampleID as Mesa computes it (brw_fs.cpp): g1.0's byte read by every
 * channel of the subspan, shifted by 4 for the second slot, low nibble:
 * written into an R32_UINT target. */
static const char sample_id_fs[] =
	"shr(8)          g10<1>UW        g1<1,8,0>UB     0x44440000V     { align1 1Q };\n"
	"and(8)          g124<1>UD       g10<8,8,1>UW    0x000fUW        { align1 1Q };\n"
	"mov(8)          g125<1>UD       0x00000000UD                    { align1 1Q };\n"
	"mov(8)          g126<1>UD       0x00000000UD                    { align1 1Q };\n"
	"mov(8)          g127<1>UD       0x00000000UD                    { align1 1Q };\n"
	"sendc(8)        null<1>UW       g124<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

static void test_per_sample(int gen, unsigned n)
{
	fx_gen = gen;
	ms_reset(sample_id_fs, FMT_R32_UINT, n);
	memset(fx_mem + FX_RT, 0xee, (size_t)SLICE * n);
	REC("3DSTATE_PS_EXTRA", { "Pixel Shader Is Per Sample", 1 });
	CHECK_EQ(draw_tri(green, 0.5f), 0);
	int bad = 0;
	for (unsigned s = 0; s < n; s++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				uint32_t v;
				memcpy(&v, rt_sample(x, y, s), 4);
				uint32_t want = covered(n, x, y, s) ? s : 0xeeeeeeeeu;
				if (v != want && bad++ < 4)
					fprintf(stderr, "sample id: sample %u of (%d,%d) 0x%x, expected 0x%x\n",
						s, x, y, v, want);
			}
	CHECK_EQ(bad, 0);
}

/* The payload's Input Coverage Mask (3DSTATE_PS_EXTRA "Pixel Shader Uses
 * Input Coverage Mask" on Gen8, "Input Coverage Mask State" ICMS_NORMAL on
 * Gen9; PRM vol. 7 "Pixel Shader Thread Payload": a dword a pixel after the
 * barycentrics, bit s for sample s) is the pixel's coverage, also under
 * per-sample dispatch: Mesa's gl_SampleMaskIn ANDs it with 1 << SampleID
 * itself when the shader runs per sample (brw_fs.cpp, citing
 * OES_sample_variables), because the hardware does not. SIMD8, perspective
 * barycentrics in g2-g3, the mask in g4, written into an R32_UINT target. */
static const char coverage_fs[] =
	"mov(8)          g124<1>UD       g4<8,8,1>UD                     { align1 1Q };\n"
	"mov(8)          g125<1>UD       0x00000000UD                    { align1 1Q };\n"
	"mov(8)          g126<1>UD       0x00000000UD                    { align1 1Q };\n"
	"mov(8)          g127<1>UD       0x00000000UD                    { align1 1Q };\n"
	"sendc(8)        null<1>UW       g124<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

static void test_input_coverage(int gen, unsigned n, bool per_sample)
{
	fx_gen = gen;
	ms_reset(coverage_fs, FMT_R32_UINT, n);
	memset(fx_mem + FX_RT, 0xee, (size_t)SLICE * n);
	REC("3DSTATE_PS", { "Dispatch GRF Start Register For Constant/Setup Data 0", 5 });
	if (gen >= 9)
		REC("3DSTATE_PS_EXTRA", { "Input Coverage Mask State", 1 });
	else
		REC("3DSTATE_PS_EXTRA", { "Pixel Shader Uses Input Coverage Mask", 1 });
	if (per_sample)
		REC("3DSTATE_PS_EXTRA", { "Pixel Shader Is Per Sample", 1 });
	CHECK_EQ(draw_tri(green, 0.5f), 0);
	int bad = 0, partial = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint32_t mask = 0;
			for (unsigned s = 0; s < n; s++)
				mask |= (uint32_t)covered(n, x, y, s) << s;
			partial += mask && mask != (1u << n) - 1;
			for (unsigned s = 0; s < n; s++) {
				uint32_t v;
				memcpy(&v, rt_sample(x, y, s), 4);
				uint32_t want = mask >> s & 1 ? mask : 0xeeeeeeeeu;
				if (v != want && bad++ < 4)
					fprintf(stderr, "input coverage gen%d %ux%s: sample %u of (%d,%d) "
						"0x%x, expected 0x%x\n", gen, n, per_sample ? " per sample" : "",
						s, x, y, v, want);
			}
		}
	CHECK(partial > 4);   /* the triangle's edges cross pixels */
	CHECK_EQ(bad, 0);
}

/* The pixel interpolator (SFID 11) in a multisampled draw: the PS sends
 * one PI message (descriptor `desc`: 13:12 type, 7:0 its data; mlen 1,
 * or 2 with the per-slot X and Y offsets in g20, g21), PLNs attribute 0
 * with the weights it returns and writes the value into an R32_FLOAT
 * target. Vertex i's attribute is a_i = X_i + 16 Y_i (its window
 * position) and its w is w_i, so the oracle is the PRM's interpolation
 * written here: screen-space barycentrics l_i at the position the
 * message names (edge functions over the whole area), then the
 * perspective-correct weights l_i / w_i normalised (PRM vol. 7
 * "Barycentric Attribute Interpolation"), or l_i themselves with the
 * noperspective bit (14). */
static const double pi_w[3] = { 1.0, 2.0, 0.5 };

static double pi_expect(double px, double py, bool linear)
{
	double l[3], sum = 0, a = 0;
	for (int i = 0; i < 3; i++) {
		const double *p = tri[(i + 1) % 3], *q = tri[(i + 2) % 3];
		l[i] = (q[0] - p[0]) * (py - p[1]) - (q[1] - p[1]) * (px - p[0]);
	}
	double area = l[0] + l[1] + l[2];
	for (int i = 0; i < 3; i++) {
		double b = l[i] / area / (linear ? 1 : pi_w[i]);
		sum += b;
		a += b * (tri[i][0] + 16 * tri[i][1]);
	}
	return a / sum;
}

/* The position (from the pixel's upper left corner) the message names
 * for pixel (x, y): the sample's standard position, the centroid (the
 * centre when every sample is covered, else the first covered sample's
 * position: gtsim's rule for the payload's centroid barycentrics,
 * docs/backend.md), or the centre moved by (ox, oy) 1/16 pixels. */
struct pi_case {
	unsigned type, sample;
	int ox, oy;
	bool linear, fault;
};

static void pi_position(const struct pi_case *c, unsigned n, int x, int y, double *px, double *py)
{
	const uint8_t (*p)[2] = positions(n);
	*px = 0.5 + c->ox / 16.0;
	*py = 0.5 + c->oy / 16.0;
	if (c->type == 1) {
		*px = p[c->sample][0] / 16.0;
		*py = p[c->sample][1] / 16.0;
	} else if (c->type == 2) {
		unsigned k = 0;
		for (unsigned s = 0; s < n; s++)
			k += covered(n, x, y, s);
		for (unsigned s = 0; k < n && s < n; s++)
			if (covered(n, x, y, s)) {
				*px = p[s][0] / 16.0;
				*py = p[s][1] / 16.0;
				break;
			}
	}
}

static void test_pi(int gen, unsigned n, const struct pi_case *c)
{
	uint32_t desc = (c->type == 3 ? 2u : 1u) << 25 | 2u << 20 | c->type << 12 |
			(c->linear ? 1u << 14 : 0);
	if (c->type == 0)
		desc |= (uint32_t)(c->ox & 15) | (uint32_t)(c->oy & 15) << 4;
	if (c->type == 1)
		desc |= c->sample << 4;
	char fs[1024];
	snprintf(fs, sizeof(fs),
		 "mov(8)          g20<1>D         %dD                             { align1 1Q };\n"
		 "mov(8)          g21<1>D         %dD                             { align1 1Q };\n"
		 "send(8)         g10<1>UW        g%u<8,8,1>F     0x%08x\n"
		 "                pixel interp MsgDesc: mlen %u rlen 2 { align1 1Q };\n"
		 "pln(8)          g124<1>F        g4<0,1,0>F      g10<8,8,1>F     { align1 1Q };\n"
		 "mov(8)          g125<1>F        0x0F                            { align1 1Q };\n"
		 "mov(8)          g126<1>F        0x0F                            { align1 1Q };\n"
		 "mov(8)          g127<1>F        0x0F                            { align1 1Q };\n"
		 "sendc(8)        null<1>UW       g124<8,8,1>F    0x88031400\n"
		 "                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n",
		 c->ox, c->oy, c->type == 3 ? 20u : 2u, desc, c->type == 3 ? 2u : 1u);
	fx_gen = gen;
	ms_reset(fs, FMT_R32_FLOAT, n);
	if (c->linear)
		REC("3DSTATE_CLIP", { "Non-Perspective Barycentric Enable", 1 });
	fx_begin();
	for (unsigned i = 0; i < 3; i++) {
		const float a[4] = { (float)(tri[i][0] + 16 * tri[i][1]), 0, 0, 1 };
		float w = (float)pi_w[i];
		fx_vertex(i, (float)(tri[i][0] / (W / 2) - 1) * w, (float)(tri[i][1] / (H / 2) - 1) * w,
			  0.5f * w, w, a);
	}
	int r = fx_draw(4, (const unsigned[]){ 0, 1, 2 }, 1, 3);
	CHECK_EQ(r, c->fault ? -1 : 0);
	if (r)
		return;
	int bad = 0, seen = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			double px, py;
			pi_position(c, n, x, y, &px, &py);
			double want = pi_expect(x + px, y + py, c->linear);
			for (unsigned s = 0; s < n; s++) {
				float v;
				memcpy(&v, rt_sample(x, y, s), 4);
				if (!covered(n, x, y, s)) {
					bad += memcmp(rt_sample(x, y, s), old8, 4) != 0;
					continue;
				}
				seen++;
				if (fabs(v - want) > 2e-3 && bad++ < 4)
					fprintf(stderr, "PI type %u sample %u offset (%d,%d)%s, gen %d %ux: "
						"sample %u of (%d,%d) %f, expected %f\n", c->type, c->sample,
						c->ox, c->oy, c->linear ? " linear" : "", gen, n, s, x, y,
						v, want);
			}
		}
	CHECK(seen > 0);
	CHECK_EQ(bad, 0);
}

static void test_pi_all(void)
{
	for (int gen = 8; gen <= 9; gen++)
		for (unsigned n = 2; n <= (gen == 9 ? 16u : 8u); n *= 2) {
			for (unsigned s = 0; s < n; s++)
				test_pi(gen, n, &(struct pi_case){ .type = 1, .sample = s });
			test_pi(gen, n, &(struct pi_case){ .type = 1, .sample = n - 1, .linear = true });
			test_pi(gen, n, &(struct pi_case){ .type = 2 });
			test_pi(gen, n, &(struct pi_case){ .type = 2, .linear = true });
			test_pi(gen, n, &(struct pi_case){ .type = 0, .ox = -3, .oy = 5 });
			test_pi(gen, n, &(struct pi_case){ .type = 3, .ox = 7, .oy = -8 });
		}
	/* a sample the pattern does not have faults */
	test_pi(9, 4, &(struct pi_case){ .type = 1, .sample = 4, .fault = true });
}

/* A target whose sample count is not 3DSTATE_MULTISAMPLE's faults. */
static void test_mismatch(void)
{
	fx_gen = 8;
	ms_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, 4);
	REC("3DSTATE_MULTISAMPLE", { "Number of Multisamples", 3 });
	CHECK(draw_tri(green, 0.5f) != 0);
}

int main(void)
{
	fx_trace_begin();
	fx_init();
	for (int gen = 8; gen <= 9; gen++) {
		test_coverage(gen, 2);
		test_coverage(gen, 4);
		test_coverage(gen, 8);
		for (unsigned n = 2; n <= (gen == 9 ? 16u : 8u); n *= 2)
			test_coverage_ties(gen, n);
		test_depth(gen);
		test_per_sample(gen, 4);
		test_input_coverage(gen, 4, false);
		test_input_coverage(gen, 4, true);
	}
	test_input_coverage(9, 16, true);
	test_coverage(9, 16);
	test_per_sample(9, 8);
	test_raster_off();
	test_sample_mask();
	test_mcs();
	test_omask();
	test_omask_a2c(8);
	test_omask_a2c(9);
	test_a2c();
	test_a2c_dither();
	test_mismatch();
	test_pi_all();
	fx_fini();
	fx_trace_end();
	return test_exit();
}
