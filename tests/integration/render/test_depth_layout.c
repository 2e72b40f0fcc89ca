/* The depth and stencil buffers at a LOD and array layer through a draw:
 * 3DSTATE_DEPTH_BUFFER's LOD and Minimum Array Element move the tests and
 * writes to that level and layer, placed as the PRM's 2D layout says with
 * the alignments those buffers imply (depth HALIGN 8 / VALIGN 4, stencil
 * 16 / 8) and each buffer's Surface QPitch. Worked by hand for a 16x16
 * D32_FLOAT + S8 buffer drawn at LOD 1 (8x8), layer 1:
 *  - depth: level 0's 16 rows, so level 1 at row 16; layer 1 QPitch 32
 *    rows further: rows 48..55 of the Y-tiled buffer (pitch 128);
 *  - stencil: level 1 at row 16 (VALIGN 8); QPitch 48: rows 64..71, the
 *    second row of W tiles (pitch 128 = one 64-byte W tile a row). */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"

#define W 8
#define H 8

int main(void)
{
	fx_init();
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", 1 },
	    { "Depth Write Enable", 1 }, { "Width", 15 }, { "Height", 15 }, { "LOD", 1 },
	    { "Depth", 1 }, { "Minimum Array Element", 1 }, { "Surface QPitch", 32 / 4 },
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
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, col);
	CHECK_EQ(fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);

	int depth_in = 0, depth_out = 0, st_in = 0, st_out = 0;
	for (uint64_t y = 0; y < 128; y++)
		for (uint64_t x = 0; x < 32; x++) {
			float z;
			uint64_t zoff = ref_tile_y_offset(x * 4, y, 128);
			if (zoff + 4 > 0x4000)
				continue;
			memcpy(&z, fx_mem + FX_DEPTH + zoff, 4);
			bool in = x < W && y >= 48 && y < 48 + H;
			if (in)
				depth_in += z == 0.5f;
			else
				depth_out += z != mark;
		}
	for (uint64_t y = 0; y < 128; y++)
		for (uint64_t x = 0; x < 64; x++) {
			uint8_t s = fx_mem[FX_STENCIL + ref_tile_w_offset(x, y, 128)];
			bool in = x < W && y >= 64 && y < 64 + H;
			if (in)
				st_in += s == 0x5a;
			else
				st_out += s != 0x11;
		}
	CHECK_EQ(depth_in, W * H);     /* every pixel of level 1, layer 1 */
	CHECK_EQ(depth_out, 0);        /* and nothing else */
	CHECK_EQ(st_in, W * H);
	CHECK_EQ(st_out, 0);
	fx_fini();
	return test_exit();
}
