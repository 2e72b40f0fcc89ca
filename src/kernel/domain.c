/* DRM_IOCTL_I915_GEM_SET_DOMAIN and SW_FINISH (i915_gem_domain.c). Only
 * CPU-side domains (CPU, GTT, WC) may be asked for; a write domain must be
 * the single read domain. Reading waits for outstanding GPU writes,
 * writing for every GPU use (seed 002). Caches are coherent in gtsim, so
 * moving between domains is bookkeeping. */
#include <errno.h>
#include <i915_drm.h>

#include "kernel/gtt_fence.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"

#define GPU_DOMAINS (I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER | \
		     I915_GEM_DOMAIN_COMMAND | I915_GEM_DOMAIN_INSTRUCTION | \
		     I915_GEM_DOMAIN_VERTEX)

int i915_gem_set_domain_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_set_domain *args = arg;
	struct gtsim_device *dev = file->dev;
	uint32_t read = args->read_domains, write = args->write_domain;

	if ((read | write) & GPU_DOMAINS)
		return -EINVAL;
	if (write && read != write)
		return -EINVAL;
	if (!read)
		return 0;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	if (!obj) {
		pthread_mutex_unlock(&dev->lock);
		return -ENOENT;
	}
	if (obj->userptr) {
		/* i915: userptr pages are got here (iris checks a userptr's
		 * validity with SET_DOMAIN), then the object is waited for
		 * (I915_WAIT_INTERRUPTIBLE, its error returned); a proxy
		 * object has no domain of its own. */
		int ret = userptr_validate(obj);
		if (!ret)
			ret = obj_wait_rendering_interruptible(obj, write != 0, -1);
		obj_put(obj);
		pthread_mutex_unlock(&dev->lock);
		return ret;
	}
	int ret = obj_wait_rendering_interruptible(obj, write != 0, -1);
	if (ret) {
		obj_put(obj);
		pthread_mutex_unlock(&dev->lock);
		return ret;
	}
	gtt_fence_sync(obj);   /* the fenced view's pages are coherent again */
	/* i915 pins the pages to move them into the new domain: a purged
	 * object has none (i915_gem_object_pin_pages -> -EFAULT). */
	if (obj->purged) {
		obj_put(obj);
		pthread_mutex_unlock(&dev->lock);
		return -EFAULT;
	}
	obj->has_pages = true;   /* i915_gem_object_pin_pages() */
	/* The new domain: WC, else GTT, else CPU (i915's order). */
	uint32_t domain = (read & I915_GEM_DOMAIN_WC) ? I915_GEM_DOMAIN_WC :
			  (read & I915_GEM_DOMAIN_GTT) ? I915_GEM_DOMAIN_GTT : I915_GEM_DOMAIN_CPU;
	if (write) {
		obj->read_domains = domain;
		obj->write_domain = domain;
	} else {
		obj->read_domains |= domain;
	}
	obj_put(obj);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int i915_gem_sw_finish_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_sw_finish *args = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	if (obj)
		obj_put(obj);
	pthread_mutex_unlock(&dev->lock);
	return obj ? 0 : -ENOENT;
}
