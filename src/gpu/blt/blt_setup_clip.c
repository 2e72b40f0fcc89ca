/* XY_SETUP_CLIP_BLT (BDW PRM vol. 2a "XY_SETUP_CLIP_BLT"): loads the
 * blitter's clip rectangle (BR24, BR25), which an XY_* command uses only
 * when its Clipping Enabled bit is set. It draws nothing. IGT emits it
 * with a zero rectangle after every copy within one object (a Gen6+
 * workaround, lib/intel_batchbuffer.c), with clipping left disabled.
 * Commands that enable clipping are still GPU faults (blt_color.c,
 * blt_copy.c): only the rectangle is kept here. */
#include "gpu/blt/blt.h"

#include "common/trace.h"
#include "gpu/cs/mi.h"

enum cs_result blt_xy_setup_clip(struct gt_engine *e, const struct cmd_desc *d,
				 const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_SETUP_CLIP_BLT c;
	cmd_XY_SETUP_CLIP_BLT_unpack(cs_gen(e), dw, len, &c);
	e->blt_clip_top_left = c.clip_rect_y1 << 16 | c.clip_rect_x1;
	e->blt_clip_bottom_right = c.clip_rect_y2 << 16 | c.clip_rect_x2;
	TRACE(TRACE_BLT, "%s: %s (%u,%u)-(%u,%u)", e->name, d->name, c.clip_rect_x1,
	      c.clip_rect_y1, c.clip_rect_x2, c.clip_rect_y2);
	return CS_NEXT;
}
