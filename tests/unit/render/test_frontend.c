/* The 3D front end driven command by command (no command streamer): the
 * green square of seeds 000/001 through VF, URB and a SIMD8 VS, checked
 * against the VUE contents the seeds describe; indexed, instanced and
 * indirect draws against hand-computed vertex lists and statistics. */
#include "common/trace.h"
#include "fixture.h"

#define KERNEL_ADDR 0x10000
#define VB_ADDR 0x20000
#define VB2_ADDR 0x21000
#define IB_ADDR 0x22000

/* Seed 001's VS, exactly as INTEL_DEBUG=vs printed it. */
static const char *const green_vs =
	"mov(8)          g119<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q compacted };\n"
	"mov(8)          g120<1>F        g2<8,8,1>F                      { align1 1Q compacted };\n"
	"mov(8)          g121<1>F        g3<8,8,1>F                      { align1 1Q compacted };\n"
	"mov(8)          g122<1>F        g4<8,8,1>F                      { align1 1Q compacted };\n"
	"mov(8)          g123<1>F        g5<8,8,1>F                      { align1 1Q compacted };\n"
	"mov(8)          g124<1>F        [0F, 0F, 0F, 0F]VF              { align1 1Q compacted };\n"
	"mov(8)          g125<1>F        1F                              { align1 1Q };\n"
	"mov(8)          g126<1>F        [0F, 0F, 0F, 0F]VF              { align1 1Q compacted };\n"
	"mov(8)          g127<1>F        1F                              { align1 1Q };\n"
	"send(8)         null            g119<8,8,1>F\n"
	"                            urb 1 SIMD8 write mlen 9 rlen 0                 { align1 1Q EOT };\n";

static const float square[4][4] = {
	{ -1, -1, 0, 1 }, { 1, -1, 0, 1 }, { -1, 1, 0, 1 }, { 1, 1, 0, 1 },
};

enum { TRILIST = 4, TRISTRIP = 5, R32G32B32A32_FLOAT = 0, R32_UINT = 215 };
enum { NOSTORE = 0, SRC = 1, STORE_0 = 2, STORE_1_FP = 3 };

/* Common state: 3D pipeline, instruction base 0, a URB from seed 003's
 * numbers for a 1 x 64-byte VUE (2560 entries at chunk 4), the VS. */
static void setup(struct fixture *fx, const char *vs_text, uint32_t read_length)
{
	fx_kernel(fx, KERNEL_ADDR, vs_text);
	fx_cmd(fx, "PIPELINE_SELECT", NULL, 0);
	fx_cmd(fx, "STATE_BASE_ADDRESS", "Instruction Base Address Modify Enable", 1);
	fx_begin(fx, "3DSTATE_URB_VS", 0);
	fx_set(fx, "VS Number of URB Entries", 2560);
	fx_set(fx, "VS URB Entry Allocation Size", 0);
	fx_set(fx, "VS URB Starting Address", 4);
	CHECK_EQ(fx_submit(fx), 0);
	fx_begin(fx, "3DSTATE_VS", 0);
	fx_set(fx, "Kernel Start Pointer", KERNEL_ADDR);
	fx_set(fx, "Dispatch GRF Start Register For URB Data", 2);
	fx_set(fx, "Vertex URB Entry Read Length", read_length);
	fx_set(fx, "SIMD8 Dispatch Enable", 1);
	fx_set(fx, "Statistics Enable", 1);
	fx_set(fx, "Enable", 1);
	CHECK_EQ(fx_submit(fx), 0);
	fx_cmd(fx, "3DSTATE_VF_STATISTICS", "Statistics Enable", 1);
}

