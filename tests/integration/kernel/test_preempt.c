/* Preemption, timeslicing and the heartbeat against i915's rules (Linux
 * 6.1 execlists: intel_execlists_submission.c, intel_engine_heartbeat.c;
 * can_preempt(): every gen9 engine, gen8's except render). Batches are
 * encoded by hand from the PRM; the spinner is IGT's (lib/igt_dummyload.c):
 * MI_ARB_CHECK, MI_CONDITIONAL_BATCH_BUFFER_END against a dword of the
 * batch, MI_BATCH_BUFFER_START back. Cases, outcomes reasoned from the rules:
 *  - priority: a spinner of a context at priority -512 runs; a context at
 *    priority 0 stores 0xc0ffee. On SKL the store lands (the CPU reads it)
 *    while the spinner still spins: preempted at its MI_ARB_CHECK. On
 *    BDW's render engine (no preemption) it lands only after the spinner
 *    ends; BDW's blitter preempts. The preempted batch resumes after its
 *    arbitration point, not from its start: a store before the loop,
 *    cleared by the CPU meanwhile, is not done again; a store after the
 *    loop is.
 *  - timeslice: the same with equal priorities (0, 0): SKL's render
 *    engine timeslices (timeslice_duration_ms 1), the store lands while
 *    the spinner spins.
 *  - a semaphore wait is an arbitration point (gem_exec_schedule
 *    semaphore-resolve): a batch polling MI_SEMAPHORE_WAIT for a dword to
 *    become 1, with no MI_ARB_CHECK, then storing 2 after it; another
 *    context at the same priority stores the 1. On SKL the wait is
 *    timesliced: the store lands, the waiting batch resumes at its wait
 *    and ends, nobody reset. On BDW's render engine nothing preempts:
 *    the store has not landed after 300 ms (the CPU then writes the 1).
 *    Before, the wait was no arbitration point on SKL either.
 *  - heartbeat on a preemptible spinner (heartbeat_interval_ms 20): its
 *    pulses preempt it, it is never reset (no reset after 1 s).
 *  - heartbeat on a non-preemptible spinner (no MI_ARB_CHECK), hangcheck
 *    out of the way (60 s), heartbeat_interval_ms 100: SKL resets it
 *    after the pulse's preemption times out (preempt_timeout_ms 20; error
 *    state "preemption time out"); BDW's render engine (no preemption)
 *    after the pulse's last raise ("stopped heartbeat on rcs0").
 *  - the watchdog (i915.request_timeout_ms, 20000 by default): with 0 a
 *    spinner runs on; with 300 it is cancelled, without an error state.
 *  - heartbeat off: a closed persistent context's spinner is cancelled,
 *    an open context's runs on.
 *  - sysfs properties: defaults 2500/640/1/100/8000, writable, out of
 *    range -EINVAL, preempt_timeout_ms absent on BDW's rcs0. */
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "eb_test.h"

#define SPIN_ADDR 0x100000ull
#define OUT_ADDR 0x200000ull
#define STORE_ADDR 0x300000ull
#define COND_DW 1022

static struct gtsim_device *dev;
static struct gtsim_file *f;

static void sleep_ms(int ms)
{
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000L }, NULL);
}

static uint32_t ctx_prio(int prio)
{
	uint32_t ctx = eb_context_priority(f, prio);
	CHECK(ctx != 0xffffffff);
	return ctx;
}

struct spinner {
	uint32_t bb, out;
	volatile uint32_t *cpu, *out_cpu;
};

