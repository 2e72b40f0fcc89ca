/* Context persistence and its cancellation at close (i915_gem_context.c,
 * Linux 6.1):
 *   - PERSISTENCE defaults to i915.enable_hangcheck (proto_context_create);
 *   - setting it needs size 0 (-EINVAL), persistence on needs hangcheck
 *     (-EINVAL), off needs the scheduler's preemption capability (-ENODEV
 *     on BDW, whose render engine cannot preempt; accepted on SKL);
 *   - closing a context that is not persistent, or any with hangcheck
 *     off, cancels its requests (kill_context): the executing one is
 *     reset, the ones behind it are skipped, their fences signal with
 *     -EIO at once, and another context's request behind them runs.
 * IGT gem_userptr_blits nohangcheck expects this within its 1 s wait. */
#include <linux/sync_file.h>
#include <poll.h>
#include <unistd.h>

#include "eb_test.h"
#include "kernel/params.h"

static int getp(struct gtsim_file *f, uint32_t ctx, uint64_t *value)
{
	struct drm_i915_gem_context_param p = { .ctx_id = ctx,
		.param = I915_CONTEXT_PARAM_PERSISTENCE };
	int r = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &p);
	*value = p.value;
	return r;
}

static int setp(struct gtsim_file *f, uint32_t ctx, uint64_t value, uint32_t size)
{
	struct drm_i915_gem_context_param p = { .ctx_id = ctx, .size = size,
		.param = I915_CONTEXT_PARAM_PERSISTENCE, .value = value };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &p);
}

int main(void)
{
	struct gtsim_device *dev = eb_device(0, 10000, 0);
	struct gtsim_file *f = gtsim_open(dev);
	uint64_t v = 7;

	/* hangcheck on: persistent by default; on again is fine, off is
	 * -ENODEV (no preemption capability); a size is -EINVAL. */
	uint32_t a = eb_context_create(f);
	CHECK_EQ(getp(f, a, &v), 0);
	CHECK_EQ(v, 1);
	CHECK_EQ(setp(f, a, 1, 0), 0);
	CHECK_EQ(setp(f, a, 0, 0), -ENODEV);
	CHECK_EQ(setp(f, a, 1, 4), -EINVAL);
	struct gtsim_config skl = { .device = "skl", .hangcheck_ms = 10000 };
	struct gtsim_device *dev9 = gtsim_device_create(&skl);
	if (dev9) {
		struct gtsim_file *f9 = gtsim_open(dev9);
		uint32_t a9 = eb_context_create(f9);
		CHECK_EQ(setp(f9, a9, 0, 0), 0);
		CHECK_EQ(getp(f9, a9, &v), 0);
		CHECK_EQ(v, 0);
		gtsim_close(f9);
		gtsim_device_destroy(dev9);
	}

	/* hangcheck off: new contexts are not persistent; persistence on
	 * is -EINVAL. */
	__atomic_store_n(&i915_params.enable_hangcheck, false, __ATOMIC_RELAXED);
	uint32_t b = eb_context_create(f), c = eb_context_create(f);
	CHECK_EQ(getp(f, b, &v), 0);
	CHECK_EQ(v, 0);
	CHECK_EQ(setp(f, b, 1, 0), -EINVAL);
	/* asking for the state a context has succeeds before any check
	 * (__context_set_persistence): b off again on BDW (no preemption),
	 * a on again without hangcheck */
	CHECK_EQ(setp(f, b, 0, 0), 0);
	CHECK_EQ(setp(f, a, 1, 0), 0);

	/* b spins (a batch looping to itself), a second batch of b and then
	 * c's store wait behind it; closing b cancels both of b's. */
	uint32_t spin = eb_create(f, 4096), target = eb_create(f, 4096), store = eb_create(f, 4096);
	const uint32_t loop[4] = { MI_BATCH_BUFFER_START_GEN8 | MI_BB_START_PPGTT, 0x400000, 0,
				   MI_BATCH_BUFFER_END };
	CHECK_EQ(eb_write(f, spin, 0, loop, sizeof(loop)), 0);
	struct drm_i915_gem_exec_object2 so = { .handle = spin, .offset = 0x400000,
						.flags = EXEC_OBJECT_PINNED };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&so, .buffer_count = 1,
		.rsvd1 = b, .flags = I915_EXEC_FENCE_OUT };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	int fence1 = (int)(eb.rsvd2 >> 32);
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	int fence2 = (int)(eb.rsvd2 >> 32);
	uint32_t dw[8];
	unsigned n = emit_store(dw, 0x10000, 0xc0ffee);
	dw[n++] = MI_BATCH_BUFFER_END;
	CHECK_EQ(eb_write(f, store, 0, dw, n * 4), 0);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = target, .offset = 0x10000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = store },
	};
	CHECK_EQ(eb_exec(f, o, 2, 0, c), 0);
	usleep(50000);
	CHECK_EQ(eb_busy(f, spin) != 0, 1);

	struct drm_i915_gem_context_destroy d = { .ctx_id = b };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &d), 0);
	struct pollfd p[2] = { { .fd = fence1, .events = POLLIN }, { .fd = fence2, .events = POLLIN } };
	CHECK_EQ(poll(&p[0], 1, 1000), 1);
	CHECK_EQ(poll(&p[1], 1, 1000), 1);
	struct sync_file_info info1 = { 0 }, info2 = { 0 };
	CHECK_EQ(gtsim_sync_file_ioctl(fence1, SYNC_IOC_FILE_INFO, &info1), 0);
	CHECK_EQ(gtsim_sync_file_ioctl(fence2, SYNC_IOC_FILE_INFO, &info2), 0);
	CHECK_EQ(info1.status, -EIO);
	CHECK_EQ(info2.status, -EIO);
	CHECK_EQ(eb_wait(f, store, 2000000000ll), 0);
	CHECK_EQ(eb_read32(f, target, 0), 0xc0ffee);
	close(fence1);
	close(fence2);

	__atomic_store_n(&i915_params.enable_hangcheck, true, __ATOMIC_RELAXED);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
