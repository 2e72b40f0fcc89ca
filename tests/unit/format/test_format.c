/* Surface formats against hand-computed layouts and conversions (PRM vol. 7
 * format conversion rules; IEEE binary16; sRGB transfer function). */
#include <math.h>

#include "gpu/format/format.h"
#include "test.h"

static int near(float a, float b, float tol)
{
	if (fabsf(a - b) <= tol)
		return 1;
	fprintf(stderr, "  %.9g vs %.9g\n", a, b);
	return 0;
}

static void unpack(uint32_t fmt, const void *src, union fmt_value v[4])
{
	CHECK_EQ(format_unpack(format_info(fmt), src, v), 0);
}

static void test_layouts(void)
{
	const struct fmt_info *fi = format_info(FMT_R8G8B8A8_UNORM);
	CHECK_EQ(FMT_R8G8B8A8_UNORM, 199);
	CHECK_STR(fi->name, "R8G8B8A8_UNORM");
	CHECK_EQ(fi->bpe, 32);
	CHECK_EQ(fi->ch[0].shift, 0); CHECK_EQ(fi->ch[0].bits, 8);
	CHECK_EQ(fi->ch[3].shift, 24); CHECK_EQ(fi->ch[3].type, FMT_T_UNORM);
	/* B5G6R5: B in bits 4:0, G in 10:5, R in 15:11 */
	fi = format_info(256);
	CHECK_STR(fi->name, "B5G6R5_UNORM");
	CHECK_EQ(fi->bpe, 16);
	CHECK_EQ(fi->ch[2].shift, 0); CHECK_EQ(fi->ch[1].shift, 5); CHECK_EQ(fi->ch[1].bits, 6);
	CHECK_EQ(fi->ch[0].shift, 11); CHECK_EQ(fi->ch[3].bits, 0);
	fi = format_info(FMT_R10G10B10_SNORM_A2_UNORM);
	CHECK_EQ(fi->ch[0].type, FMT_T_SNORM); CHECK_EQ(fi->ch[3].type, FMT_T_UNORM);
	CHECK_EQ(fi->ch[3].shift, 30);
	CHECK_EQ(format_info(FMT_R32_FLOAT_X8X24_TYPELESS)->bpe, 64);
	CHECK_EQ(format_info(FMT_R32G32B32_FLOAT)->bpe, 96);
	CHECK_EQ(format_info(FMT_R64G64B64A64_FLOAT)->bpe, 256);
	CHECK(format_info(FMT_R8G8B8A8_UNORM_SRGB)->srgb);
	CHECK(!format_info(FMT_BC1_UNORM)->supported);
	CHECK(!format_info(FMT_YCRCB_NORMAL)->supported);
	CHECK(format_info(FMT_R9G9B9E5_SHAREDEXP)->supported);
	CHECK_EQ(format_info(FMT_L8A8_UNORM)->kind, FMT_LUMINANCE);
	/* alpha only: its class is A's type */
	CHECK_EQ(format_info(FMT_A8_UNORM)->kind, FMT_ALPHA);
	CHECK_EQ(format_class(format_info(FMT_A8_UNORM)), FMT_T_UNORM);
	CHECK_EQ(format_class(format_info(FMT_R8G8B8A8_SINT)), FMT_T_SINT);
	CHECK_EQ(format_class(format_info(FMT_B8G8R8X8_UNORM)), FMT_T_UNORM);
	/* every render target format has a layout the packer knows, none is
	 * luminance or intensity (PRM vol. 2d: not render targets) */
	for (uint32_t n = 0; n < FMT_NUM; n++) {
		if (!format_rt_supported(n, 9))
			continue;
		const struct fmt_info *f = format_info(n);
		CHECK(f != NULL && f->supported && f->kind != FMT_LUMINANCE &&
		      f->kind != FMT_INTENSITY);
	}
	CHECK(format_info(300) == NULL);
	CHECK(format_info(100000) == NULL);
	CHECK_STR(format_name(FMT_R11G11B10_FLOAT), "R11G11B10_FLOAT");
	CHECK(format_is_integer(format_info(FMT_R32G32B32A32_UINT)));
	CHECK(!format_is_integer(format_info(FMT_R32G32B32A32_USCALED)));
	CHECK(format_vf_supported(FMT_R32G32B32A32_FLOAT));
	CHECK(format_vf_supported(FMT_R10G10B10A2_USCALED));
	CHECK(!format_vf_supported(FMT_R8G8B8A8_UNORM_SRGB));
	CHECK(!format_vf_supported(FMT_B5G6R5_UNORM));
	CHECK(!format_vf_supported(FMT_BC1_UNORM));
	/* every format the VF accepts has a layout the conversion knows */
	int vf = 0;
	for (uint32_t n = 0; n < FMT_NUM; n++) {
		if (!format_vf_supported(n))
			continue;
		vf++;
		const struct fmt_info *f = format_info(n);
		CHECK(f != NULL && f->supported && !f->srgb && f->bpe % 8 == 0);
	}
	CHECK_EQ(vf, 109);
}

