/* How vertex elements land in the VUE (PRM vol. 2d VERTEX_ELEMENT_STATE):
 *  - *64*_PASSTHRU formats copy 64-bit values unconverted, one per
 *    component control, until the first NOSTORE: R64G64B64A64 fills two
 *    rows (256 bits), R64G64B64 with component 3 STORE_0 two rows ending in
 *    a zero qword, R64 with STORE_0 and two NOSTOREs one row;
 *  - the next element starts in the row after, and 3DSTATE_VF_SGVS's
 *    Element Offset names that element (its row);
 *  - an element with Edge Flag Enable is sideband data and takes no row;
 *    a *64*_PASSTHRU edge flag element is a fault.
 * The VS writes nothing (a URB write of the handle alone), so the rows are
 * the VF's; expected dwords are the vertex buffer's, by hand. */
#include "setup.h"

enum { R64G64B64A64_PASSTHRU = 444, R64G64B64_PASSTHRU = 445, R64_PASSTHRU = 161,
       POINTLIST = 1, STORE_1_INT = 4 };

static const char *const silent_vs =
	"mov(8)          g119<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"send(8)         null<1>F        g119<8,8,1>F\n"
	"                            urb 1 SIMD8 write mlen 1 rlen 0                 { align1 1Q EOT };\n";

/* Two vertices of 32 bytes: dword i of the buffer is 0xa0000000 + i. */
static void state(struct fixture *fx)
{
	setup(fx, silent_vs, 1);
	fx_begin(fx, "3DSTATE_URB_VS", 0);
	fx_set(fx, "VS Number of URB Entries", 512);
	fx_set(fx, "VS URB Entry Allocation Size", 1);     /* 128 bytes: 8 rows */
	fx_set(fx, "VS URB Starting Address", 4);
	CHECK_EQ(fx_submit(fx), 0);
	uint32_t vb[16];
	for (uint32_t i = 0; i < 16; i++)
		vb[i] = 0xa0000000u + i;
	fx_write(fx, VB_ADDR, vb, sizeof(vb));
	vertex_buffer(fx, 0, VB_ADDR, 32, sizeof(vb));
	fx_cmd(fx, "3DSTATE_VF_TOPOLOGY", "Primitive Topology Type", POINTLIST);
}

/* VertexID into element `elem`, component 2. */
static void sgvs(struct fixture *fx, unsigned elem)
{
	fx_begin(fx, "3DSTATE_VF_SGVS", 0);
	fx_set(fx, "VertexID Enable", 1);
	fx_set(fx, "VertexID Element Offset", elem);
	fx_set(fx, "VertexID Component Number", 2);
	CHECK_EQ(fx_submit(fx), 0);
}

/* Draw vertices 0 and 1 and compare vertex 1's VUE's first rows (its
 * VertexID is 1). */
static void check_rows(struct fixture *fx, const uint32_t *want, unsigned nrows)
{
	CHECK_EQ(draw(fx, false, 2, 0, 1, 0, 0), 0);
	uint32_t hh[2];
	CHECK_EQ(render_last_vues(fx->rs, hh, 2), 2);
	uint32_t h = hh[1];
	for (unsigned i = 0; i < nrows * 4; i++) {
		if (fx_urb_dw(fx, h, i) != want[i])
			fprintf(stderr, "row %u dw %u: 0x%08x, want 0x%08x\n", i / 4, i % 4,
				fx_urb_dw(fx, h, i), want[i]);
		CHECK_EQ(fx_urb_dw(fx, h, i), want[i]);
	}
}

static void passthru(void)
{
	struct fixture fx;
	fx_init(&fx, "bdw");
	state(&fx);
	/* element 0: R64G64B64A64 (rows 0-1), element 1: R32_UINT (row 2) with
	 * VertexID (1) in component 2 */
	vertex_elements(&fx, (struct element[]){
		{ 0, R64G64B64A64_PASSTHRU, 0, { SRC, SRC, SRC, SRC } },
		{ 0, R32_UINT, 4, { SRC, STORE_0, STORE_0, STORE_1_INT } } }, 2);
	sgvs(&fx, 1);
	check_rows(&fx, (const uint32_t[]){
		0xa0000008, 0xa0000009, 0xa000000a, 0xa000000b,
		0xa000000c, 0xa000000d, 0xa000000e, 0xa000000f,
		0xa0000009, 0, 1, 1 }, 3);

	/* R64G64B64 + STORE_0 (rows 0-1, last qword 0), R64 + STORE_0 and
	 * NOSTOREs (row 2), then R32_UINT (row 3) */
	vertex_elements(&fx, (struct element[]){
		{ 0, R64G64B64_PASSTHRU, 0, { SRC, SRC, SRC, STORE_0 } },
		{ 0, R64_PASSTHRU, 16, { SRC, STORE_0, NOSTORE, NOSTORE } },
		{ 0, R32_UINT, 0, { SRC, STORE_0, STORE_0, STORE_1_INT } } }, 3);
	sgvs(&fx, 2);
	check_rows(&fx, (const uint32_t[]){
		0xa0000008, 0xa0000009, 0xa000000a, 0xa000000b,
		0xa000000c, 0xa000000d, 0, 0,
		0xa000000c, 0xa000000d, 0, 0,
		0xa0000008, 0, 1, 1 }, 4);
	fx_fini(&fx);
}

