/* S3TC (BC1-BC3) and RGTC (BC4/BC5) blocks decoded against values worked
 * out here from the specifications (EXT_texture_compression_s3tc,
 * ARB_texture_compression_rgtc): the blocks are written field by field
 * (colours, then 2-bit or 3-bit indices of texel 4y + x from the lowest
 * bits up) and each expected texel is the spec's formula on the fields. */
#include <math.h>
#include <string.h>

#include "gpu/format/format.h"
#include "test.h"

static int near(float a, float b)
{
	if (fabsf(a - b) <= 1e-6f)
		return 1;
	fprintf(stderr, "  %.9g vs %.9g\n", a, b);
	return 0;
}

static void texel(uint32_t fmt, const uint8_t *blk, unsigned x, unsigned y, float out[4])
{
	union fmt_value v[4];
	CHECK_EQ(format_decode_texel(format_info(fmt), blk, x, y, v), 0);
	for (int c = 0; c < 4; c++)
		out[c] = v[c].f;
}

static void check_rgba(uint32_t fmt, const uint8_t *blk, unsigned x, unsigned y, float r,
		       float g, float b, float a)
{
	float v[4];
	texel(fmt, blk, x, y, v);
	CHECK(near(v[0], r));
	CHECK(near(v[1], g));
	CHECK(near(v[2], b));
	CHECK(near(v[3], a));
}

/* A BC1 colour block: RGB565 c0, c1, then the 16 2-bit indices. */
static void bc1_block(uint8_t *b, uint16_t c0, uint16_t c1, const unsigned idx[16])
{
	b[0] = (uint8_t)c0; b[1] = (uint8_t)(c0 >> 8);
	b[2] = (uint8_t)c1; b[3] = (uint8_t)(c1 >> 8);
	uint32_t bits = 0;
	for (int i = 0; i < 16; i++)
		bits |= (uint32_t)idx[i] << (2 * i);
	for (int i = 0; i < 4; i++)
		b[4 + i] = (uint8_t)(bits >> (8 * i));
}

/* An RGTC ramp: two 8-bit endpoints, then 16 3-bit indices. */
static void ramp_block(uint8_t *b, uint8_t r0, uint8_t r1, const unsigned idx[16])
{
	b[0] = r0;
	b[1] = r1;
	uint64_t bits = 0;
	for (int i = 0; i < 16; i++)
		bits |= (uint64_t)idx[i] << (3 * i);
	for (int i = 0; i < 6; i++)
		b[2 + i] = (uint8_t)(bits >> (8 * i));
}

static const unsigned ramp_idx[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0 };
static const unsigned col_idx[16] = { 0, 1, 2, 3, 3, 2, 1, 0, 0, 0, 0, 0, 3, 3, 3, 3 };

