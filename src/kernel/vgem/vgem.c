/* vgem's ioctls (Linux 6.1 drivers/gpu/drm/vgem/vgem_drv.c, vgem_fence.c,
 * and the drm core's dumb-buffer and PRIME helpers it uses):
 *  - MODE_CREATE_DUMB (drm_mode_create_dumb's checks, then
 *    drm_gem_shmem_dumb_create: pitch = DIV_ROUND_UP(width * bpp, 8),
 *    size = PAGE_ALIGN(pitch * height)); MODE_MAP_DUMB gives the fake
 *    offset the vgem node's mmap takes (-EINVAL for an imported object);
 *  - GEM_CLOSE, PRIME export and import, VERSION, GET_CAP: as for i915;
 *  - FENCE_ATTACH: flags only VGEM_FENCE_WRITE, pad 0 (-EINVAL); a fence
 *    joins the object's reservation as a write (exclusive) or read fence,
 *    -EBUSY when a fence it would conflict with is still pending (a write
 *    conflicts with any, a read with a write); its id (from 1) is the
 *    file's; it signals by itself after 10 s (VGEM_FENCE_TIMEOUT);
 *  - FENCE_SIGNAL: flags 0 (-EINVAL), an unknown or used id -ENOENT, an
 *    already signalled (timed out) fence -ETIMEDOUT; the id is used up.
 * Other core ioctls: -EOPNOTSUPP (syncobjs: vgem has no DRIVER_SYNCOBJ) or
 * -EINVAL (driver numbers past vgem's, as drm_ioctl answers). */
#include "kernel/vgem/vgem.h"

#include <errno.h>
#include <i915_drm.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common/trace.h"
#include "gtsim/gtsim.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/idr.h"
#include "kernel/ioctl_table.h"
#include "kernel/object.h"
#include "kernel/request.h"
#include "kernel/sync/fence.h"
#include "kernel/vgem/vgem_uapi.h"

/* VGEM_FENCE_TIMEOUT (10 s); GTSIM_VGEM_FENCE_TIMEOUT_MS shortens it for
 * tests. */
static int64_t fence_timeout_ns(void)
{
	const char *ms = getenv("GTSIM_VGEM_FENCE_TIMEOUT_MS");
	long v = ms ? strtol(ms, NULL, 10) : 0;
	return v > 0 ? v * 1000000ll : 10ll * 1000000000;
}

struct vgem_file {
	pthread_mutex_t lock;
	/* id (from 1) -> struct gt_fence * (a reference), or USED_ID once
	 * signalled: vgem's idr_replace(NULL) keeps the id, so ids are never
	 * handed out twice. */
	struct idr fences;
};

static char used_id_mark;
#define USED_ID ((void *)&used_id_mark)

/* The fence timeout: a thread per fence, holding a reference only. */
static void *fence_timer(void *arg)
{
	struct gt_fence *f = arg;
	if (fence_wait(f, fence_timeout_ns())) {
		TRACE(TRACE_GEM, "vgem: a fence timed out");
		fence_signal(f, 0);   /* vgem_fence_timeout(): dma_fence_signal */
	}
	fence_put(f);
	return NULL;
}

static int vgem_dumb_create_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_mode_create_dumb *a = arg;
	/* drm_mode_create_dumb(): the overflow checks of 32-bit sizes */
	if (!a->width || !a->height || !a->bpp || a->bpp > UINT32_MAX - 8)
		return -EINVAL;
	uint32_t cpp = (a->bpp + 7) / 8;
	if (cpp > UINT32_MAX / a->width)
		return -EINVAL;
	uint32_t stride = cpp * a->width;
	if (a->height > UINT32_MAX / stride)
		return -EINVAL;
	uint64_t bytes = (uint64_t)a->height * stride;
	if (((bytes + 4095) & ~4095ull) > UINT32_MAX)
		return -EINVAL;   /* PAGE_ALIGN(size) wraps to 0 in 32 bits */
	/* drm_gem_shmem_dumb_create(), pitch and size zeroed by the core */
	a->pitch = (uint32_t)(((uint64_t)a->width * a->bpp + 7) / 8);
	a->size = ((uint64_t)a->pitch * a->height + 4095) & ~4095ull;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	int err = 0;
	struct gem_object *obj = obj_create(dev, a->size, &err);
	if (obj) {
		err = obj_handle_create(file, obj, &a->handle);
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "vgem: dumb %ux%u bpp %u -> handle %u, pitch %u, size %llu (%d)",
	      a->width, a->height, a->bpp, a->handle, a->pitch, (unsigned long long)a->size, err);
	return err;
}

