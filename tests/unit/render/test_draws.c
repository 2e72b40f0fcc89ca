/* Draw variants of the front end against hand-computed vertex lists:
 * indexed draws (8/16/32-bit, cut index, base vertex, vertex cache, the
 * index buffer's size), instancing with step rates and InstanceID,
 * indirect draws from the 3DPRIM_* registers, the vertex buffer size rule,
 * every topology's primitive count, and GPU faults that must not touch
 * host or URB memory outside the partition. */
#include "setup.h"

enum { R16_UINT_IDX = 1, R32_IDX = 2 };

/* Reads rows 0 and 1 and writes them back as position and attribute. */
static const char *const passthrough_vs =
	"mov(8)          g119<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"mov(8)          g120<1>F        g2<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g121<1>F        g3<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g122<1>F        g4<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g123<1>F        g5<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g124<1>F        g6<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g125<1>F        g7<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g126<1>F        g8<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g127<1>F        g9<8,8,1>F                      { align1 1Q };\n"
	"send(8)         null<1>F        g119<8,8,1>F\n"
	"                            urb 1 SIMD8 write mlen 9 rlen 0                 { align1 1Q EOT };\n";

static void square_state(struct fixture *fx, const char *vs, uint32_t topology)
{
	setup(fx, vs, 1);
	fx_write(fx, VB_ADDR, square, sizeof(square));
	vertex_buffer(fx, 0, VB_ADDR, 16, sizeof(square));
	vertex_elements(fx, (struct element[]){ { 0, R32G32B32A32_FLOAT, 0,
						 { SRC, SRC, SRC, SRC } } }, 1);
	fx_cmd(fx, "3DSTATE_VF_TOPOLOGY", "Primitive Topology Type", topology);
}

static void index_buffer(struct fixture *fx, unsigned format, const void *idx, uint32_t size)
{
	fx_write(fx, IB_ADDR, idx, size);
	fx_begin(fx, "3DSTATE_INDEX_BUFFER", 0);
	fx_set(fx, "Index Format", format);
	fx_set(fx, "Buffer Starting Address", IB_ADDR);
	fx_set(fx, "Buffer Size", size);
	CHECK_EQ(fx_submit(fx), 0);
}

/* The VUEs of the last draw hold these square corners, in order. */
static void check_positions(struct fixture *fx, const int *corner, unsigned n)
{
	uint32_t h[64];
	CHECK_EQ(render_last_vues(fx->rs, h, 64), n);
	for (unsigned v = 0; v < n; v++)
		for (int c = 0; c < 4; c++) {
			float want = corner[v] < 0 ? 0.0f : square[corner[v]][c];
			if (fx_urb_f(fx, h[v], 4 + c) != want)
				fprintf(stderr, "vertex %u comp %d: %g, want %g\n", v, c,
					fx_urb_f(fx, h[v], 4 + c), want);
			CHECK(fx_urb_f(fx, h[v], 4 + c) == want);
		}
}

static void reset_stats(struct fixture *fx)
{
	memset(fx->regs, 0, sizeof(*fx->regs));
}

