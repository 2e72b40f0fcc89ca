/* Each PS thread has its own scratch space (3DSTATE_PS Scratch Space Base
 * Pointer and Per Thread Scratch Space, 1 KB << n; the PS payload's R0.5
 * holds the thread's pointer, base + thread slot x size), also when the
 * threads run at once on host threads (GTSIM_THREADS, bands of 2 rows:
 * GTSIM_BAND_ROWS=2, wm_band.c). The PS
 * writes its four colour registers to scratch (scratch block write, 4
 * registers), runs a long stretch of ALU work, reads them back (scratch
 * block read) and writes them to the render target. The draws are 512
 * squares of 4x2 pixels, 8 to a draw, each its own flat colour, so that
 * threads of different squares run at the same time. The image must be the squares'
 * colours, computed here; with one scratch space for all threads a
 * thread reads another's colours (glsl-1.50-gs-max-output failed so). */
#include <stdio.h>

#include "backend_fixture.h"
#include "gpu/render/wm_draw.h"

#define W 64
#define H 64
#define PITCH (W * 4)
#define SQ_W 4
#define SQ_H 2
#define SQUARES ((W / SQ_W) * (H / SQ_H))
#define SCRATCH_BASE 0xa0000u   /* 64 threads x 1 KB, inside the fixture */
#define PAD 200
#define ROUNDS 4

/* Square i's colour: every component a multiple of 1/15, all distinct. */
static void colour(int i, float c[4])
{
	c[0] = (float)(i % 16) / 15;
	c[1] = (float)((i / 16) % 16) / 15;
	c[2] = (float)(i / 256) / 15;
	c[3] = 1;
}

static char *kernel_text(void)
{
	static char text[PAD * 80 + 2048];
	size_t n = 0;
	n += (size_t)snprintf(text + n, sizeof(text) - n,
		"pln(8)          g11<1>F         g4<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
		"pln(8)          g12<1>F         g4.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
		"pln(8)          g13<1>F         g5<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
		"pln(8)          g14<1>F         g5.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
		"mov(8)          g10<1>UD        g0<8,8,1>UD     { align1 WE_all 1Q };\n"
		"mov(1)          g10.2<1>UD      0x00000000UD    { align1 WE_all 1N };\n"
		/* scratch block write: mlen 5, header, bit 18 scratch, bit 17
		 * write, 13:12 = 3 (4 registers), offset 0 */
		"send(8)         null<1>UW       g10<8,8,1>UD    0x0a0e3000\n"
		"                data MsgDesc: scratch write mlen 5 rlen 0 { align1 1Q };\n"
		"mov(8)          g20<1>F         0x0F            { align1 1Q };\n");
	for (int i = 0; i < PAD; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
			"add(8)          g20<1>F         g20<8,8,1>F     0x3f800000F     { align1 1Q };\n");
	n += (size_t)snprintf(text + n, sizeof(text) - n,
		/* scratch block read: mlen 1, rlen 4, header, bit 18, 4 registers */
		"send(8)         g124<1>UW       g10<8,8,1>UD    0x024c3000\n"
		"                data MsgDesc: scratch read mlen 1 rlen 4 { align1 1Q };\n"
		"sendc(8)        null<1>UW       g124<8,8,1>F    0x88031400\n"
		"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n");
	return text;
}

/* Square i's index from its pixel: squares are numbered down each
 * column, so that the squares of one draw are in 8 bands of 2 rows,
 * shared by the 4 tasks. */
static int square_at(int x, int y)
{
	return (x / SQ_W) * (H / SQ_H) + y / SQ_H;
}

/* The squares, FX_VUES / 4 to a draw (the fixture's URB holds FX_VUES
 * vertices). */
static int draw_squares(void)
{
	const int per = FX_VUES / 4;
	for (int first = 0; first < SQUARES; first += per) {
		fx_begin();
		unsigned prims[FX_VUES / 4 * 6];
		for (int j = 0; j < per; j++) {
			int i = first + j;
			int x0 = (i / (H / SQ_H)) * SQ_W, y0 = (i % (H / SQ_H)) * SQ_H;
			float c[4];
			colour(i, c);
			for (int k = 0; k < 4; k++)
				fx_vertex(4 * j + k, fx_ndc(x0 + (k & 1) * SQ_W, W),
					  fx_ndc(y0 + (k >> 1) * SQ_H, H), 0.5f, 1, c);
			const unsigned q[6] = { 0, 1, 2, 2, 1, 3 };
			for (int k = 0; k < 6; k++)
				prims[6 * j + k] = 4 * j + q[k];
		}
		if (fx_draw(4, prims, 2 * per, 3))
			return -1;
	}
	return 0;
}

int main(void)
{
	fx_init();
	setenv("GTSIM_THREADS", "4", 1);
	setenv("GTSIM_BAND_ROWS", "2", 1);
	uint64_t split = wm_band_split_runs();
	int bad = 0;
	for (int r = 0; r < ROUNDS; r++) {
		fx_reset(kernel_text(), FMT_R8G8B8A8_UNORM, W, H, PITCH);
		REC("3DSTATE_PS", { "Scratch Space Base Pointer", SCRATCH_BASE },
		    { "Per Thread Scratch Space", 0 });
		CHECK_EQ(draw_squares(), 0);
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				float c[4];
				colour(square_at(x, y), c);
				const uint8_t *p = fx_px(PITCH, 4, x, y);
				for (int k = 0; k < 4; k++)
					if (p[k] != fx_unorm8(c[k]) && bad++ < 4)
						fprintf(stderr, "(%d,%d) ch %d: %u, want %u\n", x, y, k,
							p[k], fx_unorm8(c[k]));
			}
	}
	CHECK_EQ(bad, 0);
	/* the draws were really shared by host threads */
	CHECK(wm_band_split_runs() > split);
	fx_fini();
	return test_exit();
}
