/* The kernel worker thread: emits requests that waited for fences or ring
 * space, runs hangcheck and retires completed requests now and then (seed
 * 002: "the kernel runs a regular task from a worker thread").
 *
 * Hangcheck (i915's, simplified): every hangcheck_ms / 2 each engine with
 * work in flight is sampled; when neither ACTHD nor the status page's seqno
 * moved and no arbitration point (MI_ARB_CHECK) was passed for hangcheck_ms
 * the engine is hung. A batch that runs (ACTHD moves) but neither passes
 * an arbitration point nor completes, such as IGT's non-preemptible
 * spinner looping through MI_BATCH_BUFFER_START, is hung after twice
 * that: i915's heartbeat (intel_engine_heartbeat.c) finds it cannot
 * preempt it and resets it once its pulse and preempt timeout expire,
 * whatever ACTHD does. A GPU fault reported by the engine is a hang at
 * once. reset.c handles both. Time a host thread spends compiling an EU
 * program (the JIT, engine_host_compiling()) is no GPU time and restarts
 * the count, and so is time the engine's host thread waited for a host
 * CPU (engine_host_times): the limit is in GPU time, not host load. */
#include "kernel/request.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/thread.h"
#include "common/trace.h"
#include "gpu/cs/engine.h"
#include "kernel/params.h"
#include "kernel/sync/fence.h"

void worker_wake(struct gtsim_device *dev)
{
	struct gem_requests *r = dev->requests;
	pthread_mutex_lock(&r->worker_lock);
	r->kick = true;
	pthread_cond_signal(&r->worker_cond);
	pthread_mutex_unlock(&r->worker_lock);
	fence_notify_change();
}

/* Is an emitted request waiting for the engine? */
static bool engine_busy(struct rq_engine *e)
{
	bool busy = false;
	pthread_mutex_lock(&e->lock);
	struct list_node *n, *t;
	list_for_each_safe(n, t, &e->requests) {
		struct gem_request *rq = list_entry(n, struct gem_request, link);
		if (!rq->signaled) {
			busy = rq->emitted;
			break;
		}
	}
	pthread_mutex_unlock(&e->lock);
	return busy;
}

/* GPU time since the last sample: the wall time less the time the
 * engine's host thread waited for a host CPU; none when it is waiting for
 * one now and has not run since (the host counts a wait when it ends). */
static uint64_t gpu_time(struct rq_engine *e, uint64_t now)
{
	uint64_t wall = now - e->hc_tick_ns;
	e->hc_tick_ns = now;
	struct engine_host_times t;
	if (!engine_host_times(e->hw, &t))
		return wall;
	uint64_t runq = t.runq_ns - e->hc_runq_ns;
	bool ran = t.on_cpu_ns != e->hc_cpu_ns;
	e->hc_runq_ns = t.runq_ns;
	e->hc_cpu_ns = t.on_cpu_ns;
	if (t.runnable && !ran)
		return 0;
	return wall > runq ? wall - runq : 0;
}

