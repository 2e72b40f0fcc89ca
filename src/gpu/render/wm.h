/* The 3D back end after the VS (PRM vol. 2 "Clip", "SF", "WM", "PS",
 * "Output Merger"): the state it reads from the recorded 3DSTATE_*
 * commands and the dynamic state they point to, and the draw hook the
 * front end calls.
 *
 * Hook for the front end (render/draw.c): at the start of a draw, once the
 * URB partitions are set,
 *     if (wm_draw_begin(rs, env, engine_recorded_state)) return -1;
 * installs rs->prim_sink; each assembled primitive then goes through
 * clip, setup, rasterization, the PS threads and the output merger; at the
 * end of the draw
 *     if (wm_draw_end(rs)) return -1;
 * runs the threads still pending and reports a fault met on the way. */
#ifndef GTSIM_RENDER_WM_H
#define GTSIM_RENDER_WM_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/state.h"
#include "gpu/render/om.h"
#include "gpu/render/raster.h"
#include "gpu/render/render.h"
#include "gpu/surface/surface.h"

struct render_state;

#define WM_MAX_RT 8
#define WM_MAX_VIEWPORTS 16
#define WM_MAX_SBE_ATTRS 32

struct sbe_state {
	uint32_t read_offset;      /* in 256-bit units: 2 VUE rows */
	uint32_t read_length;      /* likewise */
	uint32_t num_attrs;        /* Number of SF Output Attributes */
	bool swizzle_enable;
	struct cmd_SF_OUTPUT_ATTRIBUTE_DETAIL swiz[16];  /* 3DSTATE_SBE_SWIZ */
	uint32_t const_interp;     /* Constant Interpolation Enable */
	uint32_t point_sprite;     /* Point Sprite Texture Coordinate Enable */
	bool sprite_lower_left;    /* Point Sprite Texture Coordinate Origin */
	uint32_t prim_id_attr;     /* Primitive ID Override Attribute Select */
	uint8_t prim_id_comps;     /* Primitive ID Override Component X..W (bits 0..3) */
};

struct ps_state {
	uint64_t ksp[3];
	bool simd8, simd16, simd32;
	uint32_t grf_start[3];
	uint32_t binding_table_entries, sampler_count;
	uint32_t scratch_space;
	uint64_t scratch_base;
	bool push_constants;
	uint32_t pos_offset;       /* Position XY Offset Select: 0 none, 2 centroid, 3 sample */
	bool fast_clear;           /* Render Target Fast Clear Enable */
	bool resolve;              /* Render Target Resolve Type (gen9) / Enable (gen8) */
	/* 3DSTATE_PS_EXTRA */
	bool valid, kills, uses_depth, uses_w, uses_coverage, omask, no_rt_write;
	uint32_t computed_depth;   /* PSCDEPTH_* */
	bool computed_stencil;     /* gen9: the RT write carries the stencil reference */
	/* 3DSTATE_CONSTANT_PS: registers (32 B) and addresses of buffers 0..3 */
	uint32_t const_len[4];
	uint64_t const_addr[4];
};

struct depth_state {
	bool test, write, stencil_test, stencil_write, double_sided;
	uint8_t func;
	uint8_t sfunc, sfail, szfail, szpass;      /* front */
	uint8_t bfunc, bfail, bzfail, bzpass;      /* back */
	uint8_t smask, swmask, bsmask, bswmask;
	uint8_t sref, bsref;                       /* COLOR_CALC_STATE */
	/* buffers */
	bool has_depth, has_stencil;
	uint32_t depth_format;                     /* 1 D32_FLOAT, 3 D24_UNORM_X8, 5 D16_UNORM */
	struct surface_view depth, stencil;
	bool depth_buffer_write;                   /* 3DSTATE_DEPTH_BUFFER Depth Write Enable */
	bool stencil_buffer_write;
	float clear_value;
	bool clear_valid;
	/* the buffers' commands, for the layer a primitive selects */
	int gen;
	struct cmd_3DSTATE_DEPTH_BUFFER db;
	struct cmd_3DSTATE_STENCIL_BUFFER sb;
	uint32_t layer;                            /* above Minimum Array Element */
	uint32_t samples;                          /* 3DSTATE_MULTISAMPLE's (interleaved) */
};

