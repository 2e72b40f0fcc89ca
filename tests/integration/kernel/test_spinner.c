/* An IGT-style spinner (lib/igt_dummyload.c): MI_ARB_CHECK, NOOPs,
 * MI_CONDITIONAL_BATCH_BUFFER_END with Compare Semaphore (i915's
 * MI_DO_COMPARE) against a dword of the batch holding 0xffffffff, and
 * MI_BATCH_BUFFER_START back to the loop. It runs past several hangcheck
 * periods without being declared hung (the loop makes progress), the
 * object stays busy, and it ends once the CPU writes MI_BATCH_BUFFER_END
 * (0x05000000, not greater than the compare data 0x05000000) into that
 * dword through a CPU mapping: no reset counted. Commands encoded by hand
 * from the BDW PRM. */
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "eb_test.h"

#define BATCH_ADDR 0x100000ull
#define COND_DW 1022   /* dword of the batch the compare reads */

static void spin(int sync_unused)
{
	(void)sync_unused;
	struct gtsim_device *dev = eb_device(0, 200, 0);   /* hangcheck: 200 ms */
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t bb = eb_create(f, 4096);
	uint32_t dw[1024] = { 0 };
	emit_spin_loop(dw, BATCH_ADDR, BATCH_ADDR + COND_DW * 4, 16);
	dw[COND_DW] = 0xffffffff;
	CHECK_EQ(eb_write(f, bb, 0, dw, sizeof(dw)), 0);

	struct drm_i915_gem_mmap m = { .handle = bb, .size = 4096 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m), 0);
	volatile uint32_t *cpu = (uint32_t *)(uintptr_t)m.addr_ptr;

	struct drm_i915_gem_exec_object2 obj = { .handle = bb, .offset = BATCH_ADDR,
						 .flags = EXEC_OBJECT_PINNED };
	CHECK_EQ(eb_exec(f, &obj, 1, 0, 0), 0);
	/* Five hangcheck periods: still spinning, not a hang. */
	nanosleep(&(struct timespec){ .tv_nsec = 500000000 }, NULL);
	nanosleep(&(struct timespec){ .tv_nsec = 500000000 }, NULL);
	CHECK(eb_busy(f, bb) != 0);
	cpu[COND_DW] = MI_BATCH_BUFFER_END;   /* igt_spin_end() */
	CHECK_EQ(eb_wait(f, bb, 2000000000ll), 0);
	CHECK_EQ(eb_busy(f, bb), 0);
	struct drm_i915_reset_stats rs = { 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	CHECK_EQ(rs.batch_active, 0);
	CHECK_EQ(rs.batch_pending, 0);
	munmap((void *)cpu, 4096);
	gtsim_close(f);
	gtsim_device_destroy(dev);
}

int main(void)
{
	spin(0);
	return test_exit();
}
