/* RING_CTX_TIMESTAMP (engine base + 0x3a8), read by a batch with
 * MI_STORE_REGISTER_MEM as IGT's gem_exec_schedule read_ctx_timestamp
 * does. The rule (BDW/SKL PRM vol. 7 "Register State Context"; i915
 * intel_lrc.c init_common_regs and lrc_update_runtime): the register
 * counts, in CS timestamp ticks (12.5 MHz on BDW, 12 MHz on SKL: the PRM's
 * 80 ns and 83.333 ns TIMESTAMP increments), the time the current context
 * has run on the engine; it is saved in the context image at a switch away
 * and loaded back at a switch in, and a new context's image holds 0.
 * Oracles: the host's monotonic clock around waits the test controls,
 * converted with those rates by hand, and RING_TIMESTAMP (0x2358) read in
 * the same batch.
 *  - A (new) reads it, polls a semaphore the CPU releases 30 ms after it
 *    saw the read done,
 *    reads it again: the second value exceeds the first by at least
 *    30 ms of ticks, and by no more than the host time the batch took.
 *  - B (new, after A) reads it and RING_TIMESTAMP, waits 200 ms the same
 *    way, reads both again: B starts near 0 (not at A's 30 ms: without
 *    the image B inherits A's count), and advances as RING_TIMESTAMP does.
 *  - A reads it once more: at least its last value (restored, monotonic)
 *    and much less than B's 200 ms later (B's time is not A's).
 *  - A reads it again after the engine idled 100 ms: it grew by less
 *    than 10 ms (an idle context is switched out; idle time is nobody's).
 *  - SKL only (the render engine timeslices equal priorities, 1 ms): A
 *    and B run the same spinning batch, as gem_exec_schedule fairslice
 *    does; after 400 ms the CPU ends it and each context reads its
 *    counter: each grew by a share of the 400 ms (more than 1/5 of it,
 *    as 1 ms slices alternate), and both together by no more than the
 *    host time the engine had. */
#include <stdio.h>
#include <time.h>

#include "eb_test.h"

#define RCS_CTX_TIMESTAMP 0x23a8u
#define RCS_TIMESTAMP 0x2358u

#define RESULT_ADDR 0x200000ull
#define FLAG_ADDR 0x300000ull
#define BATCH_ADDR 0x400000ull
#define SPIN_ADDR 0x500000ull
#define COND_DW 1022

static struct gtsim_device *dev;
static struct gtsim_file *f;
static uint32_t result, flag;
static volatile uint32_t *res_cpu, *flag_cpu;
static double hz;    /* TIMESTAMP ticks per second */

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(int ms)
{
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000L }, NULL);
}

static double ticks(double ns)
{
	return ns * hz / 1e9;
}

/* Submit dw (n dwords) in ctx on the render ring, with the result and
 * flag objects pinned; returns the batch (wait on it, then close it). */
static uint32_t submit(const uint32_t *dw, unsigned n, uint32_t ctx)
{
	uint32_t bb = eb_create(f, 4096);
	CHECK_EQ(eb_write(f, bb, 0, dw, n * 4), 0);
	struct drm_i915_gem_exec_object2 o[3] = {
		{ .handle = result, .offset = RESULT_ADDR, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = flag, .offset = FLAG_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = bb, .offset = BATCH_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, o, 3, I915_EXEC_RENDER, ctx), 0);
	return bb;
}

static void finish(uint32_t bb)
{
	CHECK_EQ(eb_wait(f, bb, 10ll * 1000000000), 0);
	eb_close(f, bb);
}

/* SRMs of CTX_TIMESTAMP into result dword i and, unless ts < 0,
 * RING_TIMESTAMP into dword ts. */
static unsigned reads(uint32_t *dw, unsigned i, int ts)
{
	unsigned n = 0;
	if (ts >= 0)
		n += emit_srm(dw + n, RCS_TIMESTAMP, RESULT_ADDR + 4 * (unsigned)ts);
	n += emit_srm(dw + n, RCS_CTX_TIMESTAMP, RESULT_ADDR + 4 * i);
	return n;
}

/* A batch: reads into i (RING_TIMESTAMP into ts), stores value into
 * dword MARK_DW, waits for the flag to become value, reads into i + 1
 * (ts + 1). The CPU sets the flag wait_ms after it saw the mark; returns
 * the host time the batch took from submission. */
