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
 *    one too.
 *  - readers pass each other (gem_exec_schedule out-order): LO then HI
 *    both use one object R without writing it (no EXEC_OBJECT_WRITE, as
 *    IGT's store_dword without a write domain): no implicit order, HI
 *    stores first. LO also waits for a second semaphore, so after the
 *    unplug HI's value is in R while LO still waits; R is then busy
 *    (BUSY's RCS read bit) and GEM_WAIT(0) is -ETIME, since LO still
 *    reads it (every reader is tracked, not the last submitted); after
 *    the release R = LO. The old rule (users of one object in
 *    submission order) ran LO first and held HI behind the semaphore.
 *  - promotion (gem_exec_schedule promotion): NOISE (-5) and LO (-10)
 *    store into R after the cork, LO then writes D (EXEC_OBJECT_WRITE),
 *    HI (0) stores into D without declaring a write (it reads D: it must
 *    follow LO's write) and into R. HI lifts LO's chain above NOISE: LO,
 *    LO, HI, HI, NOISE: D = HI, R = NOISE. FIFO leaves R = HI; strict
 *    priority (HI, NOISE, LO) leaves D = LO.
 *  - two ports (i915 on execlists: at most two contexts on the engine,
 *    execlists_dequeue): A (0) waits on a semaphore on RCS itself, B (0)
 *    stores into S, then LO (-10) and MID (-5) store into S, none waiting
 *    for anything. A and B fill the ELSP; LO and MID wait in the queue,
 *    where MID passes LO: A, B, MID, LO; S = LO. Emitting every ready
 *    request into the ring at once (the old rule) ran them in submission
 *    order: S = MID (gem_exec_schedule pi-distinct-iova, pi-shared-iova). */
#include <unistd.h>

#include "eb_test.h"
#include "kernel/device.h"

static struct gtsim_file *f;
static uint32_t sema, sema2, x_obj;
static uint32_t *s_page;
static uint32_t pending[8];   /* the userptr objects of the current round */
static unsigned npending;
enum x_use { X_NONE, X_READ, X_WRITE };
static uint32_t *sema_map, *sema2_map;

#define SEMA_ADDR 0x700000ull
#define S_ADDR 0x100000ull
#define X_ADDR 0x180000ull
#define SEMA2_ADDR 0x740000ull
#define R_ADDR 0x500000ull
#define D_ADDR 0x580000ull

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

/* On RCS, after fence (-1: none), optionally after *SEMA2 == 1: store
 * value into dword 0 of target (at addr, written or only read as the
 * flag says). The batch object goes on pending[]. */
static void store_to(uint32_t ctx, int fence, uint32_t target, uint64_t addr, uint32_t value,
		     bool write, bool wait_sema2)
{
	uint32_t dw[16], bb = eb_create(f, 4096);
	unsigned n = 0;
	if (wait_sema2)
		n += emit_semaphore_wait(dw + n, SEMA2_ADDR, 1);
	n += emit_store(dw + n, addr, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, bb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 o[3] = {
		{ .handle = target, .offset = addr,
		  .flags = EXEC_OBJECT_PINNED | (write ? EXEC_OBJECT_WRITE : 0) },
		{ .handle = sema2, .offset = SEMA2_ADDR, .flags = EXEC_OBJECT_PINNED },
		/* a place of its own: softpinning onto a queued batch would
		 * wait for it (eviction) */
		{ .handle = bb, .offset = 0x800000 + npending * 0x1000ull, .flags = EXEC_OBJECT_PINNED },
	};
	if (!wait_sema2)
		o[1] = o[2];
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o,
		.buffer_count = wait_sema2 ? 3 : 2,
		.flags = I915_EXEC_RENDER | (fence >= 0 ? I915_EXEC_FENCE_IN : 0), .rsvd1 = ctx,
		.rsvd2 = (uint32_t)fence };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	pending[npending++] = bb;
}

static uint32_t unplug(int fence)
{
	usleep(20 * 1000);
	__atomic_store_n(&sema_map[0], 1, __ATOMIC_RELEASE);
	if (fence >= 0)
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
	/* the corks wait on semaphores, which the model does not preempt:
	 * no heartbeat pulse on their engine (it would reset one after its
	 * preempt timeout; the test runs past an interval) */
	CHECK_EQ(gtsim_engine_file_write(dev, "bcs0", "heartbeat_interval_ms", "1000000", 7), 0);
	sema = eb_create(f, 4096);
	s_page = aligned_alloc(4096, 4096);
	x_obj = eb_create(f, 4096);
	sema_map = cpu_map(sema);
	sema2 = eb_create(f, 4096);
	sema2_map = cpu_map(sema2);
	CHECK(sema_map != NULL && sema2_map != NULL);
	if (!sema_map || !sema2_map)
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

	/* readers pass each other; every reader is tracked */
	uint32_t r_obj = eb_create(f, 4096), d_obj = eb_create(f, 4096);
	uint32_t *r_map = cpu_map(r_obj), *d_map = cpu_map(d_obj);
	CHECK(r_map && d_map);
	if (!r_map || !d_map)
		return test_exit();
	sema2_map[0] = 0;
	c = cork();
	store_to(lo, c, r_obj, R_ADDR, 0x16, false, true);
	store_to(hi, c, r_obj, R_ADDR, 0x26, false, false);
	usleep(20 * 1000);
	__atomic_store_n(&sema_map[0], 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 2000 && __atomic_load_n(&r_map[0], __ATOMIC_ACQUIRE) != 0x26; i++)
		usleep(1000);
	CHECK_EQ(__atomic_load_n(&r_map[0], __ATOMIC_ACQUIRE), 0x26u);   /* HI first */
	CHECK_EQ(eb_busy(f, r_obj), 1u << 16);   /* LO still reads it, on RCS */
	CHECK_EQ(eb_wait(f, r_obj, 0), -ETIME);
	__atomic_store_n(&sema2_map[0], 1, __ATOMIC_RELEASE);
	CHECK_EQ(eb_wait(f, r_obj, 5000000000ll), 0);
	CHECK_EQ(r_map[0], 0x16u);
	CHECK_EQ(eb_busy(f, r_obj), 0);
	close(c);
	for (unsigned i = 0; i < npending; i++)
		eb_close(f, pending[i]);
	npending = 0;

	/* promotion */
	r_map[0] = d_map[0] = 0;
	c = cork();
	store_to(mid, c, r_obj, R_ADDR, 0x37, false, false);   /* NOISE */
	store_to(lo, c, r_obj, R_ADDR, 0x17, false, false);
	store_to(lo, -1, d_obj, D_ADDR, 0x17, true, false);
	store_to(hi, -1, d_obj, D_ADDR, 0x27, false, false);
	store_to(hi, -1, r_obj, R_ADDR, 0x27, false, false);
	unplug(c);
	CHECK_EQ(eb_wait(f, r_obj, 5000000000ll), 0);
	CHECK_EQ(eb_wait(f, d_obj, 5000000000ll), 0);
	CHECK_EQ(d_map[0], 0x27u);
	CHECK_EQ(r_map[0], 0x37u);

	/* two ports */
	uint32_t a = ctx_with_priority(0);
	sema_map[0] = 0;
	s_page[0] = 0;
	uint32_t dw[8], wait_bb = eb_create(f, 4096);
	unsigned n = emit_semaphore_wait(dw, SEMA_ADDR, 1);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, wait_bb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 wo[2] = {
		{ .handle = sema, .offset = SEMA_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = wait_bb, .offset = 0x900000, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 web = { .buffers_ptr = (uintptr_t)wo, .buffer_count = 2,
						.flags = I915_EXEC_RENDER, .rsvd1 = a };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &web), 0);
	store(hi, -1, 0x29, X_NONE);    /* B */
	store(lo, -1, 0x19, X_NONE);
	store(mid, -1, 0x39, X_NONE);
	CHECK_EQ(unplug(-1), 0x19u);
	CHECK_EQ(eb_wait(f, wait_bb, 5000000000ll), 0);
	eb_close(f, wait_bb);

	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
