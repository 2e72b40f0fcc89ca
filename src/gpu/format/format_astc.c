/* ASTC LDR 2D blocks (Khronos Data Format Specification, "ASTC Compressed
 * Texture Image Formats"; Gen9's ASTC_LDR_2D_* surface formats): one
 * texel of a 128-bit block. Block mode (weight grid, range, dual plane),
 * void-extent blocks, 1-4 partitions with their colour endpoint modes,
 * colour values by the integer sequence encoding, weights stored from the
 * top of the block down, infill of the weight grid to the block, and the
 * error colour (magenta) for every illegal block. */
#include <string.h>

#include "gpu/format/format_astc.h"
#include "gpu/format/format_block.h"

struct astc_block {
	unsigned gw, gh;                /* weight grid */
	bool dual;
	struct astc_ise wr;             /* weight range */
	unsigned parts, seed, cem[4], ccs;
	unsigned color_start, color_end;
};

/* The block mode (bits 10:0) of a non-void-extent block; -1 reserved. */
static int block_mode(uint32_t m, struct astc_block *k)
{
	unsigned r, h = (m >> 9) & 1, d = (m >> 10) & 1, a = (m >> 5) & 3, b;
	if (m & 3) {
		r = ((m >> 4) & 1) | (m & 3) << 1;
		b = (m >> 7) & 3;
		switch ((m >> 2) & 3) {
		case 0: k->gw = b + 4; k->gh = a + 2; break;
		case 1: k->gw = b + 8; k->gh = a + 2; break;
		case 2: k->gw = a + 2; k->gh = b + 8; break;
		default:
			if (m & 0x100) {
				k->gw = (b & 1) + 2;
				k->gh = a + 2;
			} else {
				k->gw = a + 2;
				k->gh = (b & 1) + 6;
			}
		}
	} else {
		r = ((m >> 4) & 1) | ((m >> 2) & 3) << 1;
		b = (m >> 9) & 3;
		switch ((m >> 7) & 3) {
		case 0: k->gw = 12; k->gh = a + 2; break;
		case 1: k->gw = a + 2; k->gh = 12; break;
		case 2: k->gw = a + 6; k->gh = b + 6; d = h = 0; break;
		default:
			if (a > 1)
				return -1;
			k->gw = a ? 10 : 6;
			k->gh = a ? 6 : 10;
		}
	}
	if (r < 2)
		return -1;
	static const uint8_t levels[2][8] = { { 0, 0, 2, 3, 4, 5, 6, 8 },
					      { 0, 0, 10, 12, 16, 20, 24, 32 } };
	k->dual = d;
	return fmt_astc_ise_shape(levels[h][r], &k->wr);
}

/* 128 bits reversed: weights are stored from bit 127 down. */
static void reverse_block(const uint8_t *b, uint8_t out[16])
{
	for (int i = 0; i < 16; i++) {
		uint8_t v = b[15 - i], o = 0;
		for (int j = 0; j < 8; j++)
			o |= (uint8_t)(((v >> j) & 1) << (7 - j));
		out[i] = o;
	}
}

/* Everything but the values; -1 for an illegal block. */
static int parse(const uint8_t *b, unsigned bw, unsigned bh, struct astc_block *k)
{
	if (block_mode(fmt_block_bits(b, 0, 11), k))
		return -1;
	unsigned nw = k->gw * k->gh * (k->dual ? 2 : 1);
	unsigned wbits = fmt_astc_ise_size(&k->wr, nw);
	if (k->gw > bw || k->gh > bh || nw > 64 || wbits < 24 || wbits > 96)
		return -1;
	k->parts = fmt_block_bits(b, 11, 2) + 1;
	if (k->parts == 4 && k->dual)
		return -1;
	unsigned below = 128 - wbits;   /* first bit of the weights */
	if (k->parts == 1) {
		k->cem[0] = fmt_block_bits(b, 13, 4);
		k->color_start = 17;
		k->seed = 0;
	} else {
		k->seed = fmt_block_bits(b, 13, 10);
		k->color_start = 29;
		unsigned field = fmt_block_bits(b, 23, 6), sel = field & 3;
		if (sel == 0) {
			for (unsigned p = 0; p < k->parts; p++)
				k->cem[p] = field >> 2;
		} else {
			/* selector, a class bit per partition, two mode bits per
			 * partition; the bits past the six of 28:23 sit just
			 * below the weights */
			unsigned extra = 3 * k->parts - 4;
			below -= extra;
			field |= fmt_block_bits(b, below, extra) << 6;
			for (unsigned p = 0; p < k->parts; p++) {
				unsigned cls = sel - 1 + ((field >> (2 + p)) & 1);
				k->cem[p] = cls << 2 | ((field >> (2 + k->parts + 2 * p)) & 3);
			}
		}
	}
	if (k->dual) {
		below -= 2;
		k->ccs = fmt_block_bits(b, below, 2);
	}
	k->color_end = below;
	return k->color_end < k->color_start ? -1 : 0;
}

