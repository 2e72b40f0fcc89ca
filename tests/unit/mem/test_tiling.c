/* X and Y tile address computation, against offsets worked out by hand
 * from the PRM's tile layouts (X: 512 B x 8 rows; Y: 128 B x 32 rows in
 * 16 B OWord columns). */
#include "gpu/mem/tiling.h"
#include "test.h"

int main(void)
{
	/* X tiles, pitch 2048 (4 tiles per row of tiles). */
	CHECK_EQ(tile_x_offset(0, 0, 2048), 0);
	CHECK_EQ(tile_x_offset(511, 0, 2048), 511);
	CHECK_EQ(tile_x_offset(0, 1, 2048), 512);
	CHECK_EQ(tile_x_offset(5, 7, 2048), 7 * 512 + 5);
	CHECK_EQ(tile_x_offset(512, 0, 2048), 4096);             /* next tile right */
	CHECK_EQ(tile_x_offset(0, 8, 2048), 4 * 4096);           /* next tile row */
	CHECK_EQ(tile_x_offset(1000, 19, 2048), (2 * 4 + 1) * 4096 + 3 * 512 + 488);

	/* Y tiles, pitch 512 (4 tiles per row of tiles). */
	CHECK_EQ(tile_y_offset(0, 0, 512), 0);
	CHECK_EQ(tile_y_offset(15, 0, 512), 15);
	CHECK_EQ(tile_y_offset(16, 0, 512), 512);                /* next OWord column */
	CHECK_EQ(tile_y_offset(0, 1, 512), 16);                  /* next row: next OWord */
	CHECK_EQ(tile_y_offset(0, 31, 512), 496);
	CHECK_EQ(tile_y_offset(127, 31, 512), 4095);
	CHECK_EQ(tile_y_offset(128, 0, 512), 4096);
	CHECK_EQ(tile_y_offset(0, 32, 512), 4 * 4096);
	CHECK_EQ(tile_y_offset(200, 40, 512), (4 + 1) * 4096 + 4 * 512 + 8 * 16 + 8);

	CHECK_EQ(tiled_offset(GT_TILING_NONE, 7, 3, 100), 307);
	CHECK_EQ(tiled_offset(GT_TILING_Y, 16, 0, 512), 512);
	CHECK_EQ(tile_width(GT_TILING_X), 512);
	CHECK_EQ(tile_height(GT_TILING_Y), 32);
	return test_exit();
}
