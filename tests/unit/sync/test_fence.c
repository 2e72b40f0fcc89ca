/* Fences: one-shot signaling, errors, timed waits, callbacks, merges.
 * Oracle: the dma_fence rules (signal once, first error wins in a merge,
 * release of an unsignaled fence signals -EDEADLK). */
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "kernel/sync/fence.h"
#include "test.h"

static int calls[4];
static int order[4], norder;
static void count_cb(void *data) { int i = (int)(intptr_t)data; calls[i]++; order[norder++] = i; }

static int early_saw_signaled = -1, early_saw_status;
static void early_cb(void *data)
{
	early_saw_signaled = fence_is_signaled(data);
	early_saw_status = fence_status(data);
	order[norder++] = 3;
}

static void *signal_later(void *arg)
{
	usleep(20000);
	fence_signal(arg, -EIO);
	return NULL;
}

int main(void)
{
	/* Signal once: the first error sticks. */
	struct gt_fence *f = fence_create();
	CHECK(!fence_is_signaled(f));
	CHECK_EQ(fence_status(f), 0);
	CHECK_EQ(fence_timestamp_ns(f), 0);
	int64_t before = fence_now_ns();
	fence_signal(f, -EIO);
	fence_signal(f, 0);
	CHECK(fence_is_signaled(f));
	CHECK_EQ(fence_error(f), -EIO);
	CHECK_EQ(fence_status(f), -EIO);
	CHECK((int64_t)fence_timestamp_ns(f) >= before);
	CHECK_EQ(fence_wait(f, 0), 0);
	fence_put(f);

	/* Timed wait on an unsignaled fence: -ETIME, no earlier than asked. */
	f = fence_create();
	int64_t t0 = fence_now_ns();
	CHECK_EQ(fence_wait(f, 0), -ETIME);
	CHECK_EQ(fence_wait(f, 30 * 1000000), -ETIME);
	CHECK(fence_now_ns() - t0 >= 30 * 1000000);

	/* A wait wakes when another thread signals. */
	pthread_t th;
	pthread_create(&th, NULL, signal_later, f);
	CHECK_EQ(fence_wait(f, -1), 0);
	CHECK_EQ(fence_error(f), -EIO);
	pthread_join(th, NULL);
	fence_put(f);

	/* Callbacks: in registration order on signal, at once if signaled. */
	f = fence_create();
	fence_on_signal(f, count_cb, (void *)0);
	fence_on_signal(f, count_cb, (void *)1);
	CHECK_EQ(calls[0] + calls[1], 0);
	fence_signal(f, 0);
	CHECK_EQ(calls[0], 1);
	CHECK_EQ(calls[1], 1);
	CHECK_EQ(order[0], 0);
	CHECK_EQ(order[1], 1);
	fence_signal(f, 0);
	CHECK_EQ(calls[0], 1);
	fence_on_signal(f, count_cb, (void *)2);
	CHECK_EQ(calls[2], 1);
	fence_put(f);

	/* Early callbacks run before the fence shows as signaled and before
	 * the ordinary ones, whatever the order they were added in. */
	memset(calls, 0, sizeof(calls));
	norder = 0;
	f = fence_create();
	fence_on_signal(f, count_cb, (void *)0);
	fence_on_signal_early(f, early_cb, f);
	fence_signal(f, -EIO);
	CHECK_EQ(early_saw_signaled, 0);
	CHECK_EQ(early_saw_status, -EIO);   /* status counts from signaling on */
	CHECK_EQ(norder, 2);
	CHECK_EQ(order[0], 3);
	CHECK_EQ(order[1], 0);
	fence_on_signal_early(f, early_cb, f);   /* already signaled: at once */
	CHECK_EQ(norder, 3);
	CHECK_EQ(early_saw_signaled, 1);
	fence_put(f);

	/* References: a get keeps the fence usable after the creator's put. */
	f = fence_create();
	struct gt_fence *g = fence_get(f);
	fence_put(f);
	fence_signal(g, 0);
	CHECK(fence_is_signaled(g));
	fence_put(g);

	/* Stub fence. */
	f = fence_create_signaled();
	CHECK(fence_is_signaled(f));
	CHECK_EQ(fence_status(f), 1);
	fence_put(f);

	/* Merge: signals after the last input; the first error wins. */
	struct gt_fence *a = fence_create(), *b = fence_create(), *c = fence_create_signaled();
	struct gt_fence *in[3] = { a, b, c };
	struct gt_fence *m = fence_merge(in, 3);
	CHECK(!fence_is_signaled(m));
	fence_signal(b, -EIO);
	CHECK(!fence_is_signaled(m));
	fence_signal(a, -ENOMEM);
	CHECK(fence_is_signaled(m));
	CHECK_EQ(fence_error(m), -EIO);
	fence_put(m);
	m = fence_merge(NULL, 0);
	CHECK(fence_is_signaled(m));
	CHECK_EQ(fence_error(m), 0);
	fence_put(m);
	m = fence_merge(in, 3);  /* all signaled: the first error in input order */
	CHECK(fence_is_signaled(m));
	CHECK_EQ(fence_error(m), -ENOMEM);
	fence_put(m);
	fence_put(a); fence_put(b); fence_put(c);

	/* Releasing an unsignaled input signals it -EDEADLK (dma_fence_release). */
	a = fence_create();
	m = fence_merge(&a, 1);
	fence_put(a);
	CHECK(fence_is_signaled(m));
	CHECK_EQ(fence_error(m), -EDEADLK);
	fence_put(m);

	/* The change sequence: a waiter with no change times out at the
	 * deadline; fence_notify_change wakes it. */
	uint64_t seq = fence_wait_seq();
	CHECK_EQ(fence_wait_change(seq, fence_now_ns() + 1000000), -ETIME);
	fence_notify_change();
	CHECK_EQ(fence_wait_change(seq, fence_now_ns() + 1000000), 0);

	CHECK_EQ(fence_wait(NULL, 0), -EINVAL);
	return test_exit();
}
