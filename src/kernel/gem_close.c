/* DRM_GEM_CLOSE: drop one handle. A handle that does not exist is -EINVAL
 * (drm_gem_handle_delete), not -ENOENT. The object lives on while other
 * handles, flink names or the GPU hold it. */
#include <drm.h>
#include <errno.h>

#include "common/trace.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"

int drm_gem_close_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_gem_close *args = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	int ret = obj_handle_delete(file, args->handle);
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "close handle %u -> %d", args->handle, ret ? -EINVAL : 0);
	return ret ? -EINVAL : 0;
}
