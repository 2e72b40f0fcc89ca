/* The PRM's tile formats (vol. 5 "Tiling", "Address Tiling Function"),
 * written for the tests as address-bit maps, independently of gtsim's
 * surface module: tiles are 4 KiB, row-major across the pitch, and inside
 * a tile the 12 address bits are
 *   X-major (512 B x 8 rows):  y[2:0] x[8:0]
 *   Y-major (128 B x 32 rows): x[6:4] y[4:0] x[3:0]
 *   W-major (64 B x 64 rows):  x[5:3] y[5:3] y2 x2 y1 x1 y0 x0
 * (most significant first). No bit-6 swizzling on gen8+. A W-major
 * surface's pitch is programmed at twice its width in bytes ("stored with
 * two rows interleaved"): pitch / 128 tiles a row. */
#ifndef GTSIM_TESTS_TILING_REF_H
#define GTSIM_TESTS_TILING_REF_H

#include <stdint.h>

enum ref_tiling { REF_LINEAR = 0, REF_TILE_W = 1, REF_TILE_X = 2, REF_TILE_Y = 3 };

static inline uint64_t ref_bit(uint64_t v, unsigned b)
{
	return (v >> b) & 1;
}

static inline uint64_t ref_tile_x_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	uint64_t tile = (y >> 3) * (pitch >> 9) + (x >> 9);
	return tile << 12 | (y & 7) << 9 | (x & 511);
}

static inline uint64_t ref_tile_y_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	uint64_t tile = (y >> 5) * (pitch >> 7) + (x >> 7);
	return tile << 12 | ((x >> 4) & 7) << 9 | (y & 31) << 4 | (x & 15);
}

static inline uint64_t ref_tile_w_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	uint64_t tile = (y >> 6) * (pitch >> 7) + (x >> 6);
	return tile << 12 | ((x >> 3) & 7) << 9 | ((y >> 3) & 7) << 6 | ref_bit(y, 2) << 5 |
	       ref_bit(x, 2) << 4 | ref_bit(y, 1) << 3 | ref_bit(x, 1) << 2 | ref_bit(y, 0) << 1 |
	       ref_bit(x, 0);
}

static inline uint64_t ref_tiled_offset(enum ref_tiling t, uint64_t x, uint64_t y, uint64_t pitch)
{
	return t == REF_TILE_X ? ref_tile_x_offset(x, y, pitch) :
	       t == REF_TILE_Y ? ref_tile_y_offset(x, y, pitch) :
	       t == REF_TILE_W ? ref_tile_w_offset(x, y, pitch) : y * pitch + x;
}

#endif
