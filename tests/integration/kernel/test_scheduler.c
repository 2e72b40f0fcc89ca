/* The request scheduler (kernel/scheduler.c) against i915's documented
 * ordering rules (i915_scheduler.c; IGT gem_exec_schedule's reorder,
 * fifo, promotion tests), outcomes reasoned by hand. Every request on RCS
 * is held back by an in-fence from a BCS batch that waits on a semaphore
 * (the "cork"), so all are queued when the fence signals; each stores its
 * own value into dword 0 of one page S, each through a userptr object of
 * its own over that page (distinct objects: no implicit ordering between
 * them), so S ends with the value of the request that ran last.
 *  - reorder: LO (priority -10) then HI (0): HI runs first, S = LO.
 *    FIFO (no scheduler) would leave HI.
 *  - fifo: two at equal priority: submission order, S = the second.
 *  - write dependency: LO writes X (EXEC_OBJECT_WRITE), then HI reads X:
 *    HI may not pass LO, S = HI.
 *  - inheritance: LO (-10) writes X, MID (-5) is independent, HI (0)
 *    reads X. HI lifts LO above MID: LO, HI, MID; S = MID. FIFO leaves
 *    HI, and a scheduler without inheritance (MID, LO, HI) leaves HI.
 *  - a ready request (no fence) passes a corked one and has run before
 *    the unplug; GEM_WAIT on each request's object waits for the corked
 *    one too (the one-reader-per-engine tracker stays right because
 *    requests sharing an object are never reordered). */
#include <unistd.h>

#include "eb_test.h"
#include "kernel/device.h"

static struct gtsim_file *f;
static uint32_t sema, x_obj;
static uint32_t *s_page;
static uint32_t pending[8];   /* the userptr objects of the current round */
static unsigned npending;
enum x_use { X_NONE, X_READ, X_WRITE };
static uint32_t *sema_map;

#define SEMA_ADDR 0x700000ull
#define S_ADDR 0x100000ull
#define X_ADDR 0x180000ull

static uint32_t *cpu_map(uint32_t handle)
{
	return eb_cpu_map(f, handle);
}

static uint32_t ctx_with_priority(int prio)
{
	uint32_t ctx = eb_context_priority(f, prio);
	CHECK(ctx != 0xffffffff);
	return ctx;
}

/* The cork: a BCS batch waiting for *SEMA == 1; returns its out-fence. */
static int cork(void)
{
	uint32_t dw[8], bb = eb_create(f, 4096);
	unsigned n = emit_semaphore_wait(dw, SEMA_ADDR, 1);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, bb, 0, dw, n * 4);
	sema_map[0] = 0;
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = sema, .offset = SEMA_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = bb, .offset = 0x200000, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o, .buffer_count = 2,
		.flags = I915_EXEC_BLT | I915_EXEC_FENCE_OUT };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	eb_close(f, bb);
	return (int)(eb.rsvd2 >> 32);
}

/* On RCS after the cork: store value into S; X read, or written. */
static void store(uint32_t ctx, int fence, uint32_t value, enum x_use x)
{
	uint32_t dw[8], bb = eb_create(f, 4096), s_obj;
	struct drm_i915_gem_userptr u = { .user_ptr = (uintptr_t)s_page, .user_size = 4096 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_USERPTR, &u), 0);
	s_obj = u.handle;
	unsigned n = emit_store(dw, S_ADDR, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, bb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 o[3] = {
		{ .handle = s_obj, .offset = S_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = x_obj, .offset = X_ADDR,
		  .flags = EXEC_OBJECT_PINNED | (x == X_WRITE ? EXEC_OBJECT_WRITE : 0) },
		{ .handle = bb, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED },
	};
	if (x == X_NONE)
		o[1] = o[2];   /* the batch last */
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o,
		.buffer_count = x == X_NONE ? 2 : 3,
		.flags = I915_EXEC_RENDER | (fence >= 0 ? I915_EXEC_FENCE_IN : 0), .rsvd1 = ctx,
		.rsvd2 = (uint32_t)fence };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	eb_close(f, bb);
	pending[npending++] = s_obj;
}

static uint32_t unplug(int fence)
{
	usleep(20 * 1000);
	__atomic_store_n(&sema_map[0], 1, __ATOMIC_RELEASE);
	close(fence);
	for (unsigned i = 0; i < npending; i++) {
		CHECK_EQ(eb_wait(f, pending[i], 5000000000ll), 0);
		eb_close(f, pending[i]);
	}
	npending = 0;
	return __atomic_load_n(&s_page[0], __ATOMIC_ACQUIRE);
}

int main(void)
{
	eb_require_async("corked requests need asynchronous engines");
	struct gtsim_device *dev = eb_device(0, 5000, 0);
	f = gtsim_open(dev);
	sema = eb_create(f, 4096);
	s_page = aligned_alloc(4096, 4096);
	x_obj = eb_create(f, 4096);
	sema_map = cpu_map(sema);
	CHECK(sema_map != NULL);
	if (!sema_map)
		return test_exit();
	uint32_t lo = ctx_with_priority(-10), mid = ctx_with_priority(-5);
	uint32_t hi = ctx_with_priority(0), lo2 = ctx_with_priority(-10);

	int c = cork();
	store(lo, c, 0x10, X_NONE);
	store(hi, c, 0x20, X_NONE);
	CHECK_EQ(unplug(c), 0x10u);              /* reorder */

	c = cork();
	store(lo, c, 0x11, X_NONE);
	store(lo2, c, 0x12, X_NONE);
	CHECK_EQ(unplug(c), 0x12u);              /* fifo */

	c = cork();
	store(lo, c, 0x13, X_WRITE);
	store(hi, c, 0x23, X_READ);
	CHECK_EQ(unplug(c), 0x23u);              /* write dependency */

	c = cork();
	store(lo, c, 0x14, X_WRITE);
	store(mid, c, 0x34, X_NONE);
	store(hi, c, 0x24, X_READ);
	CHECK_EQ(unplug(c), 0x34u);              /* inheritance */

	/* a ready request passes a corked one: it runs before the unplug */
	c = cork();
	store(lo, c, 0x15, X_NONE);
	store(hi, -1, 0x25, X_NONE);
	usleep(200 * 1000);
	CHECK_EQ(__atomic_load_n(&s_page[0], __ATOMIC_ACQUIRE), 0x25u);
	CHECK_EQ(unplug(c), 0x15u);

	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
