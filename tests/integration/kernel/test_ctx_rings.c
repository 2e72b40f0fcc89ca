/* Per-context rings, as i915 6.1 has them on execlists (Gen8/9): each
 * context has a ring of its own on each engine (intel_context->ring,
 * SZ_16K: gem/i915_gem_context.c intel_context_set_gem), described by the
 * RING_HEAD/TAIL/START/CTL dwords of its context image, which the engine
 * loads when it runs the context.
 *
 * - Context A's batch holds the engine (MI_SEMAPHORE_WAIT on a CPU-written
 *   dword). While it runs, the engine's RING_START is A's image's
 *   RING_BUFFER_START value and RING_CTL is 16 KiB, enabled: PRM Buffer
 *   Length (bits 20:12) = 16384 / 4096 - 1 = 3, Ring Buffer Enable (bit 0)
 *   = 1, so 0x3001. The image dwords are at the PRM's Register State
 *   Context places (BDW PRM vol. 7, execlist context: LRI pairs RING_HEAD
 *   0x2034 at dword 4, RING_TAIL 0x2030 at 6, RING_BUFFER_START 0x2038 at
 *   8, RING_BUFFER_CONTROL 0x203c at 10, each value after its register).
 *   A's ring holds the MI_BATCH_BUFFER_START (PPGTT) of A's batch.
 * - A keeps submitting store batches until its ring is full: execbuf waits
 *   for room (i915's eb_throttle on ce->ring), and a 1 ms SIGALRM ends the
 *   wait with -EINTR (eb_pin_timeline), with nothing submitted: no
 *   out-fence, and the interrupted batch's store never lands. Each
 *   request takes 56 bytes (see kernel-execbuf_throttle), so the wait
 *   starts after about (16384 - 64 - 4096) / 56 = 218 of them.
 * - Meanwhile context B's execbuf does not wait (its ring is empty), with
 *   the same alarm running: it returns 0. With one ring per engine it
 *   waited for A's and got -EINTR.
 * - Once A is released everything runs: B's store lands, each of A's
 *   stores k holds k + 1; B's image has a ring of its own, which the
 *   engine has loaded last; A's saved HEAD equals its TAIL (drained).
 * - I915_CONTEXT_PARAM_RINGSIZE: Linux 5.15 removed it (i915 6.1's
 *   ctx_setparam, set_proto_ctx_param and getparam all answer -EINVAL),
 *   as IGT 1.27.1's gem_ctx_param invalid-set/get-ringsize expect: set
 *   0, 1000, 16 KiB and 1 MiB, get, and CONTEXT_CREATE_EXT_SETPARAM. */
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include "eb_test.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/lrc.h"
#include "kernel/request.h"

#define SEMA_ADDR 0x100000ull
#define HELD_ADDR 0x200000ull
#define OUT_ADDR 0x300000ull
#define STORES_ADDR 0x400000ull
#define NSTORES 700
#define SUB_BYTES 24          /* MI_STORE_DWORD_IMM (4), BB_END, NOOP */
#define B_DWORD 1000
#define RCS_BASE 0x2000u
#define RING_CTL_16K 0x3001u  /* Buffer Length 3 (bits 20:12), enable */

static volatile sig_atomic_t alarms;
static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* The host view of ctx's image's ring state dwords on the render engine
 * (where gtsim keeps them in the slot: LRC_RING_STATE_OFFSET); the dword
 * numbers checked are the PRM's. */
static volatile uint32_t *ring_state(struct gtsim_device *dev, struct gtsim_file *f, uint32_t id)
{
	volatile uint32_t *st = NULL;
	pthread_mutex_lock(&dev->lock);
	struct gem_context *ctx = ctx_lookup(f, id);
	if (ctx && ctx->lrc_slot[ENGINE_RCS])
		st = lrc_slot_dword(&dev->requests->engine[ENGINE_RCS],
				    ctx->lrc_slot[ENGINE_RCS], LRC_RING_STATE_OFFSET);
	ctx_put(ctx);
	pthread_mutex_unlock(&dev->lock);
	return st;
}