static void test_unpack(void)
{
	union fmt_value v[4];

	/* UNORM: 0, 255/255, 128/255, 51/255 */
	unpack(FMT_R8G8B8A8_UNORM, (uint8_t[]){ 0x00, 0xff, 0x80, 0x33 }, v);
	CHECK(v[0].f == 0.0f && v[1].f == 1.0f);
	CHECK(near(v[2].f, 128.0f / 255.0f, 1e-7f) && near(v[3].f, 0.2f, 1e-7f));

	/* SNORM: -127 -> -1, -128 -> max(-128/127, -1) = -1, 127 -> 1, 0 */
	unpack(FMT_R8G8B8A8_SNORM, (uint8_t[]){ 0x81, 0x80, 0x7f, 0x00 }, v);
	CHECK(v[0].f == -1.0f && v[1].f == -1.0f && v[2].f == 1.0f && v[3].f == 0.0f);

	/* SSCALED/USCALED: integers as floats; missing B, A = 0, 1.0 */
	unpack(FMT_R16G16_SSCALED, (uint16_t[]){ 0xfffe, 5 }, v);
	CHECK(v[0].f == -2.0f && v[1].f == 5.0f && v[2].f == 0.0f && v[3].f == 1.0f);
	unpack(FMT_R8G8_USCALED, (uint8_t[]){ 200, 7 }, v);
	CHECK(v[0].f == 200.0f && v[1].f == 7.0f);

	/* half: 1.0, -2.0, 1.333008 * 2^-2, smallest denormal 2^-24 */
	unpack(FMT_R16G16B16A16_FLOAT, (uint16_t[]){ 0x3c00, 0xc000, 0x3555, 0x0001 }, v);
	CHECK(v[0].f == 1.0f && v[1].f == -2.0f);
	CHECK(v[2].f == 0.333251953125f && v[3].f == 5.9604644775390625e-08f);
	CHECK(fmt_half_to_float(0x7bff) == 65504.0f);
	CHECK(isinf(fmt_half_to_float(0xfc00)) && fmt_half_to_float(0xfc00) < 0);

	/* integers keep their bits; a missing A is the integer 1 */
	unpack(FMT_R32G32B32_SINT, (int32_t[]){ -5, 7, INT32_MIN }, v);
	CHECK_EQ(v[0].i, -5); CHECK_EQ(v[1].i, 7); CHECK_EQ(v[2].i, INT32_MIN);
	CHECK_EQ(v[3].u, 1);
	unpack(FMT_R8G8B8A8_SINT, (uint8_t[]){ 0xff, 0x80, 1, 0x7f }, v);
	CHECK_EQ(v[0].i, -1); CHECK_EQ(v[1].i, -128); CHECK_EQ(v[3].i, 127);

	/* R10G10B10A2_UNORM 0xA00003FF: R = 1023, G = 0, B = 512, A = 2 */
	unpack(FMT_R10G10B10A2_UNORM, (uint32_t[]){ 0xA00003FFu }, v);
	CHECK(v[0].f == 1.0f && v[1].f == 0.0f);
	CHECK(near(v[2].f, 512.0f / 1023.0f, 1e-7f) && near(v[3].f, 2.0f / 3.0f, 1e-7f));
	/* R10G10B10_SNORM_A2_UNORM: R = 0x200 = -512 -> -1, A = 3 -> 1 */
	unpack(FMT_R10G10B10_SNORM_A2_UNORM, (uint32_t[]){ 0xC0000200u }, v);
	CHECK(v[0].f == -1.0f && v[3].f == 1.0f);

	/* R11G11B10_FLOAT 0x801C03C0: R = 15 << 6 (1.0), G = 14 << 6 (0.5),
	 * B = 16 << 5 (2.0) */
	unpack(FMT_R11G11B10_FLOAT, (uint32_t[]){ 0x801C03C0u }, v);
	CHECK(v[0].f == 1.0f && v[1].f == 0.5f && v[2].f == 2.0f && v[3].f == 1.0f);

	/* B5G6R5: 0xF800 is red, 0x07E0 green */
	unpack(FMT_B5G6R5_UNORM, (uint16_t[]){ 0xF800 }, v);
	CHECK(v[0].f == 1.0f && v[1].f == 0.0f && v[2].f == 0.0f && v[3].f == 1.0f);
	unpack(FMT_B5G6R5_UNORM, (uint16_t[]){ 0x07E0 }, v);
	CHECK(v[0].f == 0.0f && v[1].f == 1.0f);

	/* SFIXED 16.16: 0x00018000 = 1.5, 0xFFFF0000 = -1 */
	unpack(FMT_R32G32_SFIXED, (uint32_t[]){ 0x00018000u, 0xFFFF0000u }, v);
	CHECK(v[0].f == 1.5f && v[1].f == -1.0f);

	/* 64-bit float narrowed; PASSTHRU copies dwords */
	unpack(FMT_R64_FLOAT, (double[]){ 2.5 }, v);
	CHECK(v[0].f == 2.5f && v[1].f == 0.0f && v[3].f == 1.0f);
	unpack(FMT_R64G64_PASSTHRU, (uint32_t[]){ 1, 2, 3, 4 }, v);
	CHECK(v[0].u == 1 && v[1].u == 2 && v[2].u == 3 && v[3].u == 4);

	/* R9G9B9E5: R = 256, G = 128, B = 0, E = 16: m * 2^(16 - 24) */
	unpack(FMT_R9G9B9E5_SHAREDEXP, (uint32_t[]){ 0x80010100u }, v);
	CHECK(v[0].f == 1.0f && v[1].f == 0.5f && v[2].f == 0.0f);

	/* L8A8: R = G = B = L */
	unpack(FMT_L8A8_UNORM, (uint8_t[]){ 0xff, 0x00 }, v);
	CHECK(v[0].f == 1.0f && v[1].f == 1.0f && v[2].f == 1.0f && v[3].f == 0.0f);

	/* sRGB 188: s = 0.737255, ((s + 0.055) / 1.055)^2.4 = 0.750952^2.4
	 * = exp(2.4 * -0.286414) = 0.50289; alpha stays linear (128/255) */
	unpack(FMT_R8G8B8A8_UNORM_SRGB, (uint8_t[]){ 188, 0, 255, 128 }, v);
	CHECK(near(v[0].f, 0.50289f, 2e-4f) && v[1].f == 0.0f && near(v[2].f, 1.0f, 1e-6f));
	CHECK(near(v[3].f, 128.0f / 255.0f, 1e-7f));

	CHECK_EQ(format_unpack(format_info(FMT_BC1_UNORM), (uint8_t[16]){ 0 }, v), -1);
}

