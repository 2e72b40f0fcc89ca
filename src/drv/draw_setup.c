/* The complete draw of draw_setup.h. */
#include "drv/draw_setup.h"

#include <errno.h>
#include <string.h>

#include "drv/seed_shaders.h"

/* PRM vol. 2d, SURFACE_FORMAT: R32G32B32A32_FLOAT 0x000, R8G8B8A8_UNORM
 * 0x0C7; SURFTYPE_2D 1 */
enum { TRISTRIP = 5, R32G32B32A32_FLOAT = 0, R8G8B8A8_UNORM = 0xc7, SURFTYPE_2D = 1 };

/* Viewport onto the target (y up, as GL), CC viewport depth 0..1, the
 * binding table and the target's surface state. */
static int write_state(struct gtdrv_draw_setup *s)
{
	int gen = s->drv->gen, r = 0;
	uint32_t dyn[GTDRV_DRAW_DYN_FREE / 4] = { 0 }, surf[32] = { 0 };
	float w = (float)s->width, h = (float)s->height;
	r |= cmd_SF_CLIP_VIEWPORT_pack(gen, dyn + GTDRV_DRAW_DYN_SF_CLIP / 4, 16,
		&(const struct cmd_SF_CLIP_VIEWPORT){
		.viewport_matrix_element_m00 = w / 2.0f,
		.viewport_matrix_element_m11 = -(h / 2.0f),
		.viewport_matrix_element_m22 = 0.5f,
		.viewport_matrix_element_m30 = w / 2.0f,
		.viewport_matrix_element_m31 = h / 2.0f,
		.viewport_matrix_element_m32 = 0.5f,
		.x_min_clip_guardband = -1, .x_max_clip_guardband = 1,
		.y_min_clip_guardband = -1, .y_max_clip_guardband = 1,
		/* the viewport's extents cut the rasterized pixels */
		.x_min_viewport = 0, .x_max_viewport = w - 1.0f,
		.y_min_viewport = 0, .y_max_viewport = h - 1.0f });
	r |= cmd_CC_VIEWPORT_pack(gen, dyn + GTDRV_DRAW_DYN_CC_VP / 4, 2,
				  &(const struct cmd_CC_VIEWPORT){ .minimum_depth = 0,
								   .maximum_depth = 1 });
	surf[0] = GTDRV_DRAW_SURF_RSS;   /* entry 0; the others stay 0: unbound */
	r |= cmd_RENDER_SURFACE_STATE_pack(gen, surf + GTDRV_DRAW_SURF_RSS / 4, 16,
		&(const struct cmd_RENDER_SURFACE_STATE){
		.surface_type = SURFTYPE_2D, .surface_format = R8G8B8A8_UNORM,
		.width = s->width - 1, .height = s->height - 1,
		.surface_pitch = s->pitch - 1, .tile_mode = 0 });
	if (r)
		return -EINVAL;
	r = gtdrv_bo_write(s->drv, &s->dyn, 0, dyn, sizeof(dyn));
	r = r ? r : gtdrv_bo_write(s->drv, &s->surf, 0, surf, sizeof(surf));
	return r ? r : gtdrv_bo_write(s->drv, &s->vbo, 0, gtdrv_square, sizeof(gtdrv_square));
}

int gtdrv_draw_setup_init(struct gtdrv_draw_setup *s, struct gtdrv *drv, uint32_t width,
			  uint32_t height)
{
	memset(s, 0, sizeof(*s));
	s->drv = drv;
	/* RENDER_SURFACE_STATE: 14-bit width and height fields */
	if (!width || !height || width > 16384 || height > 16384)
		return -EINVAL;
	s->width = width;
	s->height = height;
	s->pitch = (width * 4 + 63) & ~63u;
	int r = gtdrv_bo_alloc(drv, &s->kernel, 8192);
	r = r ? r : gtdrv_bo_alloc(drv, &s->dyn, 4096);
	r = r ? r : gtdrv_bo_alloc(drv, &s->surf, 4096);
	r = r ? r : gtdrv_bo_alloc(drv, &s->vbo, 4096);
	r = r ? r : gtdrv_bo_alloc(drv, &s->rt,
				   ((uint64_t)s->pitch * height + 4095) & ~4095ull);
	r = r ? r : write_state(s);
	if (r)
		gtdrv_draw_setup_fini(s);
	return r;
}

void gtdrv_draw_setup_fini(struct gtdrv_draw_setup *s)
{
	struct gtdrv_bo *bos[] = { &s->kernel, &s->dyn, &s->surf, &s->vbo, &s->rt };
	for (size_t i = 0; i < sizeof(bos) / sizeof(bos[0]); i++)
		if (bos[i]->handle)
			gtdrv_bo_free(s->drv, bos[i]);
}

int gtdrv_draw_setup_shaders(struct gtdrv_draw_setup *s, const char *vs, const char *fs)
{
	int r = gtdrv_upload_kernel(s->drv, &s->kernel, 0, vs, NULL);
	return r ? r : gtdrv_upload_kernel(s->drv, &s->kernel, GTDRV_DRAW_FS_OFFSET, fs, NULL);
}

/* STATE_BASE_ADDRESS's surface state base at the surface buffer (the
 * other bases come with gtdrv_emit_3d_begin). */
