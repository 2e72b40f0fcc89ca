/* Waits for another engine's request on the GPU, as i915 6.1 does on
 * execlists (i915_request.c emit_semaphore_wait; I915_SCHEDULER_CAP_SEMAPHORES):
 * the waiter goes to its engine as soon as the signaler has started, and
 * waits in its ring on MI_SEMAPHORE_WAIT (poll mode, SAD >= SDD) for the
 * signaler's timeline seqno; only for a waiter whose context has
 * priority >= I915_PRIORITY_NORMAL (0) on an engine with timeslices (not
 * BDW's render engine, which cannot preempt); the wait is an arbitration
 * point, so the waiter is timesliced. Observable from userspace:
 *  - the waiter W has started: a store Y with I915_EXEC_FENCE_SUBMIT of
 *    W's fence lands while W's signaler S still spins (without the
 *    semaphore, W is held back off the GPU and Y waits for S's end);
 *  - W itself lands only after S ends;
 *  - W spins at an arbitration point: a store Z of another context on
 *    W's engine lands meanwhile (timeslicing), and no hang is declared
 *    although W waits longer than hangcheck_ms;
 *  - the trace shows W's engine polling with compare 1 (SAD >= SDD) for
 *    value 1 (S is the first request of its context's timeline);
 *  - a waiter at priority -1, or on BDW's render engine, waits off the
 *    GPU (Y does not land while S spins); on BDW's blitter it does not.
 * Also implicit waits: W reading an object S writes. */
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "eb_test.h"
#include "trace_capture.h"

#define SPIN_ADDR 0x100000ull
#define COND_DW 1000
#define OBJ_ADDR 0x500000ull

static struct gtsim_file *f;

struct job {
	uint32_t target;            /* the object it writes (or the spinner's batch) */
	volatile uint32_t *map;     /* its CPU map */
	int fence;                  /* out-fence */
};

/* execbuf in ctx on ring of {extra (read, if any), target (written), bb}
 * with flags and in-fence; returns the out-fence. */
static int submit(uint32_t ctx, uint64_t ring, uint32_t extra, uint32_t target,
		  uint64_t target_addr, uint32_t bb, uint64_t bb_addr, uint64_t flags, int in_fence)
{
	struct drm_i915_gem_exec_object2 o[3];
	unsigned n = 0;
	if (extra)
		o[n++] = (struct drm_i915_gem_exec_object2){ .handle = extra, .offset = OBJ_ADDR,
							     .flags = EXEC_OBJECT_PINNED };
	o[n++] = (struct drm_i915_gem_exec_object2){ .handle = target, .offset = target_addr,
		.flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE };
	o[n++] = (struct drm_i915_gem_exec_object2){ .handle = bb, .offset = bb_addr,
						     .flags = EXEC_OBJECT_PINNED };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o, .buffer_count = n,
		.flags = ring | flags | I915_EXEC_FENCE_OUT, .rsvd1 = ctx,
		.rsvd2 = in_fence >= 0 ? (uint32_t)in_fence : 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
	return (int)(eb.rsvd2 >> 32);
}

/* A spinner on ring (context 0) writing obj (if any) at OBJ_ADDR. */
static struct job spin(uint64_t ring, uint32_t obj)
{
	uint32_t dw[COND_DW + 1] = { 0 };
	emit_spin_loop(dw, SPIN_ADDR, SPIN_ADDR + COND_DW * 4, 4);
	dw[COND_DW] = 0xffffffff;
	struct job j = { .target = eb_create(f, 8192) };
	CHECK_EQ(eb_write(f, j.target, 0, dw, sizeof(dw)), 0);
	j.map = eb_cpu_map(f, j.target);
	if (obj) {
		struct drm_i915_gem_exec_object2 o[2] = {
			{ .handle = obj, .offset = OBJ_ADDR,
			  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
			{ .handle = j.target, .offset = SPIN_ADDR, .flags = EXEC_OBJECT_PINNED },
		};
		struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)o,
			.buffer_count = 2, .flags = ring | I915_EXEC_FENCE_OUT };
		CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
		j.fence = (int)(eb.rsvd2 >> 32);
	} else {
		struct drm_i915_gem_exec_object2 o = { .handle = j.target, .offset = SPIN_ADDR,
						       .flags = EXEC_OBJECT_PINNED };
		struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&o,
			.buffer_count = 1, .flags = ring | I915_EXEC_FENCE_OUT };
		CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
		j.fence = (int)(eb.rsvd2 >> 32);
	}
	eb_sleep_ms(20);
	CHECK(eb_busy(f, j.target) != 0);
	return j;
}

