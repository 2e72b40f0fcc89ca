/* XY_COLOR_BLT (BDW PRM vol. 2a "XY_COLOR_BLT"): fills the rectangle
 * [X1, X2) x [Y1, Y2) of the destination with the Solid Pattern Color
 * through the raster operation (PATCOPY 0xF0 fills), pixels of 1, 2 or 4
 * bytes, linear or X/Y tiled as XY_SRC_COPY_BLT's destination; the 32bpp
 * byte mask selects what is written. Not modelled, and so a GPU fault: a
 * raster operation that reads a source, clipping. */
#include "gpu/blt/blt.h"

#include "gpu/blt/blt_rect.h"
#include "gpu/cs/mi.h"

enum cs_result blt_xy_color(struct gt_engine *e, const struct cmd_desc *d,
			    const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_COLOR_BLT c;
	cmd_XY_COLOR_BLT_unpack(cs_gen(e), dw, len, &c);
	if (blt_rop_uses_source((uint8_t)c.raster_operation))
		return cs_not_implemented(e, d, dw, len, "with a raster operation that "
					  "reads a source");
	if (c.clipping_enabled)
		return cs_not_implemented(e, d, dw, len, "with clipping");
	uint32_t cpp = blt_color_depth_cpp(c.color_depth);
	/* the colour's low cpp bytes, little-endian as in memory */
	uint8_t colour[4] = { (uint8_t)c.solid_pattern_color, (uint8_t)(c.solid_pattern_color >> 8),
			      (uint8_t)(c.solid_pattern_color >> 16),
			      (uint8_t)(c.solid_pattern_color >> 24) };
	struct blt_op op = {
		.cmd = d->name,
		.x1 = c.destination_x1, .y1 = c.destination_y1,
		.x2 = c.destination_x2, .y2 = c.destination_y2,
		.pattern = colour, .rop = (uint8_t)c.raster_operation,
		.byte_mask = cpp == 4 ? c._32bpp_byte_mask : 3,
	};
	enum cs_result r = blt_surface_init(e, d->name, &op.dst, "destination",
					    c.destination_base_address, c.destination_pitch, cpp,
					    blt_xy_tiling(e, c.destination_tiling_enable, false));
	return r == CS_NEXT ? blt_rect(e, &op) : r;
}
