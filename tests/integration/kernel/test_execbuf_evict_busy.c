/* Binding into room held by objects the GPU still uses (i915's
 * i915_gem_evict_for_node and eviction of active vmas: unbinding a busy
 * vma waits for the GPU, it never fails for it): the first batch holds
 * object x at 0x100000 behind an MI_SEMAPHORE_WAIT, then
 *  (a) another execbuf softpins y at x's address: it waits, then runs,
 *      instead of failing with -ENOSPC;
 *  (b) another execbuf softpins x itself elsewhere: it waits, then x
 *      moves (unbinding x under the running batch would have made the
 *      batch's store fault).
 * Each second execbuf runs on its own thread; the test writes the
 * semaphore, and both batches' stores must land. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "eb_test.h"

static struct gtsim_file *f;

#define SEMA_ADDR 0x700000ull

/* Batch: wait until *SEMA_ADDR == 1 (if wait), then store value at addr. */
static void write_batch(uint32_t bb, bool wait, uint64_t addr, uint32_t value)
{
	uint32_t dw[16];
	unsigned n = 0;
	if (wait)
		n += emit_semaphore_wait(dw, SEMA_ADDR, 1);
	n += emit_store(dw + n, addr, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, bb, 0, dw, n * 4), 0);
}

struct second {
	struct drm_i915_gem_exec_object2 obj[2];
	int ret;
	volatile int done;
};

static void *run_second(void *arg)
{
	struct second *s = arg;
	s->ret = eb_exec(f, s->obj, 2, 0, 0);
	s->done = 1;
	return NULL;
}

static void one_case(uint32_t sema, uint32_t *sema_map, bool move_x)
{
	uint32_t x = eb_create(f, 4096), y = eb_create(f, 4096);
	uint32_t bb1 = eb_create(f, 4096), bb2 = eb_create(f, 4096);
	write_batch(bb1, true, 0x100000, 0x1111);
	struct drm_i915_gem_exec_object2 first[3] = {
		{ .handle = sema, .offset = SEMA_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = x, .offset = 0x100000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb1, .offset = 0x200000, .flags = EXEC_OBJECT_PINNED },
	};
	sema_map[0] = 0;
	CHECK_EQ(eb_exec(f, first, 3, 0, 0), 0);
	/* (a) y where x is; (b) x at 0x500000 */
	uint64_t at = move_x ? 0x500000 : 0x100000;
	write_batch(bb2, false, at, 0x2222);
	struct second s = { .obj = {
		{ .handle = move_x ? x : y, .offset = at,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb2, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED },
	} };
	pthread_t t;
	CHECK_EQ(pthread_create(&t, NULL, run_second, &s), 0);
	usleep(100 * 1000);
	/* x is busy until the semaphore is written: nothing can have run */
	CHECK_EQ(s.done, 0);
	__atomic_store_n(&sema_map[0], 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	CHECK_EQ(s.ret, 0);
	CHECK_EQ(s.obj[0].offset, at);
	CHECK_EQ(eb_wait(f, bb2, -1), 0);
	CHECK_EQ(eb_read32(f, x, 0), move_x ? 0x2222u : 0x1111u);
	if (!move_x)
		CHECK_EQ(eb_read32(f, y, 0), 0x2222u);
	eb_close(f, x);
	eb_close(f, y);
	eb_close(f, bb1);
	eb_close(f, bb2);
}

int main(void)
{
	eb_require_async("batches held by MI_SEMAPHORE_WAIT need asynchronous engines");
	struct gtsim_device *dev = eb_device(0, 5000, 0);
	f = gtsim_open(dev);
	uint32_t sema = eb_create(f, 4096);
	uint32_t *sema_map = eb_cpu_map(f, sema);
	CHECK(sema_map != NULL);
	if (sema_map) {
		one_case(sema, sema_map, false);
		one_case(sema, sema_map, true);
	}
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
