/* Engine reset after a hang (i915's legacy ring reset): capture an error
 * state, mark the request that was executing guilty (its fence gets -EIO
 * and its seqno is written into the status page as if it had finished),
 * ban its context after repeated hangs (Linux 6.1's mark_guilty: the third
 * hang within 120 s, or at once when it is closed or not recoverable;
 * never when not bannable; its remaining batches are skipped) and score
 * its file (client_mark_guilty), then restart the engine
 * with HEAD just past the guilty request so that later requests, other
 * contexts' included, run on. */
#include "kernel/request.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "common/user_copy.h"
#include "gpu/cmd/cmd.h"
#include "gpu/cs/engine.h"
#include "kernel/context.h"
#include "kernel/object.h"

#include "kernel/file.h"
#include "kernel/params.h"
#include "kernel/sync/fence.h"

/* i915_gem_context_types.h: "3 hangs within 120s? Banned!" */
#define CONTEXT_FAST_HANG_NS (120ll * 1000000000)
/* i915_file_private.h: a file gains 3 when one of its contexts is banned
 * and 1 for a hang within 60 s of its previous one; at 9 it may create no
 * more contexts (client_is_banned). */
#define CLIENT_SCORE_HANG_FAST 1
#define CLIENT_FAST_HANG_NS (60ll * 1000000000)
#define CLIENT_SCORE_CONTEXT_BAN 3

static struct gem_request *first_unfinished(struct rq_engine *e)
{
	struct list_node *n, *t;
	list_for_each_safe(n, t, &e->requests) {
		struct gem_request *rq = list_entry(n, struct gem_request, link);
		if (!rq->signaled)
			return rq->emitted ? rq : NULL;
	}
	return NULL;
}

/* A hang found by hangcheck (no fault reason from the engine): the
 * command at ACTHD when it lies in the guilty batch, named as a fault's
 * reason names it: "NAME 0xHEADER at 0xADDRESS". Empty when unknown. */
static void command_at_acthd(struct rq_engine *e, const struct gem_request *rq, char *buf,
			     size_t n)
{
	buf[0] = 0;
	const struct gem_object *obj = rq->batch_obj;
	if (!obj || !obj->map)
		return;
	uint64_t acthd = engine_acthd(e->hw), base = rq->batch_addr - rq->batch_offset;
	if (acthd < base || acthd + 4 > base + obj->size)
		return;
	uint32_t header;
	if (copy_from_user_ptr(&header, (uintptr_t)obj->map + (acthd - base), 4))
		return;   /* a userptr batch whose page is gone */
	const struct cmd_desc *d = cmd_find(e->dev->info->gen, e->id, header);
	snprintf(buf, n, "%s 0x%08x at 0x%llx", d ? d->name : "unknown command", header,
		 (unsigned long long)acthd);
}

/* A hang time that is "long ago" (i915 starts the history at now - 120 s). */
static bool within(int64_t then_ns, int64_t now_ns, int64_t window_ns)
{
	return then_ns && now_ns - then_ns < window_ns;
}

static void client_mark_guilty(struct gtsim_file *file, bool banned, int64_t now)
{
	unsigned score = banned ? CLIENT_SCORE_CONTEXT_BAN : 0;
	if (within(file->hang_ns, now, CLIENT_FAST_HANG_NS))
		score += CLIENT_SCORE_HANG_FAST;
	file->hang_ns = now;
	file->ban_score += score;
}

/* i915's context ban policy (intel_reset.c mark_guilty, Linux 6.1): the
 * context keeps the times of its last two hangs; a third within 120 s of
 * the older one bans it. dev->lock held. */
