/* The geometry shader end to end (issue 11): libgtdrv builds draws with a
 * hand-written SIMD8 GS (GEN assembly assembled by gtsim), EXECBUFFER2
 * submits them, the simulated GPU runs VS, GS, clip, setup, raster, PS and
 * render target writes; the test reads the pixels back. Expected pixels
 * are computed here from the geometry (NDC -> window by the viewport of a
 * W x H target, y up) and the orders the GL 4.6 spec gives:
 *   (a) points amplified: each input point becomes two 4-vertex strips
 *       (quads) around two of its input vertices, separated by a cut bit;
 *       without the cut a strip would join them (pixels between stay 0);
 *   (b) triangle strips with adjacency (GL 4.6 table 10.1, 8 vertices =
 *       2 primitives): the GS draws quads at its input vertices 1 and 5;
 *       primitive 0 (first) has them at strip vertices 1 and 3, primitive
 *       1 (odd, last, GL's TRAILING order) at 0 and 7;
 *   (c) GS instancing and layered rendering: Instance Control 1 (two
 *       instances); each writes Render Target Array Index = its instance
 *       (g1 bits 31:27) into the VUE header of a 2-layer 2D array target,
 *       with red = the instance: layer 0 green, layer 1 yellow;
 *   (d) primitive IDs: with Include Primitive ID the GS puts g2 (the ID)
 *       into red/4 for 3 points: reds 0, 64, 128 (UNORM of 0, .25, .5);
 *   (e) statistics: GS_INVOCATION_COUNT and GS_PRIMITIVES_COUNT stored by
 *       MI_STORE_REGISTER_MEM around draw (a): 2 invocations, 4 triangles;
 *   (g) push constants (3DSTATE_CONSTANT_GS buffer 3, as iris): red from
 *       the constants' DWord 1;
 *   (f) bad GS state is a GPU fault with an error state naming it, never a
 *       crash: a GS URB entry too small for one vertex, a thread claiming
 *       more vertices than its entry holds, a URB write past its entry;
 *   (h) SIMD4x2 dispatch (the vec4 GS, align16 code): DUAL_OBJECT runs two
 *       points a thread (3 points: threads of 2 and 1), their primitive IDs
 *       in g1.0 and g1.4 and their positions in the two halves of one
 *       register; DUAL_INSTANCE runs instances 2i, 2i + 1 of a point a
 *       thread (3 instances of 2 points), the instance in g0.0 / g0.1 bits
 *       31:27 and the point's two rows in the halves of one register; each
 *       object writes its entry with HWord and OWord URB writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "drv/pipeline.h"
#include "drv/seed_shaders.h"
#include "gpu/cs/regs.h"
#include "gpu/format/format.h"
#include "test.h"

#define W 32u
#define H 32u
#define PITCH (W * 4)
#define LAYER_BYTES (PITCH * H)
#define FS_OFFSET 0x800
#define GS_OFFSET 0x1000
#define DYN_SF_CLIP 0x0
#define DYN_CC_VP 0x40
#define DYN_BLEND 0x80
#define DYN_CC 0xc0
#define SURF_RSS 0x40
#define HALF 0.125f           /* quad half size in NDC: 2 pixels of 32 */

enum { POINTLIST = 1, TRISTRIP = 5, TRISTRIP_ADJ = 12, LINELOOP = 16, R32G32B32A32_FLOAT = 0 };

struct scene {
	struct gtsim_device *dev;
	struct gtdrv drv;
	struct gtdrv_bo kernel, dyn, surf, vbo, rt, res;
	unsigned layers;
};

/* A GS over `nin` input vertices per primitive (position pushed at
 * g(2 + pid + 8 v + 4)..: Read Length 1 = 2 rows per vertex from g2 or g3)
 * that emits a 4-vertex strip (a quad) around each input vertex of at[],
 * quad q moved right by q x shift, with a cut after each; header DWord 1 (RTAI) = the instance, colour
 * (instance or primitive ID / 4, 1, 0, 1). bad_offset: the first URB
 * write's global offset (0: the right one). */
enum red { RED_INSTANCE, RED_PRIM_ID, RED_CONSTANT };

/* Big vertices: 34 rows (Output Vertex Size 33), the colour written again
 * at row 32, which the PS reads (3DSTATE_SBE Read Offset 16): the most
 * rows a VUE of GL's 32 varyings and the clip distance rows takes. */
static bool big_vertices;
#define BIG_ROWS 34u
#define BIG_COLOR_ROW 32u

