/* Rectangles, lines and points (PRM vol. 2 "RECTLIST", "Line
 * Rasterization", "Point Rasterization"), all made of triangles that share
 * edges, so the top-left rule covers each pixel (each sample) of the shape
 * exactly once. Lines: the single-sample parallelogram, or under
 * multisample rasterization the rectangle (raster_line_rect_ms). */
#include <math.h>
#include <stddef.h>

#include "gpu/render/raster.h"

static int quad(const struct win_vertex *a, const struct win_vertex *b,
		const struct win_vertex *c, const struct win_vertex *d,
		const struct pixel_rect *clip, const struct raster_samples *sp, raster_cov_fn fn,
		raster_run_fn run, void *ctx)
{
	/* a b c d in order around the quadrilateral; a-c is the shared edge */
	int ret = raster_triangle_runs(a, b, c, clip, sp, fn, run, ctx);
	return ret ? ret : raster_triangle_runs(a, c, d, clip, sp, fn, run, ctx);
}

int raster_rect_runs(const struct win_vertex *v0, const struct win_vertex *v1,
		     const struct win_vertex *v2, const struct pixel_rect *clip,
		     const struct raster_samples *sp, raster_cov_fn fn, raster_run_fn run,
		     void *ctx)
{
	struct win_vertex v3 = {
		v0->x + v2->x - v1->x, v0->y + v2->y - v1->y,
		v0->z + v2->z - v1->z, v0->rhw,
	};
	return quad(v0, v1, v2, &v3, clip, sp, fn, run, ctx);
}

int raster_rect_ms(const struct win_vertex *v0, const struct win_vertex *v1,
		   const struct win_vertex *v2, const struct pixel_rect *clip,
		   const struct raster_samples *sp, raster_cov_fn fn, void *ctx)
{
	return raster_rect_runs(v0, v1, v2, clip, sp, fn, NULL, ctx);
}

int raster_line_ms(const struct win_vertex *v0, const struct win_vertex *v1, float width,
		   bool last_pixel, const struct pixel_rect *clip, const struct raster_samples *sp,
		   raster_cov_fn fn, void *ctx)
{
	float dx = v1->x - v0->x, dy = v1->y - v0->y;
	bool xmajor = fabsf(dx) >= fabsf(dy);
	float h = (width > 0 ? width : 1.0f) / 2;
	struct win_vertex a = *v0, b = *v1;
	if (last_pixel) {          /* reach past the end point's pixel centre */
		float len = xmajor ? fabsf(dx) : fabsf(dy);
		if (len > 0) {
			b.x += dx / len * 0.5f;
			b.y += dy / len * 0.5f;
		}
	}
	struct win_vertex q[4] = { a, b, b, a };
	if (xmajor) {
		q[0].y -= h; q[1].y -= h; q[2].y += h; q[3].y += h;
	} else {
		q[0].x -= h; q[1].x -= h; q[2].x += h; q[3].x += h;
	}
	return quad(&q[0], &q[1], &q[2], &q[3], clip, sp, fn, NULL, ctx);
}

int raster_line_rect_ms(const struct win_vertex *v0, const struct win_vertex *v1, float width,
			const struct pixel_rect *clip, const struct raster_samples *sp,
			raster_cov_fn fn, void *ctx)
{
	double dx = (double)v1->x - v0->x, dy = (double)v1->y - v0->y;
	double len = sqrt(dx * dx + dy * dy);
	if (!(len > 0))
		return 0;
	/* half the width along the unit normal (-dy, dx) / len */
	float nx = (float)(-dy / len * width / 2), ny = (float)(dx / len * width / 2);
	struct win_vertex q[4] = { *v0, *v1, *v1, *v0 };
	q[0].x += nx; q[0].y += ny;
	q[1].x += nx; q[1].y += ny;
	q[2].x -= nx; q[2].y -= ny;
	q[3].x -= nx; q[3].y -= ny;
	return quad(&q[0], &q[1], &q[2], &q[3], clip, sp, fn, NULL, ctx);
}

int raster_point_ms(const struct win_vertex *v, float size, const struct pixel_rect *clip,
		    const struct raster_samples *sp, raster_cov_fn fn, void *ctx)
{
	float h = (size > 0 ? size : 1.0f) / 2;
	struct win_vertex q[4] = { *v, *v, *v, *v };
	q[0].x -= h; q[0].y -= h;
	q[1].x += h; q[1].y -= h;
	q[2].x += h; q[2].y += h;
	q[3].x -= h; q[3].y += h;
	return quad(&q[0], &q[1], &q[2], &q[3], clip, sp, fn, NULL, ctx);
}

/* The pixel-centre forms: one sample, a mask bit a pixel. */
struct centre_ctx {
	raster_quad_fn fn;
	void *ctx;
};

static int centre_cb(void *ctx, int32_t x, int32_t y, uint64_t cov)
{
	const struct centre_ctx *c = ctx;
	return c->fn(c->ctx, x, y, raster_cov_pixels(cov));
}

int raster_triangle(const struct win_vertex *v0, const struct win_vertex *v1,
		    const struct win_vertex *v2, const struct pixel_rect *clip,
		    raster_quad_fn fn, void *ctx)
{
	struct centre_ctx c = { fn, ctx };
	return raster_triangle_ms(v0, v1, v2, clip, &raster_centre, centre_cb, &c);
}

int raster_rect(const struct win_vertex *v0, const struct win_vertex *v1,
		const struct win_vertex *v2, const struct pixel_rect *clip,
		raster_quad_fn fn, void *ctx)
{
	struct centre_ctx c = { fn, ctx };
	return raster_rect_ms(v0, v1, v2, clip, &raster_centre, centre_cb, &c);
}

int raster_line(const struct win_vertex *v0, const struct win_vertex *v1, float width,
		bool last_pixel, const struct pixel_rect *clip, raster_quad_fn fn, void *ctx)
{
	struct centre_ctx c = { fn, ctx };
	return raster_line_ms(v0, v1, width, last_pixel, clip, &raster_centre, centre_cb, &c);
}

int raster_point(const struct win_vertex *v, float size, const struct pixel_rect *clip,
		 raster_quad_fn fn, void *ctx)
{
	struct centre_ctx c = { fn, ctx };
	return raster_point_ms(v, size, clip, &raster_centre, centre_cb, &c);
}
