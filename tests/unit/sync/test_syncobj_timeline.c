/* Timeline syncobjs: points, QUERY, TIMELINE_WAIT (WAIT_AVAILABLE,
 * WAIT_FOR_SUBMIT from another thread), TIMELINE_SIGNAL, TRANSFER, and
 * their errnos (drm_syncobj.c, Linux 6.1), and dma_fence_chain's semantics
 * (drivers/dma-buf/dma-fence-chain.c): a point above the previous one
 * continues its context, one that is not starts a new context at the
 * higher seqno; the fence for point P is found from the newest link back
 * while the link is of the newest's context and its predecessor's seqno is
 * >= P; a link's fence waits for it and every link before it. */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include <drm.h>

#include "kernel/sync/syncobj.h"
#include "test.h"

static struct syncobj_table *t;

static uint64_t query(uint32_t h, uint32_t flags)
{
	uint64_t point = 12345;
	struct drm_syncobj_timeline_array q = { .handles = (uintptr_t)&h,
		.points = (uintptr_t)&point, .count_handles = 1, .flags = flags };
	CHECK_EQ(syncobj_query_ioctl(t, &q), 0);
	return point;
}

static int twait(uint32_t h, uint64_t point, uint32_t flags, int64_t timeout)
{
	struct drm_syncobj_timeline_wait w = { .handles = (uintptr_t)&h,
		.points = (uintptr_t)&point, .count_handles = 1, .flags = flags,
		.timeout_nsec = timeout };
	return syncobj_timeline_wait_ioctl(t, &w);
}

static int tsignal(uint32_t h, uint64_t point)
{
	struct drm_syncobj_timeline_array s = { .handles = (uintptr_t)&h,
		.points = (uintptr_t)&point, .count_handles = 1 };
	return syncobj_timeline_signal_ioctl(t, &s);
}

struct later { uint32_t handle; uint64_t point; };
static void *signal_point_later(void *arg)
{
	struct later *l = arg;
	usleep(20000);
	tsignal(l->handle, l->point);
	return NULL;
}

/* Points added out of order, as IGT gem_exec_fence's
 * syncobj-stationary-/backward-timeline-chain-engines add them: the
 * fence for P is then the newest link's (with every link before). */
/* Points p1 then p2 on a new timeline, each its own fence: waiting on
 * point `wait` must need the second fence, not only the first; the
 * timeline's QUERY afterwards is want_query. */
static void check_second_link(uint64_t p1, uint64_t p2, uint64_t wait, uint64_t want_query)
{
	struct gt_fence *a = fence_create(), *b = fence_create(), *f;
	struct syncobj *so = syncobj_new(false);
	syncobj_add_point(so, p1, a);
	syncobj_add_point(so, p2, b);
	CHECK_EQ(syncobj_query_point(so, true), want_query);
	CHECK_EQ(syncobj_fence_at(so, wait, &f), 0);
	fence_signal(a, 0);
	CHECK(!fence_is_signaled(f));
	fence_signal(b, 0);
	CHECK(fence_is_signaled(f));
	fence_put(f);
	syncobj_unref(so);
	fence_put(a);
	fence_put(b);
}

static void test_chain_order(void)
{
	/* stationary: 10 then 10 again: the second starts a new context
	 * with prev_seqno 0 < 10, so point 10 is the second link. */
	check_second_link(10, 10, 10, 10);
	/* backward: 10 then 9: the second link's seqno is max(10, 9) = 10,
	 * and point 1 is the second link. */
	check_second_link(10, 9, 1, 10);

	struct gt_fence *a, *b, *c = fence_create(), *f;
	struct syncobj *so;
	/* in order: 1, 2, 3: point 2 is the second link (the third's
	 * prev_seqno 2 >= 2, the second's 1 < 2), done before the third. */
	a = fence_create();
	b = fence_create();
	so = syncobj_new(false);
	syncobj_add_point(so, 1, a);
	syncobj_add_point(so, 2, b);
	syncobj_add_point(so, 3, c);
	CHECK_EQ(syncobj_fence_at(so, 2, &f), 0);
	fence_signal(a, 0);
	fence_signal(b, 0);
	CHECK(fence_is_signaled(f));
	fence_put(f);
	CHECK_EQ(syncobj_fence_at(so, 3, &f), 0);
	CHECK(!fence_is_signaled(f));
	fence_signal(c, 0);
	CHECK(fence_is_signaled(f));
	fence_put(f);
	syncobj_unref(so);
	fence_put(a);
	fence_put(b);
	fence_put(c);
}

