/* Auxiliary surfaces as gtsim models them: by their effect (DESIGN.md).
 * A colour fast clear writes the clear colour straight into the main
 * surface, block by block, and the CCS is never read or written; HiZ
 * clears (3DSTATE_WM_HZ_OP) write the depth buffer itself; the MCS is
 * kept at the identity (surface_sample.c). What remains of the aux layouts
 * is the size of the main-surface block one pixel of a fast-clear
 * rectangle stands for (PRM vol. 7 "Render Target Fast Clear", "MCS Buffer
 * for Render Target(s)"): a CCS cache line covers 16 x 32 (gen8) or
 * 16 x 16 (gen9) CCS elements, an element 256 bits of a Y-tile row (512 of
 * an X-tile row on gen8) by 4 rows (2 for X tiles); the clear rectangle is
 * scaled down by half the resulting alignment. */
#include <stdio.h>

#include "gpu/surface/surface.h"

int surface_ccs_clear_block(int gen, unsigned tiling, uint32_t cpp, uint32_t *bw, uint32_t *bh,
			    char *why)
{
	unsigned bpp = cpp * 8;
	if (bpp != 32 && bpp != 64 && bpp != 128) {
		snprintf(why, 160, "the CCS covers 32, 64 and 128-bit formats only, not %u-bit",
			 bpp);
		return -1;
	}
	if (tiling != SURFACE_TILE_Y && (gen >= 9 || tiling != SURFACE_TILE_X)) {
		snprintf(why, 160, "no CCS for a %s surface", tiling == SURFACE_LINEAR ? "linear" :
			 tiling == SURFACE_TILE_W ? "W-tiled" : "gen9 X-tiled");
		return -1;
	}
	*bw = (tiling == SURFACE_TILE_X ? 4096 : 2048) / bpp;
	*bh = gen >= 9 || tiling == SURFACE_TILE_X ? 32 : 64;
	return 0;
}
