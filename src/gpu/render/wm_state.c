/* The back end's state from the recorded 3DSTATE_* commands (PRM vol. 2a)
 * and the dynamic state they point to (SF_CLIP_VIEWPORT, CC_VIEWPORT,
 * SCISSOR_RECT, BLEND_STATE, COLOR_CALC_STATE), every one unpacked into
 * its typed struct (gpu/cmd/cmd_structs.h). A command never sent reads as
 * zeros. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/render/recorded.h"
#include "gpu/render/render_state.h"
#include "gpu/render/wm.h"

RENDER_RECORDED(3DSTATE_CLIP)
RENDER_RECORDED(3DSTATE_VS)
RENDER_RECORDED(3DSTATE_DS)
RENDER_RECORDED(3DSTATE_GS)
RENDER_RECORDED(3DSTATE_SF)
RENDER_RECORDED(3DSTATE_RASTER)
RENDER_RECORDED(3DSTATE_DRAWING_RECTANGLE)
RENDER_RECORDED(3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP)
RENDER_RECORDED(3DSTATE_VIEWPORT_STATE_POINTERS_CC)
RENDER_RECORDED(3DSTATE_SCISSOR_STATE_POINTERS)
RENDER_RECORDED(3DSTATE_SBE)
RENDER_RECORDED(3DSTATE_SBE_SWIZ)
RENDER_RECORDED(3DSTATE_WM)
RENDER_RECORDED(3DSTATE_PS)
RENDER_RECORDED(3DSTATE_PS_EXTRA)
RENDER_RECORDED(3DSTATE_CONSTANT_PS)
RENDER_RECORDED(3DSTATE_CC_STATE_POINTERS)
RENDER_RECORDED(3DSTATE_BLEND_STATE_POINTERS)
RENDER_RECORDED(3DSTATE_WM_DEPTH_STENCIL)
RENDER_RECORDED(3DSTATE_DEPTH_BUFFER)
RENDER_RECORDED(3DSTATE_STENCIL_BUFFER)
RENDER_RECORDED(3DSTATE_CLEAR_PARAMS)
RENDER_RECORDED(3DSTATE_MULTISAMPLE)
RENDER_RECORDED(3DSTATE_SAMPLE_PATTERN)
RENDER_RECORDED(3DSTATE_SAMPLE_MASK)
RENDER_RECORDED(3DSTATE_AA_LINE_PARAMETERS)

#define BLEND_STATE_DWORDS (1 + 2 * WM_MAX_RT) /* one dword, two per RT */

/* n dwords of dynamic state at Dynamic State Base + off (what names it
 * in the fault). */
static int dyn_read(struct render_state *rs, const struct render_env *env, const char *what,
		    uint64_t off, uint32_t *dw, uint32_t n)
{
	if (vm_read(&env->vm, rs->sba.dynamic + off, dw, n * 4))
		return render_set_fault(rs, "page fault reading %s at 0x%llx", what,
					(unsigned long long)(rs->sba.dynamic + off));
	return 0;
}

/* The user clip distance tests (PRM vol. 2a 3DSTATE_CLIP, "Force User
 * Clip Distance Clip/Cull Test Enable Bitmask"): each bitmask is the last
 * enabled geometry stage's (3DSTATE_GS, else 3DSTATE_DS, else 3DSTATE_VS)
 * unless 3DSTATE_CLIP forces its own. iris forces the clip mask (GL's
 * enabled clip planes) and leaves the cull mask to the stage; anv forces
 * neither. */
static void load_user_clip(struct wm_state *w, int gen, const struct cs_state *st,
			   const struct cmd_3DSTATE_CLIP *clip)
{
	uint32_t stage_clip, stage_cull;
	struct cmd_3DSTATE_GS gs;
	struct cmd_3DSTATE_DS ds;
	struct cmd_3DSTATE_VS vs;
	if (recorded_3DSTATE_GS(gen, st, &gs) && gs.enable) {
		stage_clip = gs.user_clip_distance_clip_test_enable_bitmask;
		stage_cull = gs.user_clip_distance_cull_test_enable_bitmask;
	} else if (recorded_3DSTATE_DS(gen, st, &ds) && ds.enable) {
		stage_clip = ds.user_clip_distance_clip_test_enable_bitmask;
		stage_cull = ds.user_clip_distance_cull_test_enable_bitmask;
	} else {
		recorded_3DSTATE_VS(gen, st, &vs);
		stage_clip = vs.user_clip_distance_clip_test_enable_bitmask;
		stage_cull = vs.user_clip_distance_cull_test_enable_bitmask;
	}
	w->clip.user_clip = (uint8_t)(clip->force_user_clip_distance_clip_test_enable_bitmask ?
				      clip->user_clip_distance_clip_test_enable_bitmask : stage_clip);
	w->clip.user_cull = (uint8_t)(clip->force_user_clip_distance_cull_test_enable_bitmask ?
				      clip->user_clip_distance_cull_test_enable_bitmask : stage_cull);
}