static void test_indexed(void)
{
	struct fixture fx;
	fx_init(&fx, "bdw");
	square_state(&fx, green_vs, TRISTRIP);

	/* 16-bit, cut index 0xffffffff compared as 0xffff: runs (0 1 2) and
	 * (2 1 3); 2 and 1 come from the vertex cache: 4 VS invocations for
	 * 6 vertices, one triangle per run. */
	const uint16_t idx16[] = { 0, 1, 2, 0xffff, 2, 1, 3 };
	index_buffer(&fx, R16_UINT_IDX, idx16, sizeof(idx16));
	fx_begin(&fx, "3DSTATE_VF", 0);
	fx_set(&fx, "Indexed Draw Cut Index Enable", 1);
	fx_set(&fx, "Cut Index", 0xffffffffu);
	CHECK_EQ(fx_submit(&fx), 0);
	reset_stats(&fx);
	CHECK_EQ(draw(&fx, true, 7, 0, 1, 0, 0), 0);
	check_positions(&fx, (const int[]){ 0, 1, 2, 2, 1, 3 }, 6);
	uint32_t h[6];
	render_last_vues(fx.rs, h, 6);
	CHECK_EQ(h[3], h[2]);   /* cache hits reuse the VUE */
	CHECK_EQ(h[4], h[1]);
	CHECK_EQ(regs_get64(fx.regs, REG_IA_VERTICES_COUNT), 6);
	CHECK_EQ(regs_get64(fx.regs, REG_VS_INVOCATION_COUNT), 4);
	CHECK_EQ(regs_get64(fx.regs, REG_IA_PRIMITIVES_COUNT), 2);

	/* 8-bit indices from index 1 with base vertex 1: 1+1, 0+1, 2+1 */
	const uint8_t idx8[] = { 9, 1, 0, 2 };
	index_buffer(&fx, 0, idx8, sizeof(idx8));
	CHECK_EQ(draw(&fx, true, 3, 1, 1, 0, 1), 0);
	check_positions(&fx, (const int[]){ 2, 1, 3 }, 3);

	/* 32-bit with a negative base vertex; the buffer holds 2 indices so
	 * the third reads as index 0: 3-2, 2-2, 0-2 = -2 (past every buffer:
	 * zeros by the buffer-size rule) */
	const uint32_t idx32[] = { 3, 2 };
	index_buffer(&fx, R32_IDX, idx32, sizeof(idx32));
	CHECK_EQ(draw(&fx, true, 3, 0, 1, 0, -2), 0);
	check_positions(&fx, (const int[]){ 1, 0, -1 }, 3);

	/* cut disabled: 0xffff is an ordinary (out of range) index */
	fx_cmd(&fx, "3DSTATE_VF", NULL, 0);
	index_buffer(&fx, R16_UINT_IDX, idx16, sizeof(idx16));
	reset_stats(&fx);
	CHECK_EQ(draw(&fx, true, 7, 0, 1, 0, 0), 0);
	CHECK_EQ(regs_get64(fx.regs, REG_IA_VERTICES_COUNT), 7);
	CHECK_EQ(regs_get64(fx.regs, REG_IA_PRIMITIVES_COUNT), 5);
	fx_fini(&fx);
}

static void test_instancing(void)
{
	struct fixture fx;
	fx_init(&fx, "bdw");
	setup(&fx, passthrough_vs, 1);
	const float colors[4][4] = { { 9, 9, 9, 9 }, { 0.25f, 0.5f, 0.75f, 1 },
				     { 1, 2, 3, 4 }, { 5, 6, 7, 8 } };
	fx_write(&fx, VB_ADDR, square, sizeof(square));
	fx_write(&fx, VB2_ADDR, colors, sizeof(colors));
	vertex_buffer(&fx, 0, VB_ADDR, 16, sizeof(square));
	vertex_buffer(&fx, 1, VB2_ADDR, 16, sizeof(colors));
	vertex_elements(&fx, (struct element[]){
		{ 0, R32G32B32A32_FLOAT, 0, { SRC, SRC, SRC, SRC } },
		{ 1, R32G32B32A32_FLOAT, 0, { SRC, SRC, SRC, NOSTORE } } }, 2);
	/* element 1 steps once per 2 instances */
	fx_begin(&fx, "3DSTATE_VF_INSTANCING", 0);
	fx_set(&fx, "Vertex Element Index", 1);
	fx_set(&fx, "Instancing Enable", 1);
	fx_set(&fx, "Instance Data Step Rate", 2);
	CHECK_EQ(fx_submit(&fx), 0);
	fx_begin(&fx, "3DSTATE_VF_SGVS", 0);
	fx_set(&fx, "InstanceID Enable", 1);
	fx_set(&fx, "InstanceID Element Offset", 1);
	fx_set(&fx, "InstanceID Component Number", 3);
	CHECK_EQ(fx_submit(&fx), 0);
	fx_cmd(&fx, "3DSTATE_VF_TOPOLOGY", "Primitive Topology Type", TRILIST);
	reset_stats(&fx);
	/* 3 vertices from 1, 3 instances from instance 1: color rows
	 * 1 + inst / 2 = 1, 1, 2; InstanceID 0, 1, 2 */
	CHECK_EQ(draw(&fx, false, 3, 1, 3, 1, 0), 0);
	uint32_t h[16];
	CHECK_EQ(render_last_vues(fx.rs, h, 16), 9);
	for (unsigned inst = 0; inst < 3; inst++)
		for (unsigned v = 0; v < 3; v++) {
			uint32_t hv = h[inst * 3 + v];
			unsigned crow = 1 + inst / 2;
			CHECK(fx_urb_f(&fx, hv, 4) == square[1 + v][0]);
			CHECK(fx_urb_f(&fx, hv, 5) == square[1 + v][1]);
			for (int c = 0; c < 3; c++)
				CHECK(fx_urb_f(&fx, hv, 8 + c) == colors[crow][c]);
			CHECK_EQ(fx_urb_dw(&fx, hv, 11), inst);
		}
	CHECK_EQ(regs_get64(fx.regs, REG_IA_VERTICES_COUNT), 9);
	CHECK_EQ(regs_get64(fx.regs, REG_IA_PRIMITIVES_COUNT), 3);

	/* zero instances draw nothing */
	reset_stats(&fx);
	CHECK_EQ(draw(&fx, false, 3, 0, 0, 0, 0), 0);
	CHECK_EQ(regs_get64(fx.regs, REG_IA_VERTICES_COUNT), 0);
	fx_fini(&fx);
}

