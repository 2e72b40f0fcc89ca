/* Tiled surface layouts (PRM vol. 5 "Memory Views", "Tiling"): the byte
 * offset of (x bytes, y rows) in a surface of the given pitch. Tiles are
 * 4 KiB and laid out row-major across the pitch:
 *  - X-major: 512 B wide x 8 rows, each row 512 contiguous bytes.
 *  - Y-major: 128 B wide x 32 rows, stored as 8 columns of 16 B OWords,
 *    each column 32 OWords (one per row) top to bottom.
 *  - W-major (the separate stencil buffer, PRM vol. 5 "W-Major Tile
 *    Format"): 64 B wide x 64 rows, 8x8-byte blocks of 64 B stored column
 *    by column, each block interleaving the bits of x and y.
 * No bit-6 address swizzling on gen8+ (i915 reports I915_BIT_6_SWIZZLE_NONE).
 * pitch must be a multiple of the tile width. */
#ifndef GTSIM_GPU_MEM_TILING_H
#define GTSIM_GPU_MEM_TILING_H

#include <stdint.h>

enum gt_tiling { GT_TILING_NONE, GT_TILING_X, GT_TILING_Y, GT_TILING_W };

#define GT_TILE_X_WIDTH 512u
#define GT_TILE_X_HEIGHT 8u
#define GT_TILE_Y_WIDTH 128u
#define GT_TILE_Y_HEIGHT 32u
#define GT_TILE_W_WIDTH 64u
#define GT_TILE_W_HEIGHT 64u
#define GT_TILE_SIZE 4096u

uint64_t tile_x_offset(uint64_t x, uint64_t y, uint64_t pitch);
uint64_t tile_y_offset(uint64_t x, uint64_t y, uint64_t pitch);
uint64_t tile_w_offset(uint64_t x, uint64_t y, uint64_t pitch);
/* Any of the layouts. */
uint64_t tiled_offset(enum gt_tiling t, uint64_t x, uint64_t y, uint64_t pitch);
/* Tile width in bytes (1 for linear: any pitch), height in rows. */
unsigned tile_width(enum gt_tiling t);
unsigned tile_height(enum gt_tiling t);

#endif