/* Returns -1 with why set for state gtsim does not model. */
static int load_clip_sf(struct wm_state *w, int gen, const struct cs_state *st, char *why)
{
	struct cmd_3DSTATE_CLIP clip;
	recorded_3DSTATE_CLIP(gen, st, &clip);
	w->clip.clip_enable = clip.clip_enable && clip.clip_mode != 4;
	w->clip_stats = clip.statistics_enable;
	w->clip.z_01 = clip.api_mode == 1;
	w->xy_clip_enable = clip.guardband_clip_test_enable || clip.viewport_xy_clip_test_enable;
	load_user_clip(w, gen, st, &clip);
	w->force_zero_rtai = clip.force_zero_rta_index_enable;
	w->persp_divide = !clip.perspective_divide_disable;
	if (clip.clip_mode == 3)   /* REJECT_ALL */
		w->cull_mode = 0xff;

	/* Line Width is U3.7 (gen8) / U11.7 (gen9), Point Width U8.3 (PRM
	 * vol. 2a, 3DSTATE_SF) */
	struct cmd_3DSTATE_SF sf;
	recorded_3DSTATE_SF(gen, st, &sf);
	w->viewport_transform = sf.viewport_transform_enable;
	w->line_width = (float)sf.line_width / 128.0f;
	w->point_width = (float)sf.point_width / 8.0f;
	w->point_width_from_state = sf.point_width_source;
	w->last_pixel = sf.last_pixel_enable;
	w->smooth_points = sf.smooth_point_enable;
	/* region widths: 0.5, 1, 2, 4 pixels */
	w->aa_cap_region = 0.5f * (float)(1u << (sf.line_end_cap_antialiasing_region_width & 3));
	w->aa_distance_true = sf.aa_line_distance_mode;
	struct cmd_3DSTATE_AA_LINE_PARAMETERS aap;
	recorded_3DSTATE_AA_LINE_PARAMETERS(gen, st, &aap);
	w->aa_params_legacy = !(aap.aa_coverage_slope | aap.aa_coverage_bias |
				aap.aa_coverage_endcap_slope | aap.aa_coverage_endcap_bias |
				aap.aa_point_coverage_slope | aap.aa_point_coverage_bias |
				aap.aa_point_coverage_endcap_slope |
				aap.aa_point_coverage_endcap_bias);
	w->pv_tri = (uint8_t)sf.triangle_strip_list_provoking_vertex_select;
	w->pv_line = (uint8_t)sf.line_strip_list_provoking_vertex_select;
	w->pv_fan = (uint8_t)sf.triangle_fan_provoking_vertex_select;

	struct cmd_3DSTATE_RASTER r;
	recorded_3DSTATE_RASTER(gen, st, &r);
	if (w->cull_mode != 0xff)
		w->cull_mode = (uint8_t)r.cull_mode;
	w->front_ccw = r.front_winding;
	w->scissor_enable = r.scissor_rectangle_enable;
	/* gen9 splits the Z clip test into near and far planes (SKL PRM
	 * vol. 2a, 3DSTATE_RASTER); gen8 has one bit for both */
	if (gen >= 9) {
		w->clip.z_near_test = r.viewport_z_near_clip_test_enable;
		w->clip.z_far_test = r.viewport_z_far_clip_test_enable;
	} else {
		w->clip.z_near_test = w->clip.z_far_test = r.viewport_z_clip_test_enable;
	}
	if (r.conservative_rasterization_enable) {                  /* gen9 */
		snprintf(why, 160, "3DSTATE_RASTER: conservative rasterization is not modelled");
		return -1;
	}
	w->fill_front = (uint8_t)r.front_face_fill_mode;
	w->fill_back = (uint8_t)r.back_face_fill_mode;
	w->aa_lines = r.antialiasing_enable;
	w->smooth_points |= r.smooth_point_enable;
	w->depth_offset = r.global_depth_offset_enable_solid;
	w->depth_offset_wire = r.global_depth_offset_enable_wireframe;
	w->depth_offset_point = r.global_depth_offset_enable_point;
	w->depth_offset_const = r.global_depth_offset_constant;
	w->depth_offset_scale = r.global_depth_offset_scale;
	w->depth_offset_clamp = r.global_depth_offset_clamp;

	struct cmd_3DSTATE_DRAWING_RECTANGLE dr;
	if (recorded_3DSTATE_DRAWING_RECTANGLE(gen, st, &dr))
		w->draw_rect = (struct pixel_rect){
			(int32_t)dr.clipped_drawing_rectangle_x_min,
			(int32_t)dr.clipped_drawing_rectangle_y_min,
			(int32_t)dr.clipped_drawing_rectangle_x_max,
			(int32_t)dr.clipped_drawing_rectangle_y_max,
		};
	else                       /* no drawing rectangle: no limit */
		w->draw_rect = (struct pixel_rect){ 0, 0, 16383, 16383 };
	w->origin_x = dr.drawing_rectangle_origin_x;
	w->origin_y = dr.drawing_rectangle_origin_y;
	return 0;
}

