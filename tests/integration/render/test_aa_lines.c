/* Antialiased lines and smooth points (3DSTATE_RASTER Antialiasing
 * Enable and Smooth Point Enable) against the coverage rule written here:
 * the coverage ramps linearly from 1 to 0 across an AA region centred on
 * each edge of the primitive (PRM vol. 2a 3DSTATE_WM Line Antialiasing
 * Region Width, 3DSTATE_SF Line End Cap Antialiasing Region Width and AA
 * Line Distance Mode = true perpendicular distance). A line's sides lie
 * at half its width from its centre line, its ends through the end points
 * (GL's rectangle); a point's edge is its circle. The product of the side
 * and end ramps is the pixel's coverage, and it multiplies the source
 * alpha: with blending off, the target's alpha is the coverage. Pixels of
 * coverage 0 are not written. Line Width 0 is the PRM's thinnest
 * non-antialiased line (what iris programs for smooth lines under 1.5
 * pixels): alpha stays 1. Before, every one of these draws was a GPU
 * fault. Also: the coverage rules gtsim does not model fault. */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"
#include "gpu/render/topology.h"

#define W 32
#define H 32

static const float white[4] = { 1, 1, 1, 1 };

static void vertex_at(unsigned i, double wx, double wy)
{
	fx_vertex(i, (float)(wx / (W / 2.0) - 1), (float)(wy / (H / 2.0) - 1), 0.5f, 1, white);
}

/* region codes: 0 0.5 px, 1 1.0 px, 2 2.0 px, 3 4.0 px */
static void setup(uint32_t format, double width, unsigned region, unsigned cap, double point)
{
	fx_reset(gtdrv_color_fs, format, W, H, W * 4);
	REC("3DSTATE_SF", { "Viewport Transform Enable", 1 },
	    { "Line Width", (uint64_t)lrint(width * 128) }, { "AA Line Distance Mode", 1 },
	    { "Line End Cap Antialiasing Region Width", cap },
	    { "Point Width", (uint64_t)lrint(point * 8) }, { "Point Width Source", 1 });
	REC("3DSTATE_WM", { "Barycentric Interpolation Mode", 1 },
	    { "Line Antialiasing Region Width", region });
	REC("3DSTATE_RASTER", { "Cull Mode", 1 }, { "Antialiasing Enable", 1 },
	    { "Smooth Point Enable", 1 });
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* The rule: a linear ramp of width r through the edge, 1/2 on it. */
static double edge_ramp(double inside, double r)
{
	return clamp01(0.5 + inside / r);
}

/* Coverage of pixel (x, y) by the line (ax, ay)-(bx, by) of width w. */
static double line_cov(double ax, double ay, double bx, double by, double w, double r, double rc,
		       int x, int y)
{
	double cx = x + 0.5, cy = y + 0.5;
	double dx = bx - ax, dy = by - ay, len = hypot(dx, dy);
	double along = ((cx - ax) * dx + (cy - ay) * dy) / len;
	double across = fabs((cx - ax) * dy - (cy - ay) * dx) / len;
	double past = along < 0 ? -along : along > len ? along - len : -fmin(along, len - along);
	return edge_ramp(w / 2 - across, r) * edge_ramp(-past, rc);
}

static void line_want(double want[H][W], double ax, double ay, double bx, double by, double w,
		      double r, double rc)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			want[y][x] = line_cov(ax, ay, bx, by, w, r, rc, x, y);
}

static double point_cov(double px, double py, double size, double r, int x, int y)
{
	return edge_ramp(size / 2 - hypot(x + 0.5 - px, y + 0.5 - py), r);
}

/* want[y][x]: the coverage (0: not written). */
static int compare(double want[H][W], const char *what)
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *got = fx_px(W * 4, 4, x, y);
			double c = want[y][x];
			if (c > 0 && c < 1e-3)
				continue;                  /* at the region's rim: either */
			bool ok = c == 0 ? !got[0] && !got[3] :
				  got[0] == 255 && abs((int)got[3] - (int)fx_unorm8(c)) <= 1;
			if (!ok && bad++ < 6)
				fprintf(stderr, "%s: pixel %d,%d rgba %u %u %u %u, want coverage %.4f\n",
					what, x, y, got[0], got[1], got[2], got[3], c);
		}
	return bad;
}

static int draw_line(double ax, double ay, double bx, double by)
{
	fx_begin();
	vertex_at(0, ax, ay);
	vertex_at(1, bx, by);
	return fx_draw(PRIM_LINELIST, (const unsigned[]){ 0, 1 }, 1, 2);
}

static int draw_point(double px, double py)
{
	fx_begin();
	vertex_at(0, px, py);
	return fx_draw(PRIM_POINTLIST, (const unsigned[]){ 0 }, 1, 1);
}