static void hangcheck_engine(struct rq_engine *e, uint64_t now, uint64_t limit_ns)
{
	/* i915.enable_hangcheck=N: hangs are never declared. */
	/* a JIT compile stalls the engine's host thread, not the GPU: the
	 * hardware would have run the kernel all along (glsl-1.50-gs-max-output's
	 * GS of 2074 instructions took 27 s to compile on a loaded host) */
	if (!params_hangcheck() || !engine_busy(e) || engine_host_compiling()) {
		e->hc_since_ns = 0;
		return;
	}
	uint64_t acthd = engine_acthd(e->hw);
	uint32_t seqno = engine_hws_seqno(e);
	/* An arbitration point passed is progress too: i915's heartbeat
	 * would preempt the batch there and find the engine alive (IGT's
	 * spinners loop through MI_ARB_CHECK until the CPU ends them). */
	uint64_t arb = engine_progress_marks(e->hw);
	if (!e->hc_since_ns || seqno != e->hc_seqno || arb != e->hc_arb) {
		e->hc_acthd = acthd;
		e->hc_seqno = seqno;
		e->hc_arb = arb;
		e->hc_since_ns = now;
		e->hc_gpu_ns = 0;
		gpu_time(e, now);
		e->hc_moving = false;
		return;
	}
	if (acthd != e->hc_acthd) {
		e->hc_acthd = acthd;
		e->hc_moving = true;
	}
	/* GPU time is wall time less the time the engine's host thread
	 * waited for a host CPU: a loaded host slows the engine down, it
	 * does not hang it (a fuzz draw reset after 40 ms of wall time of
	 * which the engine thread had run a fraction) */
	e->hc_gpu_ns += gpu_time(e, now);
	uint64_t gpu = e->hc_gpu_ns;
	if (gpu < (e->hc_moving ? 2 * limit_ns : limit_ns))
		return;
	/* A request waiting in its ring for another engine's
	 * (execbuf_sema.c) waits at an arbitration point: the heartbeat
	 * would preempt it there, no hang (the signaler's engine is
	 * checked on its own). */
	pthread_mutex_lock(&e->lock);
	struct gem_request *running = engine_running_request(e);
	bool waiting = running && request_sema_blocked(running);
	pthread_mutex_unlock(&e->lock);
	if (waiting) {
		e->hc_since_ns = 0;
		return;
	}
	char why[96];
	snprintf(why, sizeof(why), "no progress for %llu ms (ACTHD 0x%llx, seqno %u)",
		 (unsigned long long)(gpu / 1000000),
		 (unsigned long long)acthd, seqno);
	TRACE(TRACE_HANG, "%s: hangcheck: %s", engine_name(e->id), why);
	engine_hang_if_unchanged(e, why, &(const struct hang_sample){
		.acthd = acthd, .seqno = seqno, .arb = arb, .moving = e->hc_moving });
}

/* Preemption, timeslices and the heartbeat (preempt.c, heartbeat.c):
 * when the worker must run next for this engine, at the latest `at`. */
static uint64_t sched_deadline(struct rq_engine *e, uint64_t now, uint64_t at)
{
	uint64_t d = preempt_service(e, now);
	if (d && d < at)
		at = d;
	d = heartbeat_service(e, now);
	if (d && d < at)
		at = d;
	return at;
}

static void *worker_main(void *arg)
{
	struct gtsim_device *dev = arg;
	struct gem_requests *r = dev->requests;
	uint64_t limit_ns = (uint64_t)(dev->hangcheck_ms ? dev->hangcheck_ms : 1500) * 1000000;
	uint64_t period_ns = limit_ns / 2 ? limit_ns / 2 : 1000000;
	uint64_t next_tick = (uint64_t)fence_now_ns() + period_ns;

	pthread_mutex_lock(&r->worker_lock);
	while (!r->quit) {
		while (r->fork_hold && !r->quit) {
			r->parked = true;
			pthread_cond_broadcast(&r->worker_cond);
			pthread_cond_wait(&r->worker_cond, &r->worker_lock);
		}
		r->parked = false;
		if (r->quit)
			break;
		r->kick = false;
		pthread_mutex_unlock(&r->worker_lock);

		uint64_t seq = fence_wait_seq();
		bool queued = false;
		for (int i = 0; i < GT_NUM_ENGINES; i++) {
			struct rq_engine *e = &r->engine[i];
			if (__atomic_exchange_n(&e->fault, false, __ATOMIC_ACQ_REL)) {
				/* the error state names the fault the engine stopped on */
				char why[320] = "GPU fault: ";
				size_t at = strlen(why);
				if (!engine_is_stopped(e->hw, why + at, sizeof(why) - at))
					why[at - 2] = 0;
				engine_hang(e, why);
			}
			queued |= requests_emit_ready(e);
			/* A closed context's executing request (ctx_close). */
			uint64_t kill = __atomic_exchange_n(&e->kill_emission, 0, __ATOMIC_ACQ_REL);
			if (kill)
				engine_hang_if_unchanged(e, "context closed",
							 &(const struct hang_sample){ .only_emission = kill });
		}
		uint64_t now = (uint64_t)fence_now_ns();
		uint64_t wake_at = next_tick;
		for (int i = 0; i < GT_NUM_ENGINES; i++)
			wake_at = sched_deadline(&r->engine[i], now, wake_at);
		if (now >= next_tick) {
			for (int i = 0; i < GT_NUM_ENGINES; i++)
				hangcheck_engine(&r->engine[i], now, limit_ns);
			if (pthread_mutex_trylock(&dev->lock) == 0) {
				requests_retire(dev);
				pthread_mutex_unlock(&dev->lock);
			}
			next_tick = now + period_ns;
			if (wake_at > next_tick)
				wake_at = next_tick;
		}

		pthread_mutex_lock(&r->worker_lock);
		if (r->kick || r->quit)
			continue;
		if (queued) {
			/* Woken by any fence signaling (a dependency or a
			 * completion freeing ring space) or worker_wake(). */
			pthread_mutex_unlock(&r->worker_lock);
			fence_wait_change(seq, (int64_t)wake_at);
			pthread_mutex_lock(&r->worker_lock);
			continue;
		}
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		uint64_t wait = wake_at > now ? wake_at - now : 0;
		uint64_t ns = (uint64_t)ts.tv_nsec + wait % 1000000000ull;
		ts.tv_sec += (time_t)(wait / 1000000000ull + ns / 1000000000ull);
		ts.tv_nsec = (long)(ns % 1000000000ull);
		pthread_cond_timedwait(&r->worker_cond, &r->worker_lock, &ts);
	}
	pthread_mutex_unlock(&r->worker_lock);
	return NULL;
}

