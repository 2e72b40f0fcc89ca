/* Tiled address computation (PRM vol. 5 "Tiling"): see surface.h for the
 * X-, Y- and W-major layouts. Tiles are 4 KiB, laid out row-major across
 * the pitch. Yf/Ys (gen9 Tiled Resource Mode) are refused when the state
 * is read (surface_state.c). */
#include "gpu/surface/surface.h"

#define TILE_X_W 512u
#define TILE_X_H 8u
#define TILE_Y_W 128u
#define TILE_Y_H 32u
#define TILE_W_W 64u
#define TILE_W_H 64u

uint64_t surface_tile_x_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	uint64_t tile = (y / TILE_X_H) * (pitch / TILE_X_W) + x / TILE_X_W;
	return tile * SURFACE_TILE_SIZE + (y % TILE_X_H) * TILE_X_W + x % TILE_X_W;
}

uint64_t surface_tile_y_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	uint64_t tile = (y / TILE_Y_H) * (pitch / TILE_Y_W) + x / TILE_Y_W;
	uint64_t column = (x % TILE_Y_W) / 16;   /* OWord column */
	return tile * SURFACE_TILE_SIZE + column * (16 * TILE_Y_H) + (y % TILE_Y_H) * 16 + x % 16;
}

uint64_t surface_tile_w_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	/* the pitch as programmed is twice the bytes of a row of W tiles:
	 * "the pitch must be set to 2x the value computed based on width, as
	 * the stencil buffer is stored with two rows interleaved" (PRM vol. 2d
	 * 3DSTATE_STENCIL_BUFFER and RENDER_SURFACE_STATE Surface Pitch) */
	pitch /= 2;
	/* inside a tile, 8x8-byte blocks of 64 B column-major (512 B per
	 * column of blocks); inside a block the address bits from the lowest
	 * up are x0 y0 x1 y1 x2 y2 */
	uint64_t tile = (y / TILE_W_H) * (pitch / TILE_W_W) + x / TILE_W_W;
	uint64_t bx = x % TILE_W_W, by = y % TILE_W_H;
	return tile * SURFACE_TILE_SIZE + 512 * (bx / 8) + 64 * (by / 8) +
	       32 * ((by >> 2) & 1) + 16 * ((bx >> 2) & 1) +
	       8 * ((by >> 1) & 1) + 4 * ((bx >> 1) & 1) +
	       2 * (by & 1) + (bx & 1);
}

uint64_t surface_tiled_offset(unsigned tiling, uint64_t x, uint64_t y, uint64_t pitch)
{
	switch (tiling) {
	case SURFACE_TILE_X: return surface_tile_x_offset(x, y, pitch);
	case SURFACE_TILE_Y: return surface_tile_y_offset(x, y, pitch);
	case SURFACE_TILE_W: return surface_tile_w_offset(x, y, pitch);
	default: return y * pitch + x;
	}
}

uint64_t surface_row_run(unsigned tiling, uint64_t x)
{
	switch (tiling) {
	case SURFACE_TILE_X: return TILE_X_W - x % TILE_X_W;
	case SURFACE_TILE_Y: return 16 - x % 16;   /* an OWord of a column */
	case SURFACE_TILE_W: return 1;
	default: return UINT64_MAX;
	}
}

unsigned surface_tile_width(unsigned tiling)
{
	return tiling == SURFACE_TILE_X ? TILE_X_W : tiling == SURFACE_TILE_Y ? TILE_Y_W :
	       tiling == SURFACE_TILE_W ? TILE_W_W : 1;
}

unsigned surface_tile_height(unsigned tiling)
{
	return tiling == SURFACE_TILE_X ? TILE_X_H : tiling == SURFACE_TILE_Y ? TILE_Y_H :
	       tiling == SURFACE_TILE_W ? TILE_W_H : 1;
}

unsigned surface_pitch_unit(unsigned tiling)
{
	return tiling == SURFACE_TILE_W ? 2 * TILE_W_W : surface_tile_width(tiling);
}

uint64_t surface_bytes(unsigned tiling, uint32_t pitch, uint32_t h)
{
	unsigned th = surface_tile_height(tiling);
	uint64_t rows = ((uint64_t)h + th - 1) / th * th;
	return tiling == SURFACE_TILE_W ? rows * pitch / 2 : rows * pitch;
}
