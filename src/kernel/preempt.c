/* Preemption and timeslicing (i915's execlists on Linux 6.1:
 * intel_execlists_submission.c need_preempt, need_timeslice,
 * __unwind_incomplete_requests, preempt_timeout), on the model's ring.
 *
 * When a request behind the running one must go first (a higher
 * priority, or priority inheritance: scheduler.c), or an equal-priority
 * request of another context has waited while the running one ran a
 * timeslice (timeslice_duration_ms, counted from when the engine began
 * it), the worker asks the engine to stop at its next
 * arbitration point (engine_request_preemption): an MI_ARB_CHECK with
 * arbitration enabled, in a batch (where the engine can preempt: not
 * BDW's render engine, whose batches run with arbitration off, as i915's
 * gen8_emit_bb_start_noarb leaves them) or in the ring before each request.
 * When it stops, every emitted request not completed is unwound: taken
 * out of the ring (seqnos given back, the engine's context state as
 * before them) and queued again, the preempted one to resume after its
 * arbitration point (a MI_BATCH_BUFFER_START to that address, its context
 * and registers restored by the usual switch: lrc.c, MI_SET_CONTEXT),
 * behind its equals after a timeslice. The scheduler then refills the
 * ring in its order and the engine restarts there.
 *
 * A preemption not acknowledged within preempt_timeout_ms of GPU time
 * (gpu_clock_tick: the engine thread's time on a host CPU) resets the engine, the running request guilty (i915's
 * "preemption time out"), where the engine can preempt. The model cannot stop a draw or a
 * dispatch midway (the hardware's object-level preemption): while EU
 * threads keep ending, the batch counts as yielding (the timeout starts
 * again) and runs on to its next arbitration point.
 *
 * The watchdog (i915.request_timeout_ms, 20 s, on every user context since
 * Linux 5.14): a user request that has run that long (GPU time, as above;
 * the model counts only while it executes, i915 from when it was ready)
 * is cancelled: its fence gets -EINTR and the engine is reset past it, as
 * i915_request_cancel's pulse does to a request that does not leave. */
#include "kernel/request.h"

#include <errno.h>

#include "common/trace.h"
#include "gpu/cs/engine.h"
#include "kernel/device.h"
#include "kernel/params.h"
#include "kernel/scheduler.h"
#include "kernel/sync/fence.h"

void on_preempted(void *data, struct gt_engine *hw)
{
	struct rq_engine *e = data;
	TRACE(TRACE_GEM, "%s: stopped at an arbitration point", engine_name(engine_id(hw)));
	__atomic_store_n(&e->preempted, true, __ATOMIC_RELEASE);
	worker_wake(e->dev);
}

static void cancel_request(struct rq_engine *e)
{
	engine_request_preemption(e->hw, false);
	e->preempt_pending = false;
}

/* The engine stopped at an arbitration point: unwind and refill the
 * ring, restart. No lock held. */
static void preempt_complete(struct rq_engine *e, const struct engine_preempt_point *pt)
{
	/* what completed before the stop is not unwound */
	requests_signal_completed(e);
	pthread_mutex_lock(&e->lock);
	bool timeslice = e->preempt_timeslice;
	cancel_request(e);
	uint32_t restart = pt->head;
	struct gem_request *running = engine_running_request(e);
	/* everything emitted is in the loaded ring (request.c ring_switch) */
	struct ctx_ring *ring = e->cur;
	if (running) {
		bool started = pt->in_batch;
		/* stopped at one of its semaphore waits (execbuf_sema.c): its
		 * context is loaded, its batch not started; it is emitted
		 * again from its head, waits included */
		bool switched = started ||
				(running->nsema && ((pt->head - running->sema_pos) & (ring->size - 1)) <
						   ((running->bb_pos - running->sema_pos) & (ring->size - 1)));
		restart = running->head;
		ring->emit = running->head;
		ring->space_head = running->head;
		ring->state[CTX_RING_TAIL] = ring->emit;
		e->next_seqno = running->seqno - 1;
		e->last_lrc = switched ? running->post_lrc : running->pre_lrc;
		e->last_pml4 = switched ? running->post_pml4 : running->pre_pml4;
		e->last_ctx_addr = switched ? running->post_ctx_addr : running->pre_ctx_addr;
		unsigned unwound = 0;
		struct list_node *n;
		for (n = &running->link; n != &e->requests; n = n->next) {
			struct gem_request *rq = list_entry(n, struct gem_request, link);
			if (!rq->emitted)
				break;
			rq->emitted = false;
			e->queued++;
			rq->ring->queued++;
			unwound++;
		}
		if (switched) {
			/* its context has an image now, its registers are saved
			 * at the switch away (lrc.c) */
			if (started)
				running->resume_addr = pt->batch_addr;
			running->ctx_first_use = false;
			running->lrc_first = false;
		}
		if (timeslice)
			sched_yield_running(&e->requests, running);
		TRACE(TRACE_GEM, "%s: %s: seqno %u %s, %u requests unwound", engine_name(e->id),
		      timeslice ? "timeslice" : "preemption", running->seqno,
		      started ? "preempted in its batch" : "not started", unwound);
		requests_emit_ready_locked(e);
	}
	/* The engine restarts at the rewritten ring: TAIL first, while it
	 * is stopped. */
	__atomic_store_n(&e->emitted_tail, e->cur->emit, __ATOMIC_RELEASE);
	pthread_mutex_lock(&e->kick_lock);
	e->kicked_tail = e->cur->emit;
	engine_mmio_write(e->hw, RING_TAIL, e->cur->emit);
	pthread_mutex_unlock(&e->kick_lock);
	pthread_mutex_unlock(&e->lock);
	engine_reset(e->hw, restart);
	/* a request of another context is emitted now that the engine is
	 * idle at the unwound ring's end (a context switch) */
	requests_emit_ready(e);
}

