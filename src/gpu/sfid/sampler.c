/* The sampler's messages (PRM vol. 7 "Sampling Engine Messages"): decode
 * the descriptor and header, read each channel's parameters through the
 * message table (sampler_msg.c), compute the LOD (sampler_lod.c), look the
 * texels up (sampler_filter.c, sampler_ms.c) and write the response
 * channels R, G, B, A that the header leaves enabled. */
#include <math.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/sfid/sampler_priv.h"

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
static void size_info(const struct smp_surface *s, unsigned op, uint32_t lod, uint32_t v[4])
{
	memset(v, 0, 16);
	if (op == OP_SAMPLEINFO) {
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

struct msg_ctx {
	const struct sampler_unit *u;
	const struct smp_surface *s;
	const struct smp_sampler *st;
	const struct smp_msg *m;
	const struct smp_msg_in *in;
	int32_t off[3];             /* header texel offsets */
	int gather;                 /* the header's gather channel, or -1 */
};

/* The four values of channel ch; 1 when they skip the channel selects,
 * -1 on a page fault. */
static int channel_result(const struct msg_ctx *x, unsigned ch, union fmt_value out[4])
{
	const struct smp_surface *s = x->s;
	const struct smp_msg_in *in = x->in;
	switch (x->m->op) {
	case OP_RESINFO: case OP_SAMPLEINFO: {
		uint32_t v[4];
		size_info(s, x->m->op, smp_in_ud(in, P_LOD, ch), v);
		for (int c = 0; c < 4; c++)
			out[c].u = v[c];
		return 1;
	}
	case OP_LD: {
		int32_t u = offset_coord(smp_in_ud(in, P_U, ch), x->off[0]);
		int32_t v = offset_coord(smp_in_ud(in, P_V, ch), x->off[1]);
		int32_t r = offset_coord(smp_in_ud(in, P_R, ch), x->off[2]);
		return smp_load(s, u, v, r, (int32_t)smp_in_ud(in, P_LOD, ch), out);
	}
	case OP_LD_MCS: {
		int r = smp_ld_mcs(s, (int32_t)smp_in_ud(in, P_U, ch), (int32_t)smp_in_ud(in, P_V, ch),
				   (int32_t)smp_in_ud(in, P_R, ch), (int32_t)smp_in_ud(in, P_LOD, ch),
				   out);
		return r < 0 ? -1 : 1;
	}
	case OP_LD_MS: {
		uint64_t mcs = smp_in_ud(in, P_MCSL, ch) | (uint64_t)smp_in_ud(in, P_MCSH, ch) << 32;
		return smp_ld_ms(s, smp_in_ud(in, P_SI, ch), mcs, x->m->type != 31,
				 (int32_t)smp_in_ud(in, P_U, ch), (int32_t)smp_in_ud(in, P_V, ch),
				 (int32_t)smp_in_ud(in, P_R, ch), (int32_t)smp_in_ud(in, P_LOD, ch),
				 out);
	}
	default:
		break;
	}
	struct smp_lookup q = { .gather = x->m->op == OP_GATHER ? x->gather : -1,
				.off = { x->off[0], x->off[1], x->off[2] } };
	if (in->present[P_OFFU]) {            /* gather4_po: per-channel offsets */
		q.off[0] += smp_gather_offset(smp_in_ud(in, P_OFFU, ch));
		q.off[1] += smp_gather_offset(smp_in_ud(in, P_OFFV, ch));
	}
	float c[3];
	q.face = smp_coords(s, in, ch, c, -1);
	q.u = c[0];
	q.v = c[1];
	q.r = c[2];
	q.compare = x->m->compare;
	q.ref = smp_shadow_ref(s, smp_in_f(in, P_REF, ch));
	float lod = smp_channel_lod(x->u, s, x->st, x->m, in, ch, &q.aniso);
	float mlod = smp_in_f(in, P_MLOD, ch);
	if (x->m->op == OP_LOD) {
		float r[2];
		smp_lod_query(s, x->st, lod, mlod, r);
		out[0].f = r[0];
		out[1].f = r[1];
		out[2].f = out[3].f = 0;
		return 1;
	}
	q.lambda_raw = lod;
	q.lambda = smp_lod_clamp(x->st, lod, mlod);
	if (smp_sample(s, x->st, &q, out))
		return -1;
	return q.gather >= 0 ? 1 : 0;
}

int sampler_sfid_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg)
{
	const struct sampler_unit *u = ctx;
	unsigned bti = msg->desc & 0xff, sidx = (msg->desc >> 8) & 15;
	unsigned type = (msg->desc >> 12) & 31, mode = (msg->desc >> 17) & 3;
	bool exists;
	const struct smp_msg *m = smp_msg_lookup(u->gen, type, &exists);
	if (!m)
		return eu_thread_fault(t, "sampler: message type %u is not implemented%s", type,
				       exists ? " on this generation" : "");
	if (mode != 1 && mode != 2)
		return eu_thread_fault(t, "sampler: %s SIMD mode %u (%s) is not implemented",
				       m->name, mode, mode == 0 ? "SIMD4x2" : "SIMD32/64");
	struct smp_msg_in in = { .n = mode == 1 ? 8 : 16 };
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
		if (m2 >> 23 & 1)
			return eu_thread_fault(t, "sampler: %s: Pixel Null Mask Enable (M0.2 bit "
					       "23) is not implemented", m->name);
		k = 1;
	}
	smp_msg_read(m, t, msg, k, &in);

	char why[160];
	struct smp_surface s;
	struct smp_sampler st = { 0 };
	bool ms = m->op == OP_LD_MS || m->op == OP_LD_MCS || m->op == OP_RESINFO ||
		  m->op == OP_SAMPLEINFO;
	if (smp_load_surface(u, bti, ms, m->op == OP_RESINFO || m->op == OP_SAMPLEINFO, &s, why))
		return eu_thread_fault(t, "sampler: %s: %s", m->name, why);
	if ((m->op == OP_LD_MS || m->op == OP_LD_MCS) && s.l.samples < 2 && m->type != 31)
		return eu_thread_fault(t, "sampler: %s on a single-sample surface", m->name);
	bool needs_state = m->op == OP_SAMPLE || m->op == OP_GATHER || m->op == OP_LOD;
	if (needs_state) {
		if (s.l.type == SURF_BUFFER)
			return eu_thread_fault(t, "sampler: %s from a buffer surface", m->name);
		if (smp_load_sampler(u, sampler_ptr, sidx, &s, &st, why))
			return eu_thread_fault(t, "sampler: %s: %s", m->name, why);
	}
	struct msg_ctx x = { .u = u, .s = &s, .st = &st, .m = m, .in = &in,
			     .off = { nibble(m2, 8), nibble(m2, 4), nibble(m2, 0) },
			     .gather = (int)(m2 >> 16 & 3) };
	TRACE(TRACE_SEND, "sampler: SIMD%u %s bti %u sampler %u: %s %s %ux%ux%u levels %u+%u "
	      "samples %u, offsets %d,%d,%d, channels 0x%x, mask 0x%x", in.n, m->name, bti, sidx,
	      (const char *[]){ "1D", "2D", "3D", "CUBE", "BUFFER" }[s.l.type], s.fi->name,
	      s.l.width, s.l.height, s.l.depth, s.l.min_lod, s.l.mip_count_lod, s.l.samples,
	      x.off[0], x.off[1], x.off[2], ~write_off & 15, msg->mask);

	union fmt_value res[16][4];
	memset(res, 0, sizeof(res));
	for (unsigned ch = 0; ch < in.n; ch++) {
		if (!(msg->mask >> ch & 1))
			continue;
		int r = channel_result(&x, ch, res[ch]);
		if (r < 0)
			return eu_thread_fault(t, "sampler: %s: page fault reading the texels of "
					       "surface 0x%llx", m->name,
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
