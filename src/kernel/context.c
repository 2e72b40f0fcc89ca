/* Context objects: creation with a PPGTT of their own, reference counts,
 * per-file lookup. The ioctls are in context_ioctl.c and context_param.c. */
#include "kernel/context.h"

#include <errno.h>
#include <i915_drm.h>
#include <stdlib.h>

#include "common/trace.h"
#include "gpu/cs/engine.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/params.h"
#include "kernel/request.h"
#include "kernel/vm.h"

struct gem_context *ctx_create(struct gtsim_device *dev, struct gem_vm *vm, int *err)
{
	struct gem_context *ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		*err = -ENOMEM;
		return NULL;
	}
	ctx->vm = vm ? vm_get(vm) : vm_ppgtt_create(dev);
	if (!ctx->vm) {
		free(ctx);
		*err = -ENOMEM;
		return NULL;
	}
	ctx->dev = dev;
	ctx->refcount = 1;
	ctx->hw_id = dev->next_ctx_hw_id++;
	ctx->priority = I915_CONTEXT_DEFAULT_PRIORITY;
	ctx->bannable = true;
	ctx->recoverable = true;
	ctx->persistent = params_hangcheck();
	TRACE(TRACE_GEM, "context hw id %u created, PML4 at phys 0x%llx", ctx->hw_id,
	      (unsigned long long)ctx->vm->gt.pml4);
	return ctx;
}

struct gem_context *ctx_get(struct gem_context *ctx)
{
	ctx->refcount++;
	return ctx;
}

void ctx_put(struct gem_context *ctx)
{
	if (!ctx || --ctx->refcount)
		return;
	TRACE(TRACE_GEM, "context hw id %u freed", ctx->hw_id);
	/* Its requests retired (they held references): the render engine
	 * may drop the logical context image. */
	for (unsigned slot = 0; slot < CTX_MAX_ENGINES && ctx->dev->gpu; slot++)
		if (ctx->rcs_images >> slot & 1)
			engine_forget_context(ctx->dev->gpu->engines[ENGINE_RCS],
					      ctx_logical_addr(ctx, slot));
	for (unsigned slot = 0; slot < CTX_MAX_ENGINES; slot++)
		if (ctx->lrc_slot[slot])
			lrc_slot_free(&ctx->dev->requests->engine[ctx->lrc_engine[slot]],
				      ctx->lrc_slot[slot]);
	vm_put(ctx->vm);
	free(ctx);
}

/* i915_gem_context.c kill_context/kill_engines: every request of ctx not
 * finished (ctx NULL: of every closed context) on e is cancelled; the one
 * the engine executes is ended by a reset (the worker's, as i915 resets
 * an engine that its pulse cannot preempt). */
static void cancel_on(struct rq_engine *e, const struct gem_context *ctx)
{
	bool running = true;   /* the first unfinished emitted request */
	pthread_mutex_lock(&e->lock);
	struct list_node *n, *t;
	list_for_each_safe(n, t, &e->requests) {
		struct gem_request *rq = list_entry(n, struct gem_request, link);
		if (rq->signaled)
			continue;
		bool match = ctx ? rq->ctx == ctx
				 : rq->ctx && __atomic_load_n(&rq->ctx->closed, __ATOMIC_RELAXED);
		if (match && !request_completed(rq)) {
			if (!rq->emitted)
				rq->skip = true;
			else if (running) {
				__atomic_store_n(&e->kill_emission, rq->emission, __ATOMIC_RELEASE);
				/* should a preemption unwind it before the worker
				 * resets it, it is emitted again without its batch */
				rq->skip = true;
			} else
				ring_skip_batch(e, rq);
			rq->error = -EIO;
		}
		running = false;
	}
	pthread_mutex_unlock(&e->lock);
}

static void kill_context(struct gem_context *ctx)
{
	struct gem_requests *r = ctx->dev->requests;
	for (int i = 0; r && i < GT_NUM_ENGINES; i++)
		cancel_on(&r->engine[i], ctx);
	worker_wake(ctx->dev);
}

/* i915 (execlists __execlists_schedule_in): a closed context on an engine
 * without a heartbeat is exiting, and its requests are cancelled (the
 * heartbeat is what would have found it hung). */
void engine_cancel_closed(struct rq_engine *e)
{
	cancel_on(e, NULL);
	worker_wake(e->dev);
}



void ctx_close(struct gem_context *ctx)
{
	ctx->file = NULL;
	ctx->closed = true;
	struct gem_requests *r = ctx->dev->requests;
	if (!ctx->persistent || !params_hangcheck()) {
		kill_context(ctx);
	} else {
		/* persistent: it lives on where a heartbeat watches it */
		for (int i = 0; r && i < GT_NUM_ENGINES; i++)
			if (!prop_get(&r->engine[i].props.heartbeat_interval_ms))
				cancel_on(&r->engine[i], ctx);
		worker_wake(ctx->dev);
	}
	ctx_put(ctx);
}

struct gem_context *ctx_lookup(struct gtsim_file *file, uint32_t id)
{
	struct gem_context *ctx = idr_find(&file->contexts, id);
	if (!ctx)
		return NULL;
	ctx->finalized = true;
	return ctx_get(ctx);
}
