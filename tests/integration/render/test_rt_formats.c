/* Every render target format issue 6 lists, written through a real draw
 * (state, clip, raster, a SIMD8 PS with pln and an RT write, the output
 * merger): the PS writes the constant colour (0.25, 0.5, 0.75, 0.6) and
 * each pixel of the target must hold the bytes computed by hand below from
 * the PRM's conversion rules (UNORM: round(v * (2^n - 1)); sRGB: 1.055 *
 * v^(1/2.4) - 0.055 on R, G, B, alpha linear; half floats and the packed
 * R11G11B10 floats by their bit layouts). Also: X- and Y-tiled targets,
 * channel write masks, a target smaller than the draw (writes outside it
 * dropped, memory after it untouched), an unbound binding table entry and
 * formats the render cache cannot write (GPU faults, nothing written). */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"

#define W 8
#define H 8

static const float colour[4] = { 0.25f, 0.5f, 0.75f, 0.6f };

/* The 4-byte-or-more encodings of `colour`, little-endian bytes. */
struct fmt_case {
	uint32_t format;
	const char *name;
	uint32_t cpp;
	uint8_t want[16];
};

static const struct fmt_case cases[] = {
	/* 0.25*255 = 63.75 -> 64, 0.5*255 = 127.5 -> 128, 0.75*255 = 191.25
	 * -> 191, 0.6*255 = 153 */
	{ FMT_R8G8B8A8_UNORM, "R8G8B8A8_UNORM", 4, { 64, 128, 191, 153 } },
	/* sRGB: 0.25 -> 0.53710 * 255 = 136.96 -> 137; 0.5 -> 0.73536 * 255
	 * = 187.52 -> 188; 0.75 -> 0.88083 * 255 = 224.61 -> 225 */
	{ FMT_R8G8B8A8_UNORM_SRGB, "R8G8B8A8_UNORM_SRGB", 4, { 137, 188, 225, 153 } },
	{ FMT_B8G8R8A8_UNORM, "B8G8R8A8_UNORM", 4, { 191, 128, 64, 153 } },
	{ FMT_B8G8R8A8_UNORM_SRGB, "B8G8R8A8_UNORM_SRGB", 4, { 225, 188, 137, 153 } },
	/* half: 0.25 = 0x3400, 0.5 = 0x3800, 0.75 = 0x3a00, 0.6 = 1.2 * 2^-1:
	 * exponent 14, mantissa 0.2 * 1024 = 204.8 -> 205 = 0x0cd: 0x38cd */
	{ FMT_R16G16B16A16_FLOAT, "R16G16B16A16_FLOAT", 8,
	  { 0x00, 0x34, 0x00, 0x38, 0x00, 0x3a, 0xcd, 0x38 } },
	/* IEEE singles: 0x3e800000, 0x3f000000, 0x3f400000, 0x3f19999a */
	{ FMT_R32G32B32A32_FLOAT, "R32G32B32A32_FLOAT", 16,
	  { 0, 0, 0x80, 0x3e, 0, 0, 0, 0x3f, 0, 0, 0x40, 0x3f, 0x9a, 0x99, 0x19, 0x3f } },
	{ FMT_R32_FLOAT, "R32_FLOAT", 4, { 0, 0, 0x80, 0x3e } },
	{ FMT_R8_UNORM, "R8_UNORM", 1, { 64 } },
	/* R 0.25*1023 = 255.75 -> 256, G 511.5 -> 512, B 767.25 -> 767,
	 * A 0.6*3 = 1.8 -> 2: 256 | 512 << 10 | 767 << 20 | 2 << 30 = 0xaff80100 */
	{ FMT_R10G10B10A2_UNORM, "R10G10B10A2_UNORM", 4, { 0x00, 0x01, 0xf8, 0xaf } },
	/* R 11-bit float 0.25 = 2^-2: exponent 13 (bias 15), mantissa 0: 13 << 6
	 * = 832; G 0.5: 14 << 6 = 896; B 10-bit 0.75 = 1.5 * 2^-1: 14 << 5 | 16
	 * = 464: 832 | 896 << 11 | 464 << 22 = 0x741c0340 */
	{ FMT_R11G11B10_FLOAT, "R11G11B10_FLOAT", 4, { 0x40, 0x03, 0x1c, 0x74 } },
	/* B 0.75*31 = 23.25 -> 23 (bits 4:0), G 0.5*63 = 31.5 -> 32 (10:5),
	 * R 0.25*31 = 7.75 -> 8 (15:11): 23 | 32 << 5 | 8 << 11 = 0x4417 */
	{ FMT_B5G6R5_UNORM, "B5G6R5_UNORM", 2, { 0x17, 0x44 } },
	/* alpha only: A 0.6 * 255 = 153 (R, G, B dropped) */
	{ FMT_A8_UNORM, "A8_UNORM", 1, { 153 } },
};

