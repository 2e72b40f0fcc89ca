/* PREAD / PWRITE: copies between the object's memory and a user pointer.
 * Order of checks as i915: size 0 succeeds at once, an unknown handle is
 * -ENOENT, a range outside the object -EINVAL, an unreadable/unwritable
 * user buffer or a purged object -EFAULT. A read waits for outstanding GPU writes, a write for
 * every GPU use (like SET_DOMAIN, seed 002).
 * The copy itself runs without the device lock (i915 6.1 copies with the
 * object's pages pinned and no lock held): the user buffer may fault on a
 * userfault for as long as its handler likes (IGT gem_pread/gem_pwrite
 * exhaustion park thousands of threads there) while every other ioctl of
 * every client goes on. The reference and obj->cpu_copies keep the memory
 * (the shrinker does not purge an object while a copy is in progress). */
#include <errno.h>
#include <i915_drm.h>

#include "common/trace.h"
#include "kernel/gtt_fence.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"
#include "common/user_copy.h"

static int gem_rw(struct gtsim_file *file, uint32_t handle, uint64_t offset, uint64_t size,
		  uint64_t user_ptr, bool write)
{
	if (!size)
		return 0;
	if (!user_ptr || user_ptr + size < user_ptr)
		return -EFAULT;   /* i915's access_ok() */
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, handle);
	int ret = -ENOENT;
	if (!obj)
		goto out;
	ret = -EINVAL;
	if (!obj_range_ok(obj, offset, size))
		goto out;
	ret = -EINVAL;   /* i915_gem_userptr_pread/pwrite: "no longer allowed" */
	if (obj->userptr)
		goto out;
	ret = obj_wait_rendering_interruptible(obj, write, -1);
	if (ret)
		goto out;
	gtt_fence_sync(obj);   /* GTT writes through the fence reach the pages */
	ret = -EFAULT;   /* i915_gem_object_pin_pages() of a purged object */
	if (obj->purged)
		goto out;
	/* i915's shmem pread pins the pages; pwrite writes the shmem file
	 * directly while the object has none (shmem_pwrite). */
	if (!write)
		obj->has_pages = true;
	char *p = (char *)obj->map + offset;
	obj->cpu_copies++;
	pthread_mutex_unlock(&dev->lock);
	ret = write ? copy_from_user_ptr(p, user_ptr, size) : copy_to_user_ptr(user_ptr, p, size);
	pthread_mutex_lock(&dev->lock);
	obj->cpu_copies--;
out:
	if (obj)
		obj_put(obj);
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "%s handle %u [0x%llx, +0x%llx) -> %d", write ? "pwrite" : "pread",
	      handle, (unsigned long long)offset, (unsigned long long)size, ret);
	return ret;
}

int i915_gem_pread_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_pread *a = arg;
	return gem_rw(file, a->handle, a->offset, a->size, a->data_ptr, false);
}

int i915_gem_pwrite_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_pwrite *a = arg;
	return gem_rw(file, a->handle, a->offset, a->size, a->data_ptr, true);
}
