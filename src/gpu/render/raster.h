/* The geometry half of the 3D back end (PRM vol. 2 "Clip Stage", "Strips
 * and Fans (SF) Stage", "Windower (WM) Stage"): clipping in homogeneous
 * clip space, the perspective divide and viewport transform, and the
 * rasterization of triangles, lines, points and rectangles into 2x2 pixel
 * quads. Pure functions of their arguments: no render state, no memory. */
#ifndef GTSIM_RENDER_RASTER_H
#define GTSIM_RENDER_RASTER_H

#include <stdbool.h>
#include <stdint.h>

/* VUE rows (vec4) carried through clipping: the header, the position, two
 * rows of clip distances and the 32 attributes 3DSTATE_SBE can read (GL's
 * 128 output components of a GS, tes-gs-max-output's 124 ints) */
#define CLIP_MAX_ATTRS 36
#define CLIP_MAX_VERTS 24          /* 3 + 6 frustum planes + 8 user planes, with room */

/* A vertex in clip space: the position (VUE DWords 4-7), the user clip
 * distances (VUE rows 2-3 when the VS writes them) and the attributes,
 * which clipping interpolates linearly in clip space. */
struct clip_vertex {
	float pos[4];
	float dist[8];
	float attr[CLIP_MAX_ATTRS][4];
	/* weights of the primitive's input vertices (up to 3) that make this
	 * one in clip space: 1 for itself on input, interpolated with the
	 * attributes, so a clip-generated vertex knows where it lies in the
	 * original primitive (the setup then interpolates in the original:
	 * wm_draw.c, noperspective attributes) */
	float bw[3];
	/* the edge from this vertex to the next of its polygon is a boundary
	 * (drawn in wireframe and point fill modes); clipping clears it on
	 * the edges it creates along a plane */
	bool edge;
};

struct clip_params {
	bool clip_enable;          /* 3DSTATE_CLIP Clip Enable */
	bool z_01;                 /* API Mode D3D: 0 <= z <= w; OGL: -w <= z <= w */
	bool z_near_test;          /* 3DSTATE_RASTER Viewport Z Clip Test Enable (gen8: */
	bool z_far_test;           /* both planes) or gen9's Near / Far Clip Test Enable */
	bool xy_test;              /* clip x/y against the guard band */
	float gb[4];               /* guard band xmin, xmax, ymin, ymax in NDC */
	uint8_t user_clip;         /* clip-test enable bitmask */
	uint8_t user_cull;         /* cull-test enable bitmask */
	unsigned nattrs;           /* attributes to interpolate */
};

/* Outcome of clipping one primitive (Trivial accept/reject, PRM "Clip
 * Stage: Clip Test"). */
enum clip_result { CLIP_REJECT, CLIP_ACCEPT, CLIP_CLIPPED };

/* Clip the convex polygon in[0..n) (n = 1 point, 2 line, >= 3 polygon)
 * against the view volume and the enabled user planes. Writes at most
 * CLIP_MAX_VERTS vertices to out and their number to *nout. A point or
 * line keeps its vertex count. A polygon's output vertices carry edge
 * flags: an original edge (or its clipped part) keeps its flag, an edge
 * the clipper adds along a plane is not a boundary (PRM vol. 2 "Clip
 * Stage": the edges it creates are marked not visible). */
enum clip_result clip_polygon(const struct clip_params *p, const struct clip_vertex *in,
			      unsigned n, struct clip_vertex *out, unsigned *nout);

/* SF_CLIP_VIEWPORT's matrix and CC_VIEWPORT's depth range. */
struct viewport {
	float m00, m11, m22, m30, m31, m32;
	float zmin, zmax;          /* CC_VIEWPORT Minimum/Maximum Depth */
};

/* A vertex after the perspective divide and the viewport transform:
 * window x, y (pixels, origin at the upper left), depth z, and 1/w. */
struct win_vertex {
	float x, y, z, rhw;
};

/* divide: the Perspective Divide Disable bit off; transform: SF's Viewport
 * Transform Enable. */
struct win_vertex viewport_apply(const struct viewport *vp, const float pos[4],
				 bool divide, bool transform);

/* A rectangle of pixels, inclusive on both ends: the intersection of the
 * drawing rectangle, the scissor and the render target. */
struct pixel_rect {
	int32_t x0, y0, x1, y1;
};
void rect_intersect(struct pixel_rect *r, const struct pixel_rect *with);

/* Sub-pixel precision of the rasterizer: 8 fraction bits (PRM "Vertex
 * Sub Pixel Precision Select", 8-bit mode). */
#define RASTER_SUBPIXEL_BITS 8
#define RASTER_ONE (1 << RASTER_SUBPIXEL_BITS)

/* A fixed-point window position. */
int64_t raster_fixed(float v);

/* Called for every 2x2 quad with at least one covered pixel: its upper
 * left pixel (both even) and a coverage mask (bit 0 (x,y), 1 (x+1,y),
 * 2 (x,y+1), 3 (x+1,y+1)). A nonzero return stops the rasterization. */
