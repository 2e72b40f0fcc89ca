/* The walk over a blit's destination rectangle shared by the XY_*
 * commands (blt_rect.c). */
#ifndef GTSIM_BLT_RECT_H
#define GTSIM_BLT_RECT_H

#include "gpu/blt/blt_surface.h"

struct blt_op {
	const char *cmd;                 /* the command's name, for messages */
	struct blt_surface dst;
	const struct blt_surface *src;   /* NULL: no source */
	int32_t x1, y1, x2, y2;          /* destination [x1, x2) x [y1, y2) */
	int32_t src_x, src_y;            /* source of (x1, y1) */
	const uint8_t *pattern;          /* one pixel (a solid colour), or NULL */
	uint8_t rop;
	uint32_t byte_mask;              /* 32bpp: bit 0 colour, bit 1 alpha; else 3 */
};

/* Runs the blit row by row (in the order that reads each source row before
 * an overlapping destination row overwrites it). CS_NEXT or a fault. */
enum cs_result blt_rect(struct gt_engine *e, const struct blt_op *op);

/* Bytes per pixel of the XY_* commands' Color Depth (8 bit, 565, 1555,
 * 32 bit). */
uint32_t blt_color_depth_cpp(uint32_t color_depth);
/* The tiling of an XY_* command's surface: linear unless its Tiling Enable
 * is set, then Y where BCS_SWCTRL says so (bit "Tile Y Source" or "Tile Y
 * Destination"), X otherwise. */
unsigned blt_xy_tiling(struct gt_engine *e, bool tiling_enable, bool source);

#endif
