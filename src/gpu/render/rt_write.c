/* The render target write message (PRM vol. 7 "Render Target Write",
 * data port render cache, SFID 5): descriptor bits 7:0 binding table
 * index, 10:8 message subtype (0 SIMD16, 1 SIMD16 replicated, 2/3 SIMD8
 * dual source, 4 SIMD8), 11 slot group, 12 last render target, 18:14
 * message type (12). Payload: an optional two-register header (M0.0 bit 11
 * source 0 alpha present, M0.2 render target index, M1.7 pixel enables),
 * source 0 alpha, oMask, the colour (R, G, B, A, one register per 8
 * pixels each), a second colour for dual source, the computed depth, then
 * (gen9) the output stencil.
 * Each enabled pixel is alpha-tested, blended with BLEND_STATE, logic-op'd,
 * masked and packed through the format module into the SURFACE_STATE
 * surface the binding table names. Writes outside the surface are dropped;
 * an unbound entry or a format the render cache cannot write is a fault. */
#include <string.h>

#include "common/bits.h"
#include "common/trace.h"
#include "gpu/format/format.h"
#include "gpu/format/pack_fast.h"
#include "gpu/render/wm_draw.h"

#define RT_WRITE_MSG 12

struct rt_surface {
	struct surface_view v;     /* the level and layer this message writes (sample 0) */
	struct surface_view sv[16]; /* each sample's slice (MSFMT_MSS) */
	uint32_t samples;
	uint32_t slice;            /* the layer (the MCS's slice) */
	bool mcs;                  /* an MCS to keep consistent */
	const struct fmt_info *fi;
	fmt_pack_fn pack;          /* specialised packer, or NULL: format_pack */
	fmt_pack8_fn pack8;        /* its eight-element form (NULL with pack) */
	bool null;
};

/* Read binding table entry bti's RENDER_SURFACE_STATE into the job's
 * cache (once per draw and slot: state cannot change within a draw). */
static int load_layout(struct wm_draw *d, struct rt_cache *rc, struct eu_thread *t, unsigned bti)
{
	const struct gt_vm *vm = &d->env->vm;
	struct surface_layout *l = &rc->layout;
	uint32_t entry = 0, ss[16];
	uint64_t bt = d->st.binding_table + 4ull * bti;
	if (vm_read(vm, bt, &entry, 4))
		return eu_thread_fault(t, "RT write: page fault reading binding table entry %u "
				       "at 0x%llx", bti, (unsigned long long)bt);
	entry &= ~63u;
	if (!entry)
		return eu_thread_fault(t, "RT write: binding table entry %u is unbound", bti);
	if (vm_read(vm, d->st.surface_base + entry, ss, sizeof(ss)))
		return eu_thread_fault(t, "RT write: page fault reading SURFACE_STATE at 0x%llx",
				       (unsigned long long)(d->st.surface_base + entry));
	char why[160];
	rc->bti = -1;
	rc->view_slice = UINT32_MAX;
	if (surface_layout_from_state(d->rs->info->gen, ss, l, why))
		return eu_thread_fault(t, "RT write: %s", why);
	rc->null = l->type == SURF_NULL;
	if (rc->null) {
		rc->bti = (int)bti;
		return 0;
	}
	if (l->type > SURF_CUBE)
		return eu_thread_fault(t, "RT write: surface type %u (BUFFER/STRBUF) as a render "
				       "target is not modelled", l->type);
	const struct fmt_info *fi = format_info(l->format);
	if (!fi || !fi->supported || fi->bpe % 8 || fi->bpe > 128 ||
	    !format_rt_supported(l->format, d->rs->info->gen))
		return eu_thread_fault(t, "RT write: surface format %u (%s) is not a render target "
				       "format", l->format, format_name(l->format));
	/* Color Dither Enable (iris sets it for GL_DITHER, on by default):
	 * the hardware's dither matrix is in no public document. It can only
	 * change a target with channels narrower than 8 bits; written
	 * undithered, which the trace says once (docs/backend.md). */
	if (d->st.color_dither && format_has_narrow_channel(fi))
		TRACE_STUB_ONCE("BLEND_STATE Color Dither Enable on a %s render target: dithering "
				"is not modelled (written undithered)", format_name(l->format));
	l->cpp = fi->bpe / 8;
	rc->pack = format_pack_fast(l->format);
	rc->pack8 = format_pack8_fast(l->format);
	if (l->tiling == SURFACE_TILE_W)
		return eu_thread_fault(t, "RT write: W-tiled render target");
	/* a multisampled target is written a sample at a time, each in its
	 * slice: the PRM allows only MSFMT_MSS for render targets, and as
	 * many samples as 3DSTATE_MULTISAMPLE rasterizes */
	if (l->samples > 1 && l->msaa_layout != SURFACE_MSAA_ARRAY)
		return eu_thread_fault(t, "RT write: multisampled target with the interleaved "
				       "(MSFMT_DEPTH_STENCIL) layout");
	if (l->samples > 1 && l->samples != d->st.ms.samples)
		return eu_thread_fault(t, "RT write: %u-sample target while 3DSTATE_MULTISAMPLE "
				       "has %u samples", l->samples, d->st.ms.samples);
	if (l->samples > 1 && l->aux_mode == SURFACE_AUX_MCS && rt_clear_colour_pack(d, t, l, fi))
		return -1;
	if (d->st.ps.fast_clear && rt_fast_clear_setup(d, t, l, fi))
		return -1;
	rc->bti = (int)bti;
	return 0;
}

