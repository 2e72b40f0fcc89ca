/* MI_MODE's Stop Ring (a masked bit): set, the engine executes nothing
 * more until it is cleared or the engine is reset; the kernel tests use it
 * to hold an engine where they want it. */
#ifndef GTSIM_TEST_STOP_RING_H
#define GTSIM_TEST_STOP_RING_H

#include <stdbool.h>

#include "gpu/cs/engine.h"

static inline void stop_ring(struct gt_engine *hw, bool on)
{
	uint32_t mask = REG_RING_MI_MODE_STOP_RING_MASK;
	engine_mmio_write(hw, REG_RING_MI_MODE, mask << 16 | (on ? mask : 0));
}

#endif
