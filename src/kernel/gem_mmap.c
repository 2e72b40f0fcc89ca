/* CPU mappings of objects.
 *  - GEM_MMAP maps the object's memfd straight into the caller (the client
 *    shares our address space), like i915's vm_mmap of the shmem file.
 *  - MMAP_GTT / MMAP_OFFSET hand out a fake offset per object and mapping
 *    type; gtsim_mmap() turns it into a MAP_SHARED mapping of the memfd.
 *    For the GTT type the object is also bound into the mappable aperture
 *    (where i915 would fault it in).
 *    A GTT mapping of an X/Y-tiled object goes through a fence on i915,
 *    which detiles it: gtt_fence.c gives such mappings a linear view kept
 *    coherent by page faults. */
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/trace.h"
#include "common/user_copy.h"
#include "gtsim/gtsim.h"
#include "kernel/gtt_fence.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"
#include "kernel/object_store.h"
#include "kernel/user_mm.h"
#include "kernel/vm.h"

/* Offsets are node id << 40: objects up to 1 TiB (i915 maps objects
 * larger than the 4 GiB GTT through partial views), 2^23 nodes (an offset
 * is a positive off_t). */
#define MMAP_NODE_SHIFT 40
#define MMAP_NODE_MAX (1u << (63 - MMAP_NODE_SHIFT))
#define MMAP_TYPES 4

/* A fake offset and the files allowed to mmap it (drm_vma_node_allow):
 * the files that asked for it with MMAP_OFFSET/MMAP_GTT and have not closed
 * their handle since. Another file's mmap of the offset is -EACCES, as
 * i915_gem_mmap() answers when drm_vma_node_is_allowed() fails. */
struct mmap_node {
	struct gem_object *obj;
	unsigned type;
	struct gtsim_file **files;
	unsigned nfiles, cap;
};

static int node_allow(struct mmap_node *n, struct gtsim_file *file)
{
	for (unsigned i = 0; i < n->nfiles; i++)
		if (n->files[i] == file)
			return 0;
	if (n->nfiles == n->cap) {
		unsigned cap = n->cap ? n->cap * 2 : 2;
		struct gtsim_file **files = realloc(n->files, cap * sizeof(*files));
		if (!files)
			return -ENOMEM;
		n->files = files;
		n->cap = cap;
	}
	n->files[n->nfiles++] = file;
	return 0;
}

static bool node_allowed(const struct mmap_node *n, const struct gtsim_file *file)
{
	for (unsigned i = 0; i < n->nfiles; i++)
		if (n->files[i] == file)
			return true;
	return false;
}

static void node_free(struct mmap_node *n)
{
	if (n) {
		free(n->files);
		free(n);
	}
}

void mmap_nodes_revoke(struct gem_object *obj, struct gtsim_file *file)
{
	for (unsigned t = 0; t < MMAP_TYPES; t++) {
		struct mmap_node *n = obj->mmap_node[t]
				      ? idr_find(&obj->dev->mmap_nodes, obj->mmap_node[t]) : NULL;
		for (unsigned i = 0; n && i < n->nfiles; i++)
			if (n->files[i] == file) {
				n->files[i] = n->files[--n->nfiles];
				break;
			}
	}
}

int mmap_node_offset(struct gem_object *obj, unsigned type, struct gtsim_file *file,
		     uint64_t *offset)
{
	if (type >= MMAP_TYPES)
		return -EINVAL;
	if (obj->size >> MMAP_NODE_SHIFT)
		return -E2BIG;
	if (!obj->mmap_node[type]) {
		struct mmap_node *n = calloc(1, sizeof(*n));
		uint32_t id;
		if (!n)
			return -ENOMEM;
		n->obj = obj;
		n->type = type;
		if (idr_alloc(&obj->dev->mmap_nodes, n, &id)) {
			free(n);
			return -ENOMEM;
		}
		if (id >= MMAP_NODE_MAX) {
			/* the offset space is full (drm_vma_offset_add) */
			free(idr_remove(&obj->dev->mmap_nodes, id));
			return -ENOSPC;
		}
		obj->mmap_node[type] = id;
	}
	if (file && node_allow(idr_find(&obj->dev->mmap_nodes, obj->mmap_node[type]), file))
		return -ENOMEM;
	*offset = (uint64_t)obj->mmap_node[type] << MMAP_NODE_SHIFT;
	return 0;
}

