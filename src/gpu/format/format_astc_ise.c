/* ASTC's integer sequence encoding and unquantization (Khronos Data Format
 * Specification, ASTC: "Integer Sequence Encoding", "Color Endpoint
 * Unquantization", "Weight Unquantization"). A range of n levels is stored
 * as b plain bits per value plus, for n = 3 * 2^b, one trit per value (five
 * trits packed in 8 bits) or, for n = 5 * 2^b, one quint (three in 7 bits);
 * a value is trit (quint) * 2^b + bits. */
#include <stddef.h>

#include "gpu/format/format_astc.h"

static const uint16_t levels_list[] = { 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48,
					64, 80, 96, 128, 160, 192, 256 };

int fmt_astc_ise_shape(unsigned levels, struct astc_ise *s)
{
	for (size_t i = 0; i < sizeof(levels_list) / sizeof(levels_list[0]); i++) {
		if (levels_list[i] != levels)
			continue;
		s->levels = levels;
		s->trits = levels % 3 == 0;
		s->quints = levels % 5 == 0;
		unsigned p = levels / (s->trits ? 3 : s->quints ? 5 : 1);
		s->bits = 0;
		while ((1u << s->bits) < p)
			s->bits++;
		return 0;
	}
	return -1;
}

unsigned fmt_astc_ise_size(const struct astc_ise *s, unsigned n)
{
	unsigned bits = n * s->bits;
	if (s->trits)
		bits += (8 * n + 4) / 5;
	if (s->quints)
		bits += (7 * n + 2) / 3;
	return bits;
}

/* The next n bits of the stream, 0 past its end. */
static unsigned take(struct astc_bits *r, unsigned n)
{
	unsigned v = 0;
	for (unsigned i = 0; i < n; i++, r->pos++)
		if (r->pos < r->end)
			v |= (unsigned)((r->data[r->pos / 8] >> (r->pos % 8)) & 1) << i;
	return v;
}

static unsigned bit(unsigned v, unsigned i)
{
	return (v >> i) & 1;
}

/* Five trits from their 8-bit packing T (the specification's decoding). */
static void unpack_trits(unsigned T, unsigned t[5])
{
	unsigned C;
	if (((T >> 2) & 7) == 7) {
		C = (T >> 5 & 7) << 2 | (T & 3);
		t[4] = t[3] = 2;
	} else {
		C = T & 0x1f;
		if (((T >> 5) & 3) == 3) {
			t[4] = 2;
			t[3] = bit(T, 7);
		} else {
			t[4] = bit(T, 7);
			t[3] = (T >> 5) & 3;
		}
	}
	if ((C & 3) == 3) {
		t[2] = 2;
		t[1] = bit(C, 4);
		t[0] = bit(C, 3) << 1 | (bit(C, 2) & !bit(C, 3));
	} else if (((C >> 2) & 3) == 3) {
		t[2] = t[1] = 2;
		t[0] = C & 3;
	} else {
		t[2] = bit(C, 4);
		t[1] = (C >> 2) & 3;
		t[0] = bit(C, 1) << 1 | (bit(C, 0) & !bit(C, 1));
	}
}

/* Three quints from their 7-bit packing Q. */
static void unpack_quints(unsigned Q, unsigned q[3])
{
	if (((Q >> 1) & 3) == 3 && ((Q >> 5) & 3) == 0) {
		q[2] = bit(Q, 0) << 2 | (bit(Q, 4) & !bit(Q, 0)) << 1 | (bit(Q, 3) & !bit(Q, 0));
		q[1] = q[0] = 4;
		return;
	}
	unsigned C;
	if (((Q >> 1) & 3) == 3) {
		q[2] = 4;
		C = ((Q >> 3) & 3) << 3 | (~(Q >> 5) & 3) << 1 | (Q & 1);
	} else {
		q[2] = (Q >> 5) & 3;
		C = Q & 0x1f;
	}
	if ((C & 7) == 5) {
		q[1] = 4;
		q[0] = (C >> 3) & 3;
	} else {
		q[1] = (C >> 3) & 3;
		q[0] = C & 7;
	}
}

