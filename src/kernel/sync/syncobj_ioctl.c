/* DRM_IOCTL_SYNCOBJ_*: argument checks and errnos as in the kernel's
 * drivers/gpu/drm/drm_syncobj.c of Linux 6.1 (Debian 12), which Mesa 22.3
 * and IGT 1.27 are written against. */
#include <errno.h>
#include <stdlib.h>
#include <drm.h>

#include "common/trace.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/sync/syncobj.h"
#include "common/user_copy.h"

int syncobj_create_ioctl(struct syncobj_table *t, void *arg)
{
	struct drm_syncobj_create *args = arg;
	if (args->flags & ~DRM_SYNCOBJ_CREATE_SIGNALED)
		return -EINVAL;
	struct syncobj *so = syncobj_new(args->flags & DRM_SYNCOBJ_CREATE_SIGNALED);
	if (!so)
		return -ENOMEM;
	int ret = syncobj_table_add(t, so, &args->handle);
	syncobj_unref(so);
	return ret;
}

int syncobj_destroy_ioctl(struct syncobj_table *t, void *arg)
{
	struct drm_syncobj_destroy *args = arg;
	if (args->pad)
		return -EINVAL;
	return syncobj_table_remove(t, args->handle);
}

int syncobj_handle_to_fd_ioctl(struct syncobj_table *t, void *arg)
{
	struct drm_syncobj_handle *args = arg;
	if (args->pad)
		return -EINVAL;
	if (args->flags != 0 && args->flags != DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE)
		return -EINVAL;
	int fd;
	if (args->flags) {
		int err;
		struct gt_fence *f = syncobj_find_fence(t, args->handle, 0, &err);
		if (!f)
			return err;
		fd = sync_file_export(f);
		fence_put(f);
	} else {
		struct syncobj *so = syncobj_lookup(t, args->handle);
		if (!so)
			return -EINVAL;
		fd = syncobj_export_fd(so);
		syncobj_unref(so);
	}
	if (fd < 0)
		return fd;
	args->fd = fd;
	return 0;
}

int syncobj_fd_to_handle_ioctl(struct syncobj_table *t, void *arg)
{
	struct drm_syncobj_handle *args = arg;
	if (args->pad)
		return -EINVAL;
	if (args->flags != 0 && args->flags != DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE)
		return -EINVAL;
	if (args->flags) {
		struct gt_fence *f = sync_file_import(args->fd);
		if (!f)
			return -EINVAL;
		int ret = syncobj_set_fence(t, args->handle, 0, f);
		fence_put(f);
		return ret;
	}
	struct syncobj *so = syncobj_import_fd(args->fd);
	if (!so)
		return -EINVAL;
	int ret = syncobj_table_add(t, so, &args->handle);
	syncobj_unref(so);
	return ret;
}

/* The largest kmalloc on x86-64 (KMALLOC_MAX_SIZE, 4 MiB): the kernel's
 * kmalloc_array of the syncobj pointers fails above it. */
#define KMALLOC_MAX_BYTES (4u << 20)

/* drm_syncobj_array_find: every handle must exist (-ENOENT); a count
 * whose array kmalloc cannot hold is -ENOMEM (not gigabytes allocated:
 * found by fuzz/fuzz_ioctl.c with count_handles near 2^32). */
static int find_array(struct syncobj_table *t, uint64_t user_handles, uint32_t count,
		      struct syncobj ***out)
{
	if ((uint64_t)count * sizeof(struct syncobj *) > KMALLOC_MAX_BYTES)
		return -ENOMEM;
	uint32_t *handles = calloc(count, sizeof(*handles));
	struct syncobj **objs = calloc(count, sizeof(*objs));
	int ret = 0;
	if (!handles || !objs) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = copy_from_user_ptr(handles, user_handles, (size_t)count * sizeof(*handles));
	for (uint32_t i = 0; !ret && i < count; i++)
		if (!(objs[i] = syncobj_lookup(t, handles[i])))
			ret = -ENOENT;
	if (!ret) {
		free(handles);
		*out = objs;
		return 0;
	}
fail:
	for (uint32_t i = 0; objs && i < count; i++)
		syncobj_unref(objs[i]);
	free(objs);
	free(handles);
	return ret;
}

static void free_array(struct syncobj **objs, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		syncobj_unref(objs[i]);
	free(objs);
}

/* drm_syncobj_array_wait_timeout: a fence counts as signaled from the
 * start of its signal (fence_is_signaled_settled). The fence of each
 * syncobj is taken when
 * it is first found (at entry, or once submitted with WAIT_FOR_SUBMIT /
 * WAIT_AVAILABLE); WAIT_AVAILABLE counts a submitted point as done.
 * deadline_ns is absolute CLOCK_MONOTONIC; 0 (or the past) polls. */
