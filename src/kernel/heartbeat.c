/* The engine heartbeat (i915's intel_engine_heartbeat.c, Linux 6.1): while
 * an engine is busy, every heartbeat_interval_ms a pulse (a kernel request
 * with only a breadcrumb, at the lowest priority) is sent when requests
 * were submitted since the last one. A pulse still pending an interval
 * later is raised: to normal priority (it then timeslices with the
 * running context), to I915_PRIORITY_HEARTBEAT (it preempts any user
 * context), to I915_PRIORITY_BARRIER; a pulse still pending an interval
 * after that resets the engine, the running request guilty ("stopped
 * heartbeat"). So a batch that yields at arbitration points is never
 * reset, a batch that does not is reset after its preempt timeout
 * (preempt.c) where the engine can preempt, and after the pulse's last
 * interval where it cannot (BDW's render engine). The model cannot stop a
 * draw or dispatch midway: while EU threads keep ending (or the JIT
 * compiles) the last interval starts again instead of a reset, as the
 * preempt timeout does. heartbeat_interval_ms 0 disables it;
 * i915.enable_hangcheck=N keeps pulses but never resets. */
#include "kernel/request.h"

#include <limits.h>
#include <stdio.h>

#include "common/trace.h"
#include "gpu/cs/engine.h"
#include "kernel/device.h"
#include "kernel/params.h"
#include "kernel/sync/fence.h"

/* i915_priolist_types.h */
#define PRIORITY_MIN (-1024)           /* I915_CONTEXT_MIN_USER_PRIORITY - 1 */
#define PRIORITY_NORMAL 0
#define PRIORITY_HEARTBEAT 1024        /* I915_CONTEXT_MAX_USER_PRIORITY + 1 */
#define PRIORITY_BARRIER (INT_MAX - 1)

static void send_pulse(struct rq_engine *e, uint64_t now)
{
	struct gtsim_device *dev = e->dev;
	struct gem_request *rq = request_create_kernel(e, PRIORITY_MIN);
	if (!rq)
		return;
	pthread_mutex_lock(&dev->lock);
	pthread_mutex_lock(&e->lock);
	uint64_t serial = e->serial;
	pthread_mutex_unlock(&e->lock);
	e->pulse = request_get(rq);
	e->pulse_ns = now;
	e->hb_serial = serial + 1;   /* the pulse's own emission */
	bool kick = request_submit(rq);
	request_put(rq);
	pthread_mutex_unlock(&dev->lock);
	if (kick)
		request_kick(e);
	TRACE(TRACE_GEM, "%s: heartbeat pulse", engine_name(e->id));
}

uint64_t heartbeat_service(struct rq_engine *e, uint64_t now)
{
	uint64_t interval = prop_get(&e->props.heartbeat_interval_ms) * 1000000ull;
	if (!__atomic_load_n(&e->cur, __ATOMIC_ACQUIRE) || !interval)
		return interval ? now + interval : 0;   /* look again then */
	if (e->pulse && request_completed(e->pulse)) {
		request_put(e->pulse);
		e->pulse = NULL;
	}
	if (e->pulse) {
		if (now - e->pulse_ns < interval)
			return e->pulse_ns + interval;
		e->pulse_ns = now;
		uint64_t arb = engine_arb_checks(e->hw);
		pthread_mutex_lock(&e->lock);
		int prio = e->pulse->priority;
		/* EU threads ending since the last raise (a draw or dispatch,
		 * which the hardware preempts at its boundary), or the JIT
		 * compiling: progress the model cannot preempt, not a hang */
		bool progress = arb != e->hb_arb || engine_host_compiling();
		e->hb_arb = arb;
		bool reset = prio >= PRIORITY_BARRIER && !progress;
		if (!reset && prio < PRIORITY_BARRIER) {
			int raised = prio < PRIORITY_NORMAL ? PRIORITY_NORMAL
				     : prio < PRIORITY_HEARTBEAT ? PRIORITY_HEARTBEAT
				     : PRIORITY_BARRIER;
			e->pulse->priority = raised;
			TRACE(TRACE_GEM, "%s: heartbeat pulse pending, priority %d -> %d",
			      engine_name(e->id), prio, raised);
		}
		pthread_mutex_unlock(&e->lock);
		if (reset && params_hangcheck()) {
			char why[64];
			snprintf(why, sizeof(why), "stopped heartbeat on %s", engine_name(e->id));
			TRACE(TRACE_HANG, "%s: %s", engine_name(e->id), why);
			engine_hang(e, why);
		}
		return now + interval;
	}
	pthread_mutex_lock(&e->lock);
	bool busy = engine_running_request(e) != NULL;
	uint64_t serial = e->serial;
	pthread_mutex_unlock(&e->lock);
	if (!busy || !e->hb_last_ns) {
		/* the first beat comes an interval after work starts; the
		 * worker looks again then */
		e->hb_last_ns = now;
		return now + interval;
	}
	if (now - e->hb_last_ns < interval)
		return e->hb_last_ns + interval;
	e->hb_last_ns = now;
	if (serial != e->hb_serial)
		send_pulse(e, now);
	return now + interval;
}
