/* ASTC LDR blocks (Khronos Data Format Specification, ASTC) built field by
 * field here and decoded through format_decode_texel; each expected texel
 * is the specification's arithmetic worked in this file: 8-bit endpoints
 * widened to 16 bits (replicated, or with 0x80 below for sRGB), the
 * interpolation (c0 (64 - w) + c1 w + 32) >> 6, and the FLT16 decode
 * (0xffff is 1.0, otherwise c / 65536 truncated to half) or the sRGB
 * top byte. Also: the block sizes of every footprint, void-extent blocks,
 * blue contraction, dual planes, the published unquantization tables and
 * error blocks (magenta). The whole decoder (partitions, trits, quints,
 * every footprint) is checked against the ARM reference decoder's output
 * by format-astc-reference. */
#include <math.h>
#include <string.h>

#include "gpu/format/format.h"
#include "gpu/format/format_astc.h"
#include "test.h"

/* A bit writer over a 16-byte block. */
static void put(uint8_t *b, unsigned at, unsigned n, uint32_t v)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned bit = at + i;
		b[bit / 8] = (uint8_t)((b[bit / 8] & ~(1u << (bit % 8))) | ((v >> i) & 1) << (bit % 8));
	}
}

/* Weights go from bit 127 down: bit j of weight stream bit k at 127 - k. */
static void put_weights(uint8_t *b, unsigned n, unsigned bits, const unsigned *w)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < bits; j++)
			put(b, 127 - (i * bits + j), 1, (w[i] >> j) & 1);
}

/* The specification's FLT16 result of a 16-bit interpolated value. */
static float flt16(unsigned c)
{
	if (c == 0xffff)
		return 1.0f;
	float f = (float)c / 65536.0f;
	/* to half, towards zero: keep 10 mantissa bits of the single */
	int e;
	float m = frexpf(f, &e);                /* f = m 2^e, m in [0.5, 1) */
	return e >= -13 ? ldexpf(floorf(ldexpf(m, 11)), e - 11) : f;
}

static float interp(unsigned e0, unsigned e1, unsigned w, bool srgb)
{
	unsigned c0 = srgb ? e0 << 8 | 0x80 : e0 * 257, c1 = srgb ? e1 << 8 | 0x80 : e1 * 257;
	unsigned c = (c0 * (64 - w) + c1 * w + 32) / 64;
	return srgb ? (float)(c >> 8) / 255.0f : flt16(c);
}

static void texel(uint32_t fmt, const uint8_t *blk, unsigned x, unsigned y, float out[4])
{
	union fmt_value v[4];
	CHECK_EQ(format_decode_texel(format_info(fmt), blk, x, y, v), 0);
	for (int c = 0; c < 4; c++)
		out[c] = v[c].f;
}

static bool same(const float *got, const float *want)
{
	for (int c = 0; c < 4; c++)
		if (fabsf(got[c] - want[c]) > 1e-6f) {
			fprintf(stderr, "  channel %d: %.9g vs %.9g\n", c, got[c], want[c]);
			return false;
		}
	return true;
}

static void block_sizes(void)
{
	static const unsigned dims[14][2] = { { 4, 4 }, { 5, 4 }, { 5, 5 }, { 6, 5 }, { 6, 6 },
					      { 8, 5 }, { 8, 6 }, { 8, 8 }, { 10, 5 }, { 10, 6 },
					      { 10, 8 }, { 10, 10 }, { 12, 10 }, { 12, 12 } };
	/* Gen9's numbering: 512 + 64 for FLT16, + 8 (w - 4)-ish per the PRM's
	 * list; checked by name here */
	for (int i = 0; i < 14; i++) {
		for (int srgb = 0; srgb < 2; srgb++) {
			char name[40];
			snprintf(name, sizeof(name), "ASTC_LDR_2D_%uX%u_%s", dims[i][0], dims[i][1],
				 srgb ? "U8SRGB" : "FLT16");
			const struct fmt_info *fi = NULL;
			for (uint32_t n = 512; n < 640 && !fi; n++)
				if (format_info(n) && !strcmp(format_info(n)->name, name))
					fi = format_info(n);
			CHECK(fi != NULL);
			if (!fi)
				continue;
			CHECK(fi->compressed);
			CHECK_EQ(fi->bw, dims[i][0]);
			CHECK_EQ(fi->bh, dims[i][1]);
			CHECK_EQ(fi->bpe, 128);
			CHECK_EQ(fi->srgb, srgb);
		}
	}
	CHECK_EQ(FMT_ASTC_LDR_2D_4X4_U8SRGB, 512);
	CHECK_EQ(FMT_ASTC_LDR_2D_12X12_FLT16, 639);
}

