/* Colour blending (PRM vol. 2 "Color Buffer Blending"): factors and
 * functions per BLEND_STATE_ENTRY, colour and alpha separately. */
#include "gpu/render/om.h"

static float clampf(float v, float lo, float hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

float om_blend_factor(unsigned factor, int ch, const float src[4], const float src1[4],
		      const float dst[4], const float constant[4])
{
	switch (factor) {
	case BF_ONE: return 1.0f;
	case BF_ZERO: return 0.0f;
	case BF_SRC_COLOR: return src[ch];
	case BF_SRC_ALPHA: return src[3];
	case BF_DST_ALPHA: return dst[3];
	case BF_DST_COLOR: return dst[ch];
	case BF_SRC_ALPHA_SATURATE:
		/* f = min(As, 1 - Ad) for colour, 1 for alpha */
		if (ch == 3)
			return 1.0f;
		return src[3] < 1.0f - dst[3] ? src[3] : 1.0f - dst[3];
	case BF_CONST_COLOR: return constant[ch];
	case BF_CONST_ALPHA: return constant[3];
	case BF_SRC1_COLOR: return src1[ch];
	case BF_SRC1_ALPHA: return src1[3];
	case BF_INV_SRC_COLOR: return 1.0f - src[ch];
	case BF_INV_SRC_ALPHA: return 1.0f - src[3];
	case BF_INV_DST_ALPHA: return 1.0f - dst[3];
	case BF_INV_DST_COLOR: return 1.0f - dst[ch];
	case BF_INV_CONST_COLOR: return 1.0f - constant[ch];
	case BF_INV_CONST_ALPHA: return 1.0f - constant[3];
	case BF_INV_SRC1_COLOR: return 1.0f - src1[ch];
	case BF_INV_SRC1_ALPHA: return 1.0f - src1[3];
	default: return 0.0f;      /* reserved encodings: deterministic zero */
	}
}

static float blend_func(unsigned func, float s, float fs, float d, float fd)
{
	switch (func) {
	case BLEND_ADD: return s * fs + d * fd;
	case BLEND_SUB: return s * fs - d * fd;
	case BLEND_REVSUB: return d * fd - s * fs;
	case BLEND_MIN: return s < d ? s : d;
	case BLEND_MAX: return s > d ? s : d;
	default: return s;
	}
}

void om_clamp(float v[4], unsigned range, bool rt_unorm, bool rt_snorm)
{
	float lo, hi;
	if (range == CLAMP_UNORM || (range == CLAMP_RTFORMAT && rt_unorm)) {
		lo = 0.0f; hi = 1.0f;
	} else if (range == CLAMP_SNORM || (range == CLAMP_RTFORMAT && rt_snorm)) {
		lo = -1.0f; hi = 1.0f;
	} else {
		return;
	}
	for (int i = 0; i < 4; i++)
		v[i] = clampf(v[i], lo, hi);
}

void om_blend(const struct om_blend_rt *b, const float src[4], const float src1[4],
	      const float dst[4], const float constant[4], float out[4])
{
	for (int ch = 0; ch < 4; ch++) {
		unsigned sf = ch == 3 ? b->src_a : b->src;
		unsigned df = ch == 3 ? b->dst_a : b->dst;
		unsigned fn = ch == 3 ? b->func_a : b->func;
		out[ch] = blend_func(fn, src[ch], om_blend_factor(sf, ch, src, src1, dst, constant),
				     dst[ch], om_blend_factor(df, ch, src, src1, dst, constant));
	}
}

bool om_alpha_test(unsigned func, float alpha, float ref)
{
	return om_compare(func, alpha, ref);
}
