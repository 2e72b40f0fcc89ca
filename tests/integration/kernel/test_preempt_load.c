/* Timeslices and preempt timeouts when the engine's host thread and the
 * kernel worker do not get a host CPU when they want one (a loaded host).
 * Deterministic: the kernel worker is stopped and the test calls
 * preempt_service itself, with times it chooses (SKL rcs0,
 * timeslice_duration_ms 1). Spinners are IGT's (a store of 1, then
 * MI_ARB_CHECK, MI_CONDITIONAL_BATCH_BUFFER_END, jump back), one per
 * context, at equal priority, sharing nothing: timeslice candidates.
 *
 *  - start: a timeslice counts from when the engine has begun the
 *    request, not from its emission (i915 arms its timer when the hardware
 *    reports the switch to the context: process_csb, set_timeslice).
 *    A's spinner is emitted while MI_MODE's Stop Ring holds the engine,
 *    B's waits behind it. 5 ms later A has not begun: no yield is asked
 *    (before: asked, and A lost its turn without having run;
 *    kernel-ctx_timestamp's fairslice once measured 4.7 ms and 398.7 ms
 *    of 404 ms). Stop Ring cleared, A's store lands: its slice starts
 *    when the worker sees that; 0.5 ms later no yield is asked, 1 ms later
 *    one is; the engine stops at A's MI_ARB_CHECK, B is emitted (with the
 *    seqno A had) and runs.
 *  - late callback: preempt_timeout_ms 50. A polls MI_SEMAPHORE_WAIT for
 *    a dword the CPU sets at the end (an arbitration point that passes no
 *    MI_ARB_CHECK, so the preempt timeout's window does not start again
 *    there). A is asked to yield and stops at its wait, but the worker
 *    has not seen the engine's
 *    callback yet (it looked just before: the test clears the flag the
 *    callback set). 200 ms of the engine's sleep later the preempt timeout
 *    has expired: no reset, as the engine did stop (before: A was reset,
 *    guilty, "preemption time out"). With the callback seen, B runs and
 *    A ends normally afterwards.
 *  - kill after unwind: heartbeat off, so closing a context cancels its
 *    requests and the worker resets the engine under the one executing.
 *    A's context is destroyed while A spins; before the worker acts, A
 *    yields its timeslice and B is emitted with the seqno A had. The
 *    worker (started again) then resets nothing: B runs on and ends
 *    normally, innocent, and A is emitted again without its batch (it
 *    ends, cancelled). Before, the worker named A by seqno and reset B,
 *    guilty. */
#include <stdio.h>
#include <time.h>

#include "eb_test.h"
#include "gpu/cs/engine.h"
#include "stop_ring.h"
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
static struct rq_engine *e;
static struct gt_engine *hw;

struct spinner {
	uint32_t bb, out;
	volatile uint32_t *cpu, *out_cpu;
};

/* Submits a batch in ctx on the render ring: out[0] = 1, then a spin
 * loop (the CPU ends it with MI_BATCH_BUFFER_END at COND_DW) or, with
 * sema, a wait for out[1] to become 1 (no MI_ARB_CHECK: the wait is the
 * arbitration point). */
