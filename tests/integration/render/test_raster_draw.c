/* Setup and rasterization through a real draw (clip, viewport, SF, raster,
 * SIMD8 PS, RT write) into a 16x16 R8G8B8A8_UNORM target, each against a
 * pixel set or values worked out here from the PRM's rules:
 *  - culling (Cull Mode BOTH/NONE/FRONT/BACK) and Front Winding;
 *  - the PS payload's R0.0: bit 15 back facing, bits 4:0 the topology,
 *    read the way Mesa computes gl_FrontFacing;
 *  - the scissor rectangle (inclusive);
 *  - user clip distances (VUE rows 2-3) clipping at d = 0, cull distances,
 *    the test bitmasks from 3DSTATE_CLIP when forced, else from the last
 *    enabled stage (GS, DS, VS);
 *  - the guard band: a triangle reaching far outside the viewport is
 *    clipped to the band and its attributes still follow the unclipped
 *    triangle's linear function;
 *  - SF_CLIP_VIEWPORT's viewport extents (X/Y Min/Max ViewPort) keep a
 *    triangle that the guard band let through to the viewport's pixels;
 *  - points: width from 3DSTATE_SF and from the VUE header (DWord 3),
 *    point sprite texture coordinates (upper-left origin);
 *  - lines: a 1-wide horizontal line covers its row from the first end's
 *    pixel up to, not including, the last end's;
 *  - polygon offset: constant x r (r = 2^-24 for depth near 0.5) and
 *    scale x max slope, read back from a D32_FLOAT depth buffer;
 *  - the VUE header's Viewport Index (DWord 2) selecting SF_CLIP_VIEWPORT
 *    and SCISSOR_RECT entries up to 3DSTATE_CLIP's Maximum VP Index (past
 *    it: viewport 0), and its Render Target Array Index (DWord 1)
 *    selecting a layer of a 2D array target (QPitch rows apart; past the
 *    surface's Depth: layer 0);
 *  - pipeline statistics: REG_CL_INVOCATION_COUNT (primitives into the
 *    clipper), REG_CL_PRIMITIVES_COUNT (out of it), REG_PS_INVOCATION_COUNT (pixels
 *    shaded; x4 on Broadwell, Mesa's WaDividePSInvocationCountBy4) and
 *    REG_PS_DEPTH_COUNT (pixels past the depth test), each only with its
 *    stage's Statistics Enable. */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"
#include "gpu/render/topology.h"

#define W 16
#define H 16
#define PITCH (W * 4)

static const float green[4] = { 0, 1, 0, 1 };

/* Written pixels: non-zero green byte. */
static int written(int x, int y)
{
	return fx_px(PITCH, 4, x, y)[1] != 0;
}

static int count_written(void)
{
	int n = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			n += written(x, y);
	return n;
}

static double ndc(double win, int size)
{
	return win / size * 2 - 1;
}

/* The lower-left triangle (0,0) (16,0) (0,16) in window space, clockwise
 * on the screen (y down) when drawn 0, 1, 2: with the top-left rule its
 * hypotenuse (a right edge) is out, so x + y <= 14: 120 pixels. */
static int draw_triangle(bool reversed)
{
	fx_begin();
	fx_vertex(0, -1, -1, 0.5f, 1, green);
	fx_vertex(1, 1, -1, 0.5f, 1, green);
	fx_vertex(2, -1, 1, 0.5f, 1, green);
	return fx_draw(PRIM_TRILIST, reversed ? (const unsigned[]){ 0, 2, 1 } :
					       (const unsigned[]){ 0, 1, 2 }, 1, 3);
}

