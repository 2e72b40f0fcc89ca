/* gtsim demo: the README's main job. The green and gradient squares of
 * seed 000 drawn through the whole stack: libgtdrv builds the batches
 * (vertex buffer, elements, URB partition, the VS and the FS written in
 * GEN assembly and assembled by gtsim), submits them with EXECBUFFER2
 * through the kernel model, the simulated GPU runs them (VF, VS threads,
 * clip, setup, rasterization, PS threads, render target writes) and the
 * render target becomes a PNG file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "command.h"
#include "common/devinfo.h"
#include "common/trace.h"
#include "drv/pipeline.h"
#include "drv/seed_shaders.h"
#include "gpu/eu/asm.h"
#include "gpu/eu/disasm.h"
#include "gpu/format/format.h"
#include "gpu/render/png_dump.h"

#define FS_OFFSET 0x800
#define DYN_SF_CLIP 0x0
#define DYN_CC_VP 0x40
#define DYN_BLEND 0x80
#define DYN_CC 0xc0
#define SURF_RSS 0x40

enum { TRISTRIP = 5, R32G32B32A32_FLOAT = 0 };

struct demo {
	struct gtsim_device *dev;
	struct gtsim_file *file;
	struct gtdrv drv;
	struct gtdrv_bo kernel, dyn, surf, vbo, rt;
	uint32_t w, h, pitch;
	bool show_eu;
};

static void print_disasm(int gen, const char *title, const char *text)
{
	struct eu_asm_result res;
	if (eu_assemble(gen, text, strlen(text), title, &res))
		return;
	size_t bad;
	char *s = eu_disasm_program(gen, res.bytes, res.len, &bad);
	printf("%s:\n%s\n", title, s ? s : "(undecodable)\n");
	free(s);
	eu_asm_result_free(&res);
}

/* Dynamic and surface state: viewport, blend, colour calculator, the
 * binding table and the render target's RENDER_SURFACE_STATE (its base
 * address is written and relocated by the draw's batch, draw()). */
static int write_state(struct demo *dm)
{
	int gen = dm->drv.gen, r = 0;
	uint32_t dyn[64] = { 0 }, surf[32] = { 0 };
	r |= cmd_SF_CLIP_VIEWPORT_pack(gen, dyn + DYN_SF_CLIP / 4, 16, &(const struct cmd_SF_CLIP_VIEWPORT){
		.viewport_matrix_element_m00 = dm->w / 2.0f,
		.viewport_matrix_element_m11 = -(dm->h / 2.0f),   /* y up, as GL */
		.viewport_matrix_element_m22 = 0.5f,
		.viewport_matrix_element_m30 = dm->w / 2.0f,
		.viewport_matrix_element_m31 = dm->h / 2.0f,
		.viewport_matrix_element_m32 = 0.5f,
		.x_min_clip_guardband = -1, .x_max_clip_guardband = 1,
		.y_min_clip_guardband = -1, .y_max_clip_guardband = 1,
		.x_min_viewport = 0, .x_max_viewport = dm->w - 1.0f,
		.y_min_viewport = 0, .y_max_viewport = dm->h - 1.0f });
	r |= cmd_CC_VIEWPORT_pack(gen, dyn + DYN_CC_VP / 4, 2, &(const struct cmd_CC_VIEWPORT){
		.minimum_depth = 0, .maximum_depth = 1 });
	/* BLEND_STATE and COLOR_CALC_STATE: all zero (no blending, writes on) */
	uint32_t entry = SURF_RSS;
	surf[0] = entry;
	r |= cmd_RENDER_SURFACE_STATE_pack(gen, surf + SURF_RSS / 4, 16,
		&(const struct cmd_RENDER_SURFACE_STATE){
		.surface_type = 1, .surface_format = FMT_R8G8B8A8_UNORM,
		.width = dm->w - 1, .height = dm->h - 1, .surface_pitch = dm->pitch - 1,
		.tile_mode = 0 });
	if (r)
		return -EINVAL;
	r = gtdrv_bo_write(&dm->drv, &dm->dyn, 0, dyn, sizeof(dyn));
	return r ? r : gtdrv_bo_write(&dm->drv, &dm->surf, 0, surf, sizeof(surf));
}

/* STATE_BASE_ADDRESS's surface base at the surface BO. */
static int emit_bases(struct gtdrv_batch *b, struct demo *dm)
{
	int gen = dm->drv.gen;
	uint32_t len = GTDRV_CMD_LEN(b, STATE_BASE_ADDRESS);
	uint32_t *dw = gtdrv_cmd_start(b, len);
	const struct cmd_STATE_BASE_ADDRESS sba = {
		.surface_state_base_address_modify_enable = true,
		.surface_state_base_address = dm->surf.offset };
	gtdrv_cmd_reloc(b, cmd_STATE_BASE_ADDRESS_surface_state_base_address_bit(gen), &dm->surf,
			I915_GEM_DOMAIN_INSTRUCTION, 0);
	return gtdrv_cmd_end(b, "STATE_BASE_ADDRESS", cmd_STATE_BASE_ADDRESS_pack(gen, dw, len, &sba));
}

