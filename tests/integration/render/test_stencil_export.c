/* A pixel shader that computes the stencil reference (gen9: 3DSTATE_PS_EXTRA
 * Pixel Shader Computes Stencil, GL's ARB_shader_stencil_export): the RT
 * write carries, after the colour, one register whose byte i is pixel i's
 * reference (Mesa's SIMD8 layout: `mov(8) gN<1>UB gM<32,8,4>UB`), and that
 * value replaces 3DSTATE_WM_DEPTH_STENCIL's Stencil Reference Value both
 * in the stencil test and in a REPLACE operation.
 *
 * The PS exports 0x10 + (channel & 3): within a subspan the channels are
 * the upper-left, upper-right, lower-left and lower-right pixels (PRM vol.
 * 7, "Pixel Shader Thread Payload"), so the reference of pixel (x, y) is
 * 0x10 + (x & 1) + 2 (y & 1) whatever the order of the subspans. The
 * stencil buffer holds 0x11 everywhere; the test is LEQUAL (reference <=
 * stored passes), pass op REPLACE, fail op INCRSAT, and the state's own
 * reference is 0x11 (with it every pixel would pass and store 0x11).
 * Expected, computed here: references 0x10 and 0x11 pass, store themselves
 * and write the colour; 0x12 and 0x13 fail, store 0x12 and leave the
 * target as it was. A SIMD16 message with a computed stencil, a layout
 * gtsim has no source for, is a GPU fault. */
#include "backend_fixture.h"

#define W 8
#define H 8
#define RT_FILL 0x55

static const char ps_simd8[] =
	"mov(8)          g10<1>UW        0x76543210V                     { align1 1Q };\n"
	"and(8)          g11<1>UD        g10<8,8,1>UW    0x3UD           { align1 1Q };\n"
	"add(8)          g11<1>UD        g11<8,8,1>UD    0x10UD          { align1 1Q };\n"
	"mov(8)          g122<1>F        1F                              { align1 1Q };\n"
	"mov(8)          g123<1>F        0F                              { align1 1Q };\n"
	"mov(8)          g124<1>F        0F                              { align1 1Q };\n"
	"mov(8)          g125<1>F        1F                              { align1 1Q };\n"
	"mov(8)          g126<1>UB       g11<32,8,4>UB                   { align1 WE_all 1Q };\n"
	"sendc(8)        null<1>UW       g122<8,8,1>F    0x8a031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 5 rlen 0 { align1 1Q EOT };\n";

static const char ps_simd16[] =
	"mov(16)         g110<1>F        1F                              { align1 1H };\n"
	"mov(16)         g112<1>F        0F                              { align1 1H };\n"
	"mov(16)         g114<1>F        0F                              { align1 1H };\n"
	"mov(16)         g116<1>F        1F                              { align1 1H };\n"
	"mov(16)         g118<1>UD       0x10UD                          { align1 1H };\n"
	"sendc(16)       null<1>UW       g110<8,8,1>F    0x92031000\n"
	"                render MsgDesc: RT write SIMD16 LastRT Surface = 0 mlen 9 rlen 0 { align1 1H EOT };\n";

static int draw(bool simd16)
{
	fx_gen = 9;
	fx_reset(simd16 ? ps_simd16 : ps_simd8, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	if (simd16)
		REC("3DSTATE_PS", { "Kernel Start Pointer 0", 0 }, { "16 Pixel Dispatch Enable", 1 },
		    { "Dispatch GRF Start Register For Constant/Setup Data 0", 4 });
	REC("3DSTATE_PS_EXTRA", { "Pixel Shader Valid", 1 }, { "Pixel Shader Computes Stencil", 1 });
	/* the stencil buffer takes its size from the depth buffer's state */
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", 1 },
	    { "Width", W - 1 }, { "Height", H - 1 }, { "Surface Pitch", 127 },
	    { "Surface Base Address", FX_DEPTH });
	REC("3DSTATE_STENCIL_BUFFER", { "Stencil Buffer Enable", 1 }, { "Surface Pitch", 127 },
	    { "Surface Base Address", FX_STENCIL });
	/* LEQUAL 4, INCRSAT 3, REPLACE 2 */
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Stencil Test Enable", 1 },
	    { "Stencil Buffer Write Enable", 1 }, { "Stencil Test Function", 4 },
	    { "Stencil Fail Op", 3 }, { "Stencil Pass Depth Pass Op", 2 },
	    { "Stencil Write Mask", 0xff }, { "Stencil Test Mask", 0xff },
	    { "Stencil Reference Value", 0x11 });
	memset(fx_mem + FX_STENCIL, 0x11, 0x4000);
	memset(fx_mem + FX_RT, RT_FILL, W * H * 4);
	static const float col[4] = { 0, 0, 0, 1 };
	fx_begin();
	fx_square(0.5f, col);
	return fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

int main(void)
{
	fx_init();
	CHECK_EQ(draw(false), 0);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			unsigned ref = 0x10 + (x & 1) + 2 * (y & 1);
			bool pass = ref <= 0x11;
			uint8_t st = fx_mem[FX_STENCIL + ref_tile_w_offset((uint64_t)x, (uint64_t)y, 128)];
			const uint8_t *px = fx_px(W * 4, 4, x, y);
			const uint8_t want_px[4] = { 255, 0, 0, 255 }, kept[4] = { RT_FILL, RT_FILL,
										  RT_FILL, RT_FILL };
			bool px_ok = !memcmp(px, pass ? want_px : kept, 4);
			if ((st != (pass ? ref : 0x12) || !px_ok) && bad++ < 5)
				fprintf(stderr, "pixel %d,%d: stencil 0x%x want 0x%x, colour %02x%02x%02x%02x\n",
					x, y, st, pass ? ref : 0x12, px[0], px[1], px[2], px[3]);
		}
	CHECK_EQ(bad, 0);
	/* SIMD16 with a computed stencil: a fault, the stencil unchanged */
	CHECK(draw(true) != 0);
	int changed = 0;
	for (int i = 0; i < 0x4000; i++)
		changed += fx_mem[FX_STENCIL + i] != 0x11;
	CHECK_EQ(changed, 0);
	fx_fini();
	return test_exit();
}