static void culling(void)
{
	/* Cull Mode: 0 BOTH, 1 NONE, 2 FRONT, 3 BACK; Front Winding 0 CW, 1 CCW */
	static const struct { int cull, ccw; bool reversed; int want; } cases[] = {
		{ 1, 0, false, 120 }, { 1, 0, true, 120 },
		{ 3, 0, false, 120 }, { 3, 0, true, 0 },
		{ 2, 0, false, 0 }, { 2, 0, true, 120 },
		{ 3, 1, false, 0 }, { 3, 1, true, 120 },
		{ 0, 0, false, 0 }, { 0, 1, true, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
		REC("3DSTATE_RASTER", { "Cull Mode", (uint64_t)cases[i].cull },
		    { "Front Winding", (uint64_t)cases[i].ccw });
		CHECK_EQ(draw_triangle(cases[i].reversed), 0);
		int n = count_written();
		if (n != cases[i].want)
			fprintf(stderr, "cull case %zu: %d pixels, want %d\n", i, n, cases[i].want);
		CHECK_EQ(n, cases[i].want);
		if (cases[i].want) {
			CHECK(written(0, 0) && written(14, 0) && written(0, 14) && written(7, 7));
			CHECK(!written(15, 0) && !written(8, 7) && !written(15, 15));
		}
	}
}

/* gl_FrontFacing the way Mesa's PS reads it on Gen6-9: R0.0:W negated
 * arithmetically, shifted right 15, tested non-zero. The negation gives
 * bit 15 set only when bit 15 was clear and bits 14:0 are not all zero;
 * the PRM's payload puts the primitive's topology in bits 4:0 (never 0),
 * so the test yields "front" exactly when Back Facing (bit 15) is clear.
 * G = 1 for front; B = R0.0 bits 4:0 / 255 (the topology); A = 1. */
static const char facing_fs[] =
	"mov(8)          g124<1>F        0x0F                            { align1 1Q };\n"
	"mov(8)          g125<1>F        0x0F                            { align1 1Q };\n"
	"mov(8)          g127<1>F        0x3f800000F                     { align1 1Q };\n"
	"asr.nz.f0.0(8)  null<1>D        -g0<0,1,0>W     15D             { align1 1Q };\n"
	"(f0.0) mov(8)   g125<1>F        0x3f800000F                     { align1 1Q };\n"
	"and(8)          g10<1>UD        g0<0,1,0>UD     0x1fUD          { align1 1Q };\n"
	"mov(8)          g11<1>F         g10<8,8,1>UD                    { align1 1Q };\n"
	"mul(8)          g126<1>F        g11<8,8,1>F     0x3b808081F     { align1 1Q };\n"
	"sendc(8)        null<1>UW       g124<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

/* The PS's front/back: window (0,0) (16,0) (0,16) is clockwise on the
 * screen (y down), so front under Front Winding CW, back reversed or
 * under CCW; a rectangle and a point are front. B reads the topology. */
static void facing(void)
{
	static const struct { int ccw; bool reversed; bool front; } cases[] = {
		{ 0, false, true }, { 0, true, false }, { 1, false, false }, { 1, true, true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fx_reset(facing_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
		REC("3DSTATE_RASTER", { "Cull Mode", 1 }, { "Front Winding", (uint64_t)cases[i].ccw });
		CHECK_EQ(draw_triangle(cases[i].reversed), 0);
		const uint8_t *p = fx_px(PITCH, 4, 2, 2);
		CHECK_EQ(p[3], 255);
		CHECK_EQ(p[1], (cases[i].front ? 255 : 0));
		CHECK_EQ(p[2], PRIM_TRILIST);
	}
	/* a rectangle (RECTLIST) is never back facing */
	fx_reset(facing_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_RASTER", { "Cull Mode", 1 }, { "Front Winding", 1 });
	fx_begin();
	fx_vertex(0, 1, 1, 0.5f, 1, NULL);
	fx_vertex(1, -1, 1, 0.5f, 1, NULL);
	fx_vertex(2, -1, -1, 0.5f, 1, NULL);
	CHECK_EQ(fx_draw(PRIM_RECTLIST, (const unsigned[]){ 0, 1, 2 }, 1, 3), 0);
	CHECK_EQ(fx_px(PITCH, 4, 8, 8)[1], 255);
	CHECK_EQ(fx_px(PITCH, 4, 8, 8)[2], PRIM_RECTLIST);
}

static int draw_square(void)
{
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, green);
	return fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

static void scissor(void)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_RASTER", { "Scissor Rectangle Enable", 1 });
	REC("3DSTATE_SCISSOR_STATE_POINTERS", { "Scissor Rect Pointer", FX_SCISSOR });
	PUT("SCISSOR_RECT", FX_DYN + FX_SCISSOR, { "Scissor Rectangle X Min", 3 },
	    { "Scissor Rectangle Y Min", 2 }, { "Scissor Rectangle X Max", 9 },
	    { "Scissor Rectangle Y Max", 12 });
	CHECK_EQ(draw_square(), 0);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			bad += written(x, y) != (x >= 3 && x <= 9 && y >= 2 && y <= 12);
	CHECK_EQ(bad, 0);
}

/* The square with the colour at row 4 (SBE read offset 2) and clip
 * distance 0 = NDC x, distance 1 = -1 (rows 2-3 of the VUE). */
/* Where the clipper takes its user clip distance tests from (PRM vol. 2a
 * 3DSTATE_CLIP "Force User Clip Distance Clip/Cull Test Enable
 * Bitmask"): 3DSTATE_CLIP's own bitmask when forced, else the last enabled
 * geometry stage's (GS, else DS, else VS). Each case gives the clip and
 * cull bitmasks of 3DSTATE_CLIP (with the force bits), _VS, _DS and _GS,
 * which stages are enabled, and the tests that must result. */
struct user_clip_case {
	int clip_clip, clip_cull, force_clip, force_cull;
	int vs_clip, vs_cull, ds_clip, ds_cull, gs_clip, gs_cull;
	bool ds_on, gs_on;
	bool want_clip, want_cull;
};

static void clip_distances(void)
{
	static const struct user_clip_case cases[] = {
		/* 3DSTATE_CLIP forced, stages say nothing */
		{ 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, false, false, true, false },
		{ 1, 2, 1, 1, 0, 0, 0, 0, 0, 0, false, false, true, true },
		/* not forced: 3DSTATE_CLIP's bitmasks are not used */
		{ 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, false, false, false, false },
		/* iris: clip forced, cull from the VS */
		{ 1, 0, 1, 0, 0, 2, 0, 0, 0, 0, false, false, true, true },
		/* anv: both from the VS */
		{ 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, false, false, true, true },
		/* the DS (tessellation) is last: the VS's are not used */
		{ 0, 0, 0, 0, 1, 2, 1, 0, 0, 0, true, false, true, false },
		/* the GS is last, in front of an enabled DS */
		{ 0, 0, 0, 0, 0, 0, 1, 0, 0, 2, true, true, false, true },
		/* a DS that is not enabled: the VS is last */
		{ 0, 0, 0, 0, 1, 0, 0, 2, 0, 2, false, false, true, false },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct user_clip_case *c = &cases[i];
		fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
		REC("3DSTATE_SBE", { "Vertex URB Entry Read Offset", 2 });
		REC("3DSTATE_CLIP", { "User Clip Distance Clip Test Enable Bitmask", (uint64_t)c->clip_clip },
		    { "User Clip Distance Cull Test Enable Bitmask", (uint64_t)c->clip_cull },
		    { "Force User Clip Distance Clip Test Enable Bitmask", (uint64_t)c->force_clip },
		    { "Force User Clip Distance Cull Test Enable Bitmask", (uint64_t)c->force_cull });
		REC("3DSTATE_VS", { "User Clip Distance Clip Test Enable Bitmask", (uint64_t)c->vs_clip },
		    { "User Clip Distance Cull Test Enable Bitmask", (uint64_t)c->vs_cull });
		REC("3DSTATE_DS", { "Enable", c->ds_on },
		    { "User Clip Distance Clip Test Enable Bitmask", (uint64_t)c->ds_clip },
		    { "User Clip Distance Cull Test Enable Bitmask", (uint64_t)c->ds_cull });
		REC("3DSTATE_GS", { "Enable", c->gs_on },
		    { "User Clip Distance Clip Test Enable Bitmask", (uint64_t)c->gs_clip },
		    { "User Clip Distance Cull Test Enable Bitmask", (uint64_t)c->gs_cull });
		fx_begin();
		static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
		for (unsigned k = 0; k < 4; k++) {
			float *v = fx_vue(k);
			fx_vertex(k, pos[k][0], pos[k][1], 0.5f, 1, NULL);
			v[8] = pos[k][0];       /* clip distance 0 */
			v[9] = -1;              /* clip distance 1 (culls when enabled) */
			memcpy(v + 16, green, 16);
		}
		CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
		int bad = 0;
		/* d0 = NDC x >= 0: window x >= 8, pixel centres x + 0.5 > 8 */
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				bad += written(x, y) != (!c->want_cull && (!c->want_clip || x >= 8));
		if (bad)
			fprintf(stderr, "user clip case %zu: %d pixels wrong\n", i, bad);
		CHECK_EQ(bad, 0);
	}
}

/* A triangle (-1,-1) (5,-1) (-1,5) in NDC covers the whole viewport; its
 * colour is R = (x + 1) / 6, G = (y + 1) / 6 of the NDC position. With
 * the guard band at +-1.5 (clipped), at +-8 (inside) and with the XY
 * clip test off, every pixel has the unclipped triangle's colour. */
static void guard_band(void)
{
	static const float band[3] = { 1.5f, 8, 0 };
	for (int k = 0; k < 3; k++) {
		fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
		REC("3DSTATE_CLIP", { "Guardband Clip Test Enable", band[k] > 0 });
		PUT("SF_CLIP_VIEWPORT", FX_DYN + FX_SF_CLIP,
		    { "X Min Clip Guardband", fx_fbits(-band[k]) },
		    { "X Max Clip Guardband", fx_fbits(band[k]) },
		    { "Y Min Clip Guardband", fx_fbits(-band[k]) },
		    { "Y Max Clip Guardband", fx_fbits(band[k]) });
		fx_begin();
		static const float pos[3][2] = { { -1, -1 }, { 5, -1 }, { -1, 5 } };
		for (unsigned i = 0; i < 3; i++) {
			float c[4] = { (pos[i][0] + 1) / 6, (pos[i][1] + 1) / 6, 0, 1 };
			fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, c);
		}
		CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2 }, 1, 3), 0);
		int bad = 0;
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				const uint8_t *p = fx_px(PITCH, 4, x, y);
				int r = fx_unorm8((ndc(x + 0.5, W) + 1) / 6);
				int g = fx_unorm8((ndc(y + 0.5, H) + 1) / 6);
				if ((abs(p[0] - r) > 1 || abs(p[1] - g) > 1 || p[3] != 255) && bad++ < 3)
					fprintf(stderr, "guard band %g: pixel %d,%d = %u,%u,%u want %d,%d\n",
						band[k], x, y, p[0], p[1], p[3], r, g);
			}
		CHECK_EQ(bad, 0);
	}
}