static int emit_surface_base(struct gtdrv_batch *b, struct gtdrv_draw_setup *s)
{
	int gen = b->drv->gen;
	uint32_t len = GTDRV_CMD_LEN(b, STATE_BASE_ADDRESS);
	uint32_t *dw = gtdrv_cmd_start(b, len);
	const struct cmd_STATE_BASE_ADDRESS sba = {
		.surface_state_base_address_modify_enable = true,
		.surface_state_base_address = s->surf.offset };
	gtdrv_cmd_reloc(b, cmd_STATE_BASE_ADDRESS_surface_state_base_address_bit(gen), &s->surf,
			I915_GEM_DOMAIN_INSTRUCTION, 0);
	return gtdrv_cmd_end(b, "STATE_BASE_ADDRESS", cmd_STATE_BASE_ADDRESS_pack(gen, dw, len, &sba));
}

#define DRAW_MAX_VBS 4

int gtdrv_draw_emit(struct gtdrv_batch *b, struct gtdrv_draw_setup *s,
		    const struct gtdrv_draw_options *o)
{
	static const struct gtdrv_draw_options defaults;
	static const struct gtdrv_vertex_attrib position = {
		.buffer = 0, .format = R32G32B32A32_FLOAT, .size = 4 };
	if (!o)
		o = &defaults;
	if (o->nextra_vbs >= DRAW_MAX_VBS)
		return -EINVAL;
	struct urb_config urb;
	/* VUE: header, position, one attribute -> one 64-byte unit */
	int r = urb_config_compute(s->drv->info, 0, (const unsigned[4]){ 1, 0, 0, 0 }, &urb);
	/* the target's address in its surface state: relocated by the kernel
	 * if the target is not where presumed (seed 002) */
	int base = cmd_RENDER_SURFACE_STATE_surface_base_address_bit(s->drv->gen);
	if (!r && base < 0)
		r = -EINVAL;
	if (r)
		return r;
	gtdrv_batch_state_reloc(b, &s->surf, GTDRV_DRAW_SURF_RSS + (uint32_t)base / 8, &s->rt,
				I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER, 0);
	r = gtdrv_emit_3d_begin(b, &s->kernel, &s->dyn);
	r = r ? r : emit_surface_base(b, s);
	r = r ? r : gtdrv_emit_urb(b, &urb);
	r = r ? r : gtdrv_emit_geometry_off(b);
	r = r ? r : gtdrv_emit_vs(b, &(struct gtdrv_vs){ .kernel_offset = 0, .grf_start = 2,
							.read_length = 1, .output_length = 1 });
	struct gtdrv_vb vbs[DRAW_MAX_VBS] = { { .index = 0, .bo = &s->vbo, .pitch = 16,
						.size = sizeof(gtdrv_square) } };
	for (unsigned i = 0; i < o->nextra_vbs; i++)
		vbs[1 + i] = o->extra_vbs[i];
	r = r ? r : gtdrv_emit_vertex_buffers(b, vbs, 1 + o->nextra_vbs);
	r = r ? r : gtdrv_emit_vertex_elements(b, o->attribs ? o->attribs : &position,
					       o->attribs ? o->nattribs : 1);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_VF_SGVS, .vertexid_enable = o->vertex_id,
			       .vertexid_element_offset = o->vertex_id ? 1 : 0,
			       .vertexid_component_number = 0);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_CLIP, .clip_enable = true,
			       .guardband_clip_test_enable = true);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_SF, .viewport_transform_enable = true);
	/* gen9 splits the Z clip test into near and far (3DSTATE_RASTER);
	 * each generation packs only the fields it has */
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_RASTER, .cull_mode = 1,
			       .viewport_z_clip_test_enable = true,
			       .viewport_z_near_clip_test_enable = true,
			       .viewport_z_far_clip_test_enable = true);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP,
			       .sf_clip_viewport_pointer = GTDRV_DRAW_DYN_SF_CLIP);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_VIEWPORT_STATE_POINTERS_CC,
			       .cc_viewport_pointer = GTDRV_DRAW_DYN_CC_VP);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_BLEND_STATE_POINTERS,
			       .blend_state_pointer = o->blend_state_offset ?
					       o->blend_state_offset : GTDRV_DRAW_DYN_BLEND,
			       .blend_state_pointer_valid = true);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_CC_STATE_POINTERS,
			       .color_calc_state_pointer = GTDRV_DRAW_DYN_CC,
			       .color_calc_state_pointer_valid = true);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_DRAWING_RECTANGLE,
			       .clipped_drawing_rectangle_x_max = s->width - 1,
			       .clipped_drawing_rectangle_y_max = s->height - 1);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_SBE, .vertex_urb_entry_read_offset = 1,
			       .vertex_urb_entry_read_length = 1,
			       .number_of_sf_output_attributes = 1);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_WM, .barycentric_interpolation_mode = 1);
	/* the FS's dispatch GRF start 4: after g0, g1 and the perspective
	 * pixel barycentrics g2-g3 (seed_shaders.h) */
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_PS, .kernel_start_pointer_0 = GTDRV_DRAW_FS_OFFSET,
			       ._8_pixel_dispatch_enable = true,
			       .dispatch_grf_start_register_for_constant_setup_data_0 = 4,
			       .binding_table_entry_count = o->binding_table_entries ?
							    o->binding_table_entries : 1,
			       .maximum_number_of_threads_per_psd = 63);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_PS_EXTRA, .pixel_shader_valid = true,
			       .attribute_enable = true);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_BINDING_TABLE_POINTERS_PS,
			       .pointer_to_ps_binding_table = 0);
	return r ? r : gtdrv_emit_draw(b, &(struct gtdrv_draw){ .topology = TRISTRIP,
		.vertex_count = 4, .instance_count = 1 });
}
