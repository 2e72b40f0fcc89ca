/* Priority inheritance across engines (i915's i915_schedule ->
 * __i915_schedule on Linux 6.1): a request raises, to its own priority,
 * every request it waits for that has a lower one, and theirs in turn,
 * through the whole dependency graph: the requests whose fences it awaits
 * on other engines (implicit: an object another engine writes, or reads
 * before this one writes; explicit: FENCE_IN, a FENCE_ARRAY's or timeline
 * syncobj's fence of a request), and on a signaler's own engine the
 * earlier requests it must follow (its context's, those of a write
 * hazard). Priorities only go up, as i915's do. A raised request then
 * takes its engine from a running one of lower priority (preempt.c, at
 * the next arbitration point), so a high-priority request does not wait
 * behind the low-priority work its signaler queued behind
 * (gem_exec_schedule preempt-other, preempt-queue-*-chain).
 * dev->lock held, no engine lock; takes each engine's lock in turn. */
#include "kernel/scheduler.h"

#include <stdlib.h>

#include "kernel/device.h"
#include "kernel/request.h"
#include "kernel/sync/fence.h"

struct work {
	struct gem_request **rq;   /* a reference each */
	unsigned n, cap;
};

static void push(struct work *w, struct gem_request *rq)
{
	if (w->n == w->cap) {
		unsigned cap = w->cap ? w->cap * 2 : 16;
		struct gem_request **a = realloc(w->rq, cap * sizeof(*a));
		if (!a)
			return;   /* inheritance is best effort: the order stays valid */
		w->rq = a;
		w->cap = cap;
	}
	w->rq[w->n++] = request_get(rq);
}

/* The unsignaled requests of the device whose fence is f or a part of it
 * (a merged sync_file) go on the work list. */
static void push_signalers(struct gem_requests *r, struct gt_fence *f, struct work *w)
{
	struct gt_fence *parts[16];
	unsigned n = fence_parts(f, parts, 16);
	if (n > 16)
		n = 16;
	for (int i = 0; i < GT_NUM_ENGINES; i++) {
		struct rq_engine *e = &r->engine[i];
		pthread_mutex_lock(&e->lock);
		struct list_node *node;
		for (node = e->requests.next; node != &e->requests; node = node->next) {
			struct gem_request *rq = list_entry(node, struct gem_request, link);
			for (unsigned p = 0; p < n; p++)
				if (rq->fence == parts[p] && !rq->signaled)
					push(w, rq);
		}
		pthread_mutex_unlock(&e->lock);
	}
}

/* Raises x (on its engine's list) to prio; its fences to wait for (new
 * references) into *deps, the earlier requests of its engine it must
 * follow onto the work list. False when x already had prio or more. */
static bool raise_one(struct gem_request *x, int prio, struct work *w, struct gt_fence ***deps,
		      unsigned *ndeps)
{
	struct rq_engine *e = x->engine;
	bool raised = false;
	*deps = NULL;
	*ndeps = 0;
	pthread_mutex_lock(&e->lock);
	if (x->priority < prio && !x->signaled) {
		x->priority = prio;
		raised = true;
		unsigned nd = x->ndeps + x->nsema;
		if (nd && (*deps = malloc(nd * sizeof(**deps)))) {
			for (unsigned i = 0; i < x->ndeps; i++)
				(*deps)[i] = fence_get(x->deps[i]);
			for (unsigned i = 0; i < x->nsema; i++)
				(*deps)[x->ndeps + i] = fence_get(x->sema[i].signal);
			*ndeps = nd;
		}
		for (struct list_node *n = e->requests.next; n != &x->link && n != &e->requests;
		     n = n->next) {
			struct gem_request *p = list_entry(n, struct gem_request, link);
			if (p->priority < prio && !p->signaled && sched_must_follow(x, p))
				push(w, p);
		}
	}
	pthread_mutex_unlock(&e->lock);
	return raised;
}

void sched_raise_signalers(struct gtsim_device *dev, struct gem_request *rq)
{
	struct gem_requests *r = dev->requests;
	if (!r)
		return;
	struct work w = { 0 };
	for (unsigned i = 0; i < rq->ndeps; i++)
		push_signalers(r, rq->deps[i], &w);
	for (unsigned i = 0; i < rq->nsema; i++)   /* GPU waits (execbuf_sema.c) */
		push_signalers(r, rq->sema[i].signal, &w);
	/* on its own engine (every request there is earlier): the queued
	 * ones it must follow, when of a lower priority (most often none
	 * is); from the end, where the queued ones are, so that a long run
	 * of emitted requests costs nothing per submission */
	struct rq_engine *e = rq->engine;
	pthread_mutex_lock(&e->lock);
	for (struct list_node *n = e->requests.prev; n != &e->requests; n = n->prev) {
		struct gem_request *p = list_entry(n, struct gem_request, link);
		if (p->emitted)
			break;
		if (p->priority < rq->priority && !p->signaled && sched_must_follow(rq, p))
			push(&w, p);
	}
	pthread_mutex_unlock(&e->lock);
	bool raised = false;
	while (w.n) {
		struct gem_request *x = w.rq[--w.n];
		struct gt_fence **deps;
		unsigned ndeps;
		if (raise_one(x, rq->priority, &w, &deps, &ndeps))
			raised = true;
		for (unsigned i = 0; i < ndeps; i++) {
			push_signalers(r, deps[i], &w);
			fence_put(deps[i]);
		}
		free(deps);
		request_put(x);
	}
	free(w.rq);
	if (raised)
		worker_wake(dev);   /* the raised may take their engines now */
}