/* Void extent: 0x1fc in bits 8:0, bits 11:10 set, extent all ones, then
 * R, G, B, A as UNORM16 from bit 64. */
static void void_extent(void)
{
	uint8_t b[16] = { 0 };
	put(b, 0, 9, 0x1fc);
	put(b, 10, 2, 3);
	for (int i = 0; i < 4; i++)
		put(b, 12 + 13 * i, 13, 0x1fff);
	const unsigned col[4] = { 0x1234, 0x8000, 0xffff, 0x00ff };
	for (int c = 0; c < 4; c++)
		put(b, 64 + 16 * c, 16, col[c]);
	float v[4];
	texel(FMT_ASTC_LDR_2D_6X6_FLT16, b, 5, 3, v);
	/* 0x1234 / 65536 = 0.0710449..., 0x8000 is 0.5, 0xffff 1.0, 0xff / 65536 */
	CHECK(same(v, (const float[]){ flt16(0x1234), 0.5f, 1.0f, flt16(0xff) }));
	CHECK(v[0] == 0x1234 / 65536.0f);   /* 4660 needs 11 bits: exact in half */
	/* sRGB: the top bytes 0x12, 0x80, 0xff, 0x00, R G B through the sRGB curve */
	texel(FMT_ASTC_LDR_2D_6X6_U8SRGB, b, 0, 0, v);
	CHECK(same(v, (const float[]){ fmt_srgb_to_linear(0x12 / 255.0f),
				       fmt_srgb_to_linear(0x80 / 255.0f), 1.0f, 0.0f }));
	/* the HDR flag (bit 9) is an error in the LDR profile */
	put(b, 9, 1, 1);
	texel(FMT_ASTC_LDR_2D_6X6_FLT16, b, 0, 0, v);
	CHECK(same(v, (const float[]){ 1, 0, 1, 1 }));
	/* an extent with min >= max is illegal */
	put(b, 9, 1, 0);
	put(b, 12, 13, 5);
	put(b, 25, 13, 5);
	put(b, 38, 13, 0);
	put(b, 51, 13, 9);
	texel(FMT_ASTC_LDR_2D_6X6_FLT16, b, 0, 0, v);
	CHECK(same(v, (const float[]){ 1, 0, 1, 1 }));
}

/* One partition, CEM 8 (RGB direct), a 4x4 grid of 2-bit weights on a
 * 4x4 block: block mode R = 4 (4 levels: R2 = bit 1), H = 0, layout
 * bits 3:2 = 00 (W = B + 4, H = A + 2, A = 2): 0x042. Colour values
 * start at bit 17, eight bits each (6 values x 8 = 48 bits fit the 79). */
static void rgb_direct(void)
{
	uint8_t b[16] = { 0 };
	put(b, 0, 11, 0x042);
	put(b, 11, 2, 0);                       /* one partition */
	put(b, 13, 4, 8);                       /* CEM 8 */
	const unsigned v[6] = { 10, 250, 20, 200, 30, 100 };   /* R0 R1 G0 G1 B0 B1 */
	for (int i = 0; i < 6; i++)
		put(b, 17 + 8 * i, 8, v[i]);
	unsigned w[16];
	for (int i = 0; i < 16; i++)
		w[i] = (unsigned)(i * 7 + 1) % 4;
	put_weights(b, 16, 2, w);
	/* 2-bit weights replicated to 6 bits: 0, 21, 42, 63; above 32 + 1 */
	static const unsigned wq[4] = { 0, 21, 43, 64 };
	/* the grid is the block: texel (x, y) takes grid weight 4y + x
	 * (infill: Ds = (1024 + 2) / 3 = 342, gs = (342 x 3 + 32) >> 6 = 16 x) */
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++) {
			unsigned q = wq[w[4 * y + x]];
			float got[4];
			/* v1 + v3 + v5 = 550 >= v0 + v2 + v4 = 60: no swap */
			texel(FMT_ASTC_LDR_2D_4X4_FLT16, b, x, y, got);
			CHECK(same(got, (const float[]){ interp(10, 250, q, false),
							 interp(20, 200, q, false),
							 interp(30, 100, q, false), 1.0f }));
			texel(FMT_ASTC_LDR_2D_4X4_U8SRGB, b, x, y, got);
			CHECK(same(got, (const float[]){
				fmt_srgb_to_linear(interp(10, 250, q, true)),
				fmt_srgb_to_linear(interp(20, 200, q, true)),
				fmt_srgb_to_linear(interp(30, 100, q, true)), 1.0f }));
		}
	/* the sum of the second endpoint below the first's: swapped and blue
	 * contracted, e0 = ((v1 + v5) / 2, (v3 + v5) / 2, v5), e1 from v0 v2 v4 */
	const unsigned s[6] = { 200, 10, 180, 20, 100, 30 };
	for (int i = 0; i < 6; i++)
		put(b, 17 + 8 * i, 8, s[i]);
	unsigned q = wq[w[0]];
	float got[4];
	texel(FMT_ASTC_LDR_2D_4X4_FLT16, b, 0, 0, got);
	CHECK(same(got, (const float[]){ interp((10 + 30) / 2, (200 + 100) / 2, q, false),
					 interp((20 + 30) / 2, (180 + 100) / 2, q, false),
					 interp(30, 100, q, false), 1.0f }));
	/* a 5x4 block of the same bits: the weights' infill across 5 texels,
	 * Ds = (1024 + 2) / 4 = 256, gs = (256 x 3 + 32) >> 6 */
	for (int i = 0; i < 6; i++)
		put(b, 17 + 8 * i, 8, v[i]);
	for (unsigned x = 0; x < 5; x++) {
		unsigned gs = (256 * x * 3 + 32) >> 6, js = gs >> 4, fs = gs & 15;
		unsigned p0 = wq[w[js]], p1 = js + 1 < 4 ? wq[w[js + 1]] : 0;
		unsigned wt = (p0 * (16 - fs) + p1 * fs + 8) >> 4;
		texel(FMT_ASTC_LDR_2D_5X4_FLT16, b, x, 0, got);
		CHECK(same(got, (const float[]){ interp(10, 250, wt, false),
						 interp(20, 200, wt, false),
						 interp(30, 100, wt, false), 1.0f }));
	}
}

