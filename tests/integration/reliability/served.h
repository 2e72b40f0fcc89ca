/* Shared by the reliability tests: after a hang, the device serves
 * others. */
#ifndef GTSIM_TEST_RELIABILITY_SERVED_H
#define GTSIM_TEST_RELIABILITY_SERVED_H

#include "integration/kernel/eb_test.h"

/* File c's MI_STORE_DWORD_IMM batch completes with its value. */
static inline void check_store_served(struct gtsim_file *c)
{
	uint32_t bb = eb_create(c, 4096), t = eb_create(c, 4096);
	uint32_t dw[6];
	unsigned n = emit_store(dw, 0x100000, 0x600df00d);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(c, bb, 0, dw, sizeof(dw)), 0);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = t, .offset = 0x100000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED } };
	CHECK_EQ(eb_exec(c, o, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(c, bb, 10ll * 1000000000), 0);
	CHECK_EQ(eb_read32(c, t, 0), 0x600df00d);
	eb_close(c, bb);
	eb_close(c, t);
}

#endif
