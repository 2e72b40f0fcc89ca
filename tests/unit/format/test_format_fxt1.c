/* FXT1 blocks (3DFX_texture_compression_FXT1) built field by field; each
 * expected texel is the extension's decoding worked here: 5-bit channels
 * widened as round(v * 255 / 31), 6-bit as round(v * 255 / 63), ramps
 * ((n - t) c0 + t c1 + n / 2) / n in bytes, the texel those bytes / 255.
 * Texel (x, y) of the 8x4 block is index x % 4 + 4 y (+ 16 right half). */
#include <math.h>
#include <string.h>

#include "gpu/format/format.h"
#include "test.h"

static void put(uint8_t *b, unsigned at, unsigned n, uint32_t v)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned bit = at + i;
		b[bit / 8] = (uint8_t)((b[bit / 8] & ~(1u << (bit % 8))) | ((v >> i) & 1) << (bit % 8));
	}
}

static void check(const uint8_t *b, unsigned x, unsigned y, unsigned r, unsigned g, unsigned bl,
		  unsigned a)
{
	union fmt_value v[4];
	CHECK_EQ(format_decode_texel(format_info(FMT_FXT1), b, x, y, v), 0);
	const unsigned want[4] = { r, g, bl, a };
	for (int c = 0; c < 4; c++)
		if (fabsf(v[c].f - want[c] / 255.0f) > 1e-6f) {
			fprintf(stderr, "  (%u,%u) channel %d: %g vs %u/255\n", x, y, c, v[c].f * 255,
				want[c]);
			CHECK(0);
		}
}

/* RGB555 colour: B bits 4:0, G 9:5, R 14:10. */
static uint32_t c555(unsigned r, unsigned g, unsigned b)
{
	return b | g << 5 | r << 10;
}

int main(void)
{
	const struct fmt_info *fi = format_info(FMT_FXT1);
	CHECK(fi->compressed && fi->bw == 8 && fi->bh == 4 && fi->bpe == 128);

	/* CC_HI (mode 00x): colours 31,0,0 and 0,31,0; texel 0 index 0,
	 * texel 1 index 3: (3 * 255 + 3 * 0 + 3) / 6 = 128 each of R, G;
	 * texel 17 (x 5, y 0) index 7: transparent black */
	uint8_t b[16] = { 0 };
	put(b, 96, 15, c555(31, 0, 0));
	put(b, 111, 14, c555(0, 31, 0));        /* bit 125 (R's top) and mode 0 */
	put(b, 3, 3, 3);
	put(b, 3 * 17, 3, 7);
	check(b, 0, 0, 255, 0, 0, 255);
	check(b, 1, 0, 128, 128, 0, 255);
	check(b, 5, 0, 0, 0, 0, 0);
	/* CC_CHROMA (010): four colours, 2-bit indices; texel 4 (x 0, y 1) colour 2 */
	memset(b, 0, 16);
	put(b, 125, 3, 2);
	put(b, 64 + 30, 15, c555(1, 2, 3));     /* colour 2 */
	put(b, 2 * 4, 2, 2);
	check(b, 0, 1, 8, 16, 25, 255);         /* round(v * 255 / 31): 8.2, 16.5, 24.7 */
	/* CC_ALPHA (011), bit 124 clear: palette with alphas, index 3 transparent */
	memset(b, 0, 16);
	put(b, 125, 3, 3);
	put(b, 79, 15, c555(31, 31, 31));       /* colour 1 */
	put(b, 114, 5, 16);                     /* alpha 1: round(16 * 255 / 31) = 132 */
	put(b, 2 * 2, 2, 1);
	put(b, 2 * 3, 2, 3);
	check(b, 2, 0, 255, 255, 255, 132);
	check(b, 3, 0, 0, 0, 0, 0);
	/* bit 124 set: a ramp between colours 0 and 1 and alphas 0 and 1,
	 * index 1: (2 * 0 + 255 + 1) / 3 = 85, alpha (2 * 0 + 132 + 1) / 3 = 44 */
	put(b, 124, 1, 1);
	check(b, 2, 0, 85, 85, 85, 44);
	/* CC_MIXED (1xx), bit 124 clear: right half colours 2 and 3 (bits 94,
	 * 109), colour 3's green 5 bits + bit 126, colour 0's green the sixth
	 * bit glsb ^ bit 33. Texel 16 index 3: colour 3 */
	memset(b, 0, 16);
	put(b, 127, 1, 1);
	put(b, 94, 15, c555(0, 10, 31));
	put(b, 109, 15, c555(31, 20, 0));
	put(b, 126, 1, 1);                      /* glsb: colour 3 green 41 of 63 */
	put(b, 32, 2, 3);                       /* texel 16 (x 4, y 0) */
	check(b, 4, 0, 255, (41 * 255 + 31) / 63, 0, 255);
	/* texel 17 index 1; selb is bit 33, texel 16's upper index bit (1):
	 * colour 2's green (10 << 1 | (1 ^ 1)) = 20 of 63 -> 81, ramp to 166:
	 * (2 * 81 + 166 + 1) / 3 */
	put(b, 34, 2, 1);
	check(b, 5, 0, (2 * 0 + 255 + 1) / 3, (2 * 81 + 166 + 1) / 3, (2 * 255 + 0 + 1) / 3, 255);
	/* bit 124 set: index 1 is the mean, index 3 transparent */
	put(b, 124, 1, 1);
	check(b, 5, 0, (0 + 255) / 2, (((10 * 255 + 15) / 31) + 166) / 2, (255 + 0) / 2, 255);
	put(b, 34, 2, 3);
	check(b, 5, 0, 0, 0, 0, 0);
	return test_exit();
}
