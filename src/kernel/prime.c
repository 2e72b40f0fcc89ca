/* PRIME: an object's dma-buf is a new open of its memfd (a slab object
 * gets a memfd of its own first; store_open(), object_store.h, opens it
 * again from the object's mapping, so DRM_RDWR decides whether it can be
 * mapped writable, as with a real dma-buf, and gtsim keeps no descriptor
 * of it once the client closes the dma-buf). Importing finds the object by the file's inode,
 * giving back the file's existing handle when there is one, and wraps a
 * foreign memfd (another device's buffer) in a new object. The dma-buf
 * keeps the object's memory alive (it holds the memfd's inode): importing
 * it after the object's last handle closed gives an object around the
 * same memory. */
#include <drm.h>
#include <errno.h>
#include <linux/dma-buf.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/trace.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/obj_ino.h"
#include "kernel/object.h"
#include "kernel/object_store.h"
#include "kernel/request.h"

int drm_prime_handle_to_fd_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_prime_handle *args = arg;
	if (args->flags & ~(uint32_t)(DRM_CLOEXEC | DRM_RDWR))
		return -EINVAL;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	int ret = -ENOENT;
	if (obj && obj->userptr) {
		ret = -EINVAL;   /* i915_gem_userptr_dmabuf_export() */
		obj_put(obj);
	} else if (obj && (ret = obj_own_memfd(obj))) {
		obj_put(obj);
	} else if (obj) {
		int flags = (args->flags & DRM_RDWR) ? O_RDWR : O_RDONLY;
		int fd = store_open(obj, flags | ((args->flags & DRM_CLOEXEC) ? O_CLOEXEC : 0));
		ret = fd < 0 ? fd : 0;
		if (fd >= 0)
			args->fd = fd;
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "prime export handle %u -> %d, fd %d", args->handle, ret, args->fd);
	return ret;
}

int drm_prime_fd_to_handle_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_prime_handle *args = arg;
	struct stat st;
	if (fstat(args->fd, &st))
		return -EBADF;
	/* Only memfds (which carry seals) stand for buffers. */
	if (!S_ISREG(st.st_mode) || fcntl(args->fd, F_GET_SEALS) < 0)
		return -EINVAL;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	int ret = 0;
	struct gem_object *obj = obj_ino_find(dev, st.st_ino, st.st_dev);
	if (obj) {
		obj_get(obj);
	} else {
		obj = obj_import_memfd(dev, args->fd, &ret);
		if (obj)
			obj_resv_adopt(obj, &st);   /* a freed exporter's pending fences */
	}
	if (obj) {
		uint32_t handle = obj_find_handle(file, obj);
		if (handle)
			args->handle = handle;
		else
			ret = obj_handle_create(file, obj, &args->handle);
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "prime import fd %d -> %d, handle %u", args->fd, ret, args->handle);
	return ret;
}

/* dma-buf poll (dma_buf_poll()): POLLIN waits for the exclusive (write)
 * fence, POLLOUT for every fence, i.e. for the GPU's outstanding write /
 * every outstanding use of the object. */
int gtsim_dmabuf_poll(struct gtsim_device *dev, int fd, short events)
{
	struct stat st;
	if (!dev || fstat(fd, &st) || !S_ISREG(st.st_mode))
		return -1;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_ino_find(dev, st.st_ino, st.st_dev);
	bool writing = false, using = false;
	if (obj) {
		requests_retire(dev);
		writing = obj_wait_needed(obj, false);
		using = obj_wait_needed(obj, true);
	} else {
		writing = obj_resv_orphan_pending(dev, &st, false);
		using = obj_resv_orphan_pending(dev, &st, true);
	}
	pthread_mutex_unlock(&dev->lock);
	short revents = 0;
	if ((events & POLLIN) && !writing)
		revents |= POLLIN;
	if ((events & POLLOUT) && !using)
		revents |= POLLOUT;
	return revents;
}

/* dma_buf_ioctl(): DMA_BUF_IOCTL_SYNC's flags, then i915's
 * i915_gem_begin_cpu_access (SYNC_START: the object moves to the CPU
 * domain, waiting for the GPU's write, or for every use when the CPU
 * writes); SYNC_END (end_cpu_access) has nothing to flush here. */
int gtsim_dmabuf_ioctl(struct gtsim_device *dev, int fd, unsigned long request, void *arg)
{
	if (request == GTSIM_DMABUF_IOCTL_POLL) {
		struct gtsim_dmabuf_poll *p = arg;
		int r = p ? gtsim_dmabuf_poll(dev, fd, p->events) : -EFAULT;
		if (r < 0)
			return r == -1 ? -EBADF : r;
		p->revents = (short)r;
		return 0;
	}
	if (request != DMA_BUF_IOCTL_SYNC)
		return -ENOTTY;
	if (!arg)
		return -EFAULT;
	const struct dma_buf_sync *sync = arg;
	if ((sync->flags & ~(uint64_t)DMA_BUF_SYNC_VALID_FLAGS_MASK) ||
	    !(sync->flags & DMA_BUF_SYNC_RW))
		return -EINVAL;
	struct stat st;
	if (!dev || fstat(fd, &st) || !S_ISREG(st.st_mode))
		return -EBADF;
	if (sync->flags & DMA_BUF_SYNC_END)
		return 0;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_ino_find(dev, st.st_ino, st.st_dev);
	int ret = 0;
	if (obj) {
		obj_get(obj);
		ret = obj_wait_rendering(obj, sync->flags & DMA_BUF_SYNC_WRITE, -1);
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}
