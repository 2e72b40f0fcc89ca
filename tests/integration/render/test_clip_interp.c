/* Attribute interpolation across a primitive the clipper cuts: every
 * pixel of the visible piece takes the value of the ORIGINAL primitive at
 * that pixel. Perspective attributes: perspective-correct in the original
 * triangle; noperspective ones (3DSTATE_WM Barycentric Interpolation Mode
 * linear): linear in screen space in the original triangle's projection
 * (GL 4.6 section 13.5.1 "Clipping Shader Outputs": a noperspective value
 * is interpolated in window coordinates). The oracle computes both from
 * the projected vertices by Cramer's rule. Before the clipper's vertices
 * carried their weights in the original (wm_draw.c clipped_setup), the
 * noperspective colour of a clipped triangle was linear in each piece
 * between clip-space-interpolated vertex values (piglit
 * interpolation-noperspective-*-vertex: off by up to 0.3). */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"
#include "gpu/render/topology.h"

#define W 32
#define H 32

/* clip-space vertices: NDC x/y times w, z/w of vertex 0 below -1 (outside
 * the OGL near plane z >= -w), the others inside */
static const float ndc[3][2] = { { -0.9f, -0.9f }, { 0.9f, -0.6f }, { -0.5f, 0.9f } };
static const float wv[3] = { 1, 4, 2 };
static const float zv[3] = { -2, 0, 0 };     /* clip-space z */
static const float col[3][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 } };

/* linear: BIM_LINEAR_PIXEL (8), else BIM_PERSPECTIVE_PIXEL (1); the PS's
 * pln reads the one enabled mode's barycentrics at g2 either way */
static int run(bool linear)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	REC("3DSTATE_RASTER", { "Viewport Z Clip Test Enable", 1 });
	REC("3DSTATE_WM", { "Barycentric Interpolation Mode", linear ? 8 : 1 });
	REC("3DSTATE_CLIP", { "Non-Perspective Barycentric Enable", linear });
	fx_begin();
	for (unsigned i = 0; i < 3; i++)
		fx_vertex(i, ndc[i][0] * wv[i], ndc[i][1] * wv[i], zv[i], wv[i], col[i]);
	CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2 }, 1, 3), 0);

	double vx[3], vy[3];
	for (int k = 0; k < 3; k++) {
		vx[k] = fx_win(ndc[k][0], W);
		vy[k] = fx_win(ndc[k][1], H);
	}
	double den = (vx[1] - vx[0]) * (vy[2] - vy[0]) - (vx[2] - vx[0]) * (vy[1] - vy[0]);
	int bad = 0, checked = 0, clipped = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			double px = x + 0.5, py = y + 0.5;
			double b1 = ((px - vx[0]) * (vy[2] - vy[0]) - (vx[2] - vx[0]) * (py - vy[0])) / den;
			double b2 = ((vx[1] - vx[0]) * (py - vy[0]) - (px - vx[0]) * (vy[1] - vy[0])) / den;
			double l[3] = { 1 - b1 - b2, b1, b2 }, p[3], sum = 0;
			for (int k = 0; k < 3; k++)
				sum += p[k] = l[k] / wv[k];
			for (int k = 0; k < 3; k++)
				p[k] /= sum;
			/* the near plane's distance z + w, linear in clip space */
			double near = 0;
			for (int k = 0; k < 3; k++)
				near += p[k] * (zv[k] + wv[k]) / (p[0] * wv[0] + p[1] * wv[1] + p[2] * wv[2]);
			/* only pixels well inside the piece (a pixel's margin) */
			double margin = 0.1;
			if (l[0] < margin || l[1] < margin || l[2] < margin)
				continue;
			const uint8_t *got = fx_px(W * 4, 4, x, y);
			if (near < -margin) {    /* cut away: not drawn */
				clipped++;
				bad += got[3] != 0;
				continue;
			}
			if (near < margin)
				continue;
			checked++;
			const double *b = linear ? l : p;
			for (int c = 0; c < 4; c++) {
				double v = 0;
				for (int k = 0; k < 3; k++)
					v += b[k] * col[k][c];
				if (abs(got[c] - fx_unorm8(v)) > 1 && bad++ < 5)
					fprintf(stderr, "%s pixel %d,%d ch %d: %u want %u\n",
						linear ? "noperspective" : "perspective", x, y, c, got[c],
						fx_unorm8(v));
			}
		}
	CHECK(checked > 40);
	CHECK(clipped > 10);
	CHECK_EQ(bad, 0);
	return 0;
}

/* A line from vertex 0 to vertex 1, cut by the near plane: along it the
 * noperspective value is linear in window space from the original
 * vertex 0's colour to vertex 1's (the parameter of the pixel centre's
 * projection on the projected segment). */
static int line(void)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	REC("3DSTATE_RASTER", { "Viewport Z Clip Test Enable", 1 });
	REC("3DSTATE_WM", { "Barycentric Interpolation Mode", 8 });
	REC("3DSTATE_CLIP", { "Non-Perspective Barycentric Enable", 1 });
	REC("3DSTATE_SF", { "Line Width", 128 });
	fx_begin();
	for (unsigned i = 0; i < 2; i++)
		fx_vertex(i, ndc[i][0] * wv[i], ndc[i][1] * wv[i], zv[i], wv[i], col[i]);
	CHECK_EQ(fx_draw(PRIM_LINELIST, (const unsigned[]){ 0, 1 }, 1, 2), 0);
	double x0 = fx_win(ndc[0][0], W), y0 = fx_win(ndc[0][1], H);
	double dx = fx_win(ndc[1][0], W) - x0, dy = fx_win(ndc[1][1], H) - y0;
	int bad = 0, lit = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *got = fx_px(W * 4, 4, x, y);
			if (!got[3])
				continue;
			lit++;
			double t = ((x + 0.5 - x0) * dx + (y + 0.5 - y0) * dy) / (dx * dx + dy * dy);
			uint8_t want[2] = { fx_unorm8(1 - t), fx_unorm8(t) };
			for (int c = 0; c < 2; c++)
				if (abs(got[c] - want[c]) > 1 && bad++ < 5)
					fprintf(stderr, "line pixel %d,%d ch %d: %u want %u (t %.3f)\n", x, y,
						c, got[c], want[c], t);
		}
	CHECK(lit > 10);
	CHECK_EQ(bad, 0);
	return 0;
}

int main(void)
{
	fx_init();
	run(true);
	run(false);
	line();
	fx_fini();
	return test_exit();
}
