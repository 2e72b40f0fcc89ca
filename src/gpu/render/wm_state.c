/* The back end's state from the recorded 3DSTATE_* commands (PRM vol. 2a)
 * and the dynamic state they point to (SF_CLIP_VIEWPORT, CC_VIEWPORT,
 * SCISSOR_RECT, BLEND_STATE, COLOR_CALC_STATE), every field read through
 * the command tables by name. A command never sent reads as zeros. */
#include <string.h>

#include "common/trace.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/render/render_state.h"
#include "gpu/render/wm.h"

struct src {
	const struct cmd_desc *d;
	const uint32_t *dw;
	uint32_t len;
	bool present;              /* the command was recorded */
	uint32_t zero[17];
};

/* The recorded dwords of command `name`, or zeros. */
static void cmd_src(struct src *s, int gen, const struct cs_state *state, const char *name)
{
	s->d = cmd_find_name(gen, name);
	s->dw = NULL;
	if (s->d && state)
		s->dw = cs_state_get(state, s->d, &s->len);
	s->present = s->dw && s->d && s->len >= s->d->length;
	if (!s->present) {
		memset(s->zero, 0, sizeof(s->zero));
		s->dw = s->zero;
		s->len = 16;
	}
}

static uint64_t get(const struct src *s, const char *name)
{
	const struct cmd_field *f = s->d ? cmd_field_find(s->d, name) : NULL;
	return f ? cmd_field_value(f, s->dw, s->len, 0) : 0;
}

static float getf(const struct src *s, const char *name)
{
	uint32_t bits = (uint32_t)get(s, name);
	float f;
	memcpy(&f, &bits, 4);
	return f;
}

/* Fixed-point width fields (U3.8 and friends) as floats. */
static float get_fixed(const struct src *s, const char *name)
{
	const struct cmd_field *f = s->d ? cmd_field_find(s->d, name) : NULL;
	if (!f)
		return 0;
	return (float)cmd_field_value(f, s->dw, s->len, 0) / (float)(1u << f->frac);
}

/* A structure of dynamic state that reads as zeros. */
static void dyn_zero(struct src *s, struct render_state *rs, const char *name, uint32_t dwords)
{
	s->d = cmd_struct_find(rs->info->gen, name);
	memset(s->zero, 0, sizeof(s->zero));
	s->dw = s->zero;
	s->len = dwords;
}

/* A structure of dynamic state at Dynamic State Base + off. */
static int dyn_src(struct src *s, struct render_state *rs, const struct render_env *env,
		   const char *name, uint64_t off, uint32_t dwords)
{
	dyn_zero(s, rs, name, dwords);
	if (dwords > 17)
		return render_set_fault(rs, "%s: %u dwords", name, dwords);
	if (vm_read(&env->vm, rs->dynamic_base + off, s->zero, dwords * 4))
		return render_set_fault(rs, "page fault reading %s at 0x%llx", name,
					(unsigned long long)(rs->dynamic_base + off));
	return 0;
}

