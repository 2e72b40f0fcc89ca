/* The scene of the tessellation draw tests (test_tess_draw.c,
 * test_tess_modes.c): a kernel buffer with the VS, HS, DS and PS at fixed
 * offsets, dynamic state for seed 000's back end into a 32 x 32 RGBA8
 * linear target, a vertex buffer, and a buffer for register stores. */
#ifndef GTSIM_TEST_TESS_SCENE_H
#define GTSIM_TEST_TESS_SCENE_H

#include <i915_drm.h>
#include <linux/sync_file.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "drv/pipeline.h"
#include "drv/seed_shaders.h"
#include "gpu/cs/regs.h"
#include "gpu/eu/asm.h"
#include "gpu/format/format.h"
#include "kernel/sync/fence.h"
#include "sync_file_check.h"
#include "test.h"

#define W 32u
#define H 32u
#define PITCH (W * 4)
#define RT_BYTES (PITCH * H)
#define VS_OFFSET 0x0
#define HS_OFFSET 0x400
#define DS_OFFSET 0x800
#define FS_OFFSET 0xc00
#define DYN_SF_CLIP 0x0
#define DYN_CC_VP 0x40
#define DYN_BLEND 0x80
#define DYN_CC 0xc0
#define SURF_RSS 0x40
#define PATCHLIST_3 (32 + 2)

enum { R32G32B32A32_FLOAT = 0 };

struct scene {
	struct gtdrv drv;
	struct gtdrv_bo kernel, dyn, surf, vbo, rt, res;
};

static inline void upload(struct scene *sc, uint32_t at, const char *text)
{
	struct eu_asm_result res;
	if (eu_assemble(sc->drv.gen, text, strlen(text), "test.asm", &res)) {
		fprintf(stderr, "%s\n", res.error);
		CHECK(0);
		return;
	}
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->kernel, at, res.bytes, res.len), 0);
	eu_asm_result_free(&res);
}

/* The buffers; vbo holds `verts` (at most 4096 bytes); the VS and PS are
 * seed 000's (position through, the VUE's colour row interpolated). */
static inline void scene_init(struct scene *sc, struct gtsim_file *file, const char *device,
			      const void *verts, size_t verts_bytes, const char *hs_text,
			      const char *ds_text)
{
	gtdrv_init(&sc->drv, file, devinfo_lookup(device));
	struct gtdrv_bo *bos[] = { &sc->kernel, &sc->dyn, &sc->surf, &sc->vbo, &sc->rt, &sc->res };
	for (size_t i = 0; i < sizeof(bos) / sizeof(bos[0]); i++)
		CHECK_EQ(gtdrv_bo_alloc(&sc->drv, bos[i], 4096), 0);
	int gen = sc->drv.gen, r = 0;
	uint32_t dyn[64] = { 0 }, surf[32] = { 0 };
	r |= cmd_SF_CLIP_VIEWPORT_pack(gen, dyn + DYN_SF_CLIP / 4, 16, &(const struct cmd_SF_CLIP_VIEWPORT){
		.viewport_matrix_element_m00 = W / 2.0f, .viewport_matrix_element_m11 = H / 2.0f,
		.viewport_matrix_element_m22 = 0.5f, .viewport_matrix_element_m30 = W / 2.0f,
		.viewport_matrix_element_m31 = H / 2.0f, .viewport_matrix_element_m32 = 0.5f,
		.x_min_clip_guardband = -1, .x_max_clip_guardband = 1,
		.y_min_clip_guardband = -1, .y_max_clip_guardband = 1,
		.x_min_viewport = 0, .x_max_viewport = W - 1,
		.y_min_viewport = 0, .y_max_viewport = H - 1 });
	r |= cmd_CC_VIEWPORT_pack(gen, dyn + DYN_CC_VP / 4, 2, &(const struct cmd_CC_VIEWPORT){
		.minimum_depth = 0, .maximum_depth = 1 });
	surf[0] = SURF_RSS;
	r |= cmd_RENDER_SURFACE_STATE_pack(gen, surf + SURF_RSS / 4, 16,
		&(const struct cmd_RENDER_SURFACE_STATE){
		.surface_type = 1, .surface_format = FMT_R8G8B8A8_UNORM,
		.width = W - 1, .height = H - 1, .surface_pitch = PITCH - 1, .tile_mode = 0 });
	CHECK_EQ(r, 0);
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->dyn, 0, dyn, sizeof(dyn)), 0);
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->surf, 0, surf, sizeof(surf)), 0);
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->vbo, 0, verts, verts_bytes), 0);
	static uint8_t zero[RT_BYTES];
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->rt, 0, zero, sizeof(zero)), 0);
	upload(sc, VS_OFFSET, gtdrv_green_vs);
	upload(sc, HS_OFFSET, hs_text);
	upload(sc, DS_OFFSET, ds_text);
	upload(sc, FS_OFFSET, gtdrv_color_fs);
}

