/* PS helper pixels through a real draw (PRM vol. 7 "Pixel Shader Thread
 * Payload": a subspan with a lit pixel is dispatched whole, the pixel mask
 * holds the lit ones, render target writes only write those).
 *
 * The triangle (0,0) (13.25,0) (0,13.25) in window coordinates of a 16x16
 * R8G8B8A8_UNORM target covers the pixels whose centre has
 * x + y + 1 < 13.25, i.e. x + y <= 12: 91 pixels, and its long edge cuts
 * subspans in two. Its attribute is (x / 16, y / 16) of the window
 * position. The PS takes coarse derivatives the way a compiler does,
 * subtracting neighbouring channels of each subspan (channel 1 - 0 for
 * d/dx, 2 - 0 for d/dy, regions <4,4,0>), and writes 16 times them:
 * (1, 1, 0, 1) in every lit pixel, including those whose neighbours are
 * outside the triangle (helpers). Without helpers a neighbour's value
 * would be 0 and the colour (0, ...). Pixels outside the triangle keep
 * the clear bytes 0x11: helpers never write. REG_PS_INVOCATION_COUNT and
 * REG_PS_DEPTH_COUNT count the 91 lit pixels (times 4 for the former on BDW,
 * see wm_draw.c). Gen8 and Gen9, SIMD8 and SIMD16.
 *
 * The sampler's implicit LOD at the same edge: the attribute is the
 * texture coordinate of a 32x32 texture with 3 levels of solid colours
 * (nearest mip filter), 2 texels per pixel, so LOD log2(2) = 1 and every
 * lit pixel gets level 1's colour, also where the subspan's neighbours
 * are helpers (without them the LOD comes from coordinates 0). Levels
 * placed as the PRM's 2D layout says (HALIGN/VALIGN 4, pitch 128 bytes):
 * level 0 at (0,0), level 1 (16x16) below it at (0,32), level 2 (8x8)
 * right of level 1 at (16,32). */
#include "backend_fixture.h"
#include "gpu/render/topology.h"

#define W 16
#define H 16
#define PITCH (W * 4)
#define CLEAR 0x11

/* SIMD8: barycentrics g2-g3, attribute 0 in g4-g5 */
static const char ddx_fs[] =
	"pln(8)          g10<1>F         g4<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g11<1>F         g4.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"add(8)          g124<1>F        g10.1<4,4,0>F   -g10<4,4,0>F    { align1 1Q };\n"
	"add(8)          g125<1>F        g11.2<4,4,0>F   -g11<4,4,0>F    { align1 1Q };\n"
	"mul(8)          g124<1>F        g124<8,8,1>F    0x41800000F     { align1 1Q };\n"
	"mul(8)          g125<1>F        g125<8,8,1>F    0x41800000F     { align1 1Q };\n"
	"mov(8)          g126<1>F        0x0F                            { align1 1Q };\n"
	"mov(8)          g127<1>F        0x3f800000F                     { align1 1Q };\n"
	"sendc(8)        null<1>UW       g124<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

/* SIMD16: barycentrics g2-g5, attribute 0 in g6-g7; the regions cross
 * register pairs */
static const char ddx16_fs[] =
	"pln(16)         g10<1>F         g6<0,1,0>F      g2<8,8,1>F      { align1 1H };\n"
	"pln(16)         g12<1>F         g6.4<0,1,0>F    g2<8,8,1>F      { align1 1H };\n"
	"add(16)         g120<1>F        g10.1<4,4,0>F   -g10<4,4,0>F    { align1 1H };\n"
	"add(16)         g122<1>F        g12.2<4,4,0>F   -g12<4,4,0>F    { align1 1H };\n"
	"mul(16)         g120<1>F        g120<8,8,1>F    0x41800000F     { align1 1H };\n"
	"mul(16)         g122<1>F        g122<8,8,1>F    0x41800000F     { align1 1H };\n"
	"mov(16)         g124<1>F        0x0F                            { align1 1H };\n"
	"mov(16)         g126<1>F        0x3f800000F                     { align1 1H };\n"
	"sendc(16)       null<1>UW       g120<8,8,1>F    0x90031000\n"
	"                render MsgDesc: RT write SIMD16 LastRT Surface = 0 mlen 8 rlen 0 { align1 1H EOT };\n";

/* Draw the edge triangle (fx_begin already done), its attribute (x / 16,
 * y / 16) of the window position. */
static void draw_edge_triangle(void)
{
	static const float win[3][2] = { { 0, 0 }, { 13.25f, 0 }, { 0, 13.25f } };
	for (unsigned i = 0; i < 3; i++) {
		float c[4] = { win[i][0] / W, win[i][1] / H, 0, 1 };
		fx_vertex(i, win[i][0] / (W / 2) - 1, win[i][1] / (H / 2) - 1, 0.5f, 1, c);
	}
	CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2 }, 1, 3), 0);
}