/* The render target of entry bti, at its LOD and the layer the current
 * primitive writes: its Render Target Array Index (past the surface's
 * Depth: layer 0) from Minimum Array Element. */
static int load_surface(struct ps_job *j, struct eu_thread *t, unsigned bti,
			struct rt_surface *rt)
{
	struct rt_cache *rc = &j->rc;
	if (rc->bti != (int)bti && load_layout(j->d, rc, t, bti))
		return -1;
	const struct surface_layout *l = &rc->layout;
	/* every field but the views of samples past the target's: the 800
	 * bytes of sv[] are not cleared per message */
	rt->null = rc->null;
	rt->samples = 1;
	rt->slice = 0;
	rt->mcs = false;
	rt->fi = NULL;
	rt->pack = NULL;
	rt->pack8 = NULL;
	memset(&rt->v, 0, sizeof(rt->v));
	if (rt->null)
		return 0;
	rt->fi = format_info(l->format);
	rt->pack = rc->pack;
	rt->pack8 = rc->pack8;
	uint32_t rtai = j->prim.rt_array_index;
	if (rtai > l->depth - 1)
		rtai = 0;
	/* each sample of the layer: with MSFMT_MSS, slice layer * samples + s */
	rt->samples = l->samples > 1 ? l->samples : 1;
	rt->slice = l->min_array + rtai;
	rt->mcs = l->samples > 1 && l->aux_mode == SURFACE_AUX_MCS;
	/* a single-sampled layer's view: once per slot and layer */
	if (rt->samples == 1 && rc->view_slice == rt->slice) {
		rt->v = rt->sv[0] = rc->view;
		return 0;
	}
	for (uint32_t s = 0; s < rt->samples; s++) {
		uint32_t x0, y0, slice;
		surface_sample_position(l->msaa_layout, l->samples, 0, 0, rt->slice, s, &x0, &y0,
					&slice);
		if (surface_view_of(l, l->mip_count_lod, slice, &rt->sv[s]))
			return eu_thread_fault(t, "RT write: LOD %u past the layout",
					       l->mip_count_lod);
	}
	rt->v = rt->sv[0];
	if (rt->samples == 1) {
		rc->view = rt->v;
		rc->view_slice = rt->slice;
	}
	return 0;
}

static float reg_f(const uint8_t *reg, unsigned ch)
{
	float f;
	memcpy(&f, reg + 4 * (ch % 8), 4);
	return f;
}

