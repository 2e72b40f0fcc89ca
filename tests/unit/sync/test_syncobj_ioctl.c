/* DRM_IOCTL_SYNCOBJ_* on a syncobj table: results and every errno, as
 * drivers/gpu/drm/drm_syncobj.c (Linux 6.1) gives them. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <drm.h>

#include "kernel/sync/syncobj.h"
#include "test.h"

static struct syncobj_table *t;

static uint32_t create(uint32_t flags)
{
	struct drm_syncobj_create c = { .flags = flags };
	CHECK_EQ(syncobj_create_ioctl(t, &c), 0);
	return c.handle;
}

static int wait_on(uint32_t *handles, uint32_t n, uint32_t flags, int64_t timeout,
		   uint32_t *first)
{
	struct drm_syncobj_wait w = { .handles = (uintptr_t)handles, .count_handles = n,
				      .flags = flags, .timeout_nsec = timeout };
	int ret = syncobj_wait_ioctl(t, &w);
	if (first)
		*first = w.first_signaled;
	return ret;
}

static int array_op(int (*op)(struct syncobj_table *, void *), uint32_t *h, uint32_t n)
{
	struct drm_syncobj_array a = { .handles = (uintptr_t)h, .count_handles = n };
	return op(t, &a);
}

/* A fence caught between the start of its signal and its end: an early
 * callback (a sync file's readiness) that sleeps 100 ms. */
static int early_started;   /* atomic */

static void slow_early(void *data)
{
	(void)data;
	__atomic_store_n(&early_started, 1, __ATOMIC_RELEASE);
	struct timespec ts = { 0, 100000000 };
	nanosleep(&ts, NULL);
}

static void *signal_fence(void *f)
{
	fence_signal(f, 0);
	return NULL;
}

/* Linux's dma_fence_signal sets the signaled bit before any callback, so a
 * syncobj wait that polls (timeout 0) while a fence's callbacks run finds
 * it signaled. In gtsim the early callbacks (a sync file's readiness) run
 * first: the wait waits them out and returns 0. shim-exec-fences saw
 * -ETIME there under load: the sync file already polled readable, and the
 * batch that waited on the fence through a GPU semaphore was done. */
static void test_wait_while_signaling(void)
{
	uint32_t h = create(0);
	struct gt_fence *f = fence_create();
	CHECK_EQ(syncobj_set_fence(t, h, 0, f), 0);
	fence_on_signal_early(f, slow_early, NULL);
	pthread_t th;
	CHECK_EQ(pthread_create(&th, NULL, signal_fence, f), 0);
	while (!__atomic_load_n(&early_started, __ATOMIC_ACQUIRE))
		sched_yield();
	uint32_t hs[1] = { h }, first = 99;
	CHECK_EQ(wait_on(hs, 1, 0, 0, &first), 0);
	CHECK_EQ(first, 0);
	CHECK(fence_is_signaled(f));
	pthread_join(th, NULL);
	fence_put(f);
}