/* A w x h square of `colour` over NDC [-1, 1] (two triangles). */
static int draw_square(void)
{
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, colour);
	return fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

static uint64_t pixel_offset(int tile_mode, uint32_t pitch, uint32_t cpp, int x, int y)
{
	enum ref_tiling t = tile_mode == 2 ? REF_TILE_X : tile_mode == 3 ? REF_TILE_Y :
			   REF_LINEAR;
	return ref_tiled_offset(t, (uint64_t)x * cpp, (uint64_t)y, pitch);
}

static void check_target(const struct fmt_case *c, int tile_mode, uint32_t pitch,
			 const uint8_t *want)
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *got = fx_mem + FX_RT + pixel_offset(tile_mode, pitch, c->cpp, x, y);
			if (memcmp(got, want, c->cpp) && bad++ < 3) {
				fprintf(stderr, "%s tile %d pixel %d,%d:", c->name, tile_mode, x, y);
				for (uint32_t i = 0; i < c->cpp; i++)
					fprintf(stderr, " %02x/%02x", got[i], want[i]);
				fprintf(stderr, " (got/want)\n");
			}
		}
	CHECK_EQ(bad, 0);
}

static void each_format(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fmt_case *c = &cases[i];
		uint32_t pitch = W * c->cpp;
		fx_reset(gtdrv_color_fs, c->format, W, H, pitch);
		CHECK_EQ(draw_square(), 0);
		check_target(c, 0, pitch, c->want);
	}
}

static void tiled_targets(void)
{
	const struct fmt_case *c = &cases[0];
	/* Tile Mode 2 XMAJOR (pitch 512), 3 YMAJOR (pitch 128) */
	for (int tile_mode = 2; tile_mode <= 3; tile_mode++) {
		uint32_t pitch = tile_mode == 2 ? 512 : 128;
		fx_reset(gtdrv_color_fs, c->format, W, H, pitch);
		fx_target(c->format, W, H, pitch, tile_mode);
		CHECK_EQ(draw_square(), 0);
		check_target(c, tile_mode, pitch, c->want);
	}
}

/* Write Disable Green and Alpha keep the bytes that were there. */
static void write_masks(void)
{
	const struct fmt_case *c = &cases[0];
	fx_reset(gtdrv_color_fs, c->format, W, H, W * 4);
	PUT("BLEND_STATE_ENTRY", FX_DYN + FX_BLEND + 4, { "Write Disable Green", 1 },
	    { "Write Disable Alpha", 1 });
	memset(fx_mem + FX_RT, 0x11, W * H * 4);
	CHECK_EQ(draw_square(), 0);
	check_target(c, 0, W * 4, (const uint8_t[]){ 64, 0x11, 191, 0x11 });
	/* B5G6R5 with red disabled: the 5 red bits (15:11) keep 0b11111 */
	c = &cases[10];
	fx_reset(gtdrv_color_fs, c->format, W, H, W * 2);
	PUT("BLEND_STATE_ENTRY", FX_DYN + FX_BLEND + 4, { "Write Disable Red", 1 });
	memset(fx_mem + FX_RT, 0xff, W * H * 2);
	CHECK_EQ(draw_square(), 0);
	check_target(c, 0, W * 2, (const uint8_t[]){ 0x17, 0xfc });  /* 23 | 32 << 5 | 31 << 11 */
}

/* A 4x4 target under an 8x8 viewport: only its pixels are written and the
 * bytes after it (and after each row's 16 bytes) stay as they were. */
