/* Tile geometry (PRM vol. 5 "Tiling"): see surface.h for the X-, Y- and
 * W-major layouts and their offset functions (inline there: the pixel
 * path calls them per pixel). Tiles are 4 KiB, laid out row-major across
 * the pitch. Yf/Ys (gen9 Tiled Resource Mode) are refused when the state
 * is read (surface_state.c). */
#include "gpu/surface/surface.h"

#define TILE_X_W SURFACE_TILE_X_W
#define TILE_X_H SURFACE_TILE_X_H
#define TILE_Y_W SURFACE_TILE_Y_W
#define TILE_Y_H SURFACE_TILE_Y_H
#define TILE_W_W SURFACE_TILE_W_W
#define TILE_W_H SURFACE_TILE_W_H

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
