/* Closing a handle closes the object's bindings in the file's PPGTT
 * (i915_gem_close_object -> i915_vma_close; reaped once the object is
 * idle), even while another file keeps the object alive through a flink
 * name: file B opens A's flinked object, runs a batch with it (the kernel
 * places it at offset O), closes it, and a new object of the same size in
 * B's next batch is placed at O again (IGT gem_ppgtt
 * flink-and-close-vma-leak). Then the same with the close while B's batch
 * still runs (held by a semaphore): the range comes back once the batch
 * retires. */
#include <stdbool.h>
#include <stdlib.h>

#include "eb_test.h"

#define SEMA_ADDR 0x700000ull

static uint64_t run(struct gtsim_file *f, uint32_t obj, uint32_t bb, uint32_t sema)
{
	struct drm_i915_gem_exec_object2 o[3] = {
		{ .handle = obj },
		{ .handle = sema, .offset = SEMA_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = bb },
	};
	CHECK_EQ(eb_exec(f, o, 3, 0, 0), 0);
	return o[0].offset;
}

static void batch(struct gtsim_file *f, uint32_t bb, bool wait)
{
	uint32_t dw[8];
	unsigned n = wait ? emit_semaphore_wait(dw, SEMA_ADDR, 1) : 0;
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, bb, 0, dw, n * 4), 0);
}

static void one_case(struct gtsim_file *a, struct gtsim_file *b, uint32_t sema,
		     uint32_t *sema_map, bool busy)
{
	uint32_t obj = eb_create(a, 4096);
	struct drm_gem_flink fl = { .handle = obj };
	CHECK_EQ(gtsim_ioctl(a, DRM_IOCTL_GEM_FLINK, &fl), 0);
	struct drm_gem_open op = { .name = fl.name };
	CHECK_EQ(gtsim_ioctl(b, DRM_IOCTL_GEM_OPEN, &op), 0);
	uint32_t bb = eb_create(b, 4096);
	batch(b, bb, busy);
	sema_map[0] = 0;
	uint64_t at = run(b, op.handle, bb, sema);
	if (!busy)
		CHECK_EQ(eb_wait(b, bb, -1), 0);
	CHECK_EQ(eb_close(b, op.handle), 0);
	if (busy) {
		CHECK(eb_busy(b, bb) != 0);
		__atomic_store_n(&sema_map[0], 1, __ATOMIC_SEQ_CST);
		CHECK_EQ(eb_wait(b, bb, -1), 0);
	}
	uint32_t fresh = eb_create(b, 4096), bb2 = eb_create(b, 4096);
	batch(b, bb2, false);
	CHECK_EQ(run(b, fresh, bb2, sema), at);
	CHECK_EQ(eb_wait(b, bb2, -1), 0);
	eb_close(b, fresh);
	eb_close(b, bb);
	eb_close(b, bb2);
	eb_close(a, obj);
}

int main(void)
{
	eb_require_async("a batch held by MI_SEMAPHORE_WAIT needs asynchronous engines");
	struct gtsim_device *dev = eb_device(0, 5000, 0);
	struct gtsim_file *a = gtsim_open(dev), *b = gtsim_open(dev);
	uint32_t sema = eb_create(b, 4096);
	uint32_t *sema_map = eb_cpu_map(b, sema);
	CHECK(sema_map != NULL);
	if (sema_map) {
		one_case(a, b, sema, sema_map, false);
		one_case(a, b, sema, sema_map, true);
	}
	gtsim_close(a);
	gtsim_close(b);
	gtsim_device_destroy(dev);
	return test_exit();
}