/* One point at window (5.5, 5.5). */
static int draw_point(float header_size)
{
	fx_begin();
	fx_vertex(0, (float)ndc(5.5, W), (float)ndc(5.5, H), 0.5f, 1, green);
	fx_vue(0)[3] = header_size;             /* VUE header DWord 3: point width */
	return fx_draw(PRIM_POINTLIST, (const unsigned[]){ 0 }, 1, 1);
}

static void points(void)
{
	/* width 3 from the state (U8.3: 3 << 3): pixels 4..6 x 4..6 */
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_SF", { "Point Width Source", 1 }, { "Point Width", 3 << 3 });
	CHECK_EQ(draw_point(7), 0);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			bad += written(x, y) != (x >= 4 && x <= 6 && y >= 4 && y <= 6);
	CHECK_EQ(bad, 0);

	/* width 5 from the VUE header, point sprite coordinates in attribute
	 * 0: s = (x + 0.5 - 3) / 5 across, t likewise down, (s, t, 0, 1) */
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_SF", { "Point Width Source", 0 });
	REC("3DSTATE_SBE", { "Point Sprite Texture Coordinate Enable", 1 });
	CHECK_EQ(draw_point(5), 0);
	bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			bool in = x >= 3 && x <= 7 && y >= 3 && y <= 7;
			int want[4] = { 0, 0, 0, 0 };
			if (in) {
				want[0] = fx_unorm8((x + 0.5 - 3) / 5);
				want[1] = fx_unorm8((y + 0.5 - 3) / 5);
				want[3] = 255;
			}
			for (int c = 0; c < 4; c++)
				if (abs(p[c] - want[c]) > 1 && bad++ < 3)
					fprintf(stderr, "sprite pixel %d,%d ch %d = %u want %d\n", x, y, c,
						p[c], want[c]);
		}
	CHECK_EQ(bad, 0);
}