#define MARK_DW 15
/* Of the last read_wait_read: host time from submission until the CPU saw
 * the mark (head), from setting the flag to the batch's end (tail). */
static uint64_t head_ns, tail_ns;
static uint64_t read_wait_read(uint32_t ctx, unsigned i, int ts, uint32_t value, int wait_ms)
{
	uint32_t dw[64];
	unsigned n = reads(dw, i, ts);
	n += emit_store(dw + n, RESULT_ADDR + 4 * MARK_DW, value);
	n += emit_semaphore_wait(dw + n, FLAG_ADDR, value);
	n += reads(dw + n, i + 1, ts < 0 ? -1 : ts + 1);
	dw[n++] = MI_BATCH_BUFFER_END;
	uint64_t t0 = now_ns();
	uint32_t bb = submit(dw, n, ctx);
	for (int k = 0; k < 5000 && res_cpu[MARK_DW] != value; k++)
		sleep_ms(1);
	CHECK_EQ(res_cpu[MARK_DW], value);
	head_ns = now_ns() - t0;
	sleep_ms(wait_ms);
	uint64_t t_flag = now_ns();
	*flag_cpu = value;
	finish(bb);
	uint64_t t1 = now_ns();
	tail_ns = t1 - t_flag;
	return t1 - t0;
}

/* Returns the host time from submission to the batch's end. */
static uint64_t read_only(uint32_t ctx, unsigned i)
{
	uint32_t dw[8];
	unsigned n = reads(dw, i, -1);
	dw[n++] = MI_BATCH_BUFFER_END;
	uint64_t t0 = now_ns();
	finish(submit(dw, n, ctx));
	return now_ns() - t0;
}

static void open_device(const char *name)
{
	struct gtsim_config cfg = { .device = name, .hangcheck_ms = 60000 };
	dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	f = gtsim_open(dev);
	result = eb_create(f, 4096);
	flag = eb_create(f, 4096);
	res_cpu = eb_cpu_map(f, result);
	flag_cpu = eb_cpu_map(f, flag);
	CHECK(res_cpu && flag_cpu);
	/* the heartbeat's pulses would not change the counts, but keep the
	 * engine to the test's contexts */
	CHECK_EQ(gtsim_engine_file_write(dev, "rcs0", "heartbeat_interval_ms", "1000000", 7), 0);
}

static void close_device(void)
{
	gtsim_close(f);
	gtsim_device_destroy(dev);
}

static void in_turn(const char *device)
{
	open_device(device);
	uint32_t a = eb_context_create(f), b = eb_context_create(f);
	CHECK(a != 0xffffffff && b != 0xffffffff);

	/* A: dwords 0, 1 around a 30 ms wait. */
	double a_ns = (double)read_wait_read(a, 0, -1, 1, 30);
	double a_tail_ns = (double)tail_ns;
	uint32_t a0 = res_cpu[0], a1 = res_cpu[1];
	fprintf(stderr, "%s A: %u -> %u ticks (host %.1f ms)\n", device, a0, a1, a_ns / 1e6);
	CHECK(a1 > a0);
	CHECK(a1 - a0 >= ticks(30e6) - 1);
	CHECK(a1 <= ticks(a_ns) + 1);      /* a new context starts at 0 */

	/* B: dwords 2, 3 (RING_TIMESTAMP 4, 5) around a 200 ms wait. */
	double b_ns = (double)read_wait_read(b, 2, 4, 2, 200);
	double b_head_ns = (double)head_ns;
	uint32_t b0 = res_cpu[2], b1 = res_cpu[3], t0 = res_cpu[4], t1 = res_cpu[5];
	fprintf(stderr, "%s B: %u -> %u ticks, TIMESTAMP +%u (host %.1f ms)\n", device, b0, b1,
		t1 - t0, b_ns / 1e6);
	CHECK(t1 - t0 >= ticks(200e6) - 1);
	CHECK(b0 < a1);                    /* its own count, from 0 */
	CHECK(b0 <= ticks(b_head_ns) + 1);
	CHECK(b1 - b0 >= ticks(200e6) - 1);
	/* both advance with the engine's clock: CTX_TIMESTAMP is read one
	 * command after TIMESTAMP each time, the first time before the mark,
	 * the second after the flag */
	CHECK(b1 - b0 + ticks(b_head_ns) + 1 >= t1 - t0);
	CHECK(b1 - b0 <= t1 - t0 + ticks((double)tail_ns) + 1);
	CHECK(b1 <= ticks(b_ns) + 1);

	/* A again: dword 6. */
	double r6_ns = (double)read_only(a, 6);
	uint32_t a2 = res_cpu[6];
	fprintf(stderr, "%s A again: %u ticks (+%u)\n", device, a2, a2 - a1);
	CHECK(a2 >= a1);
	/* Not B's 200 ms: A ran only for its first batch's end (after the
	 * flag), the switch to B (the kernel's save of A's register runs as
	 * commands at the start of B's submission, before B's mark) and
	 * this batch. Bounded by the host's time for those, not a fixed
	 * figure: a loaded host can deschedule the engine's thread while it
	 * executes, and that wall time counts as running. */
	CHECK(a2 - a1 <= ticks(a_tail_ns + b_head_ns + r6_ns) + 3);
	CHECK(a2 - a1 < t1 - t0);

	/* A after 100 ms of an idle engine: dword 7. execlists switches an
	 * idle context out; its count does not grow meanwhile. */
	sleep_ms(100);
	double r7_ns = (double)read_only(a, 7);
	uint32_t a3 = res_cpu[7];
	fprintf(stderr, "%s A after idling: %u ticks (+%u)\n", device, a3, a3 - a2);
	CHECK(a3 >= a2);
	CHECK(a3 - a2 <= ticks(r6_ns + r7_ns) + 2);
	close_device();
}