/* Merge the channels not masked by write_disable of `nv` into `old`. */
static void merge_masked(const struct fmt_info *fi, uint8_t wd, uint8_t *old, const uint8_t *nv)
{
	for (int c = 0; c < 4; c++) {
		const struct fmt_channel *ch = &fi->ch[c];
		if (!ch->bits || (wd >> c & 1))
			continue;
		for (unsigned b = ch->shift; b < (unsigned)ch->shift + ch->bits; b++) {
			uint8_t m = (uint8_t)(1u << (b % 8));
			old[b / 8] = (uint8_t)((old[b / 8] & ~m) | (nv[b / 8] & m));
		}
	}
}

/* One pixel through blending, logic op and channel masks: at byte offset
 * *at of the view when the caller has it (its subspan's, from
 * surface_view_subspan_offsets), else found here; read and written
 * through the message's page hold (one translation per page), or
 * vm_read/vm_write where the page is not wholly mapped for writing. */
static void write_pixel(struct wm_draw *d, const struct rt_surface *rt,
			const struct surface_view *view, unsigned rti, int32_t x, int32_t y,
			const uint64_t *at, struct vm_page_hold *hold, const float src[4],
			const float src1[4])
{
	uint64_t off;
	if (at)
		off = *at;
	else if (x < 0 || y < 0 || !surface_view_offset(view, (uint32_t)x, (uint32_t)y, &off))
		return;                                    /* outside: dropped */
	const struct fmt_info *fi = rt->fi;
	const struct om_blend_rt *b = &d->st.rt_blend[rti];
	const struct gt_vm *vm = &d->env->vm;
	uint8_t old[16] = { 0 }, nv[16] = { 0 };
	uint64_t addr = view->base + off;
	/* one element never crosses a page (cpp divides 4096, offsets are
	 * multiples of cpp) */
	uint8_t *host = vm_page_map(vm, hold, addr, true);
	bool integer = format_is_integer(fi);
	bool need_old = (b->enable && !integer) || b->logic_enable || b->write_disable;
	if (need_old && host)
		memcpy(old, host, rt->v.cpp);
	else if (need_old && vm_read(vm, addr, old, rt->v.cpp)) {
		wm_fault(d, "RT write: page fault reading 0x%llx", (unsigned long long)addr);
		return;
	}
	union fmt_value v[4];
	float c[4];
	memcpy(c, src, sizeof(c));
	bool unorm = format_class(fi) == FMT_T_UNORM, snorm = format_class(fi) == FMT_T_SNORM;
	if (integer) {
		for (int i = 0; i < 4; i++)
			memcpy(&v[i], &c[i], 4);           /* integer data passes as bits */
	} else {
		if (b->pre_clamp)
			om_clamp(c, b->clamp_range, unorm, snorm);
		if (b->enable) {
			union fmt_value dv[4];
			float dst[4];
			format_unpack(fi, old, dv);
			for (int i = 0; i < 4; i++)
				dst[i] = dv[i].f;
			float out[4];
			om_blend(b, c, src1, dst, d->st.blend_constant, out);
			memcpy(c, out, sizeof(c));
			if (b->post_clamp)
				om_clamp(c, b->clamp_range, unorm, snorm);
		}
		for (int i = 0; i < 4; i++)
			v[i].f = c[i];
	}
	if (rt->pack)
		rt->pack(v, nv);
	else if (format_pack(fi, v, nv)) {
		wm_fault(d, "RT write: cannot pack format %s", fi->name);
		return;
	}
	if (b->logic_enable) {
		for (unsigned i = 0; i < rt->v.cpp; i += 4) {
			uint32_t s32 = 0, d32 = 0, n = rt->v.cpp - i < 4 ? rt->v.cpp - i : 4;
			memcpy(&s32, nv + i, n);
			memcpy(&d32, old + i, n);
			s32 = om_logic_op(b->logic_op, s32, d32);
			memcpy(nv + i, &s32, n);
		}
	}
	if (b->write_disable) {
		merge_masked(fi, b->write_disable, old, nv);
		memcpy(nv, old, rt->v.cpp);
	}
	if (host)
		memcpy(host, nv, rt->v.cpp);
	else if (vm_write(vm, addr, nv, rt->v.cpp))
		wm_fault(d, "RT write: page fault writing 0x%llx", (unsigned long long)addr);
}