static char *gs_program(const unsigned *at, unsigned nat, float shift, enum red red,
			unsigned claim_vertices, unsigned bad_offset)
{
	size_t cap = 16384, n = 0;
	char *s = malloc(cap);
	/* first pushed register: after g2 (primitive IDs) and the one
	 * register of push constants (g2 or g3) */
	unsigned in = 2 + (red == RED_PRIM_ID) + (red == RED_CONSTANT);
#define P(...) (n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__))
	/* g20: instance, g21: red */
	P("shr(8) g20<1>UD g1<8,8,1>UD 0x0000001bUD { align1 1Q };\n");
	if (red == RED_PRIM_ID)
		P("mov(8) g21<1>F g2<8,8,1>UD { align1 1Q };\n"
		  "mul(8) g21<1>F g21<8,8,1>F 0.25F { align1 1Q };\n");
	else if (red == RED_CONSTANT)          /* push constant DWord 1 */
		P("mov(8) g21<1>F g2.1<0,1,0>F { align1 1Q };\n");
	else
		P("mov(8) g21<1>F g20<8,8,1>UD { align1 1Q };\n");
	uint32_t cuts = 0;
	for (unsigned q = 0; q < nat; q++) {
		unsigned pos = in + 8 * at[q] + 4;
		for (unsigned k = 0; k < 4; k++) {
			unsigned vtx = 4 * q + k, stride = big_vertices ? BIG_ROWS : 4;
			P("mov(8) g100<1>UD g1<8,8,1>UD { align1 WE_all 1Q };\n"
			  "mov(8) g101<1>UD 0x%08xUD { align1 WE_all 1Q };\n", vtx * stride);
			P("mov(8) g102<1>UD 0x00000000UD { align1 1Q };\n"
			  "mov(8) g103<1>UD g20<8,8,1>UD { align1 1Q };\n"
			  "mov(8) g104<1>UD 0x00000000UD { align1 1Q };\n"
			  "mov(8) g105<1>UD 0x00000000UD { align1 1Q };\n");
			P("add(8) g106<1>F g%u<8,8,1>F %gF { align1 1Q };\n", pos,
			  (k & 1 ? HALF : -HALF) + shift * (float)q);
			P("add(8) g107<1>F g%u<8,8,1>F %sF { align1 1Q };\n", pos + 1,
			  k & 2 ? "0.125" : "-0.125");
			P("mov(8) g108<1>F g%u<8,8,1>F { align1 1Q };\n"
			  "mov(8) g109<1>F g%u<8,8,1>F { align1 1Q };\n", pos + 2, pos + 3);
			P("mov(8) g110<1>F g21<8,8,1>F { align1 1Q };\n"
			  "mov(8) g111<1>F 1F { align1 1Q };\n"
			  "mov(8) g112<1>F 0F { align1 1Q };\n"
			  "mov(8) g113<1>F 1F { align1 1Q };\n");
			/* the vertex at count slot (2) + header (2) + 4 per vertex */
			P("send(8) null<1>F g100<8,8,1>F\n"
			  "    urb %u SIMD8 write per-slot mlen 14 rlen 0 { align1 1Q };\n",
			  q == 0 && k == 0 && bad_offset ? bad_offset : 4);
			if (big_vertices)           /* the colour (g110..g113) at row 32 */
				P("mov(8) g102<1>F g110<8,8,1>F { align1 1Q };\n"
				  "mov(8) g103<1>F g111<8,8,1>F { align1 1Q };\n"
				  "mov(8) g104<1>F g112<8,8,1>F { align1 1Q };\n"
				  "mov(8) g105<1>F g113<8,8,1>F { align1 1Q };\n"
				  "send(8) null<1>F g100<8,8,1>F\n"
				  "    urb %u SIMD8 write per-slot mlen 6 rlen 0 { align1 1Q };\n",
				  4 + BIG_COLOR_ROW);
		}
		cuts |= 1u << (4 * q + 3);
	}
	/* control data header (cut bits) at offset 2, vertex count at 0 */
	P("mov(8) g100<1>UD g1<8,8,1>UD { align1 WE_all 1Q };\n"
	  "mov(8) g101<1>UD 0x%08xUD { align1 1Q };\n"
	  "mov(8) g102<1>UD 0x00000000UD { align1 1Q };\n"
	  "mov(8) g103<1>UD 0x00000000UD { align1 1Q };\n"
	  "mov(8) g104<1>UD 0x00000000UD { align1 1Q };\n"
	  "send(8) null<1>F g100<8,8,1>F\n"
	  "    urb 2 SIMD8 write mlen 5 rlen 0 { align1 1Q };\n", cuts);
	P("mov(8) g101<1>UD 0x%08xUD { align1 1Q };\n"
	  "send(8) null<1>F g100<8,8,1>F\n"
	  "    urb 0 SIMD8 write mlen 5 rlen 0 { align1 1Q EOT };\n",
	  claim_vertices ? claim_vertices : 4 * nat);
#undef P
	return s;
}

