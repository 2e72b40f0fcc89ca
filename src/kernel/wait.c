/* Waiting for the GPU to finish with an object (seed 002): every use
 * (write access, GEM_WAIT) or only the outstanding writes (read access).
 * The waits are on the requests' fences, woken by MI_USER_INTERRUPT, and
 * on other drivers' fences in the object's reservation (obj_resv.c);
 * dev->lock is dropped meanwhile. A request that was reset counts as
 * finished, as in i915 (waits do not report GPU errors). */
#include <errno.h>
#include <stdlib.h>
#include <i915_drm.h>

#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"
#include "kernel/request.h"
#include "kernel/sync/fence.h"
#include "gtsim/gtsim.h"

/* Not finished until its fence has signalled: the seqno in the status page
 * passes a little before the interrupt handler signals the fence, and a
 * waiter must find the out-fence (sync_file, syncobj) signalled once the
 * wait returns, as i915's waits on the same fence do. */
static bool request_pending(const struct gem_request *rq)
{
	return !fence_is_done(rq->fence);
}

/* The fences to wait for (references), at most max of them: the last
 * writer's, for write access every reader's, and the other drivers'
 * (obj_resv.c). Returns how many there are (those past max not taken). */
static unsigned pending_fences(struct gem_object *obj, bool write, bool own, struct gt_fence **out,
			       unsigned max)
{
	unsigned n = 0;
	if (obj->last_write && request_pending(obj->last_write)) {
		if (n < max)
			out[n] = fence_get(obj->last_write->fence);
		n++;
	}
	if (write)
		for (unsigned i = 0; i < obj->nreaders; i++) {
			struct gem_request *rq = obj->readers[i];
			if (rq == obj->last_write || !request_pending(rq))
				continue;
			if (n < max)
				out[n] = fence_get(rq->fence);
			n++;
		}
	if (own)
		return n;
	return n + obj_ext_fences(obj, write, n < max ? out + n : NULL, n < max ? max - n : 0);
}

#define WAIT_STACK 8

/* The same fences wait_rendering() waits for (the relocation loop asks). */
bool obj_wait_needed(struct gem_object *obj, bool write)
{
	return pending_fences(obj, write, false, NULL, 0) != 0;
}

static int wait_rendering(struct gem_object *obj, bool write, bool own, int64_t timeout_ns,
			  bool intr)
{
	struct gtsim_device *dev = obj->dev;
	struct gt_fence *stack[WAIT_STACK], **fences = stack;
	unsigned n = pending_fences(obj, write, own, NULL, 0);
	if (!n)
		return 0;
	if (n > WAIT_STACK && !(fences = malloc(n * sizeof(*fences))))
		return -ENOMEM;
	n = pending_fences(obj, write, own, fences, n);
	int ret = 0;
	/* a timeout past INT64_MAX from now (anv waits with INT64_MAX) is
	 * a deadline of INT64_MAX, without the signed overflow */
	int64_t now = fence_now_ns();
	int64_t deadline = timeout_ns < 0 ? -1
			   : timeout_ns > INT64_MAX - now ? INT64_MAX : now + timeout_ns;
	pthread_mutex_unlock(&dev->lock);
	for (unsigned i = 0; i < n; i++) {
		if (!ret) {
			int64_t left = -1;
			if (deadline >= 0) {
				left = deadline - fence_now_ns();
				if (left < 0)
					left = 0;
			}
			ret = intr ? fence_wait_interruptible(fences[i], left)
				   : fence_wait(fences[i], left);
		}
		fence_put(fences[i]);
	}
	if (fences != stack)
		free(fences);
	pthread_mutex_lock(&dev->lock);
	requests_retire(dev);
	return ret == -GTSIM_ERESTARTSYS ? ret : ret ? -ETIME : 0;
}

int obj_wait_rendering(struct gem_object *obj, bool write, int64_t timeout_ns)
{
	return wait_rendering(obj, write, false, timeout_ns, false);
}

int obj_wait_rendering_interruptible(struct gem_object *obj, bool write, int64_t timeout_ns)
{
	return wait_rendering(obj, write, false, timeout_ns, true);
}

int obj_wait_gpu_interruptible(struct gem_object *obj)
{
	return wait_rendering(obj, true, true, -1, true);
}

/* DRM_IOCTL_I915_GEM_WAIT: timeout_ns < 0 waits forever, 0 only checks;
 * the time left is written back (i915_gem_wait_ioctl). */
int i915_gem_wait_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_wait *args = arg;
	struct gtsim_device *dev = file->dev;
	if (args->flags)
		return -EINVAL;
	int64_t start = fence_now_ns();
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->bo_handle);
	if (!obj) {
		pthread_mutex_unlock(&dev->lock);
		return -ENOENT;
	}
	requests_retire(dev);
	int ret = obj_wait_rendering_interruptible(obj, true, args->timeout_ns);
	obj_put(obj);
	pthread_mutex_unlock(&dev->lock);
	if (args->timeout_ns > 0) {
		args->timeout_ns -= fence_now_ns() - start;
		if (args->timeout_ns < 0 || ret == -ETIME)
			args->timeout_ns = ret == -ETIME ? 0 : (args->timeout_ns < 0 ? 0 : args->timeout_ns);
	}
	return ret;
}
