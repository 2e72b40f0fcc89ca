/* Lines under multisample rasterization (3DSTATE_RASTER DX Multisample
 * Rasterization Enable, 4x and 8x), against the rule written here from GL
 * 4.6 core section 14.5.4 "Line Multisample Rasterization": the line is
 * the rectangle of its width centred on the segment, two sides parallel to
 * it at width / 2, its ends through the end points and perpendicular to it;
 * a sample is covered when its position (the standard positions of
 * ms_positions.h) lies inside. The oracle works in real numbers; every case
 * is checked to keep each sample at least 1/64 pixel from the rectangle's
 * edges, so the rasterizer's 1/256 pixel snapping and the top-left rule
 * cannot decide a sample. Before, such a line was the single-sample
 * parallelogram (the segment widened along its minor axis) tested at each
 * sample: the sloped cases below fail there. Also: with the enable off the
 * line stays the parallelogram at the pixel centre, in every sample; Line
 * Width 0 and Last Pixel Enable under multisample rasterization fault; an
 * API Mode whose line rule is not modelled draws with a stub trace. */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"
#include "gpu/render/topology.h"
#include "ms_positions.h"

#define W 16
#define H 16
#define PITCH (W * 4)
#define SLICE (PITCH * H)
#define MARGIN (1.0 / 64)

struct line_case {
	double ax, ay, bx, by, w;  /* window coordinates, pixels */
};

static const struct line_case cases[] = {
	{ 2.5, 5.5, 13.5, 5.5, 1 },        /* horizontal, width 1 */
	{ 6.25, 1.5, 6.25, 14.5, 2.5 },    /* vertical, width 2.5 */
	{ 1.3, 2.8, 12.8, 14.3, 4 },       /* diagonal (45 degrees), width 4 */
	{ 2.4, 13.1, 12.6, 2.9, 1 },       /* diagonal up-right, width 1 */
	{ 0.7, 3.2, 15.4, 8.1, 1 },        /* shallow, width 1 */
	{ 14.4, 12.6, 2.0, 6.4, 2.5 },     /* shallow right to left, width 2.5 */
	{ 9.5, 15.2, 2.5, 1.2, 4 },        /* steep, drawn upwards, width 4 */
};
#define FIRST_SLOPED 4     /* cases[4..]: neither axis-aligned nor at 45 degrees */

/* The sample's position along the segment from a and across it (signed
 * distances in pixels). */
static void line_coords(const struct line_case *c, double px, double py, double *along,
			double *across)
{
	double dx = c->bx - c->ax, dy = c->by - c->ay, len = hypot(dx, dy);
	*along = ((px - c->ax) * dx + (py - c->ay) * dy) / len;
	*across = ((px - c->ax) * dy - (py - c->ay) * dx) / len;
}

/* Inside GL's rectangle; *near: within MARGIN of one of its edges. */
static bool in_rect(const struct line_case *c, double px, double py, bool *near)
{
	double along, across;
	line_coords(c, px, py, &along, &across);
	double len = hypot(c->bx - c->ax, c->by - c->ay), h = c->w / 2;
	bool in_len = along > -MARGIN && along < len + MARGIN;
	bool in_wid = fabs(across) < h + MARGIN;
	*near = (in_len && fabs(fabs(across) - h) < MARGIN) ||
		(in_wid && (fabs(along) < MARGIN || fabs(along - len) < MARGIN));
	return along > 0 && along < len && fabs(across) < h;
}

/* The single-sample parallelogram (Last Pixel Enable off) at (px, py): the
 * segment's x (x-major) or y range, within w / 2 of the segment along the
 * minor axis. */
static bool in_parallelogram(const struct line_case *c, double px, double py, bool *near)
{
	double dx = c->bx - c->ax, dy = c->by - c->ay, h = c->w / 2;
	bool xmajor = fabs(dx) >= fabs(dy);
	double t = xmajor ? (px - c->ax) / dx : (py - c->ay) / dy;
	double off = xmajor ? py - (c->ay + t * dy) : px - (c->ax + t * dx);
	double major = xmajor ? fabs(dx) : fabs(dy);
	bool in_len = t * major > -MARGIN && (t - 1) * major < MARGIN;
	*near = (fabs(off) < h + MARGIN &&
		 (fabs(t) * major < MARGIN || fabs(1 - t) * major < MARGIN)) ||
		(in_len && fabs(fabs(off) - h) < MARGIN);
	return t > 0 && t < 1 && fabs(off) < h;
}

static const float green[4] = { 0, 1, 0, 1 };
static const uint8_t g8[4] = { 0, 255, 0, 255 }, old8[4] = { 0x55, 0x55, 0x55, 0x55 };

/* An n-sample MSS RGBA8 target (sample s in slice s), Line Width w. */
static void ms_reset(unsigned n, double w, bool raster_enable)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Number of Multisamples", __builtin_ctz(n) },
	    { "Surface QPitch", H / 4 }, { "Surface Vertical Alignment", 1 },
	    { "Surface Horizontal Alignment", 1 });
	REC("3DSTATE_MULTISAMPLE", { "Number of Multisamples", __builtin_ctz(n) });
	REC("3DSTATE_RASTER", { "DX Multisample Rasterization Enable", raster_enable });
	REC("3DSTATE_SF", { "Line Width", (uint64_t)lrint(w * 128) });
	sample_pattern(n);
	memset(fx_mem + FX_RT, 0x55, (size_t)SLICE * n);
}

