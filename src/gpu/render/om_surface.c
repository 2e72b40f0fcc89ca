/* Addresses of pixels in the surfaces the output merger writes: linear,
 * X-, Y- and W-major (separate stencil) through the memory unit's tiling
 * functions. */
#include "gpu/mem/tiling.h"
#include "gpu/render/om.h"

bool om_surface_offset(const struct om_surface *s, uint32_t x, uint32_t y, uint64_t *off)
{
	if (x >= s->width || y >= s->height)
		return false;
	uint64_t bx = ((uint64_t)x + s->x_offset) * s->cpp, by = (uint64_t)y + s->y_offset;
	switch (s->tiling) {
	case OM_TILE_W:
		*off = tile_w_offset(bx, by, s->pitch);
		return true;
	case OM_TILE_X:
		*off = tiled_offset(GT_TILING_X, bx, by, s->pitch);
		return true;
	case OM_TILE_Y:
		*off = tiled_offset(GT_TILING_Y, bx, by, s->pitch);
		return true;
	default:
		*off = by * s->pitch + bx;
		return true;
	}
}
