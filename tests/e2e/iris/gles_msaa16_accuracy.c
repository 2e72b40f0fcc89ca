/* piglit's MSAA accuracy scene at 16 samples on Mesa's iris under
 * `gtsim run --device=skl` (only SKL has 16x), checked pixel by pixel
 * against a CPU oracle (docs/piglit.md, "SKL srgb depthstencil accuracy").
 *
 * The scene is the geometry of piglit's Triangles pattern
 * (ext_framebuffer_multisample/accuracy, written here from its
 * description): 64 white triangles on black, (-0.05, -0.1), (0, 0.1),
 * (0.05, -0.1) each, triangle t rotated by t * 2pi/64, moved to the centre
 * of cell (t % 8, 7 - t / 8) of an 8x8 grid over [-1, 1]^2, the whole
 * scaled by 0.95, on a 256x256 image. As in piglit's "small depthstencil"
 * form the image is drawn in 16x16 tiles into a 16x MSAA framebuffer with
 * a combined depth/stencil buffer (depth test off), each tile resolved
 * with glBlitFramebuffer into a single-sampled one and read back. Both
 * colour formats: RGBA8 (piglit's "color") and SRGB8_ALPHA8 ("srgb").
 *
 * The vertices are computed here in double and rounded to 1/256 pixel,
 * the rasterizer's sub-pixel precision (PRM vol. 2, "Rasterization"), so
 * the GPU sees exactly the triangles the oracle sees: the vertex shader's
 * tile offset, scale by 1/8 and the viewport transform are exact in float
 * on that grid.
 *
 * Oracle: a sample of pixel (x, y) is lit when a triangle covers the
 * point (x + sx / 16, y + sy / 16), (sx, sy) the standard 16x position of
 * the sample, edges by the top-left rule in window space (y = row,
 * growing downwards: iris draws user framebuffers unflipped); the
 * resolved pixel is the average of its 16 samples, k / 16 for k lit,
 * stored as UNORM8 (RGBA8; alpha of SRGB8_ALPHA8) or sRGB-encoded UNORM8
 * (the colour of SRGB8_ALPHA8: GLES 3.0 sec. 4.3.3 blits linearize an
 * sRGB source and encode for an sRGB destination). Tolerance 1/255 per
 * channel: the resolve's float-to-UNORM8 conversion of k / 16 may round a
 * tie (k = 8: 127.5) either way, and the hardware's linear-to-sRGB
 * conversion is not required to round exactly (the PRM allows the
 * conversion an error; Mesa rounds in its own way). A wrong sample
 * (k off by one) moves a pixel by 16/255 at least (more for sRGB), far
 * beyond it.
 *
 * Beside the oracle, the figures piglit measures: its reference image (a
 * single-sampled render at 16x the resolution, averaging 16x16 cells: the
 * centres of a 16x16 grid of the pixel) classifies each channel as unlit,
 * totally lit or partially lit, and the RMS of the test image against it
 * is printed for gtsim's image and for the oracle's (with piglit's
 * thresholds), to show whether the oracle alone reproduces piglit's
 * failure at 16 samples. A second oracle with the two samples on the
 * pixel's own edges (12 and 15) moved by 1/16 into it must disagree with
 * gtsim (the comparison has teeth); its figures against the reference
 * show where piglit's unlit and totally lit error comes from. */
#include <math.h>
#include <stdlib.h>

#include "gl_target.h"
#include <GLES3/gl3.h>

#define PAT 256           /* pattern size in pixels */
#define TILE 16           /* piglit's "small" MSAA framebuffer */
#define NS 16
#define TRIS 64
#define SUB 256           /* 1/256 pixel: the rasterizer's grid */

/* The standard 16x sample positions in 1/16 pixel from the pixel's upper
 * left corner (D3D11's standard pattern; Mesa's GEN_SAMPLE_POS_16X in
 * src/intel/common/gen_sample_positions.h, which iris programs into
 * 3DSTATE_SAMPLE_PATTERN). Some are on even sixteenths and on the pixel's
 * own edge (12: x = 0, 15: y = 0), where no 16x16 cell centre lies. */
