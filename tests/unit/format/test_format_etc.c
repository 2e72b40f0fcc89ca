/* ETC1, ETC2 and EAC blocks decoded against the OpenGL ES 3.0 spec,
 * appendix C: each block is built from its fields (64-bit big-endian
 * words; texel (x, y) is pixel i = 4x + y, its index LSB at bit i and MSB
 * at bit 16 + i; EAC indices 3 bits from bit 47 down) and each expected
 * texel is the spec's formula on those fields, with the spec's tables
 * (ETC1 modifiers, ETC2 distances, EAC modifier sets) written here. */
#include <math.h>
#include <string.h>

#include "gpu/format/format.h"
#include "test.h"

/* Table C.?: ETC1 intensity modifiers (index 0: +a, 1: +b, 2: -a, 3: -b) */
static const int mods[8][2] = { { 2, 8 }, { 5, 17 }, { 9, 29 }, { 13, 42 }, { 18, 60 },
				{ 24, 80 }, { 33, 106 }, { 47, 183 } };
static const int dist[8] = { 3, 6, 11, 16, 23, 32, 41, 64 };
static const int eac_tab[16][8] = {
	{ -3, -6, -9, -15, 2, 5, 8, 14 }, { -3, -7, -10, -13, 2, 6, 9, 12 },
	{ -2, -5, -8, -13, 1, 4, 7, 12 }, { -2, -4, -6, -13, 1, 3, 5, 12 },
	{ -3, -6, -8, -12, 2, 5, 7, 11 }, { -3, -7, -9, -11, 2, 6, 8, 10 },
	{ -4, -7, -8, -11, 3, 6, 7, 10 }, { -3, -5, -8, -11, 2, 4, 7, 10 },
	{ -2, -6, -8, -10, 1, 5, 7, 9 }, { -2, -5, -8, -10, 1, 4, 7, 9 },
	{ -2, -4, -8, -10, 1, 3, 7, 9 }, { -2, -5, -7, -10, 1, 4, 6, 9 },
	{ -3, -4, -7, -10, 2, 3, 6, 9 }, { -1, -2, -3, -10, 0, 1, 2, 9 },
	{ -4, -6, -8, -9, 3, 5, 7, 8 }, { -3, -5, -7, -9, 2, 4, 6, 8 },
};

static int clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

static uint64_t put(uint64_t w, unsigned hi, unsigned lo, uint64_t v)
{
	return w | (v & ((1ull << (hi - lo + 1)) - 1)) << lo;
}

/* The 2-bit index of every texel: idx[x][y] */
static uint64_t indices(uint64_t w, const unsigned idx[4][4])
{
	for (unsigned x = 0; x < 4; x++)
		for (unsigned y = 0; y < 4; y++) {
			unsigned i = 4 * x + y;
			w |= (uint64_t)(idx[x][y] & 1) << i | (uint64_t)(idx[x][y] >> 1) << (16 + i);
		}
	return w;
}

static void store(uint8_t *b, uint64_t w)
{
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(w >> (56 - 8 * i));
}

static void check8(uint32_t fmt, const uint8_t *b, unsigned x, unsigned y, int r, int g, int bl,
		   int a)
{
	union fmt_value v[4];
	CHECK_EQ(format_decode_texel(format_info(fmt), b, x, y, v), 0);
	const int want[4] = { r, g, bl, a };
	for (int c = 0; c < 4; c++)
		if (fabsf(v[c].f - want[c] / 255.0f) > 1e-6f) {
			fprintf(stderr, "  fmt %u texel (%u,%u) channel %d: %.6f vs %d/255\n", fmt,
				x, y, c, v[c].f, want[c]);
			CHECK(0);
		}
}

static const unsigned idx_grid[4][4] = { { 0, 1, 2, 3 }, { 1, 2, 3, 0 }, { 2, 3, 0, 1 },
					 { 3, 0, 1, 2 } };

