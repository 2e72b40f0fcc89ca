/* How libgtdrv divides the URB between the geometry stages (seed 003,
 * generalised from VS+GS to VS, HS, DS and GS).
 *
 * The URB is cut into 8 KB chunks. Push constants come first, then the
 * entries of each active stage in pipeline order (VS, HS, DS, GS). Each
 * active stage first gets the chunks its minimum number of entries needs;
 * the chunks left over are then shared in proportion to what each stage
 * "wants" (the chunks its maximum number of entries could use). */
#ifndef GTSIM_DRV_URB_CONFIG_H
#define GTSIM_DRV_URB_CONFIG_H

#include <stdbool.h>

#include "common/devinfo.h"

enum urb_stage { URB_VS, URB_HS, URB_DS, URB_GS, URB_NUM_STAGES };

#define URB_CHUNK_KB 8          /* 3DSTATE_URB_*: starting address unit */
#define URB_ENTRY_UNIT_BYTES 64 /* entry allocation size unit (512 bits) */
#define URB_MAX_ENTRY_SIZE 512  /* 9-bit "size - 1" field */

struct urb_config {
	unsigned push_constant_kb;        /* at chunk 0 */
	unsigned entries[URB_NUM_STAGES]; /* 0 for an inactive stage */
	unsigned size[URB_NUM_STAGES];    /* entry size in 64-byte units, >= 1 */
	unsigned start[URB_NUM_STAGES];   /* in 8 KB chunks; 0 when inactive */
	unsigned chunks[URB_NUM_STAGES];  /* 8 KB chunks given to the stage */
	bool constrained;                 /* the stages wanted more than there was */
};

const char *urb_stage_name(enum urb_stage stage); /* "VS", "HS", "DS", "GS" */

/* entry_size[s]: a stage's VUE size in 64-byte units; 0 means the stage is
 * not active (VS must be active; HS and DS are active together). urb_kb: the
 * URB size, 0 for the device's. Returns 0, or -EINVAL when the sizes are
 * out of range or the URB cannot hold every active stage's minimum. */
int urb_config_compute(const struct gt_devinfo *dev, unsigned urb_kb,
		       const unsigned entry_size[URB_NUM_STAGES],
		       struct urb_config *out);

#endif