/* Every covered pixel (x + y <= 12) holds `lit`, the others the clear bytes. */
static void check_pixels(const char *what, const uint8_t lit[4])
{
	static const uint8_t clear[4] = { CLEAR, CLEAR, CLEAR, CLEAR };
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			const uint8_t *want = x + y <= 12 ? lit : clear;
			if (memcmp(p, want, 4) && bad++ < 6)
				fprintf(stderr, "gen%d %s pixel %d,%d = %u,%u,%u,%u want %u,%u,%u,%u\n",
					fx_gen, what, x, y, p[0], p[1], p[2], p[3], want[0], want[1],
					want[2], want[3]);
		}
	CHECK_EQ(bad, 0);
}

static void edge_derivatives(int gen, bool simd16)
{
	fx_gen = gen;
	fx_reset(simd16 ? ddx16_fs : ddx_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	if (simd16)
		REC("3DSTATE_PS", { "8 Pixel Dispatch Enable", 0 }, { "16 Pixel Dispatch Enable", 1 },
		    { "Dispatch GRF Start Register For Constant/Setup Data 0", 6 });
	REC("3DSTATE_WM", { "Statistics Enable", 1 });
	memset(fx_mem + FX_RT, CLEAR, PITCH * H);
	uint64_t inv0 = regs_get64(fx_regs, REG_PS_INVOCATION_COUNT);
	uint64_t dep0 = regs_get64(fx_regs, REG_PS_DEPTH_COUNT);
	fx_begin();
	draw_edge_triangle();
	static const uint8_t ones[4] = { 255, 255, 0, 255 };
	check_pixels(simd16 ? "SIMD16" : "SIMD8", ones);
	CHECK_EQ(regs_get64(fx_regs, REG_PS_INVOCATION_COUNT) - inv0, 91u * (gen == 8 ? 4 : 1));
	CHECK_EQ(regs_get64(fx_regs, REG_PS_DEPTH_COUNT) - dep0, 91u);
}

#define TEX 0xa0000u
#define TEX_PITCH 128u
#define SAMPLER_OFF 0x500u     /* from FX_DYN */

static const char lod_fs[] =
	"pln(8)          g124<1>F        g4<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g125<1>F        g4.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"send(8)         g120<1>UW       g124<8,8,1>UD   0x04420001\n"
	"                sampler MsgDesc: sample SIMD8 Surface = 1 Sampler = 0 mlen 2 rlen 4 { align1 1Q };\n"
	"sendc(8)        null<1>UW       g120<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

static const uint8_t level_rgba[3][4] = { { 200, 0, 0, 255 }, { 0, 200, 0, 255 }, { 0, 0, 200, 255 } };

static void fill_level(unsigned level, unsigned x0, unsigned y0, unsigned size)
{
	for (unsigned y = 0; y < size; y++)
		for (unsigned x = 0; x < size; x++)
			memcpy(fx_mem + TEX + (y0 + y) * TEX_PITCH + (x0 + x) * 4, level_rgba[level], 4);
}

static void edge_lod(int gen)
{
	fx_gen = gen;
	fx_reset(lod_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	memset(fx_mem + FX_RT, CLEAR, PITCH * H);
	fill_level(0, 0, 0, 32);
	fill_level(1, 0, 32, 16);
	fill_level(2, 16, 32, 8);
	uint32_t entry = 0x80;
	memcpy(fx_mem + FX_SURF + 4, &entry, 4);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x80, { "Surface Type", 1 },
	    { "Surface Format", FMT_R8G8B8A8_UNORM }, { "Width", 31 }, { "Height", 31 },
	    { "Surface Pitch", TEX_PITCH - 1 }, { "Surface Horizontal Alignment", 1 },
	    { "Surface Vertical Alignment", 1 }, { "MIP Count / LOD", 2 },
	    { "Shader Channel Select Red", 4 }, { "Shader Channel Select Green", 5 },
	    { "Shader Channel Select Blue", 6 }, { "Shader Channel Select Alpha", 7 },
	    { "Surface Base Address", TEX });
	PUT("SAMPLER_STATE", FX_DYN + SAMPLER_OFF, { "Max LOD", 14 * 256 },
	    { "Mip Mode Filter", 1 /* NEAREST */ });
	fx_begin();
	fx_rs->sampler_state[RS_PS] = SAMPLER_OFF;
	draw_edge_triangle();
	check_pixels("LOD", level_rgba[1]);
}

int main(void)
{
	fx_init();
	for (int gen = 8; gen <= 9; gen++) {
		edge_derivatives(gen, false);
		edge_derivatives(gen, true);
		edge_lod(gen);
	}
	fx_fini();
	return test_exit();
}