static void test_bc1(void)
{
	uint8_t b[8];
	CHECK_EQ(format_info(FMT_BC1_UNORM)->bw, 4);
	CHECK_EQ(format_info(FMT_BC1_UNORM)->bh, 4);
	CHECK_EQ(format_info(FMT_BC1_UNORM)->bpe, 64);
	CHECK(format_info(FMT_BC1_UNORM)->compressed);
	/* c0 = (R 31, G 40, B 3) > c1 = (R 2, G 0, B 31): four colours,
	 * colour2 = (2 c0 + c1) / 3, colour3 = (c0 + 2 c1) / 3 */
	uint16_t c0 = 31 << 11 | 40 << 5 | 3, c1 = 2 << 11 | 0 << 5 | 31;
	float r0 = 31 / 31.0f, g0 = 40 / 63.0f, b0 = 3 / 31.0f;
	float r1 = 2 / 31.0f, g1 = 0, b1 = 31 / 31.0f;
	bc1_block(b, c0, c1, col_idx);
	for (uint32_t fmt = FMT_BC1_UNORM; fmt; fmt = fmt == FMT_BC1_UNORM ? FMT_DXT1_RGB : 0) {
		check_rgba(fmt, b, 0, 0, r0, g0, b0, 1);
		check_rgba(fmt, b, 1, 0, r1, g1, b1, 1);
		check_rgba(fmt, b, 2, 0, (2 * r0 + r1) / 3, (2 * g0 + g1) / 3, (2 * b0 + b1) / 3, 1);
		check_rgba(fmt, b, 3, 0, (r0 + 2 * r1) / 3, (g0 + 2 * g1) / 3, (b0 + 2 * b1) / 3, 1);
		check_rgba(fmt, b, 0, 1, (r0 + 2 * r1) / 3, (g0 + 2 * g1) / 3, (b0 + 2 * b1) / 3, 1);
		check_rgba(fmt, b, 3, 3, (r0 + 2 * r1) / 3, (g0 + 2 * g1) / 3, (b0 + 2 * b1) / 3, 1);
	}
	/* swapped (c0 <= c1): three colours, colour2 = (c0 + c1) / 2, colour3
	 * black, transparent in BC1 (RGBA DXT1), opaque in DXT1_RGB */
	bc1_block(b, c1, c0, col_idx);
	check_rgba(FMT_BC1_UNORM, b, 2, 0, (r0 + r1) / 2, (g0 + g1) / 2, (b0 + b1) / 2, 1);
	check_rgba(FMT_BC1_UNORM, b, 3, 0, 0, 0, 0, 0);
	check_rgba(FMT_DXT1_RGB, b, 3, 0, 0, 0, 0, 1);
	check_rgba(FMT_BC1_UNORM, b, 0, 0, r1, g1, b1, 1);
	/* equal colours are the three-colour mode too */
	bc1_block(b, c0, c0, col_idx);
	check_rgba(FMT_BC1_UNORM, b, 3, 0, 0, 0, 0, 0);
	/* sRGB: the decoded value through the sRGB EOTF
	 * ((c + 0.055) / 1.055)^2.4, c / 12.92 below 0.04045 */
	bc1_block(b, c0, c1, col_idx);
	float v[4], lin[3], enc[3] = { (2 * r0 + r1) / 3, (2 * g0 + g1) / 3, (2 * b0 + b1) / 3 };
	for (int c = 0; c < 3; c++)
		lin[c] = enc[c] <= 0.04045f ? enc[c] / 12.92f
					    : powf((enc[c] + 0.055f) / 1.055f, 2.4f);
	texel(FMT_BC1_UNORM_SRGB, b, 2, 0, v);
	for (int c = 0; c < 3; c++)
		CHECK(fabsf(v[c] - lin[c]) < 1e-5f);
	CHECK(near(v[3], 1));
	texel(FMT_DXT1_RGB_SRGB, b, 1, 0, v);
	CHECK(fabsf(v[0] - powf((r1 + 0.055f) / 1.055f, 2.4f)) < 1e-5f);
}

static void test_bc2_bc3(void)
{
	uint8_t b[16];
	/* BC2: explicit 4-bit alphas x / 15, texel i in bits 4i..4i+3; the
	 * colour block in its four-colour mode even with c0 <= c1 */
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)((2 * i + 1) << 4 | (2 * i));      /* alpha of texel i = i */
	uint16_t c0 = 0x001f, c1 = 0xf800;                 /* blue < red */
	bc1_block(b + 8, c0, c1, col_idx);
	CHECK_EQ(format_info(FMT_BC2_UNORM)->bpe, 128);
	check_rgba(FMT_BC2_UNORM, b, 0, 0, 0, 0, 1, 0);
	check_rgba(FMT_BC2_UNORM, b, 2, 0, 1 / 3.0f, 0, 2 / 3.0f, 2 / 15.0f);
	check_rgba(FMT_BC2_UNORM, b, 3, 0, 2 / 3.0f, 0, 1 / 3.0f, 3 / 15.0f);
	check_rgba(FMT_BC2_UNORM, b, 3, 3, 2 / 3.0f, 0, 1 / 3.0f, 1);
	/* BC3: an 8-value alpha ramp (a0 > a1) a_i = ((8 - i) a0 + (i - 1) a1) / 7 */
	ramp_block(b, 200, 10, ramp_idx);
	for (unsigned i = 0; i < 8; i++) {
		float a = i == 0 ? 200 : i == 1 ? 10 : ((8 - i) * 200.0f + (i - 1) * 10.0f) / 7;
		float v[4];
		texel(FMT_BC3_UNORM, b, i % 4, i / 4, v);
		CHECK(near(v[3], a / 255.0f));
		if (i < 4)      /* colour indices 0, 1, 2, 3: blue, red, thirds */
			CHECK(near(v[0], i == 0 ? 0 : i == 1 ? 1 : i == 2 ? 1 / 3.0f : 2 / 3.0f));
	}
	/* a0 <= a1: six values ((6 - i) a0 + (i - 1) a1) / 5, then 0 and 255 */
	ramp_block(b, 10, 200, ramp_idx);
	for (unsigned i = 0; i < 8; i++) {
		float a = i == 0 ? 10 : i == 1 ? 200 : i == 6 ? 0 : i == 7 ? 255
			: ((6 - i) * 10.0f + (i - 1) * 200.0f) / 5;
		float v[4];
		texel(FMT_BC3_UNORM_SRGB, b, i % 4, i / 4, v);
		CHECK(near(v[3], a / 255.0f));   /* alpha is never sRGB */
	}
}

