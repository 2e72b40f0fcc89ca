/* Acceptance of the front end (issue 5) through the whole stack: libgtdrv
 * builds the green square of seeds 000/001 (four vertices, the seed's VS
 * assembled by gtsim from the seed's listing), submits it with execbuf
 * through gtsim_ioctl and waits; afterwards every vertex's VUE holds
 * X, Y, Z, W in DWords 4-7 and 0, 1, 0, 1 in the next row. The gradient
 * square of seed 000 then gets (VertexID == 0, == 1, == 2, 1) from a
 * hand-written VS reading VertexID from 3DSTATE_VF_SGVS. */
#include <string.h>

#include "drv/pipeline.h"
#include "drv/seed_shaders.h"
#include "gpu/cs/cs.h"
#include "gpu/cs/regs.h"
#include "gpu/render/render.h"
#include "kernel/device.h"
#include "common/trace.h"
#include "test.h"

enum { TRISTRIP = 5, R32G32B32A32_FLOAT = 0 };

static float urb_f(struct render_state *rs, uint32_t handle, unsigned dw)
{
	size_t size;
	const uint8_t *urb = render_urb(rs, &size);
	float f = -99;
	if (handle * 64ull + dw * 4 + 4 <= size)
		memcpy(&f, urb + handle * 64 + dw * 4, 4);
	return f;
}

/* Buffers for the square (kernel, vertices) and a batch with the state
 * up to the vertex buffer: 3D pipeline, URB of seed 003 for a one-unit
 * VUE (header row, position, colour), geometry stages off, the VS. */
static void begin_square(struct gtdrv *drv, struct gtdrv_batch *b, struct gtdrv_bo *kernel,
			 struct gtdrv_bo *vbo, const char *vs_text)
{
	struct urb_config urb;
	CHECK_EQ(gtdrv_bo_alloc(drv, kernel, 4096), 0);
	CHECK_EQ(gtdrv_bo_alloc(drv, vbo, 4096), 0);
	CHECK_EQ(gtdrv_upload_kernel(drv, kernel, 0, vs_text, NULL), 0);
	CHECK_EQ(gtdrv_bo_write(drv, vbo, 0, gtdrv_square, sizeof(gtdrv_square)), 0);
	CHECK_EQ(urb_config_compute(drv->info, 0, (const unsigned[4]){ 1, 0, 0, 0 }, &urb), 0);
	CHECK_EQ(gtdrv_batch_init(b, drv), 0);
	CHECK_EQ(gtdrv_emit_3d_begin(b, kernel, NULL), 0);
	CHECK_EQ(gtdrv_emit_urb(b, &urb), 0);
	CHECK_EQ(gtdrv_emit_geometry_off(b), 0);
	CHECK_EQ(gtdrv_emit_vs(b, &(struct gtdrv_vs){ .kernel_offset = 0, .grf_start = 2,
						      .read_length = 1, .output_length = 1 }), 0);
	const struct gtdrv_vb vb = { .index = 0, .bo = vbo, .pitch = 16,
				     .size = sizeof(gtdrv_square) };
	CHECK_EQ(gtdrv_emit_vertex_buffers(b, &vb, 1), 0);
}

/* Draws the square with vs_text; with sgvs, VertexID goes to row 1.x. */
static struct render_state *draw_square(struct gtsim_device *dev, struct gtdrv *drv,
					const char *vs_text, bool sgvs)
{
	struct gtdrv_bo kernel, vbo;
	struct gtdrv_batch b;

	begin_square(drv, &b, &kernel, &vbo, vs_text);
	/* gl_Vertex: 4 floats; for the gradient a second, zero element whose
	 * x the SGVS overwrites with VertexID */
	const struct gtdrv_vertex_attrib attribs[2] = {
		{ .buffer = 0, .format = R32G32B32A32_FLOAT, .size = 4 },
		{ .buffer = 0, .format = R32G32B32A32_FLOAT, .size = 0 },
	};
	CHECK_EQ(gtdrv_emit_vertex_elements(&b, attribs, sgvs ? 2 : 1), 0);
	CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_VF_SGVS, .vertexid_enable = sgvs,
			    .vertexid_element_offset = 1, .vertexid_component_number = 0), 0);
	CHECK_EQ(gtdrv_emit_draw(&b, &(struct gtdrv_draw){ .topology = TRISTRIP,
		.vertex_count = 4, .instance_count = 1 }), 0);
	int r = gtdrv_batch_submit(&b);
	CHECK_EQ(r, 0);
	gtdrv_batch_fini(&b);
	gtsim_device_idle(dev);
	gtdrv_bo_free(drv, &kernel);
	gtdrv_bo_free(drv, &vbo);
	return render_engine_state(dev->gpu->engines[ENGINE_RCS]);
}