/* Multisampling (PRM vol. 2 "Multisample Modes"): 3DSTATE_MULTISAMPLE,
 * 3DSTATE_SAMPLE_PATTERN, 3DSTATE_SAMPLE_MASK, 3DSTATE_RASTER's DX
 * Multisample Rasterization Enable and 3DSTATE_PS_EXTRA's per-sample
 * dispatch. */
struct ms_state {
	uint32_t samples;          /* Number of Multisamples: 1, 2, 4, 8, 16 (gen9) */
	bool raster;               /* coverage at each sample (else the centre, every sample) */
	bool raster_enable;        /* 3DSTATE_RASTER DX Multisample Rasterization Enable */
	uint8_t api_mode;          /* 3DSTATE_RASTER API Mode: 0 DX9/OGL, 1 DX10.0, 2 DX10.1+ */
	bool per_sample;           /* Pixel Shader Is Per Sample */
	uint16_t mask;             /* Sample Mask, cut to the samples */
	struct raster_samples pattern; /* the positions rasterization uses */
	struct raster_samples pos;     /* the samples' positions (pattern of `samples`) */
};

struct wm_state {
	/* clip and setup */
	struct clip_params clip;
	bool clip_stats;           /* 3DSTATE_CLIP Statistics Enable */
	bool xy_clip_enable;       /* Guardband or Viewport XY Clip Test Enable */
	bool force_zero_rtai;      /* 3DSTATE_CLIP Force Zero RTAIndex Enable */
	bool persp_divide;         /* !Perspective Divide Disable */
	bool viewport_transform;
	uint8_t pv_tri, pv_line, pv_fan;
	float line_width, point_width;
	bool point_width_from_state, last_pixel;
	uint8_t cull_mode;         /* 0 both, 1 none, 2 front, 3 back */
	bool front_ccw;
	bool scissor_enable;
	/* 3DSTATE_RASTER Front/Back Face Fill Mode (0 solid, 1 wireframe,
	 * 2 point: wm_draw.c draws the boundary edges or vertices),
	 * Antialiasing Enable (lines), Smooth Point Enable (raster_aa.c) */
	uint8_t fill_front, fill_back;
	bool aa_lines, smooth_points;
	/* 3DSTATE_WM Line Antialiasing Region Width, 3DSTATE_SF Line End Cap
	 * Antialiasing Region Width (pixels), AA Line Distance Mode
	 * (AALINEDISTANCE_TRUE), and whether 3DSTATE_AA_LINE_PARAMETERS
	 * holds zeros (the legacy coverage computation, the one modelled) */
	float aa_region, aa_cap_region;
	bool aa_distance_true, aa_params_legacy;
	/* 3DSTATE_WM Line Stipple Enable, 3DSTATE_LINE_STIPPLE's pattern and
	 * repeat count (wm_stipple.c) */
	bool line_stipple;
	uint16_t line_pattern;
	uint32_t line_repeat;
	/* 3DSTATE_WM Polygon Stipple Enable, 3DSTATE_POLY_STIPPLE_PATTERN
	 * and _OFFSET (wm_stipple.c) */
	bool poly_stipple;
	uint8_t stipple_x_offset, stipple_y_offset;
	uint32_t stipple_rows[32];
	bool depth_offset;         /* solid */
	bool depth_offset_wire, depth_offset_point;
	float depth_offset_const, depth_offset_scale, depth_offset_clamp;
	struct viewport vp;        /* viewport 0; wm_draw selects per primitive */
	struct pixel_rect scissor, draw_rect;
	/* every viewport 0..Maximum VP Index (3DSTATE_CLIP): SF_CLIP_VIEWPORT
	 * (with its guard band), CC_VIEWPORT and SCISSOR_RECT entries */
	uint32_t num_vp;
	struct viewport vps[WM_MAX_VIEWPORTS];
	float gbs[WM_MAX_VIEWPORTS][4];
	bool gb_valid[WM_MAX_VIEWPORTS];
	struct pixel_rect scissors[WM_MAX_VIEWPORTS];
	/* SF_CLIP_VIEWPORT X/Y Min/Max ViewPort: the pixels each viewport
	 * covers (inclusive), when SF_CLIP_VIEWPORT is read */
	struct pixel_rect vp_extents[WM_MAX_VIEWPORTS];
	bool vp_extents_valid;
	int32_t origin_x, origin_y;