static int wait_array(struct syncobj **objs, const uint64_t *points, uint32_t count,
		      uint32_t flags, int64_t deadline_ns, uint32_t *first)
{
	const uint32_t submit_flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
				      DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE;
	const bool wait_all = flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	const bool available = flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE;
	struct gt_fence **fences = calloc(count, sizeof(*fences));
	uint32_t first_idx = ~0u;
	int ret = 0;

	if (!fences)
		return -ENOMEM;
	if (deadline_ns < 0)
		deadline_ns = 0;
	for (uint32_t i = 0; i < count; i++) {
		int r = syncobj_fence_at(objs[i], points[i], &fences[i]);
		if (r == -ENOMEM || (r < 0 && !(flags & submit_flags))) {
			ret = r == -ENOMEM ? r : -EINVAL;
			goto out;
		}
		if (fences[i] && first_idx == ~0u &&
		    (available || fence_is_signaled_settled(fences[i])))
			first_idx = i;
	}
	for (;;) {
		uint64_t seq = fence_wait_seq();
		uint32_t done = 0;
		for (uint32_t i = 0; i < count; i++) {
			if (!fences[i] &&
			    syncobj_fence_at(objs[i], points[i], &fences[i]) == -ENOMEM) {
				ret = -ENOMEM;   /* the chain's merge (kmalloc in i915) */
				goto out;
			}
			if (!fences[i] || !(available || fence_is_signaled_settled(fences[i])))
				continue;
			if (!wait_all) {
				first_idx = i;
				goto out;
			}
			done++;
		}
		if (done == count)
			break;
		/* drm_syncobj_array_wait_timeout: -ERESTARTSYS once a
		 * signal is pending; the deadline is absolute, so a restart
		 * waits for what is left */
		int r = fence_wait_change_interruptible(seq, deadline_ns);
		if (r) {
			ret = r;
			break;
		}
	}
out:
	for (uint32_t i = 0; i < count; i++)
		fence_put(fences[i]);
	free(fences);
	if (!ret)
		*first = first_idx;
	return ret;
}

static int wait_common(struct syncobj_table *t, uint64_t handles, uint64_t user_points,
		       uint32_t count, uint32_t flags, int64_t timeout_nsec,
		       uint32_t *first_signaled)
{
	if (count == 0)
		return -EINVAL;
	struct syncobj **objs;
	int ret = find_array(t, handles, count, &objs);
	if (ret)
		return ret;
	uint64_t *points = calloc(count, sizeof(*points));
	if (!points)
		ret = -ENOMEM;
	else if (user_points)
		ret = copy_from_user_ptr(points, user_points, (size_t)count * sizeof(*points));
	if (!ret)
		ret = wait_array(objs, points, count, flags, timeout_nsec, first_signaled);
	free(points);
	free_array(objs, count);
	return ret;
}

