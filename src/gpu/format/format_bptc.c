/* BPTC unorm (ARB_texture_compression_bptc's COMPRESSED_RGBA_BPTC_UNORM,
 * D3D's BC7): 16-byte blocks of 4x4 texels read from the lowest bit up.
 * The mode is the number of 0 bits before the first 1; it fixes the
 * subsets (1-3, split by one of 64 partitions), the endpoint precisions,
 * p-bits (per endpoint or per subset, appended as the lowest bit), the
 * rotation and index-selection fields and the index widths. Endpoints are
 * extended to 8 bits by replicating their top bits; texel = ((64 - w) e0 +
 * w e1 + 32) >> 6 with the spec's weights for 2, 3 or 4-bit indices; the
 * first texel of each subset (its anchor) has one index bit less. */
#include "gpu/format/format_block.h"

struct bc7_mode {
	uint8_t subsets, partition_bits, rotation_bits, isel_bits, colour_bits, alpha_bits;
	uint8_t endpoint_pbits, shared_pbits, index_bits, index2_bits;
};

static const struct bc7_mode modes[8] = {
	{ 3, 4, 0, 0, 4, 0, 1, 0, 3, 0 }, { 2, 6, 0, 0, 6, 0, 0, 1, 3, 0 },
	{ 3, 6, 0, 0, 5, 0, 0, 0, 2, 0 }, { 2, 6, 0, 0, 7, 0, 1, 0, 2, 0 },
	{ 1, 0, 2, 1, 5, 6, 0, 0, 2, 3 }, { 1, 0, 2, 0, 7, 8, 0, 0, 2, 2 },
	{ 1, 0, 0, 0, 7, 7, 1, 0, 4, 0 }, { 2, 6, 0, 0, 5, 5, 1, 0, 2, 0 },
};

/* Table.P2: bit i set when texel i is in subset 1. */
static const uint16_t partition2[64] = {
	0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80, 0xc800, 0xffec, 0xfe80,
	0xe800, 0xffe8, 0xff00, 0xfff0, 0xf000, 0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310,
	0x3100, 0x8cce, 0x088c, 0x3110, 0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c, 0xaaaa,
	0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696, 0xa55a, 0x73ce, 0x13c8, 0x324c, 0x3bdc,
	0x6996, 0xc33c, 0x9966, 0x0660, 0x0272, 0x04e4, 0x4e40, 0x2720, 0xc936, 0x936c, 0x39c6,
	0x639c, 0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
};

/* Table.P3: texel i's subset in bits 2i + 1..2i. */
static const uint32_t partition3[64] = {
	0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050, 0x5555a0a0,
	0x5a5a5050, 0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090, 0x94949494, 0xa4a4a4a4,
	0xa9a59450, 0x2a0a4250, 0xa5945040, 0x0a425054, 0xa5a5a500, 0x55a0a0a0, 0xa8a85454,
	0x6a6a4040, 0xa4a45000, 0x1a1a0500, 0x0050a4a4, 0xaaa59090, 0x14696914, 0x69691400,
	0xa08585a0, 0xaa821414, 0x50a4a450, 0x6a5a0200, 0xa9a58000, 0x5090a0a8, 0xa8a09050,
	0x24242424, 0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50, 0x500aa550, 0xaaaa4444,
	0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600, 0xaa444444,
	0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580, 0xaa141414, 0x96960000,
	0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000, 0x40804080, 0xa9a8a9a8, 0xaaaaaa44,
	0x2a4a5254,
};

/* Anchor texels: Table.A2 (subset 1 of two), A3a and A3b (subsets 1 and 2
 * of three). */
static const uint8_t anchor2[64] = {
	15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2, 8, 2, 2, 8,
	8, 15, 2, 8, 2, 2, 8, 8, 2, 2, 15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15,
	15, 6, 6, 2, 6, 8, 15, 15, 2, 2, 15, 15, 15, 15, 15, 2, 2, 15,
};
static const uint8_t anchor3a[64] = {
	3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3, 3, 3, 8, 15, 3, 3,
	6, 10, 5, 8, 8, 6, 8, 5, 15, 15, 8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5,
	15, 15, 15, 15, 3, 15, 5, 5, 5, 8, 5, 10, 5, 10, 8, 13, 15, 12, 3, 3,
};
static const uint8_t anchor3b[64] = {
	15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8, 15, 8, 15, 3, 15, 8,
	15, 8, 3, 15, 6, 10, 15, 15, 10, 8, 15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15,
	3, 6, 6, 8, 15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
};

static const uint8_t weights2[4] = { 0, 21, 43, 64 };
static const uint8_t weights3[8] = { 0, 9, 18, 27, 37, 46, 55, 64 };
static const uint8_t weights4[16] = { 0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64 };

