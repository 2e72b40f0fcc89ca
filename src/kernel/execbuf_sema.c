/* Waits for another engine's request on the GPU (i915_request.c on Linux
 * 6.1: i915_request_await_request -> emit_semaphore_wait). A request
 * waiting for a request of another engine is let into its ring as soon as
 * the signaler has started (await execution, fence_execution_get) and
 * there waits on MI_SEMAPHORE_WAIT (ring_emit.c) polling the signaler's
 * timeline dword (lrc.h) until it holds the signaler's timeline seqno,
 * which the signaler's breadcrumb writes. The wait is an arbitration
 * point, so the waiter is timesliced and preempted like a busy batch.
 * i915's conditions, where the model has them:
 * - the waiter's context uses semaphores: its priority is at least
 *   I915_PRIORITY_NORMAL (0) and its engine has timeslices
 *   (intel_context_set_gem, __apply_priority: not BDW's render engine,
 *   which cannot preempt; every engine has I915_ENGINE_HAS_SEMAPHORES);
 * - the signaler has a timeline (a kernel request has none here);
 * - the signaler does not wait, itself or through its signalers, for a
 *   fence of no request of the device (I915_SCHED_HAS_EXTERNAL_CHAIN);
 * - one semaphore per signaling engine ("just emit the first semaphore
 *   we see as request space is limited").
 * Otherwise the waiter waits for the signaler's completion off the GPU
 * (held back from the ring). Not modelled: i915_request_await_start (the
 * waiter also waits for the signaler's predecessor on its timeline) and
 * the saturation heuristic (engine_saturated), which only choose when to
 * wait on the CPU instead. dev->lock held. */
#include "kernel/execbuf.h"

#include "kernel/device.h"
#include "kernel/engine_props.h"
#include "kernel/request.h"
#include "kernel/sync/fence.h"

struct gem_request *eb_request_of_fence(struct gtsim_device *dev, struct gt_fence *f)
{
	struct gem_request *found = NULL;
	for (int i = 0; i < GT_NUM_ENGINES && !found; i++) {
		struct rq_engine *e = &dev->requests->engine[i];
		pthread_mutex_lock(&e->lock);
		for (struct list_node *n = e->requests.next; n != &e->requests; n = n->next) {
			struct gem_request *rq = list_entry(n, struct gem_request, link);
			if (rq->fence == f) {
				found = request_get(rq);
				break;
			}
		}
		pthread_mutex_unlock(&e->lock);
	}
	return found;
}

struct gt_fence *eb_semaphore_await(struct gem_request *to, struct gem_request *from)
{
	int gen = to->engine->dev->info->gen;
	if (to->priority < I915_CONTEXT_DEFAULT_PRIORITY /* I915_PRIORITY_NORMAL */ || !engine_can_preempt(gen, to->engine->id) ||
	    !from->tl_addr || from->external_chain || from->engine == to->engine)
		return NULL;
	for (unsigned i = 0; i < to->nsema; i++)
		if (to->sema[i].engine == from->engine->id)
			return NULL;
	struct gt_fence *start = fence_execution_get(from->fence);
	if (!start)
		return NULL;
	to->sema[to->nsema++] = (struct rq_semaphore){
		.signal = fence_get(from->fence), .addr = from->tl_addr, .host = from->tl_host,
		.value = from->tl_seqno, .engine = from->engine->id };
	return start;
}
