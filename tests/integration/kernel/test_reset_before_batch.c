/* A reset of a request the engine had not begun (kernel/reset.c
 * restart_point). The kernel emits a context's switch (image save and
 * restore, MI_SET_CONTEXT, the LRI of PDP0 that loads its PPGTT) once,
 * in the first request after another context's; its later requests in
 * its ring count on it. A reset that restarted the engine after the
 * guilty request when the engine had not yet reached it skipped that
 * switch: the context's next request ran in the previous context's
 * address space (IGT gem_ctx_persistence smoketest: a spinner's batch
 * fetched from another process's PPGTT, page faults and endless spins).
 *
 * Each context has its own PPGTT (i915: a context created without a VM
 * gets one of its own), and both put a buffer at the same address V.
 *  - Context B stores 0xb0 at V (its buffer) and ends; the engine has
 *    B's PPGTT loaded.
 *  - MI_MODE's Stop Ring holds the engine (as in kernel-preempt_load):
 *    context A submits A1 (a store of 0xa1 at V + 4) and A2 (0xa2 at
 *    V + 8); both are emitted into A's ring, the engine executes none.
 *  - Hangcheck finds no progress and resets the engine, A1 guilty (its
 *    fence -EIO, GET_RESET_STATS batch_active 1); the reset clears Stop
 *    Ring.
 *  - A2 must run in A's address space: A's buffer holds 0xa2 at V + 8
 *    and nothing of A1's (its batch is skipped); B's buffer holds only
 *    its own 0xb0 (before the fix A's buffer stayed 0: A2 ran with the
 *    PPGTT the engine had before, its store lost to another space).
 * Run on BDW and SKL (the render engine; BDW's does not preempt). */
#include <stdio.h>

#include "eb_test.h"
#include "gpu/cs/engine.h"
#include "stop_ring.h"
#include "kernel/device.h"

#define V 0x300000ull
#define BATCH_ADDR 0x400000ull
#define MS 1000000ll

static struct gtsim_file *f;

/* A batch in ctx storing value at V + off into buf (at V); returns it. */
static uint32_t store_batch(uint32_t ctx, uint32_t buf, unsigned off, uint32_t value)
{
	return eb_submit_store(f, ctx, buf, V, off, value, BATCH_ADDR);
}

static void run(const char *device)
{
	struct gtsim_config cfg = { .device = device, .hangcheck_ms = 100 };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	f = gtsim_open(dev);
	struct gt_engine *hw = dev->gpu->engines[ENGINE_RCS];
	uint32_t a = eb_context_create(f), b = eb_context_create(f);
	uint32_t buf_a = eb_create(f, 4096), buf_b = eb_create(f, 4096);

	uint32_t bb = store_batch(b, buf_b, 0, 0xb0);
	CHECK_EQ(eb_wait(f, bb, 5000 * MS), 0);
	eb_close(f, bb);
	CHECK(engine_wait_idle(hw, 5000 * MS));

	stop_ring(hw, true);
	uint32_t a1 = store_batch(a, buf_a, 4, 0xa1);
	uint32_t a2 = store_batch(a, buf_a, 8, 0xa2);
	CHECK_EQ(eb_wait(f, a2, 10000 * MS), 0);
	CHECK_EQ(eb_wait(f, a1, 0), 0);

	struct drm_i915_reset_stats rs = { .ctx_id = a };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	CHECK_EQ(rs.batch_active, 1u);   /* A1, guilty */
	uint32_t got_a[3], got_b[3];
	for (unsigned i = 0; i < 3; i++) {
		got_a[i] = eb_read32(f, buf_a, 4 * i);
		got_b[i] = eb_read32(f, buf_b, 4 * i);
	}
	fprintf(stderr, "%s: A's buffer %#x %#x %#x, B's %#x %#x %#x\n", device, got_a[0], got_a[1],
		got_a[2], got_b[0], got_b[1], got_b[2]);
	CHECK_EQ(got_a[0], 0u);
	CHECK_EQ(got_a[1], 0u);      /* A1's batch did not run */
	CHECK_EQ(got_a[2], 0xa2u);   /* A2 ran in A's PPGTT */
	CHECK_EQ(got_b[0], 0xb0u);
	CHECK_EQ(got_b[1], 0u);
	CHECK_EQ(got_b[2], 0u);      /* nothing of A's in B's */
	eb_close(f, a1);
	eb_close(f, a2);
	gtsim_close(f);
	gtsim_device_destroy(dev);
}

int main(void)
{
	run("bdw");
	run("skl");
	return test_exit();
}