static const int pos16[NS][2] = {
	{ 9, 9 }, { 7, 5 }, { 5, 10 }, { 12, 7 }, { 3, 6 }, { 10, 13 }, { 13, 11 }, { 11, 3 },
	{ 6, 14 }, { 8, 1 }, { 4, 2 }, { 2, 12 }, { 0, 8 }, { 15, 4 }, { 14, 15 }, { 1, 0 },
};

static int64_t tri[TRIS][3][2];   /* pattern window coordinates, 1/256 pixel */

static void pattern_triangles(void)
{
	static const double shape[3][2] = { { -0.5, -1.0 }, { 0.0, 1.0 }, { 0.5, -1.0 } };
	for (int t = 0; t < TRIS; t++) {
		double r = 2 * M_PI / TRIS * t, c = cos(r), s = sin(r);
		int i = t % 8, j = 7 - t / 8;
		for (int v = 0; v < 3; v++) {
			double x = 0.1 * shape[v][0], y = 0.1 * shape[v][1];
			double px = (c * x - s * y + (2 * i + 1) / 8.0 - 1) * 0.95;
			double py = (s * x + c * y + (2 * j + 1) / 8.0 - 1) * 0.95;
			tri[t][v][0] = llround((px + 1) * PAT / 2 * SUB);
			tri[t][v][1] = llround((py + 1) * PAT / 2 * SUB);
		}
	}
}

/* Point p (1/256 pixel) inside triangle t, top-left rule. Wound so that
 * E_ab(p) = (b - a) x (p - a) > 0 inside; E's inward normal is (-dy, dx),
 * so a left edge (inside to its right) has dy < 0, a top edge (y down:
 * inside below) dy == 0 and dx > 0; a point with E == 0 is inside only on
 * those. */
static bool inside(int t, int64_t px, int64_t py)
{
	const int64_t (*v)[2] = tri[t];
	int o[3] = { 0, 1, 2 };
	if ((v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) - (v[2][0] - v[0][0]) * (v[1][1] - v[0][1]) < 0)
		o[1] = 2, o[2] = 1;
	for (int e = 0; e < 3; e++) {
		const int64_t *a = v[o[e]], *b = v[o[(e + 1) % 3]];
		int64_t dx = b[0] - a[0], dy = b[1] - a[1];
		int64_t E = dx * (py - a[1]) - dy * (px - a[0]);
		if (E < 0 || (E == 0 && !(dy < 0 || (dy == 0 && dx > 0))))
			return false;
	}
	return true;
}

/* Pixels whose square [x, x + 1) x [y, y + 1) meets triangle t's box. */
static void tri_box(int t, int *x0, int *y0, int *x1, int *y1)
{
	int64_t lo[2] = { INT64_MAX, INT64_MAX }, hi[2] = { INT64_MIN, INT64_MIN };
	for (int v = 0; v < 3; v++)
		for (int a = 0; a < 2; a++) {
			lo[a] = tri[t][v][a] < lo[a] ? tri[t][v][a] : lo[a];
			hi[a] = tri[t][v][a] > hi[a] ? tri[t][v][a] : hi[a];
		}
	*x0 = (int)(lo[0] / SUB), *y0 = (int)(lo[1] / SUB);
	*x1 = (int)(hi[0] / SUB), *y1 = (int)(hi[1] / SUB);
}

/* How many of the n points pts (1/256 pixel from the pixel's upper left
 * corner, n <= 256) of each pixel some triangle covers. */
static void lit_counts(const int (*pts)[2], int n, uint16_t *count)
{
	static uint64_t lit[PAT * PAT][4];
	memset(lit, 0, sizeof(lit));
	for (int t = 0; t < TRIS; t++) {
		int x0, y0, x1, y1;
		tri_box(t, &x0, &y0, &x1, &y1);
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++)
				for (int i = 0; i < n; i++)
					if (inside(t, (int64_t)x * SUB + pts[i][0],
						   (int64_t)y * SUB + pts[i][1]))
						lit[y * PAT + x][i / 64] |= 1ull << (i % 64);
	}
	for (int p = 0; p < PAT * PAT; p++)
		count[p] = (uint16_t)(__builtin_popcountll(lit[p][0]) + __builtin_popcountll(lit[p][1]) +
				      __builtin_popcountll(lit[p][2]) + __builtin_popcountll(lit[p][3]));
}

