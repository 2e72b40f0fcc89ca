/* Tiled addresses against the PRM's tile formats (vol. 5 "Tiling"),
 * worked by hand here and, over many positions, against the address-bit
 * maps of tests/tiling_ref.h (written independently of the module). */
#include "gpu/surface/surface.h"
#include "test.h"
#include "tiling_ref.h"

/* Every byte of one tile (w bytes x h rows, one tile a row) maps once
 * into [0, 4096). */
static int tile_is_bijective(unsigned tiling, unsigned w, unsigned h, unsigned pitch)
{
	static uint8_t seen[4096];
	memset(seen, 0, sizeof(seen));
	int bad = 0;
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint64_t o = surface_tiled_offset(tiling, x, y, pitch);
			if (o >= 4096 || seen[o]++)
				bad++;
		}
	return bad;
}

int main(void)
{
	/* X-major: 512 B x 8 rows per 4 KiB tile, rows of 512 contiguous bytes */
	CHECK_EQ(surface_tile_x_offset(0, 0, 2048), 0);
	CHECK_EQ(surface_tile_x_offset(511, 0, 2048), 511);
	CHECK_EQ(surface_tile_x_offset(0, 1, 2048), 512);
	CHECK_EQ(surface_tile_x_offset(5, 7, 2048), 7 * 512 + 5);
	CHECK_EQ(surface_tile_x_offset(512, 0, 2048), 4096);          /* next tile right */
	CHECK_EQ(surface_tile_x_offset(0, 8, 2048), 4 * 4096);        /* next tile row */
	CHECK_EQ(surface_tile_x_offset(1000, 19, 2048), (2 * 4 + 1) * 4096 + 3 * 512 + 488);

	/* Y-major: 128 B x 32 rows, 8 columns of 16 B OWords, each 32 rows */
	CHECK_EQ(surface_tile_y_offset(15, 0, 512), 15);
	CHECK_EQ(surface_tile_y_offset(16, 0, 512), 512);             /* next OWord column */
	CHECK_EQ(surface_tile_y_offset(0, 1, 512), 16);               /* next row: next OWord */
	CHECK_EQ(surface_tile_y_offset(0, 31, 512), 496);
	CHECK_EQ(surface_tile_y_offset(127, 31, 512), 4095);
	CHECK_EQ(surface_tile_y_offset(128, 0, 512), 4096);
	CHECK_EQ(surface_tile_y_offset(0, 32, 512), 4 * 4096);
	CHECK_EQ(surface_tile_y_offset(200, 40, 512), (4 + 1) * 4096 + 4 * 512 + 8 * 16 + 8);

	/* W-major: the pitch is programmed at twice the width ("stored with
	 * two rows interleaved"): pitch 256 is 128 B, two W tiles a row.
	 * (x 13, y 70): tile row 1 = tile 2 (8192), inside (13, 6): block
	 * column 1 (512), block row 0; x 5 = 101b, y 6 = 110b: x0 1, y0 0,
	 * x1 0, y1 1, x2 1, y2 1 -> 1 + 8 + 16 + 32 = 57 */
	CHECK_EQ(surface_tile_w_offset(13, 70, 256), 8192 + 512 + 57);
	CHECK_EQ(surface_tiled_offset(SURFACE_TILE_W, 13, 70, 256), 8192 + 512 + 57);
	CHECK_EQ(surface_tile_w_offset(64, 0, 256), 4096);            /* next tile right */
	CHECK_EQ(surface_tile_w_offset(0, 64, 128), 4096);            /* one tile a row */
	CHECK_EQ(surface_tile_w_offset(8, 0, 128), 512);              /* next block column */
	CHECK_EQ(surface_tile_w_offset(0, 8, 128), 64);               /* next block row */

	CHECK_EQ(tile_is_bijective(SURFACE_TILE_X, 512, 8, 512), 0);
	CHECK_EQ(tile_is_bijective(SURFACE_TILE_Y, 128, 32, 128), 0);
	CHECK_EQ(tile_is_bijective(SURFACE_TILE_W, 64, 64, 128), 0);

	/* against the bit maps, over a 3x3-tile surface of each kind */
	int bad = 0;
	for (unsigned t = SURFACE_TILE_W; t <= SURFACE_TILE_Y; t++) {
		uint64_t tw = surface_tile_width(t), th = surface_tile_height(t);
		uint64_t pitch = 3 * surface_pitch_unit(t);
		for (uint64_t y = 0; y < 3 * th; y += 3)
			for (uint64_t x = 0; x < 3 * tw; x += 5)
				bad += surface_tiled_offset(t, x, y, pitch) !=
				       ref_tiled_offset((enum ref_tiling)t, x, y, pitch);
	}
	CHECK_EQ(bad, 0);

	/* no bit-6 swizzle on gen8+: address bit 6 is x bit 6 in an X tile
	 * whatever bits 9 and 10 (y 1 and 2) are */
	for (uint64_t y = 0; y < 8; y++)
		CHECK_EQ(surface_tile_x_offset(64, y, 512) >> 6 & 1, 1);

	/* linear and the tile sizes */
	CHECK_EQ(surface_tiled_offset(SURFACE_LINEAR, 7, 3, 100), 307);
	CHECK_EQ(surface_tile_width(SURFACE_TILE_X), 512);
	CHECK_EQ(surface_tile_height(SURFACE_TILE_X), 8);
	CHECK_EQ(surface_tile_width(SURFACE_TILE_Y), 128);
	CHECK_EQ(surface_tile_height(SURFACE_TILE_Y), 32);
	CHECK_EQ(surface_tile_width(SURFACE_TILE_W), 64);
	CHECK_EQ(surface_tile_height(SURFACE_TILE_W), 64);
	CHECK_EQ(surface_tile_width(SURFACE_LINEAR), 1);
	CHECK_EQ(surface_pitch_unit(SURFACE_TILE_W), 128);
	CHECK_EQ(surface_pitch_unit(SURFACE_TILE_Y), 128);
	CHECK_EQ(surface_pitch_unit(SURFACE_TILE_X), 512);
	CHECK_EQ(surface_bytes(SURFACE_TILE_W, 256, 65), 2 * 2 * 4096); /* 2x2 W tiles */
	CHECK_EQ(surface_bytes(SURFACE_TILE_Y, 256, 33), 64 * 256);   /* two tile rows */
	CHECK_EQ(surface_bytes(SURFACE_LINEAR, 100, 3), 300);

	/* a view: bounds, then the surface's X/Y offsets added */
	uint64_t off;
	struct surface_view v = { .width = 100, .height = 50, .pitch = 512, .cpp = 4 };
	CHECK(surface_view_offset(&v, 3, 2, &off));
	CHECK_EQ(off, 2 * 512 + 12);
	CHECK(!surface_view_offset(&v, 100, 0, &off));   /* outside: dropped */
	CHECK(!surface_view_offset(&v, 0, 50, &off));
	v.x_offset = 4;
	v.y_offset = 8;
	CHECK(surface_view_offset(&v, 0, 0, &off));
	CHECK_EQ(off, 8 * 512 + 16);
	/* Y-tiled view: pixel (37, 33), cpp 4, pitch 256 (2 tiles a row): byte
	 * x 148 -> tile column 1, tile row 1 -> tile 3; inside x 20: OWord
	 * column 1, byte 4, row 1 */
	v = (struct surface_view){ .width = 256, .height = 64, .pitch = 256, .cpp = 4,
				   .tiling = SURFACE_TILE_Y };
	CHECK(surface_view_offset(&v, 37, 33, &off));
	CHECK_EQ(off, 3 * 4096 + 512 + 16 + 4);
	return test_exit();
}