int fmt_bptc_weight(unsigned bits, unsigned index)
{
	return bits == 2 ? weights2[index & 3] : bits == 3 ? weights3[index & 7] : weights4[index & 15];
}

unsigned fmt_bptc_subset(unsigned subsets, unsigned partition, unsigned texel)
{
	if (subsets == 2)
		return partition2[partition] >> texel & 1;
	if (subsets == 3)
		return partition3[partition] >> (2 * texel) & 3;
	return 0;
}

bool fmt_bptc_anchor(unsigned subsets, unsigned partition, unsigned texel)
{
	if (texel == 0)
		return true;
	if (subsets == 2)
		return texel == anchor2[partition];
	if (subsets == 3)
		return texel == anchor3a[partition] || texel == anchor3b[partition];
	return false;
}

/* Where texel t's index starts in an index field at `at` of `bits`-bit
 * indices (anchors one bit less), and its width. */
static unsigned index_at(unsigned at, unsigned bits, unsigned subsets, unsigned partition,
			 unsigned t, unsigned *width)
{
	for (unsigned i = 0; i < t; i++)
		at += bits - fmt_bptc_anchor(subsets, partition, i);
	*width = bits - fmt_bptc_anchor(subsets, partition, t);
	return at;
}

static int expand(unsigned v, unsigned bits)
{
	v <<= 8 - bits;
	return (int)(v | v >> bits);
}

void fmt_bc7_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	(void)flags;
	unsigned mode = 0;
	while (mode < 8 && !(b[0] >> mode & 1))
		mode++;
	if (mode == 8) {                /* reserved: zeros */
		out[0] = out[1] = out[2] = out[3] = 0.0f;
		return;
	}
	const struct bc7_mode *m = &modes[mode];
	unsigned at = mode + 1, t = 4 * y + x, n = 2 * m->subsets;
	unsigned partition = fmt_block_bits(b, at, m->partition_bits);
	at += m->partition_bits;
	unsigned rotation = fmt_block_bits(b, at, m->rotation_bits);
	at += m->rotation_bits;
	unsigned isel = fmt_block_bits(b, at, m->isel_bits);
	at += m->isel_bits;
	unsigned ep[6][4];
	for (unsigned c = 0; c < 4; c++) {
		unsigned bits = c < 3 ? m->colour_bits : m->alpha_bits;
		for (unsigned e = 0; e < n; e++) {
			ep[e][c] = bits ? fmt_block_bits(b, at, bits) : 255;
			at += bits;
		}
	}
	unsigned cbits = m->colour_bits, abits = m->alpha_bits;
	if (m->endpoint_pbits || m->shared_pbits) {
		for (unsigned e = 0; e < n; e++) {
			unsigned p = m->endpoint_pbits ? fmt_block_bits(b, at + e, 1)
						       : fmt_block_bits(b, at + e / 2, 1);
			for (unsigned c = 0; c < 4; c++)
				if (c < 3 || abits)
					ep[e][c] = ep[e][c] << 1 | p;
		}
		at += m->endpoint_pbits ? n : m->subsets;
		cbits++;
		if (abits)
			abits++;
	}
	unsigned s = fmt_bptc_subset(m->subsets, partition, t), w1;
	int e0[4], e1[4];
	for (unsigned c = 0; c < 4; c++) {
		unsigned bits = c < 3 ? cbits : abits;
		e0[c] = bits ? expand(ep[2 * s][c], bits) : 255;
		e1[c] = bits ? expand(ep[2 * s + 1][c], bits) : 255;
	}
	/* the primary index field, then the secondary one (modes 4 and 5) */
	unsigned i1at = index_at(at, m->index_bits, m->subsets, partition, t, &w1);
	int wc = fmt_bptc_weight(m->index_bits, fmt_block_bits(b, i1at, w1)), wa = wc;
	if (m->index2_bits) {
		unsigned at2 = at + 16 * m->index_bits - 1, w2;
		unsigned i2at = index_at(at2, m->index2_bits, 1, 0, t, &w2);
		int w = fmt_bptc_weight(m->index2_bits, fmt_block_bits(b, i2at, w2));
		if (isel)
			wc = w;
		else
			wa = w;
	}
	int v[4];
	for (unsigned c = 0; c < 4; c++) {
		int w = c < 3 ? wc : wa;
		v[c] = ((64 - w) * e0[c] + w * e1[c] + 32) >> 6;
	}
	if (rotation) {                 /* 1, 2, 3: A swapped with R, G, B */
		int tmp = v[3];
		v[3] = v[rotation - 1];
		v[rotation - 1] = tmp;
	}
	for (int c = 0; c < 4; c++)
		out[c] = (float)v[c] / 255.0f;
}
