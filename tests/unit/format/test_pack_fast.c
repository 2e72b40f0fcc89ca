/* The specialised render target packers (pack_fast.c) against the
 * conversion of the format spec written out here (PRM vol. 7 "Render
 * Target Write" data conversion; IEEE 754 binary16 through the compiler's
 * _Float16, round to nearest even) and, bit for bit, against the generic
 * format_pack(): over every channel of every format covered, edge values
 * (NaN, +-inf, +-0, denormals, 0.5 and the rounding midpoints k/max and
 * (k + 1/2)/max with their neighbours, the largest and smallest halves,
 * values just past them) and pseudo-random bit patterns. The eight-element
 * packers (format_pack8_fast) against the same spec and, bit for bit, the
 * single-element ones, over the same inputs taken eight at a time. */
#include <math.h>
#include <string.h>

#include "gpu/format/pack_fast.h"
#include "test.h"

enum kind { UNORM, HALF, RAW32, UINT8 };

/* A format's layout from its name: channel c (R, G, B, A) at shift[c]
 * with bits[c] bits (0: absent). */
struct layout {
	uint32_t fmt;
	enum kind kind;
	unsigned bytes;
	unsigned shift[4], bits[4];
};

static const struct layout layouts[] = {
	{ FMT_R8G8B8A8_UNORM, UNORM, 4, { 0, 8, 16, 24 }, { 8, 8, 8, 8 } },
	{ FMT_B8G8R8A8_UNORM, UNORM, 4, { 16, 8, 0, 24 }, { 8, 8, 8, 8 } },
	{ FMT_R10G10B10A2_UNORM, UNORM, 4, { 0, 10, 20, 30 }, { 10, 10, 10, 2 } },
	{ FMT_B10G10R10A2_UNORM, UNORM, 4, { 20, 10, 0, 30 }, { 10, 10, 10, 2 } },
	{ FMT_B5G6R5_UNORM, UNORM, 2, { 11, 5, 0, 0 }, { 5, 6, 5, 0 } },
	{ FMT_R8_UNORM, UNORM, 1, { 0 }, { 8 } },
	{ FMT_R8G8_UNORM, UNORM, 2, { 0, 8 }, { 8, 8 } },
	{ FMT_R16G16B16A16_UNORM, UNORM, 8, { 0, 16, 32, 48 }, { 16, 16, 16, 16 } },
	{ FMT_R16G16B16A16_FLOAT, HALF, 8, { 0, 16, 32, 48 }, { 16, 16, 16, 16 } },
	{ FMT_R16G16_FLOAT, HALF, 4, { 0, 16 }, { 16, 16 } },
	{ FMT_R16_FLOAT, HALF, 2, { 0 }, { 16 } },
	{ FMT_R32G32B32A32_FLOAT, RAW32, 16, { 0, 32, 64, 96 }, { 32, 32, 32, 32 } },
	{ FMT_R32G32B32A32_UINT, RAW32, 16, { 0, 32, 64, 96 }, { 32, 32, 32, 32 } },
	{ FMT_R32G32B32A32_SINT, RAW32, 16, { 0, 32, 64, 96 }, { 32, 32, 32, 32 } },
	{ FMT_R32G32_FLOAT, RAW32, 8, { 0, 32 }, { 32, 32 } },
	{ FMT_R32G32_UINT, RAW32, 8, { 0, 32 }, { 32, 32 } },
	{ FMT_R32G32_SINT, RAW32, 8, { 0, 32 }, { 32, 32 } },
	{ FMT_R32_FLOAT, RAW32, 4, { 0 }, { 32 } },
	{ FMT_R32_UINT, RAW32, 4, { 0 }, { 32 } },
	{ FMT_R32_SINT, RAW32, 4, { 0 }, { 32 } },
	{ FMT_R8G8B8A8_UINT, UINT8, 4, { 0, 8, 16, 24 }, { 8, 8, 8, 8 } },
};

/* UNORM: NaN -> 0, clamp to [0, 1], x * (2^n - 1) to the nearest integer
 * (long double holds the product exactly; no float in [0, 1] lands on a
 * tie other than 0.5, whose (2^n - 1) / 2 rounds up in either rule). */
static uint64_t spec_unorm(float f, unsigned bits)
{
	if (isnan(f) || f <= 0)
		return 0;
	long double max = (long double)((1ull << bits) - 1);
	if (f >= 1)
		return (uint64_t)max;
	long double x = (long double)f * max, fl = floorl(x);
	return (uint64_t)(x - fl >= 0.5L ? fl + 1 : fl);
}

static uint64_t spec_half(float f)
{
	_Float16 h = (_Float16)f;
	uint16_t u;
	memcpy(&u, &h, 2);
	return u;
}

