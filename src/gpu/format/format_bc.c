/* S3TC (EXT_texture_compression_s3tc: DXT1/3/5 = BC1/2/3) and RGTC
 * (ARB_texture_compression_rgtc: BC4/BC5) blocks of 4x4 texels, texel
 * (x, y) at index 4y + x of each block's index fields.
 *  - BC1: two RGB565 colours c0, c1 and 2-bit indices. c0 > c1: c0, c1,
 *    (2c0 + c1)/3, (c0 + 2c1)/3; otherwise c0, c1, (c0 + c1)/2 and black,
 *    transparent for BC1 (punch-through), opaque for DXT1_RGB.
 *  - BC2: 4-bit explicit alphas (x / 15), then a BC1 colour block read in
 *    its four-colour mode whatever c0 and c1 are.
 *  - BC3: a BC4-style 8-bit alpha ramp, then the four-colour BC1 block.
 *  - BC4: r0, r1 and 3-bit indices i. r0 > r1: r0, r1, then for i = 2..7
 *    ((8-i) r0 + (i-1) r1)/7; otherwise r0, r1, for i = 2..5 ((6-i) r0 +
 *    (i-1) r1)/5, then 0 and 1 (-1 and 1 signed). Signed endpoints are
 *    bytes (compared as such) whose value -128 reads as -127.
 *  - BC5: two BC4 blocks, red then green. */
#include "gpu/format/format_block.h"

static void rgb565(uint32_t c, float rgb[3])
{
	rgb[0] = (float)(c >> 11 & 31) / 31.0f;
	rgb[1] = (float)(c >> 5 & 63) / 63.0f;
	rgb[2] = (float)(c & 31) / 31.0f;
}

/* The colour half of a BC1/2/3 block; four_colour forces c0 > c1's mode. */
static void colour_block(const uint8_t *b, unsigned x, unsigned y, bool four_colour,
			 bool no_alpha, float out[4])
{
	uint32_t c0 = fmt_block_bits(b, 0, 16), c1 = fmt_block_bits(b, 16, 16);
	unsigned idx = fmt_block_bits(b, 32 + 2 * (4 * y + x), 2);
	float e0[3], e1[3];
	rgb565(c0, e0);
	rgb565(c1, e1);
	out[3] = 1.0f;
	for (int c = 0; c < 3; c++) {
		if (four_colour || c0 > c1) {
			static const float w1[4] = { 0, 3, 1, 2 };   /* thirds of c1 */
			out[c] = idx < 2 ? (idx ? e1[c] : e0[c])
					 : ((3 - w1[idx]) * e0[c] + w1[idx] * e1[c]) / 3.0f;
		} else {
			out[c] = idx == 0 ? e0[c] : idx == 1 ? e1[c]
			       : idx == 2 ? (e0[c] + e1[c]) / 2.0f : 0.0f;
		}
	}
	if (!four_colour && c0 <= c1 && idx == 3 && !no_alpha)
		out[3] = 0.0f;
}

/* An RGTC ramp at bit 0 of b (8 bytes), as a float. */
static float ramp(const uint8_t *b, unsigned x, unsigned y, bool is_signed)
{
	int r0 = is_signed ? (int8_t)b[0] : b[0], r1 = is_signed ? (int8_t)b[1] : b[1];
	float scale = is_signed ? 127.0f : 255.0f;
	unsigned i = fmt_block_bits(b, 16 + 3 * (4 * y + x), 3);
	float f0 = (float)(r0 < -127 ? -127 : r0) / scale, f1 = (float)(r1 < -127 ? -127 : r1) / scale;
	if (i == 0)
		return f0;
	if (i == 1)
		return f1;
	if (r0 > r1)
		return ((float)(8 - i) * f0 + (float)(i - 1) * f1) / 7.0f;
	if (i == 6)
		return is_signed ? -1.0f : 0.0f;
	if (i == 7)
		return 1.0f;
	return ((float)(6 - i) * f0 + (float)(i - 1) * f1) / 5.0f;
}

void fmt_bc1_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	colour_block(b, x, y, false, flags & FMT_BLK_NO_ALPHA, out);
}

void fmt_bc2_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	(void)flags;
	colour_block(b + 8, x, y, true, true, out);
	out[3] = (float)fmt_block_bits(b, 4 * (4 * y + x), 4) / 15.0f;
}

void fmt_bc3_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	(void)flags;
	colour_block(b + 8, x, y, true, true, out);
	out[3] = ramp(b, x, y, false);
}

void fmt_bc4_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	out[0] = ramp(b, x, y, flags & FMT_BLK_SIGNED);
	out[1] = out[2] = 0.0f;
	out[3] = 1.0f;
}

void fmt_bc5_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	out[0] = ramp(b, x, y, flags & FMT_BLK_SIGNED);
	out[1] = ramp(b + 8, x, y, flags & FMT_BLK_SIGNED);
	out[2] = 0.0f;
	out[3] = 1.0f;
}