/* Whether the message's pixels go straight to memory: a specialised
 * packer, no blending, logic op or channel mask, no alpha test or alpha
 * to coverage/one, no depth test after the PS. */
static bool span_writable(const struct wm_draw *d, const struct rt_surface *rt, unsigned rti)
{
	const struct om_blend_rt *b = &d->st.rt_blend[rti];
	return !rt->null && rt->pack8 && rt->samples == 1 && d->st.ms.samples == 1 &&
	       !b->enable && !b->logic_enable && !b->write_disable &&
	       !d->st.alpha_test && !d->st.alpha_to_coverage && !d->st.alpha_to_one &&
	       !d->st.ps.omask &&
	       (d->early_depth || !depth_test_enabled(&d->st));
}

/* Stores one packed element of cpp bytes (constant sizes: moves, not
 * memcpy calls). */
static inline void put_element(uint8_t *dst, const uint8_t *src, unsigned cpp)
{
	switch (cpp) {
	case 1: *dst = *src; break;
	case 2: memcpy(dst, src, 2); break;
	case 4: memcpy(dst, src, 4); break;
	case 8: memcpy(dst, src, 8); break;
	case 16: memcpy(dst, src, 16); break;
	default: memcpy(dst, src, cpp); break;
	}
}

/* Stores the packed element at graphics address addr: through the held
 * page, or vm_write (which faults) where it is not wholly mapped. */
static int store_element(struct ps_job *j, struct eu_thread *t, struct vm_page_hold *hold,
			 uint64_t addr, const uint8_t *nv, unsigned cpp)
{
	struct wm_draw *d = j->d;
	uint8_t *host = vm_page_map(&d->env->vm, hold, addr, true);
	if (host) {
		put_element(host, nv, cpp);
		return 0;
	}
	if (vm_write(&d->env->vm, addr, nv, cpp)) {
		wm_fault(d, "RT write: page fault writing 0x%llx", (unsigned long long)addr);
		return eu_thread_fault(t, "%s", wm_fault_text(d));
	}
	return 0;
}

/* Messages whose subspans took the one-offset-per-subspan path (the
 * render-rt-fast test reads it to know the path it checks ran). */
static uint64_t rt_fast_subspans;

uint64_t rt_write_fast_subspans(void)
{
	return __atomic_load_n(&rt_fast_subspans, __ATOMIC_RELAXED);
}

void rt_write_add_fast_subspans(uint64_t n)
{
	if (n)
		__atomic_fetch_add(&rt_fast_subspans, n, __ATOMIC_RELAXED);
}

/* The enabled pixels of a message under span_writable(): eight at a time
 * through the format's eight-element packer, then stored a subspan at a
 * time: the byte offsets of its four pixels from the surface module at
 * once (surface_view_subspan_offsets), one translation per 4 KiB page
 * per message; a subspan partly outside the target goes pixel by pixel
 * (those outside are dropped). */