static void write_state(struct scene *sc)
{
	int gen = sc->drv.gen;
	uint32_t dyn[64] = { 0 }, surf[32] = { 0 };
	CHECK_EQ(cmd_SF_CLIP_VIEWPORT_pack(gen, dyn + DYN_SF_CLIP / 4, 16,
		&(const struct cmd_SF_CLIP_VIEWPORT){
		.viewport_matrix_element_m00 = W / 2.0f,
		.viewport_matrix_element_m11 = -(H / 2.0f),
		.viewport_matrix_element_m22 = 0.5f,
		.viewport_matrix_element_m30 = W / 2.0f,
		.viewport_matrix_element_m31 = H / 2.0f,
		.viewport_matrix_element_m32 = 0.5f,
		.x_min_clip_guardband = -1, .x_max_clip_guardband = 1,
		.y_min_clip_guardband = -1, .y_max_clip_guardband = 1,
		.x_min_viewport = 0, .x_max_viewport = W - 1,
		.y_min_viewport = 0, .y_max_viewport = H - 1 }), 0);
	CHECK_EQ(cmd_CC_VIEWPORT_pack(gen, dyn + DYN_CC_VP / 4, 2,
		&(const struct cmd_CC_VIEWPORT){ .minimum_depth = 0, .maximum_depth = 1 }), 0);
	surf[0] = SURF_RSS;
	/* a 2D array of `layers` layers, QPitch H rows (the field holds QPitch / 4) */
	CHECK_EQ(cmd_RENDER_SURFACE_STATE_pack(gen, surf + SURF_RSS / 4, 16,
		&(const struct cmd_RENDER_SURFACE_STATE){
		.surface_type = 1, .surface_format = FMT_R8G8B8A8_UNORM,
		.surface_array = sc->layers > 1, .surface_qpitch = H / 4,
		.width = W - 1, .height = H - 1, .depth = sc->layers - 1,
		.render_target_view_extent = sc->layers - 1,
		.surface_pitch = PITCH - 1 }), 0);
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->dyn, 0, dyn, sizeof(dyn)), 0);
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->surf, 0, surf, sizeof(surf)), 0);
}

struct gs_draw {
	const float (*verts)[4];
	unsigned nverts, topology, nin;
	const char *gs;
	bool prim_id;
	bool constants;              /* 3DSTATE_CONSTANT_GS: buffer 3 (as iris), 1 register */
	unsigned instances;
	unsigned gs_entry_units;     /* GS URB entry size, 64-byte units */
	unsigned dispatch_mode;      /* 3DSTATE_GS Dispatch Mode; 0: SIMD8 (3); 4: 0 */
	unsigned grf_start;          /* 0: 3 with a primitive ID, else 2 */
};

/* One draw: VS passing position (green VS of seed 000), the GS, the
 * colour PS; GS statistics stored before and after into res. */
