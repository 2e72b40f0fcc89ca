/* Hang recovery: a batch that jumps to itself (MI_BATCH_BUFFER_START to
 * its own address) is found by hangcheck, the engine is reset past it, its
 * request fails with -EIO, another context's batch queued behind it still
 * runs, GET_RESET_STATS counts the hang, the error state is written in
 * i915's format (intel_error_decode reads it), and after repeated hangs
 * the context is banned (-EIO) while the other one keeps working. A GPU
 * fault (an unknown command) is a hang at once. */
#include <poll.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eb_test.h"
#include "gpu/cs/engine.h"
#include "kernel/request.h"

static struct gtsim_file *f;
static uint32_t hang_bb, store_bb, target, fault_bb;

static int submit_hang(uint32_t ctx, int *fence_fd)
{
	struct drm_i915_gem_exec_object2 o = { .handle = hang_bb, .offset = 0x400000,
					       .flags = EXEC_OBJECT_PINNED };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&o, .buffer_count = 1,
		.rsvd1 = ctx, .flags = I915_EXEC_FENCE_OUT };
	int ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
	*fence_fd = ret ? -1 : (int)(eb.rsvd2 >> 32);
	return ret;
}

static int submit_store(uint32_t ctx, uint32_t value)
{
	uint32_t dw[8];
	unsigned n = emit_store(dw, 0x10000 + 4 * (value & 15), value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, store_bb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = target, .offset = 0x10000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = store_bb, .offset = 0x20000, .flags = EXEC_OBJECT_PINNED },
	};
	return eb_exec(f, o, 2, 0, ctx);
}

static void reset_stats(uint32_t ctx, uint32_t *active, uint32_t *pending)
{
	struct drm_i915_reset_stats rs = { .ctx_id = ctx };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	*active = rs.batch_active;
	*pending = rs.batch_pending;
}

/* The sync_file of a hung batch signals (with an error). */
static void check_fence_signals(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	CHECK_EQ(poll(&p, 1, 5000), 1);
	close(fd);
}

static void check_error_decode(struct gtsim_device *dev)
{
	char *text = gtsim_error_state(dev);
	CHECK(text != NULL);
	if (!text)
		return;
	CHECK(strstr(text, "PCI ID: 0x1616") != NULL);
	CHECK(strstr(text, "rcs0 command stream:") != NULL);
	CHECK(strstr(text, "rcs0 --- gtt_offset = 0x00000000 00400000") != NULL);
	CHECK(strstr(text, "rcs0 --- ringbuffer = ") != NULL);
	if (access("/usr/bin/intel_error_decode", X_OK)) {
		printf("SKIP (part): /usr/bin/intel_error_decode not installed "
		       "(Debian package intel-gpu-tools)\n");
		free(text);
		return;
	}
	char in[] = "/tmp/gtsim-test-errorXXXXXX";
	int fd = mkstemp(in);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, text, strlen(text)), (long long)strlen(text));
	close(fd);
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "/usr/bin/intel_error_decode %s < /dev/null 2>&1", in);
	FILE *p = popen(cmd, "r");
	char line[512];
	bool gen8 = false, batch = false, bbstart = false, ring = false;
	while (p && fgets(line, sizeof(line), p)) {
		gen8 |= strstr(line, "Detected GEN8 chipset") != NULL;
		batch |= strstr(line, "batch (rcs0) at 0x00000000_00400000") != NULL;
		ring |= strstr(line, "ring (rcs0) at") != NULL;
		bbstart |= strstr(line, "MI_BATCH_BUFFER_START") != NULL;
	}
	if (p)
		CHECK_EQ(pclose(p), 0);
	CHECK(gen8);
	CHECK(batch);
	CHECK(ring);
	CHECK(bbstart);
	unlink(in);
	free(text);
}

