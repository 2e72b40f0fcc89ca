/* FLINK / OPEN: global names for sharing objects between files. A name
 * holds a reference and lives as long as the object has a handle somewhere
 * (drm_gem); OPEN gives a new handle each time. */
#include <drm.h>
#include <errno.h>

#include "common/trace.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"

int drm_gem_flink_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_gem_flink *args = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	int ret = -ENOENT;
	if (obj) {
		ret = 0;
		if (!obj->flink_name) {
			uint32_t name;
			ret = idr_alloc(&dev->flink_names, obj, &name);
			if (!ret) {
				obj->flink_name = name;
				obj_get(obj);
			}
		}
		args->name = obj->flink_name;
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "flink handle %u -> %d, name %u", args->handle, ret, args->name);
	return ret;
}

int drm_gem_open_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_gem_open *args = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = idr_find(&dev->flink_names, args->name);
	int ret = -ENOENT;
	if (obj) {
		ret = obj_handle_create(file, obj, &args->handle);
		if (!ret)
			args->size = obj->size;
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "open name %u -> %d, handle %u", args->name, ret, args->handle);
	return ret;
}
