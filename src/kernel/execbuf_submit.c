/* Construction and submission of the request (i915's eb_move_to_gpu,
 * eb_submit): dependencies, active tracking, domains. dev->lock held.
 *
 * Implicit ordering (seed 002): a batch that reads an object waits for the
 * last write to it from another engine; one that writes waits for every
 * other engine's reads and writes. Within one engine the scheduler
 * (scheduler.c) keeps those orders among queued requests.
 * Waiting is done by holding the request back from the ring (the engine's
 * queue, emitted by the kernel worker when the fences signal), a CPU-side
 * wait that does not block the ioctl, or for another engine's request
 * where i915 would, on the GPU with a semaphore once that request started
 * (execbuf_sema.c). EXEC_OBJECT_ASYNC opts an object out, as in i915. */
#include "kernel/execbuf.h"

#include <errno.h>
#include <stdlib.h>

#include "common/trace.h"
#include "gpu/cs/engine.h"
#include "kernel/context.h"
#include "kernel/object.h"
#include "kernel/request.h"
#include "kernel/scheduler.h"
#include "kernel/sync/fence.h"
#include "kernel/vm.h"

#define GPU_DOMAINS (I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER | \
		     I915_GEM_DOMAIN_COMMAND | I915_GEM_DOMAIN_INSTRUCTION | \
		     I915_GEM_DOMAIN_VERTEX)

static int add_dep(struct gem_request *rq, struct gt_fence *f, unsigned *cap)
{
	for (unsigned i = 0; i < rq->ndeps; i++)
		if (rq->deps[i] == f)
			return 0;
	if (rq->ndeps == *cap) {
		unsigned n = *cap ? *cap * 2 : 4;
		struct gt_fence **d = realloc(rq->deps, n * sizeof(*d));
		if (!d)
			return -ENOMEM;
		rq->deps = d;
		*cap = n;
	}
	rq->deps[rq->ndeps++] = fence_get(f);
	return 0;
}

/* i915_request_await_request: another engine's request is awaited on
 * the GPU where i915 would (execbuf_sema.c), else to its completion. */
static int await_request(struct gem_request *rq, struct gem_request *other, unsigned *cap)
{
	if (other->external_chain)
		rq->external_chain = true;
	struct gt_fence *start = eb_semaphore_await(rq, other);
	if (!start)
		return add_dep(rq, other->fence, cap);
	int err = add_dep(rq, start, cap);
	fence_put(start);
	return err;
}

static int add_request_dep(struct gem_request *rq, struct gem_request *other, unsigned *cap)
{
	if (!other || other->engine == rq->engine || request_completed(other))
		return 0;
	return await_request(rq, other, cap);
}

/* An explicit in-fence: another engine's request's is awaited as above;
 * any other (a sync_file of another driver, a merged one, a request's
 * start) to its signal, and it makes the chain external. */
static int add_fence_dep(struct execbuf *eb, struct gem_request *rq, struct gt_fence *f,
			 unsigned *cap)
{
	struct gem_request *from = eb_request_of_fence(eb->dev, f);
	int err;
	if (from && from->engine != rq->engine) {
		err = await_request(rq, from, cap);
	} else {
		if (!from)
			rq->external_chain = true;
		else if (from->external_chain)
			rq->external_chain = true;
		err = add_dep(rq, f, cap);
	}
	request_put(from);
	return err;
}

/* Other drivers' fences in the object's reservation (obj_resv.c), as
 * i915_request_await_object awaits every fence of the dma_resv. */
static int add_ext_deps(struct gem_request *rq, struct gem_object *obj, bool write,
			unsigned *cap)
{
	unsigned n = obj_ext_fences(obj, write, NULL, 0);
	if (!n)
		return 0;
	struct gt_fence **f = malloc(n * sizeof(*f));
	if (!f)
		return -ENOMEM;
	n = obj_ext_fences(obj, write, f, n);
	int err = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!err)
			err = add_dep(rq, f[i], cap);
		fence_put(f[i]);
	}
	free(f);
	return err;
}

static int collect_deps(struct execbuf *eb, struct gem_request *rq)
{
	unsigned cap = 0;
	int err = 0;
	if (eb->in_fence && !fence_is_signaled(eb->in_fence))
		err = add_fence_dep(eb, rq, eb->in_fence, &cap);
	for (unsigned i = 0; i < eb->nfences && !err; i++)
		if (eb->fences[i].fence && !fence_is_signaled(eb->fences[i].fence))
			err = add_fence_dep(eb, rq, eb->fences[i].fence, &cap);
	for (unsigned i = 0; i < eb->count && !err; i++) {
		struct eb_object *eo = &eb->eo[i];
		if (eo->flags & EXEC_OBJECT_ASYNC)
			continue;
		err = add_request_dep(rq, eo->obj->last_write, &cap);
		if (eo->flags & EB_WRITE)
			for (unsigned r = 0; r < eo->obj->nreaders && !err; r++)
				err = add_request_dep(rq, eo->obj->readers[r], &cap);
		if (!err)
			err = add_ext_deps(rq, eo->obj, eo->flags & EB_WRITE, &cap);
	}
	return err;
}

static void set_tracker(struct gem_request **slot, struct gem_request *rq)
{
	if (*slot == rq)
		return;
	request_put(*slot);
	*slot = request_get(rq);
}