	struct sbe_state sbe;

	/* WM */
	uint32_t bary_modes;       /* Barycentric Interpolation Mode bits */
	uint32_t early_ds;         /* 0 normal, 1 PS-exec, 2 pre-PS */
	bool wm_stats;
	uint32_t force_dispatch;   /* 0 normal, 1 force off, 2 force on */
	uint32_t force_kill;

	struct ps_state ps;
	struct ms_state ms;

	/* output merger */
	bool ps_disables_a2c;      /* 3DSTATE_PS_EXTRA Pixel Shader Disables Alpha To Coverage */
	bool alpha_to_coverage, alpha_to_one, alpha_test, independent_alpha;
	bool color_dither;         /* BLEND_STATE Color Dither Enable (not modelled) */
	uint8_t alpha_func;
	bool alpha_test_unorm8;
	float alpha_ref;
	float blend_constant[4];
	struct om_blend_rt rt_blend[WM_MAX_RT];
	/* BLEND_STATE's address and the entries that could not be read (bit
	 * i: entry i, not mapped): the hardware reads an entry only for a
	 * render target a message writes, and drivers allocate only the
	 * entries of their targets (iris: one for one RT), so an unreadable
	 * entry faults at the RT write that needs it (rt_write.c). */
	uint64_t blend_state_addr;
	uint8_t rt_blend_unread;
	struct depth_state ds;

	uint64_t binding_table;    /* Surface State Base + 3DSTATE_BINDING_TABLE_POINTERS_PS */
	uint64_t surface_base;
};

/* Decode the back end's state. -1 with a fault in rs (render_set_fault)
 * when dynamic state cannot be read. */
/* 3DSTATE_MULTISAMPLE's sample count (1 when never sent); -1 with why
 * for a count the generation does not have. */
int wm_ms_samples(int gen, const struct cs_state *state, uint32_t *samples, char *why);

int wm_state_load(struct wm_state *w, struct render_state *rs, const struct render_env *env,
		  const struct cs_state *state);

/* A depth value in the depth buffer's format (D32_FLOAT bits, D24 or
 * D16 UNORM), z clamped to [0, 1] for the UNORM formats. */
uint32_t depth_encode(uint32_t format, float z);

/* The depth and stencil part alone (3DSTATE_WM_HZ_OP uses it); -1 with
 * why for buffers gtsim cannot address (Yf/Ys). */
/* Polygon stipple state into w (wm_stipple.c); -1 with why set when the
 * stipple is enabled without a pattern ever loaded. */
int wm_stipple_load(struct wm_state *w, int gen, const struct cs_state *st, char *why);
/* Of a quad at (x, y) (render target pixels; pixel p at x + (p & 1),
 * y + (p >> 1), 16 coverage bits each), the bits the polygon stipple lets
 * through. */
uint64_t wm_stipple_quad_mask(const struct wm_state *w, int32_t x, int32_t y);
/* Line stipple (wm_stipple.c): a line's stipple from its window end
 * points a -> b, the stipple counter s at its first fragment. */
struct line_stipple {
	bool xmajor;
	float start;               /* a's major coordinate */
	float dir;                 /* +1 or -1 along the major axis */
	uint32_t s0;
};
void wm_line_stipple_begin(struct line_stipple *ls, float ax, float ay, float bx, float by,
			   uint32_t s0);
/* The fragments the line a -> b counts (pixel centres in [a, b) along
 * its major axis): the counter of a strip's next segment goes on from
 * s0 plus this. */
uint32_t wm_line_stipple_count(float ax, float ay, float bx, float by);
/* Of a quad at (x, y), the coverage bits of the pixels the stipple keeps. */
uint64_t wm_line_stipple_mask(const struct wm_state *w, const struct line_stipple *ls,
			      int32_t x, int32_t y);

int wm_depth_state_load(struct depth_state *d, int gen, const struct cs_state *state,
			uint32_t samples, char *why);

/* The depth and stencil views of the layer a primitive's Render Target
 * Array Index selects; -1 with why when it cannot be addressed. */
int wm_depth_layer(struct depth_state *d, uint32_t rtai, char *why);

int wm_draw_begin(struct render_state *rs, const struct render_env *env,
		  const struct cs_state *state);
int wm_draw_end(struct render_state *rs);

#endif