static void load_clip_sf(struct wm_state *w, int gen, const struct cs_state *st)
{
	struct src s;
	cmd_src(&s, gen, st, "3DSTATE_CLIP");
	uint32_t mode = (uint32_t)get(&s, "Clip Mode");
	w->clip.clip_enable = get(&s, "Clip Enable") && mode != 4;
	w->clip_stats = get(&s, "Statistics Enable");
	w->clip.z_01 = get(&s, "API Mode") == 1;
	w->xy_clip_enable = get(&s, "Guardband Clip Test Enable") ||
			    get(&s, "Viewport XY Clip Test Enable");
	w->clip.user_clip = (uint8_t)get(&s, "User Clip Distance Clip Test Enable Bitmask");
	w->clip.user_cull = (uint8_t)get(&s, "User Clip Distance Cull Test Enable Bitmask");
	w->persp_divide = !get(&s, "Perspective Divide Disable");
	if (mode == 3)             /* REJECT_ALL */
		w->cull_mode = 0xff;

	cmd_src(&s, gen, st, "3DSTATE_SF");
	w->viewport_transform = get(&s, "Viewport Transform Enable");
	w->line_width = get_fixed(&s, "Line Width");
	w->point_width = get_fixed(&s, "Point Width");
	w->point_width_from_state = get(&s, "Point Width Source");
	w->last_pixel = get(&s, "Last Pixel Enable");
	w->pv_tri = (uint8_t)get(&s, "Triangle Strip/List Provoking Vertex Select");
	w->pv_line = (uint8_t)get(&s, "Line Strip/List Provoking Vertex Select");
	w->pv_fan = (uint8_t)get(&s, "Triangle Fan Provoking Vertex Select");

	cmd_src(&s, gen, st, "3DSTATE_RASTER");
	if (w->cull_mode != 0xff)
		w->cull_mode = (uint8_t)get(&s, "Cull Mode");
	w->front_ccw = get(&s, "Front Winding");
	w->scissor_enable = get(&s, "Scissor Rectangle Enable");
	/* gen9 splits the Z clip test into near and far planes (SKL PRM
	 * vol. 2a, 3DSTATE_RASTER); gen8 has one bit for both */
	if (gen >= 9) {
		w->clip.z_near_test = get(&s, "Viewport Z Near Clip Test Enable");
		w->clip.z_far_test = get(&s, "Viewport Z Far Clip Test Enable");
	} else {
		w->clip.z_near_test = w->clip.z_far_test = get(&s, "Viewport Z Clip Test Enable");
	}
	if (get(&s, "Conservative Rasterization Enable"))           /* gen9 */
		TRACE_STUB_ONCE("3DSTATE_RASTER: conservative rasterization drawn as standard");
	w->depth_offset = get(&s, "Global Depth Offset Enable Solid");
	w->depth_offset_const = getf(&s, "Global Depth Offset Constant");
	w->depth_offset_scale = getf(&s, "Global Depth Offset Scale");
	w->depth_offset_clamp = getf(&s, "Global Depth Offset Clamp");

	cmd_src(&s, gen, st, "3DSTATE_DRAWING_RECTANGLE");
	w->draw_rect = (struct pixel_rect){
		(int32_t)get(&s, "Clipped Drawing Rectangle X Min"),
		(int32_t)get(&s, "Clipped Drawing Rectangle Y Min"),
		(int32_t)get(&s, "Clipped Drawing Rectangle X Max"),
		(int32_t)get(&s, "Clipped Drawing Rectangle Y Max"),
	};
	if (!s.present)            /* no drawing rectangle: no limit */
		w->draw_rect = (struct pixel_rect){ 0, 0, 16383, 16383 };
	w->origin_x = (int32_t)get(&s, "Drawing Rectangle Origin X");
	w->origin_y = (int32_t)get(&s, "Drawing Rectangle Origin Y");
}

/* Viewport i of SF_CLIP_VIEWPORT (16 dwords each), CC_VIEWPORT (2) and
 * SCISSOR_RECT (2). */
