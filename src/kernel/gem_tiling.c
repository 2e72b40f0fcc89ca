/* SET_TILING / GET_TILING. i915's rules on gen8: tiling NONE, X or Y; a
 * tiled object needs a stride that is a non-zero multiple of the tile
 * width (512 B for X, 128 B for Y: the surface module's tile sizes) whose
 * stride / 128 is at most 2048 (the fence pitch field,
 * GEN7_FENCE_MAX_PITCH_VAL); otherwise -EINVAL. No bit-6 swizzling on
 * BDW: swizzle mode NONE. Changing the layout unbinds the object from the
 * GGTT (its fence region changes); -EBUSY while that binding is pinned. */
#include <errno.h>
#include <i915_drm.h>

#include "common/trace.h"
#include "gpu/surface/surface.h"
#include "kernel/gtt_fence.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"
#include "kernel/vm.h"

#define MAX_FENCE_PITCH_VAL 2048u

static bool tiling_ok(uint32_t tiling, uint32_t stride)
{
	if (tiling == I915_TILING_NONE)
		return true;
	if (tiling != I915_TILING_X && tiling != I915_TILING_Y)
		return false;
	if (stride / 128 > MAX_FENCE_PITCH_VAL)
		return false;
	unsigned width = surface_tile_width(tiling == I915_TILING_X ? SURFACE_TILE_X : SURFACE_TILE_Y);
	return stride && stride % width == 0;
}

int i915_gem_set_tiling_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_set_tiling *args = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	int ret = -ENOENT;
	if (!obj)
		goto out;
	ret = -ENXIO;   /* a proxy object's (userptr's) tiling is not the user's to set */
	if (obj->userptr)
		goto out;
	ret = -EINVAL;
	if (!tiling_ok(args->tiling_mode, args->stride))
		goto out;
	uint32_t stride = args->tiling_mode == I915_TILING_NONE ? 0 : args->stride;
	ret = 0;
	if (obj->tiling != args->tiling_mode || obj->stride != stride) {
		struct gem_vma *vma = vma_lookup(dev->ggtt, obj);
		if (vma && (ret = vma_unbind(vma)))
			goto out;
		gtt_fence_sync(obj);   /* tiled back with the old layout */
		bool was_linear = obj->tiling == I915_TILING_NONE;
		obj->tiling = args->tiling_mode;
		obj->stride = stride;
		gtt_fence_sync(obj);   /* the view detiles with the new one */
		if (was_linear != (obj->tiling == I915_TILING_NONE))
			mmap_gtt_retile(obj);   /* existing GTT maps: into or out of a fence */
	}
	args->stride = obj->stride;
	args->tiling_mode = obj->tiling;
	args->swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
out:
	if (obj)
		obj_put(obj);
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "set_tiling handle %u mode %u stride %u -> %d", args->handle,
	      args->tiling_mode, args->stride, ret);
	return ret;
}

int i915_gem_get_tiling_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_get_tiling *args = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	if (obj) {
		args->tiling_mode = obj->tiling;
		args->swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
		args->phys_swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	return obj ? 0 : -ENOENT;
}
