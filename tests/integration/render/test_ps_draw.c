/* Pixel shader dispatch and attribute setup through a real draw, into a
 * 16x16 R8G8B8A8_UNORM target, against values computed here:
 *  - SIMD16 dispatch (16 Pixel Dispatch Enable only): the payload's
 *    barycentrics in the SIMD16 layout and pln(16) give the affine colour
 *    R = (x + 0.5) / 16, G = (y + 0.5) / 16 within 1/255;
 *  - SIMD32 dispatch (32 Pixel Dispatch Enable only), written the way
 *    Mesa does: two SIMD16 halves (1H, 2H), each with its barycentrics
 *    (g3-g6, g7-g10) and its own RT write (slot group 1 for the second);
 *  - kill with late depth: the PS's RT write is predicated on R >= 0.5
 *    (as Mesa does for discard) and 3DSTATE_PS_EXTRA says it kills, so the
 *    depth test runs after it: killed pixels keep their colour and their
 *    depth (1.0), the others get colour and depth 0.5;
 *  - computed depth (3DSTATE_PS_EXTRA PSCDEPTH_ON, oDepth after the colour
 *    in the RT write): the PS's depth 0.25, not the primitive's 0.9, is
 *    tested (LESS against 0.5) and written into D16_UNORM and D24_UNORM_X8
 *    buffers as round(0.25 * (2^n - 1));
 *  - push constants (3DSTATE_CONSTANT_PS buffer 0, Push Constant Enable)
 *    at the dispatch GRF start, before the attributes;
 *  - 3DSTATE_SBE_SWIZ: source attribute 1 with Y and W overridden by
 *    CONST_0001. */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/render/topology.h"

#define W 16
#define H 16
#define PITCH (W * 4)

/* SIMD32: g0, g1-g2 pixel info, barycentrics g3-g6 (pixels 0-15) and
 * g7-g10 (16-31), attribute 0 in g11-g12 */
static const char simd32_fs[] =
	"pln(16)         g100<1>F        g11<0,1,0>F     g3<8,8,1>F      { align1 1H };\n"
	"pln(16)         g102<1>F        g11.4<0,1,0>F   g3<8,8,1>F      { align1 1H };\n"
	"pln(16)         g104<1>F        g12<0,1,0>F     g3<8,8,1>F      { align1 1H };\n"
	"pln(16)         g106<1>F        g12.4<0,1,0>F   g3<8,8,1>F      { align1 1H };\n"
	"sendc(16)       null<1>UW       g100<8,8,1>F    0x10031000\n"
	"                render MsgDesc: RT write SIMD16 LastRT Surface = 0 mlen 8 rlen 0 { align1 1H };\n"
	"pln(16)         g110<1>F        g11<0,1,0>F     g7<8,8,1>F      { align1 2H };\n"
	"pln(16)         g112<1>F        g11.4<0,1,0>F   g7<8,8,1>F      { align1 2H };\n"
	"pln(16)         g114<1>F        g12<0,1,0>F     g7<8,8,1>F      { align1 2H };\n"
	"pln(16)         g116<1>F        g12.4<0,1,0>F   g7<8,8,1>F      { align1 2H };\n"
	"sendc(16)       null<1>UW       g110<8,8,1>F    0x90031800\n"
	"                render MsgDesc: RT write SIMD16 LastRT Surface = 0 mlen 8 rlen 0 { align1 2H EOT };\n";

/* the colour FS with its RT write predicated on R >= 0.5 */
static const char kill_fs[] =
	"pln(8)          g124<1>F        g4<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g125<1>F        g4.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g126<1>F        g5<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g127<1>F        g5.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"cmp.ge.f0.0(8)  null<1>F        g124<8,8,1>F    0x3f000000F     { align1 1Q };\n"
	"(+f0.0) sendc(8) null<1>UW      g124<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

