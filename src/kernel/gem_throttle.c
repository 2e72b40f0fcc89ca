/* GEM_THROTTLE (i915_gem_throttle_ioctl): -EIO when the device is wedged
 * (its ABI: IGT's igt_require_gem asks it whether the GPU is usable);
 * otherwise waits, on each engine, for the file's last request submitted
 * more than 20 ms ago (DRM_I915_THROTTLE_JIFFIES), so that a client can
 * keep at most 20 ms of work queued. */
#include <errno.h>

#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/request.h"
#include "kernel/sync/fence.h"

#define THROTTLE_NS (20ll * 1000000)

/* The engine's newest request of file queued before `before`, referenced.
 * dev->lock held (it guards rq->ctx and ctx->file). */
static struct gem_request *last_old_request(struct rq_engine *e, struct gtsim_file *file,
					    int64_t before)
{
	struct gem_request *found = NULL;
	pthread_mutex_lock(&e->lock);
	struct list_node *n, *t;
	list_for_each_safe(n, t, &e->requests) {
		struct gem_request *rq = list_entry(n, struct gem_request, link);
		if (rq->queued_ns > before)
			break;
		if (!rq->signaled && rq->ctx && rq->ctx->file == file)
			found = rq;
	}
	if (found)
		request_get(found);
	pthread_mutex_unlock(&e->lock);
	return found;
}

int i915_gem_throttle_ioctl(struct gtsim_file *file, void *arg)
{
	(void)arg;
	struct gtsim_device *dev = file->dev;
	if (__atomic_load_n(&dev->wedged, __ATOMIC_ACQUIRE))
		return -EIO;
	struct gem_requests *r = dev->requests;
	if (!r)
		return 0;
	int64_t before = fence_now_ns() - THROTTLE_NS;
	struct gem_request *wait[GT_NUM_ENGINES];
	pthread_mutex_lock(&dev->lock);
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		wait[i] = last_old_request(&r->engine[i], file, before);
	pthread_mutex_unlock(&dev->lock);
	for (int i = 0; i < GT_NUM_ENGINES; i++) {
		if (wait[i]) {
			fence_wait(wait[i]->fence, -1);
			request_put(wait[i]);
		}
	}
	return 0;
}