static void check_state_layout(volatile uint32_t *st)
{
	CHECK_EQ(st[4], RCS_BASE + 0x34);
	CHECK_EQ(st[6], RCS_BASE + 0x30);
	CHECK_EQ(st[8], RCS_BASE + 0x38);
	CHECK_EQ(st[10], RCS_BASE + 0x3c);
	CHECK_EQ(st[11], RING_CTL_16K);
	CHECK_EQ(st[9] & 0xfff, 0);
}

static int exec_store(struct gtsim_file *f, uint32_t ctx, uint32_t out, uint32_t stores,
		      unsigned k, uint64_t *rsvd2)
{
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = out, .offset = OUT_ADDR, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = stores, .offset = STORES_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)o, .buffer_count = 2, .rsvd1 = ctx,
		.flags = I915_EXEC_RENDER | I915_EXEC_FENCE_OUT,
		.batch_start_offset = k * SUB_BYTES,
	};
	int err = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
	*rsvd2 = eb.rsvd2;
	if (!err)
		close((int)(eb.rsvd2 >> 32));
	return err;
}

static void test_rings(void)
{
	struct gtsim_device *dev = eb_device(0, 60000, 0);
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t sema = eb_create(f, 4096), held = eb_create(f, 4096);
	uint32_t out = eb_create(f, 4096), stores = eb_create(f, 20480);
	uint32_t a = eb_context_create(f), b = eb_context_create(f);
	volatile uint32_t *sema_map = eb_cpu_map(f, sema);
	CHECK(sema_map != NULL);
	if (!sema_map)
		return;

	uint32_t dw[NSTORES * SUB_BYTES / 4] = { 0 };
	unsigned n = emit_semaphore_wait(dw, SEMA_ADDR, 1);
	dw[n++] = MI_BATCH_BUFFER_END;
	CHECK_EQ(eb_write(f, held, 0, dw, n * 4), 0);
	/* sub-batch k: out[k] <- k + 1; B's (the last one): out[B_DWORD] <- 0xb */
	for (unsigned k = 0; k < NSTORES; k++) {
		uint32_t *s = &dw[k * SUB_BYTES / 4];
		bool bs = k == NSTORES - 1;
		emit_store(s, OUT_ADDR + 4 * (bs ? B_DWORD : k), bs ? 0xb : k + 1);
		s[4] = MI_BATCH_BUFFER_END;
		s[5] = MI_NOOP;
	}
	CHECK_EQ(eb_write(f, stores, 0, dw, sizeof(dw)), 0);

	struct drm_i915_gem_exec_object2 ho[2] = {
		{ .handle = sema, .offset = SEMA_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = held, .offset = HELD_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, ho, 2, I915_EXEC_RENDER, a), 0);
	eb_sleep_ms(100);
	CHECK(eb_busy(f, held) != 0);

	/* A runs: the engine has A's ring loaded, as its image says. */
	volatile uint32_t *sa = ring_state(dev, f, a);
	CHECK(sa != NULL);
	if (!sa)
		return;
	check_state_layout(sa);
	uint32_t start_a = gtsim_mmio_read(dev, RCS_BASE + 0x38);
	CHECK_EQ(gtsim_mmio_read(dev, RCS_BASE + 0x3c), RING_CTL_16K);
	CHECK_EQ(sa[9], start_a);
	/* A's ring holds its batch's MI_BATCH_BUFFER_START (PPGTT, 48-bit). */
	pthread_mutex_lock(&dev->lock);
	struct gem_context *ca = ctx_lookup(f, a);
	const struct ctx_ring *ra = lrc_slot_ring(&dev->requests->engine[ENGINE_RCS],
						  ca->lrc_slot[ENGINE_RCS]);
	ctx_put(ca);
	pthread_mutex_unlock(&dev->lock);
	CHECK_EQ(ra->ggtt, start_a);
	bool found = false;
	for (unsigned i = 0; i + 2 < ra->size / 4 && !found; i++)
		found = ra->map[i] == (MI_BATCH_BUFFER_START_GEN8 | MI_BB_START_PPGTT) &&
			ra->map[i + 1] == (uint32_t)HELD_ADDR && ra->map[i + 2] == 0;
	CHECK(found);

	/* Fill A's ring; the alarm ends the wait for room. */
	struct sigaction sig = { .sa_handler = on_alarm }, old;
	sigemptyset(&sig.sa_mask);
	sigaction(SIGALRM, &sig, &old);
	struct itimerval itv = { { 0, 1000 }, { 0, 10000 } };
	setitimer(ITIMER_REAL, &itv, NULL);
	unsigned count = 0;
	uint64_t rsvd2 = 0;
	int err = 0;
	while (count < NSTORES - 1 && !(err = exec_store(f, a, out, stores, count, &rsvd2)))
		count++;
	fprintf(stderr, "context A: %u execbufs, then %d (%d alarms)\n", count, err, (int)alarms);
	CHECK_EQ(err, -EINTR);
	CHECK_EQ(rsvd2 >> 32, 0);           /* no out-fence made */
	CHECK(count > 200 && count < 240);
	/* B's ring is its own: no wait, whatever the alarm. */
	CHECK_EQ(exec_store(f, b, out, stores, NSTORES - 1, &rsvd2), 0);
	/* A's is still full. */
	CHECK_EQ(exec_store(f, a, out, stores, count, &rsvd2), -EINTR);
	memset(&itv, 0, sizeof(itv));
	setitimer(ITIMER_REAL, &itv, NULL);
	sigaction(SIGALRM, &old, NULL);

	sema_map[0] = 1;
	CHECK_EQ(eb_wait(f, out, 10000000000ll), 0);
	uint32_t res[B_DWORD + 1];
	CHECK_EQ(eb_read(f, out, 0, res, sizeof(res)), 0);
	unsigned bad = 0;
	for (unsigned k = 0; k < count; k++)
		bad += res[k] != k + 1;
	CHECK_EQ(bad, 0);
	CHECK_EQ(res[count], 0);            /* the interrupted one never ran */
	CHECK_EQ(res[B_DWORD], 0xb);

	/* B has a ring of its own, loaded last; A's image was saved drained. */
	volatile uint32_t *sb = ring_state(dev, f, b);
	CHECK(sb != NULL);
	if (sb) {
		check_state_layout(sb);
		CHECK(sb[9] != sa[9]);
		CHECK_EQ(gtsim_mmio_read(dev, RCS_BASE + 0x38), sb[9]);
		CHECK_EQ(gtsim_mmio_read(dev, RCS_BASE + 0x30), sb[7]);
	}
	CHECK_EQ(sa[5], sa[7]);
	CHECK(sa[7] != 0);
	gtsim_close(f);
	gtsim_device_destroy(dev);
}

