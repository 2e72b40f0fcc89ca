/* The depth and stencil buffers at a LOD and array layer through a draw:
 * 3DSTATE_DEPTH_BUFFER's LOD and Minimum Array Element move the tests and
 * writes to that level and layer, placed as the PRM's 2D layout says with
 * the alignments those buffers imply (depth 4 x 4, stencil 8 x 8: only
 * VALIGN matters at LOD 1) and each buffer's Surface QPitch. Worked by hand for a 16x16
 * D32_FLOAT + S8 buffer drawn at LOD 1 (8x8), layer 1:
 *  - depth: level 0's 16 rows, so level 1 at row 16; layer 1 QPitch 32
 *    rows further: rows 48..55 of the Y-tiled buffer (pitch 128);
 *  - stencil: level 1 at row 16 (VALIGN 8); QPitch 48: rows 64..71, the
 *    second row of W tiles (pitch 128 = one 64-byte W tile a row).
 * Layer L in general: depth rows 16 + 32 L, stencil rows 16 + 48 L.
 * A primitive's Render Target Array Index (VUE header DWord 1) adds to
 * Minimum Array Element; one past Render Target View Extent selects the
 * Minimum Array Element's layer; 3DSTATE_CLIP Force Zero RTAIndex Enable
 * makes every index 0.
 *
 * Level 2 sits right of level 1 below level 0, so its place shows the
 * horizontal alignment too (BDW PRM vol. 5 "Memory Views": DEPTH_BUFFER
 * 8 x 4 for D16_UNORM, 4 x 4 otherwise; STENCIL_BUFFER 8 x 8), worked by
 * hand: a 20x20 D32_FLOAT buffer's level 2 (5x5) starts at x 12 (level 1
 * 10 wide, aligned to 4), y 20; a 20x20 D16_UNORM one at x 16, y 20; a
 * 12x12 buffer's at x 8, y 12 for D32_FLOAT and x 8, y 16 for its
 * stencil (level 1 6 wide aligned to 8; level 0 12 rows aligned to 8). */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"

#define W 8
#define H 8

struct layer_case {
	uint32_t min_array, rtve, rtai;
	bool force_zero;
	uint32_t want_layer;
};

static void draw_layer(const struct layer_case *c)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	REC("3DSTATE_CLIP", { "Force Zero RTA Index Enable", c->force_zero });
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", 1 },
	    { "Depth Write Enable", 1 }, { "Width", 15 }, { "Height", 15 }, { "LOD", 1 },
	    { "Depth", 2 }, { "Minimum Array Element", c->min_array },
	    { "Render Target View Extent", c->rtve }, { "Surface QPitch", 32 / 4 },
	    { "Surface Pitch", 127 }, { "Surface Base Address", FX_DEPTH });
	REC("3DSTATE_STENCIL_BUFFER", { "Stencil Buffer Enable", 1 }, { "Surface Pitch", 127 },
	    { "Surface QPitch", 48 / 4 }, { "Surface Base Address", FX_STENCIL });
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", 1 },
	    { "Depth Buffer Write Enable", 1 }, { "Depth Test Function", 0 },
	    { "Stencil Test Enable", 1 }, { "Stencil Buffer Write Enable", 1 },
	    { "Stencil Test Function", 0 }, { "Stencil Pass Depth Pass Op", 2 },
	    { "Stencil Write Mask", 0xff }, { "Stencil Test Mask", 0xff });
	PUT("COLOR_CALC_STATE", FX_DYN + FX_CC, { "Stencil Reference Value", 0x5a });
	const float mark = -1.0f;
	for (uint64_t i = 0; i < 0x4000; i += 4)
		memcpy(fx_mem + FX_DEPTH + i, &mark, 4);
	memset(fx_mem + FX_STENCIL, 0x11, 0x4000);

	static const float col[4] = { 1, 0, 0, 1 };
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	fx_begin();
	for (unsigned i = 0; i < 4; i++) {
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, col);
		memcpy(&fx_vue(i)[1], &c->rtai, 4);   /* VUE header DWord 1 */
	}
	CHECK_EQ(fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);

	uint64_t zrow = 16 + 32 * c->want_layer, srow = 16 + 48 * c->want_layer;
	int depth_in = 0, depth_out = 0, st_in = 0, st_out = 0;
	for (uint64_t y = 0; y < 128; y++)
		for (uint64_t x = 0; x < 32; x++) {
			float z;
			uint64_t zoff = ref_tile_y_offset(x * 4, y, 128);
			if (zoff + 4 > 0x4000)
				continue;
			memcpy(&z, fx_mem + FX_DEPTH + zoff, 4);
			bool in = x < W && y >= zrow && y < zrow + H;
			if (in)
				depth_in += z == 0.5f;
			else
				depth_out += z != mark;
		}
	for (uint64_t y = 0; y < 128; y++)
		for (uint64_t x = 0; x < 64; x++) {
			uint8_t s = fx_mem[FX_STENCIL + ref_tile_w_offset(x, y, 128)];
			bool in = x < W && y >= srow && y < srow + H;
			if (in)
				st_in += s == 0x5a;
			else
				st_out += s != 0x11;
		}
	if (depth_in != W * H || depth_out || st_in != W * H || st_out)
		fprintf(stderr, "min %u rtai %u: depth %d in %d out, stencil %d in %d out\n",
			c->min_array, c->rtai, depth_in, depth_out, st_in, st_out);
	CHECK_EQ(depth_in, W * H);     /* every pixel of level 1, the layer */
	CHECK_EQ(depth_out, 0);        /* and nothing else */
	CHECK_EQ(st_in, W * H);
	CHECK_EQ(st_out, 0);
}

