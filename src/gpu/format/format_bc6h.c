/* BPTC float (ARB_texture_compression_bptc's RGB_BPTC_SIGNED/UNSIGNED_
 * FLOAT, D3D's BC6H): 16-byte blocks of 4x4 RGB half-float texels. A 2-bit
 * (00, 01) or 5-bit mode selects one of 14 layouts of the endpoint bits
 * (below, from the spec's per-mode tables: "name:bit" or "name:first..last"
 * in the order the bits follow the mode), then a 5-bit partition (two
 * subsets, the first 32 partitions of BC7's Table.P2) and 3-bit indices,
 * or one subset with 4-bit indices; anchors have one index bit less.
 * Transformed modes store endpoints after the first as signed deltas from
 * it (modulo 2^bits). Endpoints are sign-extended for the signed format,
 * unquantized to 16 bits (unsigned: 0 and the maximum kept, else
 * ((v << 16) + 0x8000) >> bits; signed on the magnitude, 15 bits),
 * interpolated ((64 - w) e0 + w e1 + 32) >> 6, and scaled to a half:
 * unsigned v * 31 / 64, signed |v| * 31 / 32 with v's sign. Reserved modes
 * decode to 0. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/format/format.h"
#include "gpu/format/format_block.h"

struct bc6h_mode {
	uint8_t subsets;
	bool transformed;
	uint8_t endpoint_bits, delta_bits[3];
	const char *layout;
};

static const struct bc6h_mode modes[14] = {
	{ 2, true, 10, { 5, 5, 5 },
	  "g2:4 b2:4 b3:4 r0:0..9 g0:0..9 b0:0..9 r1:0..4 g3:4 g2:0..3 g1:0..4 b3:0 g3:0..3 b1:0..4 b3:1 b2:0..3 r2:0..4 b3:2 r3:0..4 b3:3" },
	{ 2, true, 7, { 6, 6, 6 },
	  "g2:5 g3:4..5 r0:0..6 b3:0..1 b2:4 g0:0..6 b2:5 b3:2 g2:4 b0:0..6 b3:3 b3:5..4 r1:0..5 g2:0..3 g1:0..5 g3:0..3 b1:0..5 b2:0..3 r2:0..5 r3:0..5" },
	{ 2, true, 11, { 5, 4, 4 },
	  "r0:0..9 g0:0..9 b0:0..9 r1:0..4 r0:10 g2:0..3 g1:0..3 g0:10 b3:0 g3:0..3 b1:0..3 b0:10 b3:1 b2:0..3 r2:0..4 b3:2 r3:0..4 b3:3" },
	{ 2, true, 11, { 4, 5, 4 },
	  "r0:0..9 g0:0..9 b0:0..9 r1:0..3 r0:10 g3:4 g2:0..3 g1:0..4 g0:10 g3:0..3 b1:0..3 b0:10 b3:1 b2:0..3 r2:0..3 b3:0 b3:2 r3:0..3 g2:4 b3:3" },
	{ 2, true, 11, { 4, 4, 5 },
	  "r0:0..9 g0:0..9 b0:0..9 r1:0..3 r0:10 b2:4 g2:0..3 g1:0..3 g0:10 b3:0 g3:0..3 b1:0..4 b0:10 b2:0..3 r2:0..3 b3:1..2 r3:0..3 b3:4..3" },
	{ 2, true, 9, { 5, 5, 5 },
	  "r0:0..8 b2:4 g0:0..8 g2:4 b0:0..8 b3:4 r1:0..4 g3:4 g2:0..3 g1:0..4 b3:0 g3:0..3 b1:0..4 b3:1 b2:0..3 r2:0..4 b3:2 r3:0..4 b3:3" },
	{ 2, true, 8, { 6, 5, 5 },
	  "r0:0..7 g3:4 b2:4 g0:0..7 b3:2 g2:4 b0:0..7 b3:3..4 r1:0..5 g2:0..3 g1:0..4 b3:0 g3:0..3 b1:0..4 b3:1 b2:0..3 r2:0..5 r3:0..5" },
	{ 2, true, 8, { 5, 6, 5 },
	  "r0:0..7 b3:0 b2:4 g0:0..7 g2:5..4 b0:0..7 g3:5 b3:4 r1:0..4 g3:4 g2:0..3 g1:0..5 g3:0..3 b1:0..4 b3:1 b2:0..3 r2:0..4 b3:2 r3:0..4 b3:3" },
	{ 2, true, 8, { 5, 5, 6 },
	  "r0:0..7 b3:1 b2:4 g0:0..7 b2:5 g2:4 b0:0..7 b3:5..4 r1:0..4 g3:4 g2:0..3 g1:0..4 b3:0 g3:0..3 b1:0..5 b2:0..3 r2:0..4 b3:2 r3:0..4 b3:3" },
	{ 2, false, 6, { 6, 6, 6 },
	  "r0:0..5 g3:4 b3:0..1 b2:4 g0:0..5 g2:5 b2:5 b3:2 g2:4 b0:0..5 g3:5 b3:3 b3:5..4 r1:0..5 g2:0..3 g1:0..5 g3:0..3 b1:0..5 b2:0..3 r2:0..5 r3:0..5" },
	{ 1, false, 10, { 10, 10, 10 },
	  "r0:0..9 g0:0..9 b0:0..9 r1:0..9 g1:0..9 b1:0..9" },
	{ 1, true, 11, { 9, 9, 9 },
	  "r0:0..9 g0:0..9 b0:0..9 r1:0..8 r0:10 g1:0..8 g0:10 b1:0..8 b0:10" },
	{ 1, true, 12, { 8, 8, 8 },
	  "r0:0..9 g0:0..9 b0:0..9 r1:0..7 r0:11..10 g1:0..7 g0:11..10 b1:0..7 b0:11..10" },
	{ 1, true, 16, { 4, 4, 4 },
	  "r0:0..9 g0:0..9 b0:0..9 r1:0..3 r0:15..10 g1:0..3 g0:15..10 b1:0..3 b0:15..10" },
};

/* The layouts as (endpoint word << 4 | bit) per header bit; words r0 g0 b0
 * r1 g1 b1 r2 g2 b2 r3 g3 b3. */
