/* Small-float and sRGB conversions (IEEE 754 binary16; the unsigned 11- and
 * 10-bit floats of R11G11B10_FLOAT, PRM vol. 7 "Unsigned Float"; sRGB
 * transfer functions of the sRGB standard, as the PRM uses them). */
#include <math.h>
#include <string.h>

#include "gpu/format/format.h"

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

float fmt_half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
	if (exp == 0x1f)                       /* inf, nan */
		return u2f(sign | 0x7f800000u | (man << 13));
	if (exp == 0)                          /* zero, denormal: man * 2^-24 */
		return sign ? -ldexpf((float)man, -24) : ldexpf((float)man, -24);
	return u2f(sign | ((exp + 112) << 23) | (man << 13));
}

/* A non-negative finite float as an unsigned float with 5 exponent bits
 * (bias 15) and mbits mantissa bits, rounded to nearest even; values too
 * large saturate to the largest finite value unless sat_inf. */
static uint32_t to_small_float(uint32_t u, int mbits, bool sat_inf)
{
	uint32_t max_exp = 0x1f;
	int exp = (int)((u >> 23) & 0xff) - 127 + 15;
	uint32_t man = u & 0x7fffff;
	if (exp >= (int)max_exp)
		return sat_inf ? max_exp << mbits : ((max_exp - 1) << mbits) | ((1u << mbits) - 1);
	int shift = 23 - mbits;
	if (exp <= 0) {                        /* denormal result */
		if (exp < -mbits)
			return 0;
		man |= 0x800000;
		shift += 1 - exp;
		exp = 0;
	}
	uint32_t r = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
	if (rem > half || (rem == half && (r & 1)))
		r++;
	/* a carry out of the mantissa moves to the exponent naturally */
	uint32_t v = ((uint32_t)exp << mbits) + r;
	if ((v >> mbits) >= max_exp)
		return sat_inf ? max_exp << mbits : ((max_exp - 1) << mbits) | ((1u << mbits) - 1);
	return v;
}

uint16_t fmt_float_to_half(float f)
{
	uint32_t u = f2u(f), sign = (u >> 16) & 0x8000;
	if ((u & 0x7f800000u) == 0x7f800000u)  /* inf, nan */
		return (uint16_t)(sign | 0x7c00 | ((u & 0x7fffff) ? 0x200 : 0));
	return (uint16_t)(sign | to_small_float(u & 0x7fffffffu, 10, true));
}

float fmt_ufloat_to_float(uint32_t v, int mbits)
{
	uint32_t exp = (v >> mbits) & 0x1f, man = v & ((1u << mbits) - 1);
	if (exp == 0x1f)
		return man ? NAN : INFINITY;
	if (exp == 0)
		return ldexpf((float)man, -14 - mbits);
	return ldexpf((float)(man | (1u << mbits)), (int)exp - 15 - mbits);
}

uint32_t fmt_float_to_ufloat(float f, int mbits)
{
	if (isnan(f))
		return (0x1fu << mbits) | 1;
	if (f <= 0)                            /* negatives clamp to 0 */
		return 0;
	if (isinf(f))
		return 0x1fu << mbits;
	return to_small_float(f2u(f), mbits, false);
}

float fmt_srgb_to_linear(float s)
{
	if (s <= 0.04045f)
		return s / 12.92f;
	return powf((s + 0.055f) / 1.055f, 2.4f);
}

float fmt_linear_to_srgb(float l)
{
	if (!(l > 0))
		return 0;
	if (l >= 1)
		return 1;
	if (l < 0.0031308f)
		return l * 12.92f;
	return 1.055f * powf(l, 1.0f / 2.4f) - 0.055f;
}
