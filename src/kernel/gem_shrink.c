/* The shrinker: drops the pages of purgeable objects, as i915's shrinker
 * does under memory pressure. An object is purgeable when userspace marked
 * it I915_MADV_DONTNEED, the GPU no longer uses it and nothing pins it.
 * Purging unbinds it everywhere (its PTEs become not-present) and punches
 * its memfd empty (the memory goes back to the host; legacy GEM_MMAP
 * mappings, plain shmem mappings in i915, read zeros), and its fake-offset
 * mappings are revoked (SIGBUS on access, as i915's fault handler answers).
 * From then on it is __I915_MADV_PURGED for good: MADVISE reports
 * retained = 0, pread/pwrite and binding (execbuf, GTT faults) fail with
 * -EFAULT, and a new mapping of a fake offset raises SIGBUS on access.
 * MADVISE(DONTNEED) of an object without pages purges it at once
 * (i915_gem_object_truncate); a full shrink (drop_caches) also drops the
 * pages of idle WILLNEED objects (i915 swaps them out: contents kept), so
 * a later DONTNEED truncates them at once too.
 *
 * Triggers: creating an object when the objects' resident bytes pass
 * dev->mem_limit (GTSIM_MEM_LIMIT_MB, default half the host's RAM), the way
 * i915 shrinks when an allocation of pages fails, and gem_shrink() itself
 * (i915's debugfs drop_caches, for tests). */
#include <i915_drm.h>

#include "common/trace.h"
#include "kernel/device.h"
#include "kernel/object.h"
#include "kernel/object_store.h"
#include "kernel/vm.h"

/* i915's internal madvise state after truncation (i915_gem_object_types.h). */
#define MADV_PURGED 2

bool gem_truncatable(const struct gem_object *obj)
{
	/* A userptr object has no truncate (i915 only drops its page pins),
	 * nor has an import of a foreign dma-buf. */
	return !obj->purged && !obj->imported && !obj->userptr && !obj->cpu_copies;
}

static bool obj_purgeable(const struct gem_object *obj)
{
	return obj->madv == I915_MADV_DONTNEED && gem_truncatable(obj) && !obj_is_active(obj);
}

bool gem_purge(struct gem_object *obj)
{
	if (obj_unbind_all(obj))
		return false;   /* pinned somewhere */
	/* The pages go; the mapping and the file size stay, so every host and
	 * client mapping remains valid (reads zeros, never crashes). */
	store_punch(obj);
	mmap_revoke(obj);
	obj->purged = true;
	obj->has_pages = false;
	obj->madv = MADV_PURGED;
	obj->dev->purged_bytes += obj->size;
	TRACE(TRACE_GEM, "shrink: object %p purged (%llu bytes)", (void *)obj,
	      (unsigned long long)obj->size);
	return true;
}

uint64_t gem_shrink(struct gtsim_device *dev, uint64_t target)
{
	uint64_t freed = 0;
	requests_retire(dev);   /* finished work no longer keeps objects active */
	struct list_node *n, *t;
	list_for_each_safe(n, t, &dev->objects) {
		if (freed >= target)
			break;
		struct gem_object *obj = list_entry(n, struct gem_object, dev_link);
		if (obj_purgeable(obj) && gem_purge(obj))
			freed += obj->size;
	}
	TRACE(TRACE_GEM, "shrink: %llu of %llu bytes freed", (unsigned long long)freed,
	      (unsigned long long)target);
	return freed;
}

void gem_shrink_if_needed(struct gtsim_device *dev)
{
	uint64_t resident = dev->object_bytes - dev->purged_bytes;
	if (dev->mem_limit && resident > dev->mem_limit)
		gem_shrink(dev, resident - dev->mem_limit);
}

/* Does anything pin one of obj's bindings. */
static bool obj_pinned(struct gem_object *obj)
{
	struct list_node *n, *t;
	list_for_each_safe(n, t, &obj->vmas)
		if (list_entry(n, struct gem_vma, obj_link)->pin_count)
			return true;
	return false;
}

void gem_shrink_all(struct gtsim_device *dev)
{
	gem_shrink(dev, UINT64_MAX);
	struct list_node *n, *t;
	list_for_each_safe(n, t, &dev->objects) {
		struct gem_object *obj = list_entry(n, struct gem_object, dev_link);
		if (!obj_is_active(obj) && !obj_pinned(obj) && !obj->cpu_copies)
			obj->has_pages = false;
	}
}
