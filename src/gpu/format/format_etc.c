/* ETC1, ETC2 and EAC blocks (OpenGL ES 3.0 spec, appendix C "ETC
 * Compressed Texture Image Formats"; Khronos Data Format spec "ETC2"):
 * 64-bit big-endian words, texel (x, y) at pixel index i = 4x + y (column
 * by column), its index bits at bits i (LSB) and 16 + i (MSB) of an ETC
 * colour word, and at bits 47 - 3i .. 45 - 3i of an EAC word.
 *  - ETC1 individual (diff 0): two 4-bit RGB bases; differential (diff 1):
 *    a 5-bit base and a 3-bit signed delta for the second; the flip bit
 *    splits the block into 2x4 (0) or 4x2 (1) halves, each with a 3-bit
 *    modifier table; texel = clamp(base + modifier[table][index]).
 *  - ETC2: a differential block whose second red, green or blue base
 *    leaves 0..31 is the T, H or planar mode. The punch-through variant
 *    reads bit 33 as "opaque"; without it index 2 (MSB 1, LSB 0) is
 *    transparent black and the ETC1 modes' modifiers for index 0 are 0.
 *  - EAC: base, multiplier and one of 16 modifier tables of 8 values:
 *    8-bit alpha clamp(base + mod x mult); R11 clamp(8 base + 4 + 8 mod x
 *    mult, 0, 2047) / 2047 (mult 0: mod instead of 8 mod x mult); signed
 *    R11 the base a signed byte (-128 reads as -127), clamp(8 base + 8 mod
 *    x mult, -1023, 1023) / 1023. */
#include "gpu/format/format_block.h"

static const int etc1_modifiers[8][2] = {
	{ 2, 8 }, { 5, 17 }, { 9, 29 }, { 13, 42 }, { 18, 60 }, { 24, 80 }, { 33, 106 }, { 47, 183 },
};

static const int etc2_distances[8] = { 3, 6, 11, 16, 23, 32, 41, 64 };

static const int eac_modifiers[16][8] = {
	{ -3, -6, -9, -15, 2, 5, 8, 14 }, { -3, -7, -10, -13, 2, 6, 9, 12 },
	{ -2, -5, -8, -13, 1, 4, 7, 12 }, { -2, -4, -6, -13, 1, 3, 5, 12 },
	{ -3, -6, -8, -12, 2, 5, 7, 11 }, { -3, -7, -9, -11, 2, 6, 8, 10 },
	{ -4, -7, -8, -11, 3, 6, 7, 10 }, { -3, -5, -8, -11, 2, 4, 7, 10 },
	{ -2, -6, -8, -10, 1, 5, 7, 9 }, { -2, -5, -8, -10, 1, 4, 7, 9 },
	{ -2, -4, -8, -10, 1, 3, 7, 9 }, { -2, -5, -7, -10, 1, 4, 6, 9 },
	{ -3, -4, -7, -10, 2, 3, 6, 9 }, { -1, -2, -3, -10, 0, 1, 2, 9 },
	{ -4, -6, -8, -9, 3, 5, 7, 8 }, { -3, -5, -7, -9, 2, 4, 6, 8 },
};

static uint64_t be64(const uint8_t *b)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

static unsigned field(uint64_t w, unsigned hi, unsigned lo)
{
	return (unsigned)(w >> lo & ((1ull << (hi - lo + 1)) - 1));
}

