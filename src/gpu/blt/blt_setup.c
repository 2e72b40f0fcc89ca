/* XY_SETUP_BLT and XY_SETUP_MONO_PATTERN_SL_BLT (BDW PRM vol. 2a): load the
 * blitter's setup state (destination, pitch, tiling, colour depth, byte
 * mask, ROP, clip enable, colours, the colour pattern's address or the
 * mono pattern) that XY_SCANLINES_BLT and XY_PIXEL_BLT draw with
 * (blt_scanlines.c), and the clip rectangle (BR24/BR25, as
 * XY_SETUP_CLIP_BLT). They draw nothing. The state is the engine's: the
 * command's dwords are kept and unpacked where they are used. */
#include "gpu/blt/blt.h"

#include <string.h>

#include "common/trace.h"
#include "gpu/cs/mi.h"

static void keep_setup(struct gt_engine *e, const struct cmd_desc *d, const uint32_t *dw,
		       uint32_t len, uint32_t x1, uint32_t y1, uint32_t x2, uint32_t y2)
{
	memset(e->blt_setup, 0, sizeof(e->blt_setup));
	memcpy(e->blt_setup, dw, (len < 10 ? len : 10) * sizeof(uint32_t));
	e->blt_setup_id = d->id;
	e->blt_clip_top_left = y1 << 16 | x1;
	e->blt_clip_bottom_right = y2 << 16 | x2;
	TRACE(TRACE_BLT, "%s: %s, clip (%u,%u)-(%u,%u)", e->name, d->name, x1, y1, x2, y2);
}

enum cs_result blt_xy_setup(struct gt_engine *e, const struct cmd_desc *d,
			    const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_SETUP_BLT c;
	cmd_XY_SETUP_BLT_unpack(cs_gen(e), dw, len, &c);
	keep_setup(e, d, dw, len, c.clip_rect_x1, c.clip_rect_y1, c.clip_rect_x2, c.clip_rect_y2);
	return CS_NEXT;
}

enum cs_result blt_xy_setup_mono_pattern_sl(struct gt_engine *e, const struct cmd_desc *d,
					    const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_SETUP_MONO_PATTERN_SL_BLT c;
	cmd_XY_SETUP_MONO_PATTERN_SL_BLT_unpack(cs_gen(e), dw, len, &c);
	keep_setup(e, d, dw, len, c.clip_rect_x1, c.clip_rect_y1, c.clip_rect_x2, c.clip_rect_y2);
	return CS_NEXT;
}
