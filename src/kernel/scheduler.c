/* Priority scheduling of queued requests (i915_scheduler.c's rules as
 * gem_exec_schedule tests them, i915 on execlists):
 * - the queued request of highest priority goes first (its context's
 *   I915_CONTEXT_PARAM_PRIORITY at submission); equal priorities keep
 *   submission order (FIFO);
 * - a request never passes an earlier queued request it depends on on
 *   this engine: one of the same logical context (a context's timeline
 *   is in order) or one that shares an object with it. i915 orders only
 *   where either writes (its reservation objects keep every reader's
 *   fence); the model's objects track one last reader per engine
 *   (obj->last_read, which BUSY and WAIT use), valid only while the
 *   users of one object stay in submission order, so two readers of an
 *   object are not reordered either (gem_exec_schedule out-order and
 *   reorder need that; not done);
 * - priority inheritance: a high-priority request blocked that way lifts
 *   its blocker, which is emitted first (i915 bumps the priority of the
 *   whole dependency chain);
 * - a request waiting on fences (in-fences, other engines) is passed by
 *   the ready ones.
 * Requests already in the ring are not preempted (the arbitration-point
 * preemption of i915 is not modelled; see docs/igt.md). */
#include "kernel/scheduler.h"

#include "kernel/request.h"

static bool shares_object(const struct gem_request *a, const struct gem_request *b)
{
	for (unsigned i = 0; i < a->nobjs; i++)
		for (unsigned j = 0; j < b->nobjs; j++)
			if (a->objs[i] == b->objs[j])
				return true;
	return false;
}

static bool must_follow(const struct gem_request *later, const struct gem_request *earlier)
{
	return (later->ctx == earlier->ctx && later->ctx_slot == earlier->ctx_slot) ||
	       shares_object(later, earlier);
}

struct list_node *sched_first_queued(struct list_node *requests)
{
	struct list_node *n;
	for (n = requests->next; n != requests; n = n->next)
		if (!list_entry(n, struct gem_request, link)->emitted)
			break;
	return n;
}

/* The earliest queued request before rq that rq must follow, or NULL. */
static struct gem_request *blocker(struct list_node *requests, struct gem_request *rq)
{
	for (struct list_node *n = sched_first_queued(requests); n != &rq->link; n = n->next) {
		struct gem_request *p = list_entry(n, struct gem_request, link);
		if (must_follow(rq, p))
			return p;
	}
	return NULL;
}

struct gem_request *sched_pick(struct list_node *requests)
{
	struct list_node *first = sched_first_queued(requests);
	/* Candidates by priority, highest first: each pass takes the best
	 * not yet tried (few requests are queued; quadratic is fine). */
	int below = __INT_MAX__;
	for (;;) {
		int best = -__INT_MAX__ - 1;
		bool any = false;
		for (struct list_node *n = first; n != requests; n = n->next) {
			struct gem_request *rq = list_entry(n, struct gem_request, link);
			if (rq->priority < below && rq->priority >= best) {
				best = rq->priority;
				any = true;
			}
		}
		if (!any)
			return NULL;
		for (struct list_node *n = first; n != requests; n = n->next) {
			struct gem_request *rq = list_entry(n, struct gem_request, link);
			if (rq->priority != best)
				continue;
			struct gem_request *root = rq, *b;
			while ((b = blocker(requests, root)) != NULL)
				root = b;   /* inherits rq's priority */
			if (request_deps_ready(root))
				return root;
		}
		below = best;
	}
}
