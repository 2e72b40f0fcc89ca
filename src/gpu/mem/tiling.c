/* Tiled address computation; see tiling.h for the layouts. */
#include "gpu/mem/tiling.h"

uint64_t tile_x_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	uint64_t tiles_per_row = pitch / GT_TILE_X_WIDTH;
	uint64_t tile = (y / GT_TILE_X_HEIGHT) * tiles_per_row + x / GT_TILE_X_WIDTH;
	return tile * GT_TILE_SIZE + (y % GT_TILE_X_HEIGHT) * GT_TILE_X_WIDTH +
	       x % GT_TILE_X_WIDTH;
}

uint64_t tile_y_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	uint64_t tiles_per_row = pitch / GT_TILE_Y_WIDTH;
	uint64_t tile = (y / GT_TILE_Y_HEIGHT) * tiles_per_row + x / GT_TILE_Y_WIDTH;
	uint64_t column = (x % GT_TILE_Y_WIDTH) / 16;  /* OWord column */
	return tile * GT_TILE_SIZE + column * (16 * GT_TILE_Y_HEIGHT) +
	       (y % GT_TILE_Y_HEIGHT) * 16 + x % 16;
}

uint64_t tile_w_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	/* Inside a tile, 8x8-byte blocks of 64 B column-major (512 B per
	 * column of blocks); inside a block the address bits from the lowest
	 * up are x0 y0 x1 y1 x2 y2. */
	uint64_t tiles_per_row = pitch / GT_TILE_W_WIDTH;
	uint64_t tile = (y / GT_TILE_W_HEIGHT) * tiles_per_row + x / GT_TILE_W_WIDTH;
	uint64_t bx = x % GT_TILE_W_WIDTH, by = y % GT_TILE_W_HEIGHT;
	return tile * GT_TILE_SIZE + 512 * (bx / 8) + 64 * (by / 8) +
	       32 * ((by >> 2) & 1) + 16 * ((bx >> 2) & 1) +
	       8 * ((by >> 1) & 1) + 4 * ((bx >> 1) & 1) +
	       2 * (by & 1) + (bx & 1);
}

uint64_t tiled_offset(enum gt_tiling t, uint64_t x, uint64_t y, uint64_t pitch)
{
	switch (t) {
	case GT_TILING_X: return tile_x_offset(x, y, pitch);
	case GT_TILING_Y: return tile_y_offset(x, y, pitch);
	case GT_TILING_W: return tile_w_offset(x, y, pitch);
	default: return y * pitch + x;
	}
}

unsigned tile_width(enum gt_tiling t)
{
	return t == GT_TILING_X ? GT_TILE_X_WIDTH : t == GT_TILING_Y ? GT_TILE_Y_WIDTH :
	       t == GT_TILING_W ? GT_TILE_W_WIDTH : 1;
}

unsigned tile_height(enum gt_tiling t)
{
	return t == GT_TILING_X ? GT_TILE_X_HEIGHT : t == GT_TILING_Y ? GT_TILE_Y_HEIGHT :
	       t == GT_TILING_W ? GT_TILE_W_HEIGHT : 1;
}