static void lines(void)
{
	/* window (2, 5.5) -> (12, 5.5), width 1 (U3.7 in 3DSTATE_SF: 1 << 7):
	 * row 5, pixels 2..11 */
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_SF", { "Line Width", 1 << 7 });
	fx_begin();
	fx_vertex(0, (float)ndc(2, W), (float)ndc(5.5, H), 0.5f, 1, green);
	fx_vertex(1, (float)ndc(12, W), (float)ndc(5.5, H), 0.5f, 1, green);
	CHECK_EQ(fx_draw(PRIM_LINELIST, (const unsigned[]){ 0, 1 }, 1, 2), 0);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			bad += written(x, y) != (y == 5 && x >= 2 && x <= 11);
	CHECK_EQ(bad, 0);
}

/* D32_FLOAT depth buffer (Y-major, pitch 64: 16 pixels), depth test
 * ALWAYS with writes; the square at z from z0 (left) to z1 (right). */
static void polygon_offset_case(float z0, float z1, float constant, float scale, double want_off)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", 1 },
	    { "Depth Write Enable", 1 }, { "Width", W - 1 }, { "Height", H - 1 },
	    { "Surface Pitch", 127 }, { "Surface Base Address", FX_DEPTH });
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", 1 },
	    { "Depth Buffer Write Enable", 1 }, { "Depth Test Function", 0 });
	REC("3DSTATE_RASTER", { "Global Depth Offset Enable Solid", 1 },
	    { "Global Depth Offset Constant", fx_fbits(constant) },
	    { "Global Depth Offset Scale", fx_fbits(scale) });
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], pos[i][0] < 0 ? z0 : z1, 1, green);
	CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float z;
			memcpy(&z, fx_mem + FX_DEPTH + ref_tile_y_offset((uint64_t)x * 4, (uint64_t)y, 128), 4);
			double want = z0 + (z1 - z0) * (x + 0.5) / W + want_off;
			if (fabs(z - want) > (want_off < 1e-3 ? 1e-9 : 1e-6) && bad++ < 3)
				fprintf(stderr, "depth offset: pixel %d,%d z %.9f want %.9f\n", x, y, z, want);
		}
	CHECK_EQ(bad, 0);
}

