/* CPU mappings of objects.
 *  - GEM_MMAP maps the object's memfd straight into the caller (the client
 *    shares our address space), like i915's vm_mmap of the shmem file.
 *  - MMAP_GTT / MMAP_OFFSET hand out a fake offset per object and mapping
 *    type; gtsim_mmap() turns it into a MAP_SHARED mapping of the memfd.
 *    For the GTT type the object is also bound into the mappable aperture
 *    (where i915 would fault it in).
 * Limitation: through a real GTT mapping the fence detiles a tiled object,
 * so the CPU sees linear rows. A plain mmap cannot remap bytes at that
 * granularity (X tiles interleave 512-byte runs), so here a GTT mapping of
 * a tiled object shows the raw tiled layout, like a CPU (WB) mapping. */
#include <errno.h>
#include <i915_drm.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "common/trace.h"
#include "gtsim/gtsim.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"
#include "kernel/vm.h"

/* Offsets are node id << 32: objects mapped this way stay below 4 GiB. */
#define MMAP_NODE_SHIFT 32
#define MMAP_TYPES 4

struct mmap_node {
	struct gem_object *obj;
	unsigned type;
};

int mmap_node_offset(struct gem_object *obj, unsigned type, uint64_t *offset)
{
	if (type >= MMAP_TYPES)
		return -EINVAL;
	if (obj->size >> MMAP_NODE_SHIFT)
		return -E2BIG;
	if (!obj->mmap_node[type]) {
		struct mmap_node *n = malloc(sizeof(*n));
		uint32_t id;
		if (!n)
			return -ENOMEM;
		n->obj = obj;
		n->type = type;
		if (idr_alloc(&obj->dev->mmap_nodes, n, &id)) {
			free(n);
			return -ENOMEM;
		}
		obj->mmap_node[type] = id;
	}
	*offset = (uint64_t)obj->mmap_node[type] << MMAP_NODE_SHIFT;
	return 0;
}

void mmap_nodes_release(struct gem_object *obj)
{
	for (unsigned t = 0; t < MMAP_TYPES; t++)
		if (obj->mmap_node[t])
			free(idr_remove(&obj->dev->mmap_nodes, obj->mmap_node[t]));
}

int i915_gem_mmap_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_mmap *args = arg;
	if (args->flags & ~(uint64_t)I915_MMAP_WC)
		return -EINVAL;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	int ret = -ENOENT;
	if (!obj)
		goto out;
	ret = -EINVAL;
	if (!obj_range_ok(obj, args->offset, args->size) || (args->offset & (GT_PAGE_SIZE - 1)))
		goto out;
	void *p = mmap(NULL, args->size, PROT_READ | PROT_WRITE, MAP_SHARED, obj->memfd,
		       (off_t)args->offset);
	if (p == MAP_FAILED) {
		ret = -ENOMEM;
		goto out;
	}
	args->addr_ptr = (uint64_t)(uintptr_t)p;
	ret = 0;
out:
	if (obj)
		obj_put(obj);
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "mmap handle %u [0x%llx, +0x%llx) -> %d", args->handle,
	      (unsigned long long)args->offset, (unsigned long long)args->size, ret);
	return ret;
}

/* Also MMAP_GTT (same ioctl number; the dispatcher zero-extends its struct,
 * so flags reads as I915_MMAP_OFFSET_GTT and extensions as 0). */
int i915_gem_mmap_offset_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_mmap_offset *args = arg;
	if (args->extensions)
		return -EINVAL;   /* i915 knows no mmap_offset extension */
	if (args->flags > I915_MMAP_OFFSET_UC)
		return -EINVAL;   /* FIXED is for discrete GPUs only */
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	int ret = -ENOENT;
	if (obj) {
		/* A GTT mapping must fit the mappable aperture. */
		if (args->flags == I915_MMAP_OFFSET_GTT && obj->size > dev->ggtt->mappable_end)
			ret = -E2BIG;
		else {
			uint64_t offset = 0;
			ret = mmap_node_offset(obj, (unsigned)args->flags, &offset);
			args->offset = offset;
		}
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "mmap_offset handle %u type %llu -> %d, offset 0x%llx", args->handle,
	      (unsigned long long)args->flags, ret, (unsigned long long)args->offset);
	return ret;
}

void *gtsim_mmap(struct gtsim_file *file, void *addr, size_t length, int prot, int flags,
		 uint64_t offset)
{
	if (!file) {
		errno = EBADF;
		return MAP_FAILED;
	}
	struct gtsim_device *dev = file->dev;
	uint64_t in_obj = offset & ((1ull << MMAP_NODE_SHIFT) - 1);
	void *p = MAP_FAILED;
	int err = EINVAL;
	pthread_mutex_lock(&dev->lock);
	struct mmap_node *n = offset >> 63 ? NULL
			      : idr_find(&dev->mmap_nodes, (uint32_t)(offset >> MMAP_NODE_SHIFT));
	if (!n || !length || !obj_range_ok(n->obj, in_obj, length))
		goto out;
	if (n->type == I915_MMAP_OFFSET_GTT) {
		struct gem_vma *vma;
		err = -vma_bind(dev->ggtt, n->obj, PIN_MAPPABLE, 0, 0, &vma);
		if (err) {
			err = err == ENOSPC ? ENOMEM : err;
			goto out;
		}
	}
	p = mmap(addr, length, prot, flags, n->obj->memfd, (off_t)in_obj);
	err = p == MAP_FAILED ? errno : 0;
out:
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "mmap offset 0x%llx len 0x%zx -> %s", (unsigned long long)offset, length,
	      p == MAP_FAILED ? "failed" : "ok");
	if (p == MAP_FAILED)
		errno = err;
	return p;
}
