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
			break;     /* reserved 2, 3: refused by smp_load_surface */
		}
	}
}

/* Dimensions filtered: 1 (1D), 2 (2D, cube faces), 3 (3D). */
static unsigned filter_dims(const struct smp_surface *s)
{
	return s->l.type == SURF_1D || s->l.type == SURF_BUFFER ? 1 : s->l.type == SURF_3D ? 3 : 2;
}

/* The array layer (absolute) the lookup reads; 3D surfaces: 0. The
 * array index rounds to the nearest integer, ties to even (the rule of
 * Vulkan's and D3D's samplers, layer = clamp(roundEven(a), 0, d - 1); GL's
 * floor(a + 1/2) differs only at ties): blorp samples a 1D array's layer
 * with v = 0.5, the centre of its one row, and reads layer 0 of its view
 * (piglit fbo-generatemipmap-array on SKL read the next layer). */
static uint32_t lookup_layer(const struct smp_surface *s, const struct smp_lookup *q)
{
	if (s->l.type == SURF_CUBE) {
		uint32_t cubes = s->l.array ? s->l.depth : 1;
		double a = nearbyint(sane(q->r));
		uint32_t ai = a < 0 ? 0 : a >= cubes ? cubes - 1 : (uint32_t)a;
		return s->l.min_array + ai * 6 + (uint32_t)(q->face < 0 ? 0 : q->face);
	}
	if (!s->l.array || s->l.type == SURF_3D)
		return s->l.min_array;
	double a = nearbyint(sane(s->l.type == SURF_1D ? q->v : q->r));
	uint32_t l = a < 0 ? 0 : a >= s->l.depth ? s->l.depth - 1 : (uint32_t)a;
	return s->l.min_array + l;
}

/* One texel of the footprint: fetched (cube maps across face edges when
 * seamless), or the border colour; compared with the reference for shadow
 * lookups. */
static int footprint_texel(const struct smp_surface *s, const struct smp_sampler *st,
			   const struct smp_lookup *q, uint32_t level, const int64_t idx[3],
			   uint32_t layer, bool border, union fmt_value tx[4])
{
	if (border) {
		memcpy(tx, st->border, sizeof(st->border));
	} else if (q->face >= 0 && smp_cube_seamless(s, st)) {
		int64_t t[3][3];
		uint32_t n = surface_minify(s->l.width, level), cube = layer - (uint32_t)q->face;
		int k = smp_cube_texel(q->face, idx[0], idx[1], n, t);
		double acc[4] = { 0, 0, 0, 0 };
		for (int i = 0; i < k; i++) {
			union fmt_value v[4];
			if (smp_fetch(s, level, (uint32_t)t[i][0], (uint32_t)t[i][1],
				      cube + (uint32_t)t[i][2], v))
				return -1;
			if (q->compare)
				v[0].f = smp_shadow_compare(st->shadow_func, v[0].f, q->ref);
			for (int c = 0; c < 4; c++)
				acc[c] += v[c].f / k;
			if (k == 1)
				memcpy(tx, v, sizeof(v));
		}
		if (k > 1)
			for (int c = 0; c < 4; c++)
				tx[c].f = (float)acc[c];
		return 0;
	} else {
		uint32_t z = s->l.type == SURF_3D ? (uint32_t)idx[2] : layer;
		if (smp_fetch(s, level, (uint32_t)idx[0], (uint32_t)idx[1], z, tx))
			return -1;
	}
	if (q->compare)
		tx[0].f = smp_shadow_compare(st->shadow_func, tx[0].f, q->ref);
	return 0;
}

/* Filter one level at (u, v, r): the 1/2/4/8 texels around the point (or
 * the nearest one). With gather >= 0, out[] gets the gather result. */
