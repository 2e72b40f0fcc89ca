/* Four 32-bit values to one element: the render target write's conversion
 * (PRM vol. 7 "Render Target Write" data conversion): UNORM clamps to
 * [0, 1] and rounds x * (2^n - 1) to nearest; SNORM clamps to [-1, 1];
 * sRGB encodes R, G, B first; FLOAT narrows with round to nearest even;
 * UINT/SINT clamp the integer to the channel's range. */
#include <math.h>
#include <string.h>

#include "gpu/format/format.h"

static void put_bits(uint8_t *p, unsigned shift, unsigned bits, uint64_t v)
{
	for (unsigned i = 0; i < bits; i++) {
		unsigned bit = shift + i;
		uint8_t m = (uint8_t)(1u << (bit % 8));
		if ((v >> i) & 1)
			p[bit / 8] |= m;
		else
			p[bit / 8] &= (uint8_t)~m;
	}
}

static double clampd(double x, double lo, double hi)
{
	if (!(x >= lo))        /* NaN -> lo */
		return lo;
	return x > hi ? hi : x;
}

static uint64_t encode(const struct fmt_channel *c, union fmt_value v, bool srgb)
{
	double max;
	switch (c->type) {
	case FMT_T_UNORM: {
		/* UNORM channels are at most 32 bits (R32_UNORM) */
		return fmt_float_to_unorm(srgb ? fmt_linear_to_srgb(v.f) : v.f, c->bits);
	}
	case FMT_T_SNORM: {
		max = (double)((1ull << (c->bits - 1)) - 1);
		int64_t s = (int64_t)floor(clampd(v.f, -1, 1) * max + 0.5);
		return (uint64_t)s & ((1ull << c->bits) - 1);
	}
	case FMT_T_UINT: {
		uint64_t m = c->bits >= 32 ? 0xffffffffull : (1ull << c->bits) - 1;
		return v.u > m ? m : v.u;
	}
	case FMT_T_SINT: {
		int64_t hi = c->bits >= 32 ? INT32_MAX : (1ll << (c->bits - 1)) - 1;
		int64_t lo = -hi - 1, s = v.i;
		s = s < lo ? lo : s > hi ? hi : s;
		return (uint64_t)s & (c->bits >= 64 ? ~0ull : (1ull << c->bits) - 1);
	}
	case FMT_T_FLOAT:
		if (c->bits == 32)
			return v.u;
		if (c->bits == 16)
			return fmt_float_to_half(v.f);
		if (c->bits == 64) {
			double d = v.f;
			uint64_t u;
			memcpy(&u, &d, 8);
			return u;
		}
		return fmt_float_to_ufloat(v.f, c->bits - 5);
	case FMT_T_USCALED:
		return (uint64_t)clampd(floor(v.f + 0.5), 0, (double)((1ull << c->bits) - 1));
	case FMT_T_SSCALED: {
		double hi = (double)((1ll << (c->bits - 1)) - 1);
		int64_t s = (int64_t)clampd(floor(v.f + 0.5), -hi - 1, hi);
		return (uint64_t)s & ((1ull << c->bits) - 1);
	}
	default:
		return 0;
	}
}

int format_pack(const struct fmt_info *fi, const union fmt_value in[4], void *dst)
{
	if (!fi || !fi->supported || fi->shared_exp || fi->ch[0].type == FMT_T_PASSTHRU)
		return -1;
	uint8_t *p = dst;
	if (fi->raw32) {
		/* 32-bit FLOAT/UINT/SINT channels in order: encode() is the
		 * identity on them */
		memcpy(p, in, fi->bpe / 8);
		return 0;
	}
	for (int c = 0; c < 4; c++) {
		const struct fmt_channel *ch = &fi->ch[c];
		if (ch->bits && ch->type != FMT_T_X)
			put_bits(p, ch->shift, ch->bits, encode(ch, in[c], fi->srgb && c < 3));
	}
	return 0;
}