static int modifier(unsigned table, unsigned idx)
{
	int m = mods[table][idx & 1];
	return idx & 2 ? -m : m;
}

static void test_etc1(void)
{
	uint8_t b[8];
	/* individual mode (diff 0), flip 0: halves x < 2 and x >= 2; 4-bit
	 * bases extended by replication (v << 4 | v) */
	const unsigned r1 = 0xa, g1 = 0x5, b1 = 0x0, r2 = 0x3, g2 = 0xf, b2 = 0x8, t1 = 2, t2 = 7;
	uint64_t w = 0;
	w = put(w, 63, 60, r1); w = put(w, 59, 56, r2); w = put(w, 55, 52, g1);
	w = put(w, 51, 48, g2); w = put(w, 47, 44, b1); w = put(w, 43, 40, b2);
	w = put(w, 39, 37, t1); w = put(w, 36, 34, t2);
	store(b, indices(w, idx_grid));
	for (unsigned x = 0; x < 4; x++)
		for (unsigned y = 0; y < 4; y++) {
			bool second = x >= 2;
			int m = modifier(second ? t2 : t1, idx_grid[x][y]);
			unsigned r = second ? r2 : r1, g = second ? g2 : g1, bb = second ? b2 : b1;
			for (uint32_t fmt = FMT_ETC1_RGB8; fmt; fmt = fmt == FMT_ETC1_RGB8 ? FMT_ETC2_RGB8 : 0)
				check8(fmt, b, x, y, clamp255((int)(r << 4 | r) + m),
				       clamp255((int)(g << 4 | g) + m), clamp255((int)(bb << 4 | bb) + m),
				       255);
		}
	/* spot values worked by hand: (0,0) index 0: 0xaa + 9; (2,0) index 2:
	 * 0x33 - 47; (2,1) index 3: 0xff - 183, the others clamp to 0 */
	check8(FMT_ETC1_RGB8, b, 0, 0, 179, 94, 9, 255);
	check8(FMT_ETC1_RGB8, b, 2, 0, 4, 208, 89, 255);
	check8(FMT_ETC1_RGB8, b, 2, 1, 0, 72, 0, 255);
	/* differential mode (diff 1), flip 1: halves y < 2 and y >= 2; 5-bit
	 * base, the second base + a 3-bit signed delta, extended v << 3 | v >> 2 */
	const int R1 = 20, dR = -3, G1 = 10, dG = 3, B1 = 31, dB = 0;
	w = 0;
	w = put(w, 63, 59, R1); w = put(w, 58, 56, (unsigned)dR & 7);
	w = put(w, 55, 51, G1); w = put(w, 50, 48, dG); w = put(w, 47, 43, B1);
	w = put(w, 42, 40, dB); w = put(w, 39, 37, 0); w = put(w, 36, 34, 5);
	w = put(w, 33, 33, 1); w = put(w, 32, 32, 1);
	store(b, indices(w, idx_grid));
	for (unsigned x = 0; x < 4; x++)
		for (unsigned y = 0; y < 4; y++) {
			bool second = y >= 2;
			int m = modifier(second ? 5 : 0, idx_grid[x][y]);
			int r = R1 + (second ? dR : 0), g = G1 + (second ? dG : 0), bb = B1 + (second ? dB : 0);
			check8(FMT_ETC2_RGB8, b, x, y, clamp255((r << 3 | r >> 2) + m),
			       clamp255((g << 3 | g >> 2) + m), clamp255((bb << 3 | bb >> 2) + m), 255);
		}
	/* (1,1) index 2 of table 0: -2 on (165, 82, 255); (2,3) index 1 of
	 * table 5: +80 on (140, 107, 255) */
	check8(FMT_ETC1_RGB8, b, 1, 1, 163, 80, 253, 255);
	check8(FMT_ETC1_RGB8, b, 2, 3, 220, 187, 255, 255);
}

