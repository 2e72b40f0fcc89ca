/* One element of any supported format to four 32-bit values: the vertex
 * fetcher's "Format Conversion" (PRM vol. 2 VF) and the sampler's read of a
 * texel share it. UNORM x / (2^n - 1); SNORM max(x / (2^(n-1) - 1), -1);
 * USCALED/SSCALED the integer as a float; SFIXED 16.16; integers extended. */
#include <math.h>
#include <string.h>

#include "gpu/format/format.h"

/* Bits [shift, shift + bits) of the element, bits <= 64. */
static uint64_t get_bits(const uint8_t *p, unsigned shift, unsigned bits)
{
	uint64_t v = 0;
	unsigned first = shift / 8, last = (shift + bits - 1) / 8;
	for (unsigned b = last + 1; b-- > first; )
		v = (v << 8) | p[b];
	v >>= shift % 8;
	return bits == 64 ? v : v & ((1ull << bits) - 1);
}

static int64_t sign_extend(uint64_t v, unsigned bits)
{
	return bits == 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static union fmt_value convert(const struct fmt_channel *c, uint64_t raw, bool srgb)
{
	union fmt_value out;
	double max;
	switch (c->type) {
	case FMT_T_UNORM:
		max = (double)((c->bits == 64 ? ~0ull : (1ull << c->bits) - 1));
		out.f = (float)((double)raw / max);
		if (srgb)
			out.f = fmt_srgb_to_linear(out.f);
		break;
	case FMT_T_SNORM:
		max = (double)((1ull << (c->bits - 1)) - 1);
		out.f = (float)fmax((double)sign_extend(raw, c->bits) / max, -1.0);
		break;
	case FMT_T_UINT:
		out.u = (uint32_t)raw;
		break;
	case FMT_T_SINT:
		out.i = (int32_t)sign_extend(raw, c->bits);
		break;
	case FMT_T_USCALED:
		out.f = (float)raw;
		break;
	case FMT_T_SSCALED:
		out.f = (float)sign_extend(raw, c->bits);
		break;
	case FMT_T_SFIXED:
		out.f = (float)((double)sign_extend(raw, c->bits) / 65536.0);
		break;
	case FMT_T_FLOAT:
		if (c->bits == 32) {
			uint32_t u = (uint32_t)raw;
			memcpy(&out.f, &u, 4);
		} else if (c->bits == 16) {
			out.f = fmt_half_to_float((uint16_t)raw);
		} else if (c->bits == 64) {
			double d;
			memcpy(&d, &raw, 8);
			out.f = (float)d;
		} else {
			out.f = fmt_ufloat_to_float((uint32_t)raw, c->bits - 5);
		}
		break;
	default:
		out.u = 0;
		break;
	}
	return out;
}

/* R9G9B9E5: three 9-bit mantissas sharing a 5-bit exponent (bias 15, no
 * implied one): value = m * 2^(e - 15 - 9). */
static void unpack_shared_exp(const uint8_t *p, union fmt_value out[4])
{
	uint32_t v = (uint32_t)get_bits(p, 0, 32);
	int e = (int)(v >> 27) - 15 - 9;
	for (int c = 0; c < 3; c++)
		out[c].f = ldexpf((float)((v >> (9 * c)) & 0x1ff), e);
	out[3].f = 1.0f;
}

int format_unpack(const struct fmt_info *fi, const void *src, union fmt_value out[4])
{
	const uint8_t *p = src;
	if (!fi || !fi->supported)
		return -1;
	if (fi->shared_exp) {
		unpack_shared_exp(p, out);
		return 0;
	}
	if (fi->ch[0].type == FMT_T_PASSTHRU) {
		/* 64-bit channels copied as dwords: R.lo, R.hi, G.lo, G.hi */
		unsigned bytes = fi->bpe / 8 < 16 ? fi->bpe / 8 : 16;
		memset(out, 0, 16);
		memcpy(out, p, bytes);
		return 0;
	}
	if (fi->raw32) {
		/* R32..R32G32B32A32 FLOAT/UINT/SINT: the dwords themselves */
		unsigned n = fi->bpe / 32;
		memcpy(out, p, n * 4);
		for (unsigned c = n; c < 4; c++)
			out[c].u = c < 3 ? 0 : format_is_integer(fi) ? 1 : 0x3f800000u;
		return 0;
	}
	bool integer = format_is_integer(fi);
	for (int c = 0; c < 4; c++) {
		const struct fmt_channel *ch = &fi->ch[c];
		if (ch->bits && ch->type != FMT_T_X)
			out[c] = convert(ch, get_bits(p, ch->shift, ch->bits), fi->srgb && c < 3);
		else if (integer)
			out[c].u = c == 3 ? 1 : 0;
		else
			out[c].f = c == 3 ? 1.0f : 0.0f;
	}
	switch (fi->kind) {
	case FMT_LUMINANCE:
		out[1] = out[2] = out[0];
		break;
	case FMT_INTENSITY:
		out[1] = out[2] = out[3] = out[0];
		break;
	default:
		break;
	}
	return 0;
}