/* The integer pixel coordinates x with x >= f (min) or x <= f (max). */
static int32_t pixel_bound(float f, bool min)
{
	if (!(f > -32768.0f))
		return min ? -32768 : -32769;
	if (f > 32767.0f)
		return min ? 32768 : 32767;
	return (int32_t)(min ? ceilf(f) : floorf(f));
}

/* Viewport i of SF_CLIP_VIEWPORT (16 dwords each), CC_VIEWPORT (2) and
 * SCISSOR_RECT (2). */
static int load_viewport(struct wm_state *w, struct render_state *rs,
			 const struct render_env *env, const struct cs_state *st, uint32_t i)
{
	int gen = rs->info->gen;
	uint32_t dw[16] = { 0 };
	/* SF_CLIP_VIEWPORT is only fetched when the viewport transform or the
	 * guard band / viewport XY clip test needs it: Mesa's blorp draws its
	 * RECTLISTs with both off and never points at one. */
	w->vp_extents_valid = w->viewport_transform || w->xy_clip_enable;
	if (w->vp_extents_valid) {
		struct cmd_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP p;
		recorded_3DSTATE_VIEWPORT_STATE_POINTERS_SF_CLIP(gen, st, &p);
		if (dyn_read(rs, env, "SF_CLIP_VIEWPORT", p.sf_clip_viewport_pointer + 64ull * i,
			     dw, 16))
			return -1;
	}
	struct cmd_SF_CLIP_VIEWPORT sfv;
	cmd_SF_CLIP_VIEWPORT_unpack(gen, dw, 16, &sfv);
	struct viewport *vp = &w->vps[i];
	vp->m00 = sfv.viewport_matrix_element_m00;
	vp->m11 = sfv.viewport_matrix_element_m11;
	vp->m22 = sfv.viewport_matrix_element_m22;
	vp->m30 = sfv.viewport_matrix_element_m30;
	vp->m31 = sfv.viewport_matrix_element_m31;
	vp->m32 = sfv.viewport_matrix_element_m32;
	/* The guard band in NDC; an unprogrammed (zero) band clips nothing
	 * in x/y, and the rasterizer's rectangle does the rest. */
	float gb[4] = { sfv.x_min_clip_guardband, sfv.x_max_clip_guardband,
			sfv.y_min_clip_guardband, sfv.y_max_clip_guardband };
	w->gb_valid[i] = gb[0] < gb[1] && gb[2] < gb[3];
	memcpy(w->gbs[i], gb, sizeof(gb));
	/* The viewport's extents in screen space (DWords 12-15, inclusive):
	 * the guard band lets a triangle's pixels beyond the viewport through
	 * the clipper, these keep them out (iris and anv program them to the
	 * viewport within the framebuffer). A pixel (x, y) is inside when
	 * X Min <= x <= X Max and Y Min <= y <= Y Max. */
	w->vp_extents[i] = (struct pixel_rect){
		pixel_bound(sfv.x_min_viewport, true), pixel_bound(sfv.y_min_viewport, true),
		pixel_bound(sfv.x_max_viewport, false), pixel_bound(sfv.y_max_viewport, false),
	};

	struct cmd_3DSTATE_VIEWPORT_STATE_POINTERS_CC pcc;
	recorded_3DSTATE_VIEWPORT_STATE_POINTERS_CC(gen, st, &pcc);
	if (dyn_read(rs, env, "CC_VIEWPORT", pcc.cc_viewport_pointer + 8ull * i, dw, 2))
		return -1;
	struct cmd_CC_VIEWPORT cc;
	cmd_CC_VIEWPORT_unpack(gen, dw, 2, &cc);
	vp->zmin = cc.minimum_depth;
	vp->zmax = cc.maximum_depth;

	if (w->scissor_enable) {
		struct cmd_3DSTATE_SCISSOR_STATE_POINTERS ps;
		recorded_3DSTATE_SCISSOR_STATE_POINTERS(gen, st, &ps);
		if (dyn_read(rs, env, "SCISSOR_RECT", ps.scissor_rect_pointer + 8ull * i, dw, 2))
			return -1;
		struct cmd_SCISSOR_RECT sr;
		cmd_SCISSOR_RECT_unpack(gen, dw, 2, &sr);
		w->scissors[i] = (struct pixel_rect){
			(int32_t)sr.scissor_rectangle_x_min, (int32_t)sr.scissor_rectangle_y_min,
			(int32_t)sr.scissor_rectangle_x_max, (int32_t)sr.scissor_rectangle_y_max,
		};
	}
	return 0;
}