static void polygon_offset(void)
{
	/* constant 4: 4 x 2^-24 = 2^-22 at depth 0.5 (D32_FLOAT: r = 2^(e - 23)
	 * with e = -1 the exponent of the largest depth) */
	polygon_offset_case(0.5f, 0.5f, 4, 0, 4.0 / 16777216);
	/* at depth 0.25 the exponent is -2: r = 2^-25, offset 2^-23 */
	polygon_offset_case(0.25f, 0.25f, 4, 0, 4.0 / 33554432);
	/* scale 2 x max slope: z goes 0.25 -> 0.75 over 16 pixels, slope
	 * 1/32 per pixel: offset 1/16 */
	polygon_offset_case(0.25f, 0.75f, 0, 2, 1.0 / 16);
}

/* The square with header DWord dw = value on every vertex. */
static int draw_square_header(unsigned dw, uint32_t value)
{
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++) {
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, green);
		memcpy(fx_vue(i) + dw, &value, 4);
	}
	return fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

static void viewport_index(void)
{
	/* viewport 0: NDC onto columns 0..7; viewport 1: onto columns 8..15,
	 * its scissor cutting rows above 4 */
	static const struct { uint32_t vpi, max; int x0, y0; } cases[] = {
		{ 0, 1, 0, 0 }, { 1, 1, 8, 4 }, { 5, 1, 0, 0 }, { 1, 0, 0, 0 },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
		REC("3DSTATE_CLIP", { "Maximum VP Index", cases[k].max });
		REC("3DSTATE_RASTER", { "Scissor Rectangle Enable", 1 });
		REC("3DSTATE_SCISSOR_STATE_POINTERS", { "Scissor Rect Pointer", FX_SCISSOR });
		for (int i = 0; i < 2; i++) {
			PUT("SF_CLIP_VIEWPORT", FX_DYN + FX_SF_CLIP + 64 * i,
			    { "Viewport Matrix Element m00", fx_fbits(W / 4.0f) },
			    { "Viewport Matrix Element m11", fx_fbits(H / 2.0f) },
			    { "Viewport Matrix Element m22", fx_fbits(1) },
			    { "Viewport Matrix Element m30", fx_fbits(i ? 3 * W / 4.0f : W / 4.0f) },
			    { "Viewport Matrix Element m31", fx_fbits(H / 2.0f) },
			    { "X Min ViewPort", fx_fbits(i ? W / 2.0f : 0) },
			    { "X Max ViewPort", fx_fbits(i ? W - 1.0f : W / 2.0f - 1) },
			    { "Y Min ViewPort", fx_fbits(0) }, { "Y Max ViewPort", fx_fbits(H - 1.0f) });
			PUT("CC_VIEWPORT", FX_DYN + FX_CC_VP + 8 * i, { "Maximum Depth", fx_fbits(1) });
			PUT("SCISSOR_RECT", FX_DYN + FX_SCISSOR + 8 * i, { "Scissor Rectangle X Max", W - 1 },
			    { "Scissor Rectangle Y Min", i ? 4 : 0 }, { "Scissor Rectangle Y Max", H - 1 });
		}
		CHECK_EQ(draw_square_header(2, cases[k].vpi), 0);
		int bad = 0;
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				bad += written(x, y) != (x >= cases[k].x0 && x < cases[k].x0 + W / 2 &&
							 y >= cases[k].y0);
		if (bad)
			fprintf(stderr, "viewport case %zu: %d pixels wrong\n", k, bad);
		CHECK_EQ(bad, 0);
	}
}

