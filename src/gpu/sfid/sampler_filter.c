/* Texture filtering (PRM vol. 7 "Sampler": address control modes, min/mag
 * and mip filters, shadow comparison, gather4; the OpenGL 4.6 spec,
 * sections 8.14 "Texture Minification" and 8.22 "Texture Comparison
 * Modes", says the same in more words): texel indices wrap per mode, a
 * border texel takes the border colour, linear filtering weighs the 2, 4
 * or 8 texels around the sample point, mip linear mixes two levels. */
#include <math.h>
#include <string.h>

#include "gpu/sfid/sampler_priv.h"

#define BORDER INT64_MIN

/* A float coordinate made safe for integer arithmetic. */
static double sane(float f)
{
	if (isnan(f))
		return 0;
	return f > 1e9f ? 1e9 : f < -1e9f ? -1e9 : f;
}

static int64_t floor_mod(int64_t a, int64_t n)
{
	int64_t m = a % n;
	return m < 0 ? m + n : m;
}

/* Texel index i in a level n texels wide after the address control mode;
 * BORDER when the border colour applies. */
static int64_t wrap_index(int64_t i, int64_t n, unsigned mode)
{
	switch (mode) {
	case WRAP_REPEAT:
		return floor_mod(i, n);
	case WRAP_MIRROR: {
		int64_t m = floor_mod(i, 2 * n);
		return m < n ? m : 2 * n - 1 - m;
	}
	case WRAP_MIRROR_ONCE:
		if (i < 0)
			i = -1 - i;
		return i >= n ? n - 1 : i;
	case WRAP_BORDER:
	case WRAP_HALF_BORDER:
		return i < 0 || i >= n ? BORDER : i;
	default:                /* CLAMP (to the edge), CUBE */
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
}

/* PREFILTEROP_*: the comparison FAILS (0.0) when texel OP ref holds.
 * Mesa's iris programs GL_LESS as LEQUAL, GL_ALWAYS as NEVER and so on
 * (iris_state.c), which fixes the operand order and the sense. */
static float shadow_compare(unsigned func, float texel, float ref)
{
	bool hold;
	switch (func) {
	case 0: hold = true; break;                  /* ALWAYS */
	case 1: hold = false; break;                 /* NEVER */
	case 2: hold = texel < ref; break;           /* LESS */
	case 3: hold = texel == ref; break;          /* EQUAL */
	case 4: hold = texel <= ref; break;          /* LEQUAL */
	case 5: hold = texel > ref; break;           /* GREATER */
	case 6: hold = texel != ref; break;          /* NOTEQUAL */
	default: hold = texel >= ref; break;         /* GEQUAL */
	}
	return hold ? 0.0f : 1.0f;
}

void smp_swizzle(const struct smp_surface *s, union fmt_value v[4])
{
	bool integer = format_is_integer(s->fi);
	union fmt_value in[4];
	memcpy(in, v, sizeof(in));
	for (int c = 0; c < 4; c++) {
		switch (s->l.scs[c]) {
		case 0:
			v[c].u = 0;
			break;
		case 1:
			if (integer)
				v[c].u = 1;
			else
				v[c].f = 1.0f;
			break;
		case 4: case 5: case 6: case 7:
			v[c] = in[s->l.scs[c] - 4];
			break;
		default:
			break;     /* reserved: channel unchanged */
		}
	}
}

int smp_cube_face(float x, float y, float z, float *u, float *v)
{
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), sc, tc, ma;
	int face;
	if (ax >= ay && ax >= az) {
		face = x >= 0 ? 0 : 1;
		sc = x >= 0 ? -z : z;
		tc = -y;
		ma = ax;
	} else if (ay >= az) {
		face = y >= 0 ? 2 : 3;
		sc = x;
		tc = y >= 0 ? z : -z;
		ma = ay;
	} else {
		face = z >= 0 ? 4 : 5;
		sc = z >= 0 ? x : -x;
		tc = -y;
		ma = az;
	}
	if (!(ma > 0))
		ma = 1;
	*u = (sc / ma + 1) * 0.5f;
	*v = (tc / ma + 1) * 0.5f;
	return face;
}