void mmap_nodes_release(struct gem_object *obj)
{
	for (unsigned t = 0; t < MMAP_TYPES; t++)
		if (obj->mmap_node[t])
			node_free(idr_remove(&obj->dev->mmap_nodes, obj->mmap_node[t]));
}

/* The descriptor a client in another process maps for obj (dev->lock
 * held): a new descriptor of its memfd (*fd_off: where the object starts
 * in it) or, for a purged object, of an empty memfd (SIGBUS on access, as
 * map_sigbus). 0 or -errno. */
static int export_memfd(struct gem_object *obj, int *fd, uint64_t *fd_off)
{
	if (obj->purged) {
		*fd = memfd_create("gtsim-purged", MFD_CLOEXEC);
		*fd_off = 0;
		return *fd < 0 ? -errno : 0;
	}
	int ret = obj_own_memfd(obj);
	if (ret)
		return ret;
	gtt_fence_sync(obj);   /* GTT writes through the fence reach what the map shows */
	*fd = store_open(obj, O_RDWR | O_CLOEXEC);
	*fd_off = obj->memfd_offset;
	if (*fd >= 0)
		return 0;
	ret = *fd;
	*fd = -1;
	return ret;
}

/* GEM_MMAP's checks (dev->lock held): the object (a reference) or NULL
 * with *ret. */
static struct gem_object *gem_mmap_object(struct gtsim_file *file,
					  const struct drm_i915_gem_mmap *args, int *ret)
{
	*ret = -EINVAL;
	if (args->flags & ~(uint64_t)I915_MMAP_WC)
		return NULL;
	struct gem_object *obj = obj_lookup(file, args->handle);
	*ret = -ENOENT;
	if (!obj)
		return NULL;
	*ret = -ENXIO;   /* a userptr object has no shmem file to map (no filp) */
	if (obj->userptr)
		goto fail;
	*ret = -EINVAL;
	if (!obj_range_ok(obj, args->offset, args->size) || (args->offset & (GT_PAGE_SIZE - 1)))
		goto fail;
	*ret = obj_own_memfd(obj);
	if (*ret)
		goto fail;
	return obj;
fail:
	obj_put(obj);
	return NULL;
}

int i915_gem_mmap_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_mmap *args = arg;
	struct gtsim_device *dev = file->dev;
	int ret;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = gem_mmap_object(file, args, &ret);
	if (obj) {
		gtt_fence_sync(obj);   /* GTT writes through the fence reach what this map shows */
		int fd = store_open(obj, O_RDWR | O_CLOEXEC);
		void *p = fd < 0 ? MAP_FAILED
				 : mmap(NULL, args->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
					(off_t)(obj->memfd_offset + args->offset));
		/* i915 returns vm_mmap's error: -EINVAL for a size of 0 */
		ret = fd < 0 ? fd : p == MAP_FAILED ? -errno : 0;
		if (fd >= 0)
			close(fd);
		if (!ret)
			args->addr_ptr = (uint64_t)(uintptr_t)p;
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "mmap handle %u [0x%llx, +0x%llx) -> %d", args->handle,
	      (unsigned long long)args->offset, (unsigned long long)args->size, ret);
	return ret;
}

int gtsim_gem_mmap_export(struct gtsim_file *file, const struct drm_i915_gem_mmap *args, int *fd,
			  uint64_t *fd_off)
{
	struct gtsim_device *dev = file->dev;
	int ret;
	*fd = -1;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = gem_mmap_object(file, args, &ret);
	if (obj) {
		ret = args->size ? export_memfd(obj, fd, fd_off) : -EINVAL;
		*fd_off += args->offset;
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "mmap export handle %u [0x%llx, +0x%llx) -> %d", args->handle,
	      (unsigned long long)args->offset, (unsigned long long)args->size, ret);
	return ret;
}

/* Also MMAP_GTT (same ioctl number; the dispatcher zero-extends its struct,
 * so flags reads as I915_MMAP_OFFSET_GTT and extensions as 0). */
