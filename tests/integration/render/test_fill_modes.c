/* Wireframe and point fill modes (3DSTATE_RASTER Front/Back Face Fill
 * Mode; GL 4.6 section 14.6.4 "Options Controlling Polygon Rasterization")
 * on a 16x16 target, every expected pixel worked out by hand:
 *   - the boundary edges of a polygon are lines, with the rule of PRM
 *     vol. 2 "Line Rasterization" for non-antialiased lines (the segment
 *     widened by the line width along its minor axis, a parallelogram
 *     whose pixel centres are covered with the top-left rule of
 *     triangles, so the start of an edge going right or down is in and
 *     its end out, and the reverse for an edge going left or up),
 *   - a QUADLIST's diagonal is no boundary (PRM: the quad's two triangles
 *     share an edge that is not drawn),
 *   - an edge the clipper creates along a plane is not drawn (PRM vol. 2
 *     "Clip Stage": new edges are marked invisible),
 *   - a vertex whose VF edge flag is off starts no drawn edge,
 *   - point mode draws the polygon's vertices as squares of the point
 *     width,
 *   - the line width applies to the edges.
 * Each case fails when its rule breaks: with the diagonal drawn, the
 * clipper's edge drawn, or the triangle filled. */
#include "backend_fixture.h"
#include "gpu/render/topology.h"
#include "drv/seed_shaders.h"

#define W 16
#define H 16

/* NDC of window coordinate v under fx_reset's viewport */
static float ndc(float v)
{
	return v / (W / 2.0f) - 1;
}

static const float white[4] = { 1, 1, 1, 1 };

static void setup(unsigned fill, uint32_t line_width_u37, uint32_t point_width_u83, bool zclip)
{
	fx_gen = 8;
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	REC("3DSTATE_RASTER", { "Cull Mode", 1 }, { "Front Face Fill Mode", fill },
	    { "Back Face Fill Mode", fill }, { "Viewport Z Clip Test Enable", zclip });
	REC("3DSTATE_SF", { "Viewport Transform Enable", 1 }, { "Line Width", line_width_u37 },
	    { "Point Width Source", 1 }, { "Point Width", point_width_u83 });
	fx_begin();
}

/* The square (2.5, 2.5) .. (10.5, 10.5) as a quad v0 v1 v2 v3 clockwise
 * on the screen. */
static int draw_quad(void)
{
	static const float p[4][2] = { { 2.5f, 2.5f }, { 10.5f, 2.5f }, { 10.5f, 10.5f },
				       { 2.5f, 10.5f } };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, ndc(p[i][0]), ndc(p[i][1]), 0, 1, white);
	return fx_draw(PRIM_QUADLIST, (const unsigned[]){ 0, 1, 2, 3 }, 1, 4);
}

static bool lit(int x, int y)
{
	return fx_px(W * 4, 4, x, y)[0] == 255;
}

/* Compares the target with the expected mask (rows of '#' and '.'). */
static void expect(const char *what, const char *const rows[H])
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			if (lit(x, y) != (rows[y][x] == '#')) {
				if (bad++ < 8)
					fprintf(stderr, "%s: pixel (%d, %d) %s\n", what, x, y,
						lit(x, y) ? "lit" : "not lit");
			}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	fx_init();

	/* wireframe quad, width 1: the four sides, not the diagonal v0-v2;
	 * top v0->v1 (right): x 2..9 at y 2; right v1->v2 (down): y 2..9 at
	 * x 10; bottom v2->v3 (left): x 2..9 at y 10 (the start at x = 10.5
	 * is the parallelogram's right edge); left v3->v0 (up): y 2..9 */
	setup(1, 128, 8, false);
	CHECK_EQ(draw_quad(), 0);
	expect("wireframe quad", (const char *const[H]){
		"................", "................", "..#########.....", "..#.......#.....",
		"..#.......#.....", "..#.......#.....", "..#.......#.....", "..#.......#.....",
		"..#.......#.....", "..#.......#.....", "..########......", "................",
		"................", "................", "................", "................" });

	/* the VF's edge flags (Edge Flag Enable; render_state.vf_edge_off per
	 * VS URB handle): v1's flag off hides the edge v1 -> v2, the right
	 * side */
	setup(1, 128, 8, false);
	fx_rs->vf_edge_flags = true;
	fx_rs->vf_edge_off[fx_handle(1) >> 3] |= (uint8_t)(1u << (fx_handle(1) & 7));
	CHECK_EQ(draw_quad(), 0);
	expect("wireframe quad, v1's edge flag off", (const char *const[H]){
		"................", "................", "..########......", "..#.............",
		"..#.............", "..#.............", "..#.............", "..#.............",
		"..#.............", "..#.............", "..########......", "................",
		"................", "................", "................", "................" });

	/* line width 3: each side covers 3 rows or columns (1.5 either side
	 * of the pixel centres: y 1..3 for the top) */
	setup(1, 3 * 128, 8, false);
	CHECK_EQ(draw_quad(), 0);
	expect("wireframe quad, width 3", (const char *const[H]){
		"................", "..########......", ".###########....", ".###########....",
		".###.....###....", ".###.....###....", ".###.....###....", ".###.....###....",
		".###.....###....", ".###########....", "..########......", "..########......",
		"................", "................", "................", "................" });

	/* point mode, point width 3 (state): a 3x3 square at each corner, the
	 * diagonal's ends drawn once each */
	setup(2, 128, 3 * 8, false);
	CHECK_EQ(draw_quad(), 0);
	expect("point quad", (const char *const[H]){
		"................", ".###.....###....", ".###.....###....", ".###.....###....",
		"................", "................", "................", "................",
		"................", ".###.....###....", ".###.....###....", ".###.....###....",
		"................", "................", "................", "................" });

	/* wireframe triangle v0 (2.5, 2.5) v1 (10.5, 2.5) v2 (10.5, 10.5),
	 * v2 in front of the near plane (z = -3 w): the clipper cuts v1-v2 at
	 * (10.5, 5.17) and v2-v0 at (5.17, 5.17); the edge between them lies
	 * on the near plane and is not drawn (with it, row 5 would light).
	 * v1 -> (10.5, 5.17): x 10, y 2..4; (5.17, 5.17) -> v0 (up-left,
	 * x-major): (4, 4), (3, 3), (2, 2) */
	setup(1, 128, 8, true);
	fx_vertex(0, ndc(2.5f), ndc(2.5f), 0, 1, white);
	fx_vertex(1, ndc(10.5f), ndc(2.5f), 0, 1, white);
	fx_vertex(2, ndc(10.5f), ndc(10.5f), -3, 1, white);
	CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2 }, 1, 3), 0);
	expect("clipped wireframe triangle", (const char *const[H]){
		"................", "................", "..#########.....", "...#......#.....",
		"....#.....#.....", "................", "................", "................",
		"................", "................", "................", "................",
		"................", "................", "................", "................" });

	fx_fini();
	return test_exit();
}