static void rt_array_index(void)
{
	/* a 2D array of 2 layers (Depth 1), QPitch 16 rows (field 4): layer 1
	 * is rows 16..31 of the memory; index 3 is past the Depth: layer 0 */
	static const struct { uint32_t rtai; int first_row; } cases[] = { { 1, 16 }, { 3, 0 } };
	for (size_t k = 0; k < 2; k++) {
		fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
		PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Surface Array", 1 }, { "Depth", 1 },
		    { "Surface QPitch", H / 4 });
		CHECK_EQ(draw_square_header(1, cases[k].rtai), 0);
		int bad = 0;
		for (int y = 0; y < 2 * H; y++)
			for (int x = 0; x < W; x++)
				bad += written(x, y) != (y >= cases[k].first_row && y < cases[k].first_row + H);
		CHECK_EQ(bad, 0);
	}
}

/* SF_CLIP_VIEWPORT's X/Y Min/Max ViewPort (inclusive pixel extents): a
 * viewport on the left half (m00 = m30 = W/4) and a guard band of +-8 let
 * a quad of NDC x in [-1, 3] (window 0..16) through the clipper whole;
 * the extents keep its pixels to x <= 7, as GL's viewport clipping wants
 * (piglit triangle-guardband-viewport). Extents over the whole target:
 * every pixel. */