/* A depth (and stencil) buffer size x size drawn at LOD 2: the level's
 * pixels land at (zx, zy) and (sx, sy), nothing else changes. */
static void draw_lod2(uint32_t format, uint32_t cpp, uint32_t size, bool stencil,
		      uint64_t zx, uint64_t zy, uint64_t sx, uint64_t sy)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", format },
	    { "Depth Write Enable", 1 }, { "Width", size - 1 }, { "Height", size - 1 },
	    { "LOD", 2 }, { "Surface Pitch", 127 }, { "Surface Base Address", FX_DEPTH });
	REC("3DSTATE_STENCIL_BUFFER", { "Stencil Buffer Enable", stencil }, { "Surface Pitch", 127 },
	    { "Surface Base Address", FX_STENCIL });
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", 1 },
	    { "Depth Buffer Write Enable", 1 }, { "Depth Test Function", 0 },
	    { "Stencil Test Enable", stencil }, { "Stencil Buffer Write Enable", stencil },
	    { "Stencil Test Function", 0 }, { "Stencil Pass Depth Pass Op", 2 },
	    { "Stencil Write Mask", 0xff }, { "Stencil Test Mask", 0xff });
	PUT("COLOR_CALC_STATE", FX_DYN + FX_CC, { "Stencil Reference Value", 0x5a });
	memset(fx_mem + FX_DEPTH, 0xee, 0x4000);
	memset(fx_mem + FX_STENCIL, 0x11, 0x4000);
	static const float col[4] = { 1, 0, 0, 1 };
	fx_begin();
	fx_square(0.5f, col);
	CHECK_EQ(fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
	uint64_t n = size >> 2;                 /* level 2's width and height */
	int zin = 0, zout = 0, sin = 0, sout = 0;
	for (uint64_t y = 0; y < 64; y++)
		for (uint64_t x = 0; x < 128 / cpp; x++) {
			const uint8_t *p = fx_mem + FX_DEPTH + ref_tile_y_offset(x * cpp, y, 128);
			bool written = false;
			for (uint32_t b = 0; b < cpp; b++)
				written |= p[b] != 0xee;
			bool in = x >= zx && x < zx + n && y >= zy && y < zy + n;
			zin += in && written;
			zout += !in && written;
		}
	for (uint64_t y = 0; y < 64; y++)
		for (uint64_t x = 0; x < 64; x++) {
			bool written = fx_mem[FX_STENCIL + ref_tile_w_offset(x, y, 128)] != 0x11;
			bool in = x >= sx && x < sx + n && y >= sy && y < sy + n;
			sin += in && written;
			sout += !in && written;
		}
	if (zin != (int)(n * n) || zout || sin != (stencil ? (int)(n * n) : 0) || sout)
		fprintf(stderr, "LOD 2 of %ux%u format %u: depth %d in %d out, stencil %d in %d out\n",
			size, size, format, zin, zout, sin, sout);
	CHECK_EQ(zin, (int)(n * n));
	CHECK_EQ(zout, 0);
	CHECK_EQ(sin, stencil ? (int)(n * n) : 0);
	CHECK_EQ(sout, 0);
}

int main(void)
{
	static const struct layer_case cases[] = {
		{ 1, 1, 0, false, 1 },   /* Minimum Array Element alone */
		{ 0, 2, 1, false, 1 },   /* the primitive's index */
		{ 1, 1, 1, false, 2 },   /* both */
		{ 1, 1, 2, false, 1 },   /* past the view extent: index 0 */
		{ 0, 2, 2, true, 0 },    /* Force Zero RTAIndex */
	};
	fx_init();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		draw_layer(&cases[i]);
	draw_lod2(1, 4, 20, false, 12, 20, 0, 0);      /* D32_FLOAT */
	draw_lod2(5, 2, 20, false, 16, 20, 0, 0);      /* D16_UNORM */
	draw_lod2(1, 4, 12, true, 8, 12, 8, 16);       /* with stencil */
	fx_fini();
	return test_exit();
}