static int filter_at(const struct smp_surface *s, const struct smp_sampler *st,
		     const struct smp_lookup *q, const float coord[3], uint32_t level,
		     unsigned filter, union fmt_value out[4])
{
	unsigned dims = filter_dims(s);
	bool integer = format_is_integer(s->fi);
	if (integer)
		filter = FILT_NEAREST;              /* integer texels are never blended */
	if (q->gather >= 0)
		filter = FILT_LINEAR;               /* the bilinear footprint */
	bool seamless = q->face >= 0 && smp_cube_seamless(s, st);
	uint32_t size[3] = { surface_minify(s->l.width, level), surface_minify(s->l.height, level),
			     surface_minify(s->l.depth, level) };
	int64_t i0[3] = { 0, 0, 0 }, i1[3] = { 0, 0, 0 }, r0[3] = { 0, 0, 0 }, r1[3] = { 0, 0, 0 };
	double frac[3] = { 0, 0, 0 };
	for (unsigned d = 0; d < dims; d++) {
		double t = sane(coord[d]);
		if (!st->non_normalized)
			t *= size[d];
		/* the texel offset moves the unnormalized coordinate before the
		 * address mode applies (GL 4.6 8.14.2: u' = u + offset, then the
		 * wrap), which matters where the mode clamps the coordinate */
		t += q->off[d];
		/* HALF_BORDER is OpenGL's CLAMP (iris maps GL_CLAMP to it for
		 * every filter): the coordinate clamped to [0, 1], so linear
		 * filtering at an edge takes half the border colour and nearest
		 * the edge texel */
		unsigned mode = st->wrap[d];
		if (mode == WRAP_HALF_BORDER && !seamless) {
			t = t < 0 ? 0 : t > size[d] ? size[d] : t;
			if (filter != FILT_LINEAR)
				mode = WRAP_CLAMP;
		}
		if (filter == FILT_LINEAR) {
			t -= 0.5;
			double f = floor(t);
			frac[d] = t - f;
			r0[d] = (int64_t)f;
			r1[d] = r0[d] + 1;
		} else {
			r0[d] = (int64_t)floor(t);
		}
		if (seamless && d < 2) {
			/* inside the face or one texel past an edge */
			int64_t lo = -1, hi = size[d];
			i0[d] = r0[d] < lo ? lo : r0[d] > hi ? hi : r0[d];
			i1[d] = r1[d] < lo ? lo : r1[d] > hi ? hi : r1[d];
		} else {
			i0[d] = wrap_index(r0[d], size[d], mode);
			i1[d] = wrap_index(r1[d], size[d], mode);
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
		if (footprint_texel(s, st, q, level, idx, layer, border, texel[k]))
			return -1;
		if (integer && q->gather < 0) {
			memcpy(out, texel[k], 4 * sizeof(*out));
			return 0;
		}
		for (int c = 0; c < 4; c++)
			acc[c] += w * texel[k][c].f;
	}
	if (q->gather >= 0) {
		smp_gather_result(s, q->gather, q->compare, texel, out);
		return 0;
	}
	for (int c = 0; c < 4; c++)
		out[c].f = (float)acc[c];
	return 0;
}

/* Filter one level; anisotropic lookups average their probes along the
 * major axis at (-1/2 + i / (N + 1)) pixel steps, i = 1..N. */
static int filter_level(const struct smp_surface *s, const struct smp_sampler *st,
			const struct smp_lookup *q, uint32_t level, unsigned filter,
			union fmt_value out[4])
{
	const float coord[3] = { q->u, q->v, q->r };
	unsigned n = q->aniso.probes;
	if (n <= 1 || q->gather >= 0 || format_is_integer(s->fi))
		return filter_at(s, st, q, coord, level, filter, out);
	double acc[4] = { 0, 0, 0, 0 };
	for (unsigned i = 1; i <= n; i++) {
		float step = -0.5f + (float)i / (float)(n + 1), c[3];
		for (int d = 0; d < 3; d++)
			c[d] = coord[d] + step * q->aniso.axis[d];
		if (s->l.type != SURF_3D)
			c[2] = coord[2];
		union fmt_value v[4];
		if (filter_at(s, st, q, c, level, filter, v))
			return -1;
		for (int k = 0; k < 4; k++)
			acc[k] += v[k].f;
	}
	for (int k = 0; k < 4; k++)
		out[k].f = (float)(acc[k] / n);
	return 0;
}

int smp_sample(const struct smp_surface *s, const struct smp_sampler *st,
	       const struct smp_lookup *q, union fmt_value out[4])
{
	float lambda = q->lambda;
	/* magnification at or below the base level (NaN too); LOD PreClamp
	 * OGL decides on the clamped LOD, otherwise on the computed one */
	float decide = st->preclamp ? lambda : q->lambda_raw;
	bool mag = !(decide > st->base_level);
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
		/* OpenGL's nearest level: ceil(lambda + 1/2) - 1, .5 rounds down */
		double l = ceil((double)lambda + 0.5) - 1;
		uint32_t rel = l < 0 ? 0 : l > top ? top : (uint32_t)l;
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