static uint8_t layout_bits[14][75];
static uint8_t layout_len[14];
static pthread_once_t layouts_once = PTHREAD_ONCE_INIT;

static void parse_layouts(void)
{
	for (int m = 0; m < 14; m++) {
		const char *p = modes[m].layout;
		unsigned n = 0;
		while (*p) {
			while (*p == ' ')
				p++;
			if (!*p)
				break;
			unsigned channel = (unsigned)(strchr("rgb", p[0]) - "rgb"), end = (unsigned)(p[1] - '0');
			char *q;
			long first = strtol(p + 3, &q, 10), last = first;
			if (q[0] == '.' && q[1] == '.')
				last = strtol(q + 2, &q, 10);
			for (long b = first;; b += last >= first ? 1 : -1) {
				if (n < 75)
					layout_bits[m][n++] = (uint8_t)((3 * end + channel) << 4 | (unsigned)b);
				if (b == last)
					break;
			}
			p = q;
		}
		layout_len[m] = (uint8_t)n;
	}
}

static int sext(int v, unsigned bits)
{
	return bits >= 32 ? v : (int)((unsigned)v << (32 - bits)) >> (32 - bits);
}

static int unquantize(int v, unsigned bits, bool is_signed)
{
	if (!is_signed) {
		if (bits >= 15 || v == 0)
			return v;
		if (v == (1 << bits) - 1)
			return 0xffff;
		return ((v << 16) + 0x8000) >> bits;
	}
	if (bits >= 16)
		return v;
	int mag = v < 0 ? -v : v, q;
	if (mag == 0)
		q = 0;
	else if (mag >= (1 << (bits - 1)) - 1)
		q = 0x7fff;
	else
		q = ((mag << 15) + 0x4000) >> (bits - 1);
	return v < 0 ? -q : q;
}

void fmt_bc6h_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4])
{
	pthread_once(&layouts_once, parse_layouts);
	bool is_signed = flags & FMT_BLK_SIGNED;
	unsigned m2 = b[0] & 3, m5 = b[0] & 31, mode, at;
	if (m2 < 2) {
		mode = m2;
		at = 2;
	} else {
		mode = (m2 == 2 ? 2 : 10) + (m5 >> 2);
		at = 5;
	}
	out[3] = 1.0f;
	if (mode >= 14) {
		out[0] = out[1] = out[2] = 0.0f;
		return;
	}
	const struct bc6h_mode *md = &modes[mode];
	int e[12] = { 0 };
	for (unsigned i = 0; i < layout_len[mode]; i++, at++)
		e[layout_bits[mode][i] >> 4] |= (int)fmt_block_bits(b, at, 1) << (layout_bits[mode][i] & 15);
	unsigned partition = 0, n = 2 * md->subsets, t = 4 * y + x;
	if (md->subsets == 2) {
		partition = fmt_block_bits(b, at, 5);
		at += 5;
	}
	unsigned eb = md->endpoint_bits;
	for (unsigned c = 0; c < 3; c++) {
		if (is_signed)
			e[c] = sext(e[c], eb);
		for (unsigned k = 1; k < n; k++) {
			int *v = &e[3 * k + c];
			if (md->transformed)
				*v = (e[c] + sext(*v, md->delta_bits[c])) & ((1 << eb) - 1);
			if (is_signed)
				*v = sext(*v, eb);
		}
	}
	unsigned s = fmt_bptc_subset(md->subsets, partition, t);
	unsigned bits = md->subsets == 2 ? 3 : 4;
	for (unsigned i = 0; i < t; i++)
		at += bits - fmt_bptc_anchor(md->subsets, partition, i);
	unsigned width = bits - fmt_bptc_anchor(md->subsets, partition, t);
	int w = fmt_bptc_weight(bits, fmt_block_bits(b, at, width));
	for (unsigned c = 0; c < 3; c++) {
		int a = unquantize(e[6 * s + c], eb, is_signed), z = unquantize(e[6 * s + 3 + c], eb, is_signed);
		int v = ((64 - w) * a + w * z + 32) >> 6;
		uint16_t h = is_signed ? (uint16_t)(v < 0 ? 0x8000 | ((-v) * 31 >> 5) : v * 31 >> 5)
				       : (uint16_t)(v * 31 >> 6);
		out[c] = fmt_half_to_float(h);
	}
}
