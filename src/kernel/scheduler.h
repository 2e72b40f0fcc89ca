/* The request scheduler of one engine (i915_scheduler on execlists, as
 * far as the model goes): which queued request enters the ring next.
 * Engine lock held by callers. */
#ifndef GTSIM_KERNEL_SCHEDULER_H
#define GTSIM_KERNEL_SCHEDULER_H

#include "kernel/list.h"

struct gem_request;

/* The next queued request of `requests` (an engine's list: emitted
 * requests first, then queued ones in submission order) to emit, or NULL
 * when none may go yet. */
struct gem_request *sched_pick(struct list_node *requests);
/* The list node of the first queued request (the list head if none). */
struct list_node *sched_first_queued(struct list_node *requests);

#endif