/* Lit samples of each pixel for the 16x positions pos (the oracle). */
static void oracle_counts(const int pos[NS][2], uint16_t *k)
{
	int pts[NS][2];
	for (int s = 0; s < NS; s++)
		pts[s][0] = pos[s][0] * 16, pts[s][1] = pos[s][1] * 16;
	lit_counts(pts, NS, k);
}

/* Lit cells of each pixel in piglit's reference: the centres of a 16x16
 * grid, ((i + 0.5) / 16, (j + 0.5) / 16). */
static void reference_counts(uint16_t *m)
{
	static int pts[256][2];
	for (int c = 0; c < 256; c++)
		pts[c][0] = (c % 16) * 16 + 8, pts[c][1] = (c / 16) * 16 + 8;
	lit_counts(pts, 256, m);
}

static double srgb_encode(double l)
{
	return l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055;
}

static double srgb_decode(double s)
{
	return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
}

/* A coverage fraction as the stored UNORM8 channel c. */
static uint8_t stored(double cov, bool srgb, int c)
{
	return (uint8_t)lrint(255 * (srgb && c < 3 ? srgb_encode(cov) : cov));
}

struct stats {
	int n;
	double sse;
};

static double rms(const struct stats *s)
{
	return s->n ? sqrt(s->sse / s->n) : 0;
}

/* piglit's measure: per channel, the reference 0 (unlit), 1 (totally lit)
 * or between, the error test - ref in linear values (sRGB channels
 * decoded; for partially lit ones either averaging space is accepted). */
static void measure(const uint8_t *test, const uint8_t *ref, bool srgb, struct stats st[3])
{
	memset(st, 0, 3 * sizeof(*st));
	for (int i = 0; i < PAT * PAT * 4; i++) {
		double r = ref[i] / 255.0, v = test[i] / 255.0;
		bool conv = srgb && i % 4 < 3;
		if (conv)
			r = srgb_decode(r), v = srgb_decode(v);
		double err = v - r;
		int cls = r <= 0 ? 0 : r >= 1 ? 1 : 2;
		if (cls == 2 && conv && fabs(v - srgb_decode(r)) < fabs(err))
			err = v - srgb_decode(r);
		st[cls].n++;
		st[cls].sse += err * err;
	}
}

static void print_stats(const char *what, const struct stats st[3])
{
	/* piglit's thresholds at 16 samples: 0.333 * 0.62^log2(16), and 5% of
	 * it for unlit and totally lit channels */
	double partial = 0.333 * pow(0.62, 4), full = partial * 0.05;
	printf("%-22s unlit %6d RMS %.6f, totally lit %5d RMS %.6f (threshold %.6f: %s), "
	       "partial %5d RMS %.6f (threshold %.6f)\n", what, st[0].n, rms(&st[0]), st[1].n,
	       rms(&st[1]), full, rms(&st[0]) < full && rms(&st[1]) < full ? "pass" : "fail",
	       st[2].n, rms(&st[2]), partial);
}

/* Pixels where samples and the reference's cells disagree: no cell lit
 * but a sample, or all 256 (or 255: sRGB rounds it to 1) lit but not
 * every sample. Across a single edge a sample strictly inside the pixel
 * on the 1/16 grid cannot make one: it is the average of the four cell
 * centres around it, so a half-plane holding it holds one of them, and
 * one holding all of them holds it. Samples 12 (0, 8) and 15 (1, 0) lie
 * on the pixel's own edges, between its cells and its neighbour's. */