void fmt_astc_ise_decode(const struct astc_ise *s, struct astc_bits *r, unsigned n,
			 uint8_t *out)
{
	unsigned m[5], extra[5];
	for (unsigned i = 0; i < n; ) {
		if (s->trits) {
			/* m0 T1:0 m1 T3:2 m2 T4 m3 T6:5 m4 T7 */
			static const uint8_t tbits[5] = { 2, 2, 1, 2, 1 };
			unsigned T = 0, at = 0;
			for (unsigned k = 0; k < 5; k++) {
				m[k] = take(r, s->bits);
				T |= take(r, tbits[k]) << at;
				at += tbits[k];
			}
			unpack_trits(T, extra);
			for (unsigned k = 0; k < 5 && i < n; k++, i++)
				out[i] = (uint8_t)(extra[k] << s->bits | m[k]);
		} else if (s->quints) {
			/* m0 Q2:0 m1 Q4:3 m2 Q6:5 */
			static const uint8_t qbits[3] = { 3, 2, 2 };
			unsigned Q = 0, at = 0;
			for (unsigned k = 0; k < 3; k++) {
				m[k] = take(r, s->bits);
				Q |= take(r, qbits[k]) << at;
				at += qbits[k];
			}
			unpack_quints(Q, extra);
			for (unsigned k = 0; k < 3 && i < n; k++, i++)
				out[i] = (uint8_t)(extra[k] << s->bits | m[k]);
		} else {
			out[i++] = (uint8_t)take(r, s->bits);
		}
	}
}

/* Replicate the b-bit value v to width bits. */
static unsigned replicate(unsigned v, unsigned b, unsigned width)
{
	unsigned out = 0, have = 0;
	while (have < width) {
		out = out << b | v;
		have += b;
	}
	return out >> (have - width);
}

/* The specification's unquantization for trit and quint ranges: A the low
 * bit replicated, B from the other bits by the range's table, C the scale,
 * D the trit/quint; T = D * C + B, T ^= A, then (A & top) | T >> 2. */
static unsigned unquant_tq(const struct astc_ise *s, unsigned v, bool weight)
{
	unsigned d = v >> s->bits, low = v & ((1u << s->bits) - 1);
	unsigned a = (low & 1) ? (weight ? 0x7f : 0x1ff) : 0, x = low >> 1, b = 0, c = 0;
	if (!weight) {
		switch (s->levels) {
		case 6: c = 204; break;
		case 10: c = 113; break;
		case 12: c = 93; b = x << 8 | x << 4 | x << 2 | x << 1; break;          /* b000b0bb0 */
		case 20: c = 54; b = x << 8 | x << 3 | x << 2; break;                   /* b0000bb00 */
		case 24: c = 44; b = x << 7 | x << 2 | x; break;                        /* cb000cbcb */
		case 40: c = 26; b = x << 7 | x << 1 | x >> 1; break;                   /* cb0000cbc */
		case 48: c = 22; b = x << 6 | x; break;                                 /* dcb000dcb */
		case 80: c = 13; b = x << 6 | x >> 1; break;                            /* dcb0000dc */
		case 96: c = 11; b = x << 5 | x >> 2; break;                            /* edcb000ed */
		case 160: c = 6; b = x << 5 | x >> 3; break;                            /* edcb0000e */
		case 192: c = 5; b = x << 4 | x >> 4; break;                            /* fedcb000f */
		}
		unsigned t = (d * c + b) ^ a;
		return (a & 0x80) | t >> 2;
	}
	switch (s->levels) {
	case 3: return (const uint8_t[]){ 0, 32, 63 }[d];
	case 5: return (const uint8_t[]){ 0, 16, 32, 47, 63 }[d];
	case 6: c = 50; break;
	case 10: c = 28; break;
	case 12: c = 23; b = x << 6 | x << 2 | x; break;                                /* b000b0b */
	case 20: c = 13; b = x << 6 | x << 1; break;                                    /* b0000b0 */
	case 24: c = 11; b = x << 5 | x; break;                                         /* cb000cb */
	}
	unsigned t = (d * c + b) ^ a;
	return (a & 0x20) | t >> 2;
}

unsigned fmt_astc_unquant_color(const struct astc_ise *s, unsigned v)
{
	if (!s->trits && !s->quints)
		return replicate(v, s->bits, 8);
	return unquant_tq(s, v, false);
}

unsigned fmt_astc_unquant_weight(const struct astc_ise *s, unsigned v)
{
	unsigned w = !s->trits && !s->quints ? replicate(v, s->bits, 6) : unquant_tq(s, v, true);
	return w > 32 ? w + 1 : w;          /* 0..63 to 0..64 */
}