static void test_indirect_and_sizes(void)
{
	struct fixture fx;
	fx_init(&fx, "bdw");
	square_state(&fx, green_vs, TRISTRIP);
	/* vertex buffer of 40 bytes: vertex 2 (bytes 32..47) does not fit
	 * whole, so it reads as zeros */
	vertex_buffer(&fx, 0, VB_ADDR, 16, 40);
	regs_set(fx.regs, REG_GPR_3DPRIM_VERTEX_COUNT, 3);
	regs_set(fx.regs, REG_GPR_3DPRIM_START_VERTEX, 0);
	regs_set(fx.regs, REG_GPR_3DPRIM_INSTANCE_COUNT, 1);
	regs_set(fx.regs, REG_GPR_3DPRIM_START_INSTANCE, 0);
	regs_set(fx.regs, REG_GPR_3DPRIM_BASE_VERTEX, 0);
	fx_begin(&fx, "3DPRIMITIVE", 0);
	fx_set(&fx, "Indirect Parameter Enable", 1);
	fx_set(&fx, "Vertex Count Per Instance", 99);   /* ignored */
	CHECK_EQ(fx_submit(&fx), 0);
	check_positions(&fx, (const int[]){ 0, 1, -1 }, 3);
	fx_fini(&fx);
}

static void test_topologies(void)
{
	/* primitives made by 7 vertices (PRM "Primitive Topologies") */
	static const struct { uint32_t topo; uint64_t prims; } t[] = {
		{ 1, 7 }, { 2, 3 }, { 3, 6 }, { 4, 2 }, { 5, 5 }, { 6, 5 }, { 7, 1 },
		{ 8, 2 }, { 9, 1 }, { 10, 4 }, { 11, 1 }, { 12, 1 }, { 13, 5 },
		{ 14, 5 }, { 15, 2 }, { 16, 7 }, { 17, 7 }, { 18, 6 }, { 22, 5 },
		{ 34, 2 }, { 38, 1 }, { 39, 0 },
	};
	struct fixture fx;
	fx_init(&fx, "bdw");
	square_state(&fx, green_vs, TRILIST);
	vertex_buffer(&fx, 0, VB_ADDR, 0, 16);    /* pitch 0: every vertex the same */
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		fx_cmd(&fx, "3DSTATE_VF_TOPOLOGY", "Primitive Topology Type", t[i].topo);
		reset_stats(&fx);
		CHECK_EQ(draw(&fx, false, 7, 0, 1, 0, 0), 0);
		if (regs_get64(fx.regs, REG_IA_PRIMITIVES_COUNT) != t[i].prims)
			fprintf(stderr, "topology %u\n", t[i].topo);
		CHECK_EQ(regs_get64(fx.regs, REG_IA_PRIMITIVES_COUNT), t[i].prims);
	}
	fx_fini(&fx);
}

