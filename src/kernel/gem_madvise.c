/* MADVISE: WILLNEED / DONTNEED (anything else -EINVAL). A DONTNEED object
 * may be purged by the shrinker (gem_shrink.c); once purged it stays purged
 * whatever is asked later, and "retained" is 0, as in i915.
 * Difference: i915 truncates a DONTNEED object at once when it has no pages
 * yet (never used); gtsim's objects always have their memfd, so only the
 * shrinker purges. */
#include <errno.h>
#include <i915_drm.h>

#include "common/trace.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"

int i915_gem_madvise_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_madvise *args = arg;
	if (args->madv != I915_MADV_WILLNEED && args->madv != I915_MADV_DONTNEED)
		return -EINVAL;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	if (obj) {
		if (!obj->purged)
			obj->madv = args->madv;
		args->retained = !obj->purged;
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "madvise handle %u %u -> %d", args->handle, args->madv, obj ? 0 : -ENOENT);
	return obj ? 0 : -ENOENT;
}