static int vgem_dumb_map_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_mode_map_dumb *a = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, a->handle);
	int ret = -ENOENT;
	if (obj) {
		/* drm_gem_dumb_map_offset(): "Don't allow imported objects" */
		uint64_t offset = 0;
		ret = obj->imported ? -EINVAL
				    : mmap_node_offset(obj, I915_MMAP_OFFSET_WB, file, &offset);
		if (!ret)
			ret = obj_own_memfd(obj);   /* the node's mmap maps the memfd */
		if (!ret)
			a->offset = offset;
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

static int vgem_fence_attach_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_vgem_fence_attach *a = arg;
	if ((a->flags & ~(uint32_t)VGEM_FENCE_WRITE) || a->pad)
		return -EINVAL;
	struct gtsim_device *dev = file->dev;
	bool write = a->flags & VGEM_FENCE_WRITE;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, a->handle);
	int ret = -ENOENT;
	struct gt_fence *f = NULL;
	if (!obj)
		goto out;
	/* the reservation's dma_resv_usage_rw: a write conflicts with every
	 * pending fence, a read with the writes (i915's and other vgem ones) */
	ret = -EBUSY;
	requests_retire(dev);
	if (obj_wait_needed(obj, write))
		goto out;
	ret = -ENOMEM;
	if (!(f = fence_create()))
		goto out;
	pthread_mutex_lock(&file->vgem->lock);
	uint32_t id;
	ret = idr_alloc(&file->vgem->fences, fence_get(f), &id);
	pthread_mutex_unlock(&file->vgem->lock);
	if (ret) {
		fence_put(f);
		goto out;
	}
	ret = obj_ext_fence_add(obj, f, write);
	if (ret) {
		pthread_mutex_lock(&file->vgem->lock);
		fence_put(idr_remove(&file->vgem->fences, id));
		pthread_mutex_unlock(&file->vgem->lock);
		goto out;
	}
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, fence_timer, fence_get(f))) {
		fence_put(f);   /* no timeout then: the client must signal it */
		TRACE(TRACE_GEM, "vgem: fence %u has no timeout (no thread)", id);
	}
	pthread_attr_destroy(&attr);
	a->out_fence = id;
	TRACE(TRACE_GEM, "vgem: fence %u attached to handle %u (%s)", id, a->handle,
	      write ? "write" : "read");
out:
	fence_put(f);
	obj_put(obj);
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

static int vgem_fence_signal_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_vgem_fence_signal *a = arg;
	if (a->flags)
		return -EINVAL;
	pthread_mutex_lock(&file->vgem->lock);
	struct gt_fence *f = idr_replace(&file->vgem->fences, USED_ID, a->fence);
	pthread_mutex_unlock(&file->vgem->lock);
	if (!f || f == USED_ID)
		return -ENOENT;
	int ret = fence_is_signaled(f) ? -ETIMEDOUT : 0;
	fence_signal(f, 0);
	fence_put(f);
	TRACE(TRACE_GEM, "vgem: fence %u signalled (%d)", a->fence, ret);
	return ret;
}

static int vgem_get_cap_ioctl(struct gtsim_file *file, void *arg)
{
	(void)file;
	struct drm_get_cap *c = arg;
	switch (c->capability) {
	case DRM_CAP_DUMB_BUFFER: c->value = 1; return 0;
	case DRM_CAP_PRIME: c->value = DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT; return 0;
	case DRM_CAP_TIMESTAMP_MONOTONIC: c->value = 1; return 0;
	default: c->value = 0; return -EINVAL;   /* no KMS, no syncobjs */
	}
}