static int draw(struct demo *dm, bool gradient)
{
	struct gtdrv_batch b;
	struct urb_config urb;
	int r = gtdrv_batch_init(&b, &dm->drv);
	if (r)
		return r;
	/* VUE: header, position, colour -> one 64-byte unit */
	r = urb_config_compute(dm->drv.info, 0, (const unsigned[4]){ 1, 0, 0, 0 }, &urb);
	/* the render target's address in its SURFACE_STATE: relocated by the
	 * kernel if the target is not where presumed (seed 002) */
	int base = cmd_RENDER_SURFACE_STATE_surface_base_address_bit(dm->drv.gen);
	if (!r && base < 0)
		r = -EINVAL;
	if (!r)
		gtdrv_batch_state_reloc(&b, &dm->surf, SURF_RSS + (uint32_t)base / 8, &dm->rt,
					I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER, 0);
	r = r ? r : gtdrv_emit_3d_begin(&b, &dm->kernel, &dm->dyn);
	r = r ? r : emit_bases(&b, dm);
	r = r ? r : gtdrv_emit_urb(&b, &urb);
	r = r ? r : gtdrv_emit_geometry_off(&b);
	r = r ? r : gtdrv_emit_vs(&b, &(struct gtdrv_vs){ .kernel_offset = 0, .grf_start = 2,
							 .read_length = 1, .output_length = 1 });
	const struct gtdrv_vb vb = { .index = 0, .bo = &dm->vbo, .pitch = 16,
				     .size = sizeof(gtdrv_square) };
	r = r ? r : gtdrv_emit_vertex_buffers(&b, &vb, 1);
	const struct gtdrv_vertex_attrib attribs[2] = {
		{ .buffer = 0, .format = R32G32B32A32_FLOAT, .size = 4 },
		{ .buffer = 0, .format = R32G32B32A32_FLOAT, .size = 0 },
	};
	r = r ? r : gtdrv_emit_vertex_elements(&b, attribs, gradient ? 2 : 1);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_VF_SGVS, .vertexid_enable = gradient,
			       .vertexid_element_offset = 1, .vertexid_component_number = 0);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_CLIP, .clip_enable = true,
			       .guardband_clip_test_enable = true);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_SF, .viewport_transform_enable = true,
			       .triangle_strip_list_provoking_vertex_select = 0);
	/* gen9 splits the Z clip test into near and far (3DSTATE_RASTER);
	 * each generation packs only the fields it has */
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_RASTER, .cull_mode = 1,
			       .viewport_z_clip_test_enable = true,
			       .viewport_z_near_clip_test_enable = true,
			       .viewport_z_far_clip_test_enable = true);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP,
			       .sf_clip_viewport_pointer = DYN_SF_CLIP);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_VIEWPORT_STATE_POINTERS_CC,
			       .cc_viewport_pointer = DYN_CC_VP);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_BLEND_STATE_POINTERS,
			       .blend_state_pointer = DYN_BLEND, .blend_state_pointer_valid = true);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_CC_STATE_POINTERS,
			       .color_calc_state_pointer = DYN_CC, .color_calc_state_pointer_valid = true);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_DRAWING_RECTANGLE,
			       .clipped_drawing_rectangle_x_max = dm->w - 1,
			       .clipped_drawing_rectangle_y_max = dm->h - 1);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_SBE, .vertex_urb_entry_read_offset = 1,
			       .vertex_urb_entry_read_length = 1,
			       .number_of_sf_output_attributes = 1);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_WM, .barycentric_interpolation_mode = 1);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_PS, .kernel_start_pointer_0 = FS_OFFSET,
			       ._8_pixel_dispatch_enable = true,
			       .dispatch_grf_start_register_for_constant_setup_data_0 = 4,
			       .binding_table_entry_count = 1,
			       .maximum_number_of_threads_per_psd = 63);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_PS_EXTRA, .pixel_shader_valid = true,
			       .attribute_enable = true);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_BINDING_TABLE_POINTERS_PS,
			       .pointer_to_ps_binding_table = 0);
	r = r ? r : gtdrv_emit_draw(&b, &(struct gtdrv_draw){ .topology = TRISTRIP,
		.vertex_count = 4, .instance_count = 1 });
	r = r ? r : gtdrv_batch_submit(&b);
	gtdrv_batch_fini(&b);
	if (!r)
		r = gtdrv_bo_wait(&dm->drv, &dm->rt);
	return r;
}

