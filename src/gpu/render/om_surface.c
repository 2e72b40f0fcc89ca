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

static uint32_t minify(uint32_t size, uint32_t level)
{
	uint32_t v = level < 32 ? size >> level : 0;
	return v ? v : 1;
}

static uint64_t align_up(uint64_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

void om_level_layout(uint32_t w, uint32_t h, uint32_t halign, uint32_t valign, uint32_t level,
		     uint32_t *x, uint32_t *y, uint32_t *lw, uint32_t *lh)
{
	uint64_t lx = 0, ly = 0;
	for (uint32_t l = 0; l < level && l < 32; l++) {
		if (l == 1)
			lx += align_up(minify(w, 1), halign);
		else
			ly += align_up(minify(h, l), valign);
	}
	*x = lx > UINT32_MAX ? UINT32_MAX : (uint32_t)lx;
	*y = ly > UINT32_MAX ? UINT32_MAX : (uint32_t)ly;
	*lw = minify(w, level);
	*lh = minify(h, level);
}

void om_3d_slice_origin(const struct om_layout_3d *l, uint32_t z, uint32_t *x, uint32_t *y)
{
	uint64_t ly = 0;
	uint32_t level = l->level < 32 ? l->level : 31;
	for (uint32_t i = 0; i < level; i++) {
		uint64_t per_row = 1ull << i, d = minify(l->d, i);
		ly += align_up(minify(l->h, i), l->valign) * ((d + per_row - 1) / per_row);
	}
	uint64_t across = 1ull << level, d = minify(l->d, level);
	if (across > d)
		across = d;
	uint64_t sx = align_up(minify(l->w, level), l->halign) * (z % across);
	uint64_t sy = ly + align_up(minify(l->h, level), l->valign) * (z / across);
	*x = sx > UINT32_MAX ? UINT32_MAX : (uint32_t)sx;
	*y = sy > UINT32_MAX ? UINT32_MAX : (uint32_t)sy;
}