static inline __attribute__((always_inline)) int
write_span_as(struct ps_job *j, struct eu_thread *t, const struct rt_surface *rt, unsigned rti,
	      const uint8_t *const col[4], bool replicated, unsigned first, unsigned n,
	      uint32_t enables, bool last_rt, unsigned cpp)
{
	struct wm_draw *d = j->d;
	const struct ps_pixels *px = &j->px;
	const struct om_blend_rt *b = &d->st.rt_blend[rti];
	const struct fmt_info *fi = rt->fi;
	const struct surface_view *v = &rt->v;
	bool unorm = format_class(fi) == FMT_T_UNORM, snorm = format_class(fi) == FMT_T_SNORM;
	/* a UNORM packer clamps to [0, 1] itself (NaN to 0), which a clamp to
	 * [0, 1] or [-1, 1] first cannot change: pre-blend clamping matters
	 * only for the other formats */
	bool all_unorm = true;
	for (int c = 0; c < 4; c++)
		all_unorm = all_unorm && (!fi->ch[c].bits || fi->ch[c].type == FMT_T_UNORM);
	bool clamp = b->pre_clamp && !format_is_integer(fi) && !all_unorm;
	/* lit pixels of the thread only */
	if (first + n > px->count)
		enables &= px->count > first ? (uint32_t)((1ull << (px->count - first)) - 1) : 0;
	if (last_rt)
		j->depth_passed += bits_count32(enables);  /* REG_PS_DEPTH_COUNT */
	unsigned fast = 0;
	struct vm_page_hold hold;
	vm_page_hold_init(&hold);
	for (unsigned h = 0; h < n; h += 8) {
		uint32_t e8 = enables >> h & 0xff;
		if (!e8)
			continue;
		/* the eight pixels' channels, replicated or clamped as needed */
		float loc[4][8];
		const uint8_t *ch[4];
		for (unsigned c = 0; c < 4; c++) {
			ch[c] = replicated ? NULL : col[c] + (h / 8) * EU_REG_SIZE;
			if (replicated || clamp) {
				for (unsigned i = 0; i < 8; i++)
					loc[c][i] = replicated ? reg_f(col[0], c) : reg_f(ch[c], i);
				ch[c] = (const uint8_t *)loc[c];
			}
		}
		for (unsigned i = 0; clamp && i < 8; i++) {
			float f[4] = { loc[0][i], loc[1][i], loc[2][i], loc[3][i] };
			om_clamp(f, b->clamp_range, unorm, snorm);
			for (unsigned c = 0; c < 4; c++)
				loc[c][i] = f[c];
		}
		uint8_t packed[8 * 16];
		rt->pack8(ch, packed);
		/* subspans: pixels i .. i + 3 at (x, y), (x + 1, y), (x, y + 1),
		 * (x + 1, y + 1) (ps_dispatch.c) */
		for (unsigned i = 0; i < 8; i += 4) {
			unsigned four = e8 >> i & 15, c = first + h + i;
			if (!four)
				continue;
			int32_t x = px->x[c], y = px->y[c];
			uint64_t off[4];
			bool whole = x >= 0 && y >= 0 && px->x[c + 3] == x + 1 &&
				     px->y[c + 3] == y + 1 &&
				     surface_view_subspan_offsets(v, (uint32_t)x, (uint32_t)y, off);
			fast += whole;
			/* the four in one 4 KiB page (a subspan at even (x, y) of
			 * a tiled target always is): one look-up, four stores */
			uint64_t a0 = v->base + off[0];
			uint8_t *host = whole && (v->base + off[1]) >> 12 == a0 >> 12 &&
					(v->base + off[2]) >> 12 == a0 >> 12 &&
					(v->base + off[3]) >> 12 == a0 >> 12 ?
					vm_page_map(&d->env->vm, &hold, a0 & ~4095ull, true) : NULL;
			if (host) {
				/* Y-tiled: the line 64 bytes on holds the pixels
				 * four rows down, written two row pairs of
				 * threads later; fetched now, once a line */
				unsigned in_page = (unsigned)(a0 & 4095);
				if (v->tiling == SURFACE_TILE_Y && !(in_page & 15) && !(y & 3) &&
				    in_page < 4096 - 64)
					__builtin_prefetch(host + in_page + 64, 1);
				const uint8_t *src = packed + i * cpp;
				for (unsigned k = 0; k < 4; k++)
					if (four >> k & 1)
						put_element(host + ((v->base + off[k]) & 4095),
							    src + k * cpp, cpp);
				continue;
			}
			for (unsigned k = 0; k < 4; k++) {
				if (!(four >> k & 1))
					continue;
				if (!whole && (px->x[c + k] < 0 || px->y[c + k] < 0 ||
					       !surface_view_offset(v, (uint32_t)px->x[c + k],
								    (uint32_t)px->y[c + k], &off[k])))
					continue;                  /* outside: dropped */
				if (store_element(j, t, &hold, v->base + off[k], packed + (i + k) * cpp,
						  cpp))
					return -1;
			}
		}
	}
	j->fast_subspans += fast;   /* the draw adds its count up at its end */
	return 0;
}