static inline void scene_fini(struct scene *sc)
{
	struct gtdrv_bo *bos[] = { &sc->kernel, &sc->dyn, &sc->surf, &sc->vbo, &sc->rt, &sc->res };
	for (size_t i = 0; i < sizeof(bos) / sizeof(bos[0]); i++)
		gtdrv_bo_free(&sc->drv, bos[i]);
}

static inline int emit_surface_base(struct gtdrv_batch *b, struct scene *sc)
{
	int gen = sc->drv.gen;
	uint32_t len = GTDRV_CMD_LEN(b, STATE_BASE_ADDRESS);
	uint32_t *dw = gtdrv_cmd_start(b, len);
	const struct cmd_STATE_BASE_ADDRESS sba = {
		.surface_state_base_address_modify_enable = true,
		.surface_state_base_address = sc->surf.offset };
	gtdrv_cmd_reloc(b, cmd_STATE_BASE_ADDRESS_surface_state_base_address_bit(gen), &sc->surf,
			I915_GEM_DOMAIN_INSTRUCTION, 0);
	return gtdrv_cmd_end(b, "STATE_BASE_ADDRESS", cmd_STATE_BASE_ADDRESS_pack(gen, dw, len, &sba));
}

/* The back end of seed 000's square: viewport onto the target, no
 * culling, attribute 0 = VUE row 2 interpolated by the PS into RT 0. */
static inline int emit_back_end(struct gtdrv_batch *b)
{
	int r = 0;
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_CLIP, .clip_enable = true, .guardband_clip_test_enable = true);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_SF, .viewport_transform_enable = true);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_RASTER, .cull_mode = 1, .viewport_z_clip_test_enable = true);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP,
			       .sf_clip_viewport_pointer = DYN_SF_CLIP);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_VIEWPORT_STATE_POINTERS_CC, .cc_viewport_pointer = DYN_CC_VP);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_BLEND_STATE_POINTERS, .blend_state_pointer = DYN_BLEND,
			       .blend_state_pointer_valid = true);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_CC_STATE_POINTERS, .color_calc_state_pointer = DYN_CC,
			       .color_calc_state_pointer_valid = true);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_DRAWING_RECTANGLE, .clipped_drawing_rectangle_x_max = W - 1,
			       .clipped_drawing_rectangle_y_max = H - 1);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_SBE, .vertex_urb_entry_read_offset = 1,
			       .vertex_urb_entry_read_length = 1, .number_of_sf_output_attributes = 1);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_WM, .barycentric_interpolation_mode = 1);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_PS, .kernel_start_pointer_0 = FS_OFFSET,
			       ._8_pixel_dispatch_enable = true,
			       .dispatch_grf_start_register_for_constant_setup_data_0 = 4,
			       .binding_table_entry_count = 1, .maximum_number_of_threads_per_psd = 63);
	r = r ? r : GTDRV_EMIT(b, 3DSTATE_PS_EXTRA, .pixel_shader_valid = true, .attribute_enable = true);
	return r ? r : GTDRV_EMIT(b, 3DSTATE_BINDING_TABLE_POINTERS_PS, .pointer_to_ps_binding_table = 0);
}