/* out[0] = 1 before the loop, out[1] = 2 after it. */
static void spin_start(struct spinner *s, uint32_t ctx, uint64_t ring, bool preemptible)
{
	s->bb = eb_create(f, 4096);
	s->out = eb_create(f, 4096);
	uint32_t dw[1024] = { 0 };
	unsigned n = emit_store(dw, OUT_ADDR, 1);
	uint64_t loop = SPIN_ADDR + n * 4;
	if (preemptible)
		dw[n++] = MI_ARB_CHECK;
	for (int i = 0; i < 8; i++)
		dw[n++] = MI_NOOP;
	dw[n++] = MI_COND_BB_END_COMPARE;
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = (uint32_t)(SPIN_ADDR + COND_DW * 4);
	dw[n++] = 0;
	dw[n++] = MI_BATCH_BUFFER_START_GEN8 | MI_BB_START_PPGTT;
	dw[n++] = (uint32_t)loop;
	dw[n++] = 0;
	/* the conditional end lands here (it ends the whole batch): the
	 * store after the loop is the CPU's end marker's job, see spin_end */
	dw[COND_DW] = 0xffffffff;
	CHECK_EQ(eb_write(f, s->bb, 0, dw, sizeof(dw)), 0);
	s->cpu = eb_cpu_map(f, s->bb);
	s->out_cpu = eb_cpu_map(f, s->out);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = s->out, .offset = OUT_ADDR, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = s->bb, .offset = SPIN_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, o, 2, ring, ctx), 0);
	for (int i = 0; i < 2000 && s->out_cpu[0] != 1; i++)
		sleep_ms(1);
	CHECK_EQ(s->out_cpu[0], 1);
}

/* igt_spin_end: the compare data becomes MI_BATCH_BUFFER_END. */
static int spin_end(struct spinner *s)
{
	s->cpu[COND_DW] = MI_BATCH_BUFFER_END;
	int ret = eb_wait(f, s->bb, 5ll * 1000000000);
	eb_close(f, s->bb);
	eb_close(f, s->out);
	return ret;
}

/* A store of value into a fresh object from ctx; returns the object. */
static uint32_t store(uint32_t ctx, uint64_t ring, uint32_t value, volatile uint32_t **cpu)
{
	uint32_t target = eb_create(f, 4096), bb = eb_create(f, 4096);
	uint32_t dw[8];
	unsigned n = emit_store(dw, STORE_ADDR, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, bb, 0, dw, n * 4), 0);
	*cpu = eb_cpu_map(f, target);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = target, .offset = STORE_ADDR, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = 0x400000, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, o, 2, ring, ctx), 0);
	eb_close(f, bb);
	return target;
}

/* Polls *p for value for up to ms. */
static bool lands(volatile uint32_t *p, uint32_t value, int ms)
{
	for (int i = 0; i < ms && *p != value; i++)
		sleep_ms(1);
	return *p == value;
}

static uint32_t resets(uint32_t ctx)
{
	struct drm_i915_reset_stats rs = { .ctx_id = ctx };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	return rs.batch_active;
}

static void open_device(const char *name, unsigned hangcheck_ms)
{
	struct gtsim_config cfg = { .device = name, .hangcheck_ms = hangcheck_ms };
	dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	f = gtsim_open(dev);
}

static void close_device(void)
{
	gtsim_close(f);
	gtsim_device_destroy(dev);
}

static void set_prop(const char *engine, const char *name, const char *value)
{
	CHECK_EQ(gtsim_engine_file_write(dev, engine, name, value, strlen(value)), 0);
}

