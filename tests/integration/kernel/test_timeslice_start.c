/* A timeslice counts from when the engine has begun the request, not from
 * its emission (i915 arms the timeslice timer when the hardware reports
 * the switch to the context: process_csb, set_timeslice). Before, the
 * slice ran from when the kernel worker first saw the request emitted: on
 * a loaded host the engine's thread could take longer than a slice to
 * reach it, the request was asked to yield before its first command and
 * lost its turn without having run (kernel-ctx_timestamp's fairslice once
 * measured 4.7 ms and 398.7 ms of 404 ms for its two contexts).
 *
 * Deterministic: the kernel worker is stopped and the test calls
 * preempt_service itself with chosen times (timeslice_duration_ms 1, SKL
 * rcs0). Context A's spinner (IGT's: a store of 1, then MI_ARB_CHECK,
 * MI_CONDITIONAL_BATCH_BUFFER_END, jump back) is emitted while MI_MODE's
 * Stop Ring holds the engine, so it cannot begin; context B's spinner
 * waits behind it (equal priority, nothing shared: a timeslice
 * candidate).
 *  - 5 ms after A's emission, A has not begun: no yield is asked (before:
 *    asked, a slice being 1 ms).
 *  - Stop Ring cleared, A's store lands (it has begun): its slice starts
 *    when the worker sees that. 0.5 ms later no yield is asked, 1 ms
 *    later one is; the engine stops at A's MI_ARB_CHECK and B is emitted
 *    (with the seqno A had) and runs: its store lands. */
#include <stdio.h>
#include <time.h>

#include "eb_test.h"
#include "gpu/cs/engine.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/request.h"
#include "kernel/sync/fence.h"

#define SPIN_ADDR 0x100000ull
#define OUT_ADDR 0x200000ull
#define COND_DW 1022
#define MS 1000000ull

static struct gtsim_device *dev;
static struct gtsim_file *f;

struct spinner {
	uint32_t bb, out;
	volatile uint32_t *cpu, *out_cpu;
};

/* Submits a spinner in ctx on the render ring: out[0] = 1, then the loop. */
static void spin_submit(struct spinner *s, uint32_t ctx)
{
	s->bb = eb_create(f, 4096);
	s->out = eb_create(f, 4096);
	uint32_t dw[1024] = { 0 };
	unsigned n = emit_store(dw, OUT_ADDR, 1);
	emit_spin_loop(dw + n, SPIN_ADDR + n * 4, SPIN_ADDR + COND_DW * 4, 8);
	dw[COND_DW] = 0xffffffff;
	CHECK_EQ(eb_write(f, s->bb, 0, dw, sizeof(dw)), 0);
	s->cpu = eb_cpu_map(f, s->bb);
	s->out_cpu = eb_cpu_map(f, s->out);
	CHECK(s->cpu && s->out_cpu);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = s->out, .offset = OUT_ADDR, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = s->bb, .offset = SPIN_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, o, 2, I915_EXEC_RENDER, ctx), 0);
}

static void stop_ring(struct gt_engine *hw, bool on)
{
	uint32_t mask = REG_RING_MI_MODE_STOP_RING_MASK;
	engine_mmio_write(hw, REG_RING_MI_MODE, mask << 16 | (on ? mask : 0));
}

static bool pending(struct rq_engine *e)
{
	pthread_mutex_lock(&e->lock);
	bool p = e->preempt_pending;
	pthread_mutex_unlock(&e->lock);
	return p;
}

static uint32_t running_seqno(struct rq_engine *e, uint32_t *ctx_hw_id)
{
	pthread_mutex_lock(&e->lock);
	struct gem_request *rq = engine_running_request(e);
	uint32_t seqno = rq ? rq->seqno : 0;
	*ctx_hw_id = rq && rq->ctx ? rq->ctx->hw_id : 0;
	pthread_mutex_unlock(&e->lock);
	return seqno;
}

int main(void)
{
	eb_require_async("the engine runs the spinners while the test drives the scheduler");
	struct gtsim_config cfg = { .device = "skl", .hangcheck_ms = 60000 };
	dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	f = gtsim_open(dev);
	struct rq_engine *e = &dev->requests->engine[ENGINE_RCS];
	struct gt_engine *hw = dev->gpu->engines[ENGINE_RCS];
	CHECK_EQ(prop_get(&e->props.timeslice_duration_ms), 1);

	/* the engine's set-up (its first execbuf) runs before the hold */
	struct spinner warm;
	spin_submit(&warm, 0);
	CHECK(eb_lands(warm.out_cpu, 1, 5000));
	warm.cpu[COND_DW] = MI_BATCH_BUFFER_END;
	CHECK_EQ(eb_wait(f, warm.bb, 5000 * MS), 0);
	CHECK(engine_wait_idle(hw, 5000 * MS));   /* A's context switch finds it idle */

	worker_stop(dev);   /* the test is the worker from here on */
	uint32_t ca = eb_context_create(f), cb = eb_context_create(f);
	stop_ring(hw, true);
	struct spinner a, b;
	spin_submit(&a, ca);
	spin_submit(&b, cb);
	uint32_t a_hw = 0, b_hw = 0;
	uint32_t a_seqno = running_seqno(e, &a_hw);
	CHECK(a_seqno != 0);
	uint64_t t = (uint64_t)fence_now_ns();
	preempt_service(e, t);
	preempt_service(e, t + 5 * MS);
	CHECK(!pending(e));   /* A has not begun: no slice has run */
	CHECK_EQ(a.out_cpu[0], 0);

	stop_ring(hw, false);
	CHECK(eb_lands(a.out_cpu, 1, 5000));
	t = (uint64_t)fence_now_ns();
	preempt_service(e, t);             /* A has begun: its slice starts */
	preempt_service(e, t + MS / 2);
	CHECK(!pending(e));
	preempt_service(e, t + MS + 1);
	CHECK(pending(e));
	for (int i = 0; i < 5000 && !engine_preempted(hw, NULL); i++)
		eb_sleep_ms(1);
	CHECK(engine_preempted(hw, NULL));
	preempt_service(e, (uint64_t)fence_now_ns());   /* unwinds A, emits B */
	CHECK(eb_lands(b.out_cpu, 1, 5000));
	CHECK_EQ(running_seqno(e, &b_hw), a_seqno);
	CHECK(b_hw != a_hw);
	CHECK(!pending(e));

	/* the ends: B's, then A's once emitted again */
	b.cpu[COND_DW] = MI_BATCH_BUFFER_END;
	a.cpu[COND_DW] = MI_BATCH_BUFFER_END;
	CHECK_EQ(eb_wait(f, b.bb, 5000 * MS), 0);
	for (int i = 0; i < 5000 && eb_wait(f, a.bb, 0); i++) {
		requests_emit_ready(e);
		eb_sleep_ms(1);
	}
	CHECK_EQ(eb_wait(f, a.bb, 0), 0);
	CHECK_EQ(a.out_cpu[0], 1);
	struct spinner *all[] = { &warm, &a, &b };
	for (int i = 0; i < 3; i++) {
		eb_close(f, all[i]->bb);
		eb_close(f, all[i]->out);
	}
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