int main(void)
{
	struct gtsim_device *dev = eb_device(0, 100, 0);
	f = gtsim_open(dev);
	hang_bb = eb_create(f, 4096);
	store_bb = eb_create(f, 4096);
	target = eb_create(f, 4096);
	fault_bb = eb_create(f, 4096);
	const uint32_t loop[4] = { MI_BATCH_BUFFER_START_GEN8 | MI_BB_START_PPGTT, 0x400000, 0,
				   MI_BATCH_BUFFER_END };
	CHECK_EQ(eb_write(f, hang_bb, 0, loop, sizeof(loop)), 0);
	uint32_t bad = eb_context_create(f), good = eb_context_create(f);

	/* The hanging batch, then the other context's store behind it. */
	int fd;
	CHECK_EQ(submit_hang(bad, &fd), 0);
	CHECK_EQ(submit_store(good, 0x601), 0);
	CHECK_EQ(eb_wait(f, target, 5ll * 1000000000), 0);
	CHECK_EQ(eb_read32(f, target, 4), 0x601);
	CHECK_EQ(eb_wait(f, hang_bb, 5ll * 1000000000), 0);
	check_fence_signals(fd);
	uint32_t active, pending;
	reset_stats(bad, &active, &pending);
	CHECK_EQ(active, 1);
	CHECK_EQ(pending, 0);
	reset_stats(good, &active, &pending);
	CHECK_EQ(active, 0);
	check_error_decode(dev);
	char path[512];
	gtsim_error_state_path(path, sizeof(path), NULL);
	CHECK_EQ(access(path, R_OK), 0);
	unlink(path);

	/* Hang again until banned: Linux 6.1 bans at the third hang within
	 * 120 s (intel_reset.c mark_guilty). */
	for (int i = 2; i <= 3; i++) {
		CHECK_EQ(submit_hang(bad, &fd), 0);
		CHECK_EQ(eb_wait(f, hang_bb, 5ll * 1000000000), 0);
		check_fence_signals(fd);
	}
	reset_stats(bad, &active, &pending);
	CHECK_EQ(active, 3);
	CHECK_EQ(submit_hang(bad, &fd), -EIO);
	CHECK_EQ(submit_store(bad, 0x602), -EIO);
	/* The other context is unaffected. */
	CHECK_EQ(submit_store(good, 0x603), 0);
	CHECK_EQ(eb_wait(f, target, 5ll * 1000000000), 0);
	CHECK_EQ(eb_read32(f, target, 12), 0x603);
	CHECK_EQ(eb_read32(f, target, 8), 0);

	/* A GPU fault (an unknown command) is a hang at once. */
	const uint32_t junk[2] = { 0xffffffff, MI_BATCH_BUFFER_END };
	CHECK_EQ(eb_write(f, fault_bb, 0, junk, sizeof(junk)), 0);
	uint32_t ctx3 = eb_context_create(f);
	struct drm_i915_gem_exec_object2 o = { .handle = fault_bb };
	CHECK_EQ(eb_exec(f, &o, 1, 0, ctx3), 0);
	CHECK_EQ(eb_wait(f, fault_bb, 5ll * 1000000000), 0);
	reset_stats(ctx3, &active, &pending);
	CHECK_EQ(active, 1);
	CHECK_EQ(submit_store(good, 0x604), 0);
	CHECK_EQ(eb_wait(f, target, 5ll * 1000000000), 0);
	CHECK_EQ(eb_read32(f, target, 16), 0x604);

	/* Hangcheck's sample gone stale (the engine moved on since: another
	 * ACTHD or seqno) resets nothing: a batch that finished after the
	 * sample must not take the next request down with it. With the sample
	 * the engine really shows, the reset happens. */
	uint32_t ctx4 = eb_context_create(f);
	CHECK_EQ(submit_hang(ctx4, &fd), 0);
	struct rq_engine *rcs = &dev_requests(dev)->engine[0];
	for (int i = 0; i < 1000 && !engine_acthd(rcs->hw); i++)
		usleep(1000);
	struct hang_sample stale = { .acthd = engine_acthd(rcs->hw) + 4,
				     .seqno = engine_hws_seqno(rcs),
				     .arb = engine_progress_marks(rcs->hw) };
	engine_hang_if_unchanged(rcs, "test: stale sample", &stale);
	reset_stats(ctx4, &active, &pending);
	CHECK_EQ(active, 0);
	stale = (struct hang_sample){ .acthd = engine_acthd(rcs->hw),
				      .seqno = engine_hws_seqno(rcs) - 1,
				      .arb = engine_progress_marks(rcs->hw) };
	engine_hang_if_unchanged(rcs, "test: stale sample", &stale);
	reset_stats(ctx4, &active, &pending);
	CHECK_EQ(active, 0);
	struct hang_sample now = { .acthd = engine_acthd(rcs->hw), .seqno = engine_hws_seqno(rcs),
				   .arb = engine_progress_marks(rcs->hw) };
	engine_hang_if_unchanged(rcs, "test: current sample", &now);
	CHECK_EQ(eb_wait(f, hang_bb, 5ll * 1000000000), 0);
	check_fence_signals(fd);
	reset_stats(ctx4, &active, &pending);
	CHECK_EQ(active, 1);

	/* A batch that runs without an arbitration point and never ends
	 * (IGT's non-preemptible spinner: MI_NOOPs, then
	 * MI_BATCH_BUFFER_START back to its start) moves ACTHD, yet i915's
	 * heartbeat cannot preempt it and resets it: hung too, after twice
	 * the hangcheck period. */
	uint32_t spin_bb = eb_create(f, 4096), ctx5 = eb_context_create(f);
	uint32_t spin[512] = { 0 };     /* MI_NOOPs: ACTHD seldom sampled twice alike */
	spin[500] = MI_BATCH_BUFFER_START_GEN8 | MI_BB_START_PPGTT;
	spin[501] = 0x500000;
	CHECK_EQ(eb_write(f, spin_bb, 0, spin, sizeof(spin)), 0);
	struct drm_i915_gem_exec_object2 so = { .handle = spin_bb, .offset = 0x500000,
						.flags = EXEC_OBJECT_PINNED };
	CHECK_EQ(eb_exec(f, &so, 1, 0, ctx5), 0);
	CHECK_EQ(eb_wait(f, spin_bb, 5ll * 1000000000), 0);
	reset_stats(ctx5, &active, &pending);
	CHECK_EQ(active, 1);

	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