/* The weight grid's value at texel (x, y) for plane `plane` (bilinear
 * infill: the specification's fixed-point grid coordinates). */
static unsigned infill(const struct astc_block *k, const uint8_t *w, unsigned bw, unsigned bh,
		       unsigned x, unsigned y, unsigned plane)
{
	unsigned ds = (1024 + bw / 2) / (bw - 1), dt = (1024 + bh / 2) / (bh - 1);
	unsigned gs = (ds * x * (k->gw - 1) + 32) >> 6, gt = (dt * y * (k->gh - 1) + 32) >> 6;
	unsigned js = gs >> 4, fs = gs & 15, jt = gt >> 4, ft = gt & 15;
	unsigned planes = k->dual ? 2 : 1, n = k->gw * k->gh;
	unsigned w11 = (fs * ft + 8) >> 4, w10 = ft - w11, w01 = fs - w11;
	unsigned w00 = 16 - fs - ft + w11;
	unsigned idx[4] = { js + jt * k->gw, js + 1 + jt * k->gw, js + (jt + 1) * k->gw,
			    js + 1 + (jt + 1) * k->gw };
	unsigned f[4] = { w00, w01, w10, w11 }, sum = 0;
	for (int i = 0; i < 4; i++)
		if (f[i] && idx[i] < n)
			sum += w[idx[i] * planes + plane] * f[i];
	return (sum + 8) >> 4;
}

static void error_colour(float out[4])
{
	out[0] = out[2] = out[3] = 1.0f;
	out[1] = 0.0f;
}

/* The 16-bit result c of a channel as the decode mode returns it: sRGB the
 * top byte / 255; FLT16: 0xffff is 1.0, otherwise c / 65536 rounded to
 * half towards zero. */
static float channel(unsigned c, bool srgb)
{
	if (srgb)
		return (float)(c >> 8) / 255.0f;
	if (c == 0xffff)
		return 1.0f;
	float f = (float)c / 65536.0f;
	uint32_t u;
	memcpy(&u, &f, 4);
	u &= ~0x1fffu;  /* keep half's 10 mantissa bits (c >= 4 is a normal half) */
	memcpy(&f, &u, 4);
	return f;
}

static void void_extent(const uint8_t *b, bool srgb, float out[4])
{
	/* bit 9 HDR, bits 11:10 reserved 1s, then the extent coordinates */
	if (fmt_block_bits(b, 9, 1) || fmt_block_bits(b, 10, 2) != 3) {
		error_colour(out);
		return;
	}
	unsigned s0 = fmt_block_bits(b, 12, 13), s1 = fmt_block_bits(b, 25, 13);
	unsigned t0 = fmt_block_bits(b, 38, 13), t1 = fmt_block_bits(b, 51, 13);
	bool all_ones = s0 == 0x1fff && s1 == 0x1fff && t0 == 0x1fff && t1 == 0x1fff;
	if (!all_ones && (s0 >= s1 || t0 >= t1)) {
		error_colour(out);
		return;
	}
	for (int c = 0; c < 4; c++)
		out[c] = channel(fmt_block_bits(b, 64 + 16 * c, 16), srgb);
}

