/* GEM objects: memfd backing, host mapping, physical registration,
 * reference counting, per-file handles and flink-name lifetime. */
#include "kernel/object.h"

#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/map_file.h"
#include "common/trace.h"
#include "kernel/context.h"
#include "kernel/gtt_fence.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/object_store.h"
#include "kernel/user_mm.h"
#include "kernel/vm.h"

/* i915 refuses objects whose page count does not fit an int. */
#define OBJ_MAX_PAGES 0x7fffffffull

/* Registers the object's host memory with the GPU; fills obj->pa. */
static int obj_register(struct gem_object *obj)
{
	uint64_t pa = phys_add(obj->dev->gpu->phys, obj->map, obj->size);
	if (!pa)
		return -ENOMEM;
	obj->pa = pa;
	return 0;
}

/* Memory from the backing store (object_store.h). */
static int obj_attach_store(struct gem_object *obj)
{
	int err = store_attach(&obj->dev->store, obj);
	if (err)
		return err;
	err = obj_register(obj);
	if (err)
		store_detach(&obj->dev->store, obj);
	return err;
}

/* An imported memfd (prime import of a foreign buffer) as it is. */
static int obj_attach_memfd(struct gem_object *obj, int memfd)
{
	struct stat st;
	if (fstat(memfd, &st))
		return -errno;
	void *map = mmap(NULL, obj->size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (map == MAP_FAILED)
		return -ENOMEM;
	obj->map = map;
	int err = obj_register(obj);
	if (err) {
		munmap(map, obj->size);
		return err;
	}
	/* as an own memfd of the store: the mapping keeps the file */
	if (map_file_reopen_works()) {
		close(memfd);
		memfd = -1;
	}
	obj->memfd = memfd;
	obj->memfd_offset = 0;
	obj->own_file = true;
	obj_ino_set(obj, st.st_ino, st.st_dev);
	return 0;
}

/* The client's memory [user, user + size) as it is (GEM_USERPTR): the GPU
 * reads and writes it in place. */
static int obj_attach_user(struct gem_object *obj, void *user)
{
	/* Address 0 passes i915's checks (access_ok) and fails only when the
	 * pages are got (pin_user_pages: -EFAULT, userptr_validate), so such
	 * an object never reaches the GPU: no physical range (pa 0). */
	uint64_t pa = user ? phys_add(obj->dev->gpu->phys, user, obj->size) : 0;
	if (user && !pa)
		return -ENOMEM;
	obj->memfd = -1;
	obj->map = user;
	obj->pa = pa;
	obj->userptr = true;
	obj->user_ptr = (uintptr_t)user;
	return 0;
}

/* Where an object's pages come from. */
enum obj_backing { BACKING_STORE, BACKING_MEMFD, BACKING_USER };

/* BACKING_MEMFD: backed by memfd; BACKING_USER: by the client's memory at
 * user; BACKING_STORE: by the backing store. */
static struct gem_object *obj_alloc(struct gtsim_device *dev, uint64_t size,
				    enum obj_backing backing, int memfd, void *user, int *err)
{
	struct gem_object *obj = calloc(1, sizeof(*obj));
	if (!obj) {
		*err = -ENOMEM;
		return NULL;
	}
	obj->dev = dev;
	obj->size = size;
	obj->refcount = 1;
	obj->madv = I915_MADV_WILLNEED;
	/* LLC platforms create objects cached (snooped by the GPU). */
	obj->caching = I915_CACHING_CACHED;
	obj->read_domains = I915_GEM_DOMAIN_CPU;
	obj->write_domain = I915_GEM_DOMAIN_CPU;
	list_init(&obj->vmas);
	*err = backing == BACKING_MEMFD ? obj_attach_memfd(obj, memfd)
	       : backing == BACKING_USER  ? obj_attach_user(obj, user)
					  : obj_attach_store(obj);
	if (*err) {
		free(obj);
		return NULL;
	}
	list_add_tail(&dev->objects, &obj->dev_link);
	dev->object_count++;
	dev->object_bytes += size;
	TRACE(TRACE_GEM, "object %p: %llu bytes at phys 0x%llx", (void *)obj,
	      (unsigned long long)size, (unsigned long long)obj->pa);
	return obj;
}

struct gem_object *obj_create(struct gtsim_device *dev, uint64_t size, int *err)
{
	/* i915 (__i915_gem_object_create_user_ext) rounds up to pages first:
	 * a size that wraps to 0 (-1ull) is -EINVAL like 0, and only then is
	 * a size beyond the memory region -E2BIG. */
	size = (size + GT_PAGE_SIZE - 1) & ~(uint64_t)(GT_PAGE_SIZE - 1);
	if (!size) {
		*err = -EINVAL;
		return NULL;
	}
	/* i915_gem_setup: an object larger than its memory region (system
	 * memory: the machine's RAM) is -E2BIG. Without it a fuzzed 64 GiB
	 * object was created, then bound page by page for tens of seconds. */
	long ram_pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (size > OBJ_MAX_PAGES * GT_PAGE_SIZE ||
	    (ram_pages > 0 && page > 0 && size > (uint64_t)ram_pages * (uint64_t)page)) {
		*err = -E2BIG;
		return NULL;
	}
	struct gem_object *obj = obj_alloc(dev, size, BACKING_STORE, -1, NULL, err);
	if (obj)
		gem_shrink_if_needed(dev);
	return obj;
}

struct gem_object *obj_import_memfd(struct gtsim_device *dev, int fd, int *err)
{
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		*err = -EINVAL;
		return NULL;
	}
	uint64_t size = (uint64_t)st.st_size & ~(GT_PAGE_SIZE - 1);
	if (!size) {
		*err = -EINVAL;
		return NULL;
	}
	/* The object maps its memory shared and writable: a dma-buf exported
	 * without DRM_RDWR is an O_RDONLY open, so open the file again
	 * read-write (memfds allow it), else take it as it is. */
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int memfd = open(path, O_RDWR | O_CLOEXEC);
	if (memfd < 0)
		memfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (memfd < 0) {
		*err = -EMFILE;
		return NULL;
	}
	struct gem_object *obj = obj_alloc(dev, size, BACKING_MEMFD, memfd, NULL, err);
	if (!obj)
		close(memfd);   /* obj_attach_memfd() failed before closing it */
	else
		obj->imported = true;
	return obj;
}

