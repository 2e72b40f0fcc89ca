/* Per-context register state (i915 execlists: each intel_context has a
 * logical ring context image that the hardware saves at a switch and
 * loads back, and a new context's image is a copy of the engine's
 * default state; drivers/gpu/drm/i915/gt/intel_lrc.c, lrc_init_state
 * copies engine->default_state). The oracle is that rule with values
 * written by hand, the registers IGT's gem_ctx_isolation checks:
 *   - context A loads MI_PREDICATE_SRC0 (0x2400), the masked CACHE_MODE_1
 *     (0x7004: 0x00010001 sets bit 0) and, on the blitter, its GPR0
 *     (0x22600) with MI_LOAD_REGISTER_IMM from a user batch;
 *   - context B, created afterwards, reads them with
 *     MI_STORE_REGISTER_MEM: the default values, 0;
 *   - A reads its own values back after B ran (0x11111111, 1, 0xabcd),
 *     the masked one included.
 * Without the register images B sees A's values and A sees B's. */
#include <stdlib.h>

#include "eb_test.h"

#define RESULT_ADDR 0x200000ull
#define PRED_SRC0 0x2400u
#define CACHE_MODE_1 0x7004u
#define BCS_GPR0 0x22600u

/* Run dw (n dwords) in ctx on ring with the result object pinned. */
static void run(struct gtsim_file *f, uint32_t result, const uint32_t *dw, unsigned n,
		uint64_t ring, uint32_t ctx)
{
	uint32_t batch = eb_create(f, 4096);
	CHECK_EQ(eb_write(f, batch, 0, dw, n * 4), 0);
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = result, .offset = RESULT_ADDR,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = batch },
	};
	CHECK_EQ(eb_exec(f, objs, 2, ring, ctx), 0);
	CHECK_EQ(eb_wait(f, batch, 5000000000ll), 0);
	eb_close(f, batch);
}

/* Reads the three registers into result dwords base..base+2. */
static unsigned reads(uint32_t *dw, unsigned base)
{
	unsigned n = emit_srm(dw, PRED_SRC0, RESULT_ADDR + 4 * base);
	n += emit_srm(dw + n, CACHE_MODE_1, RESULT_ADDR + 4 * (base + 1));
	dw[n++] = MI_BATCH_BUFFER_END;
	return n;
}

/* The blitter's GPR0 of ctx into result dword i. */
static void read_bcs_gpr0(struct gtsim_file *f, uint32_t result, unsigned i, uint32_t ctx)
{
	uint32_t dw[5];
	unsigned n = emit_srm(dw, BCS_GPR0, RESULT_ADDR + 4 * i);
	dw[n++] = MI_BATCH_BUFFER_END;
	run(f, result, dw, n, I915_EXEC_BLT, ctx);
}

static void run_device(const char *name)
{
	struct gtsim_config cfg = { .device = name, .hangcheck_ms = 10000 };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t result = eb_create(f, 4096);
	uint32_t a = eb_context_create(f);
	uint32_t dw[64];
	unsigned n;

	/* A writes, then reads back (dwords 0-1) in the same batch. */
	n = emit_lri(dw, PRED_SRC0, 0x11111111);
	n += emit_lri(dw + n, CACHE_MODE_1, 0x00010001);
	n += reads(dw + n, 0);
	run(f, result, dw, n, I915_EXEC_RENDER, a);
	n = emit_lri(dw, BCS_GPR0, 0xabcd);
	n += emit_srm(dw + n, BCS_GPR0, RESULT_ADDR + 4 * 2);
	dw[n++] = MI_BATCH_BUFFER_END;
	run(f, result, dw, n, I915_EXEC_BLT, a);
	CHECK_EQ(eb_read32(f, result, 0), 0x11111111);
	CHECK_EQ(eb_read32(f, result, 4), 1);
	CHECK_EQ(eb_read32(f, result, 8), 0xabcd);

	/* B, new: the default image (dwords 3-5). */
	uint32_t b = eb_context_create(f);
	n = reads(dw, 3);
	run(f, result, dw, n, I915_EXEC_RENDER, b);
	read_bcs_gpr0(f, result, 5, b);
	CHECK_EQ(eb_read32(f, result, 12), 0);
	CHECK_EQ(eb_read32(f, result, 16), 0);
	CHECK_EQ(eb_read32(f, result, 20), 0);

	/* B dirties the predicate register; A's own values come back
	 * (dwords 6-8). */
	n = emit_lri(dw, PRED_SRC0, 0x22222222);
	dw[n++] = MI_BATCH_BUFFER_END;
	run(f, result, dw, n, I915_EXEC_RENDER, b);
	n = reads(dw, 6);
	run(f, result, dw, n, I915_EXEC_RENDER, a);
	read_bcs_gpr0(f, result, 8, a);
	CHECK_EQ(eb_read32(f, result, 24), 0x11111111);
	CHECK_EQ(eb_read32(f, result, 28), 1);
	CHECK_EQ(eb_read32(f, result, 32), 0xabcd);

	/* A context destroyed and a new one made: the new one starts from
	 * the default image, not from what the old one left (dword 9). */
	struct drm_i915_gem_context_destroy d = { .ctx_id = b };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &d), 0);
	uint32_t c = eb_context_create(f);
	n = emit_srm(dw, PRED_SRC0, RESULT_ADDR + 4 * 9);
	dw[n++] = MI_BATCH_BUFFER_END;
	run(f, result, dw, n, I915_EXEC_RENDER, c);
	CHECK_EQ(eb_read32(f, result, 36), 0);

	gtsim_close(f);
	gtsim_device_destroy(dev);
}

int main(void)
{
	run_device("bdw");
	run_device("skl");
	return test_exit();
}
