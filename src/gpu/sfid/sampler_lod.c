/* LOD selection (PRM vol. 7 "LOD Computation"; the OpenGL 4.6 spec, 8.14
 * "Texture Minification", says the same): the scale factor from the
 * derivatives of the texel coordinates, per 2x2 subspan of a pixel shader
 * or from the message's gradients, lambda = log2(rho); plus the sampler's
 * Texture LOD Bias and the message's bias; clamped to [Min LOD (or the
 * message's min_lod), Max LOD]. Anisotropic filtering follows
 * EXT_texture_filter_anisotropic's reference: N = min(ceil(Pmax / Pmin),
 * Maximum Anisotropy) probes along the major axis, lambda = log2(Pmax / N). */
#include <math.h>

#include "gpu/sfid/sampler_priv.h"

/* Dimensions the footprint has: 1 (1D), 2 (2D, cube faces), 3 (3D). */
static unsigned deriv_dims(const struct smp_surface *s)
{
	return s->l.type == SURF_1D ? 1 : s->l.type == SURF_3D ? 3 : 2;
}

/* A dimension of level lod: max(1, floor(size / 2^lod)). */
static double level_size(uint32_t size, uint32_t lod)
{
	size = lod < 32 ? size >> lod : 0;
	return size ? size : 1;
}

/* The footprint of a pixel step, in texels of the view's base level
 * (Surface Min LOD): GL 4.6 8.14.1 scales the derivatives by the base
 * level's w_t, h_t, d_t, and the level chosen is the base plus lambda. */
static double footprint(const struct smp_surface *s, const struct smp_sampler *st,
			const float d[3])
{
	const uint32_t b = s->l.min_lod;
	const double size[3] = { level_size(s->l.width, b), level_size(s->l.height, b),
				 level_size(s->l.depth, b) };
	double p = 0;
	for (unsigned k = 0; k < deriv_dims(s); k++) {
		double scale = st->non_normalized ? 1 : size[k];
		p += (double)d[k] * d[k] * scale * scale;
	}
	return sqrt(p);
}

float smp_lod_from_gradients(const struct smp_surface *s, const struct smp_sampler *st,
			     const float dx[3], const float dy[3], struct smp_aniso *an)
{
	double px = footprint(s, st, dx), py = footprint(s, st, dy);
	double pmax = px > py ? px : py, pmin = px > py ? py : px;
	if (an)
		an->probes = 1;
	if (an && st->aniso_max > 1 && pmax > 0) {
		double ratio = pmin > 0 ? ceil(pmax / pmin) : st->aniso_max;
		unsigned n = ratio > st->aniso_max ? st->aniso_max : (unsigned)ratio;
		if (n > 1) {
			an->probes = n;
			const float *major = px > py ? dx : dy;
			for (int k = 0; k < 3; k++)
				an->axis[k] = major[k];
			return (float)log2(pmax / n);
		}
	}
	return pmax > 0 ? (float)log2(pmax) : -INFINITY;
}

/* The gradients of a subspan: channels 4k..4k+3 are the pixels (0,0),
 * (1,0), (0,1), (1,1); x from the upper pair, y from the left pair (the
 * hardware's coarse derivatives). A cube map's are the differences of
 * the directions projected on one face: that of channel ch's own
 * direction. A subspan at a face's corner or edge has pixels whose
 * directions pick other faces; projecting on the face of its first pixel
 * -- a helper outside the drawn face, say -- gave a footprint several
 * times too large (piglit fbo-cubemap: the corner pixel of each face's
 * square read the next level). */