/* A higher priority (or, with equal, a timeslice) takes the engine. */
static void preempt_case(const char *device, uint64_t ring, int lo, int hi, bool expect_preempt)
{
	open_device(device, 60000);
	/* heartbeat out of the way: only the store contends */
	set_prop(ring == I915_EXEC_BLT ? "bcs0" : "rcs0", "heartbeat_interval_ms", "1000000");
	uint32_t lo_ctx = ctx_prio(lo), hi_ctx = ctx_prio(hi);
	struct spinner s;
	spin_start(&s, lo_ctx, ring, true);
	s.out_cpu[0] = 0;   /* not stored again when the batch resumes */
	volatile uint32_t *v;
	uint32_t target = store(hi_ctx, ring, 0xc0ffee, &v);
	bool landed = lands(v, 0xc0ffee, expect_preempt ? 2000 : 300);
	if (landed != expect_preempt)
		fprintf(stderr, "%s ring %llu priorities %d/%d: store %s while spinning\n", device,
			(unsigned long long)ring, lo, hi, landed ? "landed" : "did not land");
	CHECK_EQ(landed, expect_preempt);
	CHECK(eb_busy(f, s.bb) != 0);          /* still spinning */
	CHECK_EQ(spin_end(&s), 0);
	CHECK_EQ(eb_wait(f, target, 2000000000ll), 0);
	CHECK_EQ(*v, 0xc0ffee);
	CHECK_EQ(s.out_cpu[0], 0);             /* resumed, not restarted */
	CHECK_EQ(resets(lo_ctx), 0);
	CHECK_EQ(resets(hi_ctx), 0);
	eb_close(f, target);
	close_device();
}

/* A store of value at offset off of target from ctx (target written);
 * the batch at a place of its own (bb_page). */
static void store_into(uint32_t ctx, uint64_t ring, uint32_t target, uint32_t off,
		       uint32_t value, unsigned bb_page)
{
	uint32_t bb = eb_create(f, 4096), dw[8];
	unsigned n = emit_store(dw, STORE_ADDR + off, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, bb, 0, dw, n * 4), 0);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = target, .offset = STORE_ADDR, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = 0x400000 + bb_page * 0x1000ull, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, o, 2, ring, ctx), 0);
	eb_close(f, bb);
}

/* Priority inheritance across engines (i915's __i915_schedule; IGT's
 * gem_exec_schedule preempt-other): on the blitter a NOISE spinner
 * (priority -5, preemptible) and behind it LO's store (-10) into R; on
 * the render engine HI (0) writes R too, so it waits for LO's request on
 * the other engine. HI lifts LO to 0, above NOISE: LO preempts the
 * spinner, then HI runs, both while NOISE still spins. Without the
 * inheritance LO waits for the spinner and HI for LO. */
static void pi_other_engine(const char *device)
{
	open_device(device, 60000);
	set_prop("bcs0", "heartbeat_interval_ms", "1000000");
	set_prop("rcs0", "heartbeat_interval_ms", "1000000");
	uint32_t noise = ctx_prio(-5), lo = ctx_prio(-10), hi = ctx_prio(0);
	struct spinner s;
	spin_start(&s, noise, I915_EXEC_BLT, true);
	uint32_t r = eb_create(f, 4096);
	volatile uint32_t *rv = eb_cpu_map(f, r);
	store_into(lo, I915_EXEC_BLT, r, 0, 0x10, 0);
	sleep_ms(50);
	CHECK_EQ(rv[0], 0);   /* LO waits behind the spinner */
	store_into(hi, I915_EXEC_RENDER, r, 4, 0x20, 1);
	bool landed = lands(&rv[1], 0x20, 2000);
	fprintf(stderr, "%s: HI's store %s while NOISE spins; LO's %s\n", device,
		landed ? "landed" : "did not land", rv[0] == 0x10 ? "before it" : "not");
	CHECK(landed);
	CHECK_EQ(rv[0], 0x10);
	CHECK(eb_busy(f, s.bb) != 0);          /* still spinning */
	CHECK_EQ(spin_end(&s), 0);
	CHECK_EQ(eb_wait(f, r, 2000000000ll), 0);
	CHECK_EQ(rv[0], 0x10);
	CHECK_EQ(rv[1], 0x20);
	CHECK_EQ(resets(noise) + resets(lo) + resets(hi), 0);
	eb_close(f, r);
	close_device();
}