/* Dimensions filtered: 1 (1D), 2 (2D, cube faces), 3 (3D). */
static unsigned filter_dims(const struct smp_surface *s)
{
	return s->l.type == SURF_1D || s->l.type == SURF_BUFFER ? 1 : s->l.type == SURF_3D ? 3 : 2;
}

/* The array layer (absolute) the lookup reads; 3D surfaces: 0. */
static uint32_t lookup_layer(const struct smp_surface *s, const struct smp_lookup *q)
{
	if (s->l.type == SURF_CUBE) {
		uint32_t cubes = s->l.array ? s->l.depth : 1;
		double a = floor(sane(q->r) + 0.5);
		uint32_t ai = a < 0 ? 0 : a >= cubes ? cubes - 1 : (uint32_t)a;
		return s->l.min_array + ai * 6 + (uint32_t)(q->face < 0 ? 0 : q->face);
	}
	if (!s->l.array || s->l.type == SURF_3D)
		return s->l.min_array;
	double a = floor(sane(s->l.type == SURF_1D ? q->v : q->r) + 0.5);
	uint32_t l = a < 0 ? 0 : a >= s->l.depth ? s->l.depth - 1 : (uint32_t)a;
	return s->l.min_array + l;
}

/* Filter one level: the 1/2/4/8 texels around the point (or the nearest
 * one), each compared with ref first for shadow lookups. With gather >= 0,
 * out[] gets channel `gather` of the four bilinear texels instead. */
static int filter_level(const struct smp_surface *s, const struct smp_sampler *st,
			const struct smp_lookup *q, uint32_t level, unsigned filter,
			union fmt_value out[4])
{
	unsigned dims = filter_dims(s);
	bool integer = format_is_integer(s->fi);
	if (integer)
		filter = FILT_NEAREST;              /* integer texels are never blended */
	if (q->gather >= 0)
		filter = FILT_LINEAR;               /* the bilinear footprint */
	const float coord[3] = { q->u, q->v, q->r };
	uint32_t size[3] = { surface_minify(s->l.width, level), surface_minify(s->l.height, level),
			     surface_minify(s->l.depth, level) };
	int64_t i0[3] = { 0, 0, 0 }, i1[3] = { 0, 0, 0 };
	double frac[3] = { 0, 0, 0 };
	for (unsigned d = 0; d < dims; d++) {
		double t = sane(coord[d]);
		if (!st->non_normalized)
			t *= size[d];
		if (filter == FILT_LINEAR) {
			t -= 0.5;
			double f = floor(t);
			frac[d] = t - f;
			i0[d] = wrap_index((int64_t)f + q->off[d], size[d], st->wrap[d]);
			i1[d] = wrap_index((int64_t)f + 1 + q->off[d], size[d], st->wrap[d]);
		} else {
			i0[d] = wrap_index((int64_t)floor(t) + q->off[d], size[d], st->wrap[d]);
		}
	}
	uint32_t layer = lookup_layer(s, q);
	unsigned corners = filter == FILT_LINEAR ? 1u << dims : 1;
	double acc[4] = { 0, 0, 0, 0 };
	union fmt_value texel[8][4];
	for (unsigned k = 0; k < corners; k++) {
		int64_t idx[3] = { 0, 0, 0 };
		double w = 1;
		bool border = false;
		for (unsigned d = 0; d < dims; d++) {
			bool hi = k >> d & 1;
			idx[d] = hi ? i1[d] : i0[d];
			if (filter == FILT_LINEAR)
				w *= hi ? frac[d] : 1 - frac[d];
			border |= idx[d] == BORDER;
		}
		union fmt_value *tx = texel[k];
		if (border) {
			memcpy(tx, st->border, sizeof(st->border));
		} else {
			uint32_t z = s->l.type == SURF_3D ? (uint32_t)idx[2] : layer;
			if (smp_fetch(s, level, (uint32_t)idx[0], (uint32_t)idx[1], z, tx))
				return -1;
		}
		if (q->compare)
			tx[0].f = shadow_compare(st->shadow_func, tx[0].f, q->ref);
		if (integer && q->gather < 0) {
			memcpy(out, tx, 4 * sizeof(*out));
			return 0;
		}
		for (int c = 0; c < 4; c++)
			acc[c] += w * tx[c].f;
	}
	if (q->gather >= 0) {
		/* x: (i0, j1), y: (i1, j1), z: (i1, j0), w: (i0, j0) */
		static const unsigned order[4] = { 2, 3, 1, 0 };
		union fmt_value g[4];
		for (int c = 0; c < 4; c++) {
			union fmt_value v[4];
			memcpy(v, texel[order[c]], sizeof(v));
			smp_swizzle(s, v);
			g[c] = v[q->gather & 3];
		}
		memcpy(out, g, sizeof(g));
		return 0;
	}
	for (int c = 0; c < 4; c++)
		out[c].f = (float)acc[c];
	return 0;
}