static void pack_check(uint32_t fmt, float r, float g, float b, float a,
		       const uint8_t *want, unsigned bytes)
{
	uint8_t out[16] = { 0 };
	union fmt_value in[4] = { { .f = r }, { .f = g }, { .f = b }, { .f = a } };
	CHECK_EQ(format_pack(format_info(fmt), in, out), 0);
	for (unsigned i = 0; i < bytes; i++) {
		if (out[i] != want[i])
			fprintf(stderr, "%s byte %u: 0x%02x, want 0x%02x\n",
				format_name(fmt), i, out[i], want[i]);
		CHECK_EQ(out[i], want[i]);
	}
}

static void test_pack(void)
{
	/* 0.5 * 255 + 0.5 = 128; 1.5 clamps to 255; -1 to 0; 0.2 * 255 = 51 */
	pack_check(FMT_R8G8B8A8_UNORM, 0.5f, 1.5f, -1.0f, 0.2f,
		   (uint8_t[]){ 0x80, 0xff, 0x00, 0x33 }, 4);
	/* red in BGRA byte order */
	pack_check(FMT_B8G8R8A8_UNORM, 1, 0, 0, 1, (uint8_t[]){ 0, 0, 0xff, 0xff }, 4);
	/* sRGB: 0.5^(1/2.4) = exp(-0.693147 / 2.4) = 0.749154;
	 * 1.055 * 0.749154 - 0.055 = 0.735357 -> * 255 = 187.52 -> 188;
	 * alpha stays linear: 128 */
	pack_check(FMT_R8G8B8A8_UNORM_SRGB, 0.5f, 0, 1, 0.5f,
		   (uint8_t[]){ 188, 0, 255, 128 }, 4);
	pack_check(FMT_B8G8R8A8_UNORM_SRGB, 0.5f, 0, 1, 0.5f,
		   (uint8_t[]){ 255, 0, 188, 128 }, 4);
	/* 0.002 is below the linear segment's end (0.0031308): 0.002 * 12.92
	 * * 255 = 6.59 -> 7 */
	pack_check(FMT_R8G8B8A8_UNORM_SRGB, 0.002f, 0, 0, 0, (uint8_t[]){ 7 }, 1);
	/* halves: 1.0 0x3c00, -2 0xc000, 65504 0x7bff, 1e6 -> inf 0x7c00 */
	pack_check(FMT_R16G16B16A16_FLOAT, 1, -2, 65504, 1e6f,
		   (uint8_t[]){ 0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b, 0x00, 0x7c }, 8);
	CHECK_EQ(fmt_float_to_half(0.1f), 0x2e66);   /* 0.0999755859375 */
	CHECK_EQ(fmt_float_to_half(2049.0f), 0x6800); /* tie -> even: 2048 */
	CHECK_EQ(fmt_float_to_half(2051.0f), 0x6802); /* tie -> even: 2052 */
	CHECK_EQ(fmt_float_to_half(1e-8f), 0x0000);  /* < 2^-25 */
	CHECK_EQ(fmt_float_to_half(-3e-8f), 0x8001); /* > 2^-25: smallest denormal */
	/* 32-bit floats copy: 3.25 = 0x40500000 */
	pack_check(FMT_R32_FLOAT, 3.25f, 0, 0, 0, (uint8_t[]){ 0, 0, 0x50, 0x40 }, 4);
	pack_check(FMT_R32G32B32A32_FLOAT, 1, 2, 0, 0,
		   (uint8_t[]){ 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40 }, 8);
	/* 0.25 * 255 = 63.75 -> 64 */
	pack_check(FMT_R8_UNORM, 0.25f, 0, 0, 0, (uint8_t[]){ 0x40 }, 1);
	/* 10-10-10-2: R 1023, G 0, B 0.5 * 1023 = 511.5 -> 512, A 2/3 * 3 = 2 */
	pack_check(FMT_R10G10B10A2_UNORM, 1, 0, 0.5f, 2.0f / 3.0f,
		   (uint8_t[]){ 0xff, 0x03, 0x00, 0xa0 }, 4);
	/* R11G11B10: 1.0, 0.5, 2.0 -> 0x801C03C0 */
	pack_check(FMT_R11G11B10_FLOAT, 1, 0.5f, 2, 0, (uint8_t[]){ 0xc0, 0x03, 0x1c, 0x80 }, 4);
	/* negative -> 0; too large -> largest finite 11-bit (e 30, m 63) 0x7bf */
	pack_check(FMT_R11G11B10_FLOAT, 1e6f, -1, 0, 0, (uint8_t[]){ 0xbf, 0x07, 0, 0 }, 4);
	CHECK(fmt_ufloat_to_float(0x7bf, 6) == 65024.0f);
	/* B5G6R5: R 31 << 11, G 0.5 * 63 = 31.5 -> 32 << 5, B 0 -> 0xFC00 */
	pack_check(FMT_B5G6R5_UNORM, 1, 0.5f, 0, 0, (uint8_t[]){ 0x00, 0xfc }, 2);
	/* SNORM: -1 -> -127 (0x81), 0.5 * 127 = 63.5 -> 64, 1 -> 127, -2 clamps */
	pack_check(FMT_R8G8B8A8_SNORM, -1, 0.5f, 1, -2, (uint8_t[]){ 0x81, 0x40, 0x7f, 0x81 }, 4);
	/* A8_UNORM keeps only A: 0.6 * 255 = 153, R, G, B dropped */
	pack_check(FMT_A8_UNORM, 1, 1, 1, 0.6f, (uint8_t[]){ 153 }, 1);

	/* integer formats clamp to the channel's range */
	uint8_t out[8] = { 0 };
	union fmt_value in[4] = { { .u = 70000 }, { .u = 3 }, { .u = 0 }, { .u = 0 } };
	CHECK_EQ(format_pack(format_info(FMT_R16G16_UINT), in, out), 0);
	CHECK(out[0] == 0xff && out[1] == 0xff && out[2] == 3 && out[3] == 0);
	in[0].i = -200;
	CHECK_EQ(format_pack(format_info(FMT_R8_SINT), in, out), 0);
	CHECK_EQ(out[0], 0x80);
	CHECK_EQ(format_pack(format_info(FMT_BC1_UNORM), in, out), -1);

	/* every supported non-sRGB UNORM/FLOAT format: pack then unpack of
	 * 0, 1 gives 0, 1 back */
	for (uint32_t n = 0; n < FMT_NUM; n++) {
		const struct fmt_info *fi = format_info(n);
		uint8_t buf[32] = { 0 };
		union fmt_value one[4] = { { .f = 1 }, { .f = 0 }, { .f = 1 }, { .f = 0 } }, back[4];
		if (!fi || !fi->supported || fi->shared_exp || format_is_integer(fi) ||
		    fi->ch[0].type == FMT_T_PASSTHRU || fi->ch[0].type == FMT_T_SFIXED ||
		    fi->ch[0].type != FMT_T_UNORM || fi->kind != FMT_RGBA)
			continue;
		CHECK_EQ(format_pack(fi, one, buf), 0);
		CHECK_EQ(format_unpack(fi, buf, back), 0);
		if (fi->ch[0].bits)
			CHECK(near(back[0].f, 1.0f, 1e-6f));
		if (fi->ch[1].bits)
			CHECK(back[1].f == 0.0f);
	}
}

int main(void)
{
	test_layouts();
	test_unpack();
	test_pack();
	return test_exit();
}
