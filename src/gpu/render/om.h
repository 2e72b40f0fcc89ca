/* The output merger (PRM vol. 2 "Pixel Pipeline": alpha test, depth and
 * stencil tests, color blending, logic ops, write masks): pure functions
 * on one pixel's values, used by the render target write and the depth
 * stage. Enum values are the hardware's (BLEND_STATE,
 * 3DSTATE_WM_DEPTH_STENCIL). Where the pixels live is the surface
 * module's (gpu/surface). */
#ifndef GTSIM_RENDER_OM_H
#define GTSIM_RENDER_OM_H

#include <stdbool.h>
#include <stdint.h>

enum om_blend_factor {
	BF_ONE = 1, BF_SRC_COLOR, BF_SRC_ALPHA, BF_DST_ALPHA, BF_DST_COLOR,
	BF_SRC_ALPHA_SATURATE, BF_CONST_COLOR, BF_CONST_ALPHA, BF_SRC1_COLOR,
	BF_SRC1_ALPHA, BF_ZERO = 17, BF_INV_SRC_COLOR, BF_INV_SRC_ALPHA,
	BF_INV_DST_ALPHA, BF_INV_DST_COLOR, BF_INV_CONST_COLOR = 23,
	BF_INV_CONST_ALPHA, BF_INV_SRC1_COLOR, BF_INV_SRC1_ALPHA,
};
enum om_blend_func { BLEND_ADD, BLEND_SUB, BLEND_REVSUB, BLEND_MIN, BLEND_MAX };
enum om_compare {
	CMP_ALWAYS, CMP_NEVER, CMP_LESS, CMP_EQUAL, CMP_LEQUAL, CMP_GREATER,
	CMP_NOTEQUAL, CMP_GEQUAL,
};
enum om_stencil_op {
	SOP_KEEP, SOP_ZERO, SOP_REPLACE, SOP_INCRSAT, SOP_DECRSAT, SOP_INCR,
	SOP_DECR, SOP_INVERT,
};
enum om_clamp_range { CLAMP_UNORM, CLAMP_SNORM, CLAMP_RTFORMAT };

/* One BLEND_STATE_ENTRY (per render target) plus the BLEND_STATE bits
 * that apply to it. */
struct om_blend_rt {
	bool enable;
	uint8_t src, dst, func;            /* colour */
	uint8_t src_a, dst_a, func_a;      /* alpha (independent alpha blend) */
	bool pre_clamp, post_clamp;
	uint8_t clamp_range;               /* enum om_clamp_range */
	bool logic_enable;
	uint8_t logic_op;                  /* 3D_Logic_Op_Function, 0..15 */
	uint8_t write_disable;             /* bit 0 R, 1 G, 2 B, 3 A */
};

/* Blend one pixel: src (and src1 for dual-source factors), the
 * destination dst and the constant colour; result in out. Follows the
 * PRM's formula: out = func(src * factor_s, dst * factor_d) per channel,
 * MIN/MAX ignoring the factors. */
void om_blend(const struct om_blend_rt *b, const float src[4], const float src1[4],
	      const float dst[4], const float constant[4], float out[4]);
float om_blend_factor(unsigned factor, int ch, const float src[4], const float src1[4],
		      const float dst[4], const float constant[4]);
/* Clamp to the range of the clamp mode (RTFORMAT: unorm 0..1 when
 * rt_unorm, snorm -1..1 when rt_snorm, else nothing). */
void om_clamp(float v[4], unsigned range, bool rt_unorm, bool rt_snorm);

/* Logic op on raw bits: op(s, d) bitwise. */
uint32_t om_logic_op(unsigned op, uint32_t s, uint32_t d);

/* Compare functions: passes when `ref func stored` holds (src vs. dst).
 * Inline: the depth test's loops compare a pixel at a time. */
#define OM_COMPARE(func, s, d)                                \
	switch (func) {                                       \
	case CMP_ALWAYS: return true;                         \
	case CMP_NEVER: return false;                         \
	case CMP_LESS: return s < d;                          \
	case CMP_EQUAL: return s == d;                        \
	case CMP_LEQUAL: return s <= d;                       \
	case CMP_GREATER: return s > d;                       \
	case CMP_NOTEQUAL: return s != d;                     \
	case CMP_GEQUAL: return s >= d;                       \
	default: return false;                                \
	}
static inline bool om_compare(unsigned func, float src, float dst)
{
	OM_COMPARE(func, src, dst)
}
static inline bool om_compare_u(unsigned func, uint32_t src, uint32_t dst)
{
	OM_COMPARE(func, src, dst)
}
/* The stencil operation on an 8-bit value. */
uint8_t om_stencil_op(unsigned op, uint8_t value, uint8_t ref);

/* Alpha test (BLEND_STATE Alpha Test Function vs. COLOR_CALC_STATE's
 * reference). */
bool om_alpha_test(unsigned func, float alpha, float ref);

/* Alpha to coverage: the samples alpha covers of n (gtsim's rule; the
 * hardware's dither patterns are not modelled): the first
 * floor(alpha * n + 1/2) samples, alpha clamped to [0, 1], NaN none. */
uint32_t om_alpha_to_coverage(float alpha, unsigned n);

#endif
