/* The fences other drivers put in an object's reservation (i915's
 * dma_resv holds them beside its own requests): vgem's FENCE_ATTACH on an
 * object i915 shares by PRIME. i915 waits for them as for its own
 * requests: execbuf before it runs (implicit sync), GEM_WAIT, SET_DOMAIN,
 * dma-buf poll and DMA_BUF_IOCTL_SYNC; BUSY ignores them (i915_gem_busy.c
 * reports only i915's own fences). dev->lock held. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "kernel/device.h"
#include "kernel/object.h"
#include "kernel/sync/fence.h"

/* The pending fences of a freed exported object, by its file's identity. */
struct resv_orphan {
	struct list_node link;
	dev_t dev;
	ino_t ino;
	struct obj_ext_fence *ext;
	unsigned n;
};

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

static void orphan_free(struct resv_orphan *o)
{
	for (unsigned i = 0; i < o->n; i++)
		fence_put(o->ext[i].fence);
	free(o->ext);
	list_del(&o->link);
	free(o);
}

/* The orphan entry of st's file, its signalled fences dropped (and the
 * entry with them once none is left); NULL when none. */
static struct resv_orphan *orphan_find(struct gtsim_device *dev, const struct stat *st)
{
	struct list_node *n, *t;
	list_for_each_safe(n, t, &dev->orphan_resv) {
		struct resv_orphan *o = list_entry(n, struct resv_orphan, link);
		unsigned kept = 0;
		for (unsigned i = 0; i < o->n; i++) {
			if (fence_is_signaled(o->ext[i].fence))
				fence_put(o->ext[i].fence);
			else
				o->ext[kept++] = o->ext[i];
		}
		o->n = kept;
		if (!kept) {
			orphan_free(o);
			continue;
		}
		if (o->ino == st->st_ino && o->dev == st->st_dev)
			return o;
	}
	return NULL;
}

void obj_resv_adopt(struct gem_object *obj, const struct stat *st)
{
	struct resv_orphan *o = orphan_find(obj->dev, st);
	if (!o)
		return;
	for (unsigned i = 0; i < o->n; i++)
		if (obj_ext_fence_add(obj, o->ext[i].fence, o->ext[i].write))
			return;   /* out of memory: the orphan keeps them */
	orphan_free(o);
}

bool obj_resv_orphan_pending(struct gtsim_device *dev, const struct stat *st, bool write)
{
	struct resv_orphan *o = orphan_find(dev, st);
	for (unsigned i = 0; o && i < o->n; i++)
		if (write || o->ext[i].write)
			return true;
	return false;
}

void obj_resv_orphans_free(struct gtsim_device *dev)
{
	while (!list_empty(&dev->orphan_resv))
		orphan_free(list_entry(dev->orphan_resv.next, struct resv_orphan, link));
}

/* An exported object (a memfd of its own) keeps its pending fences for its
 * file; false when there are none or the entry cannot be made. */
static bool orphan_keep(struct gem_object *obj)
{
	obj_ext_fences(obj, true, NULL, 0);   /* drops the signalled ones */
	if (!obj->n_ext || !obj->ino)
		return false;
	struct resv_orphan *o = calloc(1, sizeof(*o));
	if (!o)
		return false;
	*o = (struct resv_orphan){ .dev = obj->ino_dev, .ino = obj->ino, .ext = obj->ext,
				   .n = obj->n_ext };
	list_add_tail(&obj->dev->orphan_resv, &o->link);
	obj->ext = NULL;
	obj->n_ext = obj->ext_cap = 0;
	return true;
}

void obj_ext_release(struct gem_object *obj)
{
	if (orphan_keep(obj))
		return;
	for (unsigned i = 0; i < obj->n_ext; i++)
		fence_put(obj->ext[i].fence);
	free(obj->ext);
	obj->ext = NULL;
	obj->n_ext = obj->ext_cap = 0;
}