static int draw(struct scene *sc, const struct gs_draw *g)
{
	int gen = sc->drv.gen;
	struct gtdrv_batch b;
	struct urb_config urb;
	CHECK_EQ(gtdrv_upload_kernel(&sc->drv, &sc->kernel, 0, gtdrv_green_vs, NULL), 0);
	CHECK_EQ(gtdrv_upload_kernel(&sc->drv, &sc->kernel, FS_OFFSET, gtdrv_color_fs, NULL), 0);
	CHECK_EQ(gtdrv_upload_kernel(&sc->drv, &sc->kernel, GS_OFFSET, g->gs, NULL), 0);
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->vbo, 0, g->verts, g->nverts * 16), 0);
	uint8_t *zero = calloc(1, LAYER_BYTES * 2);
	CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->rt, 0, zero, LAYER_BYTES * 2), 0);
	free(zero);
	write_state(sc);
	CHECK_EQ(urb_config_compute(sc->drv.info, 0,
				    (const unsigned[4]){ 1, 0, 0, g->gs_entry_units }, &urb), 0);
	CHECK_EQ(gtdrv_batch_init(&b, &sc->drv), 0);
	int base = cmd_RENDER_SURFACE_STATE_surface_base_address_bit(gen);
	gtdrv_batch_state_reloc(&b, &sc->surf, SURF_RSS + (uint32_t)base / 8, &sc->rt,
				I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER, 0);
	int r = gtdrv_emit_3d_begin(&b, &sc->kernel, &sc->dyn);
	uint32_t len = GTDRV_CMD_LEN(&b, STATE_BASE_ADDRESS);
	uint32_t *dw = gtdrv_cmd_start(&b, len);
	gtdrv_cmd_reloc(&b, cmd_STATE_BASE_ADDRESS_surface_state_base_address_bit(gen), &sc->surf,
			I915_GEM_DOMAIN_INSTRUCTION, 0);
	r = r ? r : gtdrv_cmd_end(&b, "STATE_BASE_ADDRESS", cmd_STATE_BASE_ADDRESS_pack(gen, dw, len,
		&(const struct cmd_STATE_BASE_ADDRESS){ .surface_state_base_address_modify_enable = true,
							.surface_state_base_address = sc->surf.offset }));
	r = r ? r : gtdrv_emit_urb(&b, &urb);
	r = r ? r : gtdrv_emit_geometry_off(&b);
	r = r ? r : gtdrv_emit_vs(&b, &(struct gtdrv_vs){ .kernel_offset = 0, .grf_start = 2,
							 .read_length = 1, .output_length = 1 });
	/* GS: SIMD8, vertices of 4 rows (64 bytes) after 32 + 32 bytes,
	 * triangle strips, cut bits, TRAILING order (GL) */
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_GS, .enable = true, .kernel_start_pointer = GS_OFFSET,
			       .expected_vertex_count = g->nin,
			       .dispatch_mode = g->dispatch_mode == 4 ? 0 : g->dispatch_mode ?
					g->dispatch_mode : 3,
			       .instance_control = g->instances - 1,
			       .invocations_increment_value = g->instances - 1,
			       .include_primitive_id = g->prim_id,
			       .dispatch_grf_start_register_for_urb_data = g->grf_start ?
					g->grf_start : g->prim_id ? 3 : 2,
			       .vertex_urb_entry_read_length = 1,
			       .output_vertex_size = big_vertices ? BIG_ROWS - 1 : 3,
			       .output_topology = TRISTRIP, .control_data_header_size = 1,
			       .control_data_format = 0, .reorder_mode = 1,
			       .statistics_enable = true, .maximum_number_of_threads = 20,
			       .vertex_urb_entry_output_read_offset = 1,
			       .vertex_urb_entry_output_length = 1);
	if (g->constants) {
		/* the constants at dynamic state 0x200 (absolute address: the
		 * dynamic BO's offset) */
		const float c[8] = { 7, 0.75f, 7, 7, 7, 7, 7, 7 };
		CHECK_EQ(gtdrv_bo_write(&sc->drv, &sc->dyn, 0x200, c, sizeof(c)), 0);
		uint32_t clen = GTDRV_CMD_LEN(&b, 3DSTATE_CONSTANT_GS);
		uint32_t *cdw = gtdrv_cmd_start(&b, clen);
		struct cmd_3DSTATE_CONSTANT_GS cv = { 0 };
		cv.constant_body.read_length[3] = 1;
		cv.constant_body.buffer[3] = sc->dyn.offset + 0x200;
		/* Buffer 3: the body at DWord 1, its address group at body bit
		 * 64, 64 bits a buffer, the field from bit 5 */
		gtdrv_cmd_reloc(&b, 32 + 64 + 3 * 64 + 5, &sc->dyn, I915_GEM_DOMAIN_INSTRUCTION, 0);
		r = r ? r : gtdrv_cmd_end(&b, "3DSTATE_CONSTANT_GS",
					  cmd_3DSTATE_CONSTANT_GS_pack(gen, cdw, clen, &cv));
	}
	const struct gtdrv_vb vb = { .index = 0, .bo = &sc->vbo, .pitch = 16,
				     .size = g->nverts * 16 };
	r = r ? r : gtdrv_emit_vertex_buffers(&b, &vb, 1);
	r = r ? r : gtdrv_emit_vertex_elements(&b, &(const struct gtdrv_vertex_attrib){
		.format = R32G32B32A32_FLOAT, .size = 4 }, 1);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_VF_SGVS, 0);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_CLIP, .clip_enable = true,
			       .guardband_clip_test_enable = true);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_SF, .viewport_transform_enable = true,
			       .triangle_strip_list_provoking_vertex_select = 2);
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
			       .clipped_drawing_rectangle_x_max = W - 1,
			       .clipped_drawing_rectangle_y_max = H - 1);
	r = r ? r : GTDRV_EMIT(&b, 3DSTATE_SBE,
			       .vertex_urb_entry_read_offset = big_vertices ? BIG_COLOR_ROW / 2 : 1,
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
	r = r ? r : gtdrv_emit_srm(&b, REG_GS_INVOCATION_COUNT, &sc->res, 0);
	r = r ? r : gtdrv_emit_srm(&b, REG_GS_PRIMITIVES_COUNT, &sc->res, 4);
	r = r ? r : gtdrv_emit_draw(&b, &(struct gtdrv_draw){ .topology = g->topology,
		.vertex_count = g->nverts, .instance_count = 1 });
	r = r ? r : gtdrv_emit_srm(&b, REG_GS_INVOCATION_COUNT, &sc->res, 8);
	r = r ? r : gtdrv_emit_srm(&b, REG_GS_PRIMITIVES_COUNT, &sc->res, 12);
	CHECK_EQ(r, 0);
	r = gtdrv_batch_submit(&b);
	gtdrv_batch_fini(&b);
	gtsim_device_idle(sc->dev);
	gtdrv_bo_wait(&sc->drv, &sc->rt);
	return r;
}

static uint32_t pixel(struct scene *sc, unsigned layer, unsigned x, unsigned y)
{
	uint32_t v = 0xdeadbeef;
	gtdrv_bo_read(&sc->drv, &sc->rt, layer * LAYER_BYTES + y * PITCH + x * 4, &v, 4);
	return v;
}

/* Pixel centre of NDC (x, y) in the W x H target, y up. */
static void to_pixel(float x, float y, unsigned *px, unsigned *py)
{
	*px = (unsigned)((x + 1) * W / 2);
	*py = (unsigned)((1 - y) * H / 2);
}

/* Every pixel is `want` inside the 4x4 quads around the given NDC points
 * (half size HALF = 2 pixels) and 0 elsewhere. */