/* Pulses preempt a spinner that yields: never a reset. */
static void heartbeat_yielding(void)
{
	open_device("skl", 60000);
	set_prop("rcs0", "heartbeat_interval_ms", "20");
	set_prop("rcs0", "preempt_timeout_ms", "50");
	struct spinner s;
	spin_start(&s, 0, I915_EXEC_RENDER, true);
	sleep_ms(1000);
	CHECK(eb_busy(f, s.bb) != 0);
	CHECK_EQ(spin_end(&s), 0);
	CHECK_EQ(resets(0), 0);
	close_device();
}

/* A spinner that never yields is reset by the heartbeat. */
static void heartbeat_stuck(const char *device, const char *why)
{
	open_device(device, 60000);
	/* SKL: the pulse reaches normal priority at 2 intervals (200 ms) and
	 * asks for a timeslice, which times out 20 ms later, well before the
	 * heartbeat's own reset (5 intervals) */
	set_prop("rcs0", "heartbeat_interval_ms", "100");
	if (!strcmp(device, "skl"))
		set_prop("rcs0", "preempt_timeout_ms", "20");
	struct spinner s;
	spin_start(&s, 0, I915_EXEC_RENDER, false);
	CHECK_EQ(eb_wait(f, s.bb, 5ll * 1000000000), 0);   /* reset */
	CHECK_EQ(resets(0), 1);
	char *state = gtsim_error_state(dev);
	CHECK(state && strstr(state, why));
	if (!state || !strstr(state, why))
		fprintf(stderr, "%s: expected \"%s\" in the error state\n", device, why);
	free(state);
	s.cpu[COND_DW] = MI_BATCH_BUFFER_END;
	eb_close(f, s.bb);
	eb_close(f, s.out);
	close_device();
}

/* The file reads expect (NULL: no such file). */
static void check_file(const char *engine, const char *name, const char *expect)
{
	char *v = gtsim_engine_file_read(dev, engine, name);
	CHECK(expect ? v && !strcmp(v, expect) : !v);
	if (expect ? !v || strcmp(v, expect) : v != NULL)
		fprintf(stderr, "%s/%s: \"%s\", expected \"%s\"\n", engine, name, v ? v : "(none)",
			expect ? expect : "(none)");
	free(v);
}

/* i915.request_timeout_ms: a request that runs that long (GPU time: on
 * a loaded host it takes longer in wall time) is cancelled
 * (i915_request_cancel, no error capture); 0 disables it. The worker
 * looks at it every hangcheck period (default: 750 ms). */
static void watchdog(void)
{
	open_device("skl", 0);
	set_prop("rcs0", "heartbeat_interval_ms", "1000000");
	CHECK_EQ(gtsim_param_write("request_timeout_ms", "0", 1), 0);
	struct spinner s;
	spin_start(&s, 0, I915_EXEC_RENDER, true);
	sleep_ms(1600);
	CHECK(eb_busy(f, s.bb) != 0);          /* no watchdog */
	CHECK_EQ(spin_end(&s), 0);
	CHECK_EQ(gtsim_param_write("request_timeout_ms", "300", 3), 0);
	spin_start(&s, 0, I915_EXEC_RENDER, true);
	CHECK_EQ(eb_wait(f, s.bb, 30ll * 1000000000), 0);
	char *state = gtsim_error_state(dev);
	CHECK(state == NULL);
	free(state);
	CHECK_EQ(gtsim_param_write("request_timeout_ms", "20000", 5), 0);
	s.cpu[COND_DW] = MI_BATCH_BUFFER_END;
	eb_close(f, s.bb);
	eb_close(f, s.out);
	close_device();
}

/* i915 (__execlists_schedule_in): a closed persistent context lives on
 * while a heartbeat watches its engine; turning the heartbeat off makes it
 * exiting and cancels its requests (-EIO), as IGT gem_ctx_persistence
 * heartbeat-stop checks. A context not closed keeps running. */
