/* The request scheduler of one engine (i915_scheduler on execlists, as
 * far as the model goes): which queued request enters the ring next.
 * Engine lock held by callers. */
#ifndef GTSIM_KERNEL_SCHEDULER_H
#define GTSIM_KERNEL_SCHEDULER_H

#include <stdbool.h>

#include "kernel/list.h"

struct gem_request;
struct gtsim_device;

/* Must later (queued after earlier on the same engine) run after it: the
 * same logical context, or an object one of them writes. */
bool sched_must_follow(const struct gem_request *later, const struct gem_request *earlier);
/* Priority inheritance across engines (sched_signalers.c): every request
 * rq waits for, directly or not, is raised to rq's priority. rq is not on
 * an engine's list yet; dev->lock held, no engine lock. */
void sched_raise_signalers(struct gtsim_device *dev, struct gem_request *rq);

/* The next queued request of `requests` (an engine's list: emitted
 * requests first, then queued ones in submission order) to emit, or NULL
 * when none may go yet. */
struct gem_request *sched_pick(struct list_node *requests);
/* The list node of the first queued request (the list head if none). */
struct list_node *sched_first_queued(struct list_node *requests);

/* Should the running request (the first emitted, not signaled) give way?
 * SCHED_PREEMPT: a request behind it (emitted or queued, ready) comes
 * first by priority or inheritance; SCHED_TIMESLICE: one of the same
 * priority that does not depend on it waits. */
enum sched_yield { SCHED_KEEP, SCHED_PREEMPT, SCHED_TIMESLICE };
enum sched_yield sched_should_yield(struct list_node *requests, struct gem_request *running);
/* A timeslice ended: running (unwound, queued) and every queued request
 * that must follow it go to the end of the list, so that its equals go
 * first (i915 moves it behind the requests of its priority). */
void sched_yield_running(struct list_node *requests, struct gem_request *running);

#endif