/* An indirect, instanced draw: the 3DPRIM_* registers loaded with
 * MI_LOAD_REGISTER_IMM, the statistics stored with MI_STORE_REGISTER_MEM
 * before and after. 4 vertices x 2 instances of a strip: 8 vertices
 * fetched, 8 VS invocations, 2 triangles per instance. */
static void indirect_stats(struct gtsim_device *dev, struct gtdrv *drv)
{
	struct gtdrv_bo kernel, vbo, res;
	struct gtdrv_batch b;
	static const uint32_t stats[3] = { REG_IA_VERTICES_COUNT, REG_IA_PRIMITIVES_COUNT,
					   REG_VS_INVOCATION_COUNT };
	CHECK_EQ(gtdrv_bo_alloc(drv, &res, 4096), 0);
	begin_square(drv, &b, &kernel, &vbo, gtdrv_green_vs);
	CHECK_EQ(gtdrv_emit_vertex_elements(&b, &(struct gtdrv_vertex_attrib){
		.format = R32G32B32A32_FLOAT, .size = 4 }, 1), 0);
	CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_VF_SGVS, 0), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(gtdrv_emit_srm(&b, stats[i], &res, 4 * i), 0);
	CHECK_EQ(gtdrv_emit_lri(&b, REG_GPR_3DPRIM_VERTEX_COUNT, 4), 0);
	CHECK_EQ(gtdrv_emit_lri(&b, REG_GPR_3DPRIM_START_VERTEX, 0), 0);
	CHECK_EQ(gtdrv_emit_lri(&b, REG_GPR_3DPRIM_INSTANCE_COUNT, 2), 0);
	CHECK_EQ(gtdrv_emit_lri(&b, REG_GPR_3DPRIM_START_INSTANCE, 0), 0);
	CHECK_EQ(gtdrv_emit_lri(&b, REG_GPR_3DPRIM_BASE_VERTEX, 0), 0);
	CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_VF_TOPOLOGY, .primitive_topology_type = TRISTRIP), 0);
	CHECK_EQ(GTDRV_EMIT(&b, 3DSTATE_VF_STATISTICS, .statistics_enable = true), 0);
	CHECK_EQ(GTDRV_EMIT(&b, 3DPRIMITIVE, .indirect_parameter_enable = true), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(gtdrv_emit_srm(&b, stats[i], &res, 16 + 4 * i), 0);
	CHECK_EQ(gtdrv_batch_submit(&b), 0);
	gtdrv_batch_fini(&b);
	gtsim_device_idle(dev);
	uint32_t v[7] = { 0 };
	CHECK_EQ(gtdrv_bo_read(drv, &res, 0, v, sizeof(v)), 0);
	CHECK_EQ(v[4] - v[0], 8);   /* REG_IA_VERTICES_COUNT */
	CHECK_EQ(v[5] - v[1], 4);   /* REG_IA_PRIMITIVES_COUNT */
	CHECK_EQ(v[6] - v[2], 8);   /* REG_VS_INVOCATION_COUNT */
	gtdrv_bo_free(drv, &kernel);
	gtdrv_bo_free(drv, &vbo);
	gtdrv_bo_free(drv, &res);
}

static void run(const char *device)
{
	struct gtsim_config cfg = { .device = device, .sync = 1 };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	CHECK(dev != NULL);
	if (!dev)
		return;
	struct gtsim_file *file = gtsim_open(dev);
	struct gtdrv drv;
	gtdrv_init(&drv, file, devinfo_lookup(device));

	struct render_state *rs = draw_square(dev, &drv, gtdrv_green_vs, false);
	uint32_t h[8];
	CHECK(rs != NULL);
	CHECK_EQ(rs ? render_last_vues(rs, h, 8) : 0, 4);
	for (int v = 0; rs && v < 4; v++)
		for (int c = 0; c < 4; c++) {
			CHECK(urb_f(rs, h[v], 4 + c) == gtdrv_square[v][c]);       /* X Y Z W */
			CHECK(urb_f(rs, h[v], 8 + c) == (c & 1 ? 1.0f : 0.0f)); /* 0 1 0 1 */
		}

	rs = draw_square(dev, &drv, gtdrv_gradient_vs, true);
	CHECK_EQ(rs ? render_last_vues(rs, h, 8) : 0, 4);
	for (unsigned v = 0; rs && v < 4; v++) {
		CHECK(urb_f(rs, h[v], 4) == gtdrv_square[v][0] && urb_f(rs, h[v], 5) == gtdrv_square[v][1]);
		CHECK(urb_f(rs, h[v], 8) == (v == 0));
		CHECK(urb_f(rs, h[v], 9) == (v == 1));
		CHECK(urb_f(rs, h[v], 10) == (v == 2));
		CHECK(urb_f(rs, h[v], 11) == 1.0f);
	}
	indirect_stats(dev, &drv);
	gtsim_close(file);
	gtsim_device_destroy(dev);
}

int main(void)
{
	trace_init_from_env();
	run("bdw");
	run("skl");
	return test_exit();
}
