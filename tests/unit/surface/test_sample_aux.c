/* Per-sample layouts (PRM vol. 5 "Multisampled Surfaces") and the CCS
 * fast-clear blocks (PRM vol. 7 "Render Target Fast Clear"), worked by
 * hand. */
#include "gpu/surface/surface.h"
#include "test.h"

int main(void)
{
	uint32_t x, y, slice;
	/* array of samples: one slice per sample */
	surface_sample_position(SURFACE_MSAA_ARRAY, 4, 7, 9, 2, 3, &x, &y, &slice);
	CHECK_EQ(x, 7);
	CHECK_EQ(y, 9);
	CHECK_EQ(slice, 2 * 4 + 3);
	/* one sample: the identity */
	surface_sample_position(SURFACE_MSAA_INTERLEAVED, 1, 7, 9, 2, 0, &x, &y, &slice);
	CHECK_EQ(x, 7);
	CHECK_EQ(y, 9);
	CHECK_EQ(slice, 2);
	/* interleaved 4x: pixel (3, 5) = x 11b, y 101b, sample 2 = 10b:
	 * x' = 1 (x >> 1) << 2 | s0 0 << 1 | x0 1 = 101b = 5;
	 * y' = 2 (y >> 1) << 2 | s1 1 << 1 | y0 1 = 1011b = 11 */
	surface_sample_position(SURFACE_MSAA_INTERLEAVED, 4, 3, 5, 0, 2, &x, &y, &slice);
	CHECK_EQ(x, 5);
	CHECK_EQ(y, 11);
	CHECK_EQ(slice, 0);
	/* 2x: x' = (x >> 1) << 2 | s << 1 | x0, y unchanged: (2, 3) s 1 -> 6 */
	surface_sample_position(SURFACE_MSAA_INTERLEAVED, 2, 2, 3, 0, 1, &x, &y, &slice);
	CHECK_EQ(x, 6);
	CHECK_EQ(y, 3);
	/* 8x: 4x2 per pixel: (1, 1) sample 7 = 111b: x' = 0 | s2 4 | s0 2 | 1 = 7,
	 * y' = 0 | s1 2 | 1 = 3 */
	surface_sample_position(SURFACE_MSAA_INTERLEAVED, 8, 1, 1, 0, 7, &x, &y, &slice);
	CHECK_EQ(x, 7);
	CHECK_EQ(y, 3);
	/* 16x: (2, 2) sample 15: x' = 1 << 3 | 4 | 2 | 0 = 14, y' = 1 << 3 | 4 | 2 | 0 = 14 */
	surface_sample_position(SURFACE_MSAA_INTERLEAVED, 16, 2, 2, 0, 15, &x, &y, &slice);
	CHECK_EQ(x, 14);
	CHECK_EQ(y, 14);
	/* every (pixel, sample) of a 4x4-pixel block lands once in the scaled
	 * block, for each sample count */
	static const uint32_t scale[5][2] = { { 1, 1 }, { 2, 1 }, { 2, 2 }, { 4, 2 }, { 4, 4 } };
	for (unsigned k = 1; k < 5; k++) {
		uint32_t n = 1u << k, sw = scale[k][0], sh = scale[k][1];
		uint8_t seen[16][16] = { { 0 } };
		int bad = 0;
		for (uint32_t py = 0; py < 4; py++)
			for (uint32_t px = 0; px < 4; px++)
				for (uint32_t s = 0; s < n; s++) {
					surface_sample_position(SURFACE_MSAA_INTERLEAVED, n, px, py,
								0, s, &x, &y, &slice);
					if (x >= 4 * sw || y >= 4 * sh || seen[y][x]++)
						bad++;
				}
		CHECK_EQ(bad, 0);
	}

	/* CCS clear blocks: gen9 Y 2048/bpp x 32; gen8 Y 2048/bpp x 64, X
	 * 4096/bpp x 32 */
	uint32_t bw = 0, bh = 0;
	char why[160];
	CHECK_EQ(surface_ccs_clear_block(9, SURFACE_TILE_Y, 4, &bw, &bh, why), 0);
	CHECK_EQ(bw, 64);
	CHECK_EQ(bh, 32);
	CHECK_EQ(surface_ccs_clear_block(9, SURFACE_TILE_Y, 16, &bw, &bh, why), 0);
	CHECK_EQ(bw, 16);
	CHECK_EQ(bh, 32);
	CHECK_EQ(surface_ccs_clear_block(8, SURFACE_TILE_Y, 8, &bw, &bh, why), 0);
	CHECK_EQ(bw, 32);
	CHECK_EQ(bh, 64);
	CHECK_EQ(surface_ccs_clear_block(8, SURFACE_TILE_X, 4, &bw, &bh, why), 0);
	CHECK_EQ(bw, 128);
	CHECK_EQ(bh, 32);
	CHECK(surface_ccs_clear_block(9, SURFACE_TILE_X, 4, &bw, &bh, why) != 0);
	CHECK(surface_ccs_clear_block(8, SURFACE_LINEAR, 4, &bw, &bh, why) != 0);
	CHECK(surface_ccs_clear_block(9, SURFACE_TILE_Y, 2, &bw, &bh, why) != 0);
	return test_exit();
}
