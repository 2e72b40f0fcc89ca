/* The output merger through a real draw (state, clip, raster, SIMD8 PS,
 * render target write), against values computed here from the PRM's
 * rules:
 *  - alpha test (BLEND_STATE Alpha Test Function against COLOR_CALC_STATE's
 *    reference, as UNORM8 (format 0) and as FLOAT32 (format 1));
 *  - alpha to coverage with one sample (gtsim's rule: the sample is
 *    covered when alpha >= 1/2) and alpha to one;
 *  - blending SRC_ALPHA / INV_SRC_ALPHA and dual-source blending
 *    (SRC1_COLOR / INV_SRC1_COLOR, the SIMD8 dual-source message, and
 *    its two halves in a SIMD16 thread with alpha to coverage);
 *  - independent blending per render target: two RT writes with headers
 *    (M0.2 the render target index) to binding table entries 0 and 1,
 *    BLEND_STATE entry 0 without blending, entry 1 ONE + ONE.
 * The target is 8x8 R8G8B8A8_UNORM; the colour's alpha rises left to right,
 * alpha(x) = (x + 0.5) / 8 at every pixel centre. */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"

#define W 8
#define H 8
#define PITCH (W * 4)

enum { CMP_GREATER_ = 5, BF_SRC_ALPHA_ = 3, BF_INV_SRC_ALPHA_ = 19, BF_SRC1_COLOR_ = 9,
       BF_INV_SRC1_COLOR_ = 25 };

/* src0 = the interpolated attribute, src1 = (0.25, 0.5, 0.75, 1), one
 * SIMD8 dual-source RT write (subtype 2) of 8 registers. */
static const char dual_fs[] =
	"pln(8)          g120<1>F        g4<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g121<1>F        g4.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g122<1>F        g5<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g123<1>F        g5.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"mov(8)          g124<1>F        0x3e800000F                     { align1 1Q };\n"
	"mov(8)          g125<1>F        0x3f000000F                     { align1 1Q };\n"
	"mov(8)          g126<1>F        0x3f400000F                     { align1 1Q };\n"
	"mov(8)          g127<1>F        0x3f800000F                     { align1 1Q };\n"
	"sendc(8)        null<1>UW       g120<8,8,1>F    0x90031200\n"
	"                render MsgDesc: RT write SIMD8/DualSrcLow LastRT Surface = 0 mlen 8 rlen 0 { align1 1Q EOT };\n";

/* The same in a SIMD16 thread, as Mesa compiles dual-source blending for
 * Gen9: two SIMD8 dual-source messages with the g0/g1 header, subtype 2
 * (DualSrcLow, 1Q: subspans 0-1) and subtype 3 (DualSrcHigh, 2Q: subspans
 * 2-3, whose pixel enables are bits 15:8 of M1.7). Attribute 0 in g6-g7,
 * barycentrics g2-g3 (channels 0-7) and g4-g5 (8-15). */
static const char dual16_fs[] =
	"mov(16)         g110<1>UD       g0<8,8,1>UD                     { align1 WE_all 1H };\n"
	"pln(8)          g112<1>F        g6<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g113<1>F        g6.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g114<1>F        g7<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g115<1>F        g7.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"mov(8)          g116<1>F        0x3e800000F                     { align1 WE_all 1Q };\n"
	"mov(8)          g117<1>F        0x3f000000F                     { align1 WE_all 1Q };\n"
	"mov(8)          g118<1>F        0x3f400000F                     { align1 WE_all 1Q };\n"
	"mov(8)          g119<1>F        0x3f800000F                     { align1 WE_all 1Q };\n"
	"sendc(8)        null<1>UW       g110<8,8,1>F    0x140b1200\n"
	"                render MsgDesc: RT write SIMD8/DualSrcLow LastRT Surface = 0 mlen 10 rlen 0 { align1 1Q };\n"
	"pln(8)          g112<1>F        g6<0,1,0>F      g4<8,8,1>F      { align1 2Q };\n"
	"pln(8)          g113<1>F        g6.4<0,1,0>F    g4<8,8,1>F      { align1 2Q };\n"
	"pln(8)          g114<1>F        g7<0,1,0>F      g4<8,8,1>F      { align1 2Q };\n"
	"pln(8)          g115<1>F        g7.4<0,1,0>F    g4<8,8,1>F      { align1 2Q };\n"
	"sendc(8)        null<1>UW       g110<8,8,1>F    0x940b1300\n"
	"                render MsgDesc: RT write SIMD8/DualSrcHigh LastRT Surface = 0 mlen 10 rlen 0 { align1 2Q EOT };\n";

/* The colour to render targets 0 and 1: header g118-g119 (g0, g1 with
 * M0.2 the render target index), colour g120-g123. */
