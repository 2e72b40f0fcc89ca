/* Pixel addresses in linear, X-, Y- and W-tiled surfaces against the PRM's
 * tile formats (vol. 5 "Tiling"), computed here from the definitions. */
#include "gpu/render/om.h"
#include "gpu/mem/tiling.h"
#include "test.h"

int main(void)
{
	uint64_t off;
	/* linear: y * pitch + x * cpp, plus the surface's x/y offsets */
	struct om_surface s = { .width = 100, .height = 50, .pitch = 512, .cpp = 4 };
	CHECK(om_surface_offset(&s, 3, 2, &off));
	CHECK_EQ(off, 2 * 512 + 12);
	CHECK(!om_surface_offset(&s, 100, 0, &off));   /* out of bounds: dropped */
	CHECK(!om_surface_offset(&s, 0, 50, &off));
	s.x_offset = 4;
	s.y_offset = 8;
	CHECK(om_surface_offset(&s, 0, 0, &off));
	CHECK_EQ(off, 8 * 512 + 16);

	/* X-major: 512 B x 8 rows per 4 KiB tile, rows of 512 contiguous bytes.
	 * pitch 1024 = 2 tiles per row. Pixel (130, 9), cpp 4: byte x 520 ->
	 * tile column 1, row 1 of tiles -> tile 3; inside: row 1, byte 8. */
	s = (struct om_surface){ .width = 256, .height = 64, .pitch = 1024, .cpp = 4,
				 .tiling = OM_TILE_X };
	CHECK(om_surface_offset(&s, 130, 9, &off));
	CHECK_EQ(off, 3 * 4096 + 1 * 512 + 8);

	/* Y-major: 128 B x 32 rows, 8 columns of 16 B OWords, each column 32
	 * rows. Pixel (37, 33), cpp 4, pitch 256 (2 tiles per row): byte x 148
	 * -> tile column 1, tile row 1 -> tile 3; inside x 20: OWord column 1,
	 * byte 4, row 1 -> 1*512 + 1*16 + 4. */
	s.tiling = OM_TILE_Y;
	s.pitch = 256;
	CHECK(om_surface_offset(&s, 37, 33, &off));
	CHECK_EQ(off, 3 * 4096 + 512 + 16 + 4);

	/* W-major (stencil): 64 B x 64 rows; 8x8-byte blocks, 512 B per block
	 * column; within a block bits x0 y0 x1 y1 x2 y2 from address bit 0.
	 * (x 13, y 70) with pitch 128: tile row 1 (64 * 128 = 8192), tile
	 * column 0; inside (13, 6): block column 1 (512), block row 0;
	 * x=5 (101b) y=6 (110b): x0 1, y0 0, x1 0, y1 1, x2 1, y2 1
	 * -> 1 + 8 + 16 + 32 = 57. */
	CHECK_EQ(tile_w_offset(13, 70, 128), 8192 + 512 + 57);
	/* every byte of one W tile maps once into [0, 4096) */
	static uint8_t seen[4096];
	int dup = 0;
	for (unsigned y = 0; y < 64; y++)
		for (unsigned x = 0; x < 64; x++) {
			uint64_t o = tile_w_offset(x, y, 64);
			if (o >= 4096 || seen[o]++)
				dup++;
		}
	CHECK_EQ(dup, 0);
	CHECK_EQ(tiled_offset(GT_TILING_W, 13, 70, 128), 8192 + 512 + 57);
	CHECK_EQ(tile_width(GT_TILING_W), 64);
	CHECK_EQ(tile_height(GT_TILING_W), 64);
	/* a W-tiled om_surface goes through the same formula */
	struct om_surface w = { .width = 128, .height = 128, .pitch = 128, .cpp = 1,
				.tiling = OM_TILE_W };
	CHECK(om_surface_offset(&w, 13, 70, &off));
	CHECK_EQ(off, 8192 + 512 + 57);
	return test_exit();
}