static bool mark_guilty(struct gem_context *ctx)
{
	if (ctx->closed) {
		ctx->banned = true;
		return true;
	}
	ctx->guilty_count++;
	if (!ctx->bannable)
		return false;
	int64_t now = fence_now_ns();
	int64_t prev_hang = ctx->hang_ns[0];
	ctx->hang_ns[0] = ctx->hang_ns[1];
	ctx->hang_ns[1] = now;
	bool banned = !ctx->recoverable || within(prev_hang, now, CONTEXT_FAST_HANG_NS);
	if (banned)
		ctx->banned = true;
	if (ctx->file)
		client_mark_guilty(ctx->file, banned, now);
	return banned;
}

/* Skip the banned context's other batches: on the hung engine the ones
 * already in the ring (the engine is stuck in the guilty batch and fetches
 * none of them), on every engine the ones still queued. */
static void skip_context(struct gem_requests *r, struct rq_engine *hung,
			 struct gem_context *ctx, struct gem_request *guilty)
{
	for (int i = 0; i < GT_NUM_ENGINES; i++) {
		struct rq_engine *e = &r->engine[i];
		if (e != hung)
			pthread_mutex_lock(&e->lock);
		struct list_node *n, *t;
		list_for_each_safe(n, t, &e->requests) {
			struct gem_request *rq = list_entry(n, struct gem_request, link);
			if (rq == guilty || rq->ctx != ctx || rq->signaled)
				continue;
			if (rq->emitted && e != hung)
				continue;
			if (rq->emitted)
				ring_skip_batch(e, rq);
			else
				rq->skip = true;
			rq->error = -EIO;
		}
		if (e != hung)
			pthread_mutex_unlock(&e->lock);
	}
}

/* A full-GPU reset (i915.reset=1, intel_gt_reset) also resets the engines
 * that did not hang: a request each of them was executing is innocent
 * (intel_reset.c __i915_request_reset: fence error -EAGAIN once, its
 * context's active_count, GET_RESET_STATS batch_pending, counts it when it
 * had started) and runs again from its start, as execlists replays it;
 * one not started yet just runs. dev->lock held, no engine lock. */
static void replay_innocent(struct gtsim_device *dev, uint64_t stalled_mask)
{
	struct gem_requests *r = dev->requests;
	for (int i = 0; i < GT_NUM_ENGINES; i++) {
		struct rq_engine *o = &r->engine[i];
		if ((stalled_mask & (1ull << i)) || !o->hw || engine_is_stopped(o->hw, NULL, 0))
			continue;
		pthread_mutex_lock(&o->lock);
		struct gem_request *rq = first_unfinished(o);
		uint32_t from = rq ? rq->head : 0, to = rq ? rq->tail : 0;
		pthread_mutex_unlock(&o->lock);
		if (!rq)
			continue;
		/* the request stays valid: retiring needs dev->lock */
		bool started;
		if (!engine_reset_replay(o->hw, from, to, &started) || !started)
			continue;
		pthread_mutex_lock(&o->lock);
		if (!rq->error)
			rq->error = -EAGAIN;
		pthread_mutex_unlock(&o->lock);
		if (rq->ctx)
			rq->ctx->active_count++;
		TRACE(TRACE_HANG, "%s: full reset: request seqno %u of context %u innocent, "
		      "replayed", engine_name(o->id), rq->seqno, rq->ctx ? rq->ctx->hw_id : 0);
	}
}

/* The rest of a full reset once the stalled engines are reset: the other
 * engines, and the count GET_RESET_STATS reports. dev->lock held. */
static void full_reset_rest(struct gtsim_device *dev, uint64_t stalled_mask)
{
	replay_innocent(dev, stalled_mask);
	dev->reset_count++;
}

static bool hang_locked(struct rq_engine *e, const char *why, const struct hang_sample *seen);

/* Where the engine restarts past the guilty request; it is stopped
 * (engine_abort_command), so HEAD and ACTHD hold still. Usually after the
 * request (the kernel writes its breadcrumb). But an engine that has not
 * reached the request's batch (a closed context's request killed before
 * it started, a request stuck in a semaphore wait) has not run all of its
 * start: the image save and restore, MI_SET_CONTEXT and the PPGTT load,
 * which ring_emit.c emits once per switch and the context's later
 * requests in the ring count on (skipped, those ran in the previous
 * context's address space). It goes on from where it stopped with the
 * request's waits and batch made MI_NOOPs; an image save or restore it
 * was in (a call into a GGTT batch) runs again whole. */