static void check_quads(struct scene *sc, unsigned layer, const float (*pts)[2], unsigned n,
			uint32_t want)
{
	unsigned bad = 0;
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			bool in = false;
			for (unsigned i = 0; i < n; i++) {
				unsigned cx, cy;
				to_pixel(pts[i][0], pts[i][1], &cx, &cy);
				in |= x + 2 >= cx && x < cx + 2 && y + 2 >= cy && y < cy + 2;
			}
			uint32_t got = pixel(sc, layer, x, y), exp = in ? want : 0;
			if (got != exp && bad++ < 4)
				fprintf(stderr, "layer %u pixel (%u, %u): 0x%08x, want 0x%08x\n",
					layer, x, y, got, exp);
		}
	CHECK_EQ(bad, 0);
}

/* The 4x4 square around NDC (x, y) is `want` (other pixels unchecked). */
static void check_quad_colour(struct scene *sc, float x, float y, uint32_t want)
{
	unsigned cx, cy, bad = 0;
	to_pixel(x, y, &cx, &cy);
	for (unsigned py = cy - 2; py < cy + 2; py++)
		for (unsigned px = cx - 2; px < cx + 2; px++) {
			uint32_t got = pixel(sc, 0, px, py);
			if (got != want && bad++ < 4)
				fprintf(stderr, "quad at (%g, %g): pixel (%u, %u) 0x%08x, want "
					"0x%08x\n", (double)x, (double)y, px, py, got, want);
		}
	CHECK_EQ(bad, 0);
}

#define GREEN 0xff00ff00u       /* R8G8B8A8_UNORM (0, 1, 0, 1) in memory order */
#define YELLOW 0xff00ffffu

static void points_and_stats(struct scene *sc)
{
	/* two points, two quads each (the second 0.5 to the right); without
	 * the cut bit between them one strip would join the quads */
	static const float pts[2][4] = { { -0.5f, -0.5f, 0, 1 }, { 0.25f, 0.5f, 0, 1 } };
	char *gs = gs_program((const unsigned[]){ 0, 0 }, 2, 0.5f, RED_INSTANCE, 0, 0);
	CHECK_EQ(draw(sc, &(struct gs_draw){ .verts = pts, .nverts = 2, .topology = POINTLIST,
					     .nin = 1, .gs = gs, .instances = 1,
					     .gs_entry_units = 10 }), 0);
	free(gs);
	check_quads(sc, 0, (const float[][2]){ { -0.5f, -0.5f }, { 0, -0.5f }, { 0.25f, 0.5f },
					       { 0.75f, 0.5f } }, 4, GREEN);
	uint32_t st[4] = { 0 };
	gtdrv_bo_read(&sc->drv, &sc->res, 0, st, sizeof(st));
	CHECK_EQ(st[2] - st[0], 2);   /* 2 points in, 1 instance each */
	CHECK_EQ(st[3] - st[1], 8);   /* 2 strips of 4 vertices (2 triangles) per point */
}

static void strip_adjacency(struct scene *sc)
{
	float v[8][4];
	float at[8][2];
	for (unsigned j = 0; j < 8; j++) {
		at[j][0] = v[j][0] = -0.75f + 0.5f * (float)(j % 4);
		at[j][1] = v[j][1] = -0.5f + 1.0f * (float)(j / 4);
		v[j][2] = 0;
		v[j][3] = 1;
	}
	/* quads at the GS's input vertices 1 and 5 */
	char *gs = gs_program((const unsigned[]){ 1, 5 }, 2, 0, RED_INSTANCE, 0, 0);
	CHECK_EQ(draw(sc, &(struct gs_draw){ .verts = (const float (*)[4])v, .nverts = 8,
					     .topology = TRISTRIP_ADJ, .nin = 6, .gs = gs,
					     .instances = 1, .gs_entry_units = 10 }), 0);
	free(gs);
	/* GL 4.6 table 10.1 (1-based there): primitive 0 of 2 ("first"):
	 * adjacent 1/2 = vertex 2, adjacent 3/1 = vertex 4; primitive 1 ("last",
	 * i = 1 odd): adjacent 1/2 = 2i - 1 = 1, adjacent 3/1 = 2i + 6 = 8.
	 * 0-based: vertices 1, 3, 0, 7. */
	const float want[4][2] = { { at[1][0], at[1][1] }, { at[3][0], at[3][1] },
				   { at[0][0], at[0][1] }, { at[7][0], at[7][1] } };
	check_quads(sc, 0, want, 4, GREEN);
}

static void layered_instances(struct scene *sc)
{
	static const float pt[1][4] = { { 0.25f, -0.25f, 0, 1 } };
	char *gs = gs_program((const unsigned[]){ 0 }, 1, 0, RED_INSTANCE, 0, 0);
	sc->layers = 2;
	CHECK_EQ(draw(sc, &(struct gs_draw){ .verts = pt, .nverts = 1, .topology = POINTLIST,
					     .nin = 1, .gs = gs, .instances = 2,
					     .gs_entry_units = 10 }), 0);
	free(gs);
	sc->layers = 1;
	const float q[1][2] = { { 0.25f, -0.25f } };
	check_quads(sc, 0, q, 1, GREEN);
	check_quads(sc, 1, q, 1, YELLOW);
	uint32_t st[4] = { 0 };
	gtdrv_bo_read(&sc->drv, &sc->res, 0, st, sizeof(st));
	CHECK_EQ(st[2] - st[0], 2);   /* one point x Invocations Increment Value + 1 */
}