static void expect_fault(struct fixture *fx, const char *words)
{
	CHECK_EQ(draw(fx, false, 4, 0, 1, 0, 0), -1);
	if (!strstr(render_fault(fx->rs), words))
		fprintf(stderr, "fault \"%s\" lacks \"%s\"\n", render_fault(fx->rs), words);
	CHECK(strstr(render_fault(fx->rs), words) != NULL);
}

static void test_faults(void)
{
	struct fixture fx;
	fx_init(&fx, "bdw");
	square_state(&fx, green_vs, TRISTRIP);
	fx_cmd(&fx, "3DSTATE_GS", "Enable", 1);
	expect_fault(&fx, "GS");
	fx_cmd(&fx, "3DSTATE_GS", NULL, 0);

	/* a vertex buffer in an unmapped page */
	vertex_buffer(&fx, 0, 0x800000, 16, 64);
	expect_fault(&fx, "page fault");
	vertex_buffer(&fx, 0, VB_ADDR, 16, 64);

	/* a VS that writes through a handle outside the VS partition: the
	 * URB around it stays untouched */
	const char *bad_vs =
		"add(8)          g119<1>UD       g1<8,8,1>UD     0x1000UD        { align1 WE_all 1Q };\n"
		"mov(8)          g120<1>F        1F                              { align1 1Q };\n"
		"send(8)         null<1>F        g119<8,8,1>F\n"
		"                            urb 0 SIMD8 write mlen 2 rlen 0                 { align1 1Q EOT };\n";
	fx_kernel(&fx, KERNEL_ADDR, bad_vs);
	expect_fault(&fx, "outside every URB partition");
	CHECK_EQ(fx_urb_dw(&fx, 0x1200, 0), 0);
	/* an offset past the 64-byte entry */
	const char *far_vs =
		"mov(8)          g119<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q };\n"
		"mov(8)          g120<1>F        1F                              { align1 1Q };\n"
		"send(8)         null<1>F        g119<8,8,1>F\n"
		"                            urb 4 SIMD8 write mlen 2 rlen 0                 { align1 1Q EOT };\n";
	fx_kernel(&fx, KERNEL_ADDR, far_vs);
	expect_fault(&fx, "past the end of the entry");

	/* a URB partition larger than the URB */
	fx_kernel(&fx, KERNEL_ADDR, green_vs);
	fx_begin(&fx, "3DSTATE_URB_VS", 0);
	fx_set(&fx, "VS Number of URB Entries", 8000);
	fx_set(&fx, "VS URB Starting Address", 4);
	CHECK_EQ(fx_submit(&fx), 0);
	expect_fault(&fx, "passes the");
	fx_fini(&fx);
}

/* URB messages beyond the plain write: a SIMD8 read of the VF's row 0
 * back into GRFs, and a write with per-slot offsets and channel masks. */