static uint32_t restart_point(struct rq_engine *e, struct gem_request *guilty)
{
	struct ctx_ring *r = guilty->ring;
	uint32_t head = engine_ring_head(e->hw) & REG_RING_HEAD_HEAD_OFFSET_MASK;
	if (!ring_span_has(r, head, guilty->bb_pos, r->emit))
		return guilty->tail;   /* past the batch start */
	ring_skip_waits_and_batch(e, guilty);
	uint64_t acthd = engine_acthd(e->hw);
	if (acthd < r->ggtt || acthd >= r->ggtt + r->size)
		head = (head - 4 * lrc_call_dwords(e->dev->info->gen)) & (r->size - 1);
	TRACE(TRACE_HANG, "%s: the request had not reached its batch: restart at 0x%x, "
	      "its batch and waits skipped", engine_name(e->id), head);
	return head;
}

/* One hang on one engine: an engine reset, or with i915.reset=1 a full one. */
static void hang(struct rq_engine *e, const char *why, const struct hang_sample *seen)
{
	pthread_mutex_lock(&e->dev->lock);
	bool reset = hang_locked(e, why, seen);
	if (reset && params_full_reset_only())
		full_reset_rest(e->dev, 1ull << e->id);
	pthread_mutex_unlock(&e->dev->lock);
	requests_signal_completed(e);
}

void engine_hang(struct rq_engine *e, const char *why)
{
	hang(e, why, NULL);
}

void engine_hang_if_unchanged(struct rq_engine *e, const char *why,
			      const struct hang_sample *seen)
{
	hang(e, why, seen);
}

/* The reset of hung engine e (its request guilty); false when there was
 * nothing to reset. dev->lock held. The engine reset count is i915's
 * reset_engine_count: engine resets only (i915.reset >= 2); a full reset
 * counts in dev->reset_count (i915_reset_count, GET_RESET_STATS) instead. */