static int load_viewport(struct wm_state *w, struct render_state *rs,
			 const struct render_env *env, const struct cs_state *st, uint32_t i)
{
	int gen = rs->info->gen;
	struct src s, v;
	/* SF_CLIP_VIEWPORT is only fetched when the viewport transform or the
	 * guard band / viewport XY clip test needs it: Mesa's blorp draws its
	 * RECTLISTs with both off and never points at one. */
	if (w->viewport_transform || w->xy_clip_enable) {
		cmd_src(&s, gen, st, "3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP");
		if (dyn_src(&v, rs, env, "SF_CLIP_VIEWPORT",
			    get(&s, "SF Clip Viewport Pointer") + 64ull * i, 16))
			return -1;
	} else {
		dyn_zero(&v, rs, "SF_CLIP_VIEWPORT", 16);
	}
	struct viewport *vp = &w->vps[i];
	vp->m00 = getf(&v, "Viewport Matrix Element m00");
	vp->m11 = getf(&v, "Viewport Matrix Element m11");
	vp->m22 = getf(&v, "Viewport Matrix Element m22");
	vp->m30 = getf(&v, "Viewport Matrix Element m30");
	vp->m31 = getf(&v, "Viewport Matrix Element m31");
	vp->m32 = getf(&v, "Viewport Matrix Element m32");
	/* The guard band in NDC; an unprogrammed (zero) band clips nothing
	 * in x/y, and the rasterizer's rectangle does the rest. */
	float gb[4] = { getf(&v, "X Min Clip Guardband"), getf(&v, "X Max Clip Guardband"),
			getf(&v, "Y Min Clip Guardband"), getf(&v, "Y Max Clip Guardband") };
	w->gb_valid[i] = gb[0] < gb[1] && gb[2] < gb[3];
	memcpy(w->gbs[i], gb, sizeof(gb));

	cmd_src(&s, gen, st, "3DSTATE_VIEWPORT_STATE_POINTERS_CC");
	if (dyn_src(&v, rs, env, "CC_VIEWPORT", get(&s, "CC Viewport Pointer") + 8ull * i, 2))
		return -1;
	vp->zmin = getf(&v, "Minimum Depth");
	vp->zmax = getf(&v, "Maximum Depth");

	if (w->scissor_enable) {
		cmd_src(&s, gen, st, "3DSTATE_SCISSOR_STATE_POINTERS");
		if (dyn_src(&v, rs, env, "SCISSOR_RECT", get(&s, "Scissor Rect Pointer") + 8ull * i, 2))
			return -1;
		w->scissors[i] = (struct pixel_rect){
			(int32_t)get(&v, "Scissor Rectangle X Min"),
			(int32_t)get(&v, "Scissor Rectangle Y Min"),
			(int32_t)get(&v, "Scissor Rectangle X Max"),
			(int32_t)get(&v, "Scissor Rectangle Y Max"),
		};
	}
	return 0;
}

static int load_viewports(struct wm_state *w, struct render_state *rs,
			  const struct render_env *env, const struct cs_state *st)
{
	struct src s;
	cmd_src(&s, rs->info->gen, st, "3DSTATE_CLIP");
	w->num_vp = (uint32_t)get(&s, "Maximum VP Index") + 1;
	if (w->num_vp > WM_MAX_VIEWPORTS)
		w->num_vp = WM_MAX_VIEWPORTS;
	for (uint32_t i = 0; i < w->num_vp; i++)
		if (load_viewport(w, rs, env, st, i))
			return -1;
	w->vp = w->vps[0];
	w->scissor = w->scissors[0];
	w->clip.xy_test = w->xy_clip_enable && w->gb_valid[0];
	memcpy(w->clip.gb, w->gbs[0], sizeof(w->clip.gb));
	return 0;
}

static void load_sbe(struct wm_state *w, int gen, const struct cs_state *st)
{
	struct src s;
	cmd_src(&s, gen, st, "3DSTATE_SBE");
	struct sbe_state *b = &w->sbe;
	b->read_offset = (uint32_t)get(&s, "Vertex URB Entry Read Offset");
	b->read_length = (uint32_t)get(&s, "Vertex URB Entry Read Length");
	b->num_attrs = (uint32_t)get(&s, "Number of SF Output Attributes");
	b->swizzle_enable = get(&s, "Attribute Swizzle Enable");
	b->const_interp = (uint32_t)get(&s, "Constant Interpolation Enable");
	b->point_sprite = (uint32_t)get(&s, "Point Sprite Texture Coordinate Enable");
	b->sprite_lower_left = get(&s, "Point Sprite Texture Coordinate Origin");
	cmd_src(&s, gen, st, "3DSTATE_SBE_SWIZ");
	const struct cmd_field *f = s.d ? cmd_field_find(s.d, "Attribute") : NULL;
	for (uint32_t i = 0; i < 16 && f; i++)
		b->swiz[i] = (uint16_t)cmd_field_value(f, s.dw, s.len, i);
}