typedef int (*raster_quad_fn)(void *ctx, int32_t x, int32_t y, unsigned mask);

/* Sample positions of a pixel (PRM vol. 2 "Multisample Modes",
 * 3DSTATE_SAMPLE_PATTERN): n offsets from the pixel's upper left corner
 * in fixed point (RASTER_ONE a pixel). raster_centre: the pixel centre. */
#define RASTER_MAX_SAMPLES 16
struct raster_samples {
	unsigned n;
	int32_t x[RASTER_MAX_SAMPLES], y[RASTER_MAX_SAMPLES];
};
extern const struct raster_samples raster_centre;

/* Called for every 2x2 quad with a covered sample: its upper left pixel
 * and the coverage, 16 bits a pixel (bits 16p + s: sample s of pixel p,
 * p numbered as for raster_quad_fn). */
typedef int (*raster_cov_fn)(void *ctx, int32_t x, int32_t y, uint64_t cov);

/* The pixel mask of a coverage: pixel p when its sample 0 is covered. */
static inline unsigned raster_cov_pixels(uint64_t cov)
{
	return (unsigned)((cov & 1) | (cov >> 15 & 2) | (cov >> 30 & 4) | (cov >> 45 & 8));
}

/* Called for a run of n quads of a row, at (x + 2k, y) for k < n, each
 * with every sample covered (cov, as raster_cov_fn's): the quads of the
 * 8x8 blocks the rasterizer found inside the primitive whole. */
typedef int (*raster_run_fn)(void *ctx, int32_t x, int32_t y, unsigned n, uint64_t cov);

/* The shapes below evaluated at every sample of the pattern, the top-left
 * rule at each sample (a sample exactly on an edge is inside only on a
 * top or left edge). The quads reach the callbacks row by row of quads,
 * left to right in each (the _runs forms hand the whole quads of a row's
 * inside blocks to `run`, in the same order; run NULL: every quad to fn). */
int raster_triangle_runs(const struct win_vertex *v0, const struct win_vertex *v1,
			 const struct win_vertex *v2, const struct pixel_rect *clip,
			 const struct raster_samples *sp, raster_cov_fn fn, raster_run_fn run,
			 void *ctx);
int raster_rect_runs(const struct win_vertex *v0, const struct win_vertex *v1,
		     const struct win_vertex *v2, const struct pixel_rect *clip,
		     const struct raster_samples *sp, raster_cov_fn fn, raster_run_fn run,
		     void *ctx);
int raster_triangle_ms(const struct win_vertex *v0, const struct win_vertex *v1,
		       const struct win_vertex *v2, const struct pixel_rect *clip,
		       const struct raster_samples *sp, raster_cov_fn fn, void *ctx);
int raster_rect_ms(const struct win_vertex *v0, const struct win_vertex *v1,
		   const struct win_vertex *v2, const struct pixel_rect *clip,
		   const struct raster_samples *sp, raster_cov_fn fn, void *ctx);
int raster_line_ms(const struct win_vertex *v0, const struct win_vertex *v1, float width,
		   bool last_pixel, const struct pixel_rect *clip, const struct raster_samples *sp,
		   raster_cov_fn fn, void *ctx);
/* A line under multisample rasterization (GL 4.6 core, section 14.5.4
 * "Line Multisample Rasterization"; the hardware's MSRASTMODE_ON_* line):
 * the rectangle of the given width centred on the segment v0-v1, its two
 * long sides parallel to it at width / 2, its two ends through v0 and v1
 * perpendicular to it (no extension past the end points, no last-pixel
 * rule); each sample inside is covered, the top-left rule on its edges. */
int raster_line_rect_ms(const struct win_vertex *v0, const struct win_vertex *v1, float width,
			const struct pixel_rect *clip, const struct raster_samples *sp,
			raster_cov_fn fn, void *ctx);
int raster_point_ms(const struct win_vertex *v, float size, const struct pixel_rect *clip,
		    const struct raster_samples *sp, raster_cov_fn fn, void *ctx);

/* Antialiased lines and smooth points (raster_aa.c): the primitive's
 * shape and AA regions, from which each pixel's coverage is computed. */
enum raster_aa_kind { RASTER_AA_NONE, RASTER_AA_LINE, RASTER_AA_POINT };
struct raster_aa {
	uint8_t kind;              /* enum raster_aa_kind */
	float x, y;                /* line: its first end point; point: the centre */
	float ux, uy;              /* line: the unit vector from the first end to the second */
	float len;                 /* line: its length */
	float half;                /* half the line width, the point's radius */
	float region, cap;         /* AA region widths of the sides (point: the circle) and end caps */
};
/* a -> b of the given width; region: 3DSTATE_WM Line Antialiasing Region
 * Width, cap: 3DSTATE_SF Line End Cap Antialiasing Region Width (pixels). */
