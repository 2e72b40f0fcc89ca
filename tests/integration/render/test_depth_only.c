/* A depth-only draw (blorp's depth clears: no PS, no colour target) with
 * 3DSTATE_BLEND_STATE_POINTERS aimed at unmapped memory, as blorp leaves
 * it at 0: the hardware reads BLEND_STATE only for the render target
 * writes of a PS, so the draw runs and writes depth. With a valid PS the
 * same pointer is read and is a page fault. And a depth write with the
 * depth test disabled (blorp's depth blits: Depth Test Enable 0, Depth
 * Buffer Write Enable 1) still writes every pixel: the PRM's depth test
 * stage passes everything when the test is off, and the write is its own
 * enable. And the alpha test decides the depth write: a pixel whose alpha
 * fails it writes no depth even with Pixel Shader Kills Pixel off (iris's
 * fixed-function alpha test into a depth-only FBO, piglit
 * fbo-alphatest-nocolor-ff): the PRM's pixel pipeline tests alpha before
 * depth, so the depth test cannot run before the PS then. And a primitive
 * of constant depth passes EQUAL against that depth at every pixel. */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"

#define W 8
#define H 8
/* FX_DYN + this is the first byte past the fixture's GGTT */
#define UNMAPPED_BLEND (FX_MEM_SIZE - FX_DYN)

static int draw_depth_full(bool ps_valid, bool test, uint32_t blend, float alpha,
			   bool alpha_test, uint32_t func, float mark, float z)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	REC("3DSTATE_PS_EXTRA", { "Pixel Shader Valid", ps_valid });
	REC("3DSTATE_BLEND_STATE_POINTERS", { "Blend State Pointer", blend },
	    { "Blend State Pointer Valid", 1 });
	/* D32_FLOAT (format 1), Y-tiled, pitch 128 */
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", 1 },
	    { "Depth Write Enable", 1 }, { "Width", W - 1 }, { "Height", H - 1 },
	    { "Surface Pitch", 127 }, { "Surface Base Address", FX_DEPTH });
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", test },
	    { "Depth Buffer Write Enable", 1 }, { "Depth Test Function", func });
	for (uint64_t i = 0; i < 0x4000; i += 4)
		memcpy(fx_mem + FX_DEPTH + i, &mark, 4);
	/* GREATER than 128/255: alpha 0 fails, 1 passes */
	PUT("BLEND_STATE", FX_DYN + FX_BLEND, { "Alpha Test Enable", alpha_test },
	    { "Alpha Test Function", 5 /* COMPAREFUNCTION_GREATER */ });
	PUT("COLOR_CALC_STATE", FX_DYN + FX_CC, { "Alpha Test Format", 0 },
	    { "Alpha Reference Value As UNORM8", 128 });
	const float col[4] = { 1, 0, 0, alpha };
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	fx_begin();
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], z, 1, col);
	return fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

static int draw_depth_alpha(bool ps_valid, bool test, uint32_t blend, float alpha,
			    bool alpha_test)
{
	return draw_depth_full(ps_valid, test, blend, alpha, alpha_test, 0 /* ALWAYS */, -1.0f,
			       0.25f);
}

static int draw_depth(bool ps_valid, bool test, uint32_t blend)
{
	return draw_depth_alpha(ps_valid, test, blend, 1, false);
}

static int depth_written(void)
{
	int written = 0;
	for (uint64_t y = 0; y < H; y++)
		for (uint64_t x = 0; x < W; x++) {
			float z;
			memcpy(&z, fx_mem + FX_DEPTH + ref_tile_y_offset(x * 4, y, 128), 4);
			written += z == 0.25f;
		}
	return written;
}

int main(void)
{
	fx_init();
	/* no PS with and without the test; a PS (readable BLEND_STATE)
	 * without the test */
	for (int k = 0; k < 3; k++) {
		CHECK_EQ(draw_depth(k == 2, k == 0, k == 2 ? FX_BLEND : UNMAPPED_BLEND), 0);
		CHECK_EQ(depth_written(), W * H);
	}
	/* the alpha test with the depth test on (ALWAYS): alpha 0 writes no
	 * depth, alpha 1 every pixel */
	CHECK_EQ(draw_depth_alpha(true, true, FX_BLEND, 0, true), 0);
	CHECK_EQ(depth_written(), 0);
	CHECK_EQ(draw_depth_alpha(true, true, FX_BLEND, 1, true), 0);
	CHECK_EQ(depth_written(), W * H);
	/* a primitive of one depth has that depth at every pixel, exactly
	 * (the plane equation: EQUAL against a buffer holding the same value
	 * passes everywhere; piglit depthstencil-default_fb-clear) */
	for (int k = 0; k < 3; k++) {
		const float z[3] = { 0.3f, 0.75f, 0.1f };
		CHECK_EQ(draw_depth_full(true, true, FX_BLEND, 1, false, 3 /* EQUAL */, z[k], z[k]),
			 0);
		int red = 0;
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				red += fx_px(W * 4, 4, x, y)[0] == 255;
		CHECK_EQ(red, W * H);
	}
	/* a PS that may write colour reads BLEND_STATE: unmapped is a fault */
	CHECK(draw_depth(true, true, UNMAPPED_BLEND) != 0);
	fx_fini();
	return test_exit();
}
