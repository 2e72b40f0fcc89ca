/* Preemption and timeslicing (i915's execlists on Linux 6.1:
 * intel_execlists_submission.c need_preempt, need_timeslice,
 * __unwind_incomplete_requests, preempt_timeout), on the model's ring.
 *
 * When a request behind the running one must go first (a higher
 * priority, or priority inheritance: scheduler.c), or an equal-priority
 * request of another context has waited a timeslice
 * (timeslice_duration_ms), the worker asks the engine to stop at its next
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
 * (wall time less the engine thread's waits for a host CPU, as hangcheck
 * counts) resets the engine, the running request guilty (i915's
 * "preemption time out"), where the engine can preempt. The model cannot stop a draw or a
 * dispatch midway (the hardware's object-level preemption): while EU
 * threads keep ending, the batch counts as yielding (the timeout starts
 * again) and runs on to its next arbitration point. */
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
	(void)hw;
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
	if (running) {
		bool started = pt->in_batch;
		restart = running->head;
		e->emit = running->head;
		e->space_head = running->head;
		e->next_seqno = running->seqno - 1;
		e->last_lrc = started ? running->post_lrc : running->pre_lrc;
		e->last_pml4 = started ? running->post_pml4 : running->pre_pml4;
		e->last_ctx_addr = started ? running->post_ctx_addr : running->pre_ctx_addr;
		unsigned unwound = 0;
		struct list_node *n;
		for (n = &running->link; n != &e->requests; n = n->next) {
			struct gem_request *rq = list_entry(n, struct gem_request, link);
			if (!rq->emitted)
				break;
			rq->emitted = false;
			e->queued++;
			unwound++;
		}
		if (started) {
			/* its context has an image now, its registers are saved
			 * at the switch away (lrc.c) */
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
	__atomic_store_n(&e->emitted_tail, e->emit, __ATOMIC_RELEASE);
	pthread_mutex_lock(&e->kick_lock);
	e->kicked_tail = e->emit;
	engine_mmio_write(e->hw, RING_TAIL, e->emit);
	pthread_mutex_unlock(&e->kick_lock);
	e->ts_seqno = 0;
	pthread_mutex_unlock(&e->lock);
	engine_reset(e->hw, restart);
}

/* The preempt timeout's window starts (again) now. */
static void window_start(struct rq_engine *e, uint64_t now)
{
	struct engine_host_times t = { 0 };
	engine_host_times(e->hw, &t);
	e->preempt_since_ns = now;
	e->preempt_arb = engine_arb_checks(e->hw);
	e->preempt_cpu_ns = t.on_cpu_ns;
	e->preempt_runq_ns = t.runq_ns;
}

/* GPU time in the window: wall time less the time the engine's host
 * thread waited for a host CPU (as hangcheck counts it: a loaded host
 * slows the engine down, it does not make it refuse to yield); none
 * while it waits for one and has not run since. */
static uint64_t window_gpu_ns(struct rq_engine *e, uint64_t now)
{
	uint64_t wall = now - e->preempt_since_ns;
	struct engine_host_times t;
	if (!engine_host_times(e->hw, &t))
		return wall;
	if (t.runnable && t.on_cpu_ns == e->preempt_cpu_ns)
		return 0;
	uint64_t runq = t.runq_ns - e->preempt_runq_ns;
	return wall > runq ? wall - runq : 0;
}

static uint64_t ms_ns(uint64_t ms)
{
	return ms * 1000000ull;
}

uint64_t preempt_service(struct rq_engine *e, uint64_t now)
{
	if (!e->ring_obj)
		return 0;
	struct engine_preempt_point pt;
	if (__atomic_exchange_n(&e->preempted, false, __ATOMIC_ACQ_REL) &&
	    engine_preempted(e->hw, &pt))
		preempt_complete(e, &pt);

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
		e->ts_seqno = 0;
		pthread_mutex_unlock(&e->lock);
		return 0;
	}
	if (running->seqno != e->ts_seqno) {
		e->ts_seqno = running->seqno;
		e->ts_since_ns = now;
	}
	if (!e->preempt_pending) {
		enum sched_yield y = sched_should_yield(&e->requests, running);
		uint64_t slice = ms_ns(prop_get(&e->props.timeslice_duration_ms));
		if (y == SCHED_TIMESLICE && (!can_preempt || !slice))
			y = SCHED_KEEP;
		if (y == SCHED_TIMESLICE && now - e->ts_since_ns < slice) {
			deadline = e->ts_since_ns + slice;
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
		if (engine_arb_checks(e->hw) != e->preempt_arb || engine_host_compiling()) {
			/* EU threads ending (a draw or dispatch the hardware
			 * would preempt at its boundary), or the JIT's host time */
			window_start(e, now);
		}
		uint64_t gpu = window_gpu_ns(e, now);
		if (gpu >= limit && params_hangcheck())
			timeout = true;
		else
			deadline = now + (limit - gpu);
	}
	uint32_t seqno = running->seqno;
	pthread_mutex_unlock(&e->lock);
	if (timeout) {
		TRACE(TRACE_HANG, "%s: seqno %u did not yield within preempt_timeout_ms",
		      engine_name(e->id), seqno);
		engine_hang_if_unchanged(e, "preemption time out",
					 &(const struct hang_sample){ .only_seqno = seqno,
								      .capture = true });
		pthread_mutex_lock(&e->lock);
		cancel_request(e);
		pthread_mutex_unlock(&e->lock);
	}
	return deadline;
}