struct gem_object *obj_create_user(struct gtsim_device *dev, void *user, uint64_t size, int *err)
{
	return obj_alloc(dev, size, BACKING_USER, -1, user, err);
}

int obj_own_memfd(struct gem_object *obj)
{
	if (!store_in_slab(obj))
		return 0;
	/* No command may write the pages between the copy and the switch
	 * (waiting for the object instead could wait for ever: its batch may
	 * wait for a fence the client signals after mapping it). */
	gpu_pause(obj->dev->gpu);
	int err = store_own(obj);
	gpu_unpause(obj->dev->gpu);
	return err;
}

struct gem_object *obj_get(struct gem_object *obj)
{
	obj->refcount++;
	return obj;
}

static void obj_free(struct gem_object *obj)
{
	struct gtsim_device *dev = obj->dev;
	TRACE(TRACE_GEM, "object %p freed (%llu bytes)", (void *)obj,
	      (unsigned long long)obj->size);
	while (!list_empty(&obj->vmas)) {
		struct gem_vma *vma = list_entry(obj->vmas.next, struct gem_vma, obj_link);
		vma->pin_count = 0;   /* nothing can use it any more */
		vma_unbind(vma);
	}
	mmap_nodes_release(obj);
	obj_ext_release(obj);
	gtt_fence_release(obj);
	user_mm_forget_io(obj);
	phys_remove(dev->gpu->phys, obj->pa);
	if (obj->userptr) {
		userptr_release(obj);   /* the memory is the client's */
	} else if (obj->imported) {
		munmap(obj->map, obj->size);
		if (obj->memfd >= 0)
			close(obj->memfd);
	} else {
		store_detach(&dev->store, obj);
	}
	obj_ino_set(obj, 0, 0);
	list_del(&obj->dev_link);
	dev->object_count--;
	dev->object_bytes -= obj->size;
	if (obj->purged)
		dev->purged_bytes -= obj->size;
	free(obj);
}