static void test_etc2_modes(void)
{
	uint8_t b[8];
	/* T mode: red 5-bit base 29 + delta 3 overflows. R1 = R1a(60:59) << 2 |
	 * R1b(57:56); 4-bit colours; distance index da(35:34) << 1 | db(32);
	 * paints c1, c2 + d, c2, c2 - d, chosen by the index directly */
	uint64_t w = 0;
	w = put(w, 63, 61, 7); w = put(w, 60, 59, 1); w = put(w, 58, 58, 0); w = put(w, 57, 56, 3);
	w = put(w, 55, 52, 0x2); w = put(w, 51, 48, 0xc); w = put(w, 47, 44, 0x8);
	w = put(w, 43, 40, 0x1); w = put(w, 39, 36, 0xf); w = put(w, 35, 34, 2);
	w = put(w, 33, 33, 1); w = put(w, 32, 32, 1);
	store(b, indices(w, idx_grid));
	int c1[3] = { 0x77, 0x22, 0xcc }, c2[3] = { 0x88, 0x11, 0xff }, d = dist[2 << 1 | 1];
	for (unsigned x = 0; x < 4; x++)
		for (unsigned y = 0; y < 4; y++) {
			int p[3];
			for (int c = 0; c < 3; c++) {
				int v[4] = { c1[c], clamp255(c2[c] + d), c2[c], clamp255(c2[c] - d) };
				p[c] = v[idx_grid[x][y]];
			}
			check8(FMT_ETC2_RGB8, b, x, y, p[0], p[1], p[2], 255);
		}
	check8(FMT_ETC2_RGB8, b, 0, 1, 168, 49, 255, 255);   /* index 1: c2 + 32 */

	/* H mode: red fits (4 + 1), green 31 + 1 overflows. R1 62:59, G1 =
	 * 58:56 << 1 | 52, B1 = 51 << 3 | 49:47, R2 46:43, G2 42:39, B2 38:35;
	 * distance index da(34) << 2 | db(32) << 1 | (c1 >= c2 as RGB888) */
	w = 0;
	w = put(w, 62, 59, 0x4); w = put(w, 58, 56, 1); w = put(w, 55, 53, 7); w = put(w, 52, 52, 1);
	w = put(w, 51, 51, 1); w = put(w, 49, 47, 2); w = put(w, 46, 43, 0x9);
	w = put(w, 42, 39, 0x0); w = put(w, 38, 35, 0x3); w = put(w, 34, 34, 1);
	w = put(w, 33, 33, 1);
	store(b, indices(w, idx_grid));
	int h1[3] = { 0x44, 0x33, 0xaa }, h2[3] = { 0x99, 0x00, 0x33 };
	int hd = dist[1 << 2 | 0 << 1 | 0];     /* 0x4433aa < 0x990033 */
	for (unsigned x = 0; x < 4; x++)
		for (unsigned y = 0; y < 4; y++) {
			int p[3];
			for (int c = 0; c < 3; c++) {
				int v[4] = { clamp255(h1[c] + hd), clamp255(h1[c] - hd),
					     clamp255(h2[c] + hd), clamp255(h2[c] - hd) };
				p[c] = v[idx_grid[x][y]];
			}
			check8(FMT_ETC2_RGB8, b, x, y, p[0], p[1], p[2], 255);
		}
	check8(FMT_ETC2_RGB8, b, 0, 0, 91, 74, 193, 255);

	/* planar: red and green fit, blue 31 + 1 overflows. O, H, V colours
	 * (6/7/6 bits, extended v << 2 | v >> 4, v << 1 | v >> 6);
	 * texel = clamp((x (H - O) + y (V - O) + 4 O + 2) >> 2) */
	const unsigned ro = 32, go = 16, bo = 27, rh = 63, gh = 0, bh = 0, rv = 0, gv = 127, bv = 32;
	w = 0;
	w = put(w, 62, 57, ro); w = put(w, 56, 56, go >> 6); w = put(w, 54, 49, go);
	w = put(w, 48, 48, bo >> 5); w = put(w, 47, 45, 7); w = put(w, 44, 43, bo >> 3);
	w = put(w, 41, 39, bo); w = put(w, 38, 34, rh >> 1); w = put(w, 33, 33, 1);
	w = put(w, 32, 32, rh); w = put(w, 31, 25, gh); w = put(w, 24, 19, bh);
	w = put(w, 18, 13, rv); w = put(w, 12, 6, gv); w = put(w, 5, 0, bv);
	store(b, w);
	int O[3] = { (int)(ro << 2 | ro >> 4), (int)(go << 1 | go >> 6), (int)(bo << 2 | bo >> 4) };
	int H[3] = { (int)(rh << 2 | rh >> 4), (int)(gh << 1 | gh >> 6), (int)(bh << 2 | bh >> 4) };
	int V[3] = { (int)(rv << 2 | rv >> 4), (int)(gv << 1 | gv >> 6), (int)(bv << 2 | bv >> 4) };
	for (int x = 0; x < 4; x++)
		for (int y = 0; y < 4; y++) {
			int p[3];
			for (int c = 0; c < 3; c++)
				p[c] = clamp255((x * (H[c] - O[c]) + y * (V[c] - O[c]) + 4 * O[c] + 2) >> 2);
			check8(FMT_ETC2_RGB8, b, (unsigned)x, (unsigned)y, p[0], p[1], p[2], 255);
		}
	check8(FMT_ETC2_RGB8, b, 3, 1, 191, 64, 33, 255);
	/* sRGB: the same texel through the sRGB EOTF */
	union fmt_value v[4];
	CHECK_EQ(format_decode_texel(format_info(FMT_ETC2_SRGB8), b, 3, 1, v), 0);
	CHECK(fabsf(v[0].f - powf((191 / 255.0f + 0.055f) / 1.055f, 2.4f)) < 1e-5f);
}