static int set_ringsize(struct gtsim_file *f, uint32_t ctx, uint64_t value)
{
	struct drm_i915_gem_context_param p = { .ctx_id = ctx,
		.param = I915_CONTEXT_PARAM_RINGSIZE, .value = value };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &p);
}

static void test_ringsize_param(void)
{
	struct gtsim_device *dev = eb_device(0, 10000, 0);
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t ctx = eb_context_create(f);
	const uint64_t sizes[] = { 0, 1000, 16384, 1u << 20 };
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		CHECK_EQ(set_ringsize(f, ctx, sizes[i]), -EINVAL);
		CHECK_EQ(set_ringsize(f, 0, sizes[i]), -EINVAL);
	}
	struct drm_i915_gem_context_param p = { .ctx_id = ctx, .param = I915_CONTEXT_PARAM_RINGSIZE };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &p), -EINVAL);
	struct drm_i915_gem_context_create_ext_setparam ext = {
		.base.name = I915_CONTEXT_CREATE_EXT_SETPARAM,
		.param = { .param = I915_CONTEXT_PARAM_RINGSIZE, .value = 16384 },
	};
	struct drm_i915_gem_context_create_ext ce = {
		.flags = I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS, .extensions = (uintptr_t)&ext,
	};
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, &ce), -EINVAL);
	gtsim_close(f);
	gtsim_device_destroy(dev);
}

int main(void)
{
	test_ringsize_param();
	eb_require_async("a batch held by MI_SEMAPHORE_WAIT needs asynchronous engines");
	test_rings();
	return test_exit();
}