/* GPU time since the clock's last tick (none at its first): while the
 * engine's host thread is runnable (executing commands), the time it ran;
 * while it sleeps (a polling command), the wall time less its waits for a
 * host CPU; none while a host thread compiles EU code. A loaded host
 * (load average 20 on 2 cores here) slows the engine down; it does not
 * make a batch refuse to yield. */
static uint64_t gpu_clock_tick(struct rq_engine *e, struct gpu_clock *c, uint64_t now)
{
	struct engine_host_times t = { 0 };
	bool known = engine_host_times(e->hw, &t);
	uint64_t wall = c->tick_ns ? now - c->tick_ns : 0;
	uint64_t ran = t.on_cpu_ns - c->cpu_ns, runq = t.runq_ns - c->runq_ns;
	c->tick_ns = now;
	c->cpu_ns = t.on_cpu_ns;
	c->runq_ns = t.runq_ns;
	if (!known)
		return wall;
	if (engine_host_compiling())
		return 0;
	if (t.runnable)
		return ran < wall ? ran : wall;
	return wall > runq ? wall - runq : 0;
}

/* The preempt timeout's window starts (again) now. */
static void window_start(struct rq_engine *e, uint64_t now)
{
	e->preempt_arb = engine_arb_checks(e->hw);
	e->preempt_gpu_ns = 0;
	e->preempt_clock.tick_ns = 0;
	gpu_clock_tick(e, &e->preempt_clock, now);
}

/* Has the engine begun the running request (its HEAD past the request's
 * first command, the MI_ARB_CHECK; the request is in the loaded ring)?
 * Engine lock held. */
static bool request_begun(struct rq_engine *e, const struct gem_request *rq)
{
	return (engine_ring_head(e->hw) & REG_RING_HEAD_HEAD_OFFSET_MASK) != rq->head;
}

/* *deadline <- the earlier of it (0: none) and t. */
static void earlier(uint64_t *deadline, uint64_t t)
{
	if (!*deadline || t < *deadline)
		*deadline = t;
}

static uint64_t ms_ns(uint64_t ms)
{
	return ms * 1000000ull;
}