/* write_span_as compiled for the common element sizes: the stores of a
 * subspan are then plain moves of a known size, not a switch on the size
 * for each pixel. */
static int write_span(struct ps_job *j, struct eu_thread *t, const struct rt_surface *rt,
		      unsigned rti, const uint8_t *const col[4], bool replicated, unsigned first,
		      unsigned n, uint32_t enables, bool last_rt)
{
	switch (rt->v.cpp) {
	case 4:
		return write_span_as(j, t, rt, rti, col, replicated, first, n, enables, last_rt, 4);
	case 8:
		return write_span_as(j, t, rt, rti, col, replicated, first, n, enables, last_rt, 8);
	default:
		return write_span_as(j, t, rt, rti, col, replicated, first, n, enables, last_rt,
				     rt->v.cpp);
	}
}

/* A resolve pass: the main surface already holds the resolved colours
 * (rt_fast_clear.c) and the PS output is not written; on a target with an
 * MCS (a partial resolve), fast-cleared pixels get the clear colour in
 * their samples, as the hardware's resolve gives them. */
static int rt_resolve(struct ps_job *j, struct eu_thread *t, const struct rt_surface *rt,
		      unsigned first, unsigned n, uint32_t enables)
{
	struct wm_draw *d = j->d;
	const struct ps_pixels *px = &j->px;
	for (unsigned i = 0; rt->mcs && !rt->null && i < n; i++) {
		unsigned ch = first + i;
		if ((enables >> i & 1) && ch < px->count &&
		    rt_mcs_prepare(d, rt->sv, rt->slice, px->x[ch], px->y[ch]))
			return eu_thread_fault(t, "%s", wm_fault_text(d));
	}
	return 0;
}