static void batch_submit(struct spinner *s, uint32_t ctx, bool sema)
{
	s->bb = eb_create(f, 4096);
	s->out = eb_create(f, 4096);
	uint32_t dw[1024] = { 0 };
	unsigned n = emit_store(dw, OUT_ADDR, 1);
	if (sema) {
		n += emit_semaphore_wait(dw + n, OUT_ADDR + 4, 1);
		dw[n++] = MI_BATCH_BUFFER_END;
	} else {
		emit_spin_loop(dw + n, SPIN_ADDR + n * 4, SPIN_ADDR + COND_DW * 4, 8);
	}
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

static void spin_submit(struct spinner *s, uint32_t ctx)
{
	batch_submit(s, ctx, false);
}

static void spin_close(struct spinner *s)
{
	eb_close(f, s->bb);
	eb_close(f, s->out);
}

static bool pending(void)
{
	pthread_mutex_lock(&e->lock);
	bool p = e->preempt_pending;
	pthread_mutex_unlock(&e->lock);
	return p;
}

static uint32_t running_seqno(uint32_t *ctx_hw_id)
{
	pthread_mutex_lock(&e->lock);
	struct gem_request *rq = engine_running_request(e);
	uint32_t seqno = rq ? rq->seqno : 0;
	*ctx_hw_id = rq && rq->ctx ? rq->ctx->hw_id : 0;
	pthread_mutex_unlock(&e->lock);
	return seqno;
}

static uint32_t resets(uint32_t ctx)
{
	struct drm_i915_reset_stats rs = { .ctx_id = ctx };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	return rs.batch_active;
}

/* A device whose engine has run its set-up (a first batch) and idles,
 * its worker stopped: the test is the worker from then on. */
static void open_device(void)
{
	struct gtsim_config cfg = { .device = "skl", .hangcheck_ms = 60000 };
	dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	f = gtsim_open(dev);
	e = &dev->requests->engine[ENGINE_RCS];
	hw = dev->gpu->engines[ENGINE_RCS];
	CHECK_EQ(prop_get(&e->props.timeslice_duration_ms), 1);
	struct spinner warm;
	spin_submit(&warm, 0);
	CHECK(eb_lands(warm.out_cpu, 1, 5000));
	warm.cpu[COND_DW] = MI_BATCH_BUFFER_END;
	CHECK_EQ(eb_wait(f, warm.bb, 5000 * MS), 0);
	spin_close(&warm);
	CHECK(engine_wait_idle(hw, 5000 * MS));   /* the next context switch finds it idle */
	worker_stop(dev);
}

/* Ends both batches (spinners, or a's semaphore wait): b runs, a is
 * queued behind it. */
static void end_both(struct spinner *a, struct spinner *b)
{
	b->cpu[COND_DW] = MI_BATCH_BUFFER_END;
	a->cpu[COND_DW] = MI_BATCH_BUFFER_END;
	a->out_cpu[1] = 1;
	CHECK_EQ(eb_wait(f, b->bb, 5000 * MS), 0);
	for (int i = 0; i < 5000 && eb_wait(f, a->bb, 0); i++) {
		requests_emit_ready(e);
		eb_sleep_ms(1);
	}
	CHECK_EQ(eb_wait(f, a->bb, 0), 0);
	spin_close(a);
	spin_close(b);
}

static void close_device(void)
{
	gtsim_close(f);
	gtsim_device_destroy(dev);
}

/* Asks the running spinner a (begun) to yield: a slice after t. */
static void ask_yield(uint64_t t)
{
	preempt_service(e, t);             /* a has begun: its slice starts */
	preempt_service(e, t + MS / 2);
	CHECK(!pending());
	preempt_service(e, t + MS + 1);
	CHECK(pending());
	for (int i = 0; i < 5000 && !engine_preempted(hw, NULL); i++)
		eb_sleep_ms(1);
	CHECK(engine_preempted(hw, NULL));
}

static void start(void)
{
	open_device();
	uint32_t ca = eb_context_create(f), cb = eb_context_create(f);
	stop_ring(hw, true);
	struct spinner a, b;
	spin_submit(&a, ca);
	spin_submit(&b, cb);
	uint32_t a_hw = 0, b_hw = 0;
	uint32_t a_seqno = running_seqno(&a_hw);
	CHECK(a_seqno != 0);
	uint64_t t = (uint64_t)fence_now_ns();
	preempt_service(e, t);
	preempt_service(e, t + 5 * MS);
	CHECK(!pending());   /* A has not begun: no slice has run */
	CHECK_EQ(a.out_cpu[0], 0);

	stop_ring(hw, false);
	CHECK(eb_lands(a.out_cpu, 1, 5000));
	ask_yield((uint64_t)fence_now_ns());
	preempt_service(e, (uint64_t)fence_now_ns());   /* unwinds A, emits B */
	CHECK(eb_lands(b.out_cpu, 1, 5000));
	CHECK_EQ(running_seqno(&b_hw), a_seqno);
	CHECK(b_hw != a_hw);
	CHECK(!pending());
	end_both(&a, &b);
	CHECK_EQ(a.out_cpu[0], 1);
	close_device();
}

static void late_callback(void)
{
	open_device();
	CHECK_EQ(gtsim_engine_file_write(dev, "rcs0", "preempt_timeout_ms", "50", 2), 0);
	uint32_t ca = eb_context_create(f), cb = eb_context_create(f);
	struct spinner a, b;
	batch_submit(&a, ca, true);
	spin_submit(&b, cb);
	CHECK(eb_lands(a.out_cpu, 1, 5000));
	uint64_t t = (uint64_t)fence_now_ns();
	ask_yield(t);
	/* the callback's news, as if it came after the worker looked */
	CHECK(__atomic_exchange_n(&e->preempted, false, __ATOMIC_ACQ_REL));
	preempt_service(e, t + MS + 1 + 200 * MS);
	CHECK_EQ(resets(ca), 0);
	CHECK(engine_preempted(hw, NULL));
	__atomic_store_n(&e->preempted, true, __ATOMIC_RELEASE);   /* now it is seen */
	preempt_service(e, (uint64_t)fence_now_ns());
	CHECK(eb_lands(b.out_cpu, 1, 5000));
	end_both(&a, &b);
	CHECK_EQ(resets(ca), 0);
	CHECK_EQ(resets(cb), 0);
	close_device();
}

static void kill_after_unwind(void)
{
	open_device();
	CHECK_EQ(gtsim_engine_file_write(dev, "rcs0", "heartbeat_interval_ms", "0", 1), 0);
	uint32_t ca = eb_context_create(f), cb = eb_context_create(f);
	struct spinner a, b;
	spin_submit(&a, ca);
	spin_submit(&b, cb);
	CHECK(eb_lands(a.out_cpu, 1, 5000));
	struct drm_i915_gem_context_destroy d = { .ctx_id = ca };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &d), 0);
	ask_yield((uint64_t)fence_now_ns());
	preempt_service(e, (uint64_t)fence_now_ns());   /* unwinds A, emits B */
	CHECK(eb_lands(b.out_cpu, 1, 5000));
	dev->requests->quit = false;
	CHECK_EQ(worker_start(dev), 0);
	eb_sleep_ms(100);   /* the worker's turns */
	CHECK_EQ(resets(cb), 0);
	CHECK(eb_busy(f, b.bb) != 0);   /* still spinning */
	end_both(&a, &b);
	CHECK_EQ(resets(cb), 0);
	close_device();
}

int main(void)
{
	eb_require_async("the engine runs the spinners while the test drives the scheduler");
	start();
	late_callback();
	kill_after_unwind();
	return test_exit();
}
