/* Engine reset after a hang (i915's legacy ring reset): capture an error
 * state, mark the request that was executing guilty (its fence gets -EIO
 * and its seqno is written into the status page as if it had finished),
 * score its context and ban it after repeated hangs (i915's ban score:
 * +10 per hang, banned at 40 or at once when not recoverable; its
 * remaining batches on this engine are skipped), then restart the engine
 * with HEAD just past the guilty request so that later requests, other
 * contexts' included, run on. */
#include "kernel/request.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cmd/cmd.h"
#include "gpu/cs/engine.h"
#include "kernel/context.h"
#include "kernel/object.h"

#define CONTEXT_SCORE_GUILTY 10
#define CONTEXT_SCORE_BAN_THRESHOLD 40

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
	memcpy(&header, (const char *)obj->map + (acthd - base), 4);
	const struct cmd_desc *d = cmd_find(e->dev->info->gen, e->id, header);
	snprintf(buf, n, "%s 0x%08x at 0x%llx", d ? d->name : "unknown command", header,
		 (unsigned long long)acthd);
}

/* i915's context ban policy. dev->lock held. */
static bool mark_guilty(struct gem_context *ctx)
{
	ctx->guilty_count++;
	if (ctx->closed || !ctx->recoverable)
		ctx->banned = true;
	else if (ctx->bannable) {
		ctx->ban_score += CONTEXT_SCORE_GUILTY;
		if (ctx->ban_score >= CONTEXT_SCORE_BAN_THRESHOLD)
			ctx->banned = true;
	}
	return ctx->banned;
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

void engine_hang(struct rq_engine *e, const char *why)
{
	struct gtsim_device *dev = e->dev;
	char *text = NULL;

	pthread_mutex_lock(&dev->lock);
	requests_signal_completed(e);
	pthread_mutex_lock(&e->lock);
	struct gem_request *guilty = first_unfinished(e);
	bool stopped = engine_is_stopped(e->hw, NULL, 0);
	if (!guilty && !stopped) {
		pthread_mutex_unlock(&e->lock);
		pthread_mutex_unlock(&dev->lock);
		return;
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
		text = error_state_capture(e, guilty, why);
		bool banned = ctx && mark_guilty(ctx);
		TRACE(TRACE_HANG, "%s: reset: request seqno %u of context %u guilty (%s), "
		      "guilty %u times%s", engine_name(e->id), guilty->seqno,
		      ctx ? ctx->hw_id : 0, why, ctx ? ctx->guilty_count : 0,
		      banned ? ", context banned" : "");
		if (banned)
			skip_context(dev->requests, e, ctx, guilty);
		guilty->error = -EIO;
		restart = guilty->tail;
		__atomic_store_n(&e->hws[HWS_SEQNO_INDEX], guilty->seqno, __ATOMIC_RELEASE);
	}
	e->hc_since_ns = 0;
	e->reset_count++;
	e->space_head = restart;
	pthread_mutex_unlock(&e->lock);
	/* Stored before the reset lets anything run on, so whoever sees the
	 * consequences of the reset also finds the error state. */
	if (text)
		error_state_store(dev, text);

	engine_reset(e->hw, restart);
	__atomic_store_n(&e->fault, false, __ATOMIC_RELEASE);
	dev->reset_count++;
	TRACE(TRACE_HANG, "%s: engine reset, HEAD 0x%x; device resets: %u",
	      engine_name(e->id), restart, dev->reset_count);
	pthread_mutex_unlock(&dev->lock);
	requests_signal_completed(e);
}
