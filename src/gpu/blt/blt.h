/* The blitter engine's commands (BDW PRM vol. 2a, the 2D blitter). */
#ifndef GTSIM_BLT_BLT_H
#define GTSIM_BLT_BLT_H

#include "gpu/cs/cs.h"

/* XY_SRC_COPY_BLT (blt_copy.c). */
enum cs_result blt_xy_src_copy(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len);

#endif