static void primitive_ids(struct scene *sc)
{
	static const float pts[3][4] = { { -0.5f, 0.5f, 0, 1 }, { 0, 0.5f, 0, 1 },
					 { 0.5f, 0.5f, 0, 1 } };
	char *gs = gs_program((const unsigned[]){ 0 }, 1, 0, RED_PRIM_ID, 0, 0);
	CHECK_EQ(draw(sc, &(struct gs_draw){ .verts = pts, .nverts = 3, .topology = POINTLIST,
					     .nin = 1, .gs = gs, .prim_id = true,
					     .instances = 1, .gs_entry_units = 10 }), 0);
	free(gs);
	for (unsigned i = 0; i < 3; i++) {
		unsigned x, y;
		to_pixel(pts[i][0], pts[i][1], &x, &y);
		/* red = round(ID / 4 * 255): 0, 64, 128 */
		CHECK_EQ(pixel(sc, 0, x, y), 0xff00ff00u | (i * 255 + 2) / 4);
	}
}

/* A line loop feeds the GS as lines (GL 4.6 section 10.1.4: lines
 * (v0, v1), (v1, v2), ..., then (vn-1, v0)); iris draws GL_LINE_LOOP with a
 * GS as 3DPRIM_LINELOOP. A quad at each line's second vertex, red = its
 * primitive ID / 4: lines A-B, B-C, C-A put IDs 0, 1, 2 at B, C, A. */
static void line_loop(struct scene *sc)
{
	static const float pts[3][4] = { { -0.5f, 0.5f, 0, 1 }, { 0, 0.5f, 0, 1 },
					 { 0.5f, 0.5f, 0, 1 } };
	char *gs = gs_program((const unsigned[]){ 1 }, 1, 0, RED_PRIM_ID, 0, 0);
	CHECK_EQ(draw(sc, &(struct gs_draw){ .verts = pts, .nverts = 3, .topology = LINELOOP,
					     .nin = 2, .gs = gs, .prim_id = true,
					     .instances = 1, .gs_entry_units = 10 }), 0);
	free(gs);
	const unsigned at[3] = { 1, 2, 0 };    /* the second vertex of line i */
	for (unsigned i = 0; i < 3; i++) {
		unsigned x, y;
		to_pixel(pts[at[i]][0], pts[at[i]][1], &x, &y);
		CHECK_EQ(pixel(sc, 0, x, y), 0xff00ff00u | (i * 255 + 2) / 4);
	}
}

/* Vertices of 34 rows, the PS's attribute at row 32 (3DSTATE_SBE Read
 * Offset 16): the quad is green as with 4-row vertices (the back end
 * carried 32 rows and read zeros past them: piglit's tes-gs-max-output with
 * 124 GS output ints). */
static void big_vertex(struct scene *sc)
{
	static const float pt[1][4] = { { -0.5f, -0.5f, 0, 1 } };
	big_vertices = true;
	char *gs = gs_program((const unsigned[]){ 0 }, 1, 0, RED_INSTANCE, 0, 0);
	/* 4 vertices x 34 rows + 4 rows of count and cut bits: 2240 bytes */
	CHECK_EQ(draw(sc, &(struct gs_draw){ .verts = pt, .nverts = 1, .topology = POINTLIST,
					     .nin = 1, .gs = gs, .instances = 1,
					     .gs_entry_units = 36 }), 0);
	free(gs);
	big_vertices = false;
	check_quads(sc, 0, (const float[][2]){ { -0.5f, -0.5f } }, 1, GREEN);
}

/* (g) push constants: 3DSTATE_CONSTANT_GS buffer 3 (where iris puts a
 * single buffer), one register at the GRF start; red = its DWord 1 = 0.75
 * (UNORM 191). */
static void push_constants(struct scene *sc)
{
	static const float pt[1][4] = { { -0.5f, 0.5f, 0, 1 } };
	char *gs = gs_program((const unsigned[]){ 0 }, 1, 0, RED_CONSTANT, 0, 0);
	CHECK_EQ(draw(sc, &(struct gs_draw){ .verts = pt, .nverts = 1, .topology = POINTLIST,
					     .nin = 1, .gs = gs, .constants = true,
					     .instances = 1, .gs_entry_units = 10 }), 0);
	free(gs);
	check_quads(sc, 0, (const float[][2]){ { -0.5f, 0.5f } }, 1, 0xff00ff00u | 191);
}

static void expect_fault(struct scene *sc, const struct gs_draw *g, const char *words)
{
	char *before = gtsim_error_state(sc->dev);
	draw(sc, g);
	char *after = gtsim_error_state(sc->dev);
	bool ok = after && strstr(after, words) && (!before || strcmp(before, after));
	if (!ok)
		fprintf(stderr, "error state lacks \"%s\": %.300s\n", words, after ? after : "(none)");
	CHECK(ok);
	free(before);
	free(after);
}

