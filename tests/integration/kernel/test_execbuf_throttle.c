/* Ring-full throttling (i915's eb_throttle): a client that submits faster
 * than the engine runs blocks in execbuf once less than a page of the ring
 * is free, and goes on when the engine makes progress; nothing is lost.
 * The engine is held by a batch on MI_SEMAPHORE_WAIT; each nop request
 * takes 56 bytes of the context's 16 KiB ring (i915 6.1's ring size:
 * MI_ARB_CHECK 1 dword, MI_ARB_ON_OFF 1, MI_BATCH_BUFFER_START 3,
 * MI_STORE_DATA_IMM of the timeline 4, MI_STORE_DATA_INDEX 3,
 * MI_USER_INTERRUPT 1, MI_ARB_ON_OFF 1), so the client stops after about
 * (16384 - 4096) / 56 = 219 of them.
 *
 * The wait is interruptible: i915's eb_pin_timeline (6.1,
 * gem/i915_gem_execbuffer.c) returns -EINTR when i915_request_wait is
 * interrupted by a signal, whether or not its handler has SA_RESTART (the
 * code is -EINTR, not -ERESTARTSYS), before the request or its out-fence
 * exist (rsvd2's upper half untouched). Requests that wait for an
 * in-fence still take their room: i915 writes them into the context's
 * ring at creation. This is IGT gem_exec_fence's keep-in-fence: each
 * execbuf waits for the previous one's out-fence while a batch holds the
 * engine, and a 1 ms SIGALRM must end the loop with -EINTR. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "eb_test.h"

#define SEMA_ADDR 0x100000ull
#define NOPS 3000

static struct gtsim_file *f;
static uint32_t nop_batch;
static int submitted, failed;   /* atomic */

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void *submitter(void *arg)
{
	(void)arg;
	for (int i = 0; i < NOPS; i++) {
		struct drm_i915_gem_exec_object2 obj = { .handle = nop_batch };
		if (eb_exec(f, &obj, 1, I915_EXEC_RENDER, 0))
			__atomic_add_fetch(&failed, 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&submitted, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* keep-in-fence on a fresh device, with the SIGALRM handler's flags. */
static void test_eintr(int sa_flags)
{
	struct gtsim_device *dev = eb_device(0, 10000, 0);
	struct gtsim_file *g = gtsim_open(dev);
	uint32_t sema = eb_create(g, 4096), held = eb_create(g, 4096), nop = eb_create(g, 4096);
	struct drm_i915_gem_mmap m = { .handle = sema, .size = 4096 };
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_I915_GEM_MMAP, &m), 0);
	volatile uint32_t *sema_map = (uint32_t *)(uintptr_t)m.addr_ptr;
	const uint32_t wait[] = { MI_SEMAPHORE_WAIT_GEN8 | MI_SEMAPHORE_POLL |
				  MI_SEMAPHORE_SAD_EQ_SDD, 1, (uint32_t)SEMA_ADDR, 0,
				  MI_BATCH_BUFFER_END, MI_NOOP };
	const uint32_t nop_dw[] = { MI_BATCH_BUFFER_END, MI_NOOP };
	CHECK_EQ(eb_write(g, held, 0, wait, sizeof(wait)), 0);
	CHECK_EQ(eb_write(g, nop, 0, nop_dw, sizeof(nop_dw)), 0);
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = sema, .offset = SEMA_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = held },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = 2,
		.flags = I915_EXEC_RENDER | I915_EXEC_FENCE_OUT,
	};
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	int fence = (int)(eb.rsvd2 >> 32);

	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = sa_flags }, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	struct itimerval itv = { { 0, 1000 }, { 0, 10000 } };
	setitimer(ITIMER_REAL, &itv, NULL);
	struct drm_i915_gem_exec_object2 o = { .handle = nop };
	eb.buffers_ptr = (uintptr_t)&o;
	eb.buffer_count = 1;
	eb.flags |= I915_EXEC_FENCE_IN;
	int count = 0, err = 0;
	while (count < 4000) {
		eb.rsvd2 = (uint32_t)fence;
		err = gtsim_ioctl(g, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
		if (err)
			break;
		close(fence);
		fence = (int)(eb.rsvd2 >> 32);
		count++;
	}
	memset(&itv, 0, sizeof(itv));
	setitimer(ITIMER_REAL, &itv, NULL);
	fprintf(stderr, "sa_flags 0x%x: %d chained execbufs, then %d (%d alarms)\n",
		sa_flags, count, err, (int)alarms);
	CHECK_EQ(err, -EINTR);
	CHECK_EQ(eb.rsvd2 >> 32, 0);        /* no out-fence made */
	/* Stopped by the ring, not by running out of fds: a request that
	 * is not emitted yet reserves its longest emission without
	 * semaphores, 112 bytes, so about (16384 - 64 - 4096) / 112 = 109
	 * of them fit. */
	CHECK(count > 100 && count < 130);
	sigaction(SIGALRM, &old, NULL);
	sema_map[0] = 1;
	CHECK_EQ(eb_wait(g, nop, 10000000000ll), 0);
	close(fence);
	gtsim_close(g);
	gtsim_device_destroy(dev);
}

int main(void)
{
	eb_require_async("a batch held by MI_SEMAPHORE_WAIT needs asynchronous engines");
	struct gtsim_device *dev = eb_device(0, 10000, 0);
	f = gtsim_open(dev);
	uint32_t sema = eb_create(f, 4096), held = eb_create(f, 4096);
	nop_batch = eb_create(f, 4096);
	struct drm_i915_gem_mmap m = { .handle = sema, .size = 4096 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m), 0);
	volatile uint32_t *sema_map = (uint32_t *)(uintptr_t)m.addr_ptr;
	if (!sema_map)
		return test_exit();

	const uint32_t wait[] = { MI_SEMAPHORE_WAIT_GEN8 | MI_SEMAPHORE_POLL |
				  MI_SEMAPHORE_SAD_EQ_SDD, 1, (uint32_t)SEMA_ADDR, 0,
				  MI_BATCH_BUFFER_END, MI_NOOP };
	CHECK_EQ(eb_write(f, held, 0, wait, sizeof(wait)), 0);
	const uint32_t nop[] = { MI_BATCH_BUFFER_END, MI_NOOP };
	CHECK_EQ(eb_write(f, nop_batch, 0, nop, sizeof(nop)), 0);
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = sema, .offset = SEMA_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = held },
	};
	CHECK_EQ(eb_exec(f, objs, 2, I915_EXEC_RENDER, 0), 0);

	pthread_t t;
	CHECK_EQ(pthread_create(&t, NULL, submitter, NULL), 0);
	/* The client stops once the ring is nearly full... */
	int before, now = -1;
	do {
		before = now;
		sleep_ms(150);
		now = __atomic_load_n(&submitted, __ATOMIC_SEQ_CST);
	} while (now != before && now < NOPS);
	fprintf(stderr, "blocked after %d nop batches\n", now);
	CHECK(now > 200 && now < 240);
	CHECK_EQ(eb_busy(f, nop_batch) != 0, 1);
	/* ... and finishes once the engine goes on. */
	sema_map[0] = 1;
	pthread_join(t, NULL);
	CHECK_EQ(__atomic_load_n(&submitted, __ATOMIC_SEQ_CST), NOPS);
	CHECK_EQ(failed, 0);
	CHECK_EQ(eb_wait(f, nop_batch, 5000000000ll), 0);
	CHECK_EQ(eb_busy(f, nop_batch), 0);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	test_eintr(0);
	test_eintr(SA_RESTART);
	return test_exit();
}
