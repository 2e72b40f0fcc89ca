/* An object's outstanding readers: every request using it that has not
 * retired, each holding a reference (i915's dma_resv shared fences; the
 * last writer is obj->last_write, its exclusive fence). Two requests that
 * only read an object may run in either order (scheduler.c), so no one
 * reader stands for the others: BUSY, WAIT and dma-buf poll look at all.
 * The list holds requests submitted and not yet retired, so it is as long
 * as the requests in flight at most. dev->lock held. */
#include "kernel/object.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/request.h"

int obj_add_reader(struct gem_object *obj, struct gem_request *rq)
{
	if (obj->nreaders == obj->readers_cap) {
		unsigned cap = obj->readers_cap ? obj->readers_cap * 2 : 4;
		struct gem_request **r = realloc(obj->readers, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		obj->readers = r;
		obj->readers_cap = cap;
	}
	obj->readers[obj->nreaders++] = request_get(rq);
	return 0;
}

void obj_drop_reader(struct gem_object *obj, struct gem_request *rq)
{
	for (unsigned i = 0; i < obj->nreaders; i++) {
		if (obj->readers[i] != rq)
			continue;
		/* kept in submission order: requests mostly retire oldest
		 * first, so the next one is found at once */
		memmove(&obj->readers[i], &obj->readers[i + 1],
			(--obj->nreaders - i) * sizeof(*obj->readers));
		request_put(rq);
		if (!obj->nreaders) {   /* idle: give the memory back */
			free(obj->readers);
			obj->readers = NULL;
			obj->readers_cap = 0;
		}
		return;
	}
}

unsigned obj_pending_readers(struct gem_object *obj, struct gem_request **out, unsigned max)
{
	unsigned n = 0;
	for (unsigned i = 0; i < obj->nreaders; i++) {
		struct gem_request *rq = obj->readers[i];
		if (request_completed(rq))
			continue;
		if (n < max)
			out[n] = rq;
		n++;
	}
	return n;
}
