/* Clipping (PRM vol. 2 "Clip Stage"): trivial accept and reject by the
 * outcodes of the vertices, then Sutherland-Hodgman clipping of the
 * primitive against each plane a vertex is outside of. Distances are
 * computed in homogeneous clip space, so the attributes of a new vertex
 * are interpolated linearly there (which is perspective-correct once
 * divided); each vertex also carries its weights in the input primitive
 * (bw), from which the set-up recovers the original primitive's
 * barycentrics, perspective and noperspective (wm_draw.c). The x/y
 * planes are the guard band's; anything clipped only by the viewport's
 * own x/y edges is left to the rasterizer's clip rectangle. */
#include <string.h>

#include "gpu/render/raster.h"

enum { PL_W, PL_XMIN, PL_XMAX, PL_YMIN, PL_YMAX, PL_ZMIN, PL_ZMAX, PL_USER0, PL_COUNT = PL_USER0 + 8 };

/* w must stay positive for the divide: the hardware's "negative W" plane. */
#define CLIP_MIN_W 1e-30f

static float plane_dist(const struct clip_params *p, const struct clip_vertex *v, int pl)
{
	const float *c = v->pos;
	switch (pl) {
	case PL_W: return c[3] - CLIP_MIN_W;
	case PL_XMIN: return c[0] - p->gb[0] * c[3];
	case PL_XMAX: return p->gb[1] * c[3] - c[0];
	case PL_YMIN: return c[1] - p->gb[2] * c[3];
	case PL_YMAX: return p->gb[3] * c[3] - c[1];
	case PL_ZMIN: return p->z_01 ? c[2] : c[2] + c[3];
	case PL_ZMAX: return c[3] - c[2];
	default: return v->dist[pl - PL_USER0];
	}
}

static uint32_t active_planes(const struct clip_params *p)
{
	uint32_t m = 1u << PL_W;
	if (p->xy_test)
		m |= (1u << PL_XMIN) | (1u << PL_XMAX) | (1u << PL_YMIN) | (1u << PL_YMAX);
	if (p->z_near_test)
		m |= 1u << PL_ZMIN;
	if (p->z_far_test)
		m |= 1u << PL_ZMAX;
	return m | (uint32_t)p->user_clip << PL_USER0;
}

static void lerp_vertex(const struct clip_params *p, const struct clip_vertex *a,
			const struct clip_vertex *b, float t, struct clip_vertex *o)
{
	for (int i = 0; i < 4; i++)
		o->pos[i] = a->pos[i] + t * (b->pos[i] - a->pos[i]);
	for (int i = 0; i < 8; i++)
		o->dist[i] = a->dist[i] + t * (b->dist[i] - a->dist[i]);
	for (int i = 0; i < 3; i++)
		o->bw[i] = a->bw[i] + t * (b->bw[i] - a->bw[i]);
	for (unsigned k = 0; k < p->nattrs && k < CLIP_MAX_ATTRS; k++)
		for (int i = 0; i < 4; i++)
			o->attr[k][i] = a->attr[k][i] + t * (b->attr[k][i] - a->attr[k][i]);
}

/* One plane of Sutherland-Hodgman; `closed` for polygons (the last edge
 * wraps to the first vertex), not for a line. */
static unsigned clip_plane(const struct clip_params *p, int pl, const struct clip_vertex *in,
			   unsigned n, struct clip_vertex *out, bool closed)
{
	unsigned m = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct clip_vertex *a = &in[i];
		float da = plane_dist(p, a, pl);
		if (da >= 0 && m < CLIP_MAX_VERTS)
			out[m++] = *a;
		if (!closed && i + 1 == n)
			break;
		const struct clip_vertex *b = &in[(i + 1) % n];
		float db = plane_dist(p, b, pl);
		if ((da >= 0) != (db >= 0) && m < CLIP_MAX_VERTS) {
			/* always interpolate from the inside vertex: the same edge
			 * gives the same new vertex in both neighbouring polygons */
			if (da >= 0)
				lerp_vertex(p, a, b, da / (da - db), &out[m]);
			else
				lerp_vertex(p, b, a, db / (db - da), &out[m]);
			/* leaving: the next edge runs along the plane; entering:
			 * it is the rest of a->b */
			out[m++].edge = da < 0 && a->edge;
		}
	}
	return m;
}

enum clip_result clip_polygon(const struct clip_params *p, const struct clip_vertex *in,
			      unsigned n, struct clip_vertex *out, unsigned *nout)
{
	uint32_t planes = active_planes(p), any_out = 0, all_out = ~0u;
	*nout = 0;
	if (n == 0 || n > CLIP_MAX_VERTS)
		return CLIP_REJECT;
	/* Cull distances: rejected when every vertex is outside one plane. */
	for (int i = 0; i < 8; i++) {
		if (!(p->user_cull >> i & 1))
			continue;
		unsigned outside = 0;
		for (unsigned v = 0; v < n; v++)
			outside += in[v].dist[i] < 0;
		if (outside == n)
			return CLIP_REJECT;
	}
	if (!p->clip_enable)
		planes = 1u << PL_W;
	for (unsigned v = 0; v < n; v++) {
		uint32_t code = 0;
		for (int pl = 0; pl < PL_COUNT; pl++)
			if ((planes >> pl & 1) && plane_dist(p, &in[v], pl) < 0)
				code |= 1u << pl;
		any_out |= code;
		all_out &= code;
	}
	if (all_out)
		return CLIP_REJECT;
	memcpy(out, in, n * sizeof(*in));
	for (unsigned v = 0; v < n; v++)
		for (unsigned i = 0; i < 3; i++)
			out[v].bw[i] = i == v;
	*nout = n;
	if (!any_out)
		return CLIP_ACCEPT;
	if (n == 1)             /* a point partly outside a plane: kept whole */
		return CLIP_ACCEPT;

	struct clip_vertex tmp[CLIP_MAX_VERTS];
	unsigned m = n;
	for (int pl = 0; pl < PL_COUNT && m; pl++) {
		if (!(any_out >> pl & 1))
			continue;
		m = clip_plane(p, pl, out, m, tmp, n > 2);
		memcpy(out, tmp, m * sizeof(*tmp));
	}
	*nout = m;
	if (m < (n == 2 ? 2u : 3u))
		return CLIP_REJECT;
	return CLIP_CLIPPED;
}