int smp_sample(const struct smp_surface *s, const struct smp_sampler *st,
	       const struct smp_lookup *q, union fmt_value out[4])
{
	float lambda = q->lambda;
	bool mag = !(lambda > 0);                   /* NaN: magnification */
	unsigned filter = mag ? st->mag_filter : st->min_filter;
	uint32_t top = s->l.mip_count_lod;                /* levels past Surface Min LOD */
	if (q->gather >= 0 || mag || st->mip_filter == MIP_NONE) {
		uint32_t rel = q->gather >= 0 || mag ? 0 : (uint32_t)st->base_level;
		if (st->mip_filter == MIP_NONE)
			rel = (uint32_t)st->base_level;
		if (rel > top)
			rel = top;
		return filter_level(s, st, q, s->l.min_lod + rel, filter, out);
	}
	if (st->mip_filter == MIP_NEAREST) {
		double l = floor((double)lambda + 0.5);
		uint32_t rel = l > top ? top : (uint32_t)l;
		return filter_level(s, st, q, s->l.min_lod + rel, filter, out);
	}
	double lf = floor((double)lambda), frac = (double)lambda - lf;
	uint32_t l0 = lf > top ? top : (uint32_t)lf, l1 = l0 + 1 > top ? top : l0 + 1;
	union fmt_value a[4], b[4];
	if (filter_level(s, st, q, s->l.min_lod + l0, filter, a))
		return -1;
	if (l1 == l0 || frac == 0 || format_is_integer(s->fi)) {
		memcpy(out, a, sizeof(a));
		return 0;
	}
	if (filter_level(s, st, q, s->l.min_lod + l1, filter, b))
		return -1;
	for (int c = 0; c < 4; c++)
		out[c].f = (float)((1 - frac) * a[c].f + frac * b[c].f);
	return 0;
}

int smp_load(const struct smp_surface *s, int32_t x, int32_t y, int32_t z, int32_t lod,
	     union fmt_value out[4])
{
	memset(out, 0, 4 * sizeof(*out));
	if (lod < 0 || (uint32_t)lod > s->l.mip_count_lod || x < 0 || y < 0 || z < 0)
		return 1;
	uint32_t level = s->l.min_lod + (uint32_t)lod;
	uint32_t layer = s->l.min_array;
	if (s->l.type == SURF_BUFFER) {
		if ((uint32_t)x >= s->l.width)
			return 1;
		return smp_fetch(s, 0, (uint32_t)x, 0, 0, out) ? -1 : 0;
	}
	if ((uint32_t)x >= surface_minify(s->l.width, level))
		return 1;
	if (s->l.type == SURF_1D) {
		if (s->l.array ? (uint32_t)y >= s->l.depth : y != 0)
			return 1;
		layer += s->l.array ? (uint32_t)y : 0;
		y = 0;
	} else {
		if ((uint32_t)y >= surface_minify(s->l.height, level))
			return 1;
		if (s->l.type == SURF_3D) {
			if ((uint32_t)z >= surface_minify(s->l.depth, level))
				return 1;
			layer = (uint32_t)z;
		} else {
			uint32_t layers = s->l.type == SURF_CUBE ? s->l.depth * 6 : s->l.depth;
			if ((uint32_t)z >= layers)
				return 1;
			layer += (uint32_t)z;
		}
	}
	return smp_fetch(s, level, (uint32_t)x, (uint32_t)y, layer, out) ? -1 : 0;
}
