/* XY_COLOR_BLT (BDW PRM vol. 2a "XY_COLOR_BLT"): fills the rectangle
 * [X1, X2) x [Y1, Y2) of the destination with the Solid Pattern Color
 * through the raster operation (PATCOPY 0xF0 fills), pixels of 1, 2 or 4
 * bytes, linear or X/Y tiled as XY_SRC_COPY_BLT's destination; the 32bpp
 * byte mask selects what is written; Clipping Enabled keeps it within the
 * clip rectangle. A raster operation that reads a source (the command has
 * none) is a GPU fault. */
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
	uint8_t colour[4];
	blt_color_bytes(c.solid_pattern_color, colour);
	struct blt_op op = { .pattern = colour };
	enum cs_result r = blt_op_dest(e, &op, d->name, BLT_DEST(c));
	return r == CS_NEXT ? blt_rect(e, &op) : r;
}
