/* GEM_CREATE and GEM_CREATE_EXT. Sizes round up to pages; 0 is -EINVAL.
 * CREATE_EXT accepts MEMORY_REGIONS naming only system memory (the one
 * region a BDW has), PROTECTED_CONTENT is -ENODEV (no PXP), anything else
 * -EINVAL; flags must be 0 (NEEDS_CPU_ACCESS is for local memory). A
 * second MEMORY_REGIONS in the chain is -EINVAL (i915's set_placements). */
#include <errno.h>
#include <stdbool.h>
#include <i915_drm.h>

#include "common/trace.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"
#include "common/user_copy.h"

#define MAX_EXTENSIONS 64

/* Create an object and a handle for it: 0, *handle and *size set. */
static int create_with_handle(struct gtsim_file *file, __u64 *size, __u32 *handle)
{
	struct gtsim_device *dev = file->dev;
	int err = 0;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_create(dev, *size, &err);
	if (obj) {
		err = obj_handle_create(file, obj, handle);
		if (!err)
			*size = obj->size;
		obj_put(obj);   /* the handle holds it now */
	}
	pthread_mutex_unlock(&dev->lock);
	if (!err)
		TRACE(TRACE_GEM, "create: handle %u, %llu bytes", *handle, (unsigned long long)*size);
	return err;
}

int i915_gem_create_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_create *args = arg;
	return create_with_handle(file, &args->size, &args->handle);
}

static int check_memory_regions(uint64_t ptr)
{
	struct drm_i915_gem_create_ext_memory_regions ext;
	if (copy_from_user_ptr(&ext, ptr, sizeof(ext)))
		return -EFAULT;
	if (ext.pad || ext.num_regions != 1)   /* one region exists: duplicates are -EINVAL */
		return -EINVAL;
	struct drm_i915_gem_memory_class_instance r;
	if (copy_from_user_ptr(&r, ext.regions, sizeof(r)))
		return -EFAULT;
	if (r.memory_class != I915_MEMORY_CLASS_SYSTEM || r.memory_instance)
		return -EINVAL;
	return 0;
}

int i915_gem_create_ext_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_create_ext *args = arg;
	if (args->flags)
		return -EINVAL;
	uint64_t ptr = args->extensions;
	bool regions_seen = false;
	for (unsigned n = 0; ptr; n++) {
		struct i915_user_extension ext;
		if (n >= MAX_EXTENSIONS)
			return -E2BIG;
		if (copy_from_user_ptr(&ext, ptr, sizeof(ext)))
			return -EFAULT;
		int ret;
		if (ext.rsvd[0] || ext.rsvd[1] || ext.rsvd[2])
			return -EINVAL;
		if (ext.name == I915_GEM_CREATE_EXT_MEMORY_REGIONS) {
			/* set_placements: one placement list only (-EINVAL) */
			ret = regions_seen ? -EINVAL : check_memory_regions(ptr);
			regions_seen = true;
		}
		else if (ext.name == I915_GEM_CREATE_EXT_PROTECTED_CONTENT)
			ret = -ENODEV;
		else
			ret = -EINVAL;
		if (ret)
			return ret;
		ptr = ext.next_extension;
	}
	return create_with_handle(file, &args->size, &args->handle);
}
