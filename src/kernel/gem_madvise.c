/* MADVISE: WILLNEED / DONTNEED (anything else -EINVAL). A DONTNEED object
 * may be purged by the shrinker (gem_shrink.c); once purged it stays purged
 * whatever is asked later, and "retained" is 0, as in i915.
 * An object without pages (obj->has_pages: never bound, read or moved to a
 * domain since its creation or the last full shrink) is truncated at once,
 * as i915_gem_madvise_ioctl() does. */
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
		/* i915: "if the object is no longer attached, discard its
		 * backing storage" (an object without pages is truncated). */
		if (obj->madv == I915_MADV_DONTNEED && !obj->has_pages && gem_truncatable(obj))
			gem_purge(obj);
		args->retained = !obj->purged;
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "madvise handle %u %u -> %d", args->handle, args->madv, obj ? 0 : -ENOENT);
	return obj ? 0 : -ENOENT;
}
