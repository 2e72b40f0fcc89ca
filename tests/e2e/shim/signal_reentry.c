/* A signal handler that calls the device while its thread is inside an
 * ioctl (common/sigdefer.h): on Linux the handler runs when the system
 * call returns, so it may use the device; in gtsim the ioctl is code on
 * the same thread, holding the device's lock, and a handler run in the
 * middle of it deadlocked on that lock.
 *
 * Under `gtsim run --sync` (the batch runs inside execbuf), the main
 * thread submits a batch that waits (MI_SEMAPHORE_WAIT) for a dword a
 * helper thread writes through a CPU mapping. While execbuf waits, the
 * helper sends SIGUSR1, whose handler creates and closes an object; then
 * it writes the dword. Expected, as on i915: execbuf returns 0, the
 * handler ran once (after the ioctl's work: the batch's store is already
 * in memory when it runs) and its GEM_CREATE succeeded. A deadlock is
 * reported by the helper after 60 s. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <drm.h>
#include <i915_drm.h>

#include "shim_gem.h"
#include "test.h"


#define SEMA_ADDR 0x100000u
#define TARGET_ADDR 0x200000u
#define BATCH_ADDR 0x300000u

static int fd;
static volatile uint32_t *target_map;
static volatile int in_execbuf, handler_runs, handler_create, handler_saw_store;
static volatile int main_done;

static uint32_t create(uint64_t size) { return shim_gem_create(fd, size); }
static void *cpu_map(uint32_t h) { return shim_gem_cpu_map(fd, h); }

static void on_usr1(int sig)
{
	(void)sig;
	handler_runs++;
	handler_saw_store = target_map[0] == 0xabcu;
	uint32_t h = create(4096);
	handler_create = h != 0;
	if (h) {
		struct drm_gem_close cl = { .handle = h };
		ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
	}
}

struct helper {
	pthread_t main_thread;
	volatile uint32_t *sema;
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void *helper(void *arg)
{
	struct helper *h = arg;
	while (!in_execbuf)
		sleep_ms(1);
	sleep_ms(50);
	pthread_kill(h->main_thread, SIGUSR1);
	sleep_ms(50);
	__atomic_store_n(h->sema, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < 6000 && !main_done; i++)
		sleep_ms(10);
	if (!main_done) {
		fprintf(stderr, "deadlock: the main thread never left execbuf and its handler\n");
		_exit(1);
	}
	return NULL;
}

int main(void)
{
	fd = open("/dev/dri/renderD128", O_RDWR);
	CHECK(fd >= 0);
	if (fd < 0)
		return test_exit();
	uint32_t sema = create(4096), target = create(4096), batch = create(4096);
	volatile uint32_t *sema_map = cpu_map(sema);
	target_map = cpu_map(target);
	uint32_t *bb = cpu_map(batch);
	CHECK(sema_map && target_map && bb);
	if (!sema_map || !target_map || !bb)
		return test_exit();
	shim_sema_batch(bb, SEMA_ADDR, TARGET_ADDR, 0xabc);

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
	struct sigaction back;
	CHECK_EQ(sigaction(SIGUSR1, NULL, &back), 0);
	CHECK(back.sa_handler == on_usr1);   /* the program's handler, as installed */

	struct helper h = { pthread_self(), sema_map };
	pthread_t t;
	CHECK_EQ(pthread_create(&t, NULL, helper, &h), 0);
	struct drm_i915_gem_exec_object2 obj[3] = {
		{ .handle = sema, .offset = SEMA_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = target, .offset = TARGET_ADDR,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = batch, .offset = BATCH_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)obj, .buffer_count = 3 };
	in_execbuf = 1;
	int ret = ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	in_execbuf = 0;
	main_done = 1;
	pthread_join(t, NULL);
	CHECK_EQ(ret, 0);
	CHECK_EQ(handler_runs, 1);
	CHECK_EQ(handler_create, 1);
	CHECK_EQ(handler_saw_store, 1);
	CHECK_EQ(target_map[0], 0xabcu);
	close(fd);
	return test_exit();
}