static void spec_pack(const struct layout *l, const union fmt_value in[4], uint8_t out[16])
{
	memset(out, 0, 16);
	for (int c = 0; c < 4; c++) {
		if (!l->bits[c])
			continue;
		uint64_t v;
		switch (l->kind) {
		case UNORM: v = spec_unorm(in[c].f, l->bits[c]); break;
		case HALF: v = spec_half(in[c].f); break;
		case RAW32: v = in[c].u; break;
		default: v = in[c].u > 255 ? 255 : in[c].u; break;
		}
		for (unsigned b = 0; b < l->bits[c]; b++)
			if (v >> b & 1)
				out[(l->shift[c] + b) / 8] |= (uint8_t)(1u << ((l->shift[c] + b) % 8));
	}
}

static bool is_half_nan(const uint8_t *p)
{
	uint16_t u;
	memcpy(&u, p, 2);
	return (u & 0x7c00) == 0x7c00 && (u & 0x3ff);
}

static unsigned failures;

static void check(const struct layout *l, fmt_pack_fn fast, const union fmt_value in[4])
{
	uint8_t a[16], b[16], s[16];
	memset(a, 0xa5, sizeof(a));
	memset(b, 0, sizeof(b));
	fast(in, a);
	int gen = format_pack(format_info(l->fmt), in, b);
	spec_pack(l, in, s);
	bool same = !gen && !memcmp(a, b, l->bytes);
	bool spec = true;
	if (l->kind == HALF) {
		/* NaN: any NaN (the payload is not specified) */
		for (unsigned o = 0; o < l->bytes; o += 2)
			spec = spec && (is_half_nan(s + o) ? is_half_nan(a + o) : !memcmp(a + o, s + o, 2));
	} else {
		spec = !memcmp(a, s, l->bytes);
	}
	if ((!same || !spec) && failures++ < 10)
		fprintf(stderr, "%s: in %08x %08x %08x %08x: fast %02x%02x, generic %02x%02x, "
			"spec %02x%02x (bytes 1, 0)\n", format_name(l->fmt), in[0].u, in[1].u,
			in[2].u, in[3].u, a[1], a[0], b[1], b[0], s[1], s[0]);
	CHECK(same);
	CHECK(spec);
}

/* The eight elements in[0..7] through the eight-element packer, from
 * registers laid out as the RT write message's (a register per channel,
 * element i in dword i), each against the single-element packer and the
 * spec; nothing written past the eight elements. */
static void check8(const struct layout *l, fmt_pack_fn fast, fmt_pack8_fn fast8,
		   const union fmt_value in[8][4])
{
	uint8_t reg[4][32], out[8 * 16 + 16];
	const uint8_t *ch[4] = { reg[0], reg[1], reg[2], reg[3] };
	for (unsigned i = 0; i < 8; i++)
		for (unsigned c = 0; c < 4; c++)
			memcpy(reg[c] + 4 * i, &in[i][c], 4);
	memset(out, 0xa5, sizeof(out));
	fast8(ch, out);
	for (unsigned i = 0; i < 8; i++) {
		uint8_t one[16], s[16];
		fast(in[i], one);
		spec_pack(l, in[i], s);
		bool same = !memcmp(one, out + i * l->bytes, l->bytes);
		bool spec = true;
		for (unsigned o = 0; l->kind == HALF && o < l->bytes; o += 2)
			spec = spec && (is_half_nan(s + o) ? is_half_nan(out + i * l->bytes + o) :
					!memcmp(out + i * l->bytes + o, s + o, 2));
		if (l->kind != HALF)
			spec = !memcmp(out + i * l->bytes, s, l->bytes);
		if ((!same || !spec) && failures++ < 10)
			fprintf(stderr, "%s x8: element %u in %08x %08x %08x %08x: %02x%02x, "
				"single %02x%02x, spec %02x%02x (bytes 1, 0)\n", format_name(l->fmt),
				i, in[i][0].u, in[i][1].u, in[i][2].u, in[i][3].u,
				out[i * l->bytes + 1], out[i * l->bytes], one[1], one[0], s[1], s[0]);
		CHECK(same);
		CHECK(spec);
	}
	for (unsigned b = 8 * l->bytes; b < sizeof(out); b++)
		CHECK_EQ(out[b], 0xa5);
}