/* Every texel of the block (row by row) into out. */
static void decode_block(const uint8_t *b, unsigned bw, unsigned bh, bool srgb,
			 float out[][4])
{
	unsigned texels = bw * bh;
	if (fmt_block_bits(b, 0, 9) == 0x1fc) {
		void_extent(b, srgb, out[0]);
		for (unsigned t = 1; t < texels; t++)
			memcpy(out[t], out[0], sizeof(out[0]));
		return;
	}
	struct astc_block k;
	/* colour values: the finest range with at least 6 levels that fits */
	unsigned nv = 0;
	struct astc_ise cr = { 0 };
	bool found = false;
	if (!parse(b, bw, bh, &k)) {
		for (unsigned p = 0; p < k.parts; p++)
			nv += 2 * ((k.cem[p] >> 2) + 1);
		for (unsigned lv = 256; nv <= 18 && lv >= 6 && !found; lv--)
			found = !fmt_astc_ise_shape(lv, &cr) &&
				fmt_astc_ise_size(&cr, nv) <= k.color_end - k.color_start;
	}
	if (!found) {
		for (unsigned t = 0; t < texels; t++)
			error_colour(out[t]);
		return;
	}
	uint8_t cv[18], wv[64], rev[16];
	struct astc_bits cs = { b, k.color_start, k.color_start + fmt_astc_ise_size(&cr, nv) };
	fmt_astc_ise_decode(&cr, &cs, nv, cv);
	for (unsigned i = 0; i < nv; i++)
		cv[i] = (uint8_t)fmt_astc_unquant_color(&cr, cv[i]);
	unsigned nw = k.gw * k.gh * (k.dual ? 2 : 1);
	reverse_block(b, rev);
	struct astc_bits ws = { rev, 0, fmt_astc_ise_size(&k.wr, nw) };
	fmt_astc_ise_decode(&k.wr, &ws, nw, wv);
	for (unsigned i = 0; i < nw; i++)
		wv[i] = (uint8_t)fmt_astc_unquant_weight(&k.wr, wv[i]);

	int e0[4][4], e1[4][4];
	bool bad[4] = { false };
	for (unsigned p = 0, first = 0; p < k.parts; p++) {
		bad[p] = fmt_astc_endpoints(k.cem[p], cv + first, e0[p], e1[p]) != 0;
		first += 2 * ((k.cem[p] >> 2) + 1);
	}
	for (unsigned y = 0; y < bh; y++)
		for (unsigned x = 0; x < bw; x++) {
			float *o = out[y * bw + x];
			unsigned part = fmt_astc_partition(k.seed, x, y, k.parts, texels);
			if (bad[part]) {
				error_colour(o);
				continue;
			}
			unsigned w0 = infill(&k, wv, bw, bh, x, y, 0);
			unsigned w1 = k.dual ? infill(&k, wv, bw, bh, x, y, 1) : w0;
			for (int c = 0; c < 4; c++) {
				unsigned w = k.dual && (unsigned)c == k.ccs ? w1 : w0;
				/* 8-bit endpoints to 16 bits: sRGB appends 0x80,
				 * others replicate */
				unsigned a = (unsigned)e0[part][c], z = (unsigned)e1[part][c];
				unsigned c0 = a << 8 | (srgb ? 0x80 : a), c1 = z << 8 | (srgb ? 0x80 : z);
				o[c] = channel((c0 * (64 - w) + c1 * w + 32) >> 6, srgb);
			}
		}
}

/* The last block decoded by this thread, whole: a filter's footprint
 * reads up to four texels of one block. */
static _Thread_local struct {
	bool valid, srgb;
	unsigned bw, bh;
	uint8_t key[16];
	float texels[144][4];
} last;

void fmt_astc_texel(const uint8_t *b, unsigned bw, unsigned bh, unsigned x, unsigned y,
		    bool srgb, float out[4])
{
	if (!last.valid || last.bw != bw || last.bh != bh || last.srgb != srgb ||
	    memcmp(last.key, b, 16)) {
		decode_block(b, bw, bh, srgb, last.texels);
		memcpy(last.key, b, 16);
		last.bw = bw;
		last.bh = bh;
		last.srgb = srgb;
		last.valid = true;
	}
	memcpy(out, last.texels[y * bw + x], 4 * sizeof(float));
}