static void viewport_extents(void)
{
	for (int half = 0; half <= 1; half++) {
		fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
		REC("3DSTATE_CLIP", { "Guardband Clip Test Enable", 1 });
		PUT("SF_CLIP_VIEWPORT", FX_DYN + FX_SF_CLIP,
		    { "Viewport Matrix Element m00", fx_fbits(W / 4.0f) },
		    { "Viewport Matrix Element m30", fx_fbits(W / 4.0f) },
		    { "X Min Clip Guardband", fx_fbits(-8) }, { "X Max Clip Guardband", fx_fbits(8) },
		    { "Y Min Clip Guardband", fx_fbits(-8) }, { "Y Max Clip Guardband", fx_fbits(8) },
		    { "X Max ViewPort", fx_fbits(half ? W / 2.0f - 1 : W - 1.0f) });
		fx_begin();
		static const float pos[4][2] = { { -1, -1 }, { 3, -1 }, { -1, 1 }, { 3, 1 } };
		for (unsigned i = 0; i < 4; i++)
			fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, green);
		CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
		int bad = 0;
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				bad += written(x, y) != (!half || x < W / 2);
		CHECK_EQ(bad, 0);
	}
}

static uint64_t stat_delta(uint32_t reg, uint64_t *before)
{
	uint64_t now = regs_get64(fx_regs, reg), d = now - *before;
	*before = now;
	return d;
}

static void statistics(void)
{
	static const uint32_t regs[4] = { REG_CL_INVOCATION_COUNT, REG_CL_PRIMITIVES_COUNT,
					  REG_PS_INVOCATION_COUNT, REG_PS_DEPTH_COUNT };
	uint64_t base[4];
	for (int i = 0; i < 4; i++)
		base[i] = regs_get64(fx_regs, regs[i]);
	/* the whole square: 2 triangles in and out, 256 pixels */
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_CLIP", { "Statistics Enable", 1 });
	REC("3DSTATE_WM", { "Statistics Enable", 1 });
	CHECK_EQ(draw_square(), 0);
	CHECK_EQ(stat_delta(regs[0], &base[0]), 2);
	CHECK_EQ(stat_delta(regs[1], &base[1]), 2);
	CHECK_EQ(stat_delta(regs[2], &base[2]), 4 * 256);
	CHECK_EQ(stat_delta(regs[3], &base[3]), 256);
	/* clip distance 0 = -1 everywhere: both rejected by the clipper */
	REC("3DSTATE_CLIP", { "User Clip Distance Clip Test Enable Bitmask", 1 },
	    { "Force User Clip Distance Clip Test Enable Bitmask", 1 });
	REC("3DSTATE_SBE", { "Vertex URB Entry Read Offset", 2 });
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++) {
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, NULL);
		fx_vue(i)[8] = -1;
	}
	CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
	CHECK_EQ(stat_delta(regs[0], &base[0]), 2);
	CHECK_EQ(stat_delta(regs[1], &base[1]), 0);
	CHECK_EQ(stat_delta(regs[2], &base[2]), 0);
	/* Statistics Enable off: nothing counts */
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	CHECK_EQ(draw_square(), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(stat_delta(regs[i], &base[i]), 0);
}

int main(void)
{
	fx_init();
	culling();
	facing();
	scissor();
	clip_distances();
	guard_band();
	viewport_extents();
	points();
	lines();
	polygon_offset();
	statistics();
	viewport_index();
	rt_array_index();
	fx_fini();
	return test_exit();
}