/* Dual plane (D = bit 10) with 1-bit weights (R = 2: R1 = bit 0 set,
 * A = 2): 0x441; plane-1 weights interleaved after plane 0's, the colour
 * component selector in the two bits below the 32 weight bits. CEM 12
 * (RGBA direct), alpha on plane 1. */
static void dual_plane(void)
{
	uint8_t b[16] = { 0 };
	put(b, 0, 11, 0x441);
	put(b, 13, 4, 12);
	const unsigned v[8] = { 0, 255, 50, 150, 100, 200, 255, 0 };
	for (int i = 0; i < 8; i++)
		put(b, 17 + 8 * i, 8, v[i]);
	unsigned w[32];
	for (int i = 0; i < 16; i++) {
		w[2 * i] = i & 1;               /* plane 0 */
		w[2 * i + 1] = (i >> 2) & 1;    /* plane 1 */
	}
	put_weights(b, 32, 1, w);
	put(b, 128 - 32 - 2, 2, 3);             /* CCS: alpha */
	for (unsigned t = 0; t < 16; t++) {
		unsigned w0 = w[2 * t] ? 64 : 0, w1 = w[2 * t + 1] ? 64 : 0;
		float got[4];
		texel(FMT_ASTC_LDR_2D_4X4_FLT16, b, t % 4, t / 4, got);
		CHECK(same(got, (const float[]){ interp(0, 255, w0, false),
						 interp(50, 150, w0, false),
						 interp(100, 200, w0, false),
						 interp(255, 0, w1, false) }));
	}
}

/* The published unquantization tables (the specification's, in ISE
 * order) and the weight ranges spread over 0..64. */
