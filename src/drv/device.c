/* libgtdrv buffer objects through the GEM uAPI. */
#include <errno.h>
#include <i915_drm.h>
#include <string.h>

#include "drv/gtdrv.h"

int gtdrv_ioctl(struct gtdrv *drv, unsigned long request, void *arg)
{
	return gtsim_ioctl_retry(drv->file, request, arg);
}

void gtdrv_init(struct gtdrv *drv, struct gtsim_file *file, const struct gt_devinfo *info)
{
	memset(drv, 0, sizeof(*drv));
	drv->file = file;
	drv->info = info;
	drv->gen = info->gen;
}

int gtdrv_bo_alloc(struct gtdrv *drv, struct gtdrv_bo *bo, uint64_t size)
{
	struct drm_i915_gem_create c = { .size = size };
	int r = gtdrv_ioctl(drv, DRM_IOCTL_I915_GEM_CREATE, &c);
	memset(bo, 0, sizeof(*bo));
	if (r)
		return r;
	bo->handle = c.handle;
	bo->size = c.size;
	return 0;
}

int gtdrv_bo_write(struct gtdrv *drv, const struct gtdrv_bo *bo, uint64_t offset,
		   const void *data, size_t len)
{
	struct drm_i915_gem_pwrite p = {
		.handle = bo->handle, .offset = offset, .size = len,
		.data_ptr = (uintptr_t)data,
	};
	return gtdrv_ioctl(drv, DRM_IOCTL_I915_GEM_PWRITE, &p);
}

int gtdrv_bo_read(struct gtdrv *drv, const struct gtdrv_bo *bo, uint64_t offset,
		  void *data, size_t len)
{
	struct drm_i915_gem_pread p = {
		.handle = bo->handle, .offset = offset, .size = len,
		.data_ptr = (uintptr_t)data,
	};
	return gtdrv_ioctl(drv, DRM_IOCTL_I915_GEM_PREAD, &p);
}

int gtdrv_bo_wait(struct gtdrv *drv, const struct gtdrv_bo *bo)
{
	struct drm_i915_gem_wait w = { .bo_handle = bo->handle, .timeout_ns = -1 };
	return gtdrv_ioctl(drv, DRM_IOCTL_I915_GEM_WAIT, &w);
}

void gtdrv_bo_free(struct gtdrv *drv, struct gtdrv_bo *bo)
{
	struct drm_gem_close c = { .handle = bo->handle };
	if (bo->handle)
		gtdrv_ioctl(drv, DRM_IOCTL_GEM_CLOSE, &c);
	memset(bo, 0, sizeof(*bo));
}