static float from_bits(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* Edge values of every kind, ~2000 of them. */
static unsigned edge_values(float *v)
{
	unsigned n = 0;
	static const uint32_t bits[] = {
		0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, 0x7f800000, 0xff800000,
		0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x007fffff, 0x00800000,
		0x3f000000, 0x3f7fffff, 0x3f800000, 0x3f800001, 0xbf800000, 0x477fe000,
		0x477ff000, 0x477fefff, 0x47800000, 0x38800000, 0x387fffff, 0x33800000,
		0x33800001, 0x337fffff, 0x33000000, 0x7f7fffff, 0xff7fffff,
	};
	for (unsigned i = 0; i < sizeof(bits) / 4; i++)
		v[n++] = from_bits(bits[i]);
	static const unsigned maxes[] = { 3, 31, 63, 255, 1023, 65535 };
	for (unsigned m = 0; m < 6; m++)
		for (unsigned k = 0; k <= 64; k++) {
			unsigned kk = maxes[m] > 64 ? k * (maxes[m] / 64) : k % (maxes[m] + 1);
			float mid = (float)((kk + 0.5) / maxes[m]), at = (float)((double)kk / maxes[m]);
			v[n++] = mid;
			v[n++] = nextafterf(mid, 0);
			v[n++] = nextafterf(mid, 2);
			v[n++] = at;
		}
	return n;
}

/* The eight-lane RGBA8/BGRA8 UNORM packers against the spec (long double)
 * over every float within 4096 ulps of each rounding midpoint
 * (k + 1/2) / 255, where an inexact product would round the other way,
 * and every 61st float from 2^-10 (below it every value gives 0) to past
 * 1.0, each in every channel and lane position. */
static unsigned sweep8(fmt_pack8_fn fast8, const unsigned shift[4], uint32_t u)
{
	uint32_t reg[4][8], out[8];
	const uint8_t *ch[4] = { (uint8_t *)reg[0], (uint8_t *)reg[1], (uint8_t *)reg[2],
				 (uint8_t *)reg[3] };
	uint64_t spec[8];
	for (unsigned k = 0; k < 8; k++)
		spec[k] = spec_unorm(from_bits(u + k), 8);
	for (unsigned i = 0; i < 8; i++)
		for (unsigned c = 0; c < 4; c++)
			reg[c][i] = u + (i + 2 * c) % 8;
	fast8(ch, out);
	unsigned bad = 0;
	for (unsigned i = 0; i < 8; i++)
		for (unsigned c = 0; c < 4; c++) {
			uint64_t want = spec[(i + 2 * c) % 8];
			if ((out[i] >> shift[c] & 255) != want && bad++ < 5)
				fprintf(stderr, "unorm8 sweep: %08x -> %u, want %u\n", reg[c][i],
					out[i] >> shift[c] & 255, (unsigned)want);
		}
	return bad;
}

static void sweep_unorm8(void)
{
	static const uint32_t fmts[2] = { FMT_R8G8B8A8_UNORM, FMT_B8G8R8A8_UNORM };
	static const unsigned shifts[2][4] = { { 0, 8, 16, 24 }, { 16, 8, 0, 24 } };
	unsigned bad = 0;
	for (unsigned f = 0; f < 2; f++) {
		fmt_pack8_fn fast8 = format_pack8_fast(fmts[f]);
		for (unsigned k = 0; k < 255; k++) {
			float mid = (float)((k + 0.5) / 255);
			uint32_t m;
			memcpy(&m, &mid, 4);
			for (uint32_t u = m - 4096; u < m + 4096; u += 8)
				bad += sweep8(fast8, shifts[f], u);
		}
		for (uint32_t u = 0x3a800000u; u < 0x3f800000u + 64; u += 8 * 61)
			bad += sweep8(fast8, shifts[f], u);
	}
	CHECK_EQ(bad, 0u);
}

int main(void)
{
	sweep_unorm8();
	static float edges[4096];
	unsigned ne = edge_values(edges);
	uint32_t seed = 12345;
	unsigned covered = 0;
	for (unsigned f = 0; f < sizeof(layouts) / sizeof(layouts[0]); f++) {
		const struct layout *l = &layouts[f];
		fmt_pack_fn fast = format_pack_fast(l->fmt);
		fmt_pack8_fn fast8 = format_pack8_fast(l->fmt);
		CHECK(fast != NULL);
		CHECK(fast8 != NULL);
		if (!fast || !fast8)
			continue;
		union fmt_value in8[8][4];
		covered++;
		CHECK_EQ(format_info(l->fmt)->bpe, l->bytes * 8);
		union fmt_value in[4];
		/* each edge value in each channel, the others rotating */
		for (unsigned i = 0; i < ne; i++) {
			for (int c = 0; c < 4; c++)
				in[c].f = edges[(i + (unsigned)c * 7) % ne];
			check(l, fast, in);
			memcpy(in8[i % 8], in, sizeof(in));
			if (i % 8 == 7)
				check8(l, fast, fast8, in8);
		}
		/* pseudo-random bit patterns, and random floats in [-0.25, 1.25) */
		for (unsigned i = 0; i < 20000; i++) {
			for (int c = 0; c < 4; c++) {
				seed = seed * 1664525u + 1013904223u;
				in[c].u = i % 2 ? seed : 0;
				if (!(i % 2))
					in[c].f = (float)(seed >> 8) / (float)(1u << 24) * 1.5f - 0.25f;
			}
			check(l, fast, in);
			memcpy(in8[i % 8], in, sizeof(in));
			if (i % 8 == 7)
				check8(l, fast, fast8, in8);
		}
	}
	CHECK_EQ(covered, sizeof(layouts) / sizeof(layouts[0]));
	/* formats left to the generic packer */
	CHECK(format_pack_fast(FMT_R8G8B8A8_UNORM_SRGB) == NULL);
	CHECK(format_pack8_fast(FMT_R8G8B8A8_UNORM_SRGB) == NULL);
	CHECK(format_pack_fast(FMT_B8G8R8X8_UNORM) == NULL);
	CHECK(format_pack_fast(FMT_R11G11B10_FLOAT) == NULL);
	return test_exit();
}