static bool hang_locked(struct rq_engine *e, const char *why, const struct hang_sample *seen)
{
	struct gtsim_device *dev = e->dev;
	char *text = NULL;

	requests_signal_completed(e);
	pthread_mutex_lock(&e->lock);
	/* Hangcheck's sample may be stale: the stuck batch can finish (and the
	 * next request start) between the sample and these locks. i915's
	 * heartbeat resets the request it saw stuck, never the one after it,
	 * so the reset happens only while ACTHD and the seqno are unchanged. */
	struct gem_request *running = first_unfinished(e);
	bool stale = seen && (seen->only_emission ?
		!running || running->emission != seen->only_emission || request_completed(running) :
		(!seen->moving && engine_acthd(e->hw) != seen->acthd) ||
		engine_hws_seqno(e) != seen->seqno || engine_progress_marks(e->hw) != seen->arb);
	/* a preemption acknowledged after the worker's look: no timeout */
	stale |= seen && seen->unless_preempted && engine_preempted(e->hw, NULL);
	if (stale) {
		TRACE(TRACE_HANG, "%s: hangcheck: progress since the sample, no reset",
		      engine_name(e->id));
		pthread_mutex_unlock(&e->lock);
		return false;
	}
	struct gem_request *guilty = first_unfinished(e);
	if (guilty)   /* a command running for long stops now (the reset follows) */
		engine_abort_command(e->hw);
	bool stopped = engine_is_stopped(e->hw, NULL, 0);
	if (!guilty && !stopped) {
		pthread_mutex_unlock(&e->lock);
		return false;
	}
	uint32_t restart = engine_mmio_read(e->hw, RING_HEAD) & REG_RING_HEAD_HEAD_OFFSET_MASK;
	char hang_why[400];
	if (guilty && !stopped) {
		char at[160];
		command_at_acthd(e, guilty, at, sizeof(at));
		if (at[0]) {
			snprintf(hang_why, sizeof(hang_why), "%s, at %s", why, at);
			why = hang_why;
		}
	}
	if (guilty) {
		struct gem_context *ctx = guilty->ctx;
		/* A closed context's request is no hang: no error state (i915
		 * resets for "context closure" with no error flag). */
		if (params_error_capture() && !(seen && seen->only_emission && !seen->capture))
			text = error_state_capture(e, guilty, why);
		bool banned = ctx && mark_guilty(ctx);
		TRACE(TRACE_HANG, "%s: reset: request seqno %u of context %u guilty (%s), "
		      "guilty %u times%s", engine_name(e->id), guilty->seqno,
		      ctx ? ctx->hw_id : 0, why, ctx ? ctx->guilty_count : 0,
		      banned ? ", context banned" : "");
		if (banned)
			skip_context(dev->requests, e, ctx, guilty);
		if (!guilty->error)   /* a cancelled request keeps its -EINTR */
			guilty->error = -EIO;
		restart = restart_point(e, guilty);
		__atomic_store_n(&e->hws[HWS_SEQNO_INDEX], guilty->seqno, __ATOMIC_RELEASE);
		/* and its timeline, which semaphores of other engines poll
		 * (i915 runs the reset request's breadcrumb) */
		if (guilty->tl_host)
			__atomic_store_n(guilty->tl_host, guilty->tl_seqno, __ATOMIC_RELEASE);
	}
	e->hc_since_ns = 0;
	bool full = params_full_reset_only();
	if (params_reset() >= 2)
		e->reset_count++;
	e->cur->space_head = restart;   /* the loaded ring (request.c ring_switch) */
	pthread_mutex_unlock(&e->lock);
	/* Stored before the reset lets anything run on, so whoever sees the
	 * consequences of the reset also finds the error state. */
	if (text)
		error_state_store(dev, text);

	/* a preemption asked for the reset request is moot (preempt.c) */
	engine_request_preemption(e->hw, false);
	engine_reset(e->hw, restart);
	__atomic_store_n(&e->fault, false, __ATOMIC_RELEASE);
	if (!params_reset()) {
		/* i915.reset=0: intel_gt_handle_error finds no reset allowed and
		 * wedges the GT; the model still restarts the engine past the
		 * request so that its own state stays sound. */
		__atomic_store_n(&dev->wedged, true, __ATOMIC_RELEASE);
		TRACE(TRACE_HANG, "resets disabled (i915.reset=0): device wedged");
	}
	TRACE(TRACE_HANG, "%s: %s reset, HEAD 0x%x; engine resets: %u, full resets: %u",
	      engine_name(e->id), full ? "full GPU" : "engine", restart, e->reset_count,
	      dev->reset_count + (full ? 1 : 0));
	return true;
}

void gt_handle_error(struct gtsim_device *dev, uint64_t engine_mask, const char *why)
{
	struct gem_requests *r = dev->requests;
	if (!r)
		return;
	pthread_mutex_lock(&dev->lock);
	bool reset = false;
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		if (engine_mask & (1ull << i))
			reset |= hang_locked(&r->engine[i], why, NULL);
	/* i915.reset=1: one full reset for the whole mask (intel_gt_reset) */
	if (reset && params_full_reset_only())
		full_reset_rest(dev, engine_mask);
	pthread_mutex_unlock(&dev->lock);
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		requests_signal_completed(&r->engine[i]);
	if (params_reset() && __atomic_exchange_n(&dev->wedged, false, __ATOMIC_ACQ_REL))
		TRACE(TRACE_HANG, "device unwedged by a reset (%s)", why);
	else if (!params_reset())
		__atomic_store_n(&dev->wedged, true, __ATOMIC_RELEASE);
}
