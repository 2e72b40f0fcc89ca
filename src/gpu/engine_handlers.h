/* Which code executes each command on each engine (engine_handlers.c):
 * the explicit wiring of the units into the command streamers. */
#ifndef GTSIM_GPU_ENGINE_HANDLERS_H
#define GTSIM_GPU_ENGINE_HANDLERS_H

#include "gpu/cs/cs.h"

/* The engine's table: CMD_ID_COUNT entries indexed by enum cmd_id, NULL
 * where the command is not implemented. */
const cs_handler *gpu_engine_handlers(enum gt_engine_id engine);

#endif