static void load_wm_ps(struct wm_state *w, int gen, const struct cs_state *st)
{
	struct src s;
	cmd_src(&s, gen, st, "3DSTATE_WM");
	w->bary_modes = (uint32_t)get(&s, "Barycentric Interpolation Mode");
	w->early_ds = (uint32_t)get(&s, "Early Depth/Stencil Control");
	w->wm_stats = get(&s, "Statistics Enable");
	w->force_dispatch = (uint32_t)get(&s, "Force Thread Dispatch Enable");
	w->force_kill = (uint32_t)get(&s, "Force Kill Pixel Enable");

	struct ps_state *p = &w->ps;
	cmd_src(&s, gen, st, "3DSTATE_PS");
	p->ksp[0] = get(&s, "Kernel Start Pointer 0");
	p->ksp[1] = get(&s, "Kernel Start Pointer 1");
	p->ksp[2] = get(&s, "Kernel Start Pointer 2");
	p->simd8 = get(&s, "8 Pixel Dispatch Enable");
	p->simd16 = get(&s, "16 Pixel Dispatch Enable");
	p->simd32 = get(&s, "32 Pixel Dispatch Enable");
	p->grf_start[0] = (uint32_t)get(&s, "Dispatch GRF Start Register For Constant/Setup Data 0");
	p->grf_start[1] = (uint32_t)get(&s, "Dispatch GRF Start Register For Constant/Setup Data 1");
	p->grf_start[2] = (uint32_t)get(&s, "Dispatch GRF Start Register For Constant/Setup Data 2");
	p->binding_table_entries = (uint32_t)get(&s, "Binding Table Entry Count");
	p->sampler_count = (uint32_t)get(&s, "Sampler Count");
	p->scratch_space = (uint32_t)get(&s, "Per Thread Scratch Space");
	p->scratch_base = get(&s, "Scratch Space Base Pointer");
	p->push_constants = get(&s, "Push Constant Enable");
	p->pos_offset = (uint32_t)get(&s, "Position XY Offset Select");
	p->fast_clear = get(&s, "Render Target Fast Clear Enable");
	p->resolve = get(&s, gen >= 9 ? "Render Target Resolve Type" : "Render Target Resolve Enable");

	cmd_src(&s, gen, st, "3DSTATE_PS_EXTRA");
	p->valid = get(&s, "Pixel Shader Valid");
	p->kills = get(&s, "Pixel Shader Kills Pixel");
	p->uses_depth = get(&s, "Pixel Shader Uses Source Depth");
	p->uses_w = get(&s, "Pixel Shader Uses Source W");
	/* gen9: Input Coverage Mask State, non-zero when the PS reads it */
	p->uses_coverage = gen >= 9 ? get(&s, "Input Coverage Mask State") != 0 :
		get(&s, "Pixel Shader Uses Input Coverage Mask");
	p->omask = get(&s, "oMask Present to Render Target");
	p->no_rt_write = get(&s, "Pixel Shader Does not write to RT");
	p->computed_depth = (uint32_t)get(&s, "Pixel Shader Computed Depth Mode");
	if (get(&s, "Pixel Shader Computes Stencil"))                /* gen9 */
		TRACE_STUB_ONCE("3DSTATE_PS_EXTRA: the PS's computed stencil is ignored");

	cmd_src(&s, gen, st, "3DSTATE_CONSTANT_PS");
	memset(p->const_len, 0, sizeof(p->const_len));
	const struct cmd_field *body = s.d ? cmd_field_find(s.d, "Constant Body") : NULL;
	if (body && body->sub && body->start % 32 == 0) {
		const struct cmd_desc *b = body->sub;
		const struct cmd_field *rl = cmd_field_find(b, "Read Length");
		const struct cmd_field *buf = cmd_field_find(b, "Buffer");
		uint32_t first = body->start / 32;
		for (uint32_t i = 0; i < 4 && rl && buf && first < s.len; i++) {
			p->const_len[i] = (uint32_t)cmd_field_value(rl, s.dw + first, s.len - first, i);
			p->const_addr[i] = cmd_field_value(buf, s.dw + first, s.len - first, i);
		}
	}
}

