/* XY_TEXT_IMMEDIATE_BLT (BDW PRM vol. 2a): a glyph drawn with the state of
 * the last XY_SETUP_BLT (destination, ROP, clipping, foreground and
 * background colours, Mono Source Transparency Mode): the rectangle
 * [X1, X2) x [Y1, Y2) from the inline 1 bpp data, rows byte packed (each
 * on a byte, the most significant bit first, no padding between rows: the
 * glyphs of xf86-video-intel's SNA, which sets bit 16). Faults: bit-packed
 * data, too little data, no XY_SETUP_BLT, and XY_TEXT_BLT (data in memory:
 * described by header only). */
#include "gpu/blt/blt.h"

#include "gpu/blt/blt_rect.h"
#include "gpu/cs/mi.h"

enum cs_result blt_xy_text_immediate(struct gt_engine *e, const struct cmd_desc *d,
				     const uint32_t *dw, uint32_t len)
{
	int gen = cs_gen(e);
	struct cmd_XY_TEXT_IMMEDIATE_BLT c;
	cmd_XY_TEXT_IMMEDIATE_BLT_unpack(gen, dw, len, &c);
	if (!c.byte_packed)
		return cs_not_implemented(e, d, dw, len, "with bit-packed data");
	if (e->blt_setup_id != CMD_ID_XY_SETUP_BLT)
		return cs_not_implemented(e, d, dw, len, "without an XY_SETUP_BLT before it");
	struct blt_op op = { .cmd = d->name, .x1 = c.destination_x1, .y1 = c.destination_y1,
			     .x2 = c.destination_x2, .y2 = c.destination_y2 };
	struct blt_setup_pattern p;
	enum cs_result r = blt_setup_op(e, d, dw, len, c.destination_tiling_enable, &op, &p);
	if (r != CS_NEXT)
		return r;
	struct cmd_XY_SETUP_BLT s;
	cmd_XY_SETUP_BLT_unpack(gen, e->blt_setup, 10, &s);
	struct blt_mono_src m = {
		.stride = op.x2 > op.x1 ? (uint32_t)(op.x2 - op.x1 + 7) / 8 : 1,
		.c = { .fg = s.foreground_color, .bg = s.background_color,
		       .transparent = s.mono_source_transparency_mode } };
	return blt_run_mono_inline(e, d, &op, &m, dw, len,
				   cmd_XY_TEXT_IMMEDIATE_BLT_data_count(gen, len),
				   cmd_XY_TEXT_IMMEDIATE_BLT_data_at);
}
