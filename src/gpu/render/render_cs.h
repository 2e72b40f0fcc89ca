/* The render unit's command handlers, named in the render engine's
 * handler table (gpu/cs/handlers.c). Each has the cs_handler signature. */
#ifndef GTSIM_RENDER_RENDER_CS_H
#define GTSIM_RENDER_RENDER_CS_H

#include "gpu/cs/cs.h"

/* The 3D front end's commands (render_cs.c): records the command in the
 * context's state and passes it to render_command(). */
enum cs_result render_cs_command(struct gt_engine *e, const struct cmd_desc *d,
				 const uint32_t *dw, uint32_t len);
/* 3DSTATE_WM_HZ_OP (depth_hz_op.c): depth/stencil clears by their effect. */
enum cs_result render_cs_hz_op(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len);
/* MI_LOAD_URB_MEM, MI_STORE_URB_MEM (urb_mem.c): a cache line between
 * memory and the URB. */
enum cs_result render_cs_load_urb_mem(struct gt_engine *e, const struct cmd_desc *d,
				      const uint32_t *dw, uint32_t len);
enum cs_result render_cs_store_urb_mem(struct gt_engine *e, const struct cmd_desc *d,
				       const uint32_t *dw, uint32_t len);

#endif
