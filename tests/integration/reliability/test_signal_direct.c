/* A program that links libgtsim (no shim) and has a signal handler of its
 * own (libFuzzer's SIGALRM): an interruptible wait the handler interrupts
 * answers -GTSIM_ERESTARTSYS (include/gtsim/gtsim.h), and
 * gtsim_ioctl_retry, as libdrm's drmIoctl, calls again until the wait is
 * over. A 1 ms interval timer interrupts a GEM_WAIT on a batch held by a
 * semaphore that a second thread releases once two alarms came during the
 * wait. Expected:
 * gtsim_ioctl returns -GTSIM_ERESTARTSYS before the release (the wait did
 * not swallow the signal), gtsim_ioctl_retry returns 0 after it with the
 * batch's store in memory. (fuzz_draw aborted on the first -512 of an
 * unmutated draw's wait before libgtdrv retried.) */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "integration/reliability/served.h"

static volatile int alarms, released, waiting;
static uint32_t *sema_map;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void *release(void *arg)
{
	(void)arg;
	while (!waiting)
		usleep(1000);
	/* two alarms handled since the main thread entered the wait */
	int seen = alarms;
	for (int i = 0; i < 10000 && alarms < seen + 2; i++)
		usleep(1000);
	usleep(50000);
	released = 1;
	__atomic_store_n(sema_map, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

int main(void)
{
	struct gtsim_device *dev = eb_device(0, 0, 0);
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t bb = eb_create(f, 4096), t = eb_create(f, 4096), sema = eb_create(f, 4096);
	sema_map = eb_cpu_map(f, sema);
	CHECK(sema_map != NULL);
	if (!sema_map)
		return test_exit();
	uint32_t dw[12];
	unsigned n = emit_semaphore_wait(dw, 0x400000, 1);
	n += emit_store(dw + n, 0x100000, 0x5151);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, bb, 0, dw, n * 4), 0);
	struct drm_i915_gem_exec_object2 o[3] = {
		{ .handle = sema, .offset = 0x400000, .flags = EXEC_OBJECT_PINNED },
		{ .handle = t, .offset = 0x100000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED } };
	CHECK_EQ(eb_exec(f, o, 3, 0, 0), 0);

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	/* the releasing thread blocks SIGALRM (its sleep is not cut short):
	 * the alarms reach the waiting main thread */
	sigset_t alrm, old;
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, &old);
	pthread_t th;
	CHECK_EQ(pthread_create(&th, NULL, release, NULL), 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	setitimer(ITIMER_REAL, &it, NULL);

	struct drm_i915_gem_wait w = { .bo_handle = bb, .timeout_ns = -1 };
	waiting = 1;
	int first = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_WAIT, &w);
	int released_then = released;
	w.timeout_ns = -1;
	int retried = gtsim_ioctl_retry(f, DRM_IOCTL_I915_GEM_WAIT, &w);
	int released_after = released;
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	pthread_join(th, NULL);

	CHECK_EQ(first, -GTSIM_ERESTARTSYS);
	CHECK_EQ(released_then, 0);
	CHECK_EQ(retried, 0);
	CHECK_EQ(released_after, 1);
	CHECK(alarms > 0);
	CHECK_EQ(eb_read32(f, t, 0), 0x5151u);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
