/* A blit's destination rectangle, row by row (blt_rect.h). */
#include "gpu/blt/blt_rect.h"

#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/surface/surface.h"

uint32_t blt_color_depth_cpp(uint32_t color_depth)
{
	static const uint32_t cpp[4] = { 1, 2, 2, 4 };
	return cpp[color_depth & 3];
}

unsigned blt_xy_tiling(struct gt_engine *e, bool tiling_enable, bool source)
{
	if (!tiling_enable)
		return SURFACE_LINEAR;
	uint32_t swctrl = cs_reg_read(e, REG_BCS_SWCTRL);
	uint32_t y = source ? REG_BCS_SWCTRL_TILE_Y_SOURCE_MASK
			    : REG_BCS_SWCTRL_TILE_Y_DESTINATION_MASK;
	return swctrl & y ? SURFACE_TILE_Y : SURFACE_TILE_X;
}

static const char *tiling_name(unsigned t)
{
	return t == SURFACE_TILE_X ? "X" : t == SURFACE_TILE_Y ? "Y" : "linear";
}

enum cs_result blt_rect(struct gt_engine *e, const struct blt_op *op)
{
	int32_t w = op->x2 - op->x1, h = op->y2 - op->y1;
	if (w <= 0 || h <= 0 || !op->byte_mask)
		return CS_NEXT;   /* an empty rectangle (or mask) writes nothing */
	uint32_t cpp = op->dst.cpp;
	size_t row = (size_t)w * cpp;
	bool read_dst = blt_rop_uses_dest(op->rop) || op->byte_mask != 3;
	uint8_t *buf = calloc(4, row);
	if (!buf)
		return cs_fault(e, "%s: out of memory for a %zu-byte row", op->cmd, row);
	uint8_t *src = buf, *dst = buf + row, *pat = buf + 2 * row, *orig = buf + 3 * row;
	if (op->pattern)
		for (int32_t i = 0; i < w; i++)
			memcpy(pat + (size_t)i * cpp, op->pattern, cpp);
	struct gt_vm vm = cs_vm_for(e, false);
	/* on one surface, copying downwards: the bottom row first */
	bool up = op->src && op->dst.base == op->src->base && op->y1 > op->src_y;
	enum cs_result r = CS_NEXT;
	for (int32_t i = 0; i < h && r == CS_NEXT; i++) {
		int32_t y = up ? h - 1 - i : i;
		if (op->src)
			r = blt_row_read(e, op->cmd, &vm, op->src, op->src_x, op->src_y + y,
					 (uint32_t)w, src);
		if (r == CS_NEXT && read_dst)
			r = blt_row_read(e, op->cmd, &vm, &op->dst, op->x1, op->y1 + y,
					 (uint32_t)w, dst);
		if (r != CS_NEXT)
			break;
		memcpy(orig, dst, row);
		blt_rop(op->rop, op->pattern ? pat : NULL, op->src ? src : NULL, dst, row);
		if (op->byte_mask != 3)
			blt_byte_mask(dst, orig, (uint32_t)w, op->byte_mask);
		r = blt_row_write(e, op->cmd, &vm, &op->dst, op->x1, op->y1 + y, (uint32_t)w, dst);
	}
	free(buf);
	if (r == CS_NEXT)
		TRACE(TRACE_BLT, "%s: %s %dx%d at (%d,%d) pitch %d %s, %u bytes per pixel, "
		      "rop 0x%02x%s%s", e->name, op->cmd, w, h, op->x1, op->y1, op->dst.pitch,
		      tiling_name(op->dst.tiling), cpp, op->rop,
		      op->src ? ", from a source" : "", op->src ? tiling_name(op->src->tiling) : "");
	return r;
}
