/* The command handler tables (handlers.c) and the generic handlers they
 * name. */
#ifndef GTSIM_CS_HANDLERS_H
#define GTSIM_CS_HANDLERS_H

#include "gpu/cs/cs.h"

/* The engine's table: CMD_ID_COUNT entries indexed by enum cmd_id, NULL
 * where the command is not implemented. */
const cs_handler *cs_handlers(enum gt_engine_id engine);

/* Record a state command for the pipeline that reads it later (state.h). */
enum cs_result cs_record_state(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len);
/* A command that has nothing to change in gtsim (the table says why). */
enum cs_result cs_no_effect(struct gt_engine *e, const struct cmd_desc *d,
			    const uint32_t *dw, uint32_t len);
/* XY_SRC_COPY_BLT on the blitter (blt_copy.c). */
enum cs_result blt_xy_src_copy(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len);

#endif
