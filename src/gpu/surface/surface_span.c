/* Byte offsets of a 2x2 subspan and of a run of a row (surface.h): the
 * tiled address (surface_tiled_offset, the PRM's formula) computed once,
 * its neighbours from it where the layout keeps them a fixed distance
 * apart (PRM vol. 5 "Tiling"):
 *  - pixel x + 1 follows pixel x at + cpp while the run of consecutive
 *    bytes from x (surface_row_run: an OWord of a Y tile, a row of an X
 *    tile, a linear row) holds both;
 *  - row y + 1 is 16 (Y: the next row of the OWord column) or 512 (X: the
 *    next 512-byte row) bytes below row y inside a tile, pitch bytes in a
 *    linear surface.
 * Anything else (a tile's edge, W tiles) goes through the formula again. */
#include "gpu/surface/surface.h"

/* The distance from row by to row by + 1 at the same x, when fixed. */
static bool row_step(unsigned tiling, uint64_t by, uint64_t pitch, uint64_t *step)
{
	switch (tiling) {
	case SURFACE_LINEAR:
		*step = pitch;
		return true;
	case SURFACE_TILE_X:
		*step = SURFACE_TILE_X_W;
		return by % SURFACE_TILE_X_H != SURFACE_TILE_X_H - 1;
	case SURFACE_TILE_Y:
		*step = 16;
		return by % SURFACE_TILE_Y_H != SURFACE_TILE_Y_H - 1;
	default:
		return false;
	}
}

bool surface_view_subspan_offsets(const struct surface_view *v, uint32_t x, uint32_t y,
				  uint64_t off[4])
{
	if (x >= v->width || v->width - x < 2 || y >= v->height || v->height - y < 2)
		return false;
	uint64_t bx = ((uint64_t)x + v->x_offset) * v->cpp, by = (uint64_t)y + v->y_offset;
	uint64_t bx1 = bx + v->cpp, step;
	off[0] = surface_tiled_offset(v->tiling, bx, by, v->pitch);
	off[1] = surface_row_run(v->tiling, bx) >= 2ull * v->cpp ?
		 off[0] + v->cpp : surface_tiled_offset(v->tiling, bx1, by, v->pitch);
	if (row_step(v->tiling, by, v->pitch, &step)) {
		off[2] = off[0] + step;
		off[3] = off[1] + step;
	} else {
		off[2] = surface_tiled_offset(v->tiling, bx, by + 1, v->pitch);
		off[3] = surface_tiled_offset(v->tiling, bx1, by + 1, v->pitch);
	}
	return true;
}

unsigned surface_view_row_offsets(const struct surface_view *v, uint32_t x, uint32_t y,
				  unsigned n, uint64_t *off)
{
	if (x >= v->width || y >= v->height)
		return 0;
	if (n > v->width - x)
		n = v->width - x;
	uint64_t bx = ((uint64_t)x + v->x_offset) * v->cpp, by = (uint64_t)y + v->y_offset;
	uint64_t run = 0, o = 0;
	for (unsigned i = 0; i < n; i++, bx += v->cpp, o += v->cpp, run -= v->cpp) {
		if (run < v->cpp) {          /* past the consecutive bytes: the formula */
			o = surface_tiled_offset(v->tiling, bx, by, v->pitch);
			run = surface_row_run(v->tiling, bx);
		}
		off[i] = o;
	}
	return n;
}