int main(void)
{
	t = syncobj_table_create();

	/* CREATE: handles from 1; unknown flags -EINVAL. */
	uint32_t a = create(0), b = create(DRM_SYNCOBJ_CREATE_SIGNALED);
	CHECK_EQ(a, 1);
	CHECK_EQ(b, 2);
	struct drm_syncobj_create badc = { .flags = 2 };
	CHECK_EQ(syncobj_create_ioctl(t, &badc), -EINVAL);
	CHECK(syncobj_exists(t, a) && syncobj_exists(t, b) && !syncobj_exists(t, 3));

	/* WAIT: a syncobj without fence is -EINVAL (no WAIT_FOR_SUBMIT),
	 * a signaled one returns at once, an unsignaled one -ETIME. */
	uint32_t hb[1] = { b }, ha[1] = { a }, hab[2] = { a, b };
	uint32_t first = 99;
	CHECK_EQ(wait_on(hb, 1, 0, 0, &first), 0);
	CHECK_EQ(first, 0);
	CHECK_EQ(wait_on(ha, 1, 0, 0, NULL), -EINVAL);
	CHECK_EQ(wait_on(hab, 2, 0, 0, NULL), -EINVAL);
	CHECK_EQ(wait_on(ha, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 0, NULL), -ETIME);
	int64_t t0 = fence_now_ns();
	CHECK_EQ(wait_on(ha, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
			 t0 + 20000000, NULL), -ETIME);
	CHECK(fence_now_ns() - t0 >= 20000000);
	CHECK_EQ(wait_on(ha, 1, 1u << 2, 0, NULL), -EINVAL);   /* AVAILABLE: timeline only */
	CHECK_EQ(wait_on(ha, 0, 0, 0, NULL), -EINVAL);          /* no handles */
	CHECK_EQ(wait_on(NULL, 1, 0, 0, NULL), -EFAULT);
	uint32_t hbad[2] = { b, 77 };
	CHECK_EQ(wait_on(hbad, 2, 0, 0, NULL), -ENOENT);
	/* A count whose array kmalloc cannot hold (over 4 MiB of pointers):
	 * -ENOMEM at once, nothing allocated or read (fuzz_ioctl found
	 * gigabytes allocated for count_handles near 2^32). */
	CHECK_EQ(wait_on(hb, 0xfffffff0u, 0, 0, NULL), -ENOMEM);
	CHECK_EQ(array_op(syncobj_reset_ioctl, hb, (4u << 20) / 8 + 1), -ENOMEM);

	/* Give a an unsignaled fence: WAIT_ANY reports b (index 1) first,
	 * WAIT_ALL times out until a signals. */
	struct gt_fence *fa = fence_create();
	CHECK_EQ(syncobj_set_fence(t, a, 0, fa), 0);
	CHECK_EQ(wait_on(hab, 2, 0, 0, &first), 0);
	CHECK_EQ(first, 1);
	CHECK_EQ(wait_on(hab, 2, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, 0, NULL), -ETIME);
	fence_signal(fa, 0);
	CHECK_EQ(wait_on(hab, 2, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, 0, NULL), 0);
	fence_put(fa);

	/* RESET / SIGNAL. */
	CHECK_EQ(array_op(syncobj_reset_ioctl, ha, 1), 0);
	CHECK_EQ(wait_on(ha, 1, 0, 0, NULL), -EINVAL);
	CHECK_EQ(array_op(syncobj_signal_ioctl, ha, 1), 0);
	CHECK_EQ(wait_on(ha, 1, 0, 0, NULL), 0);
	CHECK_EQ(array_op(syncobj_reset_ioctl, ha, 0), -EINVAL);
	CHECK_EQ(array_op(syncobj_signal_ioctl, ha, 0), -EINVAL);
	CHECK_EQ(array_op(syncobj_signal_ioctl, hbad, 2), -ENOENT);
	CHECK_EQ(array_op(syncobj_reset_ioctl, NULL, 1), -EFAULT);
	struct drm_syncobj_array padded = { .handles = (uintptr_t)ha, .count_handles = 1, .pad = 1 };
	CHECK_EQ(syncobj_reset_ioctl(t, &padded), -EINVAL);
	CHECK_EQ(syncobj_signal_ioctl(t, &padded), -EINVAL);

	/* HANDLE_TO_FD (syncobj fd) and FD_TO_HANDLE: a new handle naming the
	 * same object, in this table or another. */
	struct drm_syncobj_handle h2f = { .handle = a };
	CHECK_EQ(syncobj_handle_to_fd_ioctl(t, &h2f), 0);
	CHECK(h2f.fd >= 0);
	struct syncobj_table *t2 = syncobj_table_create();
	struct drm_syncobj_handle f2h = { .fd = h2f.fd };
	CHECK_EQ(syncobj_fd_to_handle_ioctl(t2, &f2h), 0);
	CHECK_EQ(f2h.handle, 1);
	CHECK_EQ(array_op(syncobj_reset_ioctl, ha, 1), 0);   /* seen through t2 */
	int err = 0;
	CHECK(syncobj_find_fence(t2, 1, 0, &err) == NULL);
	CHECK_EQ(err, -EINVAL);
	CHECK(syncobj_find_fence(t2, 2, 0, &err) == NULL);
	CHECK_EQ(err, -ENOENT);
	close(h2f.fd);
	syncobj_table_destroy(t2);

	struct drm_syncobj_handle bad = { .handle = 77 };
	CHECK_EQ(syncobj_handle_to_fd_ioctl(t, &bad), -EINVAL);
	bad = (struct drm_syncobj_handle){ .handle = a, .pad = 1 };
	CHECK_EQ(syncobj_handle_to_fd_ioctl(t, &bad), -EINVAL);
	bad = (struct drm_syncobj_handle){ .handle = a, .flags = 2 };
	CHECK_EQ(syncobj_handle_to_fd_ioctl(t, &bad), -EINVAL);
	int devnull = open("/dev/null", O_RDONLY);
	bad = (struct drm_syncobj_handle){ .fd = devnull };
	CHECK_EQ(syncobj_fd_to_handle_ioctl(t, &bad), -EINVAL);
	bad = (struct drm_syncobj_handle){ .fd = -1 };
	CHECK_EQ(syncobj_fd_to_handle_ioctl(t, &bad), -EINVAL);
	bad = (struct drm_syncobj_handle){ .fd = devnull, .pad = 1 };
	CHECK_EQ(syncobj_fd_to_handle_ioctl(t, &bad), -EINVAL);
	bad = (struct drm_syncobj_handle){ .fd = devnull, .flags = 2 };
	CHECK_EQ(syncobj_fd_to_handle_ioctl(t, &bad), -EINVAL);

	/* EXPORT_SYNC_FILE: -EINVAL without a fence, -ENOENT for a bad
	 * handle; the sync_file polls readable once the fence signals. */
	bad = (struct drm_syncobj_handle){ .handle = a,
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE };
	CHECK_EQ(syncobj_handle_to_fd_ioctl(t, &bad), -EINVAL);
	bad.handle = 77;
	CHECK_EQ(syncobj_handle_to_fd_ioctl(t, &bad), -ENOENT);
	struct gt_fence *fx = fence_create();
	syncobj_set_fence(t, a, 0, fx);
	struct drm_syncobj_handle exp = { .handle = a,
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE };
	CHECK_EQ(syncobj_handle_to_fd_ioctl(t, &exp), 0);
	struct pollfd pfd = { .fd = exp.fd, .events = POLLIN };
	CHECK_EQ(poll(&pfd, 1, 0), 0);
	fence_signal(fx, 0);
	CHECK_EQ(poll(&pfd, 1, 1000), 1);

	/* IMPORT_SYNC_FILE into b: b then holds that fence; errnos. */
	CHECK_EQ(array_op(syncobj_reset_ioctl, hb, 1), 0);
	struct drm_syncobj_handle imp = { .handle = b, .fd = exp.fd,
		.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE };
	CHECK_EQ(syncobj_fd_to_handle_ioctl(t, &imp), 0);
	struct gt_fence *got = syncobj_find_fence(t, b, 0, &err);
	CHECK(got == fx);
	fence_put(got);
	imp.handle = 77;
	CHECK_EQ(syncobj_fd_to_handle_ioctl(t, &imp), -ENOENT);
	imp.handle = b;
	imp.fd = devnull;
	CHECK_EQ(syncobj_fd_to_handle_ioctl(t, &imp), -EINVAL);
	close(exp.fd);
	fence_put(fx);

	/* DESTROY: -EINVAL for a bad handle or pad; the handle is reused. */
	struct drm_syncobj_destroy d = { .handle = a };
	CHECK_EQ(syncobj_destroy_ioctl(t, &d), 0);
	CHECK_EQ(syncobj_destroy_ioctl(t, &d), -EINVAL);
	d = (struct drm_syncobj_destroy){ .handle = b, .pad = 1 };
	CHECK_EQ(syncobj_destroy_ioctl(t, &d), -EINVAL);
	d.handle = 0;
	d.pad = 0;
	CHECK_EQ(syncobj_destroy_ioctl(t, &d), -EINVAL);
	CHECK(!syncobj_exists(t, a));
	CHECK_EQ(create(0), a);

	test_wait_while_signaling();
	close(devnull);
	syncobj_table_destroy(t);
	return test_exit();
}