static void test_punch_through(void)
{
	uint8_t b[8];
	/* differential colours (R 10 + 1, G 20 - 1, B 5 + 0), tables 3 and 6,
	 * flip 0; bit 33 "opaque" */
	uint64_t w = 0;
	w = put(w, 63, 59, 10); w = put(w, 58, 56, 1); w = put(w, 55, 51, 20);
	w = put(w, 50, 48, 7); w = put(w, 47, 43, 5); w = put(w, 42, 40, 0);
	w = put(w, 39, 37, 3); w = put(w, 36, 34, 6);
	for (int opaque = 0; opaque < 2; opaque++) {
		store(b, indices(put(w, 33, 33, (uint64_t)opaque), idx_grid));
		for (unsigned x = 0; x < 4; x++)
			for (unsigned y = 0; y < 4; y++) {
				bool second = x >= 2;
				unsigned idx = idx_grid[x][y];
				int r = second ? 11 : 10, g = second ? 19 : 20, bb = 5;
				int m = modifier(second ? 6 : 3, idx);
				if (!opaque && idx == 0)
					m = 0;          /* the 'a' modifiers are 0 */
				if (!opaque && idx == 2) {   /* transparent black */
					check8(FMT_ETC2_RGB8_PTA, b, x, y, 0, 0, 0, 0);
					continue;
				}
				check8(FMT_ETC2_RGB8_PTA, b, x, y, clamp255((r << 3 | r >> 2) + m),
				       clamp255((g << 3 | g >> 2) + m), clamp255((bb << 3 | bb >> 2) + m),
				       255);
			}
	}
}

/* An EAC word: base 63:56, multiplier 55:52, table 51:48, 3-bit indices. */
static uint64_t eac_word(unsigned base, unsigned mult, unsigned table)
{
	uint64_t w = put(put(put(0, 63, 56, base), 55, 52, mult), 51, 48, table);
	for (unsigned i = 0; i < 16; i++)
		w = put(w, 47 - 3 * i, 45 - 3 * i, i % 8);     /* pixel i: index i mod 8 */
	return w;
}