int worker_start(struct gtsim_device *dev)
{
	struct gem_requests *r = dev->requests;
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_destroy(&r->worker_cond);
	pthread_cond_init(&r->worker_cond, &attr);
	pthread_condattr_destroy(&attr);
	if (gt_thread_create(&r->worker, worker_main, dev))
		return -EAGAIN;
	r->worker_started = true;
	return 0;
}

void worker_fork_hold(struct gtsim_device *dev)
{
	struct gem_requests *r = dev->requests;
	pthread_mutex_lock(&r->worker_lock);
	r->fork_hold = true;
	while (r->worker_started && !r->parked && !r->quit) {
		pthread_cond_broadcast(&r->worker_cond);
		pthread_mutex_unlock(&r->worker_lock);
		fence_notify_change();   /* out of a fence wait */
		pthread_mutex_lock(&r->worker_lock);
		if (r->parked)
			break;
		/* worker_cond is on CLOCK_MONOTONIC (worker_start) */
		struct timespec ts = gt_abstime_in(CLOCK_MONOTONIC, 1000000);
		pthread_cond_timedwait(&r->worker_cond, &r->worker_lock, &ts);
	}
	pthread_mutex_unlock(&r->worker_lock);
}

void worker_fork_release(struct gtsim_device *dev)
{
	struct gem_requests *r = dev->requests;
	pthread_mutex_lock(&r->worker_lock);
	r->fork_hold = false;
	pthread_cond_broadcast(&r->worker_cond);
	pthread_mutex_unlock(&r->worker_lock);
}

int worker_fork_child(struct gtsim_device *dev)
{
	struct gem_requests *r = dev->requests;
	pthread_mutex_init(&r->worker_lock, NULL);
	/* the parent's worker may have been waiting on the condition
	 * variable: destroying that copy (worker_start) would wait for it
	 * forever; a zeroed one is an initial one */
	memset(&r->worker_cond, 0, sizeof(r->worker_cond));
	r->worker_started = false;
	r->fork_hold = false;
	r->parked = false;
	return worker_start(dev);
}

void worker_stop(struct gtsim_device *dev)
{
	struct gem_requests *r = dev->requests;
	if (!r->worker_started)
		return;
	pthread_mutex_lock(&r->worker_lock);
	r->quit = true;
	pthread_cond_signal(&r->worker_cond);
	pthread_mutex_unlock(&r->worker_lock);
	fence_notify_change();
	pthread_join(r->worker, NULL);
	r->worker_started = false;
}