static void faults(struct scene *sc)
{
	static const float pts[1][4] = { { 0, 0, 0, 1 } };
	char *gs = gs_program((const unsigned[]){ 0 }, 1, 0, RED_INSTANCE, 0, 0);
	/* one 64-byte unit: 64 bytes of header leave no room for a vertex */
	expect_fault(sc, &(struct gs_draw){ .verts = pts, .nverts = 1, .topology = POINTLIST,
					    .nin = 1, .gs = gs, .instances = 1,
					    .gs_entry_units = 1 }, "cannot hold one 64-byte vertex");
	free(gs);
	/* a thread claiming 9 vertices in an entry of (320 - 64) / 64 = 4 */
	gs = gs_program((const unsigned[]){ 0 }, 1, 0, RED_INSTANCE, 9, 0);
	expect_fault(sc, &(struct gs_draw){ .verts = pts, .nverts = 1, .topology = POINTLIST,
					    .nin = 1, .gs = gs, .instances = 1,
					    .gs_entry_units = 5 }, "output 9 vertices");
	free(gs);
	/* a URB write at offset 40 (640 bytes) of a 320-byte entry */
	gs = gs_program((const unsigned[]){ 0 }, 1, 0, RED_INSTANCE, 0, 40);
	expect_fault(sc, &(struct gs_draw){ .verts = pts, .nverts = 1, .topology = POINTLIST,
					    .nin = 1, .gs = gs, .instances = 1,
					    .gs_entry_units = 5 }, "offset past the end of the entry");
	free(gs);
}

/* A device and a context of their own: a context is banned after three
 * hangs (as i915's), so each group of faults gets its own. */
static struct gtsim_file *scene_open(struct scene *sc, const char *device)
{
	struct gtsim_config cfg = { .device = device, .sync = 1, .hangcheck_ms = 100 };
	*sc = (struct scene){ .layers = 1 };
	sc->dev = gtsim_device_create(&cfg);
	CHECK(sc->dev != NULL);
	if (!sc->dev)
		return NULL;
	struct gtsim_file *file = gtsim_open(sc->dev);
	gtdrv_init(&sc->drv, file, devinfo_lookup(device));
	CHECK_EQ(gtdrv_bo_alloc(&sc->drv, &sc->kernel, 16384), 0);
	CHECK_EQ(gtdrv_bo_alloc(&sc->drv, &sc->dyn, 4096), 0);
	CHECK_EQ(gtdrv_bo_alloc(&sc->drv, &sc->surf, 4096), 0);
	CHECK_EQ(gtdrv_bo_alloc(&sc->drv, &sc->vbo, 4096), 0);
	CHECK_EQ(gtdrv_bo_alloc(&sc->drv, &sc->rt, LAYER_BYTES * 2), 0);
	CHECK_EQ(gtdrv_bo_alloc(&sc->drv, &sc->res, 4096), 0);
	return file;
}

/* (h) A vec4 GS: one quad (a 4-vertex strip) around its point, moved
 * right by shift x the instance, red = the primitive ID / 4 (DUAL_OBJECT)
 * or the instance / 4 (DUAL_INSTANCE). Payload (gs_simd4x2.c): DUAL_OBJECT
 * g1 primitive IDs, g2 the points' VUE headers, g3 their positions (slot 0
 * lower half, slot 1 upper); DUAL_INSTANCE g1 = the point's header (lower)
 * and position (upper), read by both halves with <0,4,1>. Entry: vertex
 * count at row 0, cut bits at row 2, vertex k's header, position and
 * colour at rows 4 + 4k (HWord units: 2 + 2k). */
