/* sync_file fds: a real fd per fence, POLLIN once signaled, dup'd copies
 * map back to the fence, SYNC_IOC_MERGE / SYNC_IOC_FILE_INFO as in
 * drivers/dma-buf/sync_file.c, and no fd leak once clients close theirs. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <unistd.h>

#include "kernel/sync/fence.h"
#include "test.h"

static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/* What poll reports when asked for everything: a sync_file only ever
 * reports POLLIN (drivers/dma-buf/sync_file.c sync_file_poll). */
static short revents_all(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT | POLLPRI };
	return poll(&p, 1, 0) == 1 ? p.revents : 0;
}

static int count_open_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

int main(void)
{
	struct gt_fence *f = fence_create();
	int fd = sync_file_export(f);
	CHECK(fd >= 0);
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	CHECK(sync_fd_is_ours(fd));
	CHECK(!readable(fd));

	/* The fd and a dup of it map back to the same fence. */
	struct gt_fence *back = sync_file_import(fd);
	CHECK(back == f);
	fence_put(back);
	int copy = dup(fd);
	back = sync_file_import(copy);
	CHECK(back == f);
	fence_put(back);

	CHECK_EQ(revents_all(fd), 0);
	fence_signal(f, 0);
	CHECK(readable(fd));
	CHECK(readable(copy));
	CHECK_EQ(revents_all(fd), POLLIN);
	close(copy);

	/* A client that closed its fd before the fence signals: signaling
	 * must not raise SIGPIPE (whose default action ends the process). */
	struct gt_fence *lonely = fence_create();
	int gone = sync_file_export(lonely);
	close(gone);
	fence_signal(lonely, 0);
	fence_put(lonely);

	/* Exporting an already signaled fence gives a readable fd at once. */
	int fd2 = sync_file_export(f);
	CHECK(readable(fd2));

	/* Not sync files: a pipe, /dev/null, a closed fd. */
	int p[2];
	CHECK_EQ(pipe(p), 0);
	CHECK(sync_file_import(p[0]) == NULL);
	CHECK(!sync_fd_is_ours(p[0]));
	int null = open("/dev/null", O_RDONLY);
	CHECK(sync_file_import(null) == NULL);
	CHECK(sync_file_import(-1) == NULL);
	CHECK(sync_file_import(12345) == NULL);
	CHECK_EQ(sync_file_export(NULL), -EINVAL);

	/* SYNC_IOC_MERGE: the merged fd signals when both have. */
	struct gt_fence *g = fence_create();
	int gfd = sync_file_export(g);
	struct sync_merge_data merge = { .name = "merged", .fd2 = gfd };
	CHECK_EQ(sync_file_ioctl(fd, SYNC_IOC_MERGE, &merge), 0);
	CHECK(merge.fence >= 0);
	CHECK(!readable(merge.fence));
	struct sync_file_info info = { 0 };
	CHECK_EQ(sync_file_ioctl(merge.fence, SYNC_IOC_FILE_INFO, &info), 0);
	CHECK_STR(info.name, "merged");
	CHECK_EQ(info.status, 0);
	CHECK(info.num_fences >= 1);
	fence_signal(g, -EIO);
	CHECK(readable(merge.fence));
	struct sync_fence_info fi[4];
	memset(&info, 0, sizeof(info));
	info.num_fences = 4;
	info.sync_fence_info = (uintptr_t)fi;
	CHECK_EQ(sync_file_ioctl(merge.fence, SYNC_IOC_FILE_INFO, &info), 0);
	CHECK_EQ(info.status, -EIO);
	/* sync_file_ioctl_fence_info(): one entry per merged fence, in
	 * merge order: f (signaled: 1), g (-EIO). */
	CHECK_EQ(info.num_fences, 2);
	CHECK_EQ(fi[0].status, 1);
	CHECK_EQ(fi[1].status, -EIO);
	CHECK(fi[1].timestamp_ns > 0);
	info.num_fences = 1;   /* too small an array: -EINVAL */
	CHECK_EQ(sync_file_ioctl(merge.fence, SYNC_IOC_FILE_INFO, &info), -EINVAL);

	/* Merging flattens: (a + b) + c has three fences; a merge with
	 * itself one; two points of one timeline leave the later
	 * (sync_file_merge, __dma_fence_is_later). */
	struct gt_fence *t[3] = { fence_create(), fence_create(), fence_create() };
	int tfd[3];
	for (int i = 0; i < 3; i++)
		tfd[i] = sync_file_export(t[i]);
	struct sync_merge_data m1 = { .fd2 = tfd[1] }, m2 = { .fd2 = tfd[2] };
	CHECK_EQ(sync_file_ioctl(tfd[0], SYNC_IOC_MERGE, &m1), 0);
	CHECK_EQ(sync_file_ioctl(m1.fence, SYNC_IOC_MERGE, &m2), 0);
	memset(&info, 0, sizeof(info));
	CHECK_EQ(sync_file_ioctl(m2.fence, SYNC_IOC_FILE_INFO, &info), 0);
	CHECK_EQ(info.num_fences, 3);
	struct sync_merge_data self = { .fd2 = tfd[0] };
	CHECK_EQ(sync_file_ioctl(tfd[0], SYNC_IOC_MERGE, &self), 0);
	memset(&info, 0, sizeof(info));
	CHECK_EQ(sync_file_ioctl(self.fence, SYNC_IOC_FILE_INFO, &info), 0);
	CHECK_EQ(info.num_fences, 1);
	fence_set_context(t[1], 77, 5);
	fence_set_context(t[2], 77, 9);
	struct sync_merge_data same = { .fd2 = tfd[2] };
	CHECK_EQ(sync_file_ioctl(tfd[1], SYNC_IOC_MERGE, &same), 0);
	memset(&info, 0, sizeof(info));
	info.num_fences = 4;
	info.sync_fence_info = (uintptr_t)fi;
	CHECK_EQ(sync_file_ioctl(same.fence, SYNC_IOC_FILE_INFO, &info), 0);
	CHECK_EQ(info.num_fences, 1);
	fence_signal(t[1], 0);   /* the earlier point: the merge stays active */
	CHECK_EQ(sync_file_ioctl(same.fence, SYNC_IOC_FILE_INFO, &info), 0);
	CHECK_EQ(fi[0].status, 0);
	for (int i = 0; i < 3; i++) {
		if (i != 1)
			fence_signal(t[i], 0);
		fence_put(t[i]);
		close(tfd[i]);
	}
	close(m1.fence);
	close(m2.fence);
	close(self.fence);
	close(same.fence);

	/* Merge/info errnos: flags or pad set -EINVAL, fd2 not a sync file
	 * -ENOENT, other request -ENOTTY, not a sync file -ENOTTY. */
	struct sync_merge_data bad = { .fd2 = p[0] };
	CHECK_EQ(sync_file_ioctl(fd, SYNC_IOC_MERGE, &bad), -ENOENT);
	bad.fd2 = gfd;
	bad.flags = 1;
	CHECK_EQ(sync_file_ioctl(fd, SYNC_IOC_MERGE, &bad), -EINVAL);
	bad.flags = 0;
	bad.pad = 1;
	CHECK_EQ(sync_file_ioctl(fd, SYNC_IOC_MERGE, &bad), -EINVAL);
	struct sync_file_info badinfo = { .flags = 1 };
	CHECK_EQ(sync_file_ioctl(fd, SYNC_IOC_FILE_INFO, &badinfo), -EINVAL);
	CHECK_EQ(sync_file_ioctl(p[0], SYNC_IOC_FILE_INFO, &info), -ENOTTY);
	CHECK_EQ(sync_file_ioctl(fd, 0x1234, &info), -ENOTTY);
	CHECK_EQ(sync_file_ioctl(fd, SYNC_IOC_FILE_INFO, NULL), -EFAULT);

	/* Info on the unmerged signaled fd: default name, status 1. */
	memset(&info, 0, sizeof(info));
	CHECK_EQ(sync_file_ioctl(fd, SYNC_IOC_FILE_INFO, &info), 0);
	CHECK_EQ(info.status, 1);
	CHECK(info.name[0] != '\0');

	close(merge.fence);
	close(gfd);
	close(fd);
	close(fd2);
	fence_put(g);

	/* Closing client fds releases the registry's end: exporting many
	 * fences one after another does not grow the number of open fds. */
	int base = count_open_fds();
	for (int i = 0; i < 200; i++) {
		int x = sync_file_export(f);
		CHECK(x >= 0);
		close(x);
	}
	int after = count_open_fds();
	CHECK(after - base <= 2);
	fence_put(f);
	close(p[0]);
	close(p[1]);
	close(null);
	return test_exit();
}