uint64_t preempt_service(struct rq_engine *e, uint64_t now)
{
	if (!__atomic_load_n(&e->cur, __ATOMIC_ACQUIRE))
		return 0;
	struct engine_preempt_point pt;
	if (__atomic_exchange_n(&e->preempted, false, __ATOMIC_ACQ_REL) &&
	    engine_preempted(e->hw, &pt)) {
		preempt_complete(e, &pt);
		/* it waits for the engine's thread: on a loaded host, long */
		now = (uint64_t)fence_now_ns();
	}

	int gen = e->dev->info->gen;
	bool can_preempt = engine_can_preempt(gen, e->id);
	uint64_t deadline = 0;
	bool timeout = false;
	pthread_mutex_lock(&e->lock);
	struct gem_request *running = engine_running_request(e);
	if (e->preempt_pending && (!running || running->seqno != e->preempt_seqno)) {
		/* what it was asked for finished or was reset meanwhile */
		cancel_request(e);
	}
	if (!running) {
		pthread_mutex_unlock(&e->lock);
		return 0;
	}
	/* The watchdog (i915's request_timeout_ms, armed on every user
	 * context's requests): GPU time the running request has run,
	 * preemptions included. */
	uint64_t ran = gpu_clock_tick(e, &e->wd_clock, now);
	if (running == e->wd_rq)
		running->run_ns += ran;
	e->wd_rq = running;
	uint64_t expiry = ms_ns(params_request_timeout_ms());
	bool expired = expiry && running->ctx && running->run_ns >= expiry && params_hangcheck();
	if (expiry && running->ctx && !expired)
		earlier(&deadline, now + (expiry - running->run_ns));
	/* The timeslice counts from when the engine has begun the request,
	 * as i915 arms its timer when the hardware reports the switch to the
	 * context (process_csb: set_timeslice), not from its emission: the
	 * engine's host thread may take longer than a slice to get there on
	 * a loaded host, and a request asked to yield before its first
	 * command would lose its turn without having run. */
	if (running->emission != e->ts_emission) {
		e->ts_emission = running->emission;
		e->ts_since_ns = 0;
	}
	if (!e->ts_since_ns && request_begun(e, running))
		e->ts_since_ns = now;
	if (!e->preempt_pending) {
		enum sched_yield y = sched_should_yield(&e->requests, running);
		uint64_t slice = ms_ns(prop_get(&e->props.timeslice_duration_ms));
		if (y == SCHED_TIMESLICE && (!can_preempt || !slice))
			y = SCHED_KEEP;
		if (y == SCHED_TIMESLICE && !e->ts_since_ns) {
			earlier(&deadline, now + slice);   /* look again then */
			y = SCHED_KEEP;
		}
		if (y == SCHED_TIMESLICE && now - e->ts_since_ns < slice) {
			earlier(&deadline, e->ts_since_ns + slice);
			y = SCHED_KEEP;
		}
		if (y != SCHED_KEEP) {
			e->preempt_pending = true;
			e->preempt_timeslice = y == SCHED_TIMESLICE;
			e->preempt_seqno = running->seqno;
			window_start(e, now);
			engine_request_preemption(e->hw, true);
			TRACE(TRACE_GEM, "%s: seqno %u (priority %d) asked to yield (%s)",
			      engine_name(e->id), running->seqno, running->priority,
			      y == SCHED_TIMESLICE ? "timeslice" : "preemption");
		}
	}
	uint64_t limit = ms_ns(prop_get(&e->props.preempt_timeout_ms));
	if (e->preempt_pending && can_preempt && limit) {
		e->preempt_gpu_ns += gpu_clock_tick(e, &e->preempt_clock, now);
		if (engine_arb_checks(e->hw) != e->preempt_arb) {
			/* EU threads ending: a draw or dispatch the hardware
			 * would preempt at its boundary */
			window_start(e, now);
		}
		uint64_t gpu = e->preempt_gpu_ns;
		if (gpu >= limit && params_hangcheck())
			timeout = true;
		else
			earlier(&deadline, now + (limit - gpu));
	}
	uint32_t seqno = running->seqno;
	uint64_t emission = running->emission;
	if (expired && !running->error)
		running->error = -EINTR;   /* i915_request_cancel(rq, -EINTR) */
	pthread_mutex_unlock(&e->lock);
	if (expired) {
		/* i915 cancels with a pulse and resets the engine when the
		 * request does not leave (intel_gt_handle_error, no capture) */
		TRACE(TRACE_HANG, "%s: seqno %u ran for request_timeout_ms: cancelled",
		      engine_name(e->id), seqno);
		engine_hang_if_unchanged(e, "request timeout",
					 &(const struct hang_sample){ .only_emission = emission });
		return now + 1000000;
	}
	if (timeout) {
		TRACE(TRACE_HANG, "%s: seqno %u did not yield within preempt_timeout_ms",
		      engine_name(e->id), seqno);
		engine_hang_if_unchanged(e, "preemption time out",
					 &(const struct hang_sample){ .only_emission = emission,
								      .capture = true,
								      .unless_preempted = true });
		pthread_mutex_lock(&e->lock);
		cancel_request(e);
		pthread_mutex_unlock(&e->lock);
	}
	return deadline;
}
