/* sync_file: a file descriptor standing for one fence (the kernel's
 * drivers/dma-buf/sync_file.c semantics): POLLIN once the fence signaled,
 * SYNC_IOC_MERGE and SYNC_IOC_FILE_INFO. */
#include <errno.h>
#include <linux/sync_file.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/trace.h"
#include "common/user_copy.h"
#include "kernel/sync/fence.h"
#include "kernel/sync/sync_fd.h"

static void *fence_obj_get(void *obj) { return fence_get(obj); }
static void fence_obj_put(void *obj) { fence_put(obj); }
static const struct sync_fd_ops fence_fd_ops = { fence_obj_get, fence_obj_put };

static void sync_file_fence_signaled(void *data)
{
	struct sync_fd_entry *e = data;
	sync_fd_mark_ready(e);
	sync_fd_entry_put(e);
}

static int export_named(struct gt_fence *f, const char *name)
{
	struct sync_fd_entry *e = NULL;
	if (!f)
		return -EINVAL;
	int fd = sync_fd_create(SYNC_FD_FILE, fence_get(f), &fence_fd_ops, name, &e);
	if (fd < 0)
		return fd;
	if (fence_on_signal_early_try(f, sync_file_fence_signaled, e)) {
		/* the callback's reference, and the fd: the registry drops the
		 * entry once its read end is closed */
		sync_fd_entry_put(e);
		close(fd);
		return -ENOMEM;
	}
	TRACE(TRACE_GEM, "sync_file fd %d exported", fd);
	return fd;
}

int sync_file_export(struct gt_fence *f)
{
	return export_named(f, NULL);
}

struct gt_fence *sync_file_import(int fd)
{
	return sync_fd_lookup(fd, SYNC_FD_FILE, NULL);
}

bool sync_fd_is_ours(int fd)
{
	return sync_fd_known(fd);
}

static int ioctl_merge(struct gt_fence *f, struct sync_merge_data *data)
{
	if (data->flags || data->pad)
		return -EINVAL;
	struct gt_fence *f2 = sync_file_import(data->fd2);
	if (!f2)
		return -ENOENT;
	struct gt_fence *merged = fence_merge_file(f, f2);
	fence_put(f2);
	if (!merged)
		return -ENOMEM;
	char name[sizeof(data->name) + 1];
	memcpy(name, data->name, sizeof(data->name));
	name[sizeof(data->name)] = '\0';
	int fd = export_named(merged, name);
	fence_put(merged);
	if (fd < 0)
		return fd;
	data->fence = fd;
	return 0;
}

static int ioctl_file_info(struct gt_fence *f, const char *name,
			   struct sync_file_info *info)
{
	if (info->flags || info->pad)
		return -EINVAL;
	/* Name: the one given to SYNC_IOC_MERGE, else one naming the driver. */
	memset(info->name, 0, sizeof(info->name));
	snprintf(info->name, sizeof(info->name), "%s", name[0] ? name : "i915-gtsim");
	info->status = fence_status(f);
	/* sync_file_ioctl_fence_info(): the count when asked with 0, -EINVAL
	 * when the array is too small, else one entry per fence. */
	unsigned n = fence_parts(f, NULL, 0);
	if (info->num_fences == 0) {
		info->num_fences = n;
		return 0;
	}
	if (info->num_fences < n)
		return -EINVAL;
	struct gt_fence **parts = calloc(n, sizeof(*parts));
	if (!parts)
		return -ENOMEM;
	fence_parts(f, parts, n);
	struct sync_fence_info *out =
		(struct sync_fence_info *)(uintptr_t)info->sync_fence_info;
	int ret = 0;
	for (unsigned i = 0; i < n && !ret; i++) {
		struct sync_fence_info fi = { .status = fence_status(parts[i]),
					      .timestamp_ns = fence_timestamp_ns(parts[i]) };
		strncpy(fi.obj_name, "gtsim", sizeof(fi.obj_name) - 1);
		strncpy(fi.driver_name, "i915", sizeof(fi.driver_name) - 1);
		ret = copy_to_user_ptr((uintptr_t)(out + i), &fi, sizeof(fi));
	}
	free(parts);
	if (!ret)
		info->num_fences = n;
	return ret;
}

int sync_file_ioctl(int fd, unsigned long request, void *arg)
{
	if (request != SYNC_IOC_MERGE && request != SYNC_IOC_FILE_INFO)
		return -ENOTTY;
	char name[32] = "";
	struct gt_fence *f = sync_fd_lookup(fd, SYNC_FD_FILE, name);
	if (!f)
		return -ENOTTY;
	int ret = -EFAULT;
	if (arg)
		ret = request == SYNC_IOC_MERGE ? ioctl_merge(f, arg)
						: ioctl_file_info(f, name, arg);
	fence_put(f);
	return ret;
}