static int load_blend_cc(struct wm_state *w, struct render_state *rs,
			 const struct render_env *env, const struct cs_state *st)
{
	int gen = rs->info->gen;
	struct src s, v;
	cmd_src(&s, gen, st, "3DSTATE_CC_STATE_POINTERS");
	if (dyn_src(&v, rs, env, "COLOR_CALC_STATE", get(&s, "Color Calc State Pointer"), 6))
		return -1;
	if (gen < 9) {             /* gen9: in 3DSTATE_WM_DEPTH_STENCIL */
		w->ds.sref = (uint8_t)get(&v, "Stencil Reference Value");
		w->ds.bsref = (uint8_t)get(&v, "Backface Stencil Reference Value");
	}
	/* Alpha Test Format: 0 ALPHATEST_UNORM8, 1 ALPHATEST_FLOAT32 */
	w->alpha_test_unorm8 = get(&v, "Alpha Test Format") == 0;
	w->alpha_ref = w->alpha_test_unorm8 ? (float)(get(&v, "Alpha Reference Value As UNORM8") & 255) / 255.0f
					    : getf(&v, "Alpha Reference Value As FLOAT32");
	w->blend_constant[0] = getf(&v, "Blend Constant Color Red");
	w->blend_constant[1] = getf(&v, "Blend Constant Color Green");
	w->blend_constant[2] = getf(&v, "Blend Constant Color Blue");
	w->blend_constant[3] = getf(&v, "Blend Constant Color Alpha");

	/* BLEND_STATE: one dword, then two per render target */
	cmd_src(&s, gen, st, "3DSTATE_BLEND_STATE_POINTERS");
	if (dyn_src(&v, rs, env, "BLEND_STATE", get(&s, "Blend State Pointer"), 1 + 2 * WM_MAX_RT))
		return -1;
	w->alpha_to_coverage = get(&v, "Alpha To Coverage Enable");
	w->alpha_to_one = get(&v, "Alpha To One Enable");
	w->alpha_test = get(&v, "Alpha Test Enable");
	w->alpha_func = (uint8_t)get(&v, "Alpha Test Function");
	w->independent_alpha = get(&v, "Independent Alpha Blend Enable");
	const struct cmd_desc *ed = cmd_struct_find(gen, "BLEND_STATE_ENTRY");
	for (int i = 0; i < WM_MAX_RT && ed; i++) {
		struct src e = { .d = ed, .dw = v.dw + 1 + 2 * i, .len = 2 };
		struct om_blend_rt *b = &w->rt_blend[i];
		b->enable = get(&e, "Color Buffer Blend Enable");
		b->src = (uint8_t)get(&e, "Source Blend Factor");
		b->dst = (uint8_t)get(&e, "Destination Blend Factor");
		b->func = (uint8_t)get(&e, "Color Blend Function");
		b->src_a = (uint8_t)get(&e, "Source Alpha Blend Factor");
		b->dst_a = (uint8_t)get(&e, "Destination Alpha Blend Factor");
		b->func_a = (uint8_t)get(&e, "Alpha Blend Function");
		if (!w->independent_alpha) {
			b->src_a = b->src;
			b->dst_a = b->dst;
			b->func_a = b->func;
		}
		b->pre_clamp = get(&e, "Pre-Blend Color Clamp Enable");
		b->post_clamp = get(&e, "Post-Blend Color Clamp Enable");
		b->clamp_range = (uint8_t)get(&e, "Color Clamp Range");
		b->logic_enable = get(&e, "Logic Op Enable");
		b->logic_op = (uint8_t)get(&e, "Logic Op Function");
		b->write_disable = (uint8_t)(get(&e, "Write Disable Red") |
					     get(&e, "Write Disable Green") << 1 |
					     get(&e, "Write Disable Blue") << 2 |
					     get(&e, "Write Disable Alpha") << 3);
	}
	return 0;
}

