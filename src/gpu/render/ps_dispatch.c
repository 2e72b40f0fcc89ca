/* Pixel shader threads (PRM vol. 7 "PS Thread Payload for Normal
 * Dispatch"): 2x2 quads of one primitive gathered into SIMD8/16/32
 * threads. The payload, in order:
 *   g0        header: bit 15 back-facing, 4:0 primitive topology, binding
 *             table and sampler state pointers, scratch, thread id
 *   g1 (g2)   subspan X/Y in dwords 2..5 (x | y << 16), pixel mask in
 *             dword 7; SIMD32 has a second register for pixels 16..31
 *   then per 16-pixel half: the barycentrics of each mode enabled in
 *             3DSTATE_WM (perspective pixel/centroid/sample, then linear),
 *             b1 and b2 of 8 pixels per register pair; source depth;
 *             source W; position offsets; input coverage mask
 *   from the Dispatch GRF Start: push constants (3DSTATE_CONSTANT_PS),
 *             then two registers per SBE attribute (see attr_setup.c).
 * Pixel i of a quad is (x + (i & 1), y + (i >> 1)).
 *
 * Helper pixels (PRM vol. 7 "Pixel Shader Thread Payload", Pixel Mask): a
 * subspan with at least one lit pixel is dispatched whole, so the EU's
 * dispatch mask (sr0.2) enables all four pixels and derivatives between
 * neighbouring channels (sampler LOD, dFdx/dFdy) see computed values. The
 * payload's pixel mask (g1.7, g2.7) holds only the lit pixels; render
 * target writes are limited to them (rt_write.c). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/bits.h"
#include "common/trace.h"
#include "gpu/render/wm_draw.h"

static void set_f(struct eu_thread *t, unsigned reg, unsigned dw, float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	eu_grf_set_ud(t, reg, dw, u);
}

/* Registers of per-pixel floats for the pixels [first, first + n): one
 * register per 8 pixels. */
static unsigned put_pixels(struct eu_thread *t, unsigned reg, const float *v, unsigned first,
			   unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		set_f(t, reg + i / 8, i % 8, v[first + i]);
	return reg + (n + 7) / 8;
}

/* Mode m of 3DSTATE_WM's Barycentric Interpolation Mode: 0-2
 * perspective pixel/centroid/sample, 3-5 linear. */
static unsigned put_bary(struct eu_thread *t, unsigned reg, const struct ps_job *j,
			 unsigned m, unsigned first, unsigned n)
{
	const struct ps_pixels *px = &j->px;
	bool persp = m < 3;
	if (m % 3 == 0 && !j->prim.bary_mapped) {   /* at the centres: interpolate()'s */
		const float (*w)[PS_MAX_PIXELS] = persp ? px->persp : px->lin;
		for (unsigned g = 0; g < n; g += 8, reg += 2) {
			memcpy(eu_grf(t, reg), &w[1][first + g], 8 * sizeof(float));
			memcpy(eu_grf(t, reg + 1), &w[2][first + g], 8 * sizeof(float));
		}
		return reg;
	}
	for (unsigned g = 0; g < n; g += 8, reg += 2)
		for (unsigned i = 0; i < 8 && g + i < n; i++) {
			unsigned c = first + g + i;
			float lin[3], per[3], o[3];
			const float (*w)[PS_MAX_PIXELS] = persp ? px->persp : px->lin;
			float at[3] = { w[0][c], w[1][c], w[2][c] };
			const float *b = at;
			if (m % 3 && c < px->count) {   /* centroid, sample: at their positions */
				bool cen = m % 3 == 1;
				bary_at(&j->prim.bary, px->x[c] + (double)(cen ? px->cx[c] : px->sx[c]),
					px->y[c] + (double)(cen ? px->cy[c] : px->sy[c]), lin, per);
				b = persp ? per : lin;
			}
			if (j->prim.bary_mapped) {
				wm_prim_bary(&j->prim, !persp, b, o);
				b = o;
			}
			set_f(t, reg, i, b[1]);
			set_f(t, reg + 1, i, b[2]);
		}
	return reg;
}