static const char mrt_fs[] =
	"mov(16)         g118<1>UD       g0<8,8,1>UD                     { align1 WE_all 1H };\n"
	"pln(8)          g120<1>F        g4<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g121<1>F        g4.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g122<1>F        g5<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g123<1>F        g5.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"mov(1)          g118.2<1>UD     0x00000000UD                    { align1 WE_all 1N };\n"
	"sendc(8)        null<1>UW       g118<8,8,1>F    0x0c0b0400\n"
	"                render MsgDesc: RT write SIMD8 Surface = 0 mlen 6 rlen 0 { align1 1Q };\n"
	"mov(1)          g118.2<1>UD     0x00000001UD                    { align1 WE_all 1N };\n"
	"sendc(8)        null<1>UW       g118<8,8,1>F    0x8c0b1401\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 1 mlen 6 rlen 0 { align1 1Q EOT };\n";

/* The square: colour rgb at every vertex, alpha 0 on the left edge and 1
 * on the right. */
static int draw(const float rgb[3])
{
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++) {
		float c[4] = { rgb[0], rgb[1], rgb[2], pos[i][0] > 0 ? 1.0f : 0.0f };
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, c);
	}
	return fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

static double alpha_at(int x)
{
	return (x + 0.5) / W;
}

/* Pixels left of column `first` keep 0; the others hold want (alpha from
 * the pixel's own alpha unless want[3] >= 0). */
static void check_columns(const char *what, int first, const int want[4])
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			for (int c = 0; c < 4; c++) {
				int w = x < first ? 0 : c < 3 || want[3] >= 0 ? want[c] :
					fx_unorm8(alpha_at(x));
				if (abs(p[c] - w) > 1 && bad++ < 4)
					fprintf(stderr, "%s: pixel %d,%d ch %d = %u, want %d\n", what, x,
						y, c, p[c], w);
			}
		}
	CHECK_EQ(bad, 0);
}

static const float white[3] = { 1, 1, 1 };

static void alpha_test(void)
{
	/* UNORM8 reference 128 (0.502): alpha 0.4375 at x = 3 fails GREATER,
	 * 0.5625 at x = 4 passes */
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	PUT("BLEND_STATE", FX_DYN + FX_BLEND, { "Alpha Test Enable", 1 },
	    { "Alpha Test Function", CMP_GREATER_ });
	PUT("COLOR_CALC_STATE", FX_DYN + FX_CC, { "Alpha Test Format", 0 },
	    { "Alpha Reference Value As UNORM8", 128 });
	CHECK_EQ(draw(white), 0);
	check_columns("alpha test UNORM8", 4, (const int[]){ 255, 255, 255, -1 });
	/* FLOAT32 reference 0.3: x = 1 (0.1875) fails, x = 2 (0.3125) passes */
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	PUT("BLEND_STATE", FX_DYN + FX_BLEND, { "Alpha Test Enable", 1 },
	    { "Alpha Test Function", CMP_GREATER_ });
	PUT("COLOR_CALC_STATE", FX_DYN + FX_CC, { "Alpha Test Format", 1 },
	    { "Alpha Reference Value As FLOAT32", fx_fbits(0.3f) });
	CHECK_EQ(draw(white), 0);
	check_columns("alpha test FLOAT32", 2, (const int[]){ 255, 255, 255, -1 });
}

static void alpha_to_coverage(void)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	PUT("BLEND_STATE", FX_DYN + FX_BLEND, { "Alpha To Coverage Enable", 1 });
	CHECK_EQ(draw(white), 0);
	check_columns("alpha to coverage", 4, (const int[]){ 255, 255, 255, -1 });
	/* with alpha to one the covered pixels get alpha 1 */
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	PUT("BLEND_STATE", FX_DYN + FX_BLEND, { "Alpha To Coverage Enable", 1 },
	    { "Alpha To One Enable", 1 });
	CHECK_EQ(draw(white), 0);
	check_columns("alpha to one", 4, (const int[]){ 255, 255, 255, 255 });
}

static void fill_dst(void)
{
	for (int i = 0; i < W * H; i++)
		memcpy(fx_mem + FX_RT + 4 * i, (const uint8_t[]){ 200, 100, 50, 25 }, 4);
}

static void blending(void)
{
	/* out = src * a + dst * (1 - a) per channel (alpha too: the colour
	 * factors apply to alpha without Independent Alpha Blend Enable) */
	static const float rgb[3] = { 0.2f, 0.4f, 0.6f };
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	PUT("BLEND_STATE_ENTRY", FX_DYN + FX_BLEND + 4, { "Color Buffer Blend Enable", 1 },
	    { "Source Blend Factor", BF_SRC_ALPHA_ }, { "Destination Blend Factor", BF_INV_SRC_ALPHA_ },
	    { "Source Alpha Blend Factor", BF_SRC_ALPHA_ },
	    { "Destination Alpha Blend Factor", BF_INV_SRC_ALPHA_ });
	fill_dst();
	CHECK_EQ(draw(rgb), 0);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			double a = alpha_at(x), src[4] = { rgb[0], rgb[1], rgb[2], a };
			const double dst[4] = { 200 / 255.0, 100 / 255.0, 50 / 255.0, 25 / 255.0 };
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			for (int c = 0; c < 4; c++)
				bad += abs(p[c] - fx_unorm8(src[c] * a + dst[c] * (1 - a))) > 1;
		}
	CHECK_EQ(bad, 0);
}

