/* XY_SCANLINES_BLT and XY_PIXEL_BLT (BDW PRM vol. 2a): a rectangle (a
 * scanline run) or one pixel drawn with the setup state of the last
 * XY_SETUP_BLT (its 8x8 colour pattern at Pattern Base Address) or
 * XY_SETUP_MONO_PATTERN_SL_BLT (its mono pattern and colours, or with Solid
 * Pattern Select the foreground colour): destination, pitch, tiling, colour
 * depth, byte mask, ROP and clipping are the setup's. There is no source:
 * a ROP reading one is a GPU fault, as is drawing with no setup loaded, or
 * a Tiling Enable that contradicts the setup's (the pitch's unit is the
 * setup's). */
#include "gpu/blt/blt.h"

#include "gpu/blt/blt_rect.h"
#include "gpu/cs/mi.h"

/* The pattern operands (8x8 colour pixels, a mono pattern, one colour). */
struct setup_pattern {
	uint8_t pixels[64 * 4];
	uint8_t mono[8];
	uint8_t solid[4];
};

static enum cs_result setup_op(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len, bool tiling_enable,
			       struct blt_op *op, struct setup_pattern *p)
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

static enum cs_result setup_draw(struct gt_engine *e, const struct cmd_desc *d,
				 const uint32_t *dw, uint32_t len, bool tiling_enable,
				 struct blt_op *op)
{
	struct setup_pattern p;
	enum cs_result r = setup_op(e, d, dw, len, tiling_enable, op, &p);
	if (r != CS_NEXT)
		return r;
	if (blt_rop_uses_source(op->rop))
		return cs_not_implemented(e, d, dw, len, "with a raster operation that "
					  "reads a source");
	return blt_rect(e, op);
}

enum cs_result blt_xy_scanlines(struct gt_engine *e, const struct cmd_desc *d,
				const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_SCANLINES_BLT c;
	cmd_XY_SCANLINES_BLT_unpack(cs_gen(e), dw, len, &c);
	struct blt_op op = {
		.cmd = d->name,
		.x1 = c.destination_x1, .y1 = c.destination_y1,
		.x2 = c.destination_x2, .y2 = c.destination_y2,
		.seed_x = c.pattern_horizontal_seed, .seed_y = c.pattern_vertical_seed,
	};
	return setup_draw(e, d, dw, len, c.destination_tiling_enable, &op);
}

enum cs_result blt_xy_pixel(struct gt_engine *e, const struct cmd_desc *d,
			    const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_PIXEL_BLT c;
	cmd_XY_PIXEL_BLT_unpack(cs_gen(e), dw, len, &c);
	struct blt_op op = {
		.cmd = d->name,
		.x1 = c.destination_x1, .y1 = c.destination_y1,
		.x2 = c.destination_x1 + 1, .y2 = c.destination_y1 + 1,
	};
	return setup_draw(e, d, dw, len, c.destination_tiling_enable, &op);
}
