/* The fences other drivers put in an object's reservation (i915's
 * dma_resv holds them beside its own requests): vgem's FENCE_ATTACH on an
 * object i915 shares by PRIME. i915 waits for them as for its own
 * requests: execbuf before it runs (implicit sync), GEM_WAIT, SET_DOMAIN,
 * dma-buf poll and DMA_BUF_IOCTL_SYNC; BUSY ignores them (i915_gem_busy.c
 * reports only i915's own fences). dev->lock held. */
#include <errno.h>
#include <stdlib.h>

#include "kernel/object.h"
#include "kernel/sync/fence.h"

int obj_ext_fence_add(struct gem_object *obj, struct gt_fence *f, bool write)
{
	if (obj->n_ext == obj->ext_cap) {
		unsigned cap = obj->ext_cap ? obj->ext_cap * 2 : 2;
		struct obj_ext_fence *e = realloc(obj->ext, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		obj->ext = e;
		obj->ext_cap = cap;
	}
	obj->ext[obj->n_ext++] = (struct obj_ext_fence){ fence_get(f), write };
	return 0;
}

unsigned obj_ext_fences(struct gem_object *obj, bool write, struct gt_fence **out, unsigned max)
{
	unsigned n = 0, kept = 0;
	for (unsigned i = 0; i < obj->n_ext; i++) {
		struct obj_ext_fence e = obj->ext[i];
		if (fence_is_signaled(e.fence)) {
			fence_put(e.fence);
			continue;
		}
		obj->ext[kept++] = e;
		if (!write && !e.write)
			continue;
		if (n < max)
			out[n] = fence_get(e.fence);
		n++;
	}
	obj->n_ext = kept;
	return n;
}

void obj_ext_release(struct gem_object *obj)
{
	for (unsigned i = 0; i < obj->n_ext; i++)
		fence_put(obj->ext[i].fence);
	free(obj->ext);
	obj->ext = NULL;
	obj->n_ext = obj->ext_cap = 0;
}