static void outside_dropped(void)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, 64);
	fx_target(FMT_R8G8B8A8_UNORM, 4, 4, 64, 0);
	memset(fx_mem + FX_RT, 0xee, 4096);
	CHECK_EQ(draw_square(), 0);
	int bad = 0;
	for (int i = 0; i < 4096; i++) {
		int x = (i % 64) / 4, y = i / 64;
		uint8_t want = x < 4 && y < 4 ? ((const uint8_t[]){ 64, 128, 191, 153 })[i % 4] : 0xee;
		bad += fx_mem[FX_RT + i] != want;
	}
	CHECK_EQ(bad, 0);
}

static void faults(void)
{
	/* binding table entry 0 is zero: unbound */
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	memset(fx_mem + FX_SURF, 0, 4);
	memset(fx_mem + FX_RT, 0xee, W * H * 4);
	CHECK(draw_square() < 0);
	/* formats that are no render target formats (PRM's render target
	 * column): compressed, depth, X-channel, luminance, 96-bit; and
	 * A4B4G4R4_UNORM and R16G16B16X16_FLOAT on Gen8 only */
	static const uint32_t not_rt[] = { FMT_BC1_UNORM, FMT_R24_UNORM_X8_TYPELESS,
					   FMT_R32G32B32X32_FLOAT, FMT_L8A8_UNORM,
					   FMT_R32G32B32_FLOAT, FMT_A4B4G4R4_UNORM,
					   FMT_R16G16B16X16_FLOAT };
	for (size_t k = 0; k < sizeof(not_rt) / sizeof(not_rt[0]); k++) {
		fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
		fx_target(not_rt[k], W, H, W * 4, 0);
		CHECK(draw_square() < 0);
		int bad = 0;
		for (int i = 0; i < W * H * 4; i++)
			bad += fx_mem[FX_RT + i] != 0;
		CHECK_EQ(bad, 0);
	}
	CHECK(format_rt_supported(FMT_A4B4G4R4_UNORM, 9));
	CHECK(!format_rt_supported(FMT_A4B4G4R4_UNORM, 8));
	CHECK(format_rt_supported(FMT_B8G8R8X8_UNORM, 8));
}

/* Gen9 renders R16G16B16X16_FLOAT (the PRM's "Render Target Surface
 * Types [SKL+]"; iris clears GL_RGB16F through it): R, G, B as halves
 * (0x3400, 0x3800, 0x3a00, as R16G16B16A16_FLOAT's above); X is unused
 * and not checked. */
static void gen9_formats(void)
{
	fx_gen = 9;
	fx_reset(gtdrv_color_fs, FMT_R16G16B16X16_FLOAT, W, H, W * 8);
	CHECK_EQ(draw_square(), 0);
	static const uint8_t want[6] = { 0x00, 0x34, 0x00, 0x38, 0x00, 0x3a };
	int bad = 0;
	for (int i = 0; i < W * H; i++)
		bad += memcmp(fx_mem + FX_RT + 8 * i, want, 6) != 0;
	CHECK_EQ(bad, 0);
	CHECK(format_rt_supported(FMT_R16G16B16X16_FLOAT, 9));
	CHECK(!format_rt_supported(FMT_R16G16B16X16_FLOAT, 8));
	fx_gen = 8;
}

/* BLEND_STATE Color Dither Enable (iris: GL_DITHER, on by default): the
 * hardware's dither matrix is not public; an 8-bit target is written
 * as without it and nothing is said, a narrower one (B5G6R5) is written
 * undithered with its values by hand (cases[]) and the stub trace names
 * it once. */
static void color_dither(void)
{
	static const char said[] = "Color Dither Enable on a B5G6R5_UNORM render target";
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fmt_case *c = &cases[i];
		if (c->format != FMT_R8G8B8A8_UNORM && c->format != FMT_B5G6R5_UNORM)
			continue;
		uint32_t pitch = W * c->cpp;
		fx_reset(gtdrv_color_fs, c->format, W, H, pitch);
		PUT("BLEND_STATE", FX_DYN + FX_BLEND, { "Color Dither Enable", 1 });
		CHECK_EQ(draw_square(), 0);
		check_target(c, 0, pitch, c->want);
		CHECK_EQ(fx_trace_has(said), c->format == FMT_B5G6R5_UNORM);
	}
}

int main(void)
{
	fx_trace_begin();
	fx_init();
	each_format();
	gen9_formats();
	tiled_targets();
	write_masks();
	outside_dropped();
	faults();
	color_dither();
	fx_fini();
	fx_trace_end();
	return test_exit();
}