static void disagreements(const char *what, const uint16_t *k, const uint16_t *m)
{
	int unlit_hit = 0, lit_missed = 0, lit255_missed = 0;
	for (int p = 0; p < PAT * PAT; p++) {
		unlit_hit += m[p] == 0 && k[p] > 0;
		lit_missed += m[p] == 256 && k[p] < NS;
		lit255_missed += m[p] == 255 && k[p] < NS;
	}
	printf("%s: %d pixels with no lit cell have a lit sample, %d with all 256 cells lit "
	       "and %d with 255 have an unlit sample\n", what, unlit_hit, lit_missed,
	       lit255_missed);
}

static const char vs_src[] =
	"#version 300 es\n"
	"in vec2 win;\n"
	"uniform vec2 tile;\n"
	"void main() { gl_Position = vec4((win - tile) * 0.125 - 1.0, 0.0, 1.0); }\n";
static const char fs_src[] =
	"#version 300 es\n"
	"precision mediump float;\n"
	"out vec4 col;\n"
	"void main() { col = vec4(1.0); }\n";

static GLuint renderbuffer(GLsizei samples, GLenum format, GLsizei w, GLsizei h)
{
	GLuint rb;
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, w, h);
	return rb;
}

/* The scene through iris: 16x16 tiles of the 16x image, each resolved
 * and read back into img (PAT x PAT RGBA8, rows bottom-up = window y). */
static void render(GLenum format, uint8_t *img)
{
	GLuint ms, rs;
	glGenFramebuffers(1, &ms);
	glBindFramebuffer(GL_FRAMEBUFFER, ms);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
				  renderbuffer(NS, format, TILE, TILE));
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
				  renderbuffer(NS, GL_DEPTH24_STENCIL8, TILE, TILE));
	CHECK_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glGenFramebuffers(1, &rs);
	glBindFramebuffer(GL_FRAMEBUFFER, rs);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
				  renderbuffer(0, format, TILE, TILE));
	CHECK_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);

	static const char *const attribs[] = { "win", NULL };
	GLuint prog = gl_program(vs_src, fs_src, attribs);
	glUseProgram(prog);
	GLint tile_loc = glGetUniformLocation(prog, "tile");
	static float verts[TRIS * 3][2];
	for (int t = 0; t < TRIS; t++)
		for (int v = 0; v < 3; v++)
			for (int a = 0; a < 2; a++)
				verts[t * 3 + v][a] = (float)tri[t][v][a] / SUB;   /* exact */
	GLuint vb;
	glGenBuffers(1, &vb);
	glBindBuffer(GL_ARRAY_BUFFER, vb);
	glBufferData(GL_ARRAY_BUFFER, sizeof(verts), verts, GL_STATIC_DRAW);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
	glDisable(GL_DEPTH_TEST);
	glClearColor(0, 0, 0, 0);

	uint8_t px[TILE * TILE * 4];
	for (int ty = 0; ty < PAT; ty += TILE)
		for (int tx = 0; tx < PAT; tx += TILE) {
			glBindFramebuffer(GL_FRAMEBUFFER, ms);
			glViewport(0, 0, TILE, TILE);
			glClear(GL_COLOR_BUFFER_BIT);
			glUniform2f(tile_loc, (float)tx, (float)ty);
			glDrawArrays(GL_TRIANGLES, 0, TRIS * 3);
			glBindFramebuffer(GL_READ_FRAMEBUFFER, ms);
			glBindFramebuffer(GL_DRAW_FRAMEBUFFER, rs);
			glBlitFramebuffer(0, 0, TILE, TILE, 0, 0, TILE, TILE, GL_COLOR_BUFFER_BIT,
					  GL_NEAREST);
			glBindFramebuffer(GL_READ_FRAMEBUFFER, rs);
			memset(px, 0xee, sizeof(px));
			glReadPixels(0, 0, TILE, TILE, GL_RGBA, GL_UNSIGNED_BYTE, px);
			for (int y = 0; y < TILE; y++)
				memcpy(img + 4 * ((ty + y) * PAT + tx), px + 4 * y * TILE, 4 * TILE);
		}
	CHECK_EQ(glGetError(), GL_NO_ERROR);
	glDeleteProgram(prog);
	glDeleteBuffers(1, &vb);
	glDeleteFramebuffers(1, &ms);
	glDeleteFramebuffers(1, &rs);
}