int i915_gem_mmap_offset_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_mmap_offset *args = arg;
	if (args->extensions) {
		/* i915_user_extensions with no extension known: the first one
		 * is read (-EFAULT for a bad pointer), then -EINVAL. */
		struct i915_user_extension ext;
		if (copy_from_user_ptr(&ext, args->extensions, sizeof(ext)))
			return -EFAULT;
		return -EINVAL;
	}
	if (args->flags > I915_MMAP_OFFSET_UC)
		return -EINVAL;   /* FIXED is for discrete GPUs only */
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, args->handle);
	int ret = -ENOENT;
	if (obj) {
		/* Any size: since GTT mmap version 1 i915 maps objects larger
		 * than the aperture through partial views. */
		uint64_t offset = 0;
		/* __assign_mmap_offset(): i915_gem_object_never_mmap() (userptr's
		 * I915_GEM_OBJECT_NO_MMAP) is -ENODEV, for every type. */
		ret = obj->userptr ? -ENODEV : mmap_node_offset(obj, (unsigned)args->flags, file, &offset);
		/* the client maps the object's memfd next: give it one now,
		 * so that the mmap itself makes no descriptor */
		if (!ret)
			ret = obj_own_memfd(obj);
		if (!ret)
			gtt_fence_sync(obj);   /* GTT writes reach what the new map shows */
		args->offset = offset;
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "mmap_offset handle %u type %llu -> %d, offset 0x%llx", args->handle,
	      (unsigned long long)args->flags, ret, (unsigned long long)args->offset);
	return ret;
}

/* A mapping whose every access raises SIGBUS: a page of an empty memfd.
 * i915 maps a purged object without complaint, then its fault handler
 * answers SIGBUS (pin_pages() is -EFAULT for a purged object). */
static void *map_sigbus(void *addr, size_t length, int prot, int flags)
{
	int fd = memfd_create("gtsim-purged", MFD_CLOEXEC);
	if (fd < 0)
		return MAP_FAILED;
	void *p = mmap(addr, length, prot, flags, fd, 0);
	int err = errno;
	close(fd);
	errno = err;
	return p;
}

static void remap_sigbus(void *ctx, uint64_t addr, uint64_t len, int prot, int flags)
{
	(void)ctx;
	user_mm_quiet(true);
	void *p = map_sigbus((void *)(uintptr_t)addr, len, prot,
			     (flags & ~MAP_FIXED_NOREPLACE) | MAP_FIXED);
	user_mm_quiet(false);
	TRACE(TRACE_GEM, "mmap at 0x%llx (+0x%llx) revoked: %s", (unsigned long long)addr,
	      (unsigned long long)len, p == MAP_FAILED ? "failed" : "SIGBUS from now on");
}

void mmap_revoke(struct gem_object *obj)
{
	user_mm_each_io(obj, false, remap_sigbus, NULL);
}

/* The object's own memfd mapped (obj_own_memfd() first). */
static void *map_object_memfd(struct gem_object *obj, void *addr, size_t length, int prot,
			      int flags)
{
	if (obj_own_memfd(obj)) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	int fd = store_open(obj, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		errno = -fd;
		return MAP_FAILED;
	}
	void *p = mmap(addr, length, prot, flags, fd, (off_t)obj->memfd_offset);
	int err = errno;
	close(fd);
	errno = err;
	return p;
}

static void remap_gtt(void *ctx, uint64_t addr, uint64_t len, int prot, int flags)
{
	struct gem_object *obj = ctx;
	void *at = (void *)(uintptr_t)addr;
	int fixed = (flags & ~MAP_FIXED_NOREPLACE) | MAP_FIXED;
	user_mm_quiet(true);
	gtsim_gtt_views_forget(at, len);
	void *p = obj->tiling != I915_TILING_NONE ? gtt_fence_map(obj, at, len, prot, fixed)
						  : map_object_memfd(obj, at, len, prot, fixed);
	user_mm_quiet(false);
	TRACE(TRACE_GEM, "mmap gtt at 0x%llx (+0x%llx) moved to the %s: %s",
	      (unsigned long long)addr, (unsigned long long)len,
	      obj->tiling != I915_TILING_NONE ? "fenced view" : "object's memory",
	      p == MAP_FAILED ? "failed" : "ok");
}

void mmap_gtt_retile(struct gem_object *obj)
{
	user_mm_each_io(obj, true, remap_gtt, obj);
}

/* The checks of an mmap of the device file at offset (dev->lock held):
 * the node (drm_vma_offset_exact_lookup_locked(): the mapping starts at
 * the node's offset and its pages fit inside the object), the file's
 * permission, and for the GTT type the binding into the mappable aperture
 * where i915's fault handler binds it. The node or NULL with *err. */