int main(void)
{
	fx_init();
	static double want[H][W];

	/* (a) a sloped line 3 px wide, 1 px side and end cap regions: the
	 * rule at every pixel */
	{
		const double ax = 3.3, ay = 4.1, bx = 26.7, by = 19.6;
		setup(FMT_R8G8B8A8_UNORM, 3, 1, 1, 1);
		CHECK_EQ(draw_line(ax, ay, bx, by), 0);
		line_want(want, ax, ay, bx, by, 3, 1, 1);
		CHECK_EQ(compare(want, "sloped"), 0);
	}

	/* (b) a steep line going up and left, 2.5 px wide, 2 px side and
	 * 0.5 px end cap regions */
	{
		const double ax = 20.2, ay = 28.4, bx = 11.9, by = 3.7;
		setup(FMT_R8G8B8A8_UNORM, 2.5, 2, 0, 1);
		CHECK_EQ(draw_line(ax, ay, bx, by), 0);
		line_want(want, ax, ay, bx, by, 2.5, 2, 0.5);
		CHECK_EQ(compare(want, "steep"), 0);
	}

	/* (c) by hand: y = 10.5 from x = 4.5 to 20.5, 2 px wide, 2 px side
	 * region, 1 px caps. Row 10 (on the centre line): 1/2 + 1/2 = 1;
	 * rows 9 and 11 (1 px away, on the edge): 1/2; rows 8 and 12: 0.
	 * Columns 4 and 20 (centres on the ends): 1/2 of that; 3 and 21: 0. */
	{
		setup(FMT_R8G8B8A8_UNORM, 2, 2, 1, 1);
		CHECK_EQ(draw_line(4.5, 10.5, 20.5, 10.5), 0);
		memset(want, 0, sizeof(want));
		for (int x = 4; x <= 20; x++) {
			double end = x == 4 || x == 20 ? 0.5 : 1;
			want[10][x] = end;
			want[9][x] = want[11][x] = 0.5 * end;
		}
		CHECK_EQ(compare(want, "by hand"), 0);
	}

	/* (d) Line Width 0: the thinnest non-antialiased line, alpha 1, one
	 * pixel a column (x-major, the parallelogram rule) */
	{
		setup(FMT_R8G8B8A8_UNORM, 0, 1, 1, 1);
		CHECK_EQ(draw_line(4.5, 6.5, 24.5, 6.5), 0);
		memset(want, 0, sizeof(want));
		for (int x = 4; x < 24; x++)
			want[6][x] = 1;
		CHECK_EQ(compare(want, "width 0"), 0);
	}

	/* (e) a smooth point of size 5 at (10.5, 12.5), 1 px region: by hand,
	 * the centre and the pixels 1 and 2 px along an axis: 1; (1, 2) away,
	 * sqrt(5): 1/2 + 2.5 - 2.236 = 0.764; (2, 2), sqrt(8): 0.172; 3 px
	 * along an axis: 0 -- and the rule everywhere */
	{
		setup(FMT_R8G8B8A8_UNORM, 1, 1, 1, 5);
		CHECK_EQ(draw_point(10.5, 12.5), 0);
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				want[y][x] = point_cov(10.5, 12.5, 5, 1, x, y);
		CHECK(fabs(want[12][12] - 1) < 1e-9);
		CHECK(fabs(want[13][12] - (3.0 - sqrt(5))) < 1e-9);
		CHECK(fabs(want[14][12] - (3.0 - sqrt(8))) < 1e-9);
		CHECK_EQ(want[12][13], 0);
		CHECK_EQ(compare(want, "point"), 0);
		CHECK_EQ(fx_px(W * 4, 4, 10, 12)[3], 255);
		CHECK_EQ(fx_px(W * 4, 4, 12, 13)[3], fx_unorm8(3.0 - sqrt(5)));
		CHECK_EQ(fx_px(W * 4, 4, 12, 14)[3], fx_unorm8(3.0 - sqrt(8)));
		CHECK_EQ(fx_px(W * 4, 4, 13, 12)[0], 0);
	}

	/* (f) what is not modelled faults and writes nothing: Manhattan
	 * distance, a nonzero 3DSTATE_AA_LINE_PARAMETERS, an integer target */
	{
		setup(FMT_R8G8B8A8_UNORM, 3, 1, 1, 1);
		REC("3DSTATE_SF", { "AA Line Distance Mode", 0 });
		CHECK(draw_line(3.5, 4.5, 20.5, 9.5) != 0);
		CHECK(strstr(fx_last_fault, "AA Line Distance Mode") != NULL);
		setup(FMT_R8G8B8A8_UNORM, 3, 1, 1, 1);
		REC("3DSTATE_AA_LINE_PARAMETERS", { "AA Coverage Slope", 0x80 });
		CHECK(draw_point(8.5, 8.5) != 0);
		CHECK(strstr(fx_last_fault, "3DSTATE_AA_LINE_PARAMETERS") != NULL);
		setup(FMT_R8G8B8A8_UINT, 3, 1, 1, 1);
		CHECK(draw_line(3.5, 4.5, 20.5, 9.5) != 0);
		CHECK(strstr(fx_last_fault, "integer render target") != NULL);
		int touched = 0;
		for (int i = 0; i < W * H * 4; i++)
			touched += fx_mem[FX_RT + i] != 0;
		CHECK_EQ(touched, 0);
	}
	fx_fini();
	return test_exit();
}