static void heartbeat_off_closed(void)
{
	open_device("skl", 60000);
	uint32_t closed = eb_context_create(f), open_ctx = eb_context_create(f);
	struct spinner a, b;
	spin_start(&a, closed, I915_EXEC_BLT, true);
	spin_start(&b, open_ctx, I915_EXEC_RENDER, true);
	struct drm_i915_gem_context_destroy d = { .ctx_id = closed };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &d), 0);
	sleep_ms(200);
	CHECK(eb_busy(f, a.bb) != 0);          /* persistent: runs on */
	set_prop("bcs0", "heartbeat_interval_ms", "0");
	set_prop("rcs0", "heartbeat_interval_ms", "0");
	CHECK_EQ(eb_wait(f, a.bb, 10ll * 1000000000), 0);   /* cancelled */
	sleep_ms(200);
	CHECK(eb_busy(f, b.bb) != 0);          /* not closed: runs on */
	CHECK_EQ(spin_end(&b), 0);
	a.cpu[COND_DW] = MI_BATCH_BUFFER_END;
	eb_close(f, a.bb);
	eb_close(f, a.out);
	close_device();
}

/* IGT gem_exec_reloc *-hang: an endless preemptible spinner writes X; an
 * execbuf relocating into X waits for it (i915 waits before patching a
 * busy object) until the watchdog cancels the spinner; the relocation is
 * then written and the batch runs. */
static void watchdog_reloc(void)
{
	open_device("skl", 0);
	CHECK_EQ(gtsim_param_write("request_timeout_ms", "300", 3), 0);
	for (int round = 0; round < 2; round++) {
		struct spinner s;
		spin_start(&s, 0, I915_EXEC_RENDER, true);
		/* X = the spinner's out object: a batch ending at dword 0, a
		 * relocation to itself at 4096 - 8 */
		uint32_t bbe = MI_BATCH_BUFFER_END;
		CHECK_EQ(eb_write(f, s.out, 0, &bbe, 4), 0);
		struct drm_i915_gem_relocation_entry reloc = {
			.target_handle = s.out, .offset = 4088,
			.presumed_offset = ~0ull, .read_domains = I915_GEM_DOMAIN_INSTRUCTION };
		struct drm_i915_gem_exec_object2 obj = { .handle = s.out, .offset = ~0ull,
			.relocs_ptr = (uintptr_t)&reloc, .relocation_count = 1 };
		struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&obj,
						       .buffer_count = 1 };
		CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb), 0);
		uint64_t written = 0;
		CHECK_EQ(eb_read(f, s.out, 4088, &written, 8), 0);
		CHECK_EQ(written, obj.offset);
		s.cpu[COND_DW] = MI_BATCH_BUFFER_END;
		eb_close(f, s.bb);
		eb_close(f, s.out);
	}
	CHECK_EQ(gtsim_param_write("request_timeout_ms", "20000", 5), 0);
	close_device();
}

static void sysfs_props(void)
{
	open_device("bdw", 0);
	/* Kconfig.profile's defaults */
	check_file("rcs0", "heartbeat_interval_ms", "2500\n");
	check_file("rcs0", "preempt_timeout_ms", NULL);     /* BDW's render: no preemption */
	check_file("rcs0", "timeslice_duration_ms", NULL);
	check_file("bcs0", "preempt_timeout_ms", "640\n");
	check_file("bcs0", "timeslice_duration_ms", "1\n");
	check_file("vcs0", "stop_timeout_ms", "100\n");
	check_file("vecs0", "max_busywait_duration_ns", "8000\n");
	check_file("vecs0", "class", "3\n");
	check_file("bcs0", "mmio_base", "0x22000\n");
	CHECK_EQ(gtsim_engine_file_write(dev, "bcs0", "preempt_timeout_ms", "250", 3), 0);
	check_file("bcs0", "preempt_timeout_ms", "250\n");
	check_file("bcs0", ".defaults/preempt_timeout_ms", "640\n");
	CHECK_EQ(gtsim_engine_file_write(dev, "bcs0", ".defaults/preempt_timeout_ms", "1", 1),
		 -EACCES);
	/* 2 jiffies at HZ=250 is the busywait limit; -1 is not a number */
	CHECK_EQ(gtsim_engine_file_write(dev, "rcs0", "max_busywait_duration_ns", "8000001", 7),
		 -EINVAL);
	CHECK_EQ(gtsim_engine_file_write(dev, "rcs0", "heartbeat_interval_ms", "-1", 2), -EINVAL);
	/* no heartbeat where nothing else could reset a hang */
	CHECK_EQ(gtsim_engine_file_write(dev, "rcs0", "heartbeat_interval_ms", "0", 1), -ENODEV);
	CHECK_EQ(gtsim_engine_file_write(dev, "bcs0", "heartbeat_interval_ms", "0", 1), 0);
	close_device();
}

