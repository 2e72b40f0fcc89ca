/* One complete, valid draw through libgtdrv: seed 000's full-window square
 * (a 4-vertex triangle strip of gtdrv_square) into a W x H RGBA8 linear
 * render target, with a VS at offset 0 and a FS at GTDRV_DRAW_FS_OFFSET
 * of the kernel buffer. The buffers and their state are made once
 * (gtdrv_draw_setup_init); each batch then gets every command a draw
 * needs (gtdrv_draw_emit: PIPELINE_SELECT, STATE_BASE_ADDRESS, URB, the
 * geometry stages off, VS, vertex buffers and elements, clip, SF, raster,
 * viewports, blend and CC pointers, drawing rectangle, SBE, WM, PS,
 * binding table, topology and 3DPRIMITIVE) with the relocations of every
 * address. Used by `gtsim demo`, tests and the draw fuzz target. */
#ifndef GTSIM_DRV_DRAW_SETUP_H
#define GTSIM_DRV_DRAW_SETUP_H

#include "drv/pipeline.h"

#define GTDRV_DRAW_FS_OFFSET 0x800u
/* Dynamic state: SF_CLIP_VIEWPORT, CC_VIEWPORT, BLEND_STATE and
 * COLOR_CALC_STATE (both zero: no blending, every channel written). */
#define GTDRV_DRAW_DYN_SF_CLIP 0x0u
#define GTDRV_DRAW_DYN_CC_VP 0x40u
#define GTDRV_DRAW_DYN_BLEND 0x80u
#define GTDRV_DRAW_DYN_CC 0xc0u
#define GTDRV_DRAW_DYN_FREE 0x100u     /* the first byte of dyn the draw does not use */
/* Surface state: the binding table at 0 (entry 0 the render target, the
 * others 0: unbound) and the target's RENDER_SURFACE_STATE. */
#define GTDRV_DRAW_SURF_RSS 0x40u

struct gtdrv_draw_setup {
	struct gtdrv *drv;
	struct gtdrv_bo kernel, dyn, surf, vbo, rt;
	uint32_t width, height, pitch;   /* pitch: bytes, a multiple of 64 */
};

/* Allocates the buffers (the render target pitch x height rounded to
 * pages) and writes the state and the vertex buffer; the kernels and the
 * target's contents are the caller's. 0 or -errno (-EINVAL for a size
 * the surface cannot hold). */
int gtdrv_draw_setup_init(struct gtdrv_draw_setup *s, struct gtdrv *drv, uint32_t width,
			  uint32_t height);
void gtdrv_draw_setup_fini(struct gtdrv_draw_setup *s);

/* Assembles vs and fs (Mesa's syntax) into the kernel buffer. */
int gtdrv_draw_setup_shaders(struct gtdrv_draw_setup *s, const char *vs, const char *fs);

/* What differs between draws; all zero is seed 001's green square (the
 * position alone, from vertex buffer 0). */
struct gtdrv_draw_options {
	/* vertex elements; NULL: one, the position (4 floats of buffer 0) */
	const struct gtdrv_vertex_attrib *attribs;
	unsigned nattribs;
	/* vertex buffers after buffer 0 (the square); a gtdrv_vb without a
	 * bo is a raw address (its offset), not relocated */
	const struct gtdrv_vb *extra_vbs;
	unsigned nextra_vbs;
	bool vertex_id;                  /* 3DSTATE_VF_SGVS: VertexID into element 1.x */
	uint32_t binding_table_entries;  /* of the PS; 0 means 1 */
	/* BLEND_STATE's offset in dyn (64-byte aligned); 0 means
	 * GTDRV_DRAW_DYN_BLEND */
	uint32_t blend_state_offset;
};

/* Every command of the draw into b (nothing submitted): 0 or the batch's
 * error. */
int gtdrv_draw_emit(struct gtdrv_batch *b, struct gtdrv_draw_setup *s,
		    const struct gtdrv_draw_options *o);

#endif