/* Resolved image of lit-sample counts k (or cell counts of 256). */
static void image_of(const uint16_t *k, const uint16_t *m, bool srgb, uint8_t *img)
{
	for (int p = 0; p < PAT * PAT; p++)
		for (int c = 0; c < 4; c++)
			img[4 * p + c] = stored(k ? k[p] / (double)NS : m[p] / 256.0, srgb, c);
}

/* Pixels with a channel more than tol from the oracle's. */
static int count_bad(const uint8_t *got, const uint8_t *want, int tol, bool print)
{
	int bad = 0;
	for (int p = 0; p < PAT * PAT; p++) {
		int b = 0;
		for (int c = 0; c < 4; c++)
			b |= abs(got[4 * p + c] - want[4 * p + c]) > tol;
		if (b && print && bad < 6)
			printf("pixel (%d,%d): %u %u %u %u, oracle %u %u %u %u\n", p % PAT, p / PAT,
			       got[4 * p], got[4 * p + 1], got[4 * p + 2], got[4 * p + 3], want[4 * p],
			       want[4 * p + 1], want[4 * p + 2], want[4 * p + 3]);
		bad += b;
	}
	return bad;
}

int main(void)
{
	struct gl_target t;
	if (!gl_target_open(&t, TILE, TILE))
		return test_exit();
	printf("GL_RENDERER: %s, GL_VERSION: %s\n", (const char *)glGetString(GL_RENDERER),
	       (const char *)glGetString(GL_VERSION));
	GLint max_samples = 0;
	glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
	if (max_samples < NS) {
		printf("SKIP: GL_MAX_SAMPLES %d (16x is SKL's)\n", max_samples);
		gl_target_close(&t);
		return 77;
	}

	pattern_triangles();
	static uint16_t k[PAT * PAT], k_moved[PAT * PAT], m[PAT * PAT];
	oracle_counts(pos16, k);
	reference_counts(m);
	/* the teeth, and the cause of piglit's error: the two samples on the
	 * pixel's own edges, 12 (0, 8) and 15 (1, 0), moved by 1/16 into it */
	int moved[NS][2];
	memcpy(moved, pos16, sizeof(moved));
	moved[12][0] += 1;
	moved[15][1] += 1;
	oracle_counts(moved, k_moved);

	disagreements("oracle", k, m);
	disagreements("moved oracle", k_moved, m);

	static const struct { const char *name; GLenum format; bool srgb; } fmts[] = {
		{ "color (RGBA8)", GL_RGBA8, false },
		{ "srgb (SRGB8_ALPHA8)", GL_SRGB8_ALPHA8, true },
	};
	static uint8_t got[PAT * PAT * 4], want[PAT * PAT * 4], want_moved[PAT * PAT * 4],
		ref[PAT * PAT * 4];
	for (unsigned f = 0; f < 2; f++) {
		bool srgb = fmts[f].srgb;
		printf("%s:\n", fmts[f].name);
		render(fmts[f].format, got);
		image_of(k, NULL, srgb, want);
		image_of(k_moved, NULL, srgb, want_moved);
		image_of(NULL, m, srgb, ref);
		int bad = count_bad(got, want, 1, true);
		int inexact = count_bad(got, want, 0, false);
		int bad_moved = count_bad(got, want_moved, 1, false);
		printf("  gtsim vs oracle: %d of %d pixels differ (%d by 1/255); vs the oracle with "
		       "samples 12 and 15 moved: %d\n", bad, PAT * PAT, inexact - bad, bad_moved);
		CHECK_EQ(bad, 0);
		CHECK(bad_moved > 0);
		struct stats st[3];
		measure(got, ref, srgb, st);
		print_stats("  gtsim vs reference:", st);
		measure(want, ref, srgb, st);
		print_stats("  oracle vs reference:", st);
		measure(want_moved, ref, srgb, st);
		print_stats("  moved vs reference:", st);
	}

	gl_target_close(&t);
	return test_exit();
}
