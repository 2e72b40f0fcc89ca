/* Isolation (issue 16), with batches encoded by hand from the BDW PRM
 * (vol. 2a MI commands) on BDW and SKL:
 *  - a context's batch cannot reach another context's PPGTT: context B
 *    stores to the address where context A's object is softpinned (in
 *    B's PPGTT nothing is there: a page fault, no scratch page), A's
 *    object keeps its contents; B storing where its own object is pinned
 *    changes B's object only;
 *  - the same between two files;
 *  - a GEM handle of one file means nothing in another: -ENOENT for a
 *    handle only the other has; a handle both have names each file's own
 *    object;
 *  - privileged commands and registers in a non-privileged (PPGTT) batch,
 *    as seed 004 and the PRM's command pages say: MI_STORE_DATA_IMM with
 *    Use Global GTT executes as MI_NOOP (neither the PPGTT object at the
 *    same address nor anything after changes; the batch goes on: its next
 *    store lands), MI_LOAD_REGISTER_IMM to RING_PDP0 (the PPGTT root, the
 *    kernel's) is dropped (the batch's later store still goes through the
 *    same PPGTT, the register keeps its value), while MI_LOAD_REGISTER_IMM
 *    of a user register (CS_GPR0, 0x2600) takes effect (read back by
 *    MI_STORE_REGISTER_MEM). */
#include "integration/kernel/eb_test.h"

#define PIN_T 0x100000ull
#define PIN_BB 0x300000ull
#define RCS_PDP0_LDW 0x2270u
#define CS_GPR0 0x2600u
#define MI_STORE_DWORD_IMM_GGTT (MI_STORE_DWORD_IMM_GEN8 | (1u << 22))

static struct gtsim_device *dev;

/* bb: dw[0..n) + MI_BATCH_BUFFER_END; target t and bb softpinned;
 * waited for. Returns execbuf's result. */
static int run(struct gtsim_file *f, uint32_t ctx, uint32_t t, uint32_t bb,
	       const uint32_t *dw, unsigned n)
{
	uint32_t buf[64];
	memcpy(buf, dw, n * 4);
	buf[n++] = MI_BATCH_BUFFER_END;
	buf[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, bb, 0, buf, n * 4), 0);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = t, .offset = PIN_T, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = PIN_BB, .flags = EXEC_OBJECT_PINNED } };
	int r = eb_exec(f, o, 2, 0, ctx);
	if (!r)
		CHECK_EQ(eb_wait(f, bb, 10ll * 1000000000), 0);
	return r;
}

static unsigned guilty(struct gtsim_file *f, uint32_t ctx)
{
	struct drm_i915_reset_stats rs = { .ctx_id = ctx };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	return rs.batch_active;
}

/* An object that is not in the exec list: a store to PIN_T from another
 * PPGTT finds nothing there. */
static int run_without_target(struct gtsim_file *f, uint32_t ctx, uint32_t bb,
			      uint32_t value)
{
	uint32_t buf[8];
	unsigned n = emit_store(buf, PIN_T, value);
	buf[n++] = MI_BATCH_BUFFER_END;
	buf[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, bb, 0, buf, n * 4), 0);
	struct drm_i915_gem_exec_object2 o = { .handle = bb, .offset = PIN_BB,
					       .flags = EXEC_OBJECT_PINNED };
	int r = eb_exec(f, &o, 1, 0, ctx);
	if (!r)
		CHECK_EQ(eb_wait(f, bb, 10ll * 1000000000), 0);
	return r;
}

