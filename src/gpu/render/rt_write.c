/* The render target write message (PRM vol. 7 "Render Target Write",
 * data port render cache, SFID 5): descriptor bits 7:0 binding table
 * index, 10:8 message subtype (0 SIMD16, 1 SIMD16 replicated, 2/3 SIMD8
 * dual source, 4 SIMD8), 11 slot group, 12 last render target, 18:14
 * message type (12). Payload: an optional two-register header (M0.0 bit 11
 * source 0 alpha present, M0.2 render target index, M1.7 pixel enables),
 * source 0 alpha, oMask, the colour (R, G, B, A, one register per 8
 * pixels each), a second colour for dual source, then the computed depth.
 * Each enabled pixel is alpha-tested, blended with BLEND_STATE, logic-op'd,
 * masked and packed through the format module into the SURFACE_STATE
 * surface the binding table names. Writes outside the surface are dropped;
 * an unbound entry or a format the render cache cannot write is a fault. */
#include <string.h>

#include "common/trace.h"
#include "gpu/format/format.h"
#include "gpu/render/wm_draw.h"

#define RT_WRITE_MSG 12

struct rt_surface {
	struct om_surface s;
	const struct fmt_info *fi;
	bool null;
};


static int load_surface(struct wm_draw *d, struct eu_thread *t, unsigned bti,
			struct rt_surface *rt)
{
	const struct gt_vm *vm = &d->env->vm;
	if (d->rt_cache_bti == (int)bti) {   /* state cannot change within a draw */
		rt->s = d->rt_cache;
		rt->null = d->rt_cache_null;
		rt->fi = format_info(rt->s.format);
		return 0;
	}
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
	const struct cmd_desc *sd = cmd_struct_find(d->rs->info->gen, "RENDER_SURFACE_STATE");
	if (!sd)
		return eu_thread_fault(t, "RT write: no RENDER_SURFACE_STATE layout");
#define SS(name) cmd_field_get(sd, ss, name)
	uint32_t type = (uint32_t)SS("Surface Type");
	rt->null = type == 7;
	if (rt->null) {
		d->rt_cache_bti = (int)bti;
		d->rt_cache_null = true;
		d->rt_cache.format = 0;
		return 0;
	}
	if (type > 3)
		TRACE_STUB_ONCE("RT write: surface type %u written as 2D", type);
	uint32_t fmt = (uint32_t)SS("Surface Format");
	rt->fi = format_info(fmt);
	if (!rt->fi || !rt->fi->supported || rt->fi->bpe % 8 || rt->fi->bpe > 128 ||
	    rt->fi->kind != FMT_RGBA || !format_rt_supported(fmt, d->rs->info->gen))
		return eu_thread_fault(t, "RT write: surface format %u (%s) is not a render target "
				       "format", fmt, format_name(fmt));
	uint32_t lod = (uint32_t)SS("MIP Count / LOD");
	d->rt_layers[0] = (uint32_t)SS("Surface QPitch") * 4;
	d->rt_layers[1] = (uint32_t)SS("Depth");
	d->rt_layers[2] = (uint32_t)SS("Minimum Array Element");
	rt->s = (struct om_surface){
		.base = SS("Surface Base Address"),
		.width = (uint32_t)SS("Width") + 1,
		.height = (uint32_t)SS("Height") + 1,
		.pitch = (uint32_t)SS("Surface Pitch") + 1,
		.cpp = rt->fi->bpe / 8,
		.format = fmt,
		.tiling = (uint8_t)SS("Tile Mode"),
		.x_offset = (uint32_t)SS("X Offset") * 4,
		.y_offset = (uint32_t)SS("Y Offset") * 4,
	};
	static const uint32_t align[4] = { 4, 4, 8, 16 };   /* 0 is reserved */
	uint32_t halign = align[SS("Surface Horizontal Alignment") & 3];
	uint32_t valign = align[SS("Surface Vertical Alignment") & 3];
	d->rt_3d = (struct om_layout_3d){ .on = false };
	if (type == 2 && d->rs->info->gen == 8) {
		/* gen8 3D: each slice placed by the 3D layout (write_pixel) */
		d->rt_3d = (struct om_layout_3d){ .on = true, .w = rt->s.width, .h = rt->s.height,
			.d = (uint32_t)SS("Depth") + 1, .halign = halign, .valign = valign,
			.level = lod };
		uint32_t lx, ly;
		om_level_layout(rt->s.width, rt->s.height, halign, valign, lod, &lx, &ly,
				&rt->s.width, &rt->s.height);
	} else if (lod) {          /* the level's place in the 2D layout */
		uint32_t lx, ly;
		om_level_layout(rt->s.width, rt->s.height, halign, valign, lod, &lx, &ly,
				&rt->s.width, &rt->s.height);
		rt->s.x_offset += lx;
		rt->s.y_offset += ly;
	}
	if (rt->s.tiling == OM_TILE_W)
		return eu_thread_fault(t, "RT write: W-tiled render target");
	if (SS("Tiled Resource Mode"))                                /* gen9 Yf/Ys */
		return eu_thread_fault(t, "RT write: tiled resource mode %u (Yf/Ys tiling) is "
				       "not modelled", (unsigned)SS("Tiled Resource Mode"));
	if (d->st.ps.fast_clear && rt_fast_clear_setup(d, t, sd, ss, &rt->s, rt->fi))
		return -1;
#undef SS
	d->rt_cache_bti = (int)bti;
	d->rt_cache_null = false;
	d->rt_cache = rt->s;
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

/* The layer of s the current primitive writes: its Render Target Array
 * Index (past the surface's Depth: layer 0) from Minimum Array Element. */
static struct om_surface layer_of(const struct wm_draw *d, const struct om_surface *s)
{
	struct om_surface layer = *s;
	uint32_t rtai = d->prim.rt_array_index;
	if (rtai > d->rt_layers[1])
		rtai = 0;
	uint32_t slice = d->rt_layers[2] + rtai;
	if (d->rt_3d.on) {
		uint32_t sx, sy;
		om_3d_slice_origin(&d->rt_3d, slice, &sx, &sy);
		layer.x_offset += sx;
		layer.y_offset += sy;
	} else {
		layer.y_offset += slice * d->rt_layers[0];
	}
	return layer;
}

static void write_pixel(struct wm_draw *d, const struct rt_surface *rt, unsigned rti,
			int32_t x, int32_t y, const float src[4], const float src1[4])
{
	uint64_t off;
	struct om_surface layer = layer_of(d, &rt->s);
	if (x < 0 || y < 0 || !om_surface_offset(&layer, (uint32_t)x, (uint32_t)y, &off))
		return;                                    /* outside: dropped */
	const struct fmt_info *fi = rt->fi;
	const struct om_blend_rt *b = &d->st.rt_blend[rti];
	const struct gt_vm *vm = &d->env->vm;
	uint8_t old[16] = { 0 }, nv[16] = { 0 };
	uint64_t addr = rt->s.base + off;
	bool integer = format_is_integer(fi);
	bool need_old = (b->enable && !integer) || b->logic_enable || b->write_disable;
	if (need_old && vm_read(vm, addr, old, rt->s.cpp)) {
		wm_fault(d, "RT write: page fault reading 0x%llx", (unsigned long long)addr);
		return;
	}
	union fmt_value v[4];
	float c[4];
	memcpy(c, src, sizeof(c));
	bool unorm = fi->ch[0].type == FMT_T_UNORM, snorm = fi->ch[0].type == FMT_T_SNORM;
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
	if (format_pack(fi, v, nv)) {
		wm_fault(d, "RT write: cannot pack format %s", fi->name);
		return;
	}
	if (b->logic_enable) {
		for (unsigned i = 0; i < rt->s.cpp; i += 4) {
			uint32_t s32 = 0, d32 = 0, n = rt->s.cpp - i < 4 ? rt->s.cpp - i : 4;
			memcpy(&s32, nv + i, n);
			memcpy(&d32, old + i, n);
			s32 = om_logic_op(b->logic_op, s32, d32);
			memcpy(nv + i, &s32, n);
		}
	}
	if (b->write_disable) {
		merge_masked(fi, b->write_disable, old, nv);
		memcpy(nv, old, rt->s.cpp);
	}
	if (vm_write(vm, addr, nv, rt->s.cpp))
		wm_fault(d, "RT write: page fault writing 0x%llx", (unsigned long long)addr);
}

int rt_write_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg)
{
	struct wm_draw *d = ctx;
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
	uint32_t enables = msg->mask << (msg->group % 16);
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
		enables &= pm & 0xffff;
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
	if (k > msg->mlen || (sub == 1 ? !col[0][0] : !col[0][3]) || (nsrc == 2 && !col[1][3]))
		return eu_thread_fault(t, "RT write: mlen %u is short of the %u registers the "
				       "message needs", msg->mlen, k);
	if (sub > 4)
		return eu_thread_fault(t, "RT write: reserved message subtype %u", sub);
	(void)alpha0;
	(void)omask;

	struct rt_surface rt = { 0 };
	if (load_surface(d, t, bti, &rt))
		return -1;
	if (!d->have_rt0 && !rt.null) {
		d->rt0 = rt.s;
		d->have_rt0 = true;
	}
	const struct ps_pixels *px = &d->px;
	/* only lit pixels are written, never a subspan's helper pixels
	 * (ps_dispatch.c): the dispatch's pixel mask, also under a header */
	enables &= (uint32_t)((uint64_t)px->mask >> first);
	/* a resolve pass: the main surface already holds the resolved colours
	 * (rt_fast_clear.c), the PS output is not written */
	if (d->st.ps.resolve)
		return 0;
	struct om_surface fc_layer = layer_of(d, &rt.s);   /* a layer cleared at a time */
	for (unsigned i = 0; d->st.ps.fast_clear && !rt.null && i < n; i++) {
		unsigned ch = first + i;
		if ((enables >> i & 1) && ch < px->count &&
		    rt_fast_clear_block(d, &fc_layer, px->x[ch], px->y[ch]))
			return eu_thread_fault(t, "%s", d->rs->fault);
	}
	if (d->st.ps.fast_clear)
		return 0;
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
		/* alpha test and alpha to coverage (one sample: covered when
		 * alpha >= 1/2) on render target 0's alpha */
		if (d->st.alpha_test && !om_alpha_test(d->st.alpha_func, src[3], d->st.alpha_ref))
			continue;
		if (d->st.alpha_to_coverage && !(src[3] >= 0.5f))
			continue;
		if (d->st.alpha_to_one)
			src[3] = 1.0f;
		if (!d->early_depth && depth_test_enabled(&d->st)) {
			float z = depth ? reg_f(depth + (i / 8) * EU_REG_SIZE, i) : px->z[ch];
			if (!depth_stencil_pixel(d, px->x[ch], px->y[ch], z, d->prim.back_facing))
				continue;
		}
		if (last_rt)
			d->depth_passed++;      /* PS_DEPTH_COUNT: once per pixel */
		if (!rt.null)
			write_pixel(d, &rt, rti, px->x[ch], px->y[ch], src, src1);
		if (d->fault)
			return eu_thread_fault(t, "%s", d->rs->fault);
	}
	return 0;
}