#define VGEM_TABLE_SIZE 0x100   /* the DRM ioctl numbers (dumb buffers: 0xb2, 0xb3) */
#define vgem_version_ioctl drm_version_ioctl
#define vgem_set_version_ioctl drm_set_version_ioctl
#define vgem_gem_close_ioctl drm_gem_close_ioctl
#define vgem_prime_handle_to_fd_ioctl drm_prime_handle_to_fd_ioctl
#define vgem_prime_fd_to_handle_ioctl drm_prime_fd_to_handle_ioctl
static const struct ioctl_desc vgem_table[VGEM_TABLE_SIZE] = {
	IOCTL(DRM_IOCTL_VERSION, vgem_version, 0),
	IOCTL(DRM_IOCTL_SET_VERSION, vgem_set_version, 0),
	IOCTL(DRM_IOCTL_GET_CAP, vgem_get_cap, 0),
	IOCTL(DRM_IOCTL_GEM_CLOSE, vgem_gem_close, 0),
	IOCTL(DRM_IOCTL_PRIME_HANDLE_TO_FD, vgem_prime_handle_to_fd, 0),
	IOCTL(DRM_IOCTL_PRIME_FD_TO_HANDLE, vgem_prime_fd_to_handle, 0),
	IOCTL(DRM_IOCTL_MODE_CREATE_DUMB, vgem_dumb_create, 0),
	IOCTL(DRM_IOCTL_MODE_MAP_DUMB, vgem_dumb_map, 0),
	IOCTL(DRM_IOCTL_VGEM_FENCE_ATTACH, vgem_fence_attach, 0),
	IOCTL(DRM_IOCTL_VGEM_FENCE_SIGNAL, vgem_fence_signal, 0),
};

int vgem_ioctl(struct gtsim_file *file, unsigned long request, void *arg)
{
	unsigned nr = _IOC_NR(request);
	const struct ioctl_desc *d = nr < VGEM_TABLE_SIZE ? &vgem_table[nr] : NULL;
	if (d && d->fn)
		return ioctl_call(file, d, request, arg);
	TRACE(TRACE_STUB, "vgem: ioctl nr 0x%x not served", nr);
	return nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END ? -EINVAL : -EOPNOTSUPP;
}

struct gtsim_file *gtsim_open_vgem(struct gtsim_device *dev)
{
	return vgem_open_node(dev, GTSIM_VGEM_MINOR);
}

struct gtsim_file *vgem_open_node(struct gtsim_device *dev, int minor)
{
	if (!dev)
		return NULL;
	struct gtsim_file *file = calloc(1, sizeof(*file));
	struct vgem_file *v = calloc(1, sizeof(*v));
	if (!file || !v) {
		free(file);
		free(v);
		return NULL;
	}
	file->dev = dev;
	file->minor = minor;   /* card1 or renderD129 */
	file->pid = (int)getpid();
	file->vgem = v;
	idr_init(&file->objects, 1);
	idr_init(&v->fences, 1);
	pthread_mutex_init(&v->lock, NULL);
	/* the first opener of the primary node while it has none is master */
	pthread_mutex_lock(&dev->lock);
	if (minor < 128 && !dev->vgem_master) {
		dev->vgem_master = file;
		file->is_master = file->was_master = file->authenticated = true;
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "vgem: open, file %p", (void *)file);
	return file;
}

void vgem_file_close(struct gtsim_file *file)
{
	struct gtsim_device *dev = file->dev;
	uint32_t id;
	void *p;
	pthread_mutex_lock(&dev->lock);
	for (id = 0; idr_next(&file->objects, &id, &p) == 0; id++)
		obj_handle_delete(file, id);
	if (dev->vgem_master == file)
		dev->vgem_master = NULL;
	pthread_mutex_unlock(&dev->lock);
	/* vgem_fence_close(): the ids go; the fences run to their timeout */
	for (id = 0; idr_next(&file->vgem->fences, &id, &p) == 0; id++)
		if (idr_remove(&file->vgem->fences, id) != USED_ID)
			fence_put(p);
	idr_fini(&file->vgem->fences);
	idr_fini(&file->objects);
	pthread_mutex_destroy(&file->vgem->lock);
	free(file->vgem);
	TRACE(TRACE_GEM, "vgem: close, file %p", (void *)file);
	free(file);
}