void raster_aa_line(struct raster_aa *aa, const struct win_vertex *a,
		    const struct win_vertex *b, float width, float region, float cap);
/* The circle of diameter size centred on c. */
void raster_aa_point(struct raster_aa *aa, const struct win_vertex *c, float size, float region);
/* The coverage (0..1) at window position (x, y): 1 for RASTER_AA_NONE. */
float raster_aa_coverage(const struct raster_aa *aa, double x, double y);
/* Every sample where the coverage may be above 0 (z and 1/w of the corners
 * from like): the callback drops the pixels whose coverage is 0. */
int raster_aa_ms(const struct raster_aa *aa, const struct win_vertex *like,
		 const struct pixel_rect *clip, const struct raster_samples *sp,
		 raster_cov_fn fn, void *ctx);

/* Triangle with the top-left fill rule (PRM "Rasterization Rules"): a
 * pixel is covered when its center is inside, or on a top or left edge.
 * Returns the callback's nonzero value, or 0. */
int raster_triangle(const struct win_vertex *v0, const struct win_vertex *v1,
		    const struct win_vertex *v2, const struct pixel_rect *clip,
		    raster_quad_fn fn, void *ctx);
/* Twice the signed area in window space (> 0: clockwise on the screen,
 * whose y axis points down). */
double raster_area2(const struct win_vertex *v0, const struct win_vertex *v1,
		    const struct win_vertex *v2);

/* A RECTLIST rectangle: v0, v1, v2 are three corners, v1 the one both
 * edges share; the fourth is v0 + v2 - v1 (PRM "RECTLIST"). */
int raster_rect(const struct win_vertex *v0, const struct win_vertex *v1,
		const struct win_vertex *v2, const struct pixel_rect *clip,
		raster_quad_fn fn, void *ctx);
/* A line of the given width as the parallelogram the PRM's non-AA line
 * rule describes: the segment widened along its minor axis. last_pixel:
 * 3DSTATE_SF Last Pixel Enable (otherwise the end point's pixel is left
 * out by the fill rule). */
int raster_line(const struct win_vertex *v0, const struct win_vertex *v1, float width,
		bool last_pixel, const struct pixel_rect *clip, raster_quad_fn fn, void *ctx);
/* A point: the square of side `size` centred on v. */
int raster_point(const struct win_vertex *v, float size, const struct pixel_rect *clip,
		 raster_quad_fn fn, void *ctx);

/* Barycentric weights of the pixel centre (px + 0.5, py + 0.5) in the
 * triangle v0 v1 v2: linear (screen space) in lin[3], perspective-correct
 * in persp[3] (weights by 1/w). */
struct bary_setup {
	double x0, y0;
	double e1x, e1y, e2x, e2y;     /* v1 - v0, v2 - v0 */
	double inv_area;
	double rhw[3];
	double z[3];
	bool rhw_one;                  /* rhw 1 at the three vertices */
};
void bary_setup(struct bary_setup *s, const struct win_vertex *v0,
		const struct win_vertex *v1, const struct win_vertex *v2);
void bary_at(const struct bary_setup *s, double x, double y, float lin[3], float persp[3]);
/* bary_at's linear weights alone (the same operations: the same bits),
 * without the three divisions of the perspective ones: for depth. */
void bary_lin_at(const struct bary_setup *s, double x, double y, float lin[3]);
#define BARY_CHUNK 4
/* bary_at at the n points (x[i], y[i]) (arrays padded to a multiple of
 * BARY_CHUNK): weight c of point i in lin[c][i] and persp[c][i]. */
void bary_at_n(const struct bary_setup *s, unsigned n, const double *x, const double *y,
	       float *const lin[3], float *const persp[3]);
/* bary_at_n at the centres of the pixels (x[i], y[i]) (arrays padded to a
 * multiple of BARY_CHUNK), only the weights `want` asks for: BARY_LIN
 * lin[0..2], BARY_PERSP persp[0..2], BARY_PERSP12 persp[1..2] (the
 * payload's b1 and b2); the other arrays are not written. */
#define BARY_LIN 1u
#define BARY_PERSP 2u
#define BARY_PERSP12 4u
void bary_pixels(const struct bary_setup *s, unsigned n, const int32_t *x, const int32_t *y,
		 unsigned want, float *const lin[3], float *const persp[3]);
/* Depth at the four pixel centres of the quad at (x, y) (pixel i at
 * (x + (i & 1), y + (i >> 1))) from the vertices' z: z0 + l1 (z1 - z0) +
 * l2 (z2 - z0), in double from bary_lin_at's weights, rounded to float. */
void bary_z_quad(const struct bary_setup *s, const float z[3], int32_t x, int32_t y,
		 float out[4]);
/* bary_z_quad for the n quads at (x + 2k, y), k < n: quad k in out[4k..4k+3]. */
void bary_z_quads(const struct bary_setup *s, const float z[3], int32_t x, int32_t y,
		  unsigned n, float *out);

#endif
