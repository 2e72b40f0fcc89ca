/* Fork sharing (docs/shared-device.md "Fork sharing"): sw_sync timelines
 * across a default-mode process and its fork children. A timeline is one
 * kernel object whatever process holds a descriptor of it (sw_sync.c's
 * sync_timeline, reached through the file), so a step in any process
 * signals every fence of it, the GPU's waits included.
 *
 *  1. Before any DRM open: a timeline passed to a fork child by
 *     SCM_RIGHTS, advanced there: the parent's fence signals (poll, and
 *     SYNC_IOC_FILE_INFO status 1).
 *  2. With the device: a batch of the parent's waits for a fence of the
 *     parent's timeline (execbuf in-fence); a fork child advances the
 *     inherited descriptor: the batch runs (GEM_WAIT, the stored value)
 *     and the fence's status is 1.
 *  3. A child creates a fence on the parent's timeline (CREATE_FENCE on
 *     the inherited descriptor) and advances it: that fence and the
 *     parent's fence of the same point are signalled.
 *  4. A child opens a timeline of its own, passes it to the parent and
 *     waits for a fence of it; the parent's step signals it.
 *  5. The parent's dup() of its timeline steps the same timeline.
 * Oracle: the sw_sync uAPI (a fence of point p signals once the timeline
 * reaches p, SW_SYNC_IOC_INC steps it; linux/sync_file.h status 1). */
#include <drm.h>
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shim_gem.h"
#include "shim_proc.h"
#include "test.h"

#define NODE "/dev/dri/renderD128"
#define TARGET_VA 0x100000ull
#define BATCH_VA 0x200000ull
#define VALUE 0x5eedf00du

/* sw_sync's uAPI (drivers/dma-buf/sw_sync.c) */
struct sw_sync_fence_arg {
	uint32_t value;
	char name[32];
	int32_t fence;
};
#define SW_SYNC_CREATE_FENCE _IOWR('W', 0, struct sw_sync_fence_arg)
#define SW_SYNC_INC _IOW('W', 1, uint32_t)
#define SW_SYNC_PATH "/sys/kernel/debug/sync/sw_sync"

static int io(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static int new_fence(int tl, uint32_t value)
{
	struct sw_sync_fence_arg f = { .value = value, .name = "fork" };
	return io(tl, SW_SYNC_CREATE_FENCE, &f) ? -1 : f.fence;
}

static int step(int tl)
{
	uint32_t one = 1;
	return io(tl, SW_SYNC_INC, &one);
}

/* 1 signalled, 0 active, < 0 an error status; -1000 when the ioctl fails. */
static int fence_status(int fence)
{
	struct sync_file_info info = { 0 };
	return io(fence, SYNC_IOC_FILE_INFO, &info) ? -1000 : info.status;
}

static int signalled_within(int fence, int ms)
{
	struct pollfd p = { fence, POLLIN, 0 };
	return poll(&p, 1, ms) == 1 && fence_status(fence) == 1;
}

static pid_t spawn(int (*fn)(int), int arg)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		_exit(fn(arg));
	return pid;
}

/* 1: the timeline comes over the socket after the fork. */
static int stepping_receiver(int sock)
{
	int tl = recv_fd(sock);
	return tl < 0 ? 1 : step(tl) ? 2 : 0;
}

static void check_passed_before_open(void)
{
	int tl = open(SW_SYNC_PATH, O_RDWR | O_CLOEXEC);
	CHECK(tl >= 0);
	int fence = new_fence(tl, 1);
	CHECK(fence >= 0);
	int sp[2];
	CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp), 0);
	pid_t pid = spawn(stepping_receiver, sp[1]);
	CHECK_EQ(send_fd(sp[0], tl), 0);
	CHECK_EQ(reap(pid), 0);
	CHECK(signalled_within(fence, 5000));
	close(sp[0]);
	close(sp[1]);
	close(fence);
	close(tl);
}

/* 2: steps the inherited descriptor. */
static int stepping_child(int tl)
{
	return step(tl) ? 1 : 0;
}

