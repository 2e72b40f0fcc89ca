/* The generic command handlers of cs that the engines' handler tables
 * (src/gpu/engine_handlers.c) name besides the MI commands (mi.h). */
#ifndef GTSIM_CS_HANDLERS_H
#define GTSIM_CS_HANDLERS_H

#include "gpu/cs/cs.h"

/* Record a state command for the pipeline that reads it later (state.h). */
enum cs_result cs_record_state(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len);
/* A command that has nothing to change in gtsim (the table says why). */
enum cs_result cs_no_effect(struct gt_engine *e, const struct cmd_desc *d,
			    const uint32_t *dw, uint32_t len);

#endif