static void semaphore_timeslice(const char *device, bool expect_preempt)
{
	open_device(device, 60000);
	set_prop("rcs0", "heartbeat_interval_ms", "1000000");
	uint32_t a = ctx_prio(0), b = ctx_prio(0);
	uint32_t sem = eb_create(f, 4096), bb = eb_create(f, 4096);
	volatile uint32_t *sem_cpu = eb_cpu_map(f, sem);
	uint32_t dw[16];
	unsigned n = emit_semaphore_wait(dw, STORE_ADDR, 1);
	n += emit_store(dw + n, STORE_ADDR + 4, 2);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, bb, 0, dw, n * 4), 0);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = sem, .offset = STORE_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = bb, .offset = SPIN_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, o, 2, I915_EXEC_RENDER, a), 0);
	sleep_ms(20);
	CHECK(eb_busy(f, bb) != 0);   /* waiting */
	/* the release: B's store of 1 into the semaphore's page */
	uint32_t rel = eb_create(f, 4096);
	n = emit_store(dw, STORE_ADDR, 1);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, rel, 0, dw, n * 4), 0);
	struct drm_i915_gem_exec_object2 r[2] = {
		{ .handle = sem, .offset = STORE_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = rel, .offset = 0x400000, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, r, 2, I915_EXEC_RENDER, b), 0);
	bool landed = lands(&sem_cpu[1], 2, expect_preempt ? 2000 : 300);
	if (landed != expect_preempt)
		fprintf(stderr, "%s: semaphore wait %s\n", device,
			landed ? "released while it should wait" : "never timesliced");
	CHECK_EQ(landed, expect_preempt);
	if (!landed)
		sem_cpu[0] = 1;   /* release it from the CPU */
	CHECK_EQ(eb_wait(f, bb, 5ll * 1000000000), 0);
	CHECK_EQ(eb_wait(f, rel, 5ll * 1000000000), 0);
	CHECK_EQ(sem_cpu[0], 1);
	CHECK_EQ(sem_cpu[1], 2);
	CHECK_EQ(resets(a), 0);
	CHECK_EQ(resets(b), 0);
	eb_close(f, rel);
	eb_close(f, bb);
	eb_close(f, sem);
	close_device();
}

int main(void)
{
	sysfs_props();
	eb_require_async("preemption needs the engines' own threads");
	preempt_case("skl", I915_EXEC_RENDER, -512, 0, true);
	preempt_case("bdw", I915_EXEC_RENDER, -512, 0, false);
	preempt_case("bdw", I915_EXEC_BLT, -512, 0, true);
	preempt_case("skl", I915_EXEC_RENDER, 0, 0, true);     /* timeslice */
	semaphore_timeslice("skl", true);
	semaphore_timeslice("bdw", false);
	pi_other_engine("skl");
	pi_other_engine("bdw");
	heartbeat_yielding();
	heartbeat_stuck("skl", "preemption time out");
	heartbeat_stuck("bdw", "stopped heartbeat on rcs0");
	watchdog();
	watchdog_reloc();
	heartbeat_off_closed();
	return test_exit();
}
