/* Cube maps (PRM vol. 7 "Cube Map Sampling"; OpenGL 4.6 section 8.13
 * "Cube Map Texture Selection", table 8.19): the major axis of the
 * direction picks the face, the other two divided by it give (s, t) on
 * it; the LOD's gradients follow the same projection; with seamless
 * filtering (TEXCOORDMODE_CUBE, or Cube Surface Control Mode OVERRIDE) a
 * filter footprint that leaves a face reads the adjacent face's texels. */
#include <math.h>

#include "gpu/sfid/sampler_priv.h"

/* Per face (+X, -X, +Y, -Y, +Z, -Z): sc, tc and ma as sign * coordinate. */
static const struct { uint8_t s, t, m; int8_t ss, ts, ms; } faces[6] = {
	{ 2, 1, 0, -1, -1, 1 }, { 2, 1, 0, 1, -1, -1 },
	{ 0, 2, 1, 1, 1, 1 },   { 0, 2, 1, 1, -1, -1 },
	{ 0, 1, 2, 1, -1, 1 },  { 0, 1, 2, -1, -1, -1 },
};

int smp_cube_select(float x, float y, float z)
{
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
	if (ax >= ay && ax >= az)
		return x >= 0 ? 0 : 1;
	if (ay >= az)
		return y >= 0 ? 2 : 3;
	return z >= 0 ? 4 : 5;
}

void smp_cube_project(int face, const float c[3], float *u, float *v)
{
	float ma = fabsf(c[faces[face].m]);
	if (!(ma > 0))
		ma = 1;
	*u = (faces[face].ss * c[faces[face].s] / ma + 1) * 0.5f;
	*v = (faces[face].ts * c[faces[face].t] / ma + 1) * 0.5f;
}

int smp_cube_face(float x, float y, float z, float *u, float *v)
{
	int face = smp_cube_select(x, y, z);
	const float c[3] = { x, y, z };
	smp_cube_project(face, c, u, v);
	return face;
}

void smp_cube_gradients(const float c[3], float dx[3], float dy[3])
{
	int f = smp_cube_select(c[0], c[1], c[2]);
	float ma = faces[f].ms * c[faces[f].m];
	if (!(ma > 0))
		ma = 1;
	float sc = faces[f].ss * c[faces[f].s], tc = faces[f].ts * c[faces[f].t];
	float *d[2] = { dx, dy };
	for (int k = 0; k < 2; k++) {
		float dsc = faces[f].ss * d[k][faces[f].s], dtc = faces[f].ts * d[k][faces[f].t];
		float dma = faces[f].ms * d[k][faces[f].m];
		/* u = (sc / ma + 1) / 2: du = (dsc ma - sc dma) / (2 ma^2) */
		float du = (dsc * ma - sc * dma) / (2 * ma * ma);
		float dv = (dtc * ma - tc * dma) / (2 * ma * ma);
		d[k][0] = du;
		d[k][1] = dv;
		d[k][2] = 0;
	}
}

bool smp_cube_seamless(const struct smp_surface *s, const struct smp_sampler *st)
{
	return s->l.type == SURF_CUBE &&
	       (st->cube_override || (st->wrap[0] == WRAP_CUBE && st->wrap[1] == WRAP_CUBE));
}

/* Texel (i, j) of face `face`, n texels a side, one step outside it along
 * one axis: the texel of the adjacent face that continues it. */
static void across_edge(int face, int64_t i, int64_t j, uint32_t n, int *oface, int64_t *oi,
			int64_t *oj)
{
	float sc = (float)((2.0 * i + 1) / n - 1), tc = (float)((2.0 * j + 1) / n - 1);
	float c[3];
	c[faces[face].m] = faces[face].ms;
	c[faces[face].s] = sc * faces[face].ss;
	c[faces[face].t] = tc * faces[face].ts;
	float u, v;
	*oface = smp_cube_face(c[0], c[1], c[2], &u, &v);
	double x = floor((double)u * n), y = floor((double)v * n);
	*oi = x < 0 ? 0 : x >= n ? n - 1 : (int64_t)x;
	*oj = y < 0 ? 0 : y >= n ? n - 1 : (int64_t)y;
}

int smp_cube_texel(int face, int64_t i, int64_t j, uint32_t n, int64_t out[][3])
{
	bool oi = i < 0 || i >= n, oj = j < 0 || j >= n;
	if (!oi && !oj) {
		out[0][0] = i; out[0][1] = j; out[0][2] = face;
		return 1;
	}
	if (oi != oj) {
		int f;
		across_edge(face, i, j, n, &f, &out[0][0], &out[0][1]);
		out[0][2] = f;
		return 1;
	}
	/* a corner: no texel; the average of the three that meet there */
	int64_t ci = i < 0 ? 0 : n - 1, cj = j < 0 ? 0 : n - 1;
	out[0][0] = ci; out[0][1] = cj; out[0][2] = face;
	int f;
	across_edge(face, i, cj, n, &f, &out[1][0], &out[1][1]);
	out[1][2] = f;
	across_edge(face, ci, j, n, &f, &out[2][0], &out[2][1]);
	out[2][2] = f;
	return 3;
}

int smp_coords(const struct smp_surface *s, const struct smp_msg_in *in, unsigned ch,
	       float c[3], int face)
{
	c[0] = smp_in_f(in, P_U, ch);
	c[1] = smp_in_f(in, P_V, ch);
	c[2] = smp_in_f(in, P_R, ch);
	if (s->l.type != SURF_CUBE)
		return -1;
	if (face < 0)
		face = smp_cube_select(c[0], c[1], c[2]);
	const float dir[3] = { c[0], c[1], c[2] };
	smp_cube_project(face, dir, &c[0], &c[1]);
	c[2] = smp_in_f(in, P_AI, ch);          /* cube array index */
	return face;
}