static char *gs_program_simd4x2(bool dual_instance, float shift)
{
	size_t cap = 8192, n = 0;
	char *s = malloc(cap);
#define P(...) (n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__))
	/* g100: the URB header (handles g0.0, g0.1), channel masks on */
	P("mov(8) g100<1>UD g0<4,4,1>UD { align16 WE_all 1Q };\n"
	  "or(1) g100.5<1>UD g0.5<0,1,0>UD 0x0000ff00UD { align1 WE_all 1N };\n");
	/* g21: red per half; g23: the half's x shift */
	P("shr(8) g20<1>UD g0<1,4,0>UD 0x0000001bUD { align1 1Q };\n"
	  "mov(8) g22<1>F g20<8,8,1>UD { align1 1Q };\n"
	  "mul(8) g23<1>F g22<8,8,1>F %gF { align1 1Q };\n", shift);
	if (dual_instance)
		P("mul(8) g21<1>F g22<8,8,1>F 0.25F { align1 1Q };\n");
	else
		P("mov(8) g21<1>F g1<4,4,1>.xUD { align16 1Q };\n"
		  "mul(8) g21<1>F g21<4,4,1>F 0.25F { align16 1Q };\n");
	const char *pos = dual_instance ? "g1.4<0,4,1>F" : "g3<4,4,1>F";
	for (unsigned k = 0; k < 4; k++) {
		P("mov(8) g101<1>UD 0x00000000UD { align16 1Q };\n"
		  "add(8) g25<1>F g23<8,8,1>F %gF { align1 1Q };\n"
		  "mov(8) g24<1>UD 0x00000000UD { align16 1Q };\n"
		  "mov(8) g24<1>.xF g25<4,4,1>.xF { align16 1Q };\n"
		  "mov(8) g24<1>.yF %gF { align16 1Q };\n"
		  "add(8) g102<1>F %s g24<4,4,1>F { align16 1Q };\n",
		  k & 1 ? HALF : -HALF, k & 2 ? 0.125 : -0.125, pos);
		P("mov(8) g103<1>F 1F { align16 1Q };\n"
		  "mov(8) g103<1>.xF g21<4,4,1>.xF { align16 1Q };\n"
		  "mov(8) g103<1>.zF 0F { align16 1Q };\n"
		  "send(8) null<1>F g100<4,4,1>F\n"
		  "    urb %u write HWord interleave mlen 4 rlen 0 { align16 1Q };\n", 2 + 2 * k);
	}
	/* no cut bits (OWord offset 2 = row 2), then 4 vertices at row 0 */
	P("mov(8) g101<1>UD 0x00000000UD { align16 1Q };\n"
	  "send(8) null<1>F g100<4,4,1>F\n"
	  "    urb 2 write OWord interleave mlen 2 rlen 0 { align16 1Q };\n"
	  "mov(8) g101<1>UD 0x00000004UD { align16 1Q };\n"
	  "send(8) null<1>F g100<4,4,1>F\n"
	  "    urb 0 write HWord interleave mlen 2 rlen 0 { align16 1Q EOT };\n");
#undef P
	return s;
}

static void simd4x2(struct scene *sc)
{
	static const float pts[3][4] = { { -0.5f, 0.5f, 0, 1 }, { 0, 0.5f, 0, 1 },
					 { 0.5f, -0.5f, 0, 1 } };
	char *gs = gs_program_simd4x2(false, 0);
	CHECK_EQ(draw(sc, &(struct gs_draw){ .verts = pts, .nverts = 3, .topology = POINTLIST,
					     .nin = 1, .gs = gs, .prim_id = true, .instances = 1,
					     .gs_entry_units = 5, .dispatch_mode = 2,
					     .grf_start = 2 }), 0);
	free(gs);
	for (unsigned i = 0; i < 3; i++)
		check_quad_colour(sc, pts[i][0], pts[i][1], 0xff00ff00u | (i * 255 + 2) / 4);
	uint32_t st[4] = { 0 };
	gtdrv_bo_read(&sc->drv, &sc->res, 0, st, sizeof(st));
	CHECK_EQ(st[2] - st[0], 3);   /* 3 points in */
	CHECK_EQ(st[3] - st[1], 6);   /* a 2-triangle strip each */

	static const float two[2][4] = { { -0.5f, 0.5f, 0, 1 }, { 0.25f, -0.5f, 0, 1 } };
	gs = gs_program_simd4x2(true, 0.25f);
	CHECK_EQ(draw(sc, &(struct gs_draw){ .verts = two, .nverts = 2, .topology = POINTLIST,
					     .nin = 1, .gs = gs, .instances = 3,
					     .gs_entry_units = 5, .dispatch_mode = 1,
					     .grf_start = 1 }), 0);
	free(gs);
	for (unsigned p = 0; p < 2; p++)
		for (unsigned i = 0; i < 3; i++)
			check_quad_colour(sc, two[p][0] + 0.25f * (float)i, two[p][1],
					  0xff00ff00u | (i * 255 + 2) / 4);
	gtdrv_bo_read(&sc->drv, &sc->res, 0, st, sizeof(st));
	CHECK_EQ(st[2] - st[0], 6);   /* 2 points x 3 instances */
	CHECK_EQ(st[3] - st[1], 12);

	/* Dispatch Mode 0 (Gen7's SINGLE) is reserved; vertex handles are a
	 * SIMD8 payload's */
	gs = gs_program_simd4x2(false, 0);
	expect_fault(sc, &(struct gs_draw){ .verts = pts, .nverts = 1, .topology = POINTLIST,
					    .nin = 1, .gs = gs, .instances = 1, .gs_entry_units = 5,
					    .dispatch_mode = 4 }, "Dispatch Mode 0 is reserved");
	free(gs);
}

static void run(const char *device)
{
	struct scene sc;
	struct gtsim_file *file = scene_open(&sc, device);
	if (!file)
		return;
	points_and_stats(&sc);
	strip_adjacency(&sc);
	layered_instances(&sc);
	primitive_ids(&sc);
	line_loop(&sc);
	big_vertex(&sc);
	push_constants(&sc);
	faults(&sc);
	gtsim_close(file);
	gtsim_device_destroy(sc.dev);
	file = scene_open(&sc, device);
	if (!file)
		return;
	simd4x2(&sc);
	gtsim_close(file);
	gtsim_device_destroy(sc.dev);
}

int main(void)
{
	trace_init_from_env();
	run("bdw");
	run("skl");
	return test_exit();
}