static void spin_end(struct job *s)
{
	s->map[COND_DW] = MI_BATCH_BUFFER_END;
	CHECK_EQ(eb_wait(f, s->target, 5000000000ll), 0);
	close(s->fence);
}

/* A store of value in ctx on ring after in_fence (flag: FENCE_IN or
 * FENCE_SUBMIT), reading extra if not 0. */
static struct job store(uint32_t ctx, uint64_t ring, uint64_t flag, int in_fence,
			uint32_t extra, uint32_t value)
{
	static unsigned k;   /* addresses of its own: nothing is evicted */
	uint64_t at = 0x1000000 + 0x20000ull * k++;
	uint32_t dw[8];
	unsigned n = emit_store(dw, at, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	uint32_t bb = eb_create(f, 4096);
	CHECK_EQ(eb_write(f, bb, 0, dw, n * 4), 0);
	struct job j = { .target = eb_create(f, 4096) };
	j.map = eb_cpu_map(f, j.target);
	j.fence = submit(ctx, ring, extra, j.target, at, bb, at + 0x10000, flag, in_fence);
	eb_close(f, bb);
	return j;
}

static unsigned count(const char *text, const char *needle)
{
	unsigned n = 0;
	for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

static struct gtsim_device *open_device(const char *name, unsigned hangcheck_ms)
{
	struct gtsim_config cfg = { .device = name, .hangcheck_ms = hangcheck_ms };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	f = gtsim_open(dev);
	/* no heartbeat pulses: only the batches of the test contend */
	for (const char *e = "rcs0\0bcs0\0vcs0\0"; *e; e += strlen(e) + 1)
		CHECK_EQ(gtsim_engine_file_write(dev, e, "heartbeat_interval_ms", "1000000", 7), 0);
	return dev;
}

static void skl(void)
{
	char path[] = "/tmp/gtsim-sema-XXXXXX";
	static char text[1 << 16];
	CHECK_EQ(trace_capture_start(path, "cs"), 0);
	struct gtsim_device *dev = open_device("skl", 300);
	uint32_t ctx_a = eb_context_create(f), ctx_b = eb_context_create(f);

	/* explicit: W on BCS after S on RCS */
	struct job s = spin(I915_EXEC_RENDER, 0);
	struct job w = store(ctx_a, I915_EXEC_BLT, I915_EXEC_FENCE_IN, s.fence, 0, 0x11);
	struct job y = store(0, I915_EXEC_BSD, I915_EXEC_FENCE_SUBMIT, w.fence, 0, 0x22);
	CHECK(eb_lands(y.map, 0x22, 2000));           /* W started */
	struct job z = store(ctx_b, I915_EXEC_BLT, 0, -1, 0, 0x33);
	CHECK(eb_lands(z.map, 0x33, 2000));           /* W timesliced at its wait */
	eb_sleep_ms(2000);   /* several hangcheck_ms of GPU time: no hang */
	CHECK_EQ(*w.map, 0u);
	CHECK(eb_busy(f, s.target) != 0);
	spin_end(&s);
	CHECK_EQ(eb_wait(f, w.target, 5000000000ll), 0);
	CHECK_EQ(*w.map, 0x11u);
	char *err = gtsim_error_state(dev);
	CHECK(err == NULL);
	free(err);

	/* implicit: W reads an object S writes */
	uint32_t obj = eb_create(f, 4096);
	s = spin(I915_EXEC_RENDER, obj);
	w = store(ctx_a, I915_EXEC_BLT, 0, -1, obj, 0x44);
	y = store(0, I915_EXEC_BSD, I915_EXEC_FENCE_SUBMIT, w.fence, 0, 0x55);
	CHECK(eb_lands(y.map, 0x55, 2000));
	CHECK(!eb_lands(w.map, 0x44, 100));
	spin_end(&s);
	CHECK_EQ(eb_wait(f, w.target, 5000000000ll), 0);
	CHECK_EQ(*w.map, 0x44u);

	/* priority -1: no semaphore, W held back until S completes */
	uint32_t ctx_low = eb_context_priority(f, -1);
	s = spin(I915_EXEC_RENDER, 0);
	w = store(ctx_low, I915_EXEC_BLT, I915_EXEC_FENCE_IN, s.fence, 0, 0x66);
	y = store(0, I915_EXEC_BSD, I915_EXEC_FENCE_SUBMIT, w.fence, 0, 0x77);
	CHECK(!eb_lands(y.map, 0x77, 300));
	spin_end(&s);
	CHECK(eb_lands(y.map, 0x77, 5000));
	CHECK(eb_lands(w.map, 0x66, 5000));

	gtsim_close(f);
	gtsim_device_destroy(dev);
	/* the trace is long (the spinners' commands): its semaphore lines */
	fflush(trace_stream());
	FILE *in = fopen(path, "r");
	CHECK(in != NULL);
	char line[512];
	size_t len = 0;
	while (in && fgets(line, sizeof(line), in))
		if (strstr(line, "bcs0: semaphore wait") && len + strlen(line) < sizeof(text)) {
			strcpy(text + len, line);
			len += strlen(line);
		}
	if (in)
		fclose(in);
	unlink(path);
	/* the two priority-0 waiters polled the timeline of S's context on
	 * RCS (context 0) with compare 1 for its seqnos 1 and 2, the first
	 * again after its timeslice; none for the priority -1 waiter */
	CHECK(strstr(text, "vs 0x1, op 1)") != NULL);
	CHECK(strstr(text, "vs 0x2, op 1)") != NULL);
	CHECK_EQ(count(text, "op 1)"), count(text, "vs 0x1, op 1)") + count(text, "vs 0x2, op 1)"));
	CHECK(strstr(text, "vs 0x3") == NULL);
}

static void bdw(void)
{
	struct gtsim_device *dev = open_device("bdw", 60000);
	/* the blitter can preempt: W there waits on the GPU */
	struct job s = spin(I915_EXEC_RENDER, 0);
	struct job w = store(0, I915_EXEC_BLT, I915_EXEC_FENCE_IN, s.fence, 0, 0x11);
	struct job y = store(0, I915_EXEC_BSD, I915_EXEC_FENCE_SUBMIT, w.fence, 0, 0x22);
	CHECK(eb_lands(y.map, 0x22, 2000));
	CHECK_EQ(*w.map, 0u);
	spin_end(&s);
	CHECK(eb_lands(w.map, 0x11, 5000));
	/* the render engine cannot: W there is held back */
	s = spin(I915_EXEC_BLT, 0);
	w = store(0, I915_EXEC_RENDER, I915_EXEC_FENCE_IN, s.fence, 0, 0x33);
	y = store(0, I915_EXEC_BSD, I915_EXEC_FENCE_SUBMIT, w.fence, 0, 0x44);
	CHECK(!eb_lands(y.map, 0x44, 300));
	spin_end(&s);
	CHECK(eb_lands(y.map, 0x44, 5000));
	CHECK(eb_lands(w.map, 0x33, 5000));
	gtsim_close(f);
	gtsim_device_destroy(dev);
}

int main(void)
{
	eb_require_async("a spinner runs beside the waiter");
	skl();
	bdw();
	return test_exit();
}