static int load_viewports(struct wm_state *w, struct render_state *rs,
			  const struct render_env *env, const struct cs_state *st)
{
	struct cmd_3DSTATE_CLIP clip;
	recorded_3DSTATE_CLIP(rs->info->gen, st, &clip);
	w->num_vp = clip.maximum_vp_index + 1;
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

/* Returns -1 with why set for state gtsim does not model. */
static int load_sbe(struct wm_state *w, int gen, const struct cs_state *st, char *why)
{
	struct cmd_3DSTATE_SBE sbe;
	recorded_3DSTATE_SBE(gen, st, &sbe);
	struct sbe_state *b = &w->sbe;
	b->read_offset = sbe.vertex_urb_entry_read_offset;
	b->read_length = sbe.vertex_urb_entry_read_length;
	b->num_attrs = sbe.number_of_sf_output_attributes;
	b->swizzle_enable = sbe.attribute_swizzle_enable;
	b->const_interp = sbe.constant_interpolation_enable;
	b->point_sprite = sbe.point_sprite_texture_coordinate_enable;
	b->sprite_lower_left = sbe.point_sprite_texture_coordinate_origin;
	b->prim_id_attr = sbe.primitive_id_override_attribute_select;
	b->prim_id_comps = (uint8_t)(sbe.primitive_id_override_component_x |
				     sbe.primitive_id_override_component_y << 1 |
				     sbe.primitive_id_override_component_z << 2 |
				     sbe.primitive_id_override_component_w << 3);
	struct cmd_3DSTATE_SBE_SWIZ swiz;
	recorded_3DSTATE_SBE_SWIZ(gen, st, &swiz);
	memcpy(b->swiz, swiz.attribute, sizeof(b->swiz));
	/* INPUTATTR_W and INPUTATTR_FACING_W (2, 3): no driver here emits
	 * them and gtsim has no source for what they put in W */
	for (unsigned k = 0; b->swizzle_enable && k < 16 && k < b->num_attrs; k++)
		if (b->swiz[k].swizzle_select >= 2) {
			snprintf(why, 160, "3DSTATE_SBE_SWIZ: attribute %u's swizzle select %u "
				 "(INPUTATTR_W/INPUTATTR_FACING_W) is not modelled", k,
				 (unsigned)b->swiz[k].swizzle_select);
			return -1;
		}
	return 0;
}

static void load_wm_ps(struct wm_state *w, int gen, const struct cs_state *st)
{
	struct cmd_3DSTATE_WM wm;
	recorded_3DSTATE_WM(gen, st, &wm);
	w->bary_modes = wm.barycentric_interpolation_mode;
	w->early_ds = wm.early_depth_stencil_control;
	w->wm_stats = wm.statistics_enable;
	w->force_dispatch = wm.force_thread_dispatch_enable;
	w->line_stipple = wm.line_stipple_enable;
	w->aa_region = 0.5f * (float)(1u << (wm.line_antialiasing_region_width & 3));
	w->force_kill = wm.force_kill_pixel_enable;

	struct ps_state *p = &w->ps;
	struct cmd_3DSTATE_PS ps;
	recorded_3DSTATE_PS(gen, st, &ps);
	p->ksp[0] = ps.kernel_start_pointer_0;
	p->ksp[1] = ps.kernel_start_pointer_1;
	p->ksp[2] = ps.kernel_start_pointer_2;
	p->simd8 = ps._8_pixel_dispatch_enable;
	p->simd16 = ps._16_pixel_dispatch_enable;
	p->simd32 = ps._32_pixel_dispatch_enable;
	p->grf_start[0] = ps.dispatch_grf_start_register_for_constant_setup_data_0;
	p->grf_start[1] = ps.dispatch_grf_start_register_for_constant_setup_data_1;
	p->grf_start[2] = ps.dispatch_grf_start_register_for_constant_setup_data_2;
	p->binding_table_entries = ps.binding_table_entry_count;
	p->sampler_count = ps.sampler_count;
	p->scratch_space = ps.per_thread_scratch_space;
	p->scratch_base = ps.scratch_space_base_pointer;
	p->push_constants = ps.push_constant_enable;
	p->pos_offset = ps.position_xy_offset_select;
	p->fast_clear = ps.render_target_fast_clear_enable;
	p->resolve = gen >= 9 ? ps.render_target_resolve_type != 0 : ps.render_target_resolve_enable;

	struct cmd_3DSTATE_PS_EXTRA x;
	recorded_3DSTATE_PS_EXTRA(gen, st, &x);
	p->valid = x.pixel_shader_valid;
	p->kills = x.pixel_shader_kills_pixel;
	p->uses_depth = x.pixel_shader_uses_source_depth;
	p->uses_w = x.pixel_shader_uses_source_w;
	/* gen9: Input Coverage Mask State, non-zero when the PS reads it */
	p->uses_coverage = gen >= 9 ? x.input_coverage_mask_state != 0 :
		x.pixel_shader_uses_input_coverage_mask;
	p->omask = x.omask_present_to_render_target;
	p->no_rt_write = x.pixel_shader_does_not_write_to_rt;
	p->computed_depth = x.pixel_shader_computed_depth_mode;
	p->computed_stencil = gen >= 9 && x.pixel_shader_computes_stencil;

	struct cmd_3DSTATE_CONSTANT_PS c;
	recorded_3DSTATE_CONSTANT_PS(gen, st, &c);
	for (int i = 0; i < 4; i++) {
		p->const_len[i] = c.constant_body.read_length[i];
		p->const_addr[i] = c.constant_body.buffer[i];
	}
}

static int load_blend_cc(struct wm_state *w, struct render_state *rs,
			 const struct render_env *env, const struct cs_state *st)
{
	int gen = rs->info->gen;
	uint32_t dw[BLEND_STATE_DWORDS] = { 0 };
	struct cmd_3DSTATE_CC_STATE_POINTERS pcc;
	recorded_3DSTATE_CC_STATE_POINTERS(gen, st, &pcc);
	if (dyn_read(rs, env, "COLOR_CALC_STATE", pcc.color_calc_state_pointer, dw, 6))
		return -1;
	struct cmd_COLOR_CALC_STATE cc;
	cmd_COLOR_CALC_STATE_unpack(gen, dw, 6, &cc);
	if (gen < 9) {             /* gen9: in 3DSTATE_WM_DEPTH_STENCIL */
		w->ds.sref = (uint8_t)cc.stencil_reference_value;
		w->ds.bsref = (uint8_t)cc.backface_stencil_reference_value;
	}
	/* Alpha Test Format: 0 ALPHATEST_UNORM8, 1 ALPHATEST_FLOAT32 */
	w->alpha_test_unorm8 = cc.alpha_test_format == 0;
	w->alpha_ref = w->alpha_test_unorm8 ?
		(float)(cc.alpha_reference_value_as_unorm8 & 255) / 255.0f :
		cc.alpha_reference_value_as_float32;
	w->blend_constant[0] = cc.blend_constant_color_red;
	w->blend_constant[1] = cc.blend_constant_color_green;
	w->blend_constant[2] = cc.blend_constant_color_blue;
	w->blend_constant[3] = cc.blend_constant_color_alpha;

	/* BLEND_STATE is read by the render target writes of a PS (blending,
	 * alpha test, alpha to coverage, write masks): without a valid PS no
	 * colour target is written and the hardware never reads it. blorp's
	 * depth/stencil-only operations leave its pointer at 0. */
	if (!w->ps.valid)
		return 0;
	struct cmd_3DSTATE_BLEND_STATE_POINTERS pbs;
	recorded_3DSTATE_BLEND_STATE_POINTERS(gen, st, &pbs);
	/* The header dword, then each render target's two dwords where they
	 * are mapped (wm.h: rt_blend_unread). */
	if (dyn_read(rs, env, "BLEND_STATE", pbs.blend_state_pointer, dw, 1))
		return -1;
	w->blend_state_addr = rs->sba.dynamic + pbs.blend_state_pointer;
	w->rt_blend_unread = 0;
	for (uint32_t i = 0; i < WM_MAX_RT; i++)
		if (vm_read(&env->vm, w->blend_state_addr + 4 + 8 * i, dw + 1 + 2 * i, 8)) {
			dw[1 + 2 * i] = dw[2 + 2 * i] = 0;
			w->rt_blend_unread |= (uint8_t)(1u << i);
		}
	struct cmd_BLEND_STATE bs;
	cmd_BLEND_STATE_unpack(gen, dw, BLEND_STATE_DWORDS, &bs);
	w->alpha_to_coverage = bs.alpha_to_coverage_enable;
	/* The hardware's alpha-to-coverage dither pattern is in no public
	 * document; a fault would hang every draw iris makes with alpha to
	 * coverage (it always sets the bit with it). gtsim's rule stands in,
	 * and says so once (docs/backend.md). */
	if (bs.alpha_to_coverage_enable && bs.alpha_to_coverage_dither_enable)
		TRACE_STUB_ONCE("BLEND_STATE Alpha To Coverage Dither Enable: the hardware's "
				"dither pattern is not modelled; alpha to coverage covers the first "
				"round(alpha x samples) samples of every pixel");
	w->alpha_to_one = bs.alpha_to_one_enable;
	w->color_dither = bs.color_dither_enable;
	w->alpha_test = bs.alpha_test_enable;
	w->alpha_func = (uint8_t)bs.alpha_test_function;
	w->independent_alpha = bs.independent_alpha_blend_enable;
	struct cmd_BLEND_STATE_ENTRY e;
	for (uint32_t i = 0; i < WM_MAX_RT &&
	     cmd_BLEND_STATE_entry_at(gen, dw, BLEND_STATE_DWORDS, i, &e); i++) {
		struct om_blend_rt *b = &w->rt_blend[i];
		b->enable = e.color_buffer_blend_enable;
		b->src = (uint8_t)e.source_blend_factor;
		b->dst = (uint8_t)e.destination_blend_factor;
		b->func = (uint8_t)e.color_blend_function;
		b->src_a = (uint8_t)e.source_alpha_blend_factor;
		b->dst_a = (uint8_t)e.destination_alpha_blend_factor;
		b->func_a = (uint8_t)e.alpha_blend_function;
		if (!w->independent_alpha) {
			b->src_a = b->src;
			b->dst_a = b->dst;
			b->func_a = b->func;
		}
		b->pre_clamp = e.pre_blend_color_clamp_enable;
		b->post_clamp = e.post_blend_color_clamp_enable;
		b->clamp_range = (uint8_t)e.color_clamp_range;
		b->logic_enable = e.logic_op_enable;
		b->logic_op = (uint8_t)e.logic_op_function;
		b->write_disable = (uint8_t)(e.write_disable_red | e.write_disable_green << 1 |
					     e.write_disable_blue << 2 | e.write_disable_alpha << 3);
	}
	return 0;
}

/* The depth and stencil views of db's level and layer (a multisampled
 * buffer's in pixels: depth_test.c places each sample with the
 * interleaved layout, MSFMT_DEPTH_STENCIL). */
static int depth_views(struct depth_state *d, int gen, const struct cmd_3DSTATE_DEPTH_BUFFER *db,
		       const struct cmd_3DSTATE_STENCIL_BUFFER *sb, char *why)
{
	if ((d->has_depth && surface_depth_view(gen, db, &d->depth, why)) ||
	    (d->has_stencil && surface_stencil_view(gen, db, sb, &d->stencil, why)))
		return -1;
	return 0;
}

int wm_ms_samples(int gen, const struct cs_state *st, uint32_t *samples, char *why)
{
	struct cmd_3DSTATE_MULTISAMPLE m;
	recorded_3DSTATE_MULTISAMPLE(gen, st, &m);
	/* Number of Multisamples: log2 of the count, 16 (4) on gen9 only */
	if (m.number_of_multisamples > (gen >= 9 ? 4u : 3u)) {
		snprintf(why, 160, "3DSTATE_MULTISAMPLE Number of Multisamples %u is reserved",
			 m.number_of_multisamples);
		return -1;
	}
	*samples = 1u << m.number_of_multisamples;
	return 0;
}

/* The offsets of 3DSTATE_SAMPLE_PATTERN for `samples` (U0.4 pixels from
 * the upper left corner, as the command gives them: Mesa programs the
 * standard D3D/GL positions), in the rasterizer's fixed point. */
static void sample_pattern(int gen, const struct cs_state *st, uint32_t samples,
			   struct raster_samples *r)
{
	struct cmd_3DSTATE_SAMPLE_PATTERN p;
	recorded_3DSTATE_SAMPLE_PATTERN(gen, st, &p);
	const uint32_t x1[1] = { p._1x_sample0_x_offset }, y1[1] = { p._1x_sample0_y_offset };
	const uint32_t x2[2] = { p._2x_sample0_x_offset, p._2x_sample1_x_offset };
	const uint32_t y2[2] = { p._2x_sample0_y_offset, p._2x_sample1_y_offset };
	const uint32_t x4[4] = { p._4x_sample0_x_offset, p._4x_sample1_x_offset,
				 p._4x_sample2_x_offset, p._4x_sample3_x_offset };
	const uint32_t y4[4] = { p._4x_sample0_y_offset, p._4x_sample1_y_offset,
				 p._4x_sample2_y_offset, p._4x_sample3_y_offset };
	const uint32_t x8[8] = { p._8x_sample0_x_offset, p._8x_sample1_x_offset,
				 p._8x_sample2_x_offset, p._8x_sample3_x_offset,
				 p._8x_sample4_x_offset, p._8x_sample5_x_offset,
				 p._8x_sample6_x_offset, p._8x_sample7_x_offset };
	const uint32_t y8[8] = { p._8x_sample0_y_offset, p._8x_sample1_y_offset,
				 p._8x_sample2_y_offset, p._8x_sample3_y_offset,
				 p._8x_sample4_y_offset, p._8x_sample5_y_offset,
				 p._8x_sample6_y_offset, p._8x_sample7_y_offset };
	const uint32_t x16[16] = {
		p._16x_sample0_x_offset, p._16x_sample1_x_offset, p._16x_sample2_x_offset,
		p._16x_sample3_x_offset, p._16x_sample4_x_offset, p._16x_sample5_x_offset,
		p._16x_sample6_x_offset, p._16x_sample7_x_offset, p._16x_sample8_x_offset,
		p._16x_sample9_x_offset, p._16x_sample10_x_offset, p._16x_sample11_x_offset,
		p._16x_sample12_x_offset, p._16x_sample13_x_offset, p._16x_sample14_x_offset,
		p._16x_sample15_x_offset };
	const uint32_t y16[16] = {
		p._16x_sample0_y_offset, p._16x_sample1_y_offset, p._16x_sample2_y_offset,
		p._16x_sample3_y_offset, p._16x_sample4_y_offset, p._16x_sample5_y_offset,
		p._16x_sample6_y_offset, p._16x_sample7_y_offset, p._16x_sample8_y_offset,
		p._16x_sample9_y_offset, p._16x_sample10_y_offset, p._16x_sample11_y_offset,
		p._16x_sample12_y_offset, p._16x_sample13_y_offset, p._16x_sample14_y_offset,
		p._16x_sample15_y_offset };
	const uint32_t *xs = samples == 16 ? x16 : samples == 8 ? x8 : samples == 4 ? x4 :
		samples == 2 ? x2 : x1;
	const uint32_t *ys = samples == 16 ? y16 : samples == 8 ? y8 : samples == 4 ? y4 :
		samples == 2 ? y2 : y1;
	r->n = samples;
	for (uint32_t s = 0; s < samples; s++) {
		r->x[s] = (int32_t)(xs[s] * (RASTER_ONE / 16));
		r->y[s] = (int32_t)(ys[s] * (RASTER_ONE / 16));
	}
}

/* Multisample state. With one sample the pixel centre is the only
 * position (the 1x offset of the pattern is not read: Mesa programs the
 * centre). Pixel Location UL_CORNER puts the pixel's centre at its
 * integer coordinates: every position half a pixel up and left. Without
 * DX Multisample Rasterization Enable (GL_MULTISAMPLE off) coverage is
 * taken at the centre and given to every sample (MSRASTMODE_OFF_PIXEL). */
static int load_ms(struct wm_state *w, int gen, const struct cs_state *st, char *why)
{
	struct ms_state *ms = &w->ms;
	if (wm_ms_samples(gen, st, &ms->samples, why))
		return -1;
	struct cmd_3DSTATE_MULTISAMPLE m;
	recorded_3DSTATE_MULTISAMPLE(gen, st, &m);
	struct cmd_3DSTATE_RASTER r;
	recorded_3DSTATE_RASTER(gen, st, &r);
	if (r.forced_sample_count) {
		snprintf(why, 160, "3DSTATE_RASTER Forced Sample Count %u is not implemented",
			 r.forced_sample_count);
		return -1;
	}
	ms->pos = raster_centre;
	if (ms->samples > 1)
		sample_pattern(gen, st, ms->samples, &ms->pos);
	if (m.pixel_location == 1)
		for (unsigned s = 0; s < ms->pos.n; s++) {
			ms->pos.x[s] -= RASTER_ONE / 2;
			ms->pos.y[s] -= RASTER_ONE / 2;
		}
	ms->raster_enable = r.dx_multisample_rasterization_enable;
	ms->api_mode = (uint8_t)r.api_mode;
	ms->raster = ms->samples > 1 && r.dx_multisample_rasterization_enable;
	ms->pattern = ms->raster ? ms->pos : raster_centre;
	if (m.pixel_location == 1 && !ms->raster) {
		ms->pattern.x[0] -= RASTER_ONE / 2;
		ms->pattern.y[0] -= RASTER_ONE / 2;
	}
	struct cmd_3DSTATE_SAMPLE_MASK sm;
	ms->mask = (uint16_t)((1u << ms->samples) - 1);
	if (recorded_3DSTATE_SAMPLE_MASK(gen, st, &sm))
		ms->mask &= (uint16_t)sm.sample_mask;
	struct cmd_3DSTATE_PS_EXTRA x;
	recorded_3DSTATE_PS_EXTRA(gen, st, &x);
	ms->per_sample = x.pixel_shader_is_per_sample && ms->samples > 1;
	w->ps_disables_a2c = x.pixel_shader_disables_alpha_to_coverage;
	return 0;
}

int wm_depth_state_load(struct depth_state *d, int gen, const struct cs_state *st,
			uint32_t samples, char *why)
{
	struct cmd_3DSTATE_WM_DEPTH_STENCIL s;
	recorded_3DSTATE_WM_DEPTH_STENCIL(gen, st, &s);
	d->test = s.depth_test_enable;
	d->write = s.depth_buffer_write_enable;
	d->func = (uint8_t)s.depth_test_function;
	d->stencil_test = s.stencil_test_enable;
	d->stencil_write = s.stencil_buffer_write_enable;
	d->double_sided = s.double_sided_stencil_enable;
	d->sfunc = (uint8_t)s.stencil_test_function;
	d->sfail = (uint8_t)s.stencil_fail_op;
	d->szfail = (uint8_t)s.stencil_pass_depth_fail_op;
	d->szpass = (uint8_t)s.stencil_pass_depth_pass_op;
	d->bfunc = (uint8_t)s.backface_stencil_test_function;
	d->bfail = (uint8_t)s.backface_stencil_fail_op;
	d->bzfail = (uint8_t)s.backface_stencil_pass_depth_fail_op;
	d->bzpass = (uint8_t)s.backface_stencil_pass_depth_pass_op;
	d->smask = (uint8_t)s.stencil_test_mask;
	d->swmask = (uint8_t)s.stencil_write_mask;
	d->bsmask = (uint8_t)s.backface_stencil_test_mask;
	d->bswmask = (uint8_t)s.backface_stencil_write_mask;
	if (gen >= 9) {
		/* gen9 moved the reference values here from COLOR_CALC_STATE
		 * (SKL PRM vol. 2d, 3DSTATE_WM_DEPTH_STENCIL DWord 3) */
		d->sref = (uint8_t)s.stencil_reference_value;
		d->bsref = (uint8_t)s.backface_stencil_reference_value;
	}

	/* 3DSTATE_DEPTH_BUFFER (Y-major) and 3DSTATE_STENCIL_BUFFER (separate,
	 * W-major): views of their level and layer from the surface module */
	struct cmd_3DSTATE_DEPTH_BUFFER db;
	struct cmd_3DSTATE_STENCIL_BUFFER sb;
	recorded_3DSTATE_DEPTH_BUFFER(gen, st, &db);
	recorded_3DSTATE_STENCIL_BUFFER(gen, st, &sb);
	d->has_depth = db.surface_type != 7 && db.surface_base_address;
	d->depth_format = db.surface_format;
	d->depth_buffer_write = db.depth_write_enable;
	d->has_stencil = sb.stencil_buffer_enable && sb.surface_base_address;
	d->samples = samples;
	if (depth_views(d, gen, &db, &sb, why))
		return -1;
	d->stencil_buffer_write = true;
	d->gen = gen;
	d->db = db;
	d->sb = sb;
	d->layer = 0;
	struct cmd_3DSTATE_CLEAR_PARAMS cp;
	recorded_3DSTATE_CLEAR_PARAMS(gen, st, &cp);
	d->clear_value = cp.depth_clear_value;
	d->clear_valid = cp.depth_clear_value_valid;
	return 0;
}

/* A primitive's Render Target Array Index moves the depth and stencil
 * buffers to Minimum Array Element + index, as it moves the render
 * targets; an index past 3DSTATE_DEPTH_BUFFER's Render Target View Extent
 * selects layer 0, the render targets' rule (rt_write.c). */
int wm_depth_layer(struct depth_state *d, uint32_t rtai, char *why)
{
	uint32_t layer = rtai > d->db.render_target_view_extent ? 0 : rtai;
	if (layer == d->layer || (!d->has_depth && !d->has_stencil))
		return 0;
	d->layer = layer;
	struct cmd_3DSTATE_DEPTH_BUFFER db = d->db;
	db.minimum_array_element += layer;
	return depth_views(d, d->gen, &db, &d->sb, why);
}

int wm_state_load(struct wm_state *w, struct render_state *rs, const struct render_env *env,
		  const struct cs_state *state)
{
	int gen = rs->info->gen;
	memset(w, 0, sizeof(*w));
	char why[160];
	if (load_clip_sf(w, gen, state, why))
		return render_set_fault(rs, "%s", why);
	if (load_viewports(w, rs, env, state))
		return -1;
	if (load_sbe(w, gen, state, why))
		return render_set_fault(rs, "%s", why);
	load_wm_ps(w, gen, state);
	if (wm_stipple_load(w, gen, state, why))
		return render_set_fault(rs, "%s", why);
	if (load_blend_cc(w, rs, env, state))
		return -1;
	if (load_ms(w, gen, state, why))
		return render_set_fault(rs, "multisampling: %s", why);
	if (wm_depth_state_load(&w->ds, gen, state, w->ms.samples, why))
		return render_set_fault(rs, "depth/stencil buffer: %s", why);
	w->surface_base = rs->sba.surface;
	w->binding_table = rs->sba.surface + rs->binding_table[RS_PS];
	return 0;
}
