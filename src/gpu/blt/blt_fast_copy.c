/* XY_FAST_COPY_BLT (Skylake; SKL PRM vol. 2a "XY_FAST_COPY_BLT"): a plain
 * copy of [X1, X2) x [Y1, Y2) from (Source X1, Source Y1), no raster
 * operation and no byte mask, pixels of 1 to 16 bytes, each surface linear,
 * X or Y tiled by its Tiling Method (pitch in dwords when tiled). Tile-Yf
 * and Tile-Ys are not modelled, and so a GPU fault. */
#include "gpu/blt/blt.h"

#include "gpu/blt/blt_rect.h"
#include "gpu/cs/mi.h"
#include "gpu/surface/surface.h"

#define ROP_SRCCOPY 0xcc

/* FAST_COPY_TILING: 0 linear, 1 X, 2 Y (Yf with the Tile-Yf bit), 3 Ys. */
static int fast_tiling(uint32_t method, bool yf, unsigned *out)
{
	static const unsigned tiling[3] = { SURFACE_LINEAR, SURFACE_TILE_X, SURFACE_TILE_Y };
	if (method > 2 || (method == 2 && yf))
		return -1;
	*out = tiling[method];
	return 0;
}

enum cs_result blt_xy_fast_copy(struct gt_engine *e, const struct cmd_desc *d,
				const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_FAST_COPY_BLT c;
	cmd_XY_FAST_COPY_BLT_unpack(cs_gen(e), dw, len, &c);
	static const uint32_t cpp_of_depth[8] = { 1, 2, 2, 4, 8, 16, 0, 0 };
	uint32_t cpp = cpp_of_depth[c.color_depth & 7];
	if (!cpp)
		return cs_not_implemented(e, d, dw, len, "with a reserved Color Depth");
	unsigned dst_tiling, src_tiling;
	if (fast_tiling(c.destination_tiling_method, c.destination_tile_yf, &dst_tiling) ||
	    fast_tiling(c.source_tiling_method, c.source_tile_yf, &src_tiling))
		return cs_not_implemented(e, d, dw, len, "on a Tile-Yf or Tile-Ys surface");
	struct blt_surface src;
	struct blt_op op = {
		.cmd = d->name, .src = &src,
		.x1 = (int32_t)c.destination_x1, .y1 = (int32_t)c.destination_y1,
		.x2 = (int32_t)c.destination_x2, .y2 = (int32_t)c.destination_y2,
		.src_x = (int32_t)c.source_x1, .src_y = (int32_t)c.source_y1,
		.rop = ROP_SRCCOPY, .byte_mask = 3,
	};
	enum cs_result r = blt_surface_init(e, d->name, &op.dst, "destination",
					    c.destination_base_address, c.destination_pitch, cpp,
					    dst_tiling);
	if (r == CS_NEXT)
		r = blt_surface_init(e, d->name, &src, "source", c.source_base_address,
				     c.source_pitch, cpp, src_tiling);
	return r == CS_NEXT ? blt_rect(e, &op) : r;
}