static struct mmap_node *mmap_lookup(struct gtsim_file *file, size_t length, uint64_t offset,
				     int *err)
{
	struct gtsim_device *dev = file->dev;
	*err = EINVAL;
	struct mmap_node *n = offset >> 63 ? NULL
			      : idr_find(&dev->mmap_nodes, (uint32_t)(offset >> MMAP_NODE_SHIFT));
	uint64_t pages = ((uint64_t)length + GT_PAGE_SIZE - 1) / GT_PAGE_SIZE;
	if (!n || (offset & ((1ull << MMAP_NODE_SHIFT) - 1)) || !length ||
	    pages > n->obj->size / GT_PAGE_SIZE)
		return NULL;
	*err = EACCES;
	if (!node_allowed(n, file))
		return NULL;
	*err = 0;
	struct gem_object *obj = n->obj;
	if (n->type == I915_MMAP_OFFSET_GTT && !obj->purged) {
		/* An object that cannot fit in the aperture whole (larger than
		 * it, or the aperture pinned full) is reached by i915 through
		 * partial views bound at each fault; gtsim maps the memory
		 * directly, which shows the same bytes. */
		struct gem_vma *vma;
		/* i915 binds (and gets pages) only at the first fault. */
		bool had_pages = obj->has_pages;
		int ret = vma_bind(dev->ggtt, obj, PIN_MAPPABLE, 0, 0, &vma);
		obj->has_pages = had_pages;
		if (ret)
			TRACE(TRACE_GEM, "mmap gtt: object %p not bound whole in the aperture (%d): "
			      "partial views", (void *)obj, ret);
	}
	return n;
}

void *gtsim_mmap(struct gtsim_file *file, void *addr, size_t length, int prot, int flags,
		 uint64_t offset)
{
	if (!file) {
		errno = EBADF;
		return MAP_FAILED;
	}
	struct gtsim_device *dev = file->dev;
	void *p = MAP_FAILED;
	int err;
	pthread_mutex_lock(&dev->lock);
	struct mmap_node *n = mmap_lookup(file, length, offset, &err);
	if (!n)
		goto out;
	struct gem_object *obj = n->obj;
	user_mm_quiet(true);   /* the shim ran the notifier for MAP_FIXED */
	if (obj->purged)
		p = map_sigbus(addr, length, prot, flags);
	else if (n->type == I915_MMAP_OFFSET_GTT && obj->tiling != I915_TILING_NONE)
		p = gtt_fence_map(obj, addr, length, prot, flags);   /* detiled */
	else
		p = map_object_memfd(obj, addr, length, prot, flags);
	err = p == MAP_FAILED ? errno : 0;
	user_mm_quiet(false);
	/* i915 maps fake offsets VM_PFNMAP: USERPTR refuses such a range; a
	 * purge revokes the mapping. Unregistered, it would be neither: the
	 * mmap fails as the kernel's does when its vm_area cannot be made. */
	if (p != MAP_FAILED && !obj->purged &&
	    user_mm_add_io((uintptr_t)p, length, obj, n->type == I915_MMAP_OFFSET_GTT, prot, flags)) {
		munmap(p, length);
		p = MAP_FAILED;
		err = ENOMEM;
	}
out:
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "mmap offset 0x%llx len 0x%zx -> %s", (unsigned long long)offset, length,
	      p == MAP_FAILED ? strerror(err) : "ok");
	if (p == MAP_FAILED)
		errno = err;
	return p;
}

int gtsim_mmap_export(struct gtsim_file *file, size_t length, uint64_t offset, int *fd,
		      uint64_t *fd_off)
{
	struct gtsim_device *dev = file->dev;
	int err, ret;
	*fd = -1;
	pthread_mutex_lock(&dev->lock);
	struct mmap_node *n = mmap_lookup(file, length, offset, &err);
	if (!n) {
		ret = -err;
	} else if (n->type == I915_MMAP_OFFSET_GTT && n->obj->tiling != I915_TILING_NONE &&
		   !n->obj->purged) {
		/* the detiled view needs the client's page faults (gtt_fence.c) */
		TRACE(TRACE_STUB, "shared device: GTT mmap of a tiled object not forwarded: -ENODEV");
		ret = -ENODEV;
	} else {
		ret = export_memfd(n->obj, fd, fd_off);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "mmap export offset 0x%llx len 0x%zx -> %d", (unsigned long long)offset,
	      length, ret);
	return ret;
}
