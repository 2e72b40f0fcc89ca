/* Where levels and slices start (PRM vol. 5 "Surface Layout"):
 *  - 2D layout (1D/2D/cube surfaces, gen9 3D): level 0 at the origin,
 *    level 1 below it, level 2 right of level 1, each later level below the
 *    one before; array slices (and gen9 3D slices) QPitch rows apart.
 *  - gen8 3D: level l holds its max(1, D >> l) slices 2^l to a row, each
 *    level's rows below the previous level's; QPitch does not apply.
 *  - gen9 1D: the levels side by side in one row, each 64 pixels aligned
 *    whatever HALIGN says (SKL PRM vol. 5 "1D Alignment Requirements", as
 *    Mesa's isl quotes it and lays 1D images out); array slices QPitch
 *    pixels apart ("Surface QPitch specifies the distance in pixels").
 * Every level's size is rounded up to HALIGN x VALIGN before placing the
 * next ("LOD alignment"). Everything is counted in elements: pixels, or
 * the blocks of a compressed format ("An element is defined as a pixel in
 * uncompressed surface formats, and as a compression block in compressed
 * surface formats"). */
#include "gpu/surface/surface.h"

uint32_t surface_minify(uint32_t size, uint32_t level)
{
	uint32_t v = level < 32 ? size >> level : 0;
	return v ? v : 1;
}

static uint32_t div_up(uint32_t v, uint32_t d)
{
	return d > 1 ? (v + d - 1) / d : v;
}

uint32_t surface_level_width_el(const struct surface_layout *l, uint32_t level)
{
	return div_up(surface_minify(l->width, level), l->bw);
}

uint32_t surface_level_height_el(const struct surface_layout *l, uint32_t level)
{
	return div_up(surface_minify(l->height, level), l->bh);
}

static uint64_t align_up(uint64_t v, uint32_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

static uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void surface_layout_levels(struct surface_layout *l, uint32_t n)
{
	if (n > SURFACE_MAX_LEVELS)
		n = SURFACE_MAX_LEVELS;
	if (n < 1)
		n = 1;
	uint64_t x = 0, y = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct surface_level *lv = &l->level[i];
		lv->aw = clamp32(align_up(surface_level_width_el(l, i),
					  l->dim_layout == SURFACE_DIM_GEN9_1D ? 64 : l->halign));
		lv->ah = clamp32(align_up(surface_level_height_el(l, i), l->valign));
		if (l->dim_layout == SURFACE_DIM_BUFFER) {
			lv->x = lv->y = 0;
			continue;
		}
		lv->x = clamp32(x);
		lv->y = clamp32(y);
		/* the next level's origin */
		switch (l->dim_layout) {
		case SURFACE_DIM_GEN8_3D: {
			uint64_t d = surface_minify(l->depth, i), per_row = 1ull << i;
			y += (uint64_t)lv->ah * ((d + per_row - 1) / per_row);
			break;
		}
		case SURFACE_DIM_GEN9_1D:
			x += lv->aw;
			break;
		default:
			if (i == 1)
				x += lv->aw;
			else
				y += lv->ah;
			break;
		}
	}
	l->nlevels = n;
}

void surface_slice_origin(const struct surface_layout *l, uint32_t level, uint32_t slice,
			  uint64_t *x, uint64_t *y)
{
	const struct surface_level *lv = &l->level[level];
	*x = lv->x;
	*y = lv->y;
	switch (l->dim_layout) {
	case SURFACE_DIM_GEN8_3D: {
		uint64_t d = surface_minify(l->depth, level);
		uint64_t across = level < 32 && (1ull << level) < d ? 1ull << level : d;
		*x += (uint64_t)lv->aw * (slice % across);
		*y += (uint64_t)lv->ah * (slice / across);
		break;
	}
	case SURFACE_DIM_GEN9_1D: {
		/* QPitch pixels of the linear surface: whole rows of the pitch,
		 * then the rest */
		uint64_t bytes = (uint64_t)slice * l->qpitch * l->cpp;
		*y += bytes / l->pitch;
		*x += l->cpp ? bytes % l->pitch / l->cpp : 0;
		break;
	}
	case SURFACE_DIM_BUFFER:
		break;
	default:
		*y += (uint64_t)slice * l->qpitch;
		break;
	}
}

int surface_view_of(const struct surface_layout *l, uint32_t level, uint32_t slice,
		    struct surface_view *v)
{
	if (level >= l->nlevels)
		return -1;
	uint64_t x, y;
	surface_slice_origin(l, level, slice, &x, &y);
	*v = (struct surface_view){
		.base = l->base,
		.width = surface_level_width_el(l, level),
		.height = surface_level_height_el(l, level),
		.pitch = l->pitch,
		.cpp = l->cpp,
		.format = l->format,
		.tiling = l->tiling,
		.x_offset = clamp32(x + l->x_offset),
		.y_offset = clamp32(y + l->y_offset),
	};
	return 0;
}
