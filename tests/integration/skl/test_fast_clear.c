/* Colour fast clears and resolves through a draw of the back end, on SKL
 * (gen9) and BDW (gen8). The oracle is the PRM's scale-down table ("Render
 * Target Fast Clear", as Mesa's blorp computes it): each pixel of the
 * clear rectangle clears a block of the target, for 32-bit pixels 64x32 on
 * gen9, 64x64 (Y-tiled) or 128x32 (X-tiled) on gen8, 32x32 for 64-bit and
 * 16x32 for 128-bit pixels on gen9; the colour is RENDER_SURFACE_STATE's clear colour (gen9:
 * 32-bit values in the format's data type; gen8: one bit per channel), not
 * the PS output. A resolve pass leaves the target as it is (gtsim keeps the
 * main surface resolved). Pixels outside the cleared blocks keep 0x55. */
#include "integration/render/backend_fixture.h"
#include "drv/seed_shaders.h"

enum { Y_TILED = 3, X_TILED = 2, LINEAR = 0, AUX_CCS_E = 5, RESOLVE_FULL = 3,
       R32G32B32A32_FLOAT = 0 };

static void target(uint32_t format, uint32_t w, uint32_t h, uint32_t pitch, int tiling,
		   uint32_t rows)
{
	fx_reset(gtdrv_color_fs, format, w, h, pitch);
	fx_target(format, w, h, pitch, tiling);
	memset(fx_mem + FX_RT, 0x55, (size_t)pitch * rows);
}

/* Two triangles covering window pixels [x0, x1) x [y0, y1) of a w x h
 * viewport (fx_reset's: NDC -1 at window 0), colour red. */
static int draw_rect(uint32_t w, uint32_t h, float x0, float y0, float x1, float y1)
{
	static const float red[4] = { 1, 0, 0, 1 };
	fx_begin();
	const float xs[2] = { x0, x1 }, ys[2] = { y0, y1 };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, 2 * xs[i & 1] / w - 1, 2 * ys[i >> 1] / h - 1, 0.5f, 1, red);
	return fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

static const uint8_t *pixel(int tiling, uint32_t pitch, uint32_t cpp, uint32_t x, uint32_t y)
{
	enum ref_tiling t = tiling == Y_TILED ? REF_TILE_Y : tiling == X_TILED ? REF_TILE_X :
			   REF_LINEAR;
	uint64_t off = t == REF_LINEAR ? (uint64_t)y * pitch + x * cpp :
		       ref_tiled_offset(t, (uint64_t)x * cpp, y, pitch);
	return fx_mem + FX_RT + off;
}

/* Every pixel: inside [0, cw) x [0, ch) the cpp bytes of want, else 0x55. */
static void check(const char *what, int tiling, uint32_t w, uint32_t h, uint32_t pitch,
		  uint32_t cpp, uint32_t cw, uint32_t ch, const uint8_t *want)
{
	static const uint8_t old[16] = { 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55,
					 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55 };
	int bad = 0;
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			const uint8_t *p = pixel(tiling, pitch, cpp, x, y);
			const uint8_t *e = x < cw && y < ch ? want : old;
			if (memcmp(p, e, cpp) && bad++ < 4)
				fprintf(stderr, "%s: pixel (%u, %u) %02x %02x %02x %02x, want "
					"%02x %02x %02x %02x\n", what, x, y, p[0], p[1], p[2],
					p[3], e[0], e[1], e[2], e[3]);
		}
	CHECK_EQ(bad, 0);
}

static void fast_clear_state(void)
{
	REC("3DSTATE_PS", { "Render Target Fast Clear Enable", 1 });
}

/* The clear colour fields are 32-bit signed in the table: the bits of a
 * negative float are a negative value. */
#define S32(bits) ((uint64_t)(int64_t)(int32_t)(uint32_t)(bits))

static void gen9_clear_colour(uint64_t r, uint64_t g, uint64_t b, uint64_t a)
{
	r = S32(r);
	g = S32(g);
	b = S32(b);
	a = S32(a);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Auxiliary Surface Mode", AUX_CCS_E },
	    { "Red Clear Color", r }, { "Green Clear Color", g }, { "Blue Clear Color", b },
	    { "Alpha Clear Color", a });
}

