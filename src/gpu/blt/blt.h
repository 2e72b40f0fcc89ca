/* The blitter engine's commands (BDW/SKL PRM vol. 2a, the 2D blitter):
 * each parses its command and hands the rectangle to blt_rect.c; surfaces
 * and raster operations are blt_surface.c's. */
#ifndef GTSIM_BLT_BLT_H
#define GTSIM_BLT_BLT_H

#include "gpu/cs/cs.h"

/* XY_SRC_COPY_BLT (blt_copy.c). */
enum cs_result blt_xy_src_copy(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len);
/* XY_COLOR_BLT (blt_color.c). */
enum cs_result blt_xy_color(struct gt_engine *e, const struct cmd_desc *d,
			    const uint32_t *dw, uint32_t len);
/* XY_SETUP_CLIP_BLT: the clip rectangle (blt_setup_clip.c). */
enum cs_result blt_xy_setup_clip(struct gt_engine *e, const struct cmd_desc *d,
				 const uint32_t *dw, uint32_t len);
/* XY_FAST_COPY_BLT, Skylake (blt_fast_copy.c). */
enum cs_result blt_xy_fast_copy(struct gt_engine *e, const struct cmd_desc *d,
				const uint32_t *dw, uint32_t len);

/* XY_SETUP_BLT, XY_SETUP_MONO_PATTERN_SL_BLT: the setup state (blt_setup.c). */
enum cs_result blt_xy_setup(struct gt_engine *e, const struct cmd_desc *d,
			    const uint32_t *dw, uint32_t len);
enum cs_result blt_xy_setup_mono_pattern_sl(struct gt_engine *e, const struct cmd_desc *d,
					    const uint32_t *dw, uint32_t len);
/* XY_SCANLINES_BLT, XY_PIXEL_BLT: draw with the setup (blt_scanlines.c). */
enum cs_result blt_xy_scanlines(struct gt_engine *e, const struct cmd_desc *d,
				const uint32_t *dw, uint32_t len);
enum cs_result blt_xy_pixel(struct gt_engine *e, const struct cmd_desc *d,
			    const uint32_t *dw, uint32_t len);
/* XY_PAT_BLT, XY_PAT_BLT_IMMEDIATE, XY_MONO_PAT_BLT (blt_pat.c). */
enum cs_result blt_xy_pat(struct gt_engine *e, const struct cmd_desc *d,
			  const uint32_t *dw, uint32_t len);
enum cs_result blt_xy_pat_immediate(struct gt_engine *e, const struct cmd_desc *d,
				    const uint32_t *dw, uint32_t len);
enum cs_result blt_xy_mono_pat(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len);
/* XY_MONO_SRC_COPY_BLT, _IMMEDIATE, XY_FULL_MONO_PATTERN_MONO_SRC_BLT
 * (blt_mono_src.c). */
enum cs_result blt_xy_mono_src_copy(struct gt_engine *e, const struct cmd_desc *d,
				    const uint32_t *dw, uint32_t len);
enum cs_result blt_xy_mono_src_copy_immediate(struct gt_engine *e, const struct cmd_desc *d,
					      const uint32_t *dw, uint32_t len);
enum cs_result blt_xy_full_mono_pattern_mono_src(struct gt_engine *e, const struct cmd_desc *d,
						 const uint32_t *dw, uint32_t len);
/* XY_TEXT_IMMEDIATE_BLT with the XY_SETUP_BLT state (blt_text.c). */
enum cs_result blt_xy_text_immediate(struct gt_engine *e, const struct cmd_desc *d,
				     const uint32_t *dw, uint32_t len);

#endif
