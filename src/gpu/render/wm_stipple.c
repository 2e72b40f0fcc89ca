/* Polygon stipple (PRM vol. 2a 3DSTATE_WM Polygon Stipple Enable,
 * 3DSTATE_POLY_STIPPLE_PATTERN, 3DSTATE_POLY_STIPPLE_OFFSET): a 32 x 32
 * pattern that masks the pixels of polygons (not lines or points). Pixel
 * (x, y) of the render target uses Pattern Row (y + Y Offset) mod 32 and,
 * in it, bit 31 - (x + X Offset) mod 32: the leftmost pixel in the most
 * significant bit. The sense of the offsets follows from Mesa's i965
 * driver, which renders GL's bottom-up stipple into a y-flipped window by
 * loading the rows in reverse with Y Offset (32 - height mod 32) mod 32;
 * only y + offset makes that correct for every height.
 *
 * Line stipple (3DSTATE_WM Line Stipple Enable, 3DSTATE_LINE_STIPPLE; GL
 * 4.6 compatibility section 14.5.2.2): a line's fragments are counted
 * along its major axis from its first, s; fragment s is drawn when bit
 * (s / Repeat Count) mod 16 of the pattern is set. The counter restarts
 * at each line of a LINELIST and at the first segment of a strip or
 * loop, and goes on across a strip's segments (wm_draw.c). */
#include <math.h>
#include <stdio.h>

#include "gpu/render/recorded.h"
#include "gpu/render/wm.h"

RENDER_RECORDED(3DSTATE_WM)
RENDER_RECORDED(3DSTATE_POLY_STIPPLE_PATTERN)
RENDER_RECORDED(3DSTATE_POLY_STIPPLE_OFFSET)
RENDER_RECORDED(3DSTATE_LINE_STIPPLE)

static int line_stipple_load(struct wm_state *w, int gen, const struct cs_state *st, char *why)
{
	struct cmd_3DSTATE_LINE_STIPPLE ls;
	if (!recorded_3DSTATE_LINE_STIPPLE(gen, st, &ls)) {
		snprintf(why, 160, "3DSTATE_WM: Line Stipple Enable with no "
			 "3DSTATE_LINE_STIPPLE loaded");
		return -1;
	}
	if (ls.modify_enable_current_repeat_counter_current_stipple_index) {
		snprintf(why, 160, "3DSTATE_LINE_STIPPLE: Modify Enable (Current Repeat "
			 "Counter, Current Stipple Index) is not modelled");
		return -1;
	}
	if (ls.line_stipple_repeat_count == 0) {
		snprintf(why, 160, "3DSTATE_LINE_STIPPLE: Line Stipple Repeat Count 0 "
			 "(the PRM's range is 1..256)");
		return -1;
	}
	w->line_pattern = (uint16_t)ls.line_stipple_pattern;
	w->line_repeat = ls.line_stipple_repeat_count;
	return 0;
}

int wm_stipple_load(struct wm_state *w, int gen, const struct cs_state *st, char *why)
{
	struct cmd_3DSTATE_WM wm;
	recorded_3DSTATE_WM(gen, st, &wm);
	w->line_stipple = wm.line_stipple_enable;
	if (w->line_stipple && line_stipple_load(w, gen, st, why))
		return -1;
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

void wm_line_stipple_begin(struct line_stipple *ls, float ax, float ay, float bx, float by,
			   uint32_t s0)
{
	ls->xmajor = fabsf(bx - ax) >= fabsf(by - ay);
	ls->start = ls->xmajor ? ax : ay;
	float end = ls->xmajor ? bx : by;
	ls->dir = end >= ls->start ? 1.0f : -1.0f;
	ls->s0 = s0;
}

uint32_t wm_line_stipple_count(float ax, float ay, float bx, float by)
{
	bool xmajor = fabsf(bx - ax) >= fabsf(by - ay);
	double a = xmajor ? ax : ay, b = xmajor ? bx : by;
	/* centres c + 1/2 in [a, b) going up, in (b, a] going down */
	double n = b >= a ? ceil(b - 0.5) - ceil(a - 0.5) : floor(a - 0.5) - floor(b - 0.5);
	return n > 0 && n < 1e9 ? (uint32_t)n : 0;
}

uint64_t wm_line_stipple_mask(const struct wm_state *w, const struct line_stipple *ls,
			      int32_t x, int32_t y)
{
	uint64_t m = 0;
	for (unsigned p = 0; p < 4; p++) {
		double c = (ls->xmajor ? x + (int32_t)(p & 1) : y + (int32_t)(p >> 1)) + 0.5;
		double t = (c - ls->start) * ls->dir;
		uint32_t s = ls->s0 + (t > 0 ? (uint32_t)t : 0);
		if (w->line_pattern >> (s / w->line_repeat % 16) & 1)
			m |= 0xffffull << (16 * p);
	}
	return m;
}