static void contexts_and_files(void)
{
	struct gtsim_file *f = gtsim_open(dev), *g = gtsim_open(dev);
	uint32_t a = eb_context_create(f), b = eb_context_create(f), c = eb_context_create(g);
	uint32_t ta = eb_create(f, 4096), tb = eb_create(f, 4096), bb = eb_create(f, 4096);
	uint32_t bbg = eb_create(g, 4096);
	uint32_t dw[4];
	emit_store(dw, PIN_T, 0xaaaa0001);
	CHECK_EQ(run(f, a, ta, bb, dw, 4), 0);
	CHECK_EQ(eb_read32(f, ta, 0), 0xaaaa0001);

	/* context B, same file, nothing at PIN_T in its PPGTT: a fault */
	unsigned g0 = guilty(f, b);
	CHECK_EQ(run_without_target(f, b, bb, 0xbbbb0001), 0);
	CHECK_EQ(guilty(f, b), g0 + 1);
	CHECK_EQ(eb_read32(f, ta, 0), 0xaaaa0001);
	/* B's own object at the same address: only it changes */
	emit_store(dw, PIN_T, 0xbbbb0002);
	CHECK_EQ(run(f, b, tb, bb, dw, 4), 0);
	CHECK_EQ(eb_read32(f, tb, 0), 0xbbbb0002);
	CHECK_EQ(eb_read32(f, ta, 0), 0xaaaa0001);

	/* another file: the same, in its own context and its default one */
	CHECK_EQ(run_without_target(g, c, bbg, 0xcccc0001), 0);
	CHECK_EQ(guilty(g, c), 1);
	CHECK_EQ(run_without_target(g, 0, bbg, 0xcccc0002), 0);
	CHECK_EQ(eb_read32(f, ta, 0), 0xaaaa0001);
	CHECK_EQ(eb_read32(f, tb, 0), 0xbbbb0002);

	/* handles: ta's number in g names nothing (g has bbg only) ... */
	uint32_t v;
	uint32_t only_f = ta > bbg ? ta : tb > bbg ? tb : bb;
	CHECK(only_f != bbg);
	CHECK_EQ(eb_read(g, only_f, 0, &v, 4), -ENOENT);
	struct drm_i915_gem_exec_object2 o = { .handle = only_f };
	CHECK_EQ(eb_exec(g, &o, 1, 0, 0), -ENOENT);
	struct drm_gem_close cl = { .handle = only_f };
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_GEM_CLOSE, &cl), -EINVAL);   /* i915: unknown handle */
	/* ... and a number both files have names each one's own object */
	const uint32_t mark = 0x66666666;
	CHECK_EQ(eb_write(g, bbg, 0, &mark, 4), 0);
	if (bbg == ta || bbg == tb || bbg == bb) {
		uint32_t fv = eb_read32(f, bbg, 0);
		CHECK(fv != mark);
	}
	CHECK_EQ(eb_read32(g, bbg, 0), mark);
	CHECK_EQ(eb_read32(f, ta, 0), 0xaaaa0001);
	gtsim_close(f);
	gtsim_close(g);
}

static void privileged(void)
{
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t ctx = eb_context_create(f);
	uint32_t t = eb_create(f, 4096), bb = eb_create(f, 4096);
	/* MI_STORE_DATA_IMM with Use Global GTT at PIN_T, then a PPGTT store
	 * of a second value at PIN_T + 4 */
	uint32_t dw[16];
	unsigned n = emit_store(dw, PIN_T, 0x61617461);
	dw[0] = MI_STORE_DWORD_IMM_GGTT;
	n += emit_store(dw + n, PIN_T + 4, 0x600d0001);
	CHECK_EQ(run(f, ctx, t, bb, dw, n), 0);
	CHECK_EQ(eb_read32(f, t, 0), 0);
	CHECK_EQ(eb_read32(f, t, 4), 0x600d0001);
	CHECK_EQ(guilty(f, ctx), 0);

	/* MI_LOAD_REGISTER_IMM of RING_PDP0: dropped */
	uint32_t pdp = gtsim_mmio_read(dev, RCS_PDP0_LDW);
	n = 0;
	dw[n++] = MI_LOAD_REGISTER_IMM1;
	dw[n++] = RCS_PDP0_LDW;
	dw[n++] = 0xdead0000;
	n += emit_store(dw + n, PIN_T + 8, 0x600d0002);
	CHECK_EQ(run(f, ctx, t, bb, dw, n), 0);
	CHECK_EQ(eb_read32(f, t, 8), 0x600d0002);
	CHECK(gtsim_mmio_read(dev, RCS_PDP0_LDW) != 0xdead0000);
	(void)pdp;
	CHECK_EQ(guilty(f, ctx), 0);

	/* a user register: loaded, then stored to PIN_T + 12 */
	n = 0;
	dw[n++] = MI_LOAD_REGISTER_IMM1;
	dw[n++] = CS_GPR0;
	dw[n++] = 0x12345678;
	dw[n++] = MI_STORE_REGISTER_MEM_GEN8;
	dw[n++] = CS_GPR0;
	dw[n++] = (uint32_t)(PIN_T + 12);
	dw[n++] = 0;
	CHECK_EQ(run(f, ctx, t, bb, dw, n), 0);
	CHECK_EQ(eb_read32(f, t, 12), 0x12345678);
	gtsim_close(f);
}

int main(void)
{
	setenv("GTSIM_ERROR_STATE", "/dev/null", 1);
	static const char *const devices[] = { "bdw", "skl" };
	for (int i = 0; i < 2; i++) {
		printf("%s\n", devices[i]);
		struct gtsim_config cfg = { .device = devices[i], .hangcheck_ms = 100 };
		dev = gtsim_device_create(&cfg);
		if (!dev)
			test_skip("gtsim_device_create failed");
		contexts_and_files();
		privileged();
		gtsim_device_destroy(dev);
	}
	return test_exit();
}
