/* SET_CACHING / GET_CACHING. BDW has an LLC, so CACHED is always allowed;
 * DISPLAY means write-through where the GPU has it (eDRAM parts) and
 * uncached otherwise, so it reads back as NONE on an HD 5500. The mode is
 * validated before the handle, as i915 does. */
#include <errno.h>
#include <i915_drm.h>

#include "common/trace.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"

int i915_gem_set_caching_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_caching *args = arg;
	uint32_t level;
	switch (args->caching) {
	case I915_CACHING_NONE:
	case I915_CACHING_DISPLAY:
		level = I915_CACHING_NONE;
		break;
	case I915_CACHING_CACHED:
		level = I915_CACHING_CACHED;
		break;
	default:
		return -EINVAL;
	}
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	int ret = obj ? 0 : -ENOENT;
	if (obj && obj->userptr) {
		/* A proxy object's caching is its generator's; i915 silently
		 * accepts CACHED for userptr (anv sets it on everything). */
		if (args->caching != I915_CACHING_CACHED)
			ret = -ENXIO;
	} else if (obj) {
		obj->caching = level;
	}
	if (obj)
		obj_put(obj);
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "set_caching handle %u %u -> %d", args->handle, args->caching, ret);
	return ret;
}

int i915_gem_get_caching_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_caching *args = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	if (obj) {
		args->caching = obj->caching;
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	return obj ? 0 : -ENOENT;
}
