/* Priority scheduling of queued requests (i915_scheduler.c's rules as
 * gem_exec_schedule tests them, i915 on execlists):
 * - the queued request of highest priority goes first (its context's
 *   I915_CONTEXT_PARAM_PRIORITY at submission); equal priorities keep
 *   submission order (FIFO);
 * - a request never passes an earlier queued request it depends on on
 *   this engine: one of the same logical context (a context's timeline
 *   is in order) or one that shares an object with it where either
 *   writes it (EXEC_OBJECT_WRITE or a relocation's write domain): i915's
 *   implicit fences, the exclusive one for a writer, the shared ones for
 *   readers. Two readers of an object may pass each other (objects keep
 *   every reader: obj_readers.c; gem_exec_schedule out-order);
 * - priority inheritance: a high-priority request blocked that way lifts
 *   its blocker, which is emitted first; across engines, and for good,
 *   the submission raises every request it waits for
 *   (sched_signalers.c, i915's __i915_schedule);
 * - a request waiting on fences (in-fences, other engines) is passed by
 *   the ready ones.
 * Requests already in the ring are unwound and picked again when the
 * running one must give way (preempt.c: sched_should_yield). */
#include "kernel/scheduler.h"

#include "kernel/request.h"

/* Do a and b share an object that one of them writes? */
static bool write_hazard(const struct gem_request *a, const struct gem_request *b)
{
	for (unsigned i = 0; i < a->nobjs; i++)
		for (unsigned j = 0; j < b->nobjs; j++)
			if (a->objs[i] == b->objs[j] && (a->objs_write[i] || b->objs_write[j]))
				return true;
	return false;
}

bool sched_must_follow(const struct gem_request *later, const struct gem_request *earlier)
{
	return (later->ctx == earlier->ctx && later->ctx_slot == earlier->ctx_slot) ||
	       write_hazard(later, earlier);
}

struct list_node *sched_first_queued(struct list_node *requests)
{
	struct list_node *n;
	for (n = requests->next; n != requests; n = n->next)
		if (!list_entry(n, struct gem_request, link)->emitted)
			break;
	return n;
}

/* The earliest request from `first` on, before rq, that rq must follow,
 * or NULL. */
static struct gem_request *blocker(struct list_node *first, struct gem_request *rq)
{
	for (struct list_node *n = first; n != &rq->link; n = n->next) {
		struct gem_request *p = list_entry(n, struct gem_request, link);
		if (sched_must_follow(rq, p))
			return p;
	}
	return NULL;
}

/* The request of the list from `first` on to run next: the highest
 * priority first, through the chain of requests it must follow. */
static struct gem_request *pick_from(struct list_node *requests, struct list_node *first)
{
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
			while ((b = blocker(first, root)) != NULL)
				root = b;   /* inherits rq's priority */
			if (request_deps_ready(root))
				return root;
		}
		below = best;
	}
}

struct gem_request *sched_pick(struct list_node *requests)
{
	return pick_from(requests, sched_first_queued(requests));
}

/* Preemption (i915's need_preempt) and timeslicing (need_timeslice) as
 * the scheduler sees them: the running request and everything behind it
 * (emitted or queued) are candidates, as if unwound. */
enum sched_yield sched_should_yield(struct list_node *requests, struct gem_request *running)
{
	/* Most often nothing behind it could go first (one context's
	 * stream, or lower priorities): one pass, no picking. */
	bool contender = false;
	for (struct list_node *n = running->link.next; n != requests && !contender; n = n->next) {
		const struct gem_request *rq = list_entry(n, struct gem_request, link);
		contender = rq->priority > running->priority ||
			    (rq->priority == running->priority && !sched_must_follow(rq, running));
	}
	if (!contender)
		return SCHED_KEEP;
	struct gem_request *next = pick_from(requests, &running->link);
	if (next && next != running)
		return SCHED_PREEMPT;
	/* an equal-priority request that does not have to wait for it */
	for (struct list_node *n = running->link.next; n != requests; n = n->next) {
		struct gem_request *rq = list_entry(n, struct gem_request, link);
		if (rq->priority != running->priority)
			continue;
		struct gem_request *root = rq, *b;
		while ((b = blocker(&running->link, root)) != NULL)
			root = b;
		if (root != running && request_deps_ready(root))
			return SCHED_TIMESLICE;
	}
	return SCHED_KEEP;
}

void sched_yield_running(struct list_node *requests, struct gem_request *running)
{
	/* running and, in order, every queued request that must follow it
	 * (transitively) go behind the others */
	struct list_node moved, *n, *t;
	list_init(&moved);
	list_for_each_safe(n, t, requests) {
		struct gem_request *rq = list_entry(n, struct gem_request, link);
		bool follows = rq == running;
		for (struct list_node *m = moved.next; !follows && m != &moved; m = m->next)
			follows = sched_must_follow(rq, list_entry(m, struct gem_request, link));
		if (!follows)
			continue;
		list_del(&rq->link);
		list_add_tail(&moved, &rq->link);
	}
	while (!list_empty(&moved)) {
		struct list_node *m = moved.next;
		list_del(m);
		list_add_tail(requests, m);
	}
}