static void subspan_gradients(const struct smp_surface *s, const struct smp_msg_in *in,
			      unsigned ch, float dx[3], float dy[3])
{
	unsigned b = ch & ~3u;
	float c0[3], c1[3], c2[3];
	int face = -1;
	if (s->l.type == SURF_CUBE)
		face = smp_cube_select(smp_in_f(in, P_U, ch), smp_in_f(in, P_V, ch),
				       smp_in_f(in, P_R, ch));
	smp_coords(s, in, b, c0, face);
	smp_coords(s, in, b + 1, c1, face);
	smp_coords(s, in, b + 2, c2, face);
	for (int k = 0; k < 3; k++) {
		dx[k] = c1[k] - c0[k];
		dy[k] = c2[k] - c0[k];
	}
	if (s->l.type != SURF_3D)
		dx[2] = dy[2] = 0;      /* r is a layer index: no footprint */
}

/* The hardware computes the LOD in fixed point with 8 fraction bits (the
 * precision of SAMPLER_STATE's LODs); a footprint a float rounding away
 * from a power of two gives the integer LOD (ARB_texture_query_lod's
 * piglit tests rely on textureQueryLOD's x == y for nearest mipmapping). */
static float quantize(float lod)
{
	return isfinite(lod) ? roundf(lod * 256.0f) / 256.0f : lod;
}

float smp_channel_lod(const struct sampler_unit *u, const struct smp_surface *s,
		      const struct smp_sampler *st, const struct smp_msg *m,
		      const struct smp_msg_in *in, unsigned ch, struct smp_aniso *an)
{
	if (an)
		an->probes = 1;
	switch (m->lod) {
	case LOD_EXPLICIT:
		/* the sampler's bias applies to a given LOD too (GL 4.6 eq.
		 * 8.5: lambda' = lambda_base + bias_texobj + bias_shader) */
		return smp_in_f(in, P_LOD, ch) + st->lod_bias;
	case LOD_ZERO:
		return 0;
	case LOD_GRADIENTS: {
		float dx[3] = { smp_in_f(in, P_DUDX, ch), smp_in_f(in, P_DVDX, ch),
				smp_in_f(in, P_DRDX, ch) };
		float dy[3] = { smp_in_f(in, P_DUDY, ch), smp_in_f(in, P_DVDY, ch),
				smp_in_f(in, P_DRDY, ch) };
		if (s->l.type == SURF_CUBE) {
			/* the gradients of the direction, onto the face's
			 * (u, v): d(sc/ma) with the quotient rule */
			float c[3] = { smp_in_f(in, P_U, ch), smp_in_f(in, P_V, ch),
				       smp_in_f(in, P_R, ch) };
			smp_cube_gradients(c, dx, dy);
		}
		return quantize(smp_lod_from_gradients(s, st, dx, dy, an)) + st->lod_bias;
	}
	default:
		break;
	}
	float lod = 0;
	if (u->pixel_shader) {
		float dx[3], dy[3];
		subspan_gradients(s, in, ch, dx, dy);
		lod = quantize(smp_lod_from_gradients(s, st, dx, dy, an));
	}
	lod += st->lod_bias;
	if (m->lod == LOD_BIASED)
		lod += smp_in_f(in, P_BIAS, ch);
	return lod;
}

float smp_lod_clamp(const struct smp_sampler *st, float lod, float msg_min_lod)
{
	float lo = st->min_lod > msg_min_lod ? st->min_lod : msg_min_lod;
	if (isnan(lod))
		return lo;
	return lod < lo ? lo : lod > st->max_lod ? st->max_lod : lod;
}

void smp_lod_query(const struct smp_surface *s, const struct smp_sampler *st, float lod,
		   float msg_min_lod, float out[2])
{
	/* G: the LOD as computed (bias included); R: the level(s) sampling
	 * uses: clamped to the sampler's range and the surface's levels,
	 * rounded for mip filter nearest, 0 for none (ARB_texture_query_lod) */
	float c = smp_lod_clamp(st, lod, msg_min_lod);
	float top = (float)s->l.mip_count_lod;
	if (st->mip_filter == MIP_NONE)
		c = 0;
	else if (st->mip_filter == MIP_NEAREST)
		c = ceilf(c + 0.5f) - 1.0f;     /* the level used: .5 rounds down */
	out[0] = c < 0 ? 0 : c > top ? top : c;
	out[1] = lod;
}