static void dual_source(void)
{
	/* src0 = (0.2, 0.4, 0.6, alpha(x)), src1 = (0.25, 0.5, 0.75, 1), dst
	 * (200, 100, 50, 25) / 255: out = src0 * src1 + dst * (1 - src1):
	 * R 0.05 + 0.58824 = 0.63824 -> 163, G 0.2 + 0.19608 -> 101,
	 * B 0.45 + 0.04902 -> 127, A alpha(x) * 1 + 0 */
	static const float rgb[3] = { 0.2f, 0.4f, 0.6f };
	fx_reset(dual_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	PUT("BLEND_STATE_ENTRY", FX_DYN + FX_BLEND + 4, { "Color Buffer Blend Enable", 1 },
	    { "Source Blend Factor", BF_SRC1_COLOR_ }, { "Destination Blend Factor", BF_INV_SRC1_COLOR_ });
	fill_dst();
	CHECK_EQ(draw(rgb), 0);
	check_columns("dual source", 0, (const int[]){ 163, 101, 127, -1 });
}

/* Dual-source blending with alpha to coverage in a SIMD16 thread (SKL's
 * iris: piglit's alpha-to-coverage-dual-src-blend failed at every probe of
 * subspans 2-3): one sample, covered when alpha(x) >= 1/2, so columns 0-3
 * keep dst and 4-7 get the dual_source() values; the 8x2 thread's
 * subspans 2-3 are columns 4-7. */
static void dual_source_simd16(void)
{
	static const float rgb[3] = { 0.2f, 0.4f, 0.6f };
	fx_reset(dual16_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_PS", { "8 Pixel Dispatch Enable", 0 }, { "16 Pixel Dispatch Enable", 1 },
	    { "Dispatch GRF Start Register For Constant/Setup Data 0", 6 });
	PUT("BLEND_STATE", FX_DYN + FX_BLEND, { "Alpha To Coverage Enable", 1 });
	PUT("BLEND_STATE_ENTRY", FX_DYN + FX_BLEND + 4, { "Color Buffer Blend Enable", 1 },
	    { "Source Blend Factor", BF_SRC1_COLOR_ }, { "Destination Blend Factor", BF_INV_SRC1_COLOR_ });
	fill_dst();
	CHECK_EQ(draw(rgb), 0);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			int want[4] = { 200, 100, 50, 25 };
			if (x >= 4)
				memcpy(want, (const int[]){ 163, 101, 127, fx_unorm8(alpha_at(x)) },
				       sizeof(want));
			for (int c = 0; c < 4; c++)
				if (abs(p[c] - want[c]) > 1 && bad++ < 4)
					fprintf(stderr, "SIMD16 dual source: pixel %d,%d ch %d = %u, "
						"want %d\n", x, y, c, p[c], want[c]);
		}
	CHECK_EQ(bad, 0);
}

static void independent_blend(void)
{
	static const float rgb[3] = { 0.25f, 0.5f, 0.75f };
	fx_reset(mrt_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	/* binding table entry 1: a second target 4 KiB after the first */
	uint32_t entry1 = 0x80;
	memcpy(fx_mem + FX_SURF + 4, &entry1, 4);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x80, { "Surface Type", 1 },
	    { "Surface Format", FMT_R8G8B8A8_UNORM }, { "Width", W - 1 }, { "Height", H - 1 },
	    { "Surface Pitch", PITCH - 1 }, { "Surface Base Address", FX_RT + 0x1000 });
	PUT("BLEND_STATE_ENTRY", FX_DYN + FX_BLEND + 4 + 8, { "Color Buffer Blend Enable", 1 },
	    { "Source Blend Factor", 1 /* ONE */ }, { "Destination Blend Factor", 1 });
	for (int i = 0; i < W * H; i++) {
		memcpy(fx_mem + FX_RT + 4 * i, (const uint8_t[]){ 51, 51, 51, 51 }, 4);
		memcpy(fx_mem + FX_RT + 0x1000 + 4 * i, (const uint8_t[]){ 51, 51, 51, 51 }, 4);
	}
	CHECK_EQ(draw(rgb), 0);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p0 = fx_px(PITCH, 4, x, y), *p1 = p0 + 0x1000;
			double a = alpha_at(x), src[4] = { rgb[0], rgb[1], rgb[2], a };
			for (int c = 0; c < 4; c++) {
				if (abs(p0[c] - fx_unorm8(src[c])) > 1 && bad++ < 4)       /* written */
					fprintf(stderr, "RT0 %d,%d ch %d: %u\n", x, y, c, p0[c]);
				if (abs(p1[c] - fx_unorm8(src[c] + 0.2)) > 1 && bad++ < 4) /* ONE + ONE */
					fprintf(stderr, "RT1 %d,%d ch %d: %u want %u\n", x, y, c, p1[c],
						fx_unorm8(src[c] + 0.2));
			}
		}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	fx_init();
	alpha_test();
	alpha_to_coverage();
	blending();
	dual_source();
	dual_source_simd16();
	independent_blend();
	fx_fini();
	return test_exit();
}