static void vertex_buffer(struct fixture *fx, unsigned index, uint64_t addr, uint32_t pitch,
			  uint32_t size)
{
	fx_begin(fx, "3DSTATE_VERTEX_BUFFERS", 5);
	fx_set_sub(fx, "VERTEX_BUFFER_STATE", 1, "Vertex Buffer Index", index);
	fx_set_sub(fx, "VERTEX_BUFFER_STATE", 1, "Buffer Pitch", pitch);
	fx_set_sub(fx, "VERTEX_BUFFER_STATE", 1, "Address Modify Enable", 1);
	fx_set_sub(fx, "VERTEX_BUFFER_STATE", 1, "Buffer Starting Address", addr);
	fx_set_sub(fx, "VERTEX_BUFFER_STATE", 1, "Buffer Size", size);
	CHECK_EQ(fx_submit(fx), 0);
}

struct element { unsigned vb, format, offset, c[4]; };

static void vertex_elements(struct fixture *fx, const struct element *e, unsigned n)
{
	static const char *const comp[4] = { "Component 0 Control", "Component 1 Control",
					     "Component 2 Control", "Component 3 Control" };
	fx_begin(fx, "3DSTATE_VERTEX_ELEMENTS", 1 + 2 * n);
	for (unsigned i = 0; i < n; i++) {
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Vertex Buffer Index", e[i].vb);
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Valid", 1);
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Source Element Format",
			   e[i].format);
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Source Element Offset",
			   e[i].offset);
		for (int c = 0; c < 4; c++)
			fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, comp[c], e[i].c[c]);
	}
	CHECK_EQ(fx_submit(fx), 0);
}

static int draw(struct fixture *fx, bool indexed, uint32_t count, uint32_t start,
		uint32_t instances, uint32_t start_instance, int32_t base_vertex)
{
	fx_begin(fx, "3DPRIMITIVE", 0);
	fx_set(fx, "Vertex Access Type", indexed);
	fx_set(fx, "Vertex Count Per Instance", count);
	fx_set(fx, "Start Vertex Location", start);
	fx_set(fx, "Instance Count", instances);
	fx_set(fx, "Start Instance Location", start_instance);
	fx_set(fx, "Base Vertex Location", (uint32_t)base_vertex);
	return fx_submit(fx);
}

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
	CHECK_EQ(regs_get64(fx.regs, IA_VERTICES_COUNT), 4);
	CHECK_EQ(regs_get64(fx.regs, IA_PRIMITIVES_COUNT), 2);
	CHECK_EQ(regs_get64(fx.regs, VS_INVOCATION_COUNT), 4);
	fx_fini(&fx);
}

/* Seed 000's gradient square: color = (VertexID == 0, == 1, == 2, 1), the
 * VertexID stored by 3DSTATE_VF_SGVS in row 1, component 0 (g6). */
static const char *const gradient_vs =
	"mov(8)          g119<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"mov(8)          g120<1>F        g2<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g121<1>F        g3<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g122<1>F        g4<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g123<1>F        g5<8,8,1>F                      { align1 1Q };\n"
	"cmp.z.f0.0(8)   g124<1>D        g6<8,8,1>D      0D              { align1 1Q };\n"
	"cmp.z.f0.0(8)   g125<1>D        g6<8,8,1>D      1D              { align1 1Q };\n"
	"cmp.z.f0.0(8)   g126<1>D        g6<8,8,1>D      2D              { align1 1Q };\n"
	"and(8)          g124<1>UD       g124<8,8,1>UD   0x3f800000UD    { align1 1Q };\n"
	"and(8)          g125<1>UD       g125<8,8,1>UD   0x3f800000UD    { align1 1Q };\n"
	"and(8)          g126<1>UD       g126<8,8,1>UD   0x3f800000UD    { align1 1Q };\n"
	"mov(8)          g127<1>F        1F                              { align1 1Q };\n"
	"send(8)         null<1>F        g119<8,8,1>F\n"
	"                            urb 1 SIMD8 write mlen 9 rlen 0                 { align1 1Q EOT };\n";

static void test_gradient_square(void)
{
	struct fixture fx;
	fx_init(&fx, "bdw");
	setup(&fx, gradient_vs, 1);
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
