/* The output merger (PRM vol. 2 "Pixel Pipeline": alpha test, depth and
 * stencil tests, color blending, logic ops, write masks): pure functions
 * on one pixel's values, used by the render target write and the depth
 * stage. Enum values are the hardware's (BLEND_STATE, 3DSTATE_WM_DEPTH_STENCIL). */
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

/* Compare functions: passes when `ref func stored` holds (src vs. dst). */
bool om_compare(unsigned func, float src, float dst);
bool om_compare_u(unsigned func, uint32_t src, uint32_t dst);
/* The stencil operation on an 8-bit value. */
uint8_t om_stencil_op(unsigned op, uint8_t value, uint8_t ref);

/* Alpha test (BLEND_STATE Alpha Test Function vs. COLOR_CALC_STATE's
 * reference). */
bool om_alpha_test(unsigned func, float alpha, float ref);

/* A surface the output merger writes: a render target (RENDER_SURFACE_STATE)
 * or the depth or stencil buffer. */
enum om_tiling { OM_LINEAR, OM_TILE_W, OM_TILE_X, OM_TILE_Y }; /* Tile Mode values */
struct om_surface {
	uint64_t base;             /* graphics address */
	uint32_t width, height;    /* pixels */
	uint32_t pitch;            /* bytes per row (of tiles' rows when tiled) */
	uint32_t cpp;              /* bytes per pixel */
	uint32_t format;           /* SURFACE_FORMAT (render targets) */
	uint8_t tiling;            /* enum om_tiling */
	uint32_t x_offset, y_offset; /* pixels added to every position */
};

/* Byte offset of pixel (x, y) from the surface's base; false when (x, y)
 * is outside the surface (the write is dropped). */
bool om_surface_offset(const struct om_surface *s, uint32_t x, uint32_t y, uint64_t *off);

/* Where mip level `level` of a 1D/2D surface of w x h pixels starts, in
 * pixels from level 0's origin (PRM vol. 5 "Surface Layout", 2D: level 1
 * below level 0, level 2 right of level 1, each later level below the one
 * before; every level's size rounded up to the alignments), and its size. */
void om_level_layout(uint32_t w, uint32_t h, uint32_t halign, uint32_t valign, uint32_t level,
		     uint32_t *x, uint32_t *y, uint32_t *lw, uint32_t *lh);

/* Gen8 3D surfaces (PRM vol. 5 "Surface Layout", 3D): level l keeps its
 * max(1, d >> l) slices side by side in rows of 2^l, each level's rows
 * below the previous level's; QPitch does not apply. (Gen9 lays 3D
 * surfaces out as 2D arrays, QPitch apart.) */
struct om_layout_3d {
	bool on;
	uint32_t w, h, d;          /* level 0's size */
	uint32_t halign, valign;
	uint32_t level;
};
/* Where slice z of the level starts, in pixels from level 0's origin. */
void om_3d_slice_origin(const struct om_layout_3d *l, uint32_t z, uint32_t *x, uint32_t *y);

#endif