int rt_write_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg)
{
	struct wm_draw *d = ctx;
	struct ps_job *j = t->user;
	unsigned bti = msg->desc & 0xff, sub = (msg->desc >> 8) & 7;
	unsigned type = (msg->desc >> 14) & 31, slot = (msg->desc >> 11) & 1;
	bool last_rt = msg->desc >> 12 & 1;
	if (type != RT_WRITE_MSG)
		return eu_thread_fault(t, "render cache message type %u is not implemented", type);
	unsigned n = sub == 0 || sub == 1 ? 16 : 8;
	unsigned first = sub == 3 ? 8 : 0;          /* SIMD8 dual source, subspans 2-3 */
	if (n == 16 && slot)
		first = 16;                         /* SIMD32's second half */
	unsigned k = 0, rti = 0;
	/* the send's channel mask counts from its own first channel (a SIMD16
	 * thread's DualSrcHigh message runs in group 8, first channel 8) */
	if (msg->group != first)
		return eu_thread_fault(t, "RT write: message subtype %u starts at channel %u, "
				       "the send at channel %u", sub, first, msg->group);
	uint32_t enables = msg->mask;
	bool src0_alpha = false;
	if (msg->header) {
		const uint8_t *m0 = eu_send_payload(t, msg, 0), *m1 = eu_send_payload(t, msg, 1);
		if (!m0 || !m1)
			return eu_thread_fault(t, "RT write: header without two registers");
		uint32_t dw0, dw2, pm;
		memcpy(&dw0, m0, 4);
		memcpy(&dw2, m0 + 8, 4);
		memcpy(&pm, m1 + 28, 4);
		src0_alpha = dw0 >> 11 & 1;
		rti = dw2 < WM_MAX_RT ? dw2 : 0;
		/* M1.7 holds the 16 pixel enables of the thread's (SIMD32: the
		 * slot group's) 16 channels; a SIMD8 message over subspans 2-3
		 * takes bits 15:8 (the half Mesa's comment on oMask names) */
		enables &= (pm & 0xffff) >> (first % 16);
		k = 2;
	}
	/* registers: n/8 per float channel (a replicated colour is one) */
	unsigned per = n / 8;
	const uint8_t *alpha0 = NULL, *omask = NULL;
	if (src0_alpha) {
		alpha0 = eu_send_payload(t, msg, k);
		k += per;
	}
	if (d->st.ps.omask) {
		omask = eu_send_payload(t, msg, k);
		k++;
	}
	const uint8_t *col[2][4] = { { 0 } };
	unsigned nsrc = sub == 2 || sub == 3 ? 2 : 1;
	if (sub == 1) {
		col[0][0] = eu_send_payload(t, msg, k++);
	} else {
		for (unsigned s = 0; s < nsrc; s++)
			for (unsigned c = 0; c < 4; c++, k += per)
				col[s][c] = eu_send_payload(t, msg, k);
	}
	const uint8_t *depth = NULL;
	if (d->st.ps.computed_depth) {
		depth = eu_send_payload(t, msg, k);
		k += per;
	}
	/* gen9 Output Stencil: one register, the reference of pixel i in its
	 * byte i (the layout Mesa's SIMD8 stencil export writes; gtsim has no
	 * source for a SIMD16 form) */
	const uint8_t *stencil = NULL;
	if (d->st.ps.computed_stencil) {
		if (n != 8)
			return eu_thread_fault(t, "RT write: computed stencil in a SIMD%u message "
					       "(only SIMD8 is modelled)", n);
		stencil = eu_send_payload(t, msg, k);
		k++;
	}
	if (k > msg->mlen || (sub == 1 ? !col[0][0] : !col[0][3]) || (nsrc == 2 && !col[1][3]))
		return eu_thread_fault(t, "RT write: mlen %u is short of the %u registers the "
				       "message needs", msg->mlen, k);
	if (sub > 4)
		return eu_thread_fault(t, "RT write: reserved message subtype %u", sub);
	struct rt_surface rt;
	if (load_surface(j, t, bti, &rt))
		return -1;
	if (!rt.null && (d->st.rt_blend_unread >> rti & 1))
		return eu_thread_fault(t, "RT write: page fault reading BLEND_STATE entry %u at "
				       "0x%llx", rti,
				       (unsigned long long)(d->st.blend_state_addr + 4 + 8 * rti));
	if (!j->have_rt0 && !rt.null) {
		j->rt0 = rt.v;
		j->have_rt0 = true;
	}
	const struct ps_pixels *px = &j->px;
	/* only lit pixels are written, never a subspan's helper pixels
	 * (ps_dispatch.c): the dispatch's pixel mask, also under a header */
	enables &= (uint32_t)((uint64_t)px->mask >> first);
	/* a resolve pass: the main surface already holds the resolved colours
	 * (rt_fast_clear.c), the PS output is not written */
	if (d->st.ps.resolve)
		return rt_resolve(j, t, &rt, first, n, enables);
	for (unsigned i = 0; d->st.ps.fast_clear && !rt.null && i < n; i++) {
		unsigned ch = first + i;
		if ((enables >> i & 1) && ch < px->count &&
		    rt_fast_clear_block(d, rt.sv, rt.samples, rt.slice, px->x[ch], px->y[ch]))
			return eu_thread_fault(t, "%s", wm_fault_text(d));
	}
	if (d->st.ps.fast_clear)
		return 0;
	bool aa = j->prim.aa_alpha;
	if (aa && !rt.null && format_is_integer(rt.fi))
		return eu_thread_fault(t, "RT write: antialiased line or smooth point coverage on an "
				       "integer render target (the PRM requires it disabled)");
	if (!aa && span_writable(d, &rt, rti))
		return write_span(j, t, &rt, rti, col[0], sub == 1, first, n, enables, last_rt);
	/* "If Pixel Shader outputs oMask, AlphaToCoverage is disabled in
	 * hardware, regardless of the state setting for this feature" (SKL
	 * PRM vol. 7 "Alpha Coverage", quoted by Mesa, which then folds alpha
	 * to coverage into the oMask it writes) */
	bool a2c = d->st.alpha_to_coverage && !d->st.ps_disables_a2c && !omask;
	unsigned ns = d->st.ms.samples;
	struct vm_page_hold hold;
	vm_page_hold_init(&hold);
	uint64_t sub_off[4];
	unsigned sub_at = UINT32_MAX;
	bool sub_ok = false;
	for (unsigned i = 0; i < n; i++) {
		unsigned ch = first + i;                /* thread channel */
		if (!(enables >> i & 1) || ch >= px->count)
			continue;
		float src[4], src1[4] = { 0, 0, 0, 0 };
		for (unsigned c = 0; c < 4; c++) {
			if (sub == 1) {
				src[c] = reg_f(col[0][0], c);
				continue;
			}
			src[c] = reg_f(col[0][c] + (i / 8) * EU_REG_SIZE, i);
			if (nsrc == 2)
				src1[c] = reg_f(col[1][c] + (i / 8) * EU_REG_SIZE, i);
		}
		/* an antialiased line's or smooth point's coverage multiplies
		 * the alpha (raster_aa.c) before the alpha test and blending */
		float aa_cov = aa ? raster_aa_coverage(&j->prim.aa, px->x[ch] + 0.5,
						       px->y[ch] + 0.5) : 1.0f;
		src[3] *= aa_cov;
		/* alpha test and alpha to coverage on render target 0's alpha:
		 * source 0 alpha when the message carries it */
		float a0 = alpha0 ? reg_f(alpha0 + (i / 8) * EU_REG_SIZE, i) * aa_cov : src[3];
		if (d->st.alpha_test && !om_alpha_test(d->st.alpha_func, a0, d->st.alpha_ref))
			continue;
		uint32_t cov = px->cov[ch];
		if (a2c)
			cov &= om_alpha_to_coverage(a0, ns);
		if (omask) {                            /* oMask: 16 bits a pixel */
			uint16_t m;
			memcpy(&m, omask + 2 * ((first % 16) + i), 2);
			cov &= m;
		}
		if (d->st.alpha_to_one)
			src[3] = 1.0f;
		if (!d->early_depth && depth_test_enabled(&d->st)) {
			uint32_t passed = 0;
			for (unsigned s = 0; s < ns; s++) {
				if (!(cov >> s & 1))
					continue;
				float z = depth ? reg_f(depth + (i / 8) * EU_REG_SIZE, i) :
					ns == 1 || d->st.ms.per_sample ? px->z[ch] :
					wm_prim_z(&j->prim, px->x[ch] + wm_sample_x(&d->st, s),
						  px->y[ch] + wm_sample_y(&d->st, s));
				if (depth_stencil_sample(d, px->x[ch], px->y[ch], s, z,
							 j->prim.back_facing, stencil ? stencil[i] : -1))
					passed |= 1u << s;
			}
			cov = passed;
		}
		if (!cov)
			continue;
		if (last_rt)     /* REG_PS_DEPTH_COUNT: samples past the tests */
			j->depth_passed += bits_count32(cov);
		if (rt.null)
			continue;
		if (rt.mcs && rt_mcs_prepare(d, rt.sv, rt.slice, px->x[ch], px->y[ch]))
			return eu_thread_fault(t, "%s", wm_fault_text(d));
		if (rt.samples == 1) {         /* a single-sampled target: the pixel */
			unsigned q = ch & ~3u;     /* its subspan's offsets, once */
			if (q != sub_at) {
				sub_at = q;
				sub_ok = px->x[q] >= 0 && px->y[q] >= 0 &&
					 px->x[q + 3] == px->x[q] + 1 && px->y[q + 3] == px->y[q] + 1 &&
					 surface_view_subspan_offsets(&rt.v, (uint32_t)px->x[q],
								      (uint32_t)px->y[q], sub_off);
			}
			write_pixel(d, &rt, &rt.v, rti, px->x[ch], px->y[ch],
				    sub_ok ? &sub_off[ch & 3] : NULL, &hold, src, src1);
		}
		for (unsigned s = 0; rt.samples > 1 && s < rt.samples; s++)
			if (cov >> s & 1)
				write_pixel(d, &rt, &rt.sv[s], rti, px->x[ch], px->y[ch], NULL, &hold,
					    src, src1);
		if (wm_faulted(d))
			return eu_thread_fault(t, "%s", wm_fault_text(d));
	}
	return 0;
}