/* The objects become active on the request (i915_vma_move_to_active). */
static int move_to_active(struct execbuf *eb, struct gem_request *rq)
{
	const unsigned few = sizeof(rq->objs_inline) / sizeof(rq->objs_inline[0]);
	if (eb->count > few) {
		rq->objs = malloc(eb->count * sizeof(*rq->objs));
		rq->objs_write = malloc(eb->count * sizeof(*rq->objs_write));
		if (!rq->objs || !rq->objs_write)
			return -ENOMEM;
	}
	for (unsigned i = 0; i < eb->count; i++) {
		struct eb_object *eo = &eb->eo[i];
		struct gem_object *obj = eo->obj;
		if (obj_add_reader(obj, rq))
			return -ENOMEM;
		obj_active_get(obj);
		rq->objs_write[rq->nobjs] = eo->flags & EB_WRITE;
		rq->objs[rq->nobjs++] = obj;
		if (eo->flags & EB_WRITE) {
			set_tracker(&obj->last_write, rq);
			obj->write_domain = I915_GEM_DOMAIN_RENDER;
			obj->read_domains = 0;
		}
		obj->read_domains |= GPU_DOMAINS;
		vma_touch(eo->vma);
		if (eo->flags & EXEC_OBJECT_CAPTURE) {
			struct gem_object **c = realloc(rq->capture, (rq->ncapture + 1) * sizeof(*c));
			uint64_t *a = c ? realloc(rq->capture_addr,
						  (rq->ncapture + 1) * sizeof(*a)) : NULL;
			if (c)
				rq->capture = c;
			if (a) {
				rq->capture_addr = a;
				a[rq->ncapture] = eo->vma->start;
				c[rq->ncapture++] = obj;
			}
			obj->capture = true;
		}
	}
	return 0;
}

int eb_submit(struct execbuf *eb, struct rq_engine **kick)
{
	struct rq_engine *e = &eb->dev->requests->engine[eb->engine];
	*kick = NULL;
	int err = request_engine_setup(e);
	if (err)
		return err;
	struct gem_request *rq = request_create(e, eb->ctx);
	if (!rq)
		return -ENOMEM;
	rq->ctx_slot = eb->engine_slot;
	rq->priority = eb->ctx->priority;
	unsigned slot = eb->engine_slot % CTX_MAX_ENGINES;
	if (!eb->ctx->lrc_slot[slot]) {
		/* The context's first request here: a register image of its
		 * own, loaded from the default image (lrc.h). */
		eb->ctx->lrc_slot[slot] = lrc_slot_alloc(e);
		eb->ctx->lrc_engine[slot] = (uint8_t)eb->engine;
		rq->lrc_first = true;
	}
	if (!eb->ctx->lrc_slot[slot]) {
		request_retire(rq);
		request_put(rq);
		return -ENOMEM;
	}
	uint32_t lrc_id = eb->ctx->lrc_slot[slot];
	rq->lrc_img = lrc_slot_ggtt(e, lrc_id);
	rq->ring = lrc_slot_ring(e, lrc_id);
	/* its timeline seqno (lrc.h), in submission order: a timeline's
	 * requests run in that order (sched_must_follow) */
	rq->tl_seqno = ++*lrc_slot_dword(e, lrc_id, LRC_TIMELINE_NEXT);
	rq->tl_addr = rq->lrc_img + LRC_TIMELINE_OFFSET;
	rq->tl_host = lrc_slot_dword(e, lrc_id, LRC_TIMELINE_OFFSET);
	err = collect_deps(eb, rq);
	if (!err)
		err = move_to_active(eb, rq);
	int out_fd = err ? -1 : eb_export_out_fence(eb, rq->fence);
	if (!err && out_fd < -1)
		err = out_fd;
	if (err) {
		/* Nothing became active: undo what move_to_active did. */
		request_retire(rq);
		request_put(rq);
		return err;
	}
	struct eb_object *batch = &eb->eo[eb->batch_idx];
	rq->batch_obj = batch->obj;
	rq->batch_offset = eb->batch_start;
	rq->batch_len = eb->batch_len;
	rq->batch_addr = batch->vma->start + eb->batch_start;
	if (eb->engine == ENGINE_RCS) {
		/* Which render logical contexts have an image: a context
		 * field, so under dev->lock here rather than at emission (the
		 * worker emits queued requests without dev->lock). Requests
		 * enter the ring in submission order, so the first submitted
		 * is the first to switch to it. */
		uint64_t bit = 1ull << (eb->engine_slot % CTX_MAX_ENGINES);
		rq->ctx_first_use = !(eb->ctx->rcs_images & bit);
		eb->ctx->rcs_images |= bit;
	}
	unsigned ndeps = rq->ndeps;
	sched_raise_signalers(eb->dev, rq);
	if (request_submit(rq))
		*kick = e;
	TRACE(TRACE_GEM, "execbuf: %s seqno %u, context %u, batch at 0x%llx (+%llu bytes), "
	      "%u objects, %u dependencies", engine_name(eb->engine), rq->seqno, eb->ctx->hw_id,
	      (unsigned long long)rq->batch_addr, (unsigned long long)rq->batch_len,
	      eb->count, ndeps);
	eb_signal_fences(eb, rq->fence, out_fd);
	request_put(rq);
	return 0;
}
