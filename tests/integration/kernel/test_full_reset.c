/* Full-GPU reset (i915.reset=1) against engine reset (i915.reset=2), as
 * Linux 6.1 has them:
 *  - GETPARAM HAS_GPU_RESET (i915_getparam.c): 0 when hangcheck is off or
 *    reset is 0, 2 when engine resets are allowed (reset >= 2), else 1;
 *  - a hang on the render engine while the blitter runs an innocent
 *    spinner: with reset=1 the whole GPU is reset (intel_gt_reset): the
 *    blitter's request, which had started, is innocent (__i915_request_reset:
 *    its context's batch_pending grows, its fence error is -EAGAIN) and runs
 *    again from its start, and GET_RESET_STATS' reset_count (full resets
 *    only, i915_reset_count; 0 for a caller who is not root) grows by one;
 *    with reset=2 only the render engine is reset: the spinner goes on
 *    untouched, nothing is pending, reset_count stays.
 * The spinner's first command stores 1 into a dword that the test clears
 * once it saw it: a 1 again later means the batch ran again from its start.
 * Commands encoded by hand from the BDW PRM (eb_test.h). */
#include <poll.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "eb_test.h"
#include "sync_file_check.h"

#define SPIN_ADDR 0x100000ull
#define COND_DW 1022   /* dword of the spinner the compare reads */
#define MARK_DW 1020   /* dword the spinner's first command sets to 1 */

static struct gtsim_file *f;

static void set_param(const char *name, const char *value)
{
	CHECK_EQ(gtsim_param_write(name, value, strlen(value)), 0);
}

static int has_gpu_reset(void)
{
	int v = -1;
	struct drm_i915_getparam gp = { .param = I915_PARAM_HAS_GPU_RESET, .value = &v };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GETPARAM, &gp), 0);
	return v;
}

static void check_getparam(void)
{
	/* i915: enable_hangcheck && intel_has_gpu_reset ? (has_reset_engine ? 2 : 1) : 0 */
	set_param("reset", "2");
	CHECK_EQ(has_gpu_reset(), 2);
	set_param("reset", "1");
	CHECK_EQ(has_gpu_reset(), 1);
	set_param("reset", "0");
	CHECK_EQ(has_gpu_reset(), 0);
	set_param("reset", "1");
	set_param("enable_hangcheck", "N");
	CHECK_EQ(has_gpu_reset(), 0);
	set_param("enable_hangcheck", "Y");
	CHECK_EQ(has_gpu_reset(), 1);
}

static uint32_t ctx_create(void)
{
	struct drm_i915_gem_context_create c = { 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c), 0);
	return c.ctx_id;
}

static struct drm_i915_reset_stats stats(uint32_t ctx)
{
	struct drm_i915_reset_stats rs = { .ctx_id = ctx };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	return rs;
}

/* Waits up to 5 s for the dword to read 1. */
static bool wait_mark(volatile uint32_t *cpu)
{
	for (int i = 0; i < 5000 && cpu[MARK_DW] != 1; i++)
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	return cpu[MARK_DW] == 1;
}

static void hang_beside_spinner(bool full)
{
	set_param("reset", full ? "1" : "2");
	uint32_t good = ctx_create(), bad = ctx_create();
	uint32_t spin = eb_create(f, 4096), junk = eb_create(f, 4096);
	uint32_t dw[1024] = { 0 };
	unsigned n = emit_store(dw, SPIN_ADDR + MARK_DW * 4, 1);
	emit_spin_loop(dw + n, SPIN_ADDR + n * 4, SPIN_ADDR + COND_DW * 4, 8);
	dw[COND_DW] = 0xffffffff;
	CHECK_EQ(eb_write(f, spin, 0, dw, sizeof(dw)), 0);
	const uint32_t bad_cmds[2] = { 0xffffffff, MI_BATCH_BUFFER_END };
	CHECK_EQ(eb_write(f, junk, 0, bad_cmds, sizeof(bad_cmds)), 0);
	struct drm_i915_gem_mmap m = { .handle = spin, .size = 4096 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m), 0);
	volatile uint32_t *cpu = (uint32_t *)(uintptr_t)m.addr_ptr;
	uint32_t resets0 = stats(0).reset_count;

	struct drm_i915_gem_exec_object2 so = { .handle = spin, .offset = SPIN_ADDR,
						.flags = EXEC_OBJECT_PINNED };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&so, .buffer_count = 1,
		.flags = I915_EXEC_BLT | I915_EXEC_FENCE_OUT, .rsvd1 = good };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	int spin_fence = (int)(eb.rsvd2 >> 32);   /* the out-fence: upper half */
	CHECK(wait_mark(cpu));   /* the spinner has started */
	cpu[MARK_DW] = 0;

	struct drm_i915_gem_exec_object2 jo = { .handle = junk };
	CHECK_EQ(eb_exec(f, &jo, 1, I915_EXEC_RENDER, bad), 0);
	CHECK_EQ(eb_wait(f, junk, 5ll * 1000000000), 0);   /* the hang is reset */
	if (full)
		CHECK(wait_mark(cpu));   /* replayed from its start */
	else {
		nanosleep(&(struct timespec){ .tv_nsec = 300000000 }, NULL);
		CHECK_EQ(cpu[MARK_DW], 0);   /* untouched by an engine reset */
	}
	CHECK(eb_busy(f, spin) != 0);   /* still spinning */
	cpu[COND_DW] = MI_BATCH_BUFFER_END;
	CHECK_EQ(eb_wait(f, spin, 5ll * 1000000000), 0);
	CHECK_EQ(sync_file_status(spin_fence), full ? -EAGAIN : 1);   /* closes it */

	struct drm_i915_reset_stats g = stats(good), b = stats(bad);
	CHECK_EQ(b.batch_active, 1);
	CHECK_EQ(b.batch_pending, 0);
	CHECK_EQ(g.batch_active, 0);
	CHECK_EQ(g.batch_pending, full ? 1 : 0);
	uint32_t want = geteuid() == 0 ? resets0 + (full ? 1 : 0) : 0;
	CHECK_EQ(g.reset_count, want);
	munmap((void *)cpu, 4096);
	eb_close(f, spin);
	eb_close(f, junk);
}

int main(void)
{
	eb_require_async("a spinner beside a hang needs asynchronous engines");
	struct gtsim_device *dev = eb_device(0, 100, 0);
	f = gtsim_open(dev);
	check_getparam();
	hang_beside_spinner(false);
	hang_beside_spinner(true);
	set_param("reset", "2");
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