static int render(struct demo *dm, const char *scene, const char *out)
{
	bool gradient = !strcmp(scene, "gradient");
	const char *vs = gradient ? gtdrv_gradient_vs : gtdrv_green_vs;
	int r = gtdrv_upload_kernel(&dm->drv, &dm->kernel, 0, vs, NULL);
	r = r ? r : gtdrv_upload_kernel(&dm->drv, &dm->kernel, FS_OFFSET, gtdrv_color_fs, NULL);
	r = r ? r : gtdrv_bo_write(&dm->drv, &dm->vbo, 0, gtdrv_square, sizeof(gtdrv_square));
	r = r ? r : write_state(dm);
	if (r)
		return r;
	if (dm->show_eu) {
		print_disasm(dm->drv.gen, gradient ? "VS (gradient)" : "VS (green, seed 000)", vs);
		print_disasm(dm->drv.gen, "FS", gtdrv_color_fs);
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = draw(dm, gradient);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (r)
		return r;
	size_t bytes = (size_t)dm->pitch * dm->h;
	uint8_t *pixels = malloc(bytes), *rgba = malloc((size_t)dm->w * dm->h * 4);
	r = pixels && rgba ? gtdrv_bo_read(&dm->drv, &dm->rt, 0, pixels, bytes) : -ENOMEM;
	if (!r && png_surface_to_rgba8(pixels, FMT_R8G8B8A8_UNORM, 0, dm->pitch, dm->w, dm->h, rgba))
		r = -EINVAL;
	if (!r && png_write_rgba8(out, rgba, dm->w, dm->h))
		r = -EIO;
	if (!r) {
		const uint8_t *c = rgba + ((size_t)(dm->h / 2) * dm->w + dm->w / 2) * 4;
		printf("%s: %ux%u square in %.1f ms, centre pixel (%u, %u, %u, %u) -> %s\n", scene,
		       dm->w, dm->h, (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e6, c[0], c[1], c[2], c[3], out);
	}
	free(pixels);
	free(rgba);
	return r;
}

static int setup(struct demo *dm)
{
	struct gtsim_config cfg = { .sync = 1 };
	dm->dev = gtsim_device_create(&cfg);
	dm->file = dm->dev ? gtsim_open(dm->dev) : NULL;
	if (!dm->file)
		return -ENODEV;
	gtdrv_init(&dm->drv, dm->file, devinfo_from_env());
	dm->pitch = (dm->w * 4 + 63) & ~63u;
	int r = gtdrv_bo_alloc(&dm->drv, &dm->kernel, 8192);
	r = r ? r : gtdrv_bo_alloc(&dm->drv, &dm->dyn, 4096);
	r = r ? r : gtdrv_bo_alloc(&dm->drv, &dm->surf, 4096);
	r = r ? r : gtdrv_bo_alloc(&dm->drv, &dm->vbo, 4096);
	r = r ? r : gtdrv_bo_alloc(&dm->drv, &dm->rt, ((uint64_t)dm->pitch * dm->h + 4095) & ~4095ull);
	return r;
}

static int demo_main(int argc, char **argv)
{
	struct demo dm = { .w = 256, .h = 256 };
	const char *scene = NULL, *out = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "green") || !strcmp(a, "gradient")) {
			scene = a;
		} else if (!strcmp(a, "--size") && i + 1 < argc) {
			if (sscanf(argv[++i], "%ux%u", &dm.w, &dm.h) != 2 || !dm.w || !dm.h ||
			    dm.w > 8192 || dm.h > 8192) {
				fprintf(stderr, "gtsim demo: bad size '%s' (WxH, up to 8192)\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strncmp(a, "--trace=", 8)) {
			/* "eu" shows the shaders' disassembly (INTEL_DEBUG=vs,fs);
			 * the other categories go to the trace */
			char cats[256] = "", *save = NULL;
			char *list = strdup(a + 8);
			for (char *c = list ? strtok_r(list, ",", &save) : NULL; c;
			     c = strtok_r(NULL, ",", &save)) {
				if (!strcmp(c, "eu")) {
					dm.show_eu = true;
					continue;
				}
				if (strlen(cats) + strlen(c) + 2 < sizeof(cats)) {
					strcat(cats, cats[0] ? "," : "");
					strcat(cats, c);
				}
			}
			free(list);
			if (cats[0] && trace_set(cats))
				return 2;
		} else {
			fprintf(stderr, "usage: gtsim demo [green|gradient] [--size WxH] "
				"[-o FILE.png] [--trace=CATS]\n");
			return 2;
		}
	}
	if (out && !scene) {
		fprintf(stderr, "gtsim demo: -o needs a scene (green or gradient)\n");
		return 2;
	}
	int r = setup(&dm);
	if (!r && (!scene || !strcmp(scene, "green")))
		r = render(&dm, "green", out ? out : "gtsim-green.png");
	if (!r && (!scene || !strcmp(scene, "gradient")))
		r = render(&dm, "gradient", out ? out : "gtsim-gradient.png");
	if (r)
		fprintf(stderr, "gtsim demo: %s\n", strerror(-r));
	if (dm.file) {
		struct gtdrv_bo *bos[] = { &dm.kernel, &dm.dyn, &dm.surf, &dm.vbo, &dm.rt };
		for (size_t i = 0; i < sizeof(bos) / sizeof(bos[0]); i++)
			if (bos[i]->handle)
				gtdrv_bo_free(&dm.drv, bos[i]);
		gtsim_close(dm.file);
	}
	if (dm.dev)
		gtsim_device_destroy(dm.dev);
	return r ? 1 : 0;
}

const struct gtsim_command command_demo = {
	.name = "demo",
	.usage = "[green|gradient] [--size WxH] [-o FILE.png] [--trace=CATS]  "
		 "draw seed 000's squares through the whole stack into PNG files",
	.run = demo_main,
};