static void unquantization(void)
{
	static const uint8_t q6[] = { 0, 255, 51, 204, 102, 153 };
	static const uint8_t q10[] = { 0, 255, 28, 227, 56, 199, 84, 171, 113, 142 };
	static const uint8_t q12[] = { 0, 255, 69, 186, 23, 232, 92, 163, 46, 209, 116, 139 };
	struct astc_ise s;
	CHECK_EQ(fmt_astc_ise_shape(6, &s), 0);
	for (unsigned i = 0; i < 6; i++)
		CHECK_EQ(fmt_astc_unquant_color(&s, i), q6[i]);
	CHECK_EQ(fmt_astc_ise_shape(10, &s), 0);
	for (unsigned i = 0; i < 10; i++)
		CHECK_EQ(fmt_astc_unquant_color(&s, i), q10[i]);
	CHECK_EQ(fmt_astc_ise_shape(12, &s), 0);
	for (unsigned i = 0; i < 12; i++)
		CHECK_EQ(fmt_astc_unquant_color(&s, i), q12[i]);
	/* weights: every range's values, sorted, within 1.5 of i * 64 / (n - 1)
	 * (the unquantized 0..63 skips to 65 above 32) */
	static const unsigned wl[] = { 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32 };
	for (size_t k = 0; k < sizeof(wl) / sizeof(wl[0]); k++) {
		CHECK_EQ(fmt_astc_ise_shape(wl[k], &s), 0);
		unsigned seen[65] = { 0 }, n = 0;
		for (unsigned i = 0; i < wl[k]; i++)
			seen[fmt_astc_unquant_weight(&s, i)]++;
		for (unsigned v = 0; v <= 64; v++)
			for (unsigned c = 0; c < seen[v]; c++, n++)
				CHECK(fabs(v - n * 64.0 / (wl[k] - 1)) <= 1.5);
		CHECK_EQ(n, wl[k]);
	}
	/* sizes: 5 trits in 8 bits, 3 quints in 7, plus the plain bits */
	CHECK_EQ(fmt_astc_ise_shape(48, &s), 0);                /* trit + 4 bits */
	CHECK_EQ(fmt_astc_ise_size(&s, 5), 5 * 4 + 8);
	CHECK_EQ(fmt_astc_ise_size(&s, 1), 4 + 2);              /* ceil(8/5) */
	CHECK_EQ(fmt_astc_ise_shape(80, &s), 0);                /* quint + 4 bits */
	CHECK_EQ(fmt_astc_ise_size(&s, 4), 4 * 4 + 10);         /* ceil(28/3) */
	CHECK(fmt_astc_ise_shape(7, &s) < 0);
}

/* Trits: five values of range 3 (no bits) packed as T; the spec's
 * example rows: T = 0 -> 0 0 0 0 0; T with bits 4:2 = 111 -> t3 = t4 = 2. */
static void trits(void)
{
	struct astc_ise s;
	CHECK_EQ(fmt_astc_ise_shape(3, &s), 0);
	uint8_t data[2] = { 0, 0 }, out[5];
	struct astc_bits r = { data, 0, 8 };
	fmt_astc_ise_decode(&s, &r, 5, out);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(out[i], 0);
	/* T = 0b000_111_00: C = {T7:5, T1:0} = 0 -> t0 = t1 = t2 = 0; t3 = t4 = 2 */
	data[0] = 0x1c;
	r = (struct astc_bits){ data, 0, 8 };
	fmt_astc_ise_decode(&s, &r, 5, out);
	CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0 && out[3] == 2 && out[4] == 2);
	/* T = 0b1_00_00011: T6:5 = 00 -> t4 = T7 = 1, t3 = 0; C = 00011:
	 * C1:0 = 11 -> t2 = 2, t1 = C4 = 0, t0 = {C3, C2 & ~C3} = 0 */
	data[0] = 0x83;
	r = (struct astc_bits){ data, 0, 8 };
	fmt_astc_ise_decode(&s, &r, 5, out);
	CHECK(out[0] == 0 && out[1] == 0 && out[2] == 2 && out[3] == 0 && out[4] == 1);
}

/* Illegal blocks decode to the error colour, magenta. */
static void errors(void)
{
	const float magenta[4] = { 1, 0, 1, 1 };
	float got[4];
	uint8_t b[16] = { 0 };
	/* block mode bits 3:0 = 0: reserved */
	put(b, 0, 11, 0x100);
	texel(FMT_ASTC_LDR_2D_4X4_FLT16, b, 0, 0, got);
	CHECK(same(got, magenta));
	/* an HDR endpoint mode (15) in the LDR profile */
	put(b, 0, 11, 0x042);
	put(b, 13, 4, 15);
	texel(FMT_ASTC_LDR_2D_4X4_FLT16, b, 1, 2, got);
	CHECK(same(got, magenta));
	/* a 6x4 weight grid (B = 2) on a 4x4 block */
	put(b, 0, 11, 0x042 | 2 << 7);
	put(b, 13, 4, 8);
	texel(FMT_ASTC_LDR_2D_4X4_FLT16, b, 0, 0, got);
	CHECK(same(got, magenta));
	/* on a 6x6 block the same grid is legal: not magenta at texel 0
	 * (weights and colours 0: black, opaque) */
	texel(FMT_ASTC_LDR_2D_6X6_FLT16, b, 0, 0, got);
	CHECK(same(got, (const float[]){ 0, 0, 0, 1 }));
	/* a texel outside the block is refused */
	union fmt_value v[4];
	CHECK(format_decode_texel(format_info(FMT_ASTC_LDR_2D_6X6_FLT16), b, 6, 0, v) < 0);
}

int main(void)
{
	block_sizes();
	void_extent();
	rgb_direct();
	dual_plane();
	unquantization();
	trits();
	errors();
	return test_exit();
}
