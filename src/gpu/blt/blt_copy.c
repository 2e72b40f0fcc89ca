/* XY_SRC_COPY_BLT (BDW PRM vol. 2a "XY_SRC_COPY_BLT"; the 2D blitter
 * chapter): the rectangle [X1, X2) x [Y1, Y2) of the destination from the
 * source rectangle at (Source X1, Source Y1) through the raster operation,
 * pixels of 1, 2 or 4 bytes (Color Depth), rows Pitch bytes apart (signed
 * on linear surfaces; in dwords on tiled ones), X or Y tiled by the Tiling
 * Enables and BCS_SWCTRL. For 32bpp the byte mask selects what is written;
 * Clipping Enabled keeps it within the clip rectangle.
 *
 * The command has no pattern operand (XY_PAT_BLT, XY_FULL_* have one): a
 * raster operation that reads the pattern is a GPU fault. */
#include "gpu/blt/blt.h"

#include "gpu/blt/blt_rect.h"
#include "gpu/cs/mi.h"

enum cs_result blt_xy_src_copy(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_SRC_COPY_BLT c;
	cmd_XY_SRC_COPY_BLT_unpack(cs_gen(e), dw, len, &c);
	if (blt_rop_uses_pattern((uint8_t)c.raster_operation))
		return cs_not_implemented(e, d, dw, len, "with a raster operation that "
					  "reads the pattern");
	struct blt_surface src;
	struct blt_op op = { .src = &src, .src_x = c.source_x1, .src_y = c.source_y1 };
	enum cs_result r = blt_op_dest(e, &op, d->name, BLT_DEST(c));
	if (r == CS_NEXT)
		r = blt_surface_init(e, d->name, &src, "source", c.source_base_address,
				     c.source_pitch, op.dst.cpp,
				     blt_xy_tiling(e, c.source_tiling_enable, true));
	return r == CS_NEXT ? blt_rect(e, &op) : r;
}