static void test_eac(void)
{
	uint8_t b[16];
	union fmt_value v[4];
	/* R11: clamp(8 base + 4 + 8 mod mult, 0, 2047) / 2047 */
	store(b, eac_word(100, 3, 13));
	for (unsigned i = 0; i < 16; i++) {
		int e = 100 * 8 + 4 + eac_tab[13][i % 8] * 3 * 8;
		CHECK_EQ(format_decode_texel(format_info(FMT_EAC_R11), b, i / 4, i % 4, v), 0);
		CHECK(fabsf(v[0].f - (float)e / 2047) < 1e-6f);
		CHECK_EQ(v[1].f, 0.0f);
		CHECK_EQ(v[3].f, 1.0f);
	}
	/* multiplier 0: 8 base + 4 + mod; clamps at 0 and 2047 */
	store(b, eac_word(0, 0, 0));
	CHECK_EQ(format_decode_texel(format_info(FMT_EAC_R11), b, 0, 3, v), 0);   /* pixel 3 */
	CHECK(fabsf(v[0].f - 0.0f) < 1e-6f);                  /* 4 - 15 < 0 */
	CHECK_EQ(format_decode_texel(format_info(FMT_EAC_R11), b, 1, 0, v), 0);   /* pixel 4 */
	CHECK(fabsf(v[0].f - 6 / 2047.0f) < 1e-6f);
	store(b, eac_word(255, 15, 0));
	CHECK_EQ(format_decode_texel(format_info(FMT_EAC_R11), b, 1, 3, v), 0);   /* pixel 7: 14 */
	CHECK(fabsf(v[0].f - 1.0f) < 1e-6f);
	/* signed R11: base a signed byte, clamp(8 base + 8 mod mult, -1023, 1023) / 1023 */
	store(b, eac_word((uint8_t)-20, 2, 5));
	for (unsigned i = 0; i < 16; i++) {
		int e = -20 * 8 + eac_tab[5][i % 8] * 2 * 8;
		CHECK_EQ(format_decode_texel(format_info(FMT_EAC_SIGNED_R11), b, i / 4, i % 4, v), 0);
		CHECK(fabsf(v[0].f - (float)e / 1023) < 1e-6f);
	}
	/* RG11: red word, then green word */
	store(b, eac_word(10, 1, 2));
	store(b + 8, eac_word(200, 4, 9));
	CHECK_EQ(format_decode_texel(format_info(FMT_EAC_RG11), b, 0, 2, v), 0);  /* pixel 2 */
	CHECK(fabsf(v[0].f - (10 * 8 + 4 + eac_tab[2][2] * 8) / 2047.0f) < 1e-6f);
	CHECK(fabsf(v[1].f - (200 * 8 + 4 + eac_tab[9][2] * 4 * 8) / 2047.0f) < 1e-6f);
	CHECK_EQ(v[2].f, 0.0f);
	/* ETC2 + EAC alpha: alpha clamp(base + mod mult, 0, 255) / 255 */
	store(b, eac_word(128, 5, 1));
	/* individual colours (0xf, 0, 0x8) and (0, 0, 0), tables 0 */
	uint64_t w = put(put(put(0, 63, 60, 0xf), 55, 52, 0x0), 47, 44, 0x8);
	store(b + 8, indices(w, idx_grid));
	for (unsigned x = 0; x < 4; x++)
		for (unsigned y = 0; y < 4; y++) {
			int a = clamp255(128 + eac_tab[1][(4 * x + y) % 8] * 5);
			int m = modifier(0, idx_grid[x][y]);
			check8(FMT_ETC2_EAC_RGBA8, b, x, y, clamp255((x < 2 ? 0xff : 0) + m),
			       clamp255(m), clamp255((x < 2 ? 0x88 : 0) + m), a);
		}
}

int main(void)
{
	test_etc1();
	test_etc2_modes();
	test_punch_through();
	test_eac();
	return test_exit();
}