int syncobj_wait_ioctl(struct syncobj_table *t, void *arg)
{
	struct drm_syncobj_wait *args = arg;
	if (args->flags & ~(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
		return -EINVAL;
	return wait_common(t, args->handles, 0, args->count_handles, args->flags,
			   args->timeout_nsec, &args->first_signaled);
}

int syncobj_timeline_wait_ioctl(struct syncobj_table *t, void *arg)
{
	struct drm_syncobj_timeline_wait *args = arg;
	if (args->flags & ~(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE))
		return -EINVAL;
	return wait_common(t, args->handles, args->points, args->count_handles,
			   args->flags, args->timeout_nsec, &args->first_signaled);
}

/* RESET and SIGNAL: replace every payload with nothing / a signaled fence. */
static int replace_all(struct syncobj_table *t, struct drm_syncobj_array *args,
		       bool signal)
{
	if (args->pad)
		return -EINVAL;
	if (args->count_handles == 0)
		return -EINVAL;
	struct syncobj **objs;
	int ret = find_array(t, args->handles, args->count_handles, &objs);
	if (ret)
		return ret;
	for (uint32_t i = 0; i < args->count_handles; i++) {
		struct gt_fence *f = signal ? fence_create_signaled() : NULL;
		if (signal && !f) {
			ret = -ENOMEM;
			break;
		}
		syncobj_replace_fence(objs[i], f);
		fence_put(f);
	}
	free_array(objs, args->count_handles);
	return ret;
}

int syncobj_reset_ioctl(struct syncobj_table *t, void *arg)
{
	return replace_all(t, arg, false);
}

int syncobj_signal_ioctl(struct syncobj_table *t, void *arg)
{
	return replace_all(t, arg, true);
}

int syncobj_timeline_signal_ioctl(struct syncobj_table *t, void *arg)
{
	struct drm_syncobj_timeline_array *args = arg;
	if (args->flags != 0)
		return -EINVAL;
	if (args->count_handles == 0)
		return -EINVAL;
	struct syncobj **objs;
	int ret = find_array(t, args->handles, args->count_handles, &objs);
	if (ret)
		return ret;
	uint64_t *points = calloc(args->count_handles, sizeof(*points));
	if (!points)
		ret = -ENOMEM;
	else if (args->points)
		ret = copy_from_user_ptr(points, args->points,
					 (size_t)args->count_handles * sizeof(*points));
	/* Everything allocated before a point changes, as i915 allocates
	 * its chains first: one signaled fence serves every handle. */
	struct gt_fence *f = ret ? NULL : fence_create_signaled();
	if (!ret && !f)
		ret = -ENOMEM;
	for (uint32_t i = 0; !ret && i < args->count_handles; i++)
		if (points[i])
			ret = syncobj_reserve_point(objs[i]);
	for (uint32_t i = 0; !ret && i < args->count_handles; i++) {
		if (points[i])
			syncobj_add_point(objs[i], points[i], f);
		else
			syncobj_replace_fence(objs[i], f);
	}
	fence_put(f);
	free(points);
	free_array(objs, args->count_handles);
	return ret;
}

int syncobj_query_ioctl(struct syncobj_table *t, void *arg)
{
	struct drm_syncobj_timeline_array *args = arg;
	if (args->flags & ~DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED)
		return -EINVAL;
	if (args->count_handles == 0)
		return -EINVAL;
	struct syncobj **objs;
	int ret = find_array(t, args->handles, args->count_handles, &objs);
	if (ret)
		return ret;
	bool last = args->flags & DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED;
	for (uint32_t i = 0; !ret && i < args->count_handles; i++) {
		uint64_t point = syncobj_query_point(objs[i], last);
		ret = copy_to_user_ptr(args->points + i * sizeof(point), &point, sizeof(point));
	}
	free_array(objs, args->count_handles);
	return ret;
}

/* drm_syncobj_find_fence with flags: WAIT_FOR_SUBMIT waits up to 5 s for
 * the point to be submitted (-ETIME after). */
static int find_fence_for_transfer(struct syncobj_table *t, uint32_t handle,
				   uint64_t point, uint32_t flags, struct gt_fence **out)
{
	struct syncobj *so = syncobj_lookup(t, handle);
	if (!so)
		return -ENOENT;
	int64_t deadline = fence_now_ns() + SYNCOBJ_SUBMIT_TIMEOUT_NS;
	int ret;
	for (;;) {
		uint64_t seq = fence_wait_seq();
		ret = syncobj_fence_at(so, point, out);
		if (ret != -EINVAL || !(flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
			break;
		/* drm_syncobj_find_fence sleeps TASK_INTERRUPTIBLE:
		 * -ERESTARTSYS once a signal is pending */
		int r = fence_wait_change_interruptible(seq, deadline);
		if (r) {
			ret = r;
			break;
		}
	}
	syncobj_unref(so);
	return ret;
}

int syncobj_transfer_ioctl(struct syncobj_table *t, void *arg)
{
	struct drm_syncobj_transfer *args = arg;
	if (args->pad)
		return -EINVAL;
	struct syncobj *dst = syncobj_lookup(t, args->dst_handle);
	if (!dst)
		return -ENOENT;
	struct gt_fence *f = NULL;
	int ret = find_fence_for_transfer(t, args->src_handle, args->src_point,
					  args->flags, &f);
	if (!ret && args->dst_point)
		ret = syncobj_reserve_point(dst);   /* i915: dma_fence_chain_alloc */
	if (!ret) {
		if (args->dst_point)
			syncobj_add_point(dst, args->dst_point, f);
		else
			syncobj_replace_fence(dst, f);
	}
	fence_put(f);
	syncobj_unref(dst);
	return ret;
}

/* The kernel/ioctl.h entry points, on the file's syncobj table
 * (file_syncobjs; -EOPNOTSUPP without one, as for a driver without
 * DRIVER_SYNCOBJ). */
#define FILE_ENTRY(name)                                                     \
	int drm_syncobj_##name##_ioctl(struct gtsim_file *file, void *arg)   \
	{                                                                    \
		struct syncobj_table *t = file_syncobjs(file);               \
		if (!t)                                                      \
			return -EOPNOTSUPP;                                  \
		int ret = syncobj_##name##_ioctl(t, arg);                    \
		TRACE(TRACE_GEM, "syncobj_%s -> %d", #name, ret);             \
		return ret;                                                  \
	}
SYNCOBJ_IOCTLS(FILE_ENTRY)
#undef FILE_ENTRY