void obj_put(struct gem_object *obj)
{
	if (obj && --obj->refcount == 0)
		obj_free(obj);
}

void obj_active_get(struct gem_object *obj)
{
	if (obj->active_count++ == 0)
		obj_get(obj);
}

void obj_active_put(struct gem_object *obj)
{
	if (--obj->active_count == 0) {
		TRACE(TRACE_GEM, "object %p retired: idle (GPU reference dropped)", (void *)obj);
		vma_reap_closed(obj);
		obj_put(obj);
	}
}

struct gem_object *obj_lookup(struct gtsim_file *file, uint32_t handle)
{
	struct gem_object *obj = idr_find(&file->objects, handle);
	return obj ? obj_get(obj) : NULL;
}

int obj_handle_create(struct gtsim_file *file, struct gem_object *obj, uint32_t *handle)
{
	struct obj_handle_ref *ref = malloc(sizeof(*ref));
	if (!ref)
		return -ENOMEM;
	int ret = idr_alloc(&file->objects, obj, handle);
	if (ret) {
		free(ref);
		return ret;
	}
	*ref = (struct obj_handle_ref){ .file = file, .handle = *handle, .next = obj->handle_refs };
	obj->handle_refs = ref;
	obj_get(obj);
	obj->handle_count++;
	return 0;
}

static void handle_ref_drop(struct gem_object *obj, struct gtsim_file *file, uint32_t handle)
{
	for (struct obj_handle_ref **p = &obj->handle_refs; *p; p = &(*p)->next)
		if ((*p)->file == file && (*p)->handle == handle) {
			struct obj_handle_ref *ref = *p;
			*p = ref->next;
			free(ref);
			return;
		}
}

static bool file_uses_vm(struct gtsim_file *file, const struct gem_vm *vm)
{
	void *p;
	for (uint32_t id = 0; idr_next(&file->contexts, &id, &p) == 0; id++)
		if (((const struct gem_context *)p)->vm == vm)
			return true;
	for (uint32_t id = 0; idr_next(&file->vms, &id, &p) == 0; id++)
		if (p == vm)
			return true;
	return false;
}

/* A handle of obj is closed (i915_gem_close_object): the object's
 * bindings in the file's PPGTTs are closed, so a client that closes a
 * flinked object it no longer uses gets its range back while another file
 * keeps the object (IGT gem_ppgtt flink-and-close-vma-leak). As i915's, it
 * closes them for any handle of the file; the next use through another
 * handle reopens them (vma_bind). */
static void close_file_vmas(struct gtsim_file *file, struct gem_object *obj)
{
	struct list_node *n, *t;
	list_for_each_safe(n, t, &obj->vmas) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, obj_link);
		if (!vma->vm->is_ggtt && file_uses_vm(file, vma->vm))
			vma_close(vma);
	}
}

int obj_handle_delete(struct gtsim_file *file, uint32_t handle)
{
	struct gem_object *obj = idr_remove(&file->objects, handle);
	if (!obj)
		return -ENOENT;
	handle_ref_drop(obj, file, handle);
	mmap_nodes_revoke(obj, file);
	close_file_vmas(file, obj);
	/* The flink name lives as long as some handle does (drm_gem). */
	if (--obj->handle_count == 0 && obj->flink_name) {
		idr_remove(&obj->dev->flink_names, obj->flink_name);
		obj->flink_name = 0;
		obj_put(obj);
	}
	obj_put(obj);
	return 0;
}

uint32_t obj_find_handle(struct gtsim_file *file, struct gem_object *obj)
{
	uint32_t lowest = 0;
	for (const struct obj_handle_ref *r = obj->handle_refs; r; r = r->next)
		if (r->file == file && (!lowest || r->handle < lowest))
			lowest = r->handle;
	return lowest;
}
