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
#include <string.h>

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

static unsigned put_bary(struct eu_thread *t, unsigned reg, const struct ps_pixels *px,
			 bool persp, unsigned first, unsigned n)
{
	for (unsigned g = 0; g < n; g += 8, reg += 2)
		for (unsigned i = 0; i < 8 && g + i < n; i++) {
			const float *b = persp ? px->persp[first + g + i] : px->lin[first + g + i];
			set_f(t, reg, i, b[1]);
			set_f(t, reg + 1, i, b[2]);
		}
	return reg;
}

/* Every pixel of each subspan that has a lit pixel. */
static uint32_t subspans_of(uint32_t lit)
{
	uint32_t m = 0;
	for (unsigned q = 0; q < 32; q += 4)
		if (lit >> q & 15)
			m |= 15u << q;
	return m;
}

static int build_payload(struct wm_draw *d, struct eu_thread *t)
{
	const struct wm_state *st = &d->st;
	const struct ps_pixels *px = &d->px;
	unsigned simd = d->simd, halves = simd == 32 ? 2 : 1, hw = simd == 8 ? 8 : 16;
	struct render_state *rs = d->rs;

	/* the draw's first thread clears every register; later ones leave the
	 * GRFs as the previous thread did (the registers below are written
	 * whole, g0..g2 cleared first) */
	if (!d->ps_threads)
		eu_thread_init(t, simd, subspans_of(px->mask));
	else
		eu_thread_dispatch(t, simd, subspans_of(px->mask));
	memset(eu_grf(t, 0), 0, (1 + halves) * EU_REG_SIZE);
	t->sfids = &render_sfids[RS_PS];
	t->sfid_units = &d->units;
	t->user = d;
	/* R0.0: 15 back facing, 4:0 the primitive's topology (never 0: Mesa
	 * negates R0.0:W arithmetically for gl_FrontFacing and relies on it) */
	eu_grf_set_ud(t, 0, 0, (d->prim.back_facing ? 1u << 15 : 0) | (d->prim.topology & 31u));
	eu_grf_set_ud(t, 0, 3, (rs->sampler_state[RS_PS] & ~31u) | (st->ps.scratch_space & 15));
	eu_grf_set_ud(t, 0, 4, rs->binding_table[RS_PS] & ~31u);
	eu_grf_set_ud(t, 0, 5, (uint32_t)st->ps.scratch_base & ~1023u);
	eu_grf_set_ud(t, 0, 6, (uint32_t)(d->ps_threads % 512));
	for (unsigned h = 0; h < halves; h++) {
		for (unsigned q = 0; q < 4; q++) {
			unsigned i = h * 16 + q * 4;
			uint32_t xy = i < px->count ? ((uint32_t)px->x[i] & 0xffff) |
							  ((uint32_t)px->y[i] << 16) : 0;
			eu_grf_set_ud(t, 1 + h, 2 + q, xy);
		}
		eu_grf_set_ud(t, 1 + h, 7, (px->mask >> (h * 16)) & 0xffff);
	}
	unsigned reg = 1 + halves;
	for (unsigned h = 0; h < halves; h++) {
		unsigned first = h * 16;
		for (unsigned m = 0; m < 6; m++)
			if (st->bary_modes >> m & 1)
				reg = put_bary(t, reg, px, m < 3, first, hw);
		if (st->ps.uses_depth)
			reg = put_pixels(t, reg, px->z, first, hw);
		if (st->ps.uses_w)
			reg = put_pixels(t, reg, px->w, first, hw);
		if (st->ps.pos_offset) {       /* one sample at the centre: 0.5 in U4.4 */
			memset(eu_grf(t, reg), 0x08, EU_REG_SIZE);
			reg++;
		}
		if (st->ps.uses_coverage) {
			for (unsigned i = 0; i < hw; i++)
				eu_grf_set_ud(t, reg + i / 8, i % 8, (px->mask >> (first + i)) & 1);
			reg += hw / 8;
		}
	}
	if (reg > d->grf_start && (st->ps.push_constants || st->sbe.num_attrs))
		TRACE_STUB_ONCE("PS: payload of %u registers passes the dispatch GRF start %u",
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
	if (grf + 2 * d->prim.nattrs > EU_GRF_COUNT)
		return wm_fault(d, "PS: %u attributes from g%u pass g127", d->prim.nattrs, grf);
	for (unsigned k = 0; k < d->prim.nattrs; k++)
		for (unsigned c = 0; c < 4; c++)
			for (unsigned j = 0; j < 4; j++)
				set_f(t, grf + 2 * k + c / 2, (c % 2) * 4 + j, d->prim.setup[k][c][j]);
	return 0;
}

int ps_pi_weights(void *ctx, unsigned slot, float dx, float dy, bool linear, float b[2])
{
	const struct wm_draw *d = ctx;
	if (slot >= d->px.count)
		return -1;
	float lin[3], persp[3];
	bary_at(&d->prim.bary, d->px.x[slot] + 0.5 + dx, d->px.y[slot] + 0.5 + dy, lin, persp);
	const float *w = linear ? lin : persp;
	b[0] = w[1];
	b[1] = w[2];
	return 0;
}

int ps_flush(struct wm_draw *d)
{
	struct ps_pixels *px = &d->px;
	if (!px->count)
		return 0;
	if (!px->mask || !d->dispatch || d->fault) {
		px->count = 0;
		px->mask = 0;
		return d->fault ? -1 : 0;
	}
	struct eu_thread *t = d->thread;
	if (build_payload(d, t))
		return -1;
	TRACE(TRACE_PS, "thread %llu: SIMD%u at (%d,%d) mask 0x%08x%s",
	      (unsigned long long)d->ps_threads, d->simd, px->x[0], px->y[0], px->mask,
	      d->prim.back_facing ? " back" : "");
	d->ps_threads++;
	d->ps_pixels += (uint64_t)__builtin_popcount(px->mask);
	enum eu_thread_state s = exec_run(t, d->kernel.prog, 0);
	px->count = 0;
	px->mask = 0;
	if (s == EU_THREAD_FAULT)
		return wm_fault(d, "PS thread: %s", t->fault);
	if (s != EU_THREAD_DONE)
		return wm_fault(d, "PS thread did not end (%llu instructions)",
				(unsigned long long)t->instructions);
	return 0;
}

int ps_add_quad(struct wm_draw *d, int32_t x, int32_t y, unsigned mask)
{
	struct ps_pixels *px = &d->px;
	const struct wm_prim *p = &d->prim;
	unsigned base = px->count;
	for (unsigned i = 0; i < 4; i++) {
		unsigned c = base + i;
		px->x[c] = x + (int32_t)(i & 1);
		px->y[c] = y + (int32_t)(i >> 1);
		bary_at(&p->bary, px->x[c] + 0.5, px->y[c] + 0.5, px->lin[c], px->persp[c]);
		const float *l = px->lin[c];
		px->z[c] = l[0] * p->v[0].z + l[1] * p->v[1].z + l[2] * p->v[2].z + p->z_offset;
		float rhw = l[0] * p->v[0].rhw + l[1] * p->v[1].rhw + l[2] * p->v[2].rhw;
		px->w[c] = rhw != 0 ? 1.0f / rhw : 0;
		if ((mask >> i & 1) && d->early_depth &&
		    !depth_stencil_pixel(d, px->x[c], px->y[c], px->z[c], p->back_facing))
			mask &= ~(1u << i);
	}
	if (d->fault)
		return -1;
	px->mask |= (uint32_t)mask << base;
	px->count += 4;
	return px->count == d->simd ? ps_flush(d) : 0;
}