static void gen9_rgba8(void)
{
	/* (0.25, 0.5, 0.75, 1) as UNORM8, round to nearest */
	static const uint8_t want[4] = { 64, 128, 191, 255 };
	fx_gen = 9;
	/* 100x40, pitch 4 Y tiles; one pixel of the rectangle: one block */
	target(FMT_R8G8B8A8_UNORM, 100, 40, 512, Y_TILED, 64);
	fast_clear_state();
	gen9_clear_colour(fx_fbits(0.25f), fx_fbits(0.5f), fx_fbits(0.75f), fx_fbits(1));
	CHECK_EQ(draw_rect(100, 40, 0, 0, 1, 1), 0);
	check("gen9 rgba8 one block", Y_TILED, 100, 40, 512, 4, 64, 32, want);
	/* 2x2 pixels: the whole surface (blocks past its edges clip) */
	target(FMT_R8G8B8A8_UNORM, 100, 40, 512, Y_TILED, 64);
	fast_clear_state();
	gen9_clear_colour(fx_fbits(0.25f), fx_fbits(0.5f), fx_fbits(0.75f), fx_fbits(1));
	CHECK_EQ(draw_rect(100, 40, 0, 0, 2, 2), 0);
	check("gen9 rgba8 all", Y_TILED, 100, 40, 512, 4, 100, 40, want);
}

static void gen9_rgba32f(void)
{
	float f[4] = { 0.5f, -2.0f, 3.25f, 1.0f };
	uint8_t want[16];
	memcpy(want, f, 16);
	fx_gen = 9;
	/* 40x40, 16 bytes a pixel: pitch 640 (5 Y tiles); a block is 16x32 */
	target(R32G32B32A32_FLOAT, 40, 40, 640, Y_TILED, 64);
	fast_clear_state();
	gen9_clear_colour(fx_fbits(f[0]), fx_fbits(f[1]), fx_fbits(f[2]), fx_fbits(f[3]));
	CHECK_EQ(draw_rect(40, 40, 0, 0, 1, 1), 0);
	check("gen9 rgba32f one block", Y_TILED, 40, 40, 640, 16, 16, 32, want);
}

static void gen9_rgba16f(void)
{
	/* (1.5, -0.25, 0, 1) as IEEE halves, little-endian */
	static const uint8_t want[8] = { 0x00, 0x3e, 0x00, 0xb4, 0x00, 0x00, 0x00, 0x3c };
	fx_gen = 9;
	/* 48x40, 8 bytes a pixel: pitch 384 (3 Y tiles); a block is 32x32 */
	target(FMT_R16G16B16A16_FLOAT, 48, 40, 384, Y_TILED, 64);
	fast_clear_state();
	gen9_clear_colour(fx_fbits(1.5f), fx_fbits(-0.25f), fx_fbits(0), fx_fbits(1));
	CHECK_EQ(draw_rect(48, 40, 0, 0, 1, 1), 0);
	check("gen9 rgba16f one block", Y_TILED, 48, 40, 384, 8, 32, 32, want);
}

/* A layer of a 2D array (Minimum Array Element 1, QPitch 64 rows): the
 * blocks land in that layer, 64 rows down; layer 0 keeps its pixels. */
static void gen9_array_layer(void)
{
	static const uint8_t want[4] = { 64, 128, 191, 255 };
	fx_gen = 9;
	target(FMT_R8G8B8A8_UNORM, 64, 64, 256, Y_TILED, 128);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Surface Array", 1 }, { "Depth", 1 },
	    { "Surface QPitch", 64 / 4 }, { "Minimum Array Element", 1 });
	fast_clear_state();
	gen9_clear_colour(fx_fbits(0.25f), fx_fbits(0.5f), fx_fbits(0.75f), fx_fbits(1));
	CHECK_EQ(draw_rect(64, 64, 0, 0, 1, 1), 0);
	/* both layers as one 64x128 surface: rows 64..95 of layer 1 cleared */
	int bad = 0;
	for (uint32_t y = 0; y < 128; y++)
		for (uint32_t x = 0; x < 64; x++) {
			const uint8_t *p = pixel(Y_TILED, 256, 4, x, y);
			bool in = y >= 64 && y < 96;
			bad += in ? memcmp(p, want, 4) != 0 : p[0] != 0x55 || p[3] != 0x55;
		}
	CHECK_EQ(bad, 0);
}

