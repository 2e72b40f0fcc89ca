/* I915_EXEC_FENCE_SUBMIT against i915 (Linux 6.1 i915_gem_execbuffer.c:
 * the in-fence is awaited with i915_request_await_execution): the batch
 * may run once the fence's request has started, not once it completed;
 * a fence that is no request's (a merged one counts part by part) is
 * awaited to its signal as FENCE_IN.
 *  1. started: a spinner on RCS with an out-fence; a store on BCS with
 *     FENCE_SUBMIT of it lands while the spinner still spins (with
 *     FENCE_IN it would wait for the spinner's end, which never comes
 *     until the CPU ends it: the old behaviour, checked below too).
 *  2. not started: a store X on RCS held back by an in-fence (a cork: a
 *     BCS batch waiting on a semaphore); a store Y on VCS with
 *     FENCE_SUBMIT of X's out-fence must not land before the cork is
 *     released; after, both land. X's context has priority -1, so i915
 *     holds X back off the GPU (no CONTEXT_USE_SEMAPHORES below
 *     I915_PRIORITY_NORMAL); at 0 X would wait in its ring on a
 *     semaphore, started (kernel-semaphore checks that case).
 *  3. FENCE_IN of the running spinner's fence: the store waits (lands only
 *     after the spinner ends). */
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "eb_test.h"

#define SPIN_ADDR 0x100000ull
#define COND_DW 1000
#define T_ADDR 0x200000ull
#define SEMA_ADDR 0x300000ull

static struct gtsim_file *f;
static uint32_t submit_ctx;   /* the context submit() uses */

/* A batch object at addr with the given dwords. */
static uint32_t batch(const uint32_t *dw, unsigned n)
{
	uint32_t bb = eb_create(f, 4096);
	CHECK_EQ(eb_write(f, bb, 0, dw, n * 4), 0);
	return bb;
}

/* execbuf of {target (written), bb} on ring in ctx 0 with flags and
 * in-fence; returns the out-fence (FENCE_OUT asked) or -1. */
static int submit(uint32_t target, uint64_t target_addr, uint32_t bb, uint64_t bb_addr,
		  uint64_t ring, uint64_t flags, int in_fence)
{
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = target, .offset = target_addr, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = bb_addr, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o, .buffer_count = 2,
		.flags = ring | flags, .rsvd1 = submit_ctx,
		.rsvd2 = in_fence >= 0 ? (uint32_t)in_fence : 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	return (flags & I915_EXEC_FENCE_OUT) ? (int)(eb.rsvd2 >> 32) : -1;
}

/* A store of value into a fresh object (at T_ADDR) on ring after in_fence
 * with flag (FENCE_IN or FENCE_SUBMIT); returns the object's CPU map. */
static volatile uint32_t *store_after(uint64_t ring, uint64_t flag, int in_fence, uint32_t value,
				      uint32_t *target)
{
	uint32_t dw[8];
	unsigned n = emit_store(dw, T_ADDR, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	uint32_t bb = batch(dw, n);
	*target = eb_create(f, 4096);
	volatile uint32_t *map = eb_cpu_map(f, *target);
	submit(*target, T_ADDR, bb, 0x400000, ring, flag, in_fence);
	eb_close(f, bb);
	return map;
}

int main(void)
{
	eb_require_async("a spinner runs beside the store");
	struct gtsim_config cfg = { .device = "skl", .hangcheck_ms = 60000 };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	f = gtsim_open(dev);
	/* no heartbeat pulses: only the batches of the test contend */
	for (const char *e = "rcs0\0bcs0\0vcs0\0"; *e; e += strlen(e) + 1)
		CHECK_EQ(gtsim_engine_file_write(dev, e, "heartbeat_interval_ms", "1000000", 7), 0);

	/* the spinner */
	uint32_t dw[1024] = { 0 };
	unsigned n = emit_spin_loop(dw, SPIN_ADDR, SPIN_ADDR + COND_DW * 4, 4);
	dw[COND_DW] = 0xffffffff;
	uint32_t spin_bb = batch(dw, COND_DW + 1);
	(void)n;
	volatile uint32_t *spin_cpu = eb_cpu_map(f, spin_bb);
	uint32_t scratch = eb_create(f, 4096);
	int spin_fence = submit(scratch, 0x500000, spin_bb, SPIN_ADDR, I915_EXEC_RENDER,
				I915_EXEC_FENCE_OUT, -1);
	CHECK(spin_fence >= 0);
	eb_sleep_ms(20);
	CHECK(eb_busy(f, spin_bb) != 0);

	/* 1. started: FENCE_SUBMIT runs beside the spinner */
	uint32_t t1, t3;
	volatile uint32_t *v1 = store_after(I915_EXEC_BLT, I915_EXEC_FENCE_SUBMIT, spin_fence,
					    0x5b, &t1);
	CHECK(eb_lands(v1, 0x5b, 2000));
	CHECK(eb_busy(f, spin_bb) != 0);   /* still spinning */

	/* 3. FENCE_IN of the same fence waits for the spinner's end */
	volatile uint32_t *v3 = store_after(I915_EXEC_BLT, I915_EXEC_FENCE_IN, spin_fence, 0x1f, &t3);
	CHECK(!eb_lands(v3, 0x1f, 200));
	spin_cpu[COND_DW] = MI_BATCH_BUFFER_END;
	CHECK_EQ(eb_wait(f, spin_bb, 5000000000ll), 0);
	CHECK_EQ(eb_wait(f, t3, 5000000000ll), 0);
	CHECK_EQ(*v3, 0x1fu);

	/* 2. not started: the cork on BCS, X on RCS after it, Y on VCS
	 * submitted with X's fence */
	uint32_t sema = eb_create(f, 4096);
	volatile uint32_t *sema_cpu = eb_cpu_map(f, sema);
	n = emit_semaphore_wait(dw, SEMA_ADDR, 1);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	uint32_t cork_bb = batch(dw, n);
	int cork = submit(sema, SEMA_ADDR, cork_bb, 0x600000, I915_EXEC_BLT, I915_EXEC_FENCE_OUT, -1);
	CHECK(cork >= 0);
	n = emit_store(dw, 0x700000, 0x77);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	uint32_t x_bb = batch(dw, n), x_obj = eb_create(f, 4096);
	volatile uint32_t *x = eb_cpu_map(f, x_obj);
	submit_ctx = eb_context_priority(f, -1);
	CHECK(submit_ctx != 0xffffffff);
	int x_fence = submit(x_obj, 0x700000, x_bb, 0x800000, I915_EXEC_RENDER,
			     I915_EXEC_FENCE_IN | I915_EXEC_FENCE_OUT, cork);
	submit_ctx = 0;
	CHECK(x_fence >= 0);
	uint32_t t2;
	volatile uint32_t *v2 = store_after(I915_EXEC_BSD, I915_EXEC_FENCE_SUBMIT, x_fence, 0x2b, &t2);
	CHECK(!eb_lands(v2, 0x2b, 200));   /* X has not started */
	CHECK_EQ(*x, 0u);
	sema_cpu[0] = 1;
	CHECK_EQ(eb_wait(f, t2, 5000000000ll), 0);
	CHECK_EQ(eb_wait(f, x_obj, 5000000000ll), 0);
	CHECK_EQ(*v2, 0x2bu);
	CHECK_EQ(*x, 0x77u);

	close(spin_fence);
	close(cork);
	close(x_fence);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
