/* Linux 6.1's ban policy (gt/intel_reset.c mark_guilty and
 * client_mark_guilty, i915_gem_context_types.h, i915_file_private.h),
 * driven by GPU faults (an unknown command: a hang at once, no hangcheck
 * wait):
 *  - a context is banned at its third hang within 120 s (hang_timestamp[2],
 *    CONTEXT_FAST_HANG_JIFFIES): its execbufs then fail with -EIO;
 *  - a context made non-bannable (I915_CONTEXT_PARAM_BANNABLE = 0) is never
 *    banned, however often it hangs;
 *  - a non-recoverable context (I915_CONTEXT_PARAM_RECOVERABLE = 0) is
 *    banned at its first hang;
 *  - the file scores 3 per banned context and 1 per hang within 60 s of its
 *    previous one; at 9 CONTEXT_CREATE fails with -EIO (client_is_banned),
 *    while its existing good contexts still execute. */
#include <stdlib.h>
#include <unistd.h>

#include "eb_test.h"

static struct gtsim_file *f;
static uint32_t fault_bb, nop_bb;

static int exec_bb(uint32_t bb, uint32_t ctx)
{
	struct drm_i915_gem_exec_object2 o = { .handle = bb };
	return eb_exec(f, &o, 1, 0, ctx);
}

/* One hang of ctx (returns execbuf's result; waits for the reset). */
static int hang(uint32_t ctx)
{
	int ret = exec_bb(fault_bb, ctx);
	if (!ret)
		CHECK_EQ(eb_wait(f, fault_bb, 5ll * 1000000000), 0);
	return ret;
}

static unsigned guilty(uint32_t ctx)
{
	struct drm_i915_reset_stats rs = { .ctx_id = ctx };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	return rs.batch_active;
}

static void set_param(uint32_t ctx, uint64_t param, uint64_t value)
{
	struct drm_i915_gem_context_param p = { .ctx_id = ctx, .param = param, .value = value };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &p), 0);
}

int main(void)
{
	struct gtsim_device *dev = eb_device(0, 100, 0);
	f = gtsim_open(dev);
	fault_bb = eb_create(f, 4096);
	nop_bb = eb_create(f, 4096);
	const uint32_t junk[2] = { 0xffffffff, MI_BATCH_BUFFER_END };
	const uint32_t nop[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	CHECK_EQ(eb_write(f, fault_bb, 0, junk, sizeof(junk)), 0);
	CHECK_EQ(eb_write(f, nop_bb, 0, nop, sizeof(nop)), 0);

	/* Not bannable: five hangs, still executing. mark_guilty returns
	 * before client_mark_guilty for it: the file's score stays 0. */
	uint32_t cool = eb_context_create(f);
	set_param(cool, I915_CONTEXT_PARAM_BANNABLE, 0);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(hang(cool), 0);
	CHECK_EQ(guilty(cool), 5);
	CHECK_EQ(exec_bb(nop_bb, cool), 0);

	/* Third hang within 120 s bans; the first two do not. */
	uint32_t bad = eb_context_create(f), good = eb_context_create(f);
	CHECK_EQ(hang(bad), 0);                  /* file score 0 (first) */
	CHECK_EQ(hang(bad), 0);                  /* +1 = 1 */
	CHECK_EQ(exec_bb(nop_bb, bad), 0);
	CHECK_EQ(eb_wait(f, nop_bb, 5ll * 1000000000), 0);
	CHECK_EQ(hang(bad), 0);                  /* banned: +1 +3 = 5 */
	CHECK_EQ(guilty(bad), 3);
	CHECK_EQ(exec_bb(nop_bb, bad), -EIO);
	CHECK_EQ(exec_bb(nop_bb, good), 0);

	/* Not recoverable: banned at its first hang. */
	uint32_t fragile = eb_context_create(f);
	set_param(fragile, I915_CONTEXT_PARAM_RECOVERABLE, 0);
	CHECK_EQ(hang(fragile), 0);              /* +1 +3 = 9: file banned */
	CHECK_EQ(guilty(fragile), 1);
	CHECK_EQ(exec_bb(nop_bb, fragile), -EIO);

	/* The file is banned from creating contexts; the others still run. */
	struct drm_i915_gem_context_create c = { 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c), -EIO);
	CHECK_EQ(exec_bb(nop_bb, good), 0);
	CHECK_EQ(exec_bb(nop_bb, 0), 0);
	CHECK_EQ(eb_wait(f, nop_bb, 5ll * 1000000000), 0);

	/* Another file of the device is not affected. */
	struct gtsim_file *f2 = gtsim_open(dev);
	CHECK_EQ(gtsim_ioctl(f2, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c), 0);
	gtsim_close(f2);

	char path[512];
	gtsim_error_state_path(path, sizeof(path), NULL);
	unlink(path);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
