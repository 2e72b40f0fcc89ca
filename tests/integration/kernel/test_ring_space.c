/* How much of a context's ring is in use (kernel/request.c ring_space,
 * throttle_target): the kernel reads the engine's RING_HEAD as how far
 * the loaded ring is consumed, but only a HEAD between the last one known
 * and the ring's emit. Just after a preemption unwinds the ring
 * (preempt.c preempt_complete rewinds emit to the preempted request's
 * head) the stopped engine's HEAD is still past the new emit until its
 * restart; taken then, the ring looked full (some 16 KiB in use) and an
 * execbuf throttled on the context's spinner, which only its own client
 * would end, until the watchdog cancelled it (IGT gem_ctx_persistence
 * smoketest under fork sharing: -EINTR fences).
 *
 * White box, SKL render engine: a store batch in a context leaves its
 * ring loaded and idle at HEAD H. With MI_MODE's Stop Ring holding the
 * engine a second store is emitted (up to emit E) and RING_HEAD is set
 * to E + 0x100 (where a stopped engine's HEAD is after an unwind: past
 * the BB_START of the unwound request). Then no throttle is needed and
 * ring_space is the ring less its 64-byte gap and the request, 16 KiB -
 * 64 - (E - H); before the fix the throttle was needed (the ring looked
 * 16 KiB - 0x100 full) and waited on the held request. With HEAD back at
 * H and Stop Ring cleared, the store lands. */
#include <stdio.h>

#include "eb_test.h"
#include "gpu/cs/engine.h"
#include "stop_ring.h"
#include "kernel/device.h"
#include "kernel/lrc.h"
#include "kernel/request.h"

#define OUT_ADDR 0x200000ull
#define BATCH_ADDR 0x400000ull
#define MS 1000000ll

static struct gtsim_file *f;

static uint32_t submit_store(uint32_t ctx, uint32_t out, uint32_t value)
{
	return eb_submit_store(f, ctx, out, OUT_ADDR, 0, value, BATCH_ADDR);
}

static void finish(uint32_t bb)
{
	CHECK_EQ(eb_wait(f, bb, 5000 * MS), 0);
	eb_close(f, bb);
}

int main(void)
{
	struct gtsim_config cfg = { .device = "skl", .hangcheck_ms = 60000 };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	f = gtsim_open(dev);
	struct rq_engine *e = &dev->requests->engine[ENGINE_RCS];
	struct gt_engine *hw = dev->gpu->engines[ENGINE_RCS];
	uint32_t ctx = eb_context_create(f), out = eb_create(f, 4096);

	finish(submit_store(ctx, out, 1));
	CHECK(engine_wait_idle(hw, 5000 * MS));
	stop_ring(hw, true);
	uint32_t bb = submit_store(ctx, out, 2);   /* emitted, held by Stop Ring */
	pthread_mutex_lock(&e->lock);
	struct ctx_ring *r = e->cur;
	uint32_t emit = r->emit, size = r->size;
	uint32_t head = engine_ring_head(hw) & REG_RING_HEAD_HEAD_OFFSET_MASK;
	engine_mmio_write(hw, REG_RING_HEAD, (emit + 0x100) & (size - 1));
	pthread_mutex_unlock(&e->lock);
	bool throttle = request_throttle_needed(e, r);
	pthread_mutex_lock(&e->lock);
	uint32_t space = ring_space(e, r);
	pthread_mutex_unlock(&e->lock);
	fprintf(stderr, "ring of %u bytes, HEAD 0x%x, emit 0x%x, HEAD set to 0x%x: space %u, "
		"throttle %d\n", size, head, emit, (emit + 0x100) & (size - 1), space, throttle);
	CHECK(!throttle);
	CHECK_EQ(space, size - 64 - ((emit - head) & (size - 1)));

	engine_mmio_write(hw, REG_RING_HEAD, head);
	stop_ring(hw, false);
	finish(bb);
	CHECK_EQ(eb_read32(f, out, 0), 2u);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