/* Position (element 0, row 0) and an edge flag element of `format`. */
static void edge_elements(struct fixture *fx, unsigned format)
{
	static const char *const comp[4] = { "Component 0 Control", "Component 1 Control",
					     "Component 2 Control", "Component 3 Control" };
	fx_begin(fx, "3DSTATE_VERTEX_ELEMENTS", 5);
	for (unsigned i = 0; i < 2; i++) {
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Valid", 1);
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Source Element Format",
			   i ? format : R32G32B32A32_FLOAT);
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Source Element Offset", i ? 24 : 0);
		fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, "Edge Flag Enable", i);
		for (int c = 0; c < 4; c++)
			fx_set_sub(fx, "VERTEX_ELEMENT_STATE", 1 + 2 * i, comp[c],
				   i && c ? STORE_0 : SRC);
	}
	CHECK_EQ(fx_submit(fx), 0);
}

static void edge_flag(void)
{
	struct fixture fx;
	fx_init(&fx, "bdw");
	state(&fx);
	/* the edge flag element takes no row: row 1 stays as it was (zero) */
	edge_elements(&fx, R32_UINT);
	fx_cmd(&fx, "3DSTATE_VF_SGVS", NULL, 0);
	check_rows(&fx, (const uint32_t[]){
		0xa0000008, 0xa0000009, 0xa000000a, 0xa000000b, 0, 0, 0, 0 }, 2);

	/* a 64-bit passthrough format cannot carry the edge flag */
	edge_elements(&fx, R64_PASSTHRU);
	CHECK(draw(&fx, false, 1, 1, 1, 0, 0) < 0);
	CHECK(strstr(render_fault(fx.rs), "edge flag") != NULL);
	fx_fini(&fx);
}

/* VertexID (3DSTATE_VF_SGVS) leaves out Start Vertex Location and Base
 * Vertex Location: iris and anv compute gl_VertexID / gl_VertexIndex as
 * VertexID + their firstvertex draw parameter (start for sequential draws,
 * the base vertex for indexed ones), so GL's first + i and index +
 * basevertex (GL 4.6 section 11.1.3.9) need VertexID = i and the index
 * read. The element (R32_UINT at offset 0, 32-byte stride) still reads
 * vertex start + i or index + base: 0xa0000000 + 8 x vertex. */
static void vertex_id(void)
{
	struct fixture fx;
	fx_init(&fx, "skl");
	state(&fx);
	uint32_t vb[32];                      /* 4 vertices */
	for (uint32_t i = 0; i < 32; i++)
		vb[i] = 0xa0000000u + i;
	fx_write(&fx, VB_ADDR, vb, sizeof(vb));
	vertex_buffer(&fx, 0, VB_ADDR, 32, sizeof(vb));
	vertex_elements(&fx, (struct element[]){
		{ 0, R32_UINT, 0, { SRC, STORE_0, STORE_0, STORE_1_INT } } }, 1);
	sgvs(&fx, 0);
	uint32_t h[2];
	/* glDrawArrays(first 1, count 2): vertices 1, 2 with VertexID 0, 1 */
	CHECK_EQ(draw(&fx, false, 2, 1, 1, 0, 0), 0);
	CHECK_EQ(render_last_vues(fx.rs, h, 2), 2);
	for (unsigned v = 0; v < 2; v++) {
		CHECK_EQ(fx_urb_dw(&fx, h[v], 0), 0xa0000000u + 8 * (1 + v));
		CHECK_EQ(fx_urb_dw(&fx, h[v], 2), v);
	}
	/* indices { 0, 2 } from index 1, base vertex 1: index 2 reads vertex
	 * 3 with VertexID 2 */
	static const uint32_t idx[2] = { 0, 2 };
	fx_write(&fx, IB_ADDR, idx, sizeof(idx));
	fx_begin(&fx, "3DSTATE_INDEX_BUFFER", 0);
	fx_set(&fx, "Index Format", 2);               /* 32-bit indices */
	fx_set(&fx, "Buffer Starting Address", IB_ADDR);
	fx_set(&fx, "Buffer Size", sizeof(idx));
	CHECK_EQ(fx_submit(&fx), 0);
	CHECK_EQ(draw(&fx, true, 1, 1, 1, 0, 1), 0);
	CHECK_EQ(render_last_vues(fx.rs, h, 1), 1);
	CHECK_EQ(fx_urb_dw(&fx, h[0], 0), 0xa0000018u);
	CHECK_EQ(fx_urb_dw(&fx, h[0], 2), 2);
	fx_fini(&fx);
}

int main(void)
{
	passthru();
	edge_flag();
	vertex_id();
	return test_exit();
}
