/* The stencil reference value: gen8 takes it from COLOR_CALC_STATE, gen9
 * from 3DSTATE_WM_DEPTH_STENCIL (SKL PRM vol. 2d; COLOR_CALC_STATE lost the
 * field). A 16x16 draw with stencil test EQUAL against a W-major stencil
 * buffer whose left half holds 0x5a and right half 0x33: with the
 * reference 0x5a exactly the left half is drawn, with 0x33 the right half.
 * Oracle: the PRM's stencil test and the halves set here. */
#include "integration/render/backend_fixture.h"
#include "drv/seed_shaders.h"

#define W 16
#define H 16
#define PITCH (W * 4)
enum { COMPARE_EQUAL = 3, STENCIL_PITCH = 128 };

static void draw(int gen, uint8_t ref)
{
	static const float white[4] = { 1, 1, 1, 1 };
	fx_gen = gen;
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_STENCIL_BUFFER", { "Stencil Buffer Enable", 1 },
	    { "Surface Pitch", STENCIL_PITCH - 1 }, { "Surface Base Address", FX_STENCIL });
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", 1 },
	    { "Width", W - 1 }, { "Height", H - 1 }, { "Surface Pitch", 127 });
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Stencil Test Enable", 1 },
	    { "Stencil Test Function", COMPARE_EQUAL }, { "Stencil Test Mask", 0xff },
	    { "Stencil Write Mask", 0xff });
	if (gen >= 9)
		REC("3DSTATE_WM_DEPTH_STENCIL", { "Stencil Reference Value", ref });
	else
		PUT("COLOR_CALC_STATE", FX_DYN + FX_CC, { "Stencil Reference Value", ref });
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			fx_mem[FX_STENCIL + ref_tile_w_offset((uint64_t)x, (uint64_t)y, STENCIL_PITCH)] =
				x < W / 2 ? 0x5a : 0x33;
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, white);
	CHECK_EQ(fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
}

/* Columns [x0, x0 + W/2) white, the others untouched (0). */
static void check(const char *what, int x0)
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			uint8_t want = x >= x0 && x < x0 + W / 2 ? 255 : 0;
			if ((p[0] != want || p[3] != want) && bad++ < 4)
				fprintf(stderr, "%s: pixel (%d, %d) %u %u %u %u\n", what, x, y,
					p[0], p[1], p[2], p[3]);
		}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	fx_init();
	for (int gen = 8; gen <= 9; gen++) {
		draw(gen, 0x5a);
		check(gen == 9 ? "gen9 ref 0x5a" : "gen8 ref 0x5a", 0);
		draw(gen, 0x33);
		check(gen == 9 ? "gen9 ref 0x33" : "gen8 ref 0x33", W / 2);
	}
	fx_fini();
	return test_exit();
}