static void test_rgtc(void)
{
	uint8_t b[16];
	/* BC4 unorm: the same ramps as BC3's alpha, in red; G = B = 0, A = 1 */
	ramp_block(b, 0x80, 0x7f, ramp_idx);
	for (unsigned i = 0; i < 8; i++) {
		float r = i == 0 ? 128 : i == 1 ? 127 : ((8 - i) * 128.0f + (i - 1) * 127.0f) / 7;
		check_rgba(FMT_BC4_UNORM, b, i % 4, i / 4, r / 255.0f, 0, 0, 1);
	}
	/* BC4 snorm: the same bytes are -128 (reads as -127) and 127, compared
	 * as signed: -128 <= 127 gives six values, then -1 and 1 */
	for (unsigned i = 0; i < 8; i++) {
		float r = i == 0 ? -127 : i == 1 ? 127 : i == 6 ? -127 : i == 7 ? 127
			: ((6 - i) * -127.0f + (i - 1) * 127.0f) / 5;
		check_rgba(FMT_BC4_SNORM, b, i % 4, i / 4, r / 127.0f, 0, 0, 1);
	}
	/* snorm 8 values: r0 = 100 > r1 = -50 */
	ramp_block(b, 100, (uint8_t)-50, ramp_idx);
	for (unsigned i = 0; i < 8; i++) {
		float r = i == 0 ? 100 : i == 1 ? -50 : ((8 - i) * 100.0f + (i - 1) * -50.0f) / 7;
		check_rgba(FMT_BC4_SNORM, b, 3 - i % 4, 3 - i / 4, r / 127.0f, 0, 0, 1);
	}
	/* BC5: red block then green block */
	ramp_block(b, 255, 0, ramp_idx);
	ramp_block(b + 8, 0, 255, ramp_idx);
	check_rgba(FMT_BC5_UNORM, b, 2, 0, 6 / 7.0f, 1 / 5.0f, 0, 1);   /* index 2 */
	check_rgba(FMT_BC5_UNORM, b, 3, 1, 1 / 7.0f, 1, 0, 1);          /* index 7 */
	ramp_block(b + 8, (uint8_t)-127, 127, ramp_idx);
	ramp_block(b, 127, (uint8_t)-127, ramp_idx);
	check_rgba(FMT_BC5_SNORM, b, 1, 0, -1, 1, 0, 1);
	check_rgba(FMT_BC5_SNORM, b, 2, 0, 5 / 7.0f, -3 / 5.0f, 0, 1);
}

static void test_not_compressed(void)
{
	union fmt_value v[4];
	uint8_t b[16] = { 0 };
	CHECK(!format_info(FMT_R8G8B8A8_UNORM)->compressed);
	CHECK_EQ(format_info(FMT_R8G8B8A8_UNORM)->bw, 1);
	CHECK_EQ(format_decode_texel(format_info(FMT_R8G8B8A8_UNORM), b, 0, 0, v), -1);
	CHECK_EQ(format_decode_texel(format_info(FMT_BC1_UNORM), b, 4, 0, v), -1);
	CHECK(!format_info(FMT_P8A8_UNORM_PALETTE0)->compressed);
}

int main(void)
{
	test_bc1();
	test_bc2_bc3();
	test_rgtc();
	test_not_compressed();
	return test_exit();
}
