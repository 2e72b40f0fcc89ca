/* Line stipple (3DSTATE_WM Line Stipple Enable, 3DSTATE_LINE_STIPPLE)
 * against GL's rule written here (GL 4.6 compatibility section 14.5.2.2):
 * a line's fragments are counted along its major axis, s = 0, 1, ...;
 * fragment s is drawn when bit (s / factor) mod 16 of the pattern is set.
 * The counter restarts at each line of a LINELIST and at the first
 * segment of a LINESTRIP, and goes on across the strip's segments (the
 * second segment starts at the first's fragment count; fx_draw flags its
 * first primitive as its run's first). Lines with their
 * ends at pixel centres, going right and down, whose fragments are the
 * pixels from the start's up to, not including, the end's. Before, the
 * enable was a GPU fault. */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"
#include "gpu/render/topology.h"

#define W 32
#define H 32
#define PATTERN 0xf731u   /* piglit linestipple's "Factor 3x" pattern */
#define FACTOR 3

static const float white[4] = { 1, 1, 1, 1 };

static void vertex_at(unsigned i, double wx, double wy)
{
	fx_vertex(i, (float)(wx / (W / 2.0) - 1), (float)(wy / (H / 2.0) - 1), 0.5f, 1, white);
}

static void setup(void)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	REC("3DSTATE_SF", { "Line Width", 128 });
	REC("3DSTATE_WM", { "Line Stipple Enable", 1 });
	REC("3DSTATE_LINE_STIPPLE", { "Line Stipple Pattern", PATTERN },
	    { "Line Stipple Repeat Count", FACTOR },
	    { "Line Stipple Inverse Repeat Count", 65536 / FACTOR });
}

static bool kept(unsigned s)
{
	return PATTERN >> (s / FACTOR % 16) & 1;
}

/* want[y][x]: 1 drawn, 0 not, -1 not a fragment of any line */
static int compare(const int want[H][W], const char *what)
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *got = fx_px(W * 4, 4, x, y);
			int on = got[0] == 255;
			int w = want[y][x] < 0 ? 0 : want[y][x];
			if (on != w && bad++ < 5)
				fprintf(stderr, "%s: pixel %d,%d %s, want %s\n", what, x, y,
					on ? "drawn" : "not drawn", w ? "drawn" : "not drawn");
		}
	return bad;
}

int main(void)
{
	fx_init();
	static int want[H][W];

	/* a strip: (2.5, 4.5) -> (26.5, 4.5) -> (26.5, 20.5): 24 fragments
	 * along y = 4 (s = 0..23), then 16 down x = 26 from y = 4 (s = 24..39) */
	setup();
	fx_begin();
	vertex_at(0, 2.5, 4.5);
	vertex_at(1, 26.5, 4.5);
	vertex_at(2, 26.5, 20.5);
	CHECK_EQ(fx_draw(PRIM_LINESTRIP, (const unsigned[]){ 0, 1, 1, 2 }, 2, 2), 0);
	memset(want, 0xff, sizeof(want));
	for (unsigned k = 0; k < 24; k++)
		want[4][2 + k] = kept(k);
	for (unsigned k = 0; k < 16; k++)
		want[4 + k][26] = kept(24 + k);
	CHECK_EQ(compare(want, "strip"), 0);

	/* a list of the same two segments: the second restarts at s = 0 */
	setup();
	fx_begin();
	vertex_at(0, 2.5, 4.5);
	vertex_at(1, 26.5, 4.5);
	vertex_at(2, 26.5, 4.5);
	vertex_at(3, 26.5, 20.5);
	CHECK_EQ(fx_draw(PRIM_LINELIST, (const unsigned[]){ 0, 1, 2, 3 }, 2, 2), 0);
	memset(want, 0xff, sizeof(want));
	for (unsigned k = 0; k < 24; k++)
		want[4][2 + k] = kept(k);
	for (unsigned k = 0; k < 16; k++)
		want[4 + k][26] = kept(k);
	CHECK_EQ(compare(want, "list"), 0);

	/* Modify Enable (loading the counters) is not modelled: a fault */
	setup();
	REC("3DSTATE_LINE_STIPPLE", { "Modify Enable (Current Repeat Counter, Current Stipple Index)", 1 });
	fx_begin();
	vertex_at(0, 2.5, 4.5);
	vertex_at(1, 26.5, 4.5);
	CHECK(fx_draw(PRIM_LINELIST, (const unsigned[]){ 0, 1 }, 1, 2) != 0);
	fx_fini();
	return test_exit();
}
