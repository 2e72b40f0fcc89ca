/* The depth and separate stencil buffers (3DSTATE_DEPTH_BUFFER: Y-major;
 * 3DSTATE_STENCIL_BUFFER: W-major, one byte a pixel) as views of one level
 * and layer: LOD and Minimum Array Element placed by the same layouts as
 * RENDER_SURFACE_STATE (surface_mip.c), with the alignments those commands
 * imply since they carry none: the BDW PRM vol. 5 "Memory Views" table of
 * alignment units (SKL keeps it for these buffers): DEPTH_BUFFER 8 x 4
 * for D16_UNORM and 4 x 4 for the other formats, STENCIL_BUFFER 8 x 8.
 * Surface QPitch holds bits 16:2 of the rows between slices. The layer is
 * the Minimum Array Element of the command given (the back end adds a
 * primitive's Render Target Array Index to it: render/wm_state.c). */
#include <stdio.h>

#include "gpu/cmd/cmd_structs.h"
#include "gpu/surface/surface.h"

#define WHY(...) (snprintf(why, 160, __VA_ARGS__), -1)
#define D16_UNORM 5      /* 3DSTATE_DEPTH_BUFFER Surface Format */

static int view(struct surface_layout *l, int gen, const struct cmd_3DSTATE_DEPTH_BUFFER *db,
		struct surface_view *v, char *why)
{
	l->gen = gen;
	l->type = db->surface_type;
	l->width = db->width + 1;
	l->height = db->height + 1;
	l->depth = db->depth + 1;
	l->mip_count_lod = db->lod;
	l->min_array = db->minimum_array_element;
	l->dim_layout = l->type == SURF_3D && gen == 8 ? SURFACE_DIM_GEN8_3D : SURFACE_DIM_2D;
	l->samples = 1;
	if (gen >= 9 && db->tiled_resource_mode)
		return WHY("tiled resource mode %u (%s tiling) is not implemented in gtsim",
			   db->tiled_resource_mode, db->tiled_resource_mode == 1 ? "Yf" : "Ys");
	surface_layout_levels(l, db->lod + 1);
	return surface_view_of(l, db->lod, db->minimum_array_element, v);
}

int surface_depth_view(int gen, const struct cmd_3DSTATE_DEPTH_BUFFER *db,
		       struct surface_view *v, char *why)
{
	bool d16 = db->surface_format == D16_UNORM;
	struct surface_layout l = {
		.base = db->surface_base_address, .pitch = db->surface_pitch + 1,
		.cpp = d16 ? 2 : 4, .format = db->surface_format, .tiling = SURFACE_TILE_Y,
		.qpitch = db->surface_qpitch << 2, .halign = d16 ? 8 : 4, .valign = 4,
	};
	return view(&l, gen, db, v, why);
}

int surface_stencil_view(int gen, const struct cmd_3DSTATE_DEPTH_BUFFER *db,
			 const struct cmd_3DSTATE_STENCIL_BUFFER *sb, struct surface_view *v,
			 char *why)
{
	struct surface_layout l = {
		.base = sb->surface_base_address, .pitch = sb->surface_pitch + 1, .cpp = 1,
		.tiling = SURFACE_TILE_W, .qpitch = sb->surface_qpitch << 2, .halign = 8,
		.valign = 8,
	};
	return view(&l, gen, db, v, why);
}
