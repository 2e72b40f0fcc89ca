/* RENDER_SURFACE_STATE (PRM vol. 2d) read through the generated typed
 * struct into a struct surface_layout: sizes (Width/Height/Depth + 1;
 * a buffer's entry count spread over the three), Surface Pitch + 1, QPitch
 * (the field holds bits 16:2), HALIGN/VALIGN, Tile Mode, the dim layout
 * of the generation, samples, aux surface and clear colour, then the level
 * table. Compressed formats are laid out in blocks (elements); the
 * fields' units differ by generation (below). */
#include <stdio.h>
#include <string.h>

#include "gpu/cmd/cmd_structs.h"
#include "gpu/format/format.h"
#include "gpu/surface/surface.h"

#define WHY(...) (snprintf(why, 160, __VA_ARGS__), -1)

/* SURFACE_HORIZONTAL/VERTICAL_ALIGNMENT: 1 = 4, 2 = 8, 3 = 16; 0 is
 * reserved (kept as 0 here: an error once a level needs it). */
static const uint32_t align_of[4] = { 0, 4, 8, 16 };

static uint8_t dim_layout(int gen, uint32_t type, uint32_t tiling)
{
	if (type == SURF_BUFFER || type == SURF_STRBUF)
		return SURFACE_DIM_BUFFER;
	if (type == SURF_3D && gen == 8)
		return SURFACE_DIM_GEN8_3D;
	/* gen9 1D surfaces are linear; a tiled one is laid out as 2D (SKL
	 * PRM vol. 5 "1D Surfaces": "a 1D surface can be defined as a 2D
	 * tiled surface with a height of 0") */
	if (type == SURF_1D && gen >= 9 && tiling == SURFACE_LINEAR)
		return SURFACE_DIM_GEN9_1D;
	return SURFACE_DIM_2D;
}

/* A compressed format's alignments, QPitch and X/Y Offset in blocks. Gen9
 * counts HALIGN/VALIGN and QPitch in elements already ("For compressed
 * texture formats, the units of "i" are in compression blocks"); gen8
 * counts them in pixels and rows of the uncompressed surface (BDW PRM
 * RENDER_SURFACE_STATE QPitch: "this field is in units of rows in the
 * uncompressed surface"), where an alignment below the block is one block.
 * X/Y Offset are pixels on both. */
static void block_units(int gen, struct surface_layout *l)
{
	const struct fmt_info *fi = format_info(l->format);
	l->bw = fi && fi->compressed ? fi->bw : 1;
	l->bh = fi && fi->compressed ? fi->bh : 1;
	if (l->bw == 1 && l->bh == 1)
		return;
	if (gen < 9) {
		l->halign = l->halign && l->halign < l->bw ? 1 : l->halign / l->bw;
		l->valign = l->valign && l->valign < l->bh ? 1 : l->valign / l->bh;
		l->qpitch /= l->bh;
	}
	l->x_offset /= l->bw;
	l->y_offset /= l->bh;
}

int surface_layout_from_state(int gen, const uint32_t ss[16], struct surface_layout *l,
			      char *why)
{
	struct cmd_RENDER_SURFACE_STATE v;
	if (!cmd_RENDER_SURFACE_STATE_unpack(gen, ss, 16, &v))
		return WHY("no RENDER_SURFACE_STATE layout for gen %d", gen);
	l->gen = gen;
	l->type = v.surface_type;
	l->format = v.surface_format;
	l->array = v.surface_array;
	l->base = v.surface_base_address;
	l->pitch = v.surface_pitch + 1;
	l->cpp = 0;
	l->tiling = (uint8_t)(v.tile_mode & 3);
	l->dim_layout = dim_layout(gen, l->type, l->tiling);
	if (l->dim_layout == SURFACE_DIM_BUFFER) {
		/* entries - 1 spread over Width 6:0, Height 20:7, Depth 30:21;
		 * the pitch is the element stride */
		l->width = ((v.width & 0x7f) | (v.height & 0x3fff) << 7 | (v.depth & 0x3ff) << 21) + 1;
		l->height = l->depth = 1;
	} else {
		l->width = v.width + 1;
		l->height = v.height + 1;
		l->depth = v.depth + 1;
	}
	l->qpitch = v.surface_qpitch << 2;
	l->halign = align_of[v.surface_horizontal_alignment & 3];
	l->valign = align_of[v.surface_vertical_alignment & 3];
	/* a gen9 linear 1D surface ignores these fields: its levels are 64
	 * elements aligned (surface_mip.c) */
	l->tiled_resource = gen >= 9 ? (uint8_t)v.tiled_resource_mode : 0;
	l->samples = 1u << (v.number_of_multisamples & 7);
	l->msaa_layout = (uint8_t)v.multisampled_surface_storage_format;
	l->mip_count_lod = v.mip_count_lod;
	l->min_lod = v.surface_min_lod;
	l->min_array = v.minimum_array_element;
	l->rt_view_extent = v.render_target_view_extent;
	l->x_offset = v.x_offset * 4;
	l->y_offset = v.y_offset * 4;
	l->vline_stride = (uint8_t)v.vertical_line_stride;
	l->vline_offset = (uint8_t)v.vertical_line_stride_offset;
	l->media_boundary = (uint8_t)v.media_boundary_pixel_mode;
	l->scs[0] = (uint8_t)v.shader_channel_select_red;
	l->scs[1] = (uint8_t)v.shader_channel_select_green;
	l->scs[2] = (uint8_t)v.shader_channel_select_blue;
	l->scs[3] = (uint8_t)v.shader_channel_select_alpha;
	l->aux_mode = (uint8_t)v.auxiliary_surface_mode;
	l->aux_base = v.auxiliary_surface_base_address;
	l->aux_pitch = (v.auxiliary_surface_pitch + 1) * 128;   /* Y tiles (128 B wide) - 1 */
	l->aux_qpitch = v.auxiliary_surface_qpitch << 2;
	l->clear_color[0] = (uint32_t)v.red_clear_color;
	l->clear_color[1] = (uint32_t)v.green_clear_color;
	l->clear_color[2] = (uint32_t)v.blue_clear_color;
	l->clear_color[3] = (uint32_t)v.alpha_clear_color;

	block_units(gen, l);

	/* SURFTYPE_NULL (PRM vol. 2d RENDER_SURFACE_STATE "Surface Type"): no
	 * memory behind it, writes are dropped and reads give 0, so its other
	 * fields are not a layout: iris's null render target of a depth-only
	 * draw keeps the depth buffer's size and levels with alignments 0 */
	if (l->type == SURF_NULL) {
		l->nlevels = 0;
		return 0;
	}
	if (l->tiled_resource)
		return WHY("tiled resource mode %u (%s tiling) is not implemented in gtsim",
			   l->tiled_resource, l->tiled_resource == 1 ? "Yf" : "Ys");
	uint32_t n = l->dim_layout == SURFACE_DIM_BUFFER ? 1 : l->min_lod + l->mip_count_lod + 1;
	bool needs_align = n > 1 || l->dim_layout == SURFACE_DIM_GEN8_3D;
	if (needs_align && (!l->halign || !l->valign))
		return WHY("reserved surface %s alignment 0 on a surface with levels or 3D slices",
			   l->halign ? "vertical" : "horizontal");
	surface_layout_levels(l, n);
	return 0;
}
