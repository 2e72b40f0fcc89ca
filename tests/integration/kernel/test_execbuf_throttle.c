/* Ring-full throttling (i915's eb_throttle): a client that submits faster
 * than the engine runs blocks in execbuf once less than a page of the ring
 * is free, and goes on when the engine makes progress; nothing is lost.
 * The engine is held by a batch on MI_SEMAPHORE_WAIT; each nop request
 * takes 32 bytes of the 32 KiB ring (MI_BATCH_BUFFER_START 3 dwords,
 * MI_STORE_DATA_INDEX 3, MI_USER_INTERRUPT 1, MI_NOOP 1), so the client
 * stops after about (32768 - 4096) / 32 = 896 of them. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

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

int main(void)
{
	const char *sync_env = getenv("GTSIM_SYNC");
	if (sync_env && strcmp(sync_env, "0") && *sync_env)
		test_skip("a batch held by MI_SEMAPHORE_WAIT needs asynchronous engines");
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
	CHECK(now > 800 && now < 1024);
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
	return test_exit();
}
