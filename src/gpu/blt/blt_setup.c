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
#include "gpu/blt/blt_rect.h"
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

enum cs_result blt_setup_op(struct gt_engine *e, const struct cmd_desc *d, const uint32_t *dw,
			    uint32_t len, bool tiling_enable, struct blt_op *op,
			    struct blt_setup_pattern *p)
{
	int gen = cs_gen(e);
	const uint32_t *s = e->blt_setup;
	if (e->blt_setup_id == CMD_ID_XY_SETUP_BLT) {
		struct cmd_XY_SETUP_BLT c;
		cmd_XY_SETUP_BLT_unpack(gen, s, 10, &c);
		if (c.destination_tiling_enable != tiling_enable)
			return cs_not_implemented(e, d, dw, len, "with a Tiling Enable unlike its "
						  "XY_SETUP_BLT's");
		op->rop = (uint8_t)c.raster_operation;
		if (c.clipping_enabled)
			blt_op_clip(e, op);
		enum cs_result r = blt_dst_init(e, op, c.destination_base_address,
						c.destination_pitch, c.color_depth,
						c.destination_tiling_enable, c._32bpp_byte_mask);
		if (r != CS_NEXT)
			return r;
		op->pattern = p->pixels;
		op->pattern_8x8 = true;
		if (!blt_rop_uses_pattern(op->rop))
			return CS_NEXT;
		return blt_read_mem(e, d->name, "8x8 pattern", c.pattern_base_address, p->pixels,
				    64 * op->dst.cpp);
	}
	if (e->blt_setup_id == CMD_ID_XY_SETUP_MONO_PATTERN_SL_BLT) {
		struct cmd_XY_SETUP_MONO_PATTERN_SL_BLT c;
		cmd_XY_SETUP_MONO_PATTERN_SL_BLT_unpack(gen, s, 10, &c);
		if (c.destination_tiling_enable != tiling_enable)
			return cs_not_implemented(e, d, dw, len, "with a Tiling Enable unlike its "
						  "XY_SETUP_MONO_PATTERN_SL_BLT's");
		op->rop = (uint8_t)c.raster_operation;
		if (c.clipping_enabled)
			blt_op_clip(e, op);
		if (c.solid_pattern_select) {
			blt_color_bytes(c.foreground_color, p->solid);
			op->pattern = p->solid;
		} else {
			for (unsigned i = 0; i < 8; i++)
				p->mono[i] = (uint8_t)(c.pattern_data >> (8 * i));
			op->mono_pattern = p->mono;
			op->pat_colors = (struct blt_mono_colors){
				.fg = c.foreground_color, .bg = c.background_color,
				.transparent = c.mono_pattern_transparency_mode };
		}
		return blt_dst_init(e, op, c.destination_base_address, c.destination_pitch,
				    c.color_depth, c.destination_tiling_enable,
				    c._32bpp_byte_mask);
	}
	return cs_not_implemented(e, d, dw, len, "without an XY_SETUP_BLT or "
				  "XY_SETUP_MONO_PATTERN_SL_BLT before it");
}
