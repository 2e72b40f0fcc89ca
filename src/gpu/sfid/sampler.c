/* The sampler's messages (PRM vol. 7 "Sampling Engine Messages", "Message
 * Types"; the parameter orders below are the ones Mesa's
 * lower_sampler_logical_send_gfx7 builds for Gen8/9): decode the
 * descriptor and header, read each channel's parameters, compute the LOD
 * (from the 2x2 subspans of a pixel shader, or given), look the texels up
 * and write the response channels R, G, B, A that the header leaves
 * enabled. */
#include <math.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/sfid/sampler_priv.h"

#define MAX_PARAMS 11

/* What each payload parameter means (per channel, one register per 8). */
enum param { P_NONE, P_U, P_V, P_R, P_AI, P_REF, P_BIAS, P_LOD, P_MLOD,
	     P_DUDX, P_DUDY, P_DVDX, P_DVDY, P_DRDX, P_DRDY, P_NUM };

struct msg_kind {
	const char *name;
	uint8_t params[MAX_PARAMS];
	int min_gen;
};

/* Parameters in payload order after the header. ld's are integers (u,
 * lod, v, r on Gen8; u, v, lod, r on Gen9, fixed up below). */
static const struct msg_kind kinds[32] = {
	[SMP_SAMPLE] = { "sample", { P_U, P_V, P_R, P_AI, P_MLOD }, 8 },
	[SMP_SAMPLE_B] = { "sample_b", { P_BIAS, P_U, P_V, P_R, P_AI, P_MLOD }, 8 },
	[SMP_SAMPLE_L] = { "sample_l", { P_LOD, P_U, P_V, P_R, P_AI }, 8 },
	[SMP_SAMPLE_C] = { "sample_c", { P_REF, P_U, P_V, P_R, P_AI, P_MLOD }, 8 },
	[SMP_SAMPLE_D] = { "sample_d", { P_U, P_DUDX, P_DUDY, P_V, P_DVDX, P_DVDY, P_R,
					 P_DRDX, P_DRDY, P_AI, P_MLOD }, 8 },
	[SMP_SAMPLE_B_C] = { "sample_b_c", { P_REF, P_BIAS, P_U, P_V, P_R, P_AI, P_MLOD }, 8 },
	[SMP_SAMPLE_L_C] = { "sample_l_c", { P_REF, P_LOD, P_U, P_V, P_R, P_AI }, 8 },
	[SMP_LD] = { "ld", { P_U, P_LOD, P_V, P_R }, 8 },
	[SMP_GATHER4] = { "gather4", { P_U, P_V, P_R, P_AI }, 8 },
	[SMP_RESINFO] = { "resinfo", { P_LOD }, 8 },
	[SMP_SAMPLEINFO] = { "sampleinfo", { P_NONE }, 8 },
	[SMP_GATHER4_C] = { "gather4_c", { P_REF, P_U, P_V, P_R, P_AI }, 8 },
	[SMP_SAMPLE_D_C] = { "sample_d_c", { P_REF, P_U, P_DUDX, P_DUDY, P_V, P_DVDX, P_DVDY,
					     P_R, P_DRDX, P_DRDY }, 8 },
	[SMP_SAMPLE_LZ] = { "sample_lz", { P_U, P_V, P_R, P_AI }, 9 },
	[SMP_SAMPLE_C_LZ] = { "sample_c_lz", { P_REF, P_U, P_V, P_R, P_AI }, 9 },
	[SMP_LD_LZ] = { "ld_lz", { P_U, P_V, P_R }, 9 },
};
static const uint8_t ld_gen9[MAX_PARAMS] = { P_U, P_V, P_LOD, P_R };

/* One message's inputs: per parameter, the register holding channels 0-7
 * (channels 8-15 in the next one), or NULL when the payload stops before
 * it (reads as 0). */
struct msg_in {
	const uint8_t *reg[P_NUM][2];
	unsigned n;                    /* channels: 8 or 16 */
};

