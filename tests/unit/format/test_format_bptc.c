/* BPTC unorm (BC7) blocks built field by field from the mode layouts of
 * ARB_texture_compression_bptc (mode 6: one subset of RGBA 7.1 endpoints
 * and 4-bit indices; mode 1: two subsets of RGB 6-bit endpoints with a
 * p-bit per subset, partition 13, 3-bit indices; mode 4: rotation and
 * index selection, RGB 5-bit / A 6-bit endpoints, 2 and 3-bit index
 * fields), decoded against the spec's interpolation ((64 - w) e0 + w e1 +
 * 32) >> 6 with its weight tables, partition 13 of Table.P2 (0xff00:
 * texels 8-15 in subset 1) and its anchor (Table.A2: texel 15). */
#include <math.h>
#include <string.h>

#include "gpu/format/format.h"
#include "test.h"

static const int w2[4] = { 0, 21, 43, 64 };
static const int w3[8] = { 0, 9, 18, 27, 37, 46, 55, 64 };
static const int w4[16] = { 0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64 };

struct writer {
	uint8_t b[16];
	unsigned at;
};

static void put(struct writer *w, unsigned bits, unsigned v)
{
	for (unsigned i = 0; i < bits; i++, w->at++)
		if (v >> i & 1)
			w->b[w->at / 8] |= (uint8_t)(1u << (w->at % 8));
}

static int lerp(int e0, int e1, int w)
{
	return ((64 - w) * e0 + w * e1 + 32) >> 6;
}

static void check(uint32_t fmt, const uint8_t *b, unsigned t, const int want[4])
{
	union fmt_value v[4];
	CHECK_EQ(format_decode_texel(format_info(fmt), b, t % 4, t / 4, v), 0);
	for (int c = 0; c < 4; c++)
		if (fabsf(v[c].f - want[c] / 255.0f) > 1e-6f) {
			fprintf(stderr, "  texel %u channel %d: %.6f vs %d/255\n", t, c, v[c].f, want[c]);
			CHECK(0);
		}
}

static void test_mode6(void)
{
	struct writer w = { { 0 }, 0 };
	put(&w, 7, 1u << 6);                              /* mode 6 */
	const unsigned e[2][4] = { { 10, 100, 50, 127 }, { 120, 3, 64, 0 } }, p[2] = { 1, 0 };
	for (int c = 0; c < 4; c++)
		for (int k = 0; k < 2; k++)
			put(&w, 7, e[k][c]);
	put(&w, 1, p[0]);
	put(&w, 1, p[1]);
	for (unsigned t = 0; t < 16; t++)
		put(&w, t ? 4 : 3, t ? 15 - t : 5);               /* texel 0 (anchor): 3 bits */
	CHECK_EQ(w.at, 128u);
	for (unsigned t = 0; t < 16; t++) {
		int want[4], idx = t ? 15 - (int)t : 5;
		for (int c = 0; c < 4; c++)
			want[c] = lerp((int)(e[0][c] << 1 | p[0]), (int)(e[1][c] << 1 | p[1]), w4[idx]);
		check(FMT_BC7_UNORM, w.b, t, want);
	}
	/* sRGB decodes R, G, B of the same texels, not A */
	union fmt_value v[4];
	CHECK_EQ(format_decode_texel(format_info(FMT_BC7_UNORM_SRGB), w.b, 0, 0, v), 0);
	float enc = lerp(21, 240, w4[5]) / 255.0f;
	CHECK(fabsf(v[0].f - powf((enc + 0.055f) / 1.055f, 2.4f)) < 1e-5f);
	CHECK(fabsf(v[3].f - lerp(255, 0, w4[5]) / 255.0f) < 1e-6f);
}

static void test_mode1(void)
{
	struct writer w = { { 0 }, 0 };
	put(&w, 2, 2);                                    /* mode 1: "01" from bit 0 */
	put(&w, 6, 13);                                   /* partition 13 */
	const unsigned e[4][3] = { { 1, 62, 33 }, { 40, 0, 63 }, { 20, 21, 22 }, { 63, 10, 5 } };
	const unsigned p[2] = { 1, 0 };                   /* one p-bit per subset */
	for (int c = 0; c < 3; c++)
		for (int k = 0; k < 4; k++)
			put(&w, 6, e[k][c]);
	put(&w, 1, p[0]);
	put(&w, 1, p[1]);
	for (unsigned t = 0; t < 16; t++)                 /* anchors: texels 0 and 15 */
		put(&w, t == 0 || t == 15 ? 2 : 3, t % 4);
	CHECK_EQ(w.at, 128u);
	for (unsigned t = 0; t < 16; t++) {
		unsigned s = 0xff00 >> t & 1;
		int want[4] = { 0, 0, 0, 255 };
		for (int c = 0; c < 3; c++) {
			unsigned v0 = e[2 * s][c] << 1 | p[s], v1 = e[2 * s + 1][c] << 1 | p[s];
			/* 7 bits to 8: v << 1 | v >> 6 */
			want[c] = lerp((int)(v0 << 1 | v0 >> 6), (int)(v1 << 1 | v1 >> 6), w3[t % 4]);
		}
		check(FMT_BC7_UNORM, w.b, t, want);
	}
}

static void test_mode4(void)
{
	for (unsigned isel = 0; isel < 2; isel++)
		for (unsigned rot = 0; rot < 4; rot++) {
			struct writer w = { { 0 }, 0 };
			put(&w, 5, 1u << 4);              /* mode 4 */
			put(&w, 2, rot);
			put(&w, 1, isel);
			const unsigned e[2][4] = { { 3, 31, 16, 5 }, { 30, 0, 17, 60 } };
			for (int c = 0; c < 3; c++)
				for (int k = 0; k < 2; k++)
					put(&w, 5, e[k][c]);
			for (int k = 0; k < 2; k++)
				put(&w, 6, e[k][3]);
			for (unsigned t = 0; t < 16; t++)      /* 2-bit field */
				put(&w, t ? 2 : 1, (t * 3) % (t ? 4 : 2));
			for (unsigned t = 0; t < 16; t++)      /* 3-bit field */
				put(&w, t ? 3 : 2, (t * 5) % (t ? 8 : 4));
			CHECK_EQ(w.at, 128u);
			for (unsigned t = 0; t < 16; t++) {
				int i2 = w2[(t * 3) % (t ? 4 : 2)], i3 = w3[(t * 5) % (t ? 8 : 4)];
				int wc = isel ? i3 : i2, wa = isel ? i2 : i3, want[4];
				for (int c = 0; c < 3; c++)    /* 5 bits to 8: v << 3 | v >> 2 */
					want[c] = lerp((int)(e[0][c] << 3 | e[0][c] >> 2),
						       (int)(e[1][c] << 3 | e[1][c] >> 2), wc);
				want[3] = lerp((int)(e[0][3] << 2 | e[0][3] >> 4),
					       (int)(e[1][3] << 2 | e[1][3] >> 4), wa);
				if (rot) {
					int tmp = want[3];
					want[3] = want[rot - 1];
					want[rot - 1] = tmp;
				}
				check(FMT_BC7_UNORM, w.b, t, want);
			}
		}
}

static void test_reserved(void)
{
	uint8_t b[16] = { 0 };
	const int zero[4] = { 0, 0, 0, 0 };
	check(FMT_BC7_UNORM, b, 5, zero);
}

int main(void)
{
	test_mode6();
	test_mode1();
	test_mode4();
	test_reserved();
	return test_exit();
}