static int clamp255(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

static int ext4(unsigned v) { return (int)(v << 4 | v); }
static int ext5(unsigned v) { return (int)(v << 3 | v >> 2); }
static int ext6(unsigned v) { return (int)(v << 2 | v >> 4); }
static int ext7(unsigned v) { return (int)(v << 1 | v >> 6); }

static int sext3(unsigned v)
{
	return v & 4 ? (int)v - 8 : (int)v;
}

/* One ETC1/ETC2 colour block to 8-bit RGBA; punch selects the
 * punch-through variant (bit 33 opaque rather than diff). */
static void etc_rgb(const uint8_t *b, unsigned x, unsigned y, bool etc2, bool punch, int out[4])
{
	uint64_t w = be64(b);
	unsigned i = 4 * x + y;
	unsigned idx = (unsigned)(w >> (16 + i) & 1) << 1 | (unsigned)(w >> i & 1);
	bool diff = punch || field(w, 33, 33), opaque = !punch || field(w, 33, 33);
	out[3] = 255;
	if (diff && etc2) {
		int r = (int)field(w, 63, 59) + sext3(field(w, 58, 56));
		int g = (int)field(w, 55, 51) + sext3(field(w, 50, 48));
		int bl = (int)field(w, 47, 43) + sext3(field(w, 42, 40));
		int paint[4][3];
		if (r < 0 || r > 31) {          /* T mode */
			int c1[3] = { ext4(field(w, 60, 59) << 2 | field(w, 57, 56)),
				      ext4(field(w, 55, 52)), ext4(field(w, 51, 48)) };
			int c2[3] = { ext4(field(w, 47, 44)), ext4(field(w, 43, 40)),
				      ext4(field(w, 39, 36)) };
			int d = etc2_distances[field(w, 35, 34) << 1 | field(w, 32, 32)];
			for (int c = 0; c < 3; c++) {
				paint[0][c] = c1[c];
				paint[1][c] = clamp255(c2[c] + d);
				paint[2][c] = c2[c];
				paint[3][c] = clamp255(c2[c] - d);
			}
		} else if (g < 0 || g > 31) {   /* H mode */
			int c1[3] = { ext4(field(w, 62, 59)),
				      ext4(field(w, 58, 56) << 1 | field(w, 52, 52)),
				      ext4(field(w, 51, 51) << 3 | field(w, 49, 47)) };
			int c2[3] = { ext4(field(w, 46, 43)), ext4(field(w, 42, 39)),
				      ext4(field(w, 38, 35)) };
			int v1 = c1[0] << 16 | c1[1] << 8 | c1[2], v2 = c2[0] << 16 | c2[1] << 8 | c2[2];
			int d = etc2_distances[field(w, 34, 34) << 2 | field(w, 32, 32) << 1 |
					       (v1 >= v2)];
			for (int c = 0; c < 3; c++) {
				paint[0][c] = clamp255(c1[c] + d);
				paint[1][c] = clamp255(c1[c] - d);
				paint[2][c] = clamp255(c2[c] + d);
				paint[3][c] = clamp255(c2[c] - d);
			}
		} else if (bl < 0 || bl > 31) { /* planar: O, H, V at (0,0), (4,0), (0,4) */
			int o[3] = { ext6(field(w, 62, 57)),
				     ext7(field(w, 56, 56) << 6 | field(w, 54, 49)),
				     ext6(field(w, 48, 48) << 5 | field(w, 44, 43) << 3 | field(w, 41, 39)) };
			int h[3] = { ext6(field(w, 38, 34) << 1 | field(w, 32, 32)),
				     ext7(field(w, 31, 25)), ext6(field(w, 24, 19)) };
			int v[3] = { ext6(field(w, 18, 13)), ext7(field(w, 12, 6)), ext6(field(w, 5, 0)) };
			for (int c = 0; c < 3; c++)
				out[c] = clamp255(((int)x * (h[c] - o[c]) + (int)y * (v[c] - o[c]) +
						   4 * o[c] + 2) >> 2);
			return;
		} else {
			goto etc1;
		}
		if (!opaque && idx == 2) {
			out[0] = out[1] = out[2] = out[3] = 0;
			return;
		}
		for (int c = 0; c < 3; c++)
			out[c] = paint[idx][c];
		return;
	}
etc1:;
	bool flip = field(w, 32, 32);
	bool second = flip ? y >= 2 : x >= 2;
	int base[3];
	for (int c = 0; c < 3; c++) {
		unsigned hi = 63 - 8 * (unsigned)c;
		if (diff) {
			unsigned b5 = field(w, hi, hi - 4);
			base[c] = ext5(second ? (unsigned)((int)b5 + sext3(field(w, hi - 5, hi - 7))) & 31
					      : b5);
		} else {
			base[c] = ext4(second ? field(w, hi - 4, hi - 7) : field(w, hi, hi - 4 + 1));
		}
	}
	unsigned table = second ? field(w, 36, 34) : field(w, 39, 37);
	if (!opaque && idx == 2) {
		out[0] = out[1] = out[2] = out[3] = 0;
		return;
	}
	int m = etc1_modifiers[table][idx & 1];
	if (idx & 2)
		m = -m;
	if (!opaque && idx == 0)
		m = 0;
	for (int c = 0; c < 3; c++)
		out[c] = clamp255(base[c] + m);
}

/* An EAC word's value for texel (x, y): 8-bit alpha, or 11-bit R. */
static float eac(const uint8_t *b, unsigned x, unsigned y, int kind)
{
	uint64_t w = be64(b);
	unsigned i = 4 * x + y;
	int mult = (int)field(w, 55, 52);
	int mod = eac_modifiers[field(w, 51, 48)][field(w, 47 - 3 * i, 45 - 3 * i)];
	if (kind == 0)          /* 8-bit alpha */
		return (float)clamp255((int)field(w, 63, 56) + mod * mult) / 255.0f;
	int step = mult ? mod * mult * 8 : mod;
	if (kind == 1) {        /* R11 unsigned */
		int v = (int)field(w, 63, 56) * 8 + 4 + step;
		return (float)(v < 0 ? 0 : v > 2047 ? 2047 : v) / 2047.0f;
	}
	int base = (int8_t)field(w, 63, 56);
	int v = (base < -127 ? -127 : base) * 8 + step;
	return (float)(v < -1023 ? -1023 : v > 1023 ? 1023 : v) / 1023.0f;
}

static void to_float(const int c[4], float out[4])
{
	for (int k = 0; k < 4; k++)
		out[k] = (float)c[k] / 255.0f;
}

void fmt_etc1_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	int c[4];
	(void)flags;
	etc_rgb(b, x, y, false, false, c);
	to_float(c, out);
}

void fmt_etc2_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	int c[4];
	etc_rgb(b, x, y, true, flags & FMT_BLK_PUNCH, c);
	to_float(c, out);
}

void fmt_etc2_eac_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	int c[4];
	(void)flags;
	etc_rgb(b + 8, x, y, true, false, c);
	to_float(c, out);
	out[3] = eac(b, x, y, 0);
}

void fmt_eac_r11_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	out[0] = eac(b, x, y, flags & FMT_BLK_SIGNED ? 2 : 1);
	out[1] = out[2] = 0.0f;
	out[3] = 1.0f;
}

void fmt_eac_rg11_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	out[0] = eac(b, x, y, flags & FMT_BLK_SIGNED ? 2 : 1);
	out[1] = eac(b + 8, x, y, flags & FMT_BLK_SIGNED ? 2 : 1);
	out[2] = 0.0f;
	out[3] = 1.0f;
}
