/* Antialiased lines and smooth points (PRM vol. 2a 3DSTATE_RASTER
 * Antialiasing Enable and Smooth Point Enable, 3DSTATE_SF Line Width, Line
 * End Cap Antialiasing Region Width, AA Line Distance Mode, 3DSTATE_WM
 * Line Antialiasing Region Width). The coverage of a pixel is a function
 * of the distance of its centre from the primitive's edge: it ramps
 * linearly from 1 to 0 across an AA region of the programmed width centred
 * on the edge (0.5 on the edge itself, which for a 1-pixel region is the
 * area a pixel square straddling a straight edge covers). A line's edges
 * are the two sides at half its width from its centre line, measured
 * perpendicularly (AALINEDISTANCE_TRUE), and the end caps through its end
 * points, perpendicular to it, with their own region width; a pixel's
 * coverage is the product of the two. A smooth point's edge is its circle
 * (radius half the point width). The back end multiplies the pixel's
 * source alpha by the coverage (wm_draw.c, rt_write.c). */
#include <math.h>

#include "gpu/render/raster.h"

static float ramp(float inside, float region)
{
	/* inside: signed distance from the edge, > 0 inside the primitive */
	float c = 0.5f + inside / region;
	return c < 0 ? 0 : c > 1 ? 1 : c;
}

void raster_aa_line(struct raster_aa *aa, const struct win_vertex *a,
		    const struct win_vertex *b, float width, float region, float cap)
{
	float dx = b->x - a->x, dy = b->y - a->y, len = sqrtf(dx * dx + dy * dy);
	aa->kind = RASTER_AA_LINE;
	aa->x = a->x;
	aa->y = a->y;
	aa->ux = len > 0 ? dx / len : 1;
	aa->uy = len > 0 ? dy / len : 0;
	aa->len = len;
	aa->half = width / 2;
	aa->region = region;
	aa->cap = cap;
}

void raster_aa_point(struct raster_aa *aa, const struct win_vertex *c, float size, float region)
{
	aa->kind = RASTER_AA_POINT;
	aa->x = c->x;
	aa->y = c->y;
	aa->ux = 1;
	aa->uy = 0;
	aa->len = 0;
	aa->half = size / 2;
	aa->region = region;
	aa->cap = region;
}

float raster_aa_coverage(const struct raster_aa *aa, double x, double y)
{
	float px = (float)(x - aa->x), py = (float)(y - aa->y);
	if (aa->kind == RASTER_AA_POINT)
		return ramp(aa->half - sqrtf(px * px + py * py), aa->region);
	if (aa->kind != RASTER_AA_LINE)
		return 1;
	float t = px * aa->ux + py * aa->uy;            /* along the line from a */
	float s = fabsf(px * aa->uy - py * aa->ux);      /* from its centre line */
	float past = fmaxf(-t, t - aa->len);            /* beyond the nearer end */
	return ramp(aa->half - s, aa->region) * ramp(-past, aa->cap);
}

/* The rectangle (line) or square (point) outside which the coverage is
 * 0: the edges pushed out by half their AA region. */
int raster_aa_ms(const struct raster_aa *aa, const struct win_vertex *like,
		 const struct pixel_rect *clip, const struct raster_samples *sp,
		 raster_cov_fn fn, void *ctx)
{
	float side = aa->half + aa->region / 2, end = aa->cap / 2;
	float ux = aa->ux, uy = aa->uy;
	float ax = aa->x - ux * end, ay = aa->y - uy * end;
	float bx = aa->x + ux * (aa->len + end), by = aa->y + uy * (aa->len + end);
	if (aa->kind == RASTER_AA_POINT) {
		ax = aa->x - side, ay = aa->y;
		bx = aa->x + side, by = aa->y;
		ux = 1, uy = 0;
	}
	/* n = u turned a quarter: the sides at +-side along n */
	struct win_vertex q[4] = { *like, *like, *like, *like };
	q[0].x = ax - uy * side; q[0].y = ay + ux * side;
	q[1].x = bx - uy * side; q[1].y = by + ux * side;
	q[2].x = bx + uy * side; q[2].y = by - ux * side;
	q[3].x = ax + uy * side; q[3].y = ay - ux * side;
	int ret = raster_triangle_ms(&q[0], &q[1], &q[2], clip, sp, fn, ctx);
	return ret ? ret : raster_triangle_ms(&q[0], &q[2], &q[3], clip, sp, fn, ctx);
}