static uint32_t in_ud(const struct msg_in *in, unsigned p, unsigned ch)
{
	const uint8_t *r = in->reg[p][ch / 8];
	uint32_t v = 0;
	if (r)
		memcpy(&v, r + 4 * (ch % 8), 4);
	return v;
}

static float in_f(const struct msg_in *in, unsigned p, unsigned ch)
{
	uint32_t u = in_ud(in, p, ch);
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* Coordinates a lookup uses: cube directions become a face and (u, v). */
static void coords(const struct smp_surface *s, const struct msg_in *in, unsigned ch,
		   float c[3], int *face)
{
	c[0] = in_f(in, P_U, ch);
	c[1] = in_f(in, P_V, ch);
	c[2] = in_f(in, P_R, ch);
	*face = -1;
	if (s->l.type == SURF_CUBE) {
		*face = smp_cube_face(c[0], c[1], c[2], &c[0], &c[1]);
		c[2] = in_f(in, P_AI, ch);          /* cube array index */
	}
}

static unsigned deriv_dims(const struct smp_surface *s)
{
	return s->l.type == SURF_1D ? 1 : s->l.type == SURF_3D ? 3 : 2;
}

/* log2 of the larger screen-space footprint (OpenGL 4.6 eq. 8.6/8.7). */
static float lod_from(const struct smp_surface *s, const struct smp_sampler *st,
		      const float dx[3], const float dy[3])
{
	const float size[3] = { (float)s->l.width, (float)s->l.height, (float)s->l.depth };
	double px = 0, py = 0;
	for (unsigned d = 0; d < deriv_dims(s); d++) {
		double k = st->non_normalized ? 1 : size[d];
		px += (double)dx[d] * dx[d] * k * k;
		py += (double)dy[d] * dy[d] * k * k;
	}
	double rho = sqrt(px > py ? px : py);
	return rho > 0 ? (float)log2(rho) : -INFINITY;
}

/* The LOD of channel ch, before clamping. */
static float channel_lod(const struct sampler_unit *u, const struct smp_surface *s,
			 const struct smp_sampler *st, const struct msg_in *in, unsigned type,
			 unsigned ch)
{
	switch (type) {
	case SMP_SAMPLE_L: case SMP_SAMPLE_L_C:
		return in_f(in, P_LOD, ch);
	case SMP_SAMPLE_LZ: case SMP_SAMPLE_C_LZ: case SMP_GATHER4: case SMP_GATHER4_C:
		return 0;
	case SMP_SAMPLE_D: case SMP_SAMPLE_D_C: {
		float dx[3] = { in_f(in, P_DUDX, ch), in_f(in, P_DVDX, ch), in_f(in, P_DRDX, ch) };
		float dy[3] = { in_f(in, P_DUDY, ch), in_f(in, P_DVDY, ch), in_f(in, P_DRDY, ch) };
		return lod_from(s, st, dx, dy) + st->lod_bias;
	}
	default:
		break;
	}
	float lod = 0;
	if (u->pixel_shader) {
		/* a subspan is channels 4k..4k+3: (0,0) (1,0) (0,1) (1,1) */
		unsigned b = ch & ~3u;
		float c0[3], c1[3], c2[3], dx[3], dy[3];
		int f;
		coords(s, in, b, c0, &f);
		coords(s, in, b + 1, c1, &f);
		coords(s, in, b + 2, c2, &f);
		for (int d = 0; d < 3; d++) {
			dx[d] = c1[d] - c0[d];
			dy[d] = c2[d] - c0[d];
		}
		lod = lod_from(s, st, dx, dy);
	}
	lod += st->lod_bias;
	if (type == SMP_SAMPLE_B || type == SMP_SAMPLE_B_C)
		lod += in_f(in, P_BIAS, ch);
	return lod;
}

static int32_t nibble(uint32_t v, unsigned shift)
{
	return (int32_t)((v >> shift & 15) ^ 8) - 8;
}

/* An integer coordinate plus a texel offset; past the int32 range it is
 * out of bounds (-1). */
static int32_t offset_coord(uint32_t v, int32_t off)
{
	int64_t c = (int64_t)(int32_t)v + off;
	return c < INT32_MIN || c > INT32_MAX ? -1 : (int32_t)c;
}

/* resinfo (R width, G height, B depth or layers, A levels) and
 * sampleinfo (R samples), as unsigned integers. */
static void size_info(const struct smp_surface *s, unsigned type, uint32_t lod, uint32_t v[4])
{
	memset(v, 0, 16);
	if (type == SMP_SAMPLEINFO) {
		v[0] = s->l.samples;
		return;
	}
	v[3] = s->l.mip_count_lod + 1;
	if (lod > s->l.mip_count_lod)
		return;                              /* out of range: sizes 0 */
	uint32_t level = s->l.min_lod + lod;
	v[0] = s->l.type == SURF_BUFFER ? s->l.width : surface_minify(s->l.width, level);
	switch (s->l.type) {
	case SURF_1D:
		v[1] = s->l.array ? s->l.depth : 0;
		break;
	case SURF_3D:
		v[1] = surface_minify(s->l.height, level);
		v[2] = surface_minify(s->l.depth, level);
		break;
	case SURF_BUFFER:
		break;
	default:
		v[1] = surface_minify(s->l.height, level);
		v[2] = s->l.array ? s->l.depth : 0;
		break;
	}
}

/* The four values of channel ch; 1 when they skip the channel selects. */
static int channel_result(const struct sampler_unit *u, const struct smp_surface *s,
			  const struct smp_sampler *st, const struct msg_in *in, unsigned type,
			  const int32_t off[3], int gather, unsigned ch, union fmt_value out[4])
{
	if (type == SMP_RESINFO || type == SMP_SAMPLEINFO) {
		size_info(s, type, in_ud(in, P_LOD, ch), &out[0].u);
		for (int c = 1; c < 4; c++)
			out[c].u = (&out[0].u)[c];
		return 1;
	}
	if (type == SMP_LD || type == SMP_LD_LZ) {
		int32_t x = offset_coord(in_ud(in, P_U, ch), off[0]);
		int32_t y = offset_coord(in_ud(in, P_V, ch), off[1]);
		int32_t z = offset_coord(in_ud(in, P_R, ch), off[2]);
		int32_t lod = type == SMP_LD ? (int32_t)in_ud(in, P_LOD, ch) : 0;
		return smp_load(s, x, y, z, lod, out);
	}
	struct smp_lookup q = { .gather = gather, .off = { off[0], off[1], off[2] } };
	float c[3];
	coords(s, in, ch, c, &q.face);
	q.u = c[0];
	q.v = c[1];
	q.r = c[2];
	q.compare = type == SMP_SAMPLE_C || type == SMP_SAMPLE_L_C || type == SMP_SAMPLE_B_C ||
		    type == SMP_SAMPLE_D_C || type == SMP_SAMPLE_C_LZ || type == SMP_GATHER4_C;
	q.ref = in_f(in, P_REF, ch);
	float lod = channel_lod(u, s, st, in, type, ch);
	float mlod = in_f(in, P_MLOD, ch);
	float lo = st->min_lod > mlod ? st->min_lod : mlod;
	/* LOD PreClamp (OGL): clamp to [Min LOD, Max LOD] first */
	q.lambda = lod < lo ? lo : lod > st->max_lod ? st->max_lod : lod;
	if (smp_sample(s, st, &q, out))
		return -1;
	return gather >= 0 ? 1 : 0;
}

int sampler_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg)
{
	const struct sampler_unit *u = ctx;
	unsigned bti = msg->desc & 0xff, sidx = (msg->desc >> 8) & 15;
	unsigned type = (msg->desc >> 12) & 31, mode = (msg->desc >> 17) & 3;
	const struct msg_kind *kind = &kinds[type];
	if (!kind->name || u->gen < kind->min_gen)
		return eu_thread_fault(t, "sampler: message type %u is not implemented%s", type,
				       kind->name ? " on this generation" : "");
	if (mode != 1 && mode != 2)
		return eu_thread_fault(t, "sampler: %s SIMD mode %u (SIMD4x2 or SIMD32) is not "
				       "implemented", kind->name, mode);
	struct msg_in in = { .n = mode == 1 ? 8 : 16 };
	unsigned per = in.n / 8, k = 0;
	uint32_t m2 = 0, sampler_ptr = u->sampler_state, write_off = 0;
	if (msg->header) {
		const uint8_t *h = eu_send_payload(t, msg, 0);
		if (!h)
			return eu_thread_fault(t, "sampler: header without a payload register");
		memcpy(&m2, h + 8, 4);
		uint32_t m3;
		memcpy(&m3, h + 12, 4);
		sampler_ptr = m3 & ~31u;
		write_off = m2 >> 12 & 15;
		k = 1;
	}
	const uint8_t *order = type == SMP_LD && u->gen >= 9 ? ld_gen9 : kind->params;
	for (unsigned p = 0; p < MAX_PARAMS && order[p]; p++)
		for (unsigned r = 0; r < per; r++)
			in.reg[order[p]][r] = k + p * per + r < msg->mlen ?
				eu_send_payload(t, msg, k + p * per + r) : NULL;

	char why[160];
	struct smp_surface s;
	struct smp_sampler st = { 0 };
	if (smp_load_surface(u, bti, &s, why))
		return eu_thread_fault(t, "sampler: %s: %s", kind->name, why);
	bool needs_state = type != SMP_LD && type != SMP_LD_LZ && type != SMP_RESINFO &&
			   type != SMP_SAMPLEINFO;
	if (needs_state) {
		if (s.l.type == SURF_BUFFER)
			return eu_thread_fault(t, "sampler: %s from a buffer surface", kind->name);
		if (smp_load_sampler(u, sampler_ptr, sidx, &s, &st, why))
			return eu_thread_fault(t, "sampler: %s: %s", kind->name, why);
	}
	int32_t off[3] = { nibble(m2, 8), nibble(m2, 4), nibble(m2, 0) };
	int gather = type == SMP_GATHER4 || type == SMP_GATHER4_C ? (int)(m2 >> 16 & 3) : -1;
	TRACE(TRACE_SEND, "sampler: SIMD%u %s bti %u sampler %u: %s %s %ux%ux%u levels %u+%u, "
	      "offsets %d,%d,%d, channels 0x%x, mask 0x%x", in.n, kind->name, bti, sidx,
	      (const char *[]){ "1D", "2D", "3D", "CUBE", "BUFFER" }[s.l.type], s.fi->name,
	      s.l.width, s.l.height, s.l.depth, s.l.min_lod, s.l.mip_count_lod, off[0], off[1],
	      off[2],
	      ~write_off & 15, msg->mask);

	union fmt_value res[16][4];
	memset(res, 0, sizeof(res));
	for (unsigned ch = 0; ch < in.n; ch++) {
		if (!(msg->mask >> ch & 1))
			continue;
		int r = channel_result(u, &s, &st, &in, type, off, gather, ch, res[ch]);
		if (r < 0)
			return eu_thread_fault(t, "sampler: %s: page fault reading the texels of "
					       "surface 0x%llx", kind->name,
					       (unsigned long long)s.l.base);
		if (r == 0)
			smp_swizzle(&s, res[ch]);
	}
	unsigned out = 0;
	for (unsigned c = 0; c < 4; c++) {
		if (write_off >> c & 1)
			continue;
		for (unsigned r = 0; r < per; r++, out++) {
			uint8_t *reg = eu_send_response(t, msg, out);
			if (!reg)
				return 0;               /* rlen ends the response */
			for (unsigned i = 0; i < 8; i++)
				memcpy(reg + 4 * i, &res[r * 8 + i][c], 4);
		}
	}
	return 0;
}