/* A position in U4.4 pixels (the payload's Position XY Offset). */
static uint8_t u4_4(float f)
{
	long v = lrintf(f * 16);
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Every pixel of each subspan that has a lit pixel: a subspan's bits
 * folded into its lowest, then spread to its four. */
static uint32_t subspans_of(uint32_t lit)
{
	uint32_t any = lit | lit >> 1;
	any = (any | any >> 2) & 0x11111111u;
	return any * 15u;
}

static int build_payload(struct ps_job *j)
{
	struct wm_draw *d = j->d;
	struct eu_thread *t = j->t;
	const struct wm_state *st = &d->st;
	const struct ps_pixels *px = &j->px;
	const struct wm_prim *prim = &j->prim;
	unsigned simd = d->simd, halves = simd == 32 ? 2 : 1, hw = simd == 8 ? 8 : 16;
	struct render_state *rs = d->rs;

	/* the draw's first thread clears every register; later ones leave the
	 * GRFs as the previous thread did (the registers below are written
	 * whole) */
	if (j->fresh)
		eu_thread_init(t, simd, subspans_of(px->mask));
	else
		eu_thread_dispatch(t, simd, subspans_of(px->mask));
	j->fresh = false;
	t->sfids = &render_sfids[RS_PS];
	t->sfid_units = &j->units;
	t->user = j;
	/* g0 .. g2 are written whole */
	uint32_t g0[8] = { 0 };
	/* R0.0: 15 back facing, 4:0 the primitive's topology (never 0: Mesa
	 * negates R0.0:W arithmetically for gl_FrontFacing and relies on it) */
	g0[0] = (prim->back_facing ? 1u << 15 : 0) | (prim->topology & 31u);
	g0[3] = (rs->sampler_state[RS_PS] & ~31u) | (st->ps.scratch_space & 15);
	g0[4] = rs->binding_table[RS_PS] & ~31u;
	/* R0.5 31:10: this thread's own scratch space, base + FFTID x
	 * per-thread size (PRM "PS Thread Payload"; 3DSTATE_PS Per-Thread
	 * Scratch Space: 1 KB << n): threads running at once on the pool
	 * must not share one (glsl-1.50-gs-max-output's FS keeps its
	 * indexed array there) */
	g0[5] = ((uint32_t)st->ps.scratch_base & ~1023u) +
		j->hw_thread * (1024u << (st->ps.scratch_space & 15));
	g0[6] = (uint32_t)(j->seq % 512);
	memcpy(eu_grf(t, 0), g0, sizeof(g0));
	for (unsigned h = 0; h < halves; h++) {
		uint32_t g1[8] = { 0 };   /* the register whole */
		for (unsigned q = 0; q < 4; q++) {
			unsigned i = h * 16 + q * 4;
			g1[2 + q] = i < px->count ? ((uint32_t)px->x[i] & 0xffff) |
						    ((uint32_t)px->y[i] << 16) : 0;
		}
		g1[7] = (px->mask >> (h * 16)) & 0xffff;
		/* g1.0 (g2.0): the sample of each subspan under per-sample
		 * dispatch, 4 bits a slot (PRM "PS Thread Payload": Sample
		 * Index, read by Mesa for gl_SampleID) */
		for (unsigned q = 0; q < 4 && st->ms.per_sample; q++)
			g1[0] |= (uint32_t)(px->sample_id[h * 4 + q] & 15) << (4 * q);
		memcpy(eu_grf(t, 1 + h), g1, sizeof(g1));
	}
	unsigned reg = 1 + halves;
	for (unsigned h = 0; h < halves; h++) {
		unsigned first = h * 16;
		for (uint32_t modes = st->bary_modes & 63; modes; modes &= modes - 1)
			reg = put_bary(t, reg, j, (unsigned)__builtin_ctz(modes), first, hw);
		if (st->ps.uses_depth)
			reg = put_pixels(t, reg, px->z, first, hw);
		if (st->ps.uses_w)
			reg = put_pixels(t, reg, px->w, first, hw);
		if (st->ps.pos_offset) {
			/* X in byte 2i, Y in byte 2i + 1 of pixel i, U4.4: the
			 * sample's position (POSOFFSET_SAMPLE) or the centroid's */
			uint8_t *r = eu_grf(t, reg);
			bool cen = st->ps.pos_offset == 2;
			for (unsigned i = 0; i < 16; i++) {
				unsigned c = first + (i < hw ? i : 0);
				r[2 * i] = u4_4(cen ? px->cx[c] : px->sx[c]);
				r[2 * i + 1] = u4_4(cen ? px->cy[c] : px->sy[c]);
			}
			reg++;
		}
		if (st->ps.uses_coverage) {    /* a dword a pixel, bit s: sample s */
			for (unsigned i = 0; i < hw; i++)
				eu_grf_set_ud(t, reg + i / 8, i % 8, first + i < px->count ?
					      px->in_cov[first + i] : 0);
			reg += hw / 8;
		}
	}
	/* the constants and attributes start at the Dispatch GRF Start
	 * Register (3DSTATE_PS): a payload reaching past it would be
	 * overwritten by them, state no driver emits */
	if (reg > d->grf_start && (st->ps.push_constants || st->sbe.num_attrs))
		return wm_fault(d, "PS: payload of %u registers passes the dispatch GRF start %u",
				reg, d->grf_start);
	unsigned grf = d->grf_start;
	if (st->ps.push_constants) {
		for (int b = 0; b < 4; b++) {
			uint32_t n = st->ps.const_len[b];
			if (!n)
				continue;
			if (grf + n > EU_GRF_COUNT)
				return wm_fault(d, "PS: push constants pass g127");
			if (vm_read(&d->env->vm, st->ps.const_addr[b], eu_grf(t, grf), n * 32u))
				return wm_fault(d, "PS: page fault reading constant buffer %d at 0x%llx",
						b, (unsigned long long)st->ps.const_addr[b]);
			grf += n;
		}
	}
	if (grf + 2 * prim->nattrs > EU_GRF_COUNT)
		return wm_fault(d, "PS: %u attributes from g%u pass g127", prim->nattrs, grf);
	/* attribute k: components 0-1 in g(grf + 2k), 2-3 in the next, four
	 * floats each: setup[k] as it lies in memory */
	if (prim->nattrs)
		memcpy(eu_grf(t, grf), prim->setup, prim->nattrs * sizeof(prim->setup[0]));
	return 0;
}

/* The centroid of a pixel whose samples `in` rasterization covered, from
 * its upper left corner: the centre when every sample (or none) is
 * covered, else the first covered sample's position. */
static void centroid_at(const struct wm_state *st, uint16_t in, double *x, double *y)
{
	unsigned n = st->ms.samples;
	uint16_t all = (uint16_t)((1u << n) - 1);
	*x = *y = 0.5;
	if (n > 1 && in && (in & all) != all) {
		unsigned f = (unsigned)__builtin_ctz(in);
		*x = wm_sample_x(st, f);
		*y = wm_sample_y(st, f);
	}
}

int ps_pi_centroid(void *ctx, unsigned slot, float *dx, float *dy)
{
	const struct ps_job *j = ctx;
	if (slot >= j->px.count)
		return -1;
	double x, y;
	centroid_at(&j->d->st, j->px.in_cov[slot], &x, &y);
	*dx = (float)(x - 0.5);
	*dy = (float)(y - 0.5);
	return 0;
}

void ps_pi_init(struct pi_unit *pi, const struct wm_state *st, void *ctx)
{
	*pi = (struct pi_unit){ .weights = ps_pi_weights, .centroid = ps_pi_centroid, .ctx = ctx,
				.samples = st->ms.samples };
	for (unsigned s = 0; s < pi->samples && s < PI_MAX_SAMPLES && pi->samples > 1; s++) {
		pi->sample_dx[s] = (float)(wm_sample_x(st, s) - 0.5);
		pi->sample_dy[s] = (float)(wm_sample_y(st, s) - 0.5);
	}
}

int ps_pi_weights(void *ctx, unsigned slot, float dx, float dy, bool linear, float b[2])
{
	const struct ps_job *j = ctx;
	if (slot >= j->px.count)
		return -1;
	float lin[3], persp[3];
	bary_at(&j->prim.bary, j->px.x[slot] + 0.5 + dx, j->px.y[slot] + 0.5 + dy, lin, persp);
	float w[3];
	wm_prim_bary(&j->prim, linear, linear ? lin : persp, w);
	b[0] = w[1];
	b[1] = w[2];
	return 0;
}

/* The barycentrics, depth and w of each gathered pixel: at its centre,
 * depth and w at its sample under per-sample dispatch. Depth only where
 * the payload or a depth test after the PS reads it (rt_write.c), w only
 * where the payload does. */
static void interpolate(const struct wm_draw *d, const struct wm_prim *p,
			struct ps_pixels *px)
{
	const struct wm_state *st = &d->st;
	bool need_z = st->ps.uses_depth || (!d->early_depth && depth_test_enabled(st));
	/* nothing reads the weights (a shader with no inputs, as piglit's
	 * full-screen constant-colour quads): the payload has no barycentric
	 * registers, the pixel interpolator computes its own (bary_at) */
	if (!st->bary_modes && !need_z && !st->ps.uses_w)
		return;
	/* the weights something reads: the payload's b1 and b2 of the
	 * perspective modes at the centres (all three where the primitive
	 * maps them or centroid/sample modes may take them), the linear ones
	 * for the linear modes, depth and w */
	unsigned want = 0;
	if (st->bary_modes & 7)
		want |= p->bary_mapped || (st->bary_modes & 6) ? BARY_PERSP : BARY_PERSP12;
	if ((st->bary_modes & 0x38) || need_z || st->ps.uses_w)
		want |= BARY_LIN;
	/* px->count is whole quads: a multiple of BARY_CHUNK */
	bary_pixels(&p->bary, px->count, px->x, px->y, want,
		    (float *const[3]){ px->lin[0], px->lin[1], px->lin[2] },
		    (float *const[3]){ px->persp[0], px->persp[1], px->persp[2] });
	if (!need_z && !st->ps.uses_w)
		return;
	for (unsigned c = 0; c < px->count; c++) {
		float lin[3], persp[3];
		const float at[3] = { px->lin[0][c], px->lin[1][c], px->lin[2][c] };
		const float *l = at;
		if (st->ms.per_sample) {
			bary_at(&p->bary, px->x[c] + (double)px->sx[c], px->y[c] + (double)px->sy[c],
				lin, persp);
			l = lin;
		}
		px->z[c] = l[0] * p->v[0].z + l[1] * p->v[1].z + l[2] * p->v[2].z + p->z_offset;
		float rhw = l[0] * p->v[0].rhw + l[1] * p->v[1].rhw + l[2] * p->v[2].rhw;
		px->w[c] = rhw != 0 ? 1.0f / rhw : 0;
	}
}

static _Thread_local struct ps_job *running __attribute__((tls_model("initial-exec")));

void ps_job_init(struct wm_draw *d, struct ps_job *j)
{
	j->d = d;
	j->fresh = true;
	j->prim_serial = 0;
	j->rc.bti = -1;
	j->px.count = 0;
	j->px.mask = 0;
	j->depth_passed = 0;
	j->fast_subspans = 0;
	j->have_rt0 = j->faulted = false;
	ps_pi_init(&j->pi, &d->st, j);
	j->units = d->units;
	j->units.pi = &j->pi;
}

struct ps_job *ps_running_job(void)
{
	return running;
}

void ps_job_run(struct ps_job *j)
{
	struct ps_job *outer = running;
	running = j;
	interpolate(j->d, &j->prim, &j->px);
	if (!build_payload(j)) {
		enum eu_thread_state s = exec_run(j->t, j->d->kernel.prog, 0);
		if (s == EU_THREAD_FAULT)
			wm_fault(j->d, "PS thread: %s", j->t->fault);
		else if (s != EU_THREAD_DONE)
			wm_fault(j->d, "PS thread did not end (%llu instructions)",
				 (unsigned long long)j->t->instructions);
	}
	running = outer;
}

int ps_job_retire(struct wm_draw *d, struct ps_job *j)
{
	d->depth_passed += j->depth_passed;
	j->depth_passed = 0;
	d->fast_subspans += j->fast_subspans;
	j->fast_subspans = 0;
	if (j->have_rt0 && !d->have_rt0) {
		d->rt0 = j->rt0;
		d->have_rt0 = true;
	}
	j->have_rt0 = false;
	if (j->faulted) {
		j->faulted = false;
		return wm_fault(d, "%s", j->fault);
	}
	return 0;
}

/* Job j, whose pixels were gathered in place: its number and the
 * primitive when it changed. */
static void job_fill(struct wm_draw *d, struct ps_job *j)
{
	j->seq = d->ps_threads;
	if (j->prim_serial != d->prim_serial + 1) {
		memcpy(&j->prim, &d->prim, offsetof(struct wm_prim, setup));
		memcpy(j->prim.setup, d->prim.setup, d->prim.nattrs * sizeof(d->prim.setup[0]));
		j->prim_serial = d->prim_serial + 1;
	}
}

int ps_flush(struct wm_draw *d)
{
	struct ps_pixels *px = d->px;
	if (!px || !px->count)
		return 0;
	if (!px->mask || !d->dispatch || d->fault) {
		px->count = 0;
		px->mask = 0;
		return d->fault ? -1 : 0;
	}
	/* the pixels were gathered in the job that runs them */
	struct ps_job *j = (struct ps_job *)((char *)px - offsetof(struct ps_job, px));
	job_fill(d, j);
	TRACE(TRACE_PS, "thread %llu: SIMD%u at (%d,%d) mask 0x%08x%s",
	      (unsigned long long)d->ps_threads, d->simd, px->x[0], px->y[0], px->mask,
	      d->prim.back_facing ? " back" : "");
	d->ps_threads++;
	d->ps_pixels += bits_count32(px->mask);
	ps_job_run(j);
	ps_job_retire(d, j);
	d->px->count = 0;
	d->px->mask = 0;
	return d->fault ? -1 : 0;
}

int ps_prim_end(struct wm_draw *d)
{
	int r = ps_flush(d);
	d->prim_serial++;
	return r;
}

/* One subspan of the quad at (x, y): in[p] the samples rasterization
 * covered, pass[p] those the pixel writes, `sample` the one it runs for
 * (per-sample dispatch) or -1. */
static int add_subspan(struct wm_draw *d, int32_t x, int32_t y, const uint16_t in[4],
		       const uint16_t pass[4], int sample)
{
	struct ps_pixels *px = d->px;
	const struct wm_state *st = &d->st;
	unsigned base = px->count;
	unsigned mask = 0;
	bool centre = sample < 0 && st->ms.samples <= 1;
	for (unsigned i = 0; i < 4; i++) {
		unsigned c = base + i;
		px->x[c] = x + (int32_t)(i & 1);
		px->y[c] = y + (int32_t)(i >> 1);
		/* the slot's sample: its own under per-sample dispatch, else
		 * the centre; the centroid: the centre when every sample is
		 * covered, else the first covered sample (the slot's sample
		 * under per-sample dispatch); with one sample both the centre */
		if (centre) {
			px->sx[c] = px->sy[c] = px->cx[c] = px->cy[c] = 0.5f;
		} else {
			double sx = 0.5, sy = 0.5;
			if (sample >= 0) {
				sx = wm_sample_x(st, (unsigned)sample);
				sy = wm_sample_y(st, (unsigned)sample);
			}
			px->sx[c] = (float)sx;
			px->sy[c] = (float)sy;
			px->cx[c] = (float)sx;
			px->cy[c] = (float)sy;
			if (sample < 0) {
				double cx, cy;
				centroid_at(st, in[i], &cx, &cy);
				px->cx[c] = (float)cx;
				px->cy[c] = (float)cy;
			}
		}
		/* barycentrics, depth and w: interpolate(), where the
		 * thread runs */
		px->cov[c] = pass[i];
		px->in_cov[c] = in[i];
		mask |= (pass[i] != 0) << i;
	}
	px->sample_id[base / 4] = (uint8_t)(sample < 0 ? 0 : sample);
	px->mask |= (uint32_t)mask << base;
	px->count += 4;
	return px->count == d->simd ? ps_flush(d) : 0;
}

/* add_subspan's work for one sample at the pixel centres (no per-sample
 * dispatch): pixel i covered when `in` bit i is set, writing when `pass`
 * bit i is set; four-pixel stores, no per-pixel choices. */
static inline __attribute__((always_inline)) int
add_centre(struct wm_draw *d, int32_t x, int32_t y, unsigned in, unsigned pass)
{
	static const float half[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
	struct ps_pixels *px = d->px;
	unsigned c = px->count;
	const int32_t xs[4] = { x, x + 1, x, x + 1 }, ys[4] = { y, y, y + 1, y + 1 };
	const uint16_t ic[4] = { in & 1, in >> 1 & 1, in >> 2 & 1, in >> 3 & 1 };
	const uint16_t pc[4] = { pass & 1, pass >> 1 & 1, pass >> 2 & 1, pass >> 3 & 1 };
	memcpy(&px->x[c], xs, sizeof(xs));
	memcpy(&px->y[c], ys, sizeof(ys));
	memcpy(&px->sx[c], half, sizeof(half));
	memcpy(&px->sy[c], half, sizeof(half));
	memcpy(&px->cx[c], half, sizeof(half));
	memcpy(&px->cy[c], half, sizeof(half));
	memcpy(&px->cov[c], pc, sizeof(pc));
	memcpy(&px->in_cov[c], ic, sizeof(ic));
	px->sample_id[c / 4] = 0;
	px->mask |= (pass & 15u) << c;
	px->count = c + 4;
	return px->count == d->simd ? ps_flush(d) : 0;
}

int ps_add_quad(struct wm_draw *d, int32_t x, int32_t y, uint64_t cov)
{
	const struct wm_prim *p = &d->prim;
	const struct wm_state *st = &d->st;
	unsigned n = st->ms.samples;
	uint16_t in[4], pass[4];
	unsigned lit = 0;
	for (unsigned i = 0; i < 4; i++) {
		in[i] = pass[i] = (uint16_t)(cov >> (16 * i));
		lit |= (in[i] != 0) << i;
	}
	int quad = -1;
	if (d->early_depth && n == 1) {
		float z[4];
		wm_prim_z_quad(p, x, y, z);
		quad = depth_test_quad(d, x, y, z, lit);
		for (unsigned i = 0; i < 4 && quad >= 0; i++)
			if (!(quad >> i & 1))
				pass[i] = 0;
	}
	for (unsigned i = 0; i < 4 && quad < 0; i++) {
		int32_t px = x + (int32_t)(i & 1), py = y + (int32_t)(i >> 1);
		for (unsigned s = 0; d->early_depth && s < n; s++) {
			if (!(in[i] >> s & 1))
				continue;
			/* one sample: the pixel centre, as the PS sees it */
			float z = n == 1 ? wm_prim_z(p, px + 0.5, py + 0.5) :
				  wm_prim_z(p, px + wm_sample_x(st, s), py + wm_sample_y(st, s));
			if (!depth_stencil_sample(d, px, py, s, z, p->back_facing, -1))
				pass[i] &= (uint16_t)~(1u << s);
		}
	}
	if (d->fault)
		return -1;
	if (!st->ms.per_sample) {
		/* a subspan whose pixels all failed the early tests is not
		 * dispatched (as under per-sample dispatch below) */
		if (d->early_depth && !(pass[0] | pass[1] | pass[2] | pass[3]))
			return 0;
		if (n <= 1)
			return add_centre(d, x, y, lit, (pass[0] != 0) | (pass[1] != 0) << 1 |
					  (pass[2] != 0) << 2 | (pass[3] != 0) << 3);
		return add_subspan(d, x, y, in, pass, -1);
	}
	/* per-sample dispatch: a subspan for each sample some pixel keeps */
	for (unsigned s = 0; s < n; s++) {
		uint16_t one[4], any = 0;
		for (unsigned i = 0; i < 4; i++) {
			one[i] = pass[i] & (uint16_t)(1u << s);
			any |= one[i];
		}
		if (any && add_subspan(d, x, y, in, one, (int)s))
			return -1;
	}
	return 0;
}

/* Whole single-sampled subspans: add_centre for each, after the early
 * depth test when there is one, the depth plane of up to eight quads at
 * a time (bary_z_quads: wm_prim_z's values). */
int ps_add_run(struct wm_draw *d, int32_t x, int32_t y, unsigned n, uint64_t cov)
{
	const struct wm_state *st = &d->st;
	if (st->ms.samples > 1 || st->ms.per_sample) {
		for (unsigned k = 0; k < n; k++)
			if (ps_add_quad(d, x + 2 * (int32_t)k, y, cov))
				return -1;
		return 0;
	}
	if (!d->early_depth) {
		for (unsigned k = 0; k < n; k++)
			if (add_centre(d, x + 2 * (int32_t)k, y, 15, 15))
				return -1;
		return 0;
	}
	const struct wm_prim *p = &d->prim;
	const float vz[3] = { p->v[0].z, p->v[1].z, p->v[2].z };
	for (unsigned k0 = 0; k0 < n; k0 += 8) {
		unsigned m = n - k0 < 8 ? n - k0 : 8;
		float z[32];
		bary_z_quads(&p->bary, vz, x + 2 * (int32_t)k0, y, m, z);
		for (unsigned i = 0; i < 4 * m; i++)   /* wm_prim_z_quad's offset */
			z[i] += p->z_offset;
		/* the m quads' tests in one pass over the depth buffer */
		uint8_t pass[8];
		int32_t x0 = x + 2 * (int32_t)k0;
		if (depth_test_run(d, x0, y, m, z, pass)) {
			/* stencil, samples or pages: ps_add_quad's own way */
			for (unsigned k = 0; k < m; k++)
				if (ps_add_quad(d, x0 + 2 * (int32_t)k, y, cov))
					return -1;
			continue;
		}
		for (unsigned k = 0; k < m; k++)
			if (pass[k] && add_centre(d, x0 + 2 * (int32_t)k, y, 15, pass[k]))
				return -1;
	}
	return 0;
}