static void gen9_resolve_and_faults(void)
{
	static const uint8_t none[4] = { 0x55, 0x55, 0x55, 0x55 };
	fx_gen = 9;
	/* a full resolve over the whole target writes nothing */
	target(FMT_R8G8B8A8_UNORM, 100, 40, 512, Y_TILED, 64);
	REC("3DSTATE_PS", { "Render Target Resolve Type", RESOLVE_FULL });
	CHECK_EQ(draw_rect(100, 40, 0, 0, 100, 40), 0);
	check("gen9 resolve", Y_TILED, 100, 40, 512, 4, 0, 0, none);
	/* without a fast clear or resolve the PS colour lands as usual */
	target(FMT_R8G8B8A8_UNORM, 100, 40, 512, Y_TILED, 64);
	CHECK_EQ(draw_rect(100, 40, 0, 0, 3, 2), 0);
	check("gen9 plain draw", Y_TILED, 100, 40, 512, 4, 3, 2,
	      (const uint8_t[]){ 255, 0, 0, 255 });
	/* a linear target has no CCS: a GPU fault, nothing written */
	target(FMT_R8G8B8A8_UNORM, 16, 4, 64, LINEAR, 4);
	fast_clear_state();
	CHECK(draw_rect(16, 4, 0, 0, 1, 1) != 0);
	check("gen9 linear fault", LINEAR, 16, 4, 64, 4, 0, 0, none);
	/* nor does a 16-bit format */
	target(FMT_B5G6R5_UNORM, 64, 32, 128, Y_TILED, 32);
	fast_clear_state();
	CHECK(draw_rect(64, 32, 0, 0, 1, 1) != 0);
}

/* gen8's clear colour is one bit a channel: red, blue, alpha 1 */
static void gen8_fast_clear(uint32_t w, uint32_t h, uint32_t pitch, int tiling, uint32_t rows)
{
	target(FMT_R8G8B8A8_UNORM, w, h, pitch, tiling, rows);
	fast_clear_state();
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Red Clear Color", 1 },
	    { "Blue Clear Color", 1 }, { "Alpha Clear Color", 1 });
}

static void gen8(void)
{
	static const uint8_t want[4] = { 255, 0, 255, 255 };
	fx_gen = 8;
	gen8_fast_clear(100, 80, 512, Y_TILED, 96);
	CHECK_EQ(draw_rect(100, 80, 0, 0, 1, 1), 0);
	check("gen8 Y-tiled one block", Y_TILED, 100, 80, 512, 4, 64, 64, want);
	/* X tiles (512 bytes x 8 rows): a block is 128x32 */
	gen8_fast_clear(200, 40, 1024, X_TILED, 40);
	CHECK_EQ(draw_rect(200, 40, 0, 0, 1, 1), 0);
	check("gen8 X-tiled one block", X_TILED, 200, 40, 1024, 4, 128, 32, want);
	/* gen8's resolve is one bit */
	target(FMT_R8G8B8A8_UNORM, 100, 80, 512, Y_TILED, 96);
	REC("3DSTATE_PS", { "Render Target Resolve Enable", 1 });
	CHECK_EQ(draw_rect(100, 80, 0, 0, 100, 80), 0);
	check("gen8 resolve", Y_TILED, 100, 80, 512, 4, 0, 0, (const uint8_t[]){ 0 });
}

int main(void)
{
	fx_init();
	gen9_rgba8();
	gen9_rgba32f();
	gen9_rgba16f();
	gen9_array_layer();
	gen9_resolve_and_faults();
	gen8();
	fx_fini();
	return test_exit();
}