/* colour g123-g126, oDepth g127 = 0.25: mlen 5 */
static const char depth_fs[] =
	"pln(8)          g123<1>F        g4<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g124<1>F        g4.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g125<1>F        g5<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g126<1>F        g5.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"mov(8)          g127<1>F        0x3e800000F                     { align1 1Q };\n"
	"sendc(8)        null<1>UW       g123<8,8,1>F    0x8a031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 5 rlen 0 { align1 1Q EOT };\n";

/* the colour is push constant register g4's first four floats */
static const char push_fs[] =
	"mov(8)          g124<1>F        g4<0,1,0>F                      { align1 1Q };\n"
	"mov(8)          g125<1>F        g4.1<0,1,0>F                    { align1 1Q };\n"
	"mov(8)          g126<1>F        g4.2<0,1,0>F                    { align1 1Q };\n"
	"mov(8)          g127<1>F        g4.3<0,1,0>F                    { align1 1Q };\n"
	"sendc(8)        null<1>UW       g124<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

/* A command packed by its generated pack function (pack's result in
 * packed), recorded as the command streamer would. */
static void record_packed(int packed, const uint32_t *dw, uint32_t len)
{
	const struct cmd_desc *d = cmd_find(fx_gen, ENGINE_RCS, dw[0]);
	CHECK_EQ(packed, 0);
	CHECK(d != NULL);
	if (d && !packed)
		CHECK_EQ(cs_state_record(fx_cs, d, dw, len), 0);
}

/* The square, corners coloured so that R follows x and G follows y. */
static int draw_gradient(void)
{
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++) {
		float c[4] = { pos[i][0] > 0, pos[i][1] > 0, 0, 1 };
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, c);
	}
	return fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

static void wide(bool simd32)
{
	fx_reset(simd32 ? simd32_fs : fx_simd16_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	if (simd32)
		REC("3DSTATE_PS", { "8 Pixel Dispatch Enable", 0 }, { "32 Pixel Dispatch Enable", 1 },
		    { "Dispatch GRF Start Register For Constant/Setup Data 0", 11 });
	else
		REC("3DSTATE_PS", { "8 Pixel Dispatch Enable", 0 }, { "16 Pixel Dispatch Enable", 1 },
		    { "Dispatch GRF Start Register For Constant/Setup Data 0", 6 });
	CHECK_EQ(draw_gradient(), 0);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			int r = fx_unorm8((x + 0.5) / W), g = fx_unorm8((y + 0.5) / H);
			if ((abs(p[0] - r) > 1 || abs(p[1] - g) > 1 || p[2] || p[3] != 255) && bad++ < 4)
				fprintf(stderr, "SIMD%d pixel %d,%d = %u,%u,%u,%u want %d,%d,0,255\n",
					simd32 ? 32 : 16, x, y,
					p[0], p[1], p[2], p[3], r, g);
		}
	CHECK_EQ(bad, 0);
}

static void kill_late_depth(void)
{
	fx_reset(kill_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_PS_EXTRA", { "Pixel Shader Kills Pixel", 1 });
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", 1 },
	    { "Depth Write Enable", 1 }, { "Width", W - 1 }, { "Height", H - 1 },
	    { "Surface Pitch", 127 }, { "Surface Base Address", FX_DEPTH });
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", 1 },
	    { "Depth Buffer Write Enable", 1 }, { "Depth Test Function", 2 /* LESS */ });
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float one = 1.0f;
			memcpy(fx_mem + FX_DEPTH + ref_tile_y_offset((uint64_t)x * 4, (uint64_t)y, 128),
			       &one, 4);
		}
	CHECK_EQ(draw_gradient(), 0);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			bool kept = (x + 0.5) / W >= 0.5;
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			float z;
			memcpy(&z, fx_mem + FX_DEPTH + ref_tile_y_offset((uint64_t)x * 4, (uint64_t)y, 128), 4);
			bad += kept ? p[3] != 255 || z != 0.5f : p[3] != 0 || z != 1.0f;
		}
	CHECK_EQ(bad, 0);
}

/* format 5 D16_UNORM (2 bytes, 0.5 = 32768, 0.25 = 16384) or 3
 * D24_UNORM_X8 (4 bytes, 0.5 = round(8388607.5) = 8388608, 0.25 =
 * round(4194303.75) = 4194304) */
