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

static enum cs_result setup_draw(struct gt_engine *e, const struct cmd_desc *d,
				 const uint32_t *dw, uint32_t len, bool tiling_enable,
				 struct blt_op *op)
{
	struct blt_setup_pattern p;
	enum cs_result r = blt_setup_op(e, d, dw, len, tiling_enable, op, &p);
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