int wm_depth_state_load(struct depth_state *d, int gen, const struct cs_state *st, char *why)
{
	struct src s;
	cmd_src(&s, gen, st, "3DSTATE_WM_DEPTH_STENCIL");
	d->test = get(&s, "Depth Test Enable");
	d->write = get(&s, "Depth Buffer Write Enable");
	d->func = (uint8_t)get(&s, "Depth Test Function");
	d->stencil_test = get(&s, "Stencil Test Enable");
	d->stencil_write = get(&s, "Stencil Buffer Write Enable");
	d->double_sided = get(&s, "Double Sided Stencil Enable");
	d->sfunc = (uint8_t)get(&s, "Stencil Test Function");
	d->sfail = (uint8_t)get(&s, "Stencil Fail Op");
	d->szfail = (uint8_t)get(&s, "Stencil Pass Depth Fail Op");
	d->szpass = (uint8_t)get(&s, "Stencil Pass Depth Pass Op");
	d->bfunc = (uint8_t)get(&s, "Backface Stencil Test Function");
	d->bfail = (uint8_t)get(&s, "Backface Stencil Fail Op");
	d->bzfail = (uint8_t)get(&s, "Backface Stencil Pass Depth Fail Op");
	d->bzpass = (uint8_t)get(&s, "Backface Stencil Pass Depth Pass Op");
	d->smask = (uint8_t)get(&s, "Stencil Test Mask");
	d->swmask = (uint8_t)get(&s, "Stencil Write Mask");
	d->bsmask = (uint8_t)get(&s, "Backface Stencil Test Mask");
	d->bswmask = (uint8_t)get(&s, "Backface Stencil Write Mask");
	if (gen >= 9) {
		/* gen9 moved the reference values here from COLOR_CALC_STATE
		 * (SKL PRM vol. 2d, 3DSTATE_WM_DEPTH_STENCIL DWord 3) */
		d->sref = (uint8_t)get(&s, "Stencil Reference Value");
		d->bsref = (uint8_t)get(&s, "Backface Stencil Reference Value");
	}

	/* 3DSTATE_DEPTH_BUFFER (Y-major) and 3DSTATE_STENCIL_BUFFER (separate,
	 * W-major): views of their level and layer from the surface module */
	struct cmd_3DSTATE_DEPTH_BUFFER db;
	struct cmd_3DSTATE_STENCIL_BUFFER sb;
	cmd_src(&s, gen, st, "3DSTATE_DEPTH_BUFFER");
	cmd_3DSTATE_DEPTH_BUFFER_unpack(gen, s.dw, s.len, &db);
	cmd_src(&s, gen, st, "3DSTATE_STENCIL_BUFFER");
	cmd_3DSTATE_STENCIL_BUFFER_unpack(gen, s.dw, s.len, &sb);
	d->has_depth = db.surface_type != 7 && db.surface_base_address;
	d->depth_format = db.surface_format;
	d->depth_buffer_write = db.depth_write_enable;
	d->has_stencil = sb.stencil_buffer_enable && sb.surface_base_address;
	if ((d->has_depth && surface_depth_view(gen, &db, &d->depth, why)) ||
	    (d->has_stencil && surface_stencil_view(gen, &db, &sb, &d->stencil, why)))
		return -1;
	d->stencil_buffer_write = true;
	cmd_src(&s, gen, st, "3DSTATE_CLEAR_PARAMS");
	d->clear_value = getf(&s, "Depth Clear Value");
	d->clear_valid = get(&s, "Depth Clear Value Valid");
	return 0;
}

int wm_state_load(struct wm_state *w, struct render_state *rs, const struct render_env *env,
		  const struct cs_state *state)
{
	int gen = rs->info->gen;
	memset(w, 0, sizeof(*w));
	load_clip_sf(w, gen, state);
	if (load_viewports(w, rs, env, state))
		return -1;
	load_sbe(w, gen, state);
	load_wm_ps(w, gen, state);
	if (load_blend_cc(w, rs, env, state))
		return -1;
	char why[160];
	if (wm_depth_state_load(&w->ds, gen, state, why))
		return render_set_fault(rs, "depth/stencil buffer: %s", why);
	w->surface_base = rs->surface_base;
	w->binding_table = rs->surface_base + rs->binding_table[RS_PS];
	return 0;
}
