/* VS thread payload with push constants (BDW PRM vol 7, VS thread payload;
 * 3DSTATE_VS "Dispatch GRF Start Register For URB Data"): the URB part of
 * the payload starts at the dispatch GRF start register, push constants
 * first (3DSTATE_CONSTANT_VS buffers 0..3 in order, Read Length registers
 * each), the vertex's URB rows right after them. Mesa's compiler places a
 * VS's inputs at start + pushed registers (piglit: every VS with a
 * uniform, and Mesa's fixed-function VS reading the MVP matrix from
 * buffer 3). */
#include "setup.h"

#define CONST0_ADDR 0x30000
#define CONST3_ADDR 0x31000

/* g2 = buffer 0's register, g3 = buffer 3's, the position at g4..g7:
 * row 1 = position + (c0, c1, d0, d1), row 2 = (c4, d4, c7, d7). */
static const char push_vs[] =
	"mov(8)          g119<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"add(8)          g120<1>F        g4<8,8,1>F      g2<0,1,0>F      { align1 1Q };\n"
	"add(8)          g121<1>F        g5<8,8,1>F      g2.1<0,1,0>F    { align1 1Q };\n"
	"add(8)          g122<1>F        g6<8,8,1>F      g3<0,1,0>F      { align1 1Q };\n"
	"add(8)          g123<1>F        g7<8,8,1>F      g3.1<0,1,0>F    { align1 1Q };\n"
	"mov(8)          g124<1>F        g2.4<0,1,0>F                    { align1 1Q };\n"
	"mov(8)          g125<1>F        g3.4<0,1,0>F                    { align1 1Q };\n"
	"mov(8)          g126<1>F        g2.7<0,1,0>F                    { align1 1Q };\n"
	"mov(8)          g127<1>F        g3.7<0,1,0>F                    { align1 1Q };\n"
	"send(8)         null<1>F        g119<8,8,1>F\n"
	"                            urb 1 SIMD8 write mlen 9 rlen 0                 { align1 1Q EOT };\n";

static const float c[8] = { 0.5f, 0.25f, 2, 4, 10, 20, 30, 40 };
static const float d[8] = { 100, 200, 3, 5, 7, 9, 11, 13 };

static void test_push_before_urb_rows(void)
{
	struct fixture fx;
	fx_init(&fx, "bdw");
	setup(&fx, push_vs, 1);
	fx_write(&fx, VB_ADDR, square, sizeof(square));
	fx_write(&fx, CONST0_ADDR, c, sizeof(c));
	fx_write(&fx, CONST3_ADDR, d, sizeof(d));
	vertex_buffer(&fx, 0, VB_ADDR, 16, sizeof(square));
	vertex_elements(&fx, (struct element[]){ { 0, R32G32B32A32_FLOAT, 0,
						  { SRC, SRC, SRC, SRC } } }, 1);
	fx_cmd(&fx, "3DSTATE_VF_TOPOLOGY", "Primitive Topology Type", TRISTRIP);
	/* body: DW1 Read Length[0] | [1] << 16, DW2 [2] | [3] << 16,
	 * DW3..10 Buffer[0..3] (64-bit each) */
	fx_begin(&fx, "3DSTATE_CONSTANT_VS", 0);
	fx.dw[1] = 1;
	fx.dw[2] = 1u << 16;
	fx.dw[3] = CONST0_ADDR;
	fx.dw[9] = CONST3_ADDR;
	CHECK_EQ(fx_submit(&fx), 0);
	CHECK_EQ(draw(&fx, false, 4, 0, 1, 0, 0), 0);

	uint32_t h[4];
	CHECK_EQ(render_last_vues(fx.rs, h, 4), 4);
	for (unsigned v = 0; v < 4; v++) {
		const float want[8] = { square[v][0] + c[0], square[v][1] + c[1],
					square[v][2] + d[0], square[v][3] + d[1],
					c[4], d[4], c[7], d[7] };
		for (unsigned k = 0; k < 8; k++) {
			float got = fx_urb_f(&fx, h[v], 4 + k);
			if (got != want[k])
				fprintf(stderr, "vertex %u dword %u: %g, want %g\n", v, 4 + k,
					got, want[k]);
			CHECK(got == want[k]);
		}
	}
	fx_fini(&fx);
}

int main(void)
{
	test_push_before_urb_rows();
	return test_exit();
}
