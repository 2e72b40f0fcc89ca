/* BPTC float (BC6H) blocks built field by field (ARB_texture_compression_
 * bptc, D3D11 BC6H): mode 11 ("00011": one subset, 10-bit endpoints
 * r0 g0 b0 r1 g1 b1 stored plainly, 4-bit indices) unsigned and signed, and
 * mode 14 ("01111": 16-bit first endpoint, the second as 4-bit signed
 * deltas, bit order r0 g0 b0 [0..9], r1 [0..3], r0 [15..10], ...),
 * against the spec's unquantization, interpolation and half scaling
 * written here, the halves read with the IEEE 754 binary16 formula. */
#include <math.h>
#include <string.h>

#include "gpu/format/format.h"
#include "test.h"

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

static float half(unsigned h)
{
	unsigned e = h >> 10 & 31, m = h & 1023;
	float v = e ? ldexpf(1.0f + m / 1024.0f, (int)e - 15) : ldexpf(m / 1024.0f, -14);
	return h & 0x8000 ? -v : v;
}

/* unsigned: 0 and 2^bits - 1 kept at the ends, else ((v << 16) + 0x8000) >> bits */
static int unq_u(int v, int bits)
{
	return bits >= 15 || v == 0 ? v : v == (1 << bits) - 1 ? 0xffff : ((v << 16) + 0x8000) >> bits;
}

static int unq_s(int v, int bits)
{
	int m = v < 0 ? -v : v;
	int q = bits >= 16 ? m : m == 0 ? 0 : m >= (1 << (bits - 1)) - 1 ? 0x7fff
							: ((m << 15) + 0x4000) >> (bits - 1);
	return v < 0 ? -q : q;
}

static void check(uint32_t fmt, const uint8_t *b, unsigned t, const float want[3])
{
	union fmt_value v[4];
	CHECK_EQ(format_decode_texel(format_info(fmt), b, t % 4, t / 4, v), 0);
	for (int c = 0; c < 3; c++)
		if (v[c].f != want[c]) {
			fprintf(stderr, "  fmt %u texel %u channel %d: %.9g vs %.9g\n", fmt, t, c,
				v[c].f, want[c]);
			CHECK(0);
		}
	CHECK_EQ(v[3].f, 1.0f);
}

static unsigned idx(unsigned t)
{
	return t ? (t * 7) % 16 : 6;
}

static void test_mode11(void)
{
	const int e[2][3] = { { 0, 1023, 300 }, { 700, 5, 1022 } };
	struct writer w = { { 0 }, 0 };
	put(&w, 5, 3);                                 /* 00011 */
	for (int k = 0; k < 2; k++)
		for (int c = 0; c < 3; c++)
			put(&w, 10, (unsigned)e[k][c] & 1023);
	for (unsigned t = 0; t < 16; t++)
		put(&w, t ? 4 : 3, idx(t));
	CHECK_EQ(w.at, 128u);
	for (unsigned t = 0; t < 16; t++) {
		float want[3];
		for (int c = 0; c < 3; c++) {
			int a = unq_u(e[0][c], 10), z = unq_u(e[1][c], 10), wt = w4[idx(t)];
			int v = ((64 - wt) * a + wt * z + 32) >> 6;
			want[c] = half((unsigned)(v * 31 >> 6));      /* unsigned: 31/64 */
		}
		check(FMT_BC6H_UF16, w.b, t, want);
	}
	/* the same bits signed: 10-bit two's complement endpoints */
	for (unsigned t = 0; t < 16; t++) {
		float want[3];
		for (int c = 0; c < 3; c++) {
			int s0 = e[0][c] >= 512 ? e[0][c] - 1024 : e[0][c];
			int s1 = e[1][c] >= 512 ? e[1][c] - 1024 : e[1][c];
			int a = unq_s(s0, 10), z = unq_s(s1, 10), wt = w4[idx(t)];
			int v = ((64 - wt) * a + wt * z + 32) >> 6;
			want[c] = half(v < 0 ? 0x8000u | (unsigned)((-v) * 31 >> 5) : (unsigned)(v * 31 >> 5));
		}
		check(FMT_BC6H_SF16, w.b, t, want);
	}
}

static void test_mode14(void)
{
	const int e0[3] = { 0x3c00, 0x1234, 0xfff0 }, d[3] = { 7, -8, -1 };   /* 4-bit deltas */
	struct writer w = { { 0 }, 0 };
	put(&w, 5, 15);                                /* 01111 */
	for (int c = 0; c < 3; c++)
		put(&w, 10, (unsigned)e0[c] & 1023);
	for (int c = 0; c < 3; c++) {
		put(&w, 4, (unsigned)d[c] & 15);
		for (int bit = 15; bit >= 10; bit--)   /* r0[15..10] reversed */
			put(&w, 1, (unsigned)e0[c] >> bit & 1);
	}
	for (unsigned t = 0; t < 16; t++)
		put(&w, t ? 4 : 3, idx(t));
	CHECK_EQ(w.at, 128u);
	for (unsigned t = 0; t < 16; t++) {
		float want[3];
		for (int c = 0; c < 3; c++) {
			int e1 = (e0[c] + d[c]) & 0xffff;      /* 16 bits: unquantized as is */
			int wt = w4[idx(t)];
			int v = ((64 - wt) * e0[c] + wt * e1 + 32) >> 6;
			want[c] = half((unsigned)(v * 31 >> 6));
		}
		check(FMT_BC6H_UF16, w.b, t, want);
	}
}

int main(void)
{
	test_mode11();
	test_mode14();
	return test_exit();
}
