/* Polygon stipple (PRM vol. 2a 3DSTATE_WM Polygon Stipple Enable,
 * 3DSTATE_POLY_STIPPLE_PATTERN, 3DSTATE_POLY_STIPPLE_OFFSET): a 32 x 32
 * pattern that masks the pixels of polygons (not lines or points). Pixel
 * (x, y) of the render target uses Pattern Row (y + Y Offset) mod 32 and,
 * in it, bit 31 - (x + X Offset) mod 32: the leftmost pixel in the most
 * significant bit. The sense of the offsets follows from Mesa's i965
 * driver, which renders GL's bottom-up stipple into a y-flipped window by
 * loading the rows in reverse with Y Offset (32 - height mod 32) mod 32;
 * only y + offset makes that correct for every height. */
#include <stdio.h>

#include "gpu/render/recorded.h"
#include "gpu/render/wm.h"

RENDER_RECORDED(3DSTATE_WM)
RENDER_RECORDED(3DSTATE_POLY_STIPPLE_PATTERN)
RENDER_RECORDED(3DSTATE_POLY_STIPPLE_OFFSET)

int wm_stipple_load(struct wm_state *w, int gen, const struct cs_state *st, char *why)
{
	struct cmd_3DSTATE_WM wm;
	recorded_3DSTATE_WM(gen, st, &wm);
	w->poly_stipple = wm.polygon_stipple_enable;
	if (!w->poly_stipple)
		return 0;
	struct cmd_3DSTATE_POLY_STIPPLE_PATTERN pat;
	if (!recorded_3DSTATE_POLY_STIPPLE_PATTERN(gen, st, &pat)) {
		snprintf(why, 160, "3DSTATE_WM: Polygon Stipple Enable with no "
			 "3DSTATE_POLY_STIPPLE_PATTERN loaded");
		return -1;
	}
	for (int i = 0; i < 32; i++)
		w->stipple_rows[i] = pat.pattern_row[i];
	struct cmd_3DSTATE_POLY_STIPPLE_OFFSET off;
	recorded_3DSTATE_POLY_STIPPLE_OFFSET(gen, st, &off);   /* none: offset 0 */
	w->stipple_x_offset = (uint8_t)off.polygon_stipple_x_offset;
	w->stipple_y_offset = (uint8_t)off.polygon_stipple_y_offset;
	return 0;
}

static bool stipple_bit(const struct wm_state *w, int32_t x, int32_t y)
{
	uint32_t row = w->stipple_rows[(uint32_t)(y + w->stipple_y_offset) & 31];
	return row >> (31 - ((uint32_t)(x + w->stipple_x_offset) & 31)) & 1;
}

uint64_t wm_stipple_quad_mask(const struct wm_state *w, int32_t x, int32_t y)
{
	uint64_t m = 0;
	for (unsigned p = 0; p < 4; p++)
		if (stipple_bit(w, x + (int32_t)(p & 1), y + (int32_t)(p >> 1)))
			m |= 0xffffull << (16 * p);
	return m;
}
