/* DRM_IOCTL_I915_GEM_BUSY (i915_gem_busy.c): bits 16..31 the engine
 * classes reading the object (1 << (16 + I915_ENGINE_CLASS_*)), bits 0..15
 * the class + 1 of the engine writing it; the writer also counts as a
 * reader, as the uAPI guarantees. */
#include <errno.h>
#include <i915_drm.h>

#include "common/trace.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"
#include "kernel/request.h"

static const uint16_t engine_class[GT_NUM_ENGINES] = {
	[ENGINE_RCS] = I915_ENGINE_CLASS_RENDER, [ENGINE_BCS] = I915_ENGINE_CLASS_COPY,
	[ENGINE_VCS] = I915_ENGINE_CLASS_VIDEO, [ENGINE_VECS] = I915_ENGINE_CLASS_VIDEO_ENHANCE,
};

static uint32_t read_flag(enum gt_engine_id id) { return 0x10000u << engine_class[id]; }

int i915_gem_busy_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_busy *args = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	if (!obj) {
		pthread_mutex_unlock(&dev->lock);
		return -ENOENT;
	}
	requests_retire(dev);
	uint32_t busy = 0;
	for (unsigned i = 0; i < obj->nreaders; i++) {
		struct gem_request *rq = obj->readers[i];
		if (!request_completed(rq))
			busy |= read_flag(rq->engine->id);
	}
	struct gem_request *w = obj->last_write;
	if (w && !request_completed(w))
		busy |= (engine_class[w->engine->id] + 1u) | read_flag(w->engine->id);
	args->busy = busy;
	TRACE(TRACE_GEM, "busy: handle %u -> 0x%x", args->handle, busy);
	obj_put(obj);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}
