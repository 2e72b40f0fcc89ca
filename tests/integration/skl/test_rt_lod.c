/* Render target writes to a mip level (RENDER_SURFACE_STATE MIP Count /
 * LOD), as iris's BLORP uploads into the levels of a compressed texture
 * on SKL. Oracle: the PRM's 2D layout (vol. 5 "Surface Layout"), worked
 * out here by hand: a 16x16 RGBA8 surface with HALIGN 4 / VALIGN 4 has
 * level 1 (8x8) at (0, 16), level 2 (4x4) at (8, 16), level 3 (2x2) at
 * (8, 20); with VALIGN 16 level 3 is at (8, 32). A draw over the level's
 * whole viewport writes exactly the level's pixels. 3D targets: gen8's own
 * 3D layout (slices of level l in rows of 2^l) and gen9's 2D-array one,
 * positions below; a multisampled (MSS) layer's samples. */
#include "integration/render/backend_fixture.h"
#include "drv/seed_shaders.h"

#define PITCH 64
#define ROWS 48
enum { HALIGN_4 = 1, VALIGN_4 = 1, VALIGN_16 = 3, SURFTYPE_3D = 2 };

static void draw_viewport(void)
{
	static const float green[4] = { 0, 1, 0, 1 };
	memset(fx_mem + FX_RT, 0x55, PITCH * ROWS);
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, green);
	CHECK_EQ(fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
}

static void draw_level(int gen, uint32_t lod, uint32_t valign, uint32_t lw, uint32_t lh)
{
	fx_gen = gen;
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, lw, lh, PITCH);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Width", 15 }, { "Height", 15 },
	    { "MIP Count / LOD", lod }, { "Surface Horizontal Alignment", HALIGN_4 },
	    { "Surface Vertical Alignment", valign });
	draw_viewport();
}

/* An 8x8x4 3D target (Minimum Array Element: the first slice written) */
static void draw_3d(int gen, uint32_t lod, uint32_t slice, uint32_t qpitch_rows, uint32_t lw)
{
	fx_gen = gen;
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, lw, lw, PITCH);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Surface Type", SURFTYPE_3D },
	    { "Width", 7 }, { "Height", 7 }, { "Depth", 3 }, { "MIP Count / LOD", lod },
	    { "Minimum Array Element", slice }, { "Surface QPitch", qpitch_rows / 4 },
	    { "Surface Horizontal Alignment", HALIGN_4 },
	    { "Surface Vertical Alignment", VALIGN_4 });
	draw_viewport();
}

/* Pixels in [x0, x0 + w) x [y0, y0 + h) are green, the rest 0x55. */
static void check(const char *what, int x0, int y0, int w, int h)
{
	int bad = 0;
	for (int y = 0; y < ROWS; y++)
		for (int x = 0; x < PITCH / 4; x++) {
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			bool in = x >= x0 && x < x0 + w && y >= y0 && y < y0 + h;
			static const uint8_t g[4] = { 0, 255, 0, 255 }, old[4] = { 0x55, 0x55, 0x55, 0x55 };
			if (memcmp(p, in ? g : old, 4) && bad++ < 4)
				fprintf(stderr, "%s: pixel (%d, %d) %02x %02x %02x %02x\n", what, x, y,
					p[0], p[1], p[2], p[3]);
		}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	fx_init();
	for (int gen = 8; gen <= 9; gen++) {
		draw_level(gen, 0, VALIGN_4, 16, 16);
		check("level 0", 0, 0, 16, 16);
		draw_level(gen, 1, VALIGN_4, 8, 8);
		check("level 1", 0, 16, 8, 8);
		draw_level(gen, 2, VALIGN_4, 4, 4);
		check("level 2", 8, 16, 4, 4);
		draw_level(gen, 3, VALIGN_4, 2, 2);
		check("level 3", 8, 20, 2, 2);
		/* a viewport larger than the level: writes stop at its edges */
		draw_level(gen, 2, VALIGN_4, 16, 16);
		check("level 2 clipped", 8, 16, 4, 4);
		draw_level(gen, 3, VALIGN_16, 2, 2);
		check("level 3 valign 16", 8, 32, 2, 2);
	}
	/* gen8 3D: level 0's 4 slices one below the other (rows of 2^0),
	 * 8 rows apart; level 1 (4x4, 2 slices side by side in rows of 2^1)
	 * below level 0's 32 rows: slice 1 at (4, 32). QPitch is ignored. */
	draw_3d(8, 0, 2, 0, 8);
	check("gen8 3D slice 2", 0, 16, 8, 8);
	draw_3d(8, 1, 1, 0, 4);
	check("gen8 3D level 1 slice 1", 4, 32, 4, 4);
	/* gen9 3D is a 2D array QPitch apart (12 rows: levels 0 and 1):
	 * level 1 at (0, 8), its slice 1 at (0, 20) */
	draw_3d(9, 0, 2, 12, 8);
	check("gen9 3D slice 2", 0, 24, 8, 8);
	draw_3d(9, 1, 1, 12, 4);
	check("gen9 3D level 1 slice 1", 0, 20, 4, 4);
	/* a 4-sample MSFMT_MSS 2D array (8x8): each sample is a slice of its
	 * own, so layer 1's sample s is slice 4 + s, QPitch 8 rows apart:
	 * samples 0 and 1 in rows 32..47 (2 and 3 below the rows checked) */
	fx_gen = 8;
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, 8, 8, PITCH);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Width", 7 }, { "Height", 7 },
	    { "Depth", 1 }, { "Minimum Array Element", 1 }, { "Number of Multisamples", 2 },
	    { "Surface QPitch", 8 / 4 }, { "Surface Horizontal Alignment", HALIGN_4 },
	    { "Surface Vertical Alignment", VALIGN_4 });
	REC("3DSTATE_MULTISAMPLE", { "Number of Multisamples", 2 });
	draw_viewport();
	check("4x MSS layer 1 samples 0-1", 0, 32, 8, 16);
	/* gen9 Yf/Ys tiling (Tiled Resource Mode) is not modelled: a fault,
	 * nothing written */
	fx_gen = 9;
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, 16, 16, PITCH);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Tiled Resource Mode", 1 });
	memset(fx_mem + FX_RT, 0x55, PITCH * ROWS);
	fx_begin();
	fx_vertex(0, -1, -1, 0.5f, 1, NULL);
	fx_vertex(1, 1, -1, 0.5f, 1, NULL);
	fx_vertex(2, -1, 1, 0.5f, 1, NULL);
	CHECK(fx_draw(4, (const unsigned[]){ 0, 1, 2 }, 1, 3) != 0);
	check("gen9 Yf", 0, 0, 0, 0);
	fx_fini();
	return test_exit();
}
