/* GEM_USERPTR (i915_gem_userptr.c of Linux 6.1): an object whose pages are
 * the client's own memory. The shim runs the model in the client's
 * process, so the object's host mapping is the client's pointer itself and
 * the GPU reads and writes the client's memory in place. The mmu
 * notifier's part is user_mm.c. On the device server the client is
 * another process: the object is a shadow synced with its memory
 * (server/userptr_shadow.h). */
#include <errno.h>
#include <i915_drm.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/trace.h"
#include "common/user_copy.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/object.h"
#include "kernel/request.h"
#include "kernel/server/userptr_shadow.h"
#include "kernel/user_mm.h"

/* x86-64's TASK_SIZE_MAX: access_ok() refuses ranges ending above it. */
#define TASK_SIZE_MAX ((1ull << 47) - GT_PAGE_SIZE)

static bool access_ok(uint64_t ptr, uint64_t size)
{
	return size <= TASK_SIZE_MAX && ptr <= TASK_SIZE_MAX - size;
}

int i915_gem_userptr_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_userptr *args = arg;
	struct gtsim_device *dev = file->dev;
	/* The checks in i915_gem_userptr_ioctl()'s order (BDW and SKL have
	 * an LLC, so the first one, !HAS_LLC && !HAS_SNOOP -> -ENODEV, never
	 * applies). */
	if (args->flags & ~(I915_USERPTR_READ_ONLY | I915_USERPTR_UNSYNCHRONIZED |
			    I915_USERPTR_PROBE))
		return -EINVAL;
	if (args->user_size >> 12 > 0x7fffffff)   /* i915_gem_object_size_2big */
		return -E2BIG;
	if (!args->user_size)
		return -EINVAL;
	if ((args->user_ptr | args->user_size) & (GT_PAGE_SIZE - 1))
		return -EINVAL;
	if (!access_ok(args->user_ptr, args->user_size))
		return -EFAULT;
	if (args->flags & I915_USERPTR_UNSYNCHRONIZED)
		return -ENODEV;
	/* READ_ONLY needs vm->has_read_only: the gen8+ PPGTT has it (only
	 * gen11/12 clear it), so BDW and SKL accept the flag. */
	if (args->flags & I915_USERPTR_PROBE) {
		int ret = user_mm_check_range(args->user_ptr, args->user_size, 0);
		if (ret)
			return ret;
	}
	pthread_mutex_lock(&dev->lock);
	int err;
	/* a device server's client: its memory is in another process */
	pid_t remote = user_copy_remote();
	struct gem_object *obj =
		remote ? userptr_shadow_create(dev, remote, args->user_ptr, args->user_size, &err)
		       : obj_create_user(dev, (void *)(uintptr_t)args->user_ptr, args->user_size,
					 &err);
	if (obj) {
		obj->readonly = args->flags & I915_USERPTR_READ_ONLY;
		obj->userptr_stale = true;   /* pages are got at first use */
		obj->user_mm_slot = remote ? -1 : user_mm_add_userptr(obj);
		err = !remote && obj->user_mm_slot < 0 ? -ENOMEM
						       : obj_handle_create(file, obj, &args->handle);
		obj_put(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "userptr 0x%llx + 0x%llx flags 0x%x -> %d (handle %u)",
	      (unsigned long long)args->user_ptr, (unsigned long long)args->user_size,
	      args->flags, err, err ? 0 : args->handle);
	return err;
}

/* A GPU access found one of obj's pages unmapped (user_mm.h): the error
 * state says so, once. */
static void report_lost(struct gem_object *obj)
{
	if (obj->userptr_lost_reported)
		return;
	obj->userptr_lost_reported = true;
	char *text = NULL;
	if (asprintf(&text, "GPU fault: userptr object [0x%llx, 0x%llx): a page was unmapped by "
		     "the client while the GPU used it (read as zeros); the object is unusable\n",
		     (unsigned long long)obj->user_ptr,
		     (unsigned long long)(obj->user_ptr + obj->size)) < 0)
		return;
	TRACE(TRACE_GEM, "userptr object %p: page unmapped under the GPU", (void *)obj);
	error_state_store(obj->dev, text);
}

int userptr_validate(struct gem_object *obj)
{
	if (!obj->userptr)
		return 0;
	if (obj->shadow)   /* stays stale: the client's mapping is read each time */
		return userptr_shadow_validate(obj);
	if (user_mm_lost(obj->user_mm_slot)) {
		report_lost(obj);
		return -EFAULT;
	}
	if (!obj->userptr_stale)
		return 0;
	/* pin_user_pages(): FOLL_WRITE unless the object is read-only; gup's
	 * check_vma_flags then needs VM_WRITE only (a PROT_WRITE mapping
	 * without PROT_READ will do), else VM_READ. */
	int ret = user_mm_check_range(obj->user_ptr, obj->size,
				      obj->readonly ? USER_MM_READ : USER_MM_WRITE);
	if (!ret)
		obj->userptr_stale = false;
	TRACE(TRACE_GEM, "userptr object %p: pages %s", (void *)obj, ret ? "missing: -EFAULT" : "ok");
	return ret;
}

void userptr_release(struct gem_object *obj)
{
	user_mm_remove(obj->user_mm_slot);
	if (obj->shadow)
		userptr_shadow_release(obj);
}