int main(void)
{
	test_chain_order();
	t = syncobj_table_create();
	struct drm_syncobj_create c = { 0 };
	syncobj_create_ioctl(t, &c);
	uint32_t tl = c.handle;

	/* Empty: QUERY 0; a point not yet submitted is -EINVAL without
	 * WAIT_FOR_SUBMIT, -ETIME with it. */
	CHECK_EQ(query(tl, 0), 0);
	CHECK_EQ(twait(tl, 1, 0, 0), -EINVAL);
	CHECK_EQ(twait(tl, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 0), -ETIME);
	CHECK_EQ(twait(tl, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE, 0), -ETIME);

	/* Points 1 (pending fence), 2 (pending), 3 (signaled stub). */
	struct gt_fence *p1 = fence_create(), *p2 = fence_create();
	CHECK_EQ(syncobj_set_fence(t, tl, 1, p1), 0);
	CHECK_EQ(syncobj_set_fence(t, tl, 2, p2), 0);
	CHECK_EQ(tsignal(tl, 3), 0);
	CHECK_EQ(query(tl, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 3);
	CHECK_EQ(query(tl, 0), 0);
	/* Point 3 waits for 1 and 2 as well, even though its own fence has
	 * signaled; WAIT_AVAILABLE only needs it submitted. */
	CHECK_EQ(twait(tl, 3, 0, 0), -ETIME);
	CHECK_EQ(twait(tl, 3, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE, 0), 0);
	CHECK_EQ(twait(tl, 4, 0, 0), -EINVAL);
	fence_signal(p1, 0);
	CHECK_EQ(query(tl, 0), 1);
	CHECK_EQ(twait(tl, 1, 0, 0), 0);
	CHECK_EQ(twait(tl, 2, 0, 0), -ETIME);
	fence_signal(p2, 0);
	CHECK_EQ(query(tl, 0), 3);
	CHECK_EQ(twait(tl, 3, 0, 0), 0);
	/* Point 0 of a timeline: the whole chain. */
	CHECK_EQ(twait(tl, 0, 0, 0), 0);

	/* Point 10 in the middle of a gap waits for the next submitted point
	 * (12), which another thread signals later: WAIT_FOR_SUBMIT. */
	pthread_t th;
	struct later l = { tl, 12 };
	pthread_create(&th, NULL, signal_point_later, &l);
	CHECK_EQ(twait(tl, 10, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
		       fence_now_ns() + 5000000000ll), 0);
	pthread_join(th, NULL);
	CHECK_EQ(query(tl, 0), 12);

	/* Many points: old signaled ones are collected, queries stay right. */
	for (uint64_t p = 13; p < 1000; p++)
		CHECK_EQ(tsignal(tl, p), 0);
	CHECK_EQ(query(tl, 0), 999);
	CHECK_EQ(twait(tl, 500, 0, 0), 0);
	CHECK_EQ(twait(tl, 1, 0, 0), 0);

	/* An error on a point shows in the fence for it and later points. */
	struct gt_fence *bad = fence_create();
	syncobj_set_fence(t, tl, 1000, bad);
	tsignal(tl, 1001);
	fence_signal(bad, -EIO);
	int err;
	struct gt_fence *f1001 = syncobj_find_fence(t, tl, 1001, &err);
	CHECK(f1001 && fence_is_signaled(f1001));
	CHECK_EQ(fence_error(f1001), -EIO);
	fence_put(f1001);
	fence_put(bad);

	/* TRANSFER: timeline point -> binary, binary -> timeline point. */
	struct drm_syncobj_create cb = { 0 };
	syncobj_create_ioctl(t, &cb);
	struct drm_syncobj_transfer x = { .src_handle = tl, .src_point = 999,
					  .dst_handle = cb.handle };
	CHECK_EQ(syncobj_transfer_ioctl(t, &x), 0);
	CHECK_EQ(query(cb.handle, 0), 0);   /* binary: QUERY gives 0 */
	uint32_t hb = cb.handle;
	struct drm_syncobj_wait w = { .handles = (uintptr_t)&hb, .count_handles = 1 };
	CHECK_EQ(syncobj_wait_ioctl(t, &w), 0);
	x = (struct drm_syncobj_transfer){ .src_handle = cb.handle, .dst_handle = tl,
					   .dst_point = 2000 };
	CHECK_EQ(syncobj_transfer_ioctl(t, &x), 0);
	CHECK_EQ(query(tl, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 2000);
	/* Transfer errnos: pad -EINVAL, bad dst/src -ENOENT, source point not
	 * submitted -EINVAL, with WAIT_FOR_SUBMIT it waits (5 s) then -ETIME;
	 * point on a binary syncobj -EINVAL. */
	x = (struct drm_syncobj_transfer){ .src_handle = tl, .dst_handle = cb.handle, .pad = 1 };
	CHECK_EQ(syncobj_transfer_ioctl(t, &x), -EINVAL);
	x = (struct drm_syncobj_transfer){ .src_handle = tl, .dst_handle = 99 };
	CHECK_EQ(syncobj_transfer_ioctl(t, &x), -ENOENT);
	x = (struct drm_syncobj_transfer){ .src_handle = 99, .dst_handle = cb.handle };
	CHECK_EQ(syncobj_transfer_ioctl(t, &x), -ENOENT);
	x = (struct drm_syncobj_transfer){ .src_handle = tl, .src_point = 5000,
					   .dst_handle = cb.handle };
	CHECK_EQ(syncobj_transfer_ioctl(t, &x), -EINVAL);
	x = (struct drm_syncobj_transfer){ .src_handle = cb.handle, .src_point = 1,
					   .dst_handle = tl, .dst_point = 3000 };
	CHECK_EQ(syncobj_transfer_ioctl(t, &x), -EINVAL);

	/* QUERY / TIMELINE_WAIT / TIMELINE_SIGNAL errnos. */
	uint64_t pt = 0;
	uint32_t h = tl, missing = 99;
	struct drm_syncobj_timeline_array q = { .handles = (uintptr_t)&h,
		.points = (uintptr_t)&pt, .count_handles = 1, .flags = 2 };
	CHECK_EQ(syncobj_query_ioctl(t, &q), -EINVAL);
	q.flags = 0;
	q.count_handles = 0;
	CHECK_EQ(syncobj_query_ioctl(t, &q), -EINVAL);
	q.count_handles = 1;
	q.handles = (uintptr_t)&missing;
	CHECK_EQ(syncobj_query_ioctl(t, &q), -ENOENT);
	q.handles = (uintptr_t)&h;
	q.points = 0;
	CHECK_EQ(syncobj_query_ioctl(t, &q), -EFAULT);
	q.points = (uintptr_t)&pt;
	CHECK_EQ(syncobj_timeline_signal_ioctl(t, &(struct drm_syncobj_timeline_array){
		.handles = (uintptr_t)&h, .count_handles = 1, .flags = 1 }), -EINVAL);
	CHECK_EQ(syncobj_timeline_signal_ioctl(t, &(struct drm_syncobj_timeline_array){
		.handles = (uintptr_t)&h, .count_handles = 0 }), -EINVAL);
	CHECK_EQ(syncobj_timeline_signal_ioctl(t, &(struct drm_syncobj_timeline_array){
		.handles = (uintptr_t)&missing, .count_handles = 1 }), -ENOENT);
	CHECK_EQ(twait(tl, 1, 1u << 3, 0), -EINVAL);
	struct drm_syncobj_timeline_wait tw = { .handles = (uintptr_t)&h, .count_handles = 0 };
	CHECK_EQ(syncobj_timeline_wait_ioctl(t, &tw), -EINVAL);
	/* TIMELINE_SIGNAL without a points array signals point 0: the binary
	 * payload, which drops the timeline (QUERY 0 again). */
	CHECK_EQ(syncobj_timeline_signal_ioctl(t, &(struct drm_syncobj_timeline_array){
		.handles = (uintptr_t)&h, .count_handles = 1 }), 0);
	CHECK_EQ(query(tl, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 0);

	fence_put(p1);
	fence_put(p2);
	syncobj_table_destroy(t);
	return test_exit();
}