/* gem_exec_schedule fairslice with two contexts: one spinning batch
 * (IGT's: MI_ARB_CHECK, MI_CONDITIONAL_BATCH_BUFFER_END, jump back)
 * submitted in both. */
static void fairslice(const char *device)
{
	open_device(device);
	uint32_t ctx[2] = { eb_context_create(f), eb_context_create(f) };
	uint32_t spin = eb_create(f, 4096);
	uint32_t dw[1024] = { 0 };
	unsigned n = emit_spin_loop(dw, SPIN_ADDR, SPIN_ADDR + COND_DW * 4, 8);
	(void)n;
	dw[COND_DW] = 0xffffffff;
	CHECK_EQ(eb_write(f, spin, 0, dw, sizeof(dw)), 0);
	volatile uint32_t *spin_cpu = eb_cpu_map(f, spin);
	CHECK(spin_cpu != NULL);
	uint64_t t0 = now_ns();
	for (int i = 0; i < 2; i++) {
		struct drm_i915_gem_exec_object2 o = { .handle = spin, .offset = SPIN_ADDR,
						       .flags = EXEC_OBJECT_PINNED };
		CHECK_EQ(eb_exec(f, &o, 1, I915_EXEC_RENDER, ctx[i]), 0);
	}
	sleep_ms(400);
	CHECK(eb_busy(f, spin) != 0);
	spin_cpu[COND_DW] = MI_BATCH_BUFFER_END;
	CHECK_EQ(eb_wait(f, spin, 10ll * 1000000000), 0);
	double spin_ns = (double)(now_ns() - t0);
	read_only(ctx[0], 0);
	read_only(ctx[1], 1);
	double total_ns = (double)(now_ns() - t0);
	uint32_t c0 = res_cpu[0], c1 = res_cpu[1];
	fprintf(stderr, "%s fairslice: %.1f ms and %.1f ms of %.1f ms spinning (%.1f ms in all)\n",
		device, c0 / hz * 1e3, c1 / hz * 1e3, spin_ns / 1e6, total_ns / 1e6);
	CHECK(c0 > ticks(400e6) / 5);
	CHECK(c1 > ticks(400e6) / 5);
	CHECK((double)c0 + c1 <= ticks(total_ns) + 2);
	eb_close(f, spin);
	close_device();
}

int main(void)
{
	eb_require_async("the CPU releases the batches' semaphores while they wait");
	hz = 12.5e6;
	in_turn("bdw");
	hz = 12e6;
	in_turn("skl");
	fairslice("skl");
	return test_exit();
}