static void test_urb_messages(void)
{
	const char *read_vs =
		"mov(8)          g119<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q };\n"
		"send(8)         g10<1>UD        g119<8,8,1>UD\n"
		"                            urb 0 SIMD8 read mlen 1 rlen 4                  { align1 1Q };\n"
		"mov(8)          g120<1>F        g10<8,8,1>F                     { align1 1Q };\n"
		"mov(8)          g121<1>F        g11<8,8,1>F                     { align1 1Q };\n"
		"mov(8)          g122<1>F        g12<8,8,1>F                     { align1 1Q };\n"
		"mov(8)          g123<1>F        g13<8,8,1>F                     { align1 1Q };\n"
		"send(8)         null<1>F        g119<8,8,1>F\n"
		"                            urb 1 SIMD8 write mlen 5 rlen 0                 { align1 1Q EOT };\n";
	struct fixture fx;
	fx_init(&fx, "bdw");
	square_state(&fx, read_vs, 0);   /* nothing pushed: the VS reads the URB itself */
	CHECK_EQ(draw(&fx, false, 4, 0, 1, 0, 0), 0);
	check_positions(&fx, (const int[]){ 0, 1, 2, 3 }, 4);
	fx_fini(&fx);

	/* slot c writes at row 1 + (c & 1); mask 0b0101: only x and z */
	const char *masked_vs =
		"mov(8)          g119<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q };\n"
		"mov(8)          g120<1>UD       0x10101010UV                    { align1 1Q };\n"
		"mov(8)          g121<1>UD       0x00050000UD                    { align1 1Q };\n"
		"mov(8)          g122<1>F        10F                             { align1 1Q };\n"
		"mov(8)          g123<1>F        20F                             { align1 1Q };\n"
		"mov(8)          g124<1>F        30F                             { align1 1Q };\n"
		"mov(8)          g125<1>F        40F                             { align1 1Q };\n"
		"send(8)         null<1>F        g119<8,8,1>F\n"
		"                            urb 1 SIMD8 write per-slot masked mlen 7 rlen 0 { align1 1Q EOT };\n";
	fx_init(&fx, "bdw");
	square_state(&fx, masked_vs, 1);
	CHECK_EQ(draw(&fx, false, 4, 0, 1, 0, 0), 0);
	uint32_t h[4];
	CHECK_EQ(render_last_vues(fx.rs, h, 4), 4);
	for (unsigned v = 0; v < 4; v++) {
		unsigned row = 1 + (v & 1), other = 2 - (v & 1);
		CHECK(fx_urb_f(&fx, h[v], row * 4 + 0) == 10.0f);
		CHECK(fx_urb_f(&fx, h[v], row * 4 + 1) == 0.0f);
		CHECK(fx_urb_f(&fx, h[v], row * 4 + 2) == 30.0f);
		CHECK(fx_urb_f(&fx, h[v], row * 4 + 3) == 0.0f);
		CHECK(fx_urb_f(&fx, h[v], other * 4 + 0) == 0.0f);
	}
	fx_fini(&fx);
}

/* Gen9: Sequential Draw Cut Index Enable cuts sequential draws at the
 * vertex whose index is Cut Index; PIPELINE_SELECT only switches when its
 * Mask Bits enable the selection. */
static void test_gen9_vf(void)
{
	struct fixture fx;
	fx_init(&fx, "skl");
	square_state(&fx, green_vs, TRISTRIP);
	fx_begin(&fx, "3DSTATE_VF", 0);
	fx_set(&fx, "Sequential Draw Cut Index Enable", 1);
	fx_set(&fx, "Cut Index", 2);
	CHECK_EQ(fx_submit(&fx), 0);
	reset_stats(&fx);
	/* vertices 0 1 | 3: no triangle, 3 vertices fetched */
	CHECK_EQ(draw(&fx, false, 4, 0, 1, 0, 0), 0);
	check_positions(&fx, (const int[]){ 0, 1, 3 }, 3);
	CHECK_EQ(regs_get64(fx.regs, REG_IA_VERTICES_COUNT), 3);
	CHECK_EQ(regs_get64(fx.regs, REG_IA_PRIMITIVES_COUNT), 0);
	fx_cmd(&fx, "3DSTATE_VF", "Component Packing Enable", 1);
	expect_fault(&fx, "Component Packing");
	fx_cmd(&fx, "3DSTATE_VF", NULL, 0);

	/* media selected without the mask: still 3D */
	fx_cmd(&fx, "PIPELINE_SELECT", "Pipeline Selection", 1);
	CHECK_EQ(draw(&fx, false, 4, 0, 1, 0, 0), 0);
	fx_begin(&fx, "PIPELINE_SELECT", 0);
	fx_set(&fx, "Mask Bits", 3);
	fx_set(&fx, "Pipeline Selection", 1);
	CHECK_EQ(fx_submit(&fx), 0);
	expect_fault(&fx, "media");
	fx_fini(&fx);
}

int main(void)
{
	test_gen9_vf();
	test_urb_messages();
	test_indexed();
	test_instancing();
	test_indirect_and_sizes();
	test_topologies();
	test_faults();
	return test_exit();
}
