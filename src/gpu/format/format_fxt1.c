/* FXT1 (3DFX_texture_compression_FXT1; PRM vol. 5 "FXT1 Compressed
 * Texture Format"): 128-bit blocks of 8x4 texels, two 4x4 halves (texel
 * t = x % 4 + 4 y, plus 16 in the right half). Bits 127:125 pick the mode:
 * 00x CC_HI (two RGB555 colours at 96 and 111, 3-bit indices: 7 steps,
 * index 7 transparent black), 010 CC_CHROMA (four RGB555 colours from bit
 * 64, 2-bit indices), 011 CC_ALPHA (three RGB555 colours from 64 with
 * 5-bit alphas from 109; bit 124 set: a 4-step ramp between the first two,
 * clear: a palette with index 3 transparent), 1xx CC_MIXED (per half two
 * RGB555 colours whose green has a sixth, low bit: bit 125 or 126, XORed
 * with index bit 1 or 33 for the first colour; bit 124 set: colour 0,
 * their mean, colour 1, transparent; clear: a 4-step ramp). 5- and 6-bit
 * channels widen to 8 bits rounded (i * 255 / 31 or 63), ramps round
 * ((n - t) c0 + t c1 + n / 2) / n; the texel is those bytes / 255. */
#include "gpu/format/format_block.h"

static unsigned up5(unsigned v)
{
	return ((v & 31) * 255 + 15) / 31;
}

static unsigned up6(unsigned v)
{
	return ((v & 63) * 255 + 31) / 63;
}

static unsigned lerp(unsigned n, unsigned t, unsigned c0, unsigned c1)
{
	return ((n - t) * c0 + t * c1 + n / 2) / n;
}

/* An RGB555 colour at bit `at` (B in the low bits) as bytes R, G, B. */
static void rgb555(const uint8_t *b, unsigned at, unsigned out[3])
{
	out[2] = up5(fmt_block_bits(b, at, 5));
	out[1] = up5(fmt_block_bits(b, at + 5, 5));
	out[0] = up5(fmt_block_bits(b, at + 10, 5));
}

static void hi(const uint8_t *b, unsigned t, unsigned px[4])
{
	unsigned i = fmt_block_bits(b, 3 * t, 3), c0[3], c1[3];
	if (i == 7) {
		px[0] = px[1] = px[2] = px[3] = 0;
		return;
	}
	rgb555(b, 96, c0);
	rgb555(b, 111, c1);
	for (int c = 0; c < 3; c++)
		px[c] = lerp(6, i, c0[c], c1[c]);
	px[3] = 255;
}

static void chroma(const uint8_t *b, unsigned t, unsigned px[4])
{
	rgb555(b, 64 + 15 * fmt_block_bits(b, 2 * t, 2), px);
	px[3] = 255;
}

static void alpha(const uint8_t *b, unsigned t, unsigned px[4])
{
	unsigned i = fmt_block_bits(b, 2 * t, 2);
	if (fmt_block_bits(b, 124, 1)) {
		unsigned c0[3], c1[3];
		rgb555(b, 64, c0);
		rgb555(b, 79, c1);
		for (int c = 0; c < 3; c++)
			px[c] = lerp(3, i, c0[c], c1[c]);
		px[3] = lerp(3, i, up5(fmt_block_bits(b, 109, 5)), up5(fmt_block_bits(b, 114, 5)));
		return;
	}
	if (i == 3) {
		px[0] = px[1] = px[2] = px[3] = 0;
		return;
	}
	rgb555(b, 64 + 15 * i, px);
	px[3] = up5(fmt_block_bits(b, 109 + 5 * i, 5));
}

static void mixed(const uint8_t *b, unsigned t, unsigned px[4])
{
	unsigned i = fmt_block_bits(b, 2 * t, 2), half = t >= 16;
	unsigned at = half ? 94 : 64;
	unsigned glsb = fmt_block_bits(b, half ? 126 : 125, 1);
	unsigned selb = fmt_block_bits(b, half ? 33 : 1, 1);
	unsigned c0[3], c1[3];
	rgb555(b, at, c0);
	rgb555(b, at + 15, c1);
	c1[1] = up6(fmt_block_bits(b, at + 20, 5) << 1 | glsb);
	if (fmt_block_bits(b, 124, 1)) {
		if (i == 3) {
			px[0] = px[1] = px[2] = px[3] = 0;
			return;
		}
		for (int c = 0; c < 3; c++)
			px[c] = i == 0 ? c0[c] : i == 2 ? c1[c] : (c0[c] + c1[c]) / 2;
	} else {
		c0[1] = up6(fmt_block_bits(b, at + 5, 5) << 1 | (glsb ^ selb));
		for (int c = 0; c < 3; c++)
			px[c] = lerp(3, i, c0[c], c1[c]);
	}
	px[3] = 255;
}

void fmt_fxt1_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	(void)flags;
	unsigned t = (x & 3) + 4 * y + (x & 4 ? 16 : 0), px[4];
	unsigned mode = fmt_block_bits(b, 125, 3);
	if (mode & 4)
		mixed(b, t, px);
	else if (mode == 2)
		chroma(b, t, px);
	else if (mode == 3)
		alpha(b, t, px);
	else
		hi(b, t, px);
	for (int c = 0; c < 4; c++)
		out[c] = (float)px[c] / 255.0f;
}