/* One tessellated draw of the scene: PATCHLIST_3 from the vertex buffer
 * with the given HS and DS (TE: TRI domain, TRI_CW, INTEGER), seed 000's
 * VS and back end; HS_ and DS_INVOCATION_COUNT stored into res before
 * (QWords 0, 1) and after (QWords 2, 3). patch_units: the HS's URB entry
 * in 64-byte units; ds_entries_zero: a DS partition of 0 entries. */
struct tess_draw {
	unsigned patch_units, vertex_count;
	bool ds_entries_zero;
	struct cmd_3DSTATE_HS hs;
	struct cmd_3DSTATE_DS ds;
};

static inline int scene_submit(struct scene *sc, const struct tess_draw *d, int *fence)
{
	struct gtdrv_batch b;
	struct urb_config urb;
	int gen = sc->drv.gen;
	int r = gtdrv_batch_init(&b, &sc->drv);
	if (r)
		return r;
	/* VS and DS VUEs: header, position, colour (one 64-byte unit) */
	r = urb_config_compute(sc->drv.info, 0, (const unsigned[4]){ 1, d->patch_units, 1, 0 },
			       &urb);
	if (d->ds_entries_zero)
		urb.entries[URB_DS] = 0;
	int base = cmd_RENDER_SURFACE_STATE_surface_base_address_bit(gen);
	if (!r)
		gtdrv_batch_state_reloc(&b, &sc->surf, SURF_RSS + (uint32_t)base / 8, &sc->rt,
					I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER, 0);
	r = r ? r : gtdrv_emit_3d_begin(&b, &sc->kernel, &sc->dyn);
	r = r ? r : emit_surface_base(&b, sc);
	r = r ? r : gtdrv_emit_urb(&b, &urb);
	r = r ? r : gtdrv_emit_geometry_off(&b);
	r = r ? r : gtdrv_emit_vs(&b, &(struct gtdrv_vs){ .kernel_offset = VS_OFFSET, .grf_start = 2,
							 .read_length = 1, .output_length = 1 });
	uint32_t hs_len = GTDRV_CMD_LEN(&b, 3DSTATE_HS), ds_len = GTDRV_CMD_LEN(&b, 3DSTATE_DS);
	r = r ? r : gtdrv_cmd_end(&b, "3DSTATE_HS", cmd_3DSTATE_HS_pack(gen,
		gtdrv_cmd_start(&b, hs_len), hs_len, &d->hs));
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_TE, .te_enable = true, .te_domain = 1 /* TRI */,
			       .output_topology = 2 /* TRI_CW */, .partitioning = 0 /* INTEGER */,
			       .maximum_tessellation_factor_odd = 63,
			       .maximum_tessellation_factor_not_odd = 64);
	r = r ? r : gtdrv_cmd_end(&b, "3DSTATE_DS", cmd_3DSTATE_DS_pack(gen,
		gtdrv_cmd_start(&b, ds_len), ds_len, &d->ds));
	const struct gtdrv_vb vb = { .index = 0, .bo = &sc->vbo, .pitch = 16,
				     .size = d->vertex_count * 16 };
	r = r ? r : gtdrv_emit_vertex_buffers(&b, &vb, 1);
	r = r ? r : gtdrv_emit_vertex_elements(&b, &(struct gtdrv_vertex_attrib){
		.format = R32G32B32A32_FLOAT, .size = 4 }, 1);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_VF_SGVS, 0);
	r = r ? r : emit_back_end(&b);
	r = r ? r : gtdrv_emit_srm(&b, REG_HS_INVOCATION_COUNT, &sc->res, 0);
	r = r ? r : gtdrv_emit_srm(&b, REG_DS_INVOCATION_COUNT, &sc->res, 8);
	r = r ? r : gtdrv_emit_draw(&b, &(struct gtdrv_draw){ .topology = PATCHLIST_3,
		.vertex_count = d->vertex_count, .instance_count = 1 });
	r = r ? r : gtdrv_emit_srm(&b, REG_HS_INVOCATION_COUNT, &sc->res, 16);
	r = r ? r : gtdrv_emit_srm(&b, REG_DS_INVOCATION_COUNT, &sc->res, 24);
	b.fence_out = fence;
	r = r ? r : gtdrv_batch_submit(&b);
	gtdrv_batch_fini(&b);
	return r;
}

#endif
