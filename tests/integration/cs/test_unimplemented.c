/* A command gtsim does not implement, through the kernel model on every
 * engine: the batch ends in a GPU hang at once (no hangcheck wait), its
 * context is found guilty (GET_RESET_STATS), the error state names the
 * command, its header, its address and "not implemented in gtsim", and
 * intel_error_decode reads it; another context's batch on the same engine
 * afterwards completes. After repeated hangs the guilty context is banned
 * (-EIO), as i915 does, while the other keeps running. */
#include <i915_drm.h>

#include "../kernel/eb_test.h"
#include "hang_check.h"

#define BATCH_ADDR 0x400000u
#define TARGET_ADDR 0x10000u

static struct gtsim_file *f;
static uint32_t bad_bb, good_bb, target;

static const struct {
	const char *engine;
	uint64_t flag;
	uint32_t dw[10];
	unsigned n;
	const char *name;     /* the command, as the reason names it */
	const char *reason;   /* after the header and address */
} cases[] = {
	{ "rcs0", I915_EXEC_RENDER, { 0x0c800000, 0 }, 2, "MI_URB_CLEAR",
	  "not implemented in gtsim" },
	{ "bcs0", I915_EXEC_BLT, { 0x01800000 }, 1, "MI_WAIT_FOR_EVENT",
	  "not implemented in gtsim" },
	{ "vcs0", I915_EXEC_BSD, { 0x68000000 }, 1, "MFX_WAIT", "not implemented in gtsim" },
	/* VEBOX_STATE: the description has no VEBOX command at all */
	{ "vecs0", I915_EXEC_VEBOX, { 0x7402000b }, 13, "unknown command",
	  "(batch): not a gen8 vecs0 command" },
};

static int submit_bad(uint32_t ctx, uint64_t ring, const uint32_t *cmd, unsigned n)
{
	uint32_t dw[16] = { MI_NOOP };
	memcpy(dw + 1, cmd, n * 4);
	dw[1 + n] = MI_BATCH_BUFFER_END;
	eb_write(f, bad_bb, 0, dw, sizeof(dw));
	struct drm_i915_gem_exec_object2 o = { .handle = bad_bb, .offset = BATCH_ADDR,
					       .flags = EXEC_OBJECT_PINNED };
	return eb_exec(f, &o, 1, ring, ctx);
}

static int submit_store(uint32_t ctx, uint64_t ring, uint32_t value)
{
	uint32_t dw[8];
	unsigned n = emit_store(dw, TARGET_ADDR + 4 * (value & 15), value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, good_bb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = target, .offset = TARGET_ADDR,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = good_bb, .offset = 0x20000, .flags = EXEC_OBJECT_PINNED },
	};
	return eb_exec(f, o, 2, ring, ctx);
}

static uint32_t batches_active(uint32_t ctx)
{
	struct drm_i915_reset_stats rs = { .ctx_id = ctx };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	return rs.batch_active;
}

static void check_engine(struct gtsim_device *dev, unsigned i)
{
	uint32_t bad = eb_context_create(f), good = eb_context_create(f);
	uint32_t value = 0x700 + i;
	CHECK_EQ(submit_bad(bad, cases[i].flag, cases[i].dw, cases[i].n), 0);
	CHECK_EQ(submit_store(good, cases[i].flag, value), 0);
	CHECK_EQ(eb_wait(f, target, 5ll * 1000000000), 0);
	/* the bad batch too: with timeslicing (SKL) the good context may run
	 * while the bad one waits at its request's first MI_ARB_CHECK */
	CHECK_EQ(eb_wait(f, bad_bb, 5ll * 1000000000), 0);
	CHECK_EQ(eb_read32(f, target, 4 * (value & 15)), value);
	CHECK_EQ(batches_active(bad), 1);
	CHECK_EQ(batches_active(good), 0);

	char *text = gtsim_error_state(dev);
	CHECK(text != NULL);
	if (!text)
		return;
	char want[160];
	snprintf(want, sizeof(want), "GPU fault: %s 0x%08x at 0x%x%s%s", cases[i].name,
		 cases[i].dw[0], BATCH_ADDR + 4, cases[i].reason[0] == '(' ? " " : ": ",
		 cases[i].reason);
	CHECK(strstr(text, want) != NULL);
	snprintf(want, sizeof(want), " on %s\n", cases[i].engine);
	CHECK(strstr(text, want) != NULL);
	snprintf(want, sizeof(want), "IPEHR: 0x%08x", cases[i].dw[0]);
	CHECK(strstr(text, want) != NULL);
	char batch_line[80];
	snprintf(batch_line, sizeof(batch_line), "batch (%s) at 0x00000000_%08x",
		 cases[i].engine, BATCH_ADDR);
	const char *decoded[] = { "Detected GEN8 chipset", batch_line,
				  strcmp(cases[i].name, "unknown command") ? cases[i].name : NULL,
				  NULL };
	check_error_decode_text(text, decoded);
	free(text);
}

int main(void)
{
	struct gtsim_device *dev = eb_device(0, 100, 0);
	f = gtsim_open(dev);
	bad_bb = eb_create(f, 4096);
	good_bb = eb_create(f, 4096);
	target = eb_create(f, 4096);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_engine(dev, i);

	/* Linux 6.1's ban: the third hang of a context within 120 s bans it. */
	uint32_t bad = eb_context_create(f), good = eb_context_create(f);
	for (int i = 1; i <= 3; i++) {
		CHECK_EQ(submit_bad(bad, I915_EXEC_RENDER, cases[0].dw, cases[0].n), 0);
		CHECK_EQ(eb_wait(f, bad_bb, 5ll * 1000000000), 0);
	}
	CHECK_EQ(batches_active(bad), 3);
	CHECK_EQ(submit_bad(bad, I915_EXEC_RENDER, cases[0].dw, cases[0].n), -EIO);
	CHECK_EQ(submit_store(bad, I915_EXEC_RENDER, 0x7f0), -EIO);
	CHECK_EQ(submit_store(good, I915_EXEC_RENDER, 0x7f1), 0);
	CHECK_EQ(eb_wait(f, target, 5ll * 1000000000), 0);
	CHECK_EQ(eb_read32(f, target, 4 * (0x7f1 & 15)), 0x7f1);

	char path[512];
	gtsim_error_state_path(path, sizeof(path), NULL);
	unlink(path);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