/* A batch storing VALUE into target, waiting for in_fence. 0 or -errno. */
static int submit_store(int fd, uint32_t target, int in_fence)
{
	uint32_t bb = shim_store_batch(fd, (uint32_t)TARGET_VA, VALUE);
	if (!bb)
		return -EIO;
	return shim_exec_pinned(fd, target, TARGET_VA, bb, BATCH_VA,
				(struct drm_i915_gem_execbuffer2){
					.flags = I915_EXEC_RENDER | I915_EXEC_FENCE_IN,
					.rsvd2 = (uint64_t)in_fence });
}

static void check_gpu_wait(int fd, int tl)
{
	int fence = new_fence(tl, 1);
	uint32_t target = shim_gem_create(fd, 4096);
	CHECK(fence >= 0 && target);
	CHECK_EQ(submit_store(fd, target, fence), 0);
	struct drm_i915_gem_busy busy = { .handle = target };
	CHECK_EQ(io(fd, DRM_IOCTL_I915_GEM_BUSY, &busy), 0);
	CHECK(busy.busy);   /* held by the fence */
	CHECK_EQ(reap(spawn(stepping_child, tl)), 0);
	struct drm_i915_gem_wait w = { .bo_handle = target, .timeout_ns = 5000000000ll };
	CHECK_EQ(io(fd, DRM_IOCTL_I915_GEM_WAIT, &w), 0);
	uint32_t v = 0;
	struct drm_i915_gem_pread pr = { .handle = target, .size = 4, .data_ptr = (uintptr_t)&v };
	CHECK_EQ(io(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
	CHECK_EQ(v, VALUE);
	CHECK_EQ(fence_status(fence), 1);
	close(fence);
}

/* 3: a fence of the next point, made here, then the step. */
static int fencing_child(int tl)
{
	int fence = new_fence(tl, 2);
	if (fence < 0)
		return 1;
	if (fence_status(fence) != 0)
		return 2;
	if (step(tl))
		return 3;
	return signalled_within(fence, 5000) ? 0 : 4;
}

static void check_child_fence(int tl)
{
	int fence = new_fence(tl, 2);
	CHECK(fence >= 0);
	CHECK_EQ(fence_status(fence), 0);
	CHECK_EQ(reap(spawn(fencing_child, tl)), 0);
	CHECK(signalled_within(fence, 5000));
	close(fence);
}

/* 4: the child's own timeline, stepped by the parent. */
static int waiting_child(int sock)
{
	int tl = open(SW_SYNC_PATH, O_RDWR | O_CLOEXEC);
	int fence = tl < 0 ? -1 : new_fence(tl, 1);
	if (fence < 0 || send_fd(sock, tl))
		return 1;
	return signalled_within(fence, 10000) ? 0 : 2;
}

static void check_child_timeline(void)
{
	int sp[2];
	CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp), 0);
	pid_t pid = spawn(waiting_child, sp[1]);
	int tl = recv_fd(sp[0]);
	CHECK(tl >= 0);
	CHECK_EQ(step(tl), 0);
	CHECK_EQ(reap(pid), 0);
	close(tl);
	close(sp[0]);
	close(sp[1]);
}

/* 5 */
static void check_dup(int tl)
{
	int fence = new_fence(tl, 3);
	int copy = dup(tl);
	CHECK(fence >= 0 && copy >= 0);
	CHECK_EQ(step(copy), 0);
	CHECK(signalled_within(fence, 5000));
	close(copy);
	close(fence);
}

int main(void)
{
	check_passed_before_open();
	int fd = open(NODE, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		test_skip("no render node");
	int tl = open(SW_SYNC_PATH, O_RDWR | O_CLOEXEC);
	CHECK(tl >= 0);
	check_gpu_wait(fd, tl);      /* the timeline at 1 */
	check_child_fence(tl);       /* at 2 */
	check_dup(tl);               /* at 3 */
	check_child_timeline();
	close(tl);
	close(fd);
	return test_exit();
}
