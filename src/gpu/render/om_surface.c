/* Addresses of pixels in the surfaces the output merger writes: linear,
 * X- and Y-major through the memory unit's tiling functions, W-major
 * (separate stencil) here. */
#include "gpu/mem/tiling.h"
#include "gpu/render/om.h"

uint64_t om_tile_w_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	/* Tiles row-major across the pitch (64 rows of `pitch` bytes per row
	 * of tiles); inside a tile, 8x8 blocks of 64 bytes column-major
	 * (512 B per column of blocks), and each block interleaves the bits
	 * of x and y: x0 y0 x1 y1 x2 y2 from the lowest address bit up. */
	uint64_t tx = x / 64, ty = y / 64, bx = x % 64, by = y % 64;
	return ty * 64 * pitch + tx * 4096 +
	       512 * (bx / 8) + 64 * (by / 8) +
	       32 * ((by >> 2) & 1) + 16 * ((bx >> 2) & 1) +
	       8 * ((by >> 1) & 1) + 4 * ((bx >> 1) & 1) +
	       2 * (by & 1) + (bx & 1);
}

bool om_surface_offset(const struct om_surface *s, uint32_t x, uint32_t y, uint64_t *off)
{
	if (x >= s->width || y >= s->height)
		return false;
	uint64_t bx = ((uint64_t)x + s->x_offset) * s->cpp, by = (uint64_t)y + s->y_offset;
	switch (s->tiling) {
	case OM_TILE_W:
		*off = om_tile_w_offset(bx, by, s->pitch);
		return true;
	case OM_TILE_X:
		*off = tiled_offset(GT_TILING_X, bx, by, s->pitch);
		return true;
	case OM_TILE_Y:
		*off = tiled_offset(GT_TILING_Y, bx, by, s->pitch);
		return true;
	default:
		*off = by * s->pitch + bx;
		return true;
	}
}