static void computed_depth(uint32_t format, uint32_t cpp, uint32_t half, uint32_t quarter)
{
	fx_reset(depth_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_PS_EXTRA", { "Pixel Shader Computed Depth Mode", 1 });
	/* Y-major, pitch 128 */
	REC("3DSTATE_DEPTH_BUFFER", { "Surface Type", 1 }, { "Surface Format", format },
	    { "Depth Write Enable", 1 }, { "Width", W - 1 }, { "Height", H - 1 },
	    { "Surface Pitch", 127 }, { "Surface Base Address", FX_DEPTH });
	REC("3DSTATE_WM_DEPTH_STENCIL", { "Depth Test Enable", 1 },
	    { "Depth Buffer Write Enable", 1 }, { "Depth Test Function", 2 /* LESS */ });
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			memcpy(fx_mem + FX_DEPTH + ref_tile_y_offset((uint64_t)x * cpp, (uint64_t)y, 128),
			       &half, cpp);
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	static const float white[4] = { 1, 1, 1, 1 };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], 0.9f, 1, white);
	CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint32_t z = 0;
			memcpy(&z, fx_mem + FX_DEPTH + ref_tile_y_offset((uint64_t)x * cpp, (uint64_t)y, 128),
			       cpp);
			bad += z != quarter || fx_px(PITCH, 4, x, y)[3] != 255;
		}
	CHECK_EQ(bad, 0);
}

static void push_constants(void)
{
	const float k[8] = { 0.25f, 0.5f, 0.75f, 0.6f, 9, 9, 9, 9 };
	fx_reset(push_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	memcpy(fx_mem + FX_DYN + 0x800, k, sizeof(k));
	REC("3DSTATE_PS", { "Push Constant Enable", 1 });
	/* 3DSTATE_CONSTANT_PS: Read Length[0] = 1 register, Buffer[0] address */
	uint32_t dw[11];
	record_packed(cmd_3DSTATE_CONSTANT_PS_pack(fx_gen, dw, 11, &(const struct cmd_3DSTATE_CONSTANT_PS){
		.constant_body = { .read_length = { 1 }, .buffer = { FX_DYN + 0x800 } } }), dw, 11);
	CHECK_EQ(draw_gradient(), 0);
	int bad = 0;
	for (int i = 0; i < W * H; i++)
		bad += memcmp(fx_mem + FX_RT + 4 * i, (const uint8_t[]){ 64, 128, 191, 153 }, 4) != 0;
	CHECK_EQ(bad, 0);
}

static void swizzle(void)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	REC("3DSTATE_SBE", { "Attribute Swizzle Enable", 1 });
	/* attribute 0 = source attribute 1 (VUE row 3), Constant Source
	 * CONST_0001_FLOAT, Component Override Y and W */
	uint32_t dw[11];
	record_packed(cmd_3DSTATE_SBE_SWIZ_pack(fx_gen, dw, 11, &(const struct cmd_3DSTATE_SBE_SWIZ){
		.attribute = { { .source_attribute = 1, .constant_source = 1,
				 .component_override_y = true, .component_override_w = true } } }),
		dw, 11);
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	static const float row2[4] = { 0.9f, 0.9f, 0.9f, 0.9f }, row3[4] = { 0.25f, 0.5f, 0.75f, 0.6f };
	for (unsigned i = 0; i < 4; i++) {
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, row2);
		memcpy(fx_vue(i) + 12, row3, 16);
	}
	CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
	int bad = 0;
	for (int i = 0; i < W * H; i++)
		bad += memcmp(fx_mem + FX_RT + 4 * i, (const uint8_t[]){ 64, 0, 191, 255 }, 4) != 0;
	CHECK_EQ(bad, 0);
}

int main(void)
{
	fx_init();
	wide(false);
	wide(true);
	kill_late_depth();
	computed_depth(5, 2, 32768, 16384);
	computed_depth(3, 4, 8388608, 4194304);
	push_constants();
	swizzle();
	fx_fini();
	return test_exit();
}