static int draw_line(const struct line_case *c)
{
	fx_begin();
	fx_vertex(0, (float)(c->ax / (W / 2.0) - 1), (float)(c->ay / (H / 2.0) - 1), 0.5f, 1, green);
	fx_vertex(1, (float)(c->bx / (W / 2.0) - 1), (float)(c->by / (H / 2.0) - 1), 0.5f, 1, green);
	return fx_draw(PRIM_LINELIST, (const unsigned[]){ 0, 1 }, 1, 2);
}

/* Every sample of the target against the rule (rect: GL's rectangle at
 * each sample position; else the parallelogram at the pixel centre). */
static void check(const char *what, const struct line_case *c, unsigned n, bool rect)
{
	const uint8_t (*p)[2] = positions(n);
	int bad = 0, near = 0, lit = 0;
	for (unsigned s = 0; s < n; s++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				bool close;
				bool in = rect ? in_rect(c, x + p[s][0] / 16.0, y + p[s][1] / 16.0, &close) :
						 in_parallelogram(c, x + 0.5, y + 0.5, &close);
				near += close;
				lit += in;
				const uint8_t *got = fx_px(PITCH, 4, x, y) + (size_t)s * SLICE;
				if (memcmp(got, in ? g8 : old8, 4) && bad++ < 6)
					fprintf(stderr, "%s %ux (%.2f,%.2f)-(%.2f,%.2f) width %.1f: sample %u "
						"of (%d,%d) at (%.4f,%.4f): %02x %02x %02x %02x, expected %s\n",
						what, n, c->ax, c->ay, c->bx, c->by, c->w, s, x, y,
						x + p[s][0] / 16.0, y + p[s][1] / 16.0, got[0], got[1],
						got[2], got[3], in ? "green" : "untouched");
			}
	CHECK_EQ(near, 0);         /* the case leaves no sample to the snapping */
	CHECK(lit > 0);
	CHECK_EQ(bad, 0);
}

static void test_rectangles(int gen, unsigned n)
{
	fx_gen = gen;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ms_reset(n, cases[i].w, true);
		CHECK_EQ(draw_line(&cases[i]), 0);
		check("rectangle", &cases[i], n, true);
	}
}

/* GL_MULTISAMPLE off (DX9/OGL, the enable off): the single-sample
 * parallelogram at the pixel centre, given to every sample. */
static void test_raster_off(void)
{
	fx_gen = 8;
	for (size_t i = FIRST_SLOPED; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ms_reset(4, cases[i].w, false);
		CHECK_EQ(draw_line(&cases[i]), 0);
		check("parallelogram", &cases[i], 4, false);
	}
}

/* Line Width 0 (the PRM: "zero-width lines are not available when
 * multisampling rasterization is enabled") and Last Pixel Enable (not
 * modelled for the rectangle) fault and write nothing. */
static void test_faults(void)
{
	fx_gen = 9;
	ms_reset(4, 0, true);
	CHECK(draw_line(&cases[2]) != 0);
	CHECK(strstr(fx_last_fault, "Line Width 0") != NULL);
	ms_reset(4, 1, true);
	REC("3DSTATE_SF", { "Last Pixel Enable", 1 });
	CHECK(draw_line(&cases[2]) != 0);
	CHECK(strstr(fx_last_fault, "Last Pixel Enable") != NULL);
	for (unsigned s = 0; s < 4; s++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				CHECK(!memcmp(fx_px(PITCH, 4, x, y) + (size_t)s * SLICE, old8, 4));
}

/* API Mode DX10.1+ with the enable off (anv's wide rectangular lines on
 * gen8/9): the mode's line rule is not modelled; drawn as the
 * parallelogram at the centre, with a stub trace. */
static void test_api_mode_stub(void)
{
	static const char said[] = "API Mode 2, DX Multisample Rasterization Enable 0";
	fx_gen = 8;
	ms_reset(4, cases[FIRST_SLOPED].w, false);
	CHECK_EQ(draw_line(&cases[FIRST_SLOPED]), 0);
	CHECK(!fx_trace_has(said));
	REC("3DSTATE_RASTER", { "API Mode", 2 });
	CHECK_EQ(draw_line(&cases[FIRST_SLOPED]), 0);
	CHECK(fx_trace_has(said));
	check("DX10.1 parallelogram", &cases[FIRST_SLOPED], 4, false);
}

int main(void)
{
	fx_trace_begin();
	fx_init();
	test_rectangles(8, 4);
	test_rectangles(8, 8);
	test_rectangles(9, 4);
	test_rectangles(9, 8);
	test_raster_off();
	test_faults();
	test_api_mode_stub();
	fx_fini();
	fx_trace_end();
	return test_exit();
}
