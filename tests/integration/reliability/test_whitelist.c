/* Gen9's register whitelist (issue 16): i915 writes, into the render
 * engine's RING_FORCE_TO_NONPRIV slots (engine base + 0x4d0, twelve), the
 * registers non-privileged batches may write (Linux 6.1
 * gt/intel_workarounds.c skl_whitelist_build; intel_engine_apply_whitelist
 * fills the unused slots with RING_NOPID, base + 0x94). The list below is
 * i915's, typed from its source, not gtsim's. Batches encoded by hand
 * (BDW/SKL PRM vol. 2a: MI_LOAD_REGISTER_IMM, MI_STORE_REGISTER_MEM) run
 * in a PPGTT (non-privileged) batch:
 *  - SKL: the slots read back i915's list; an LRI of each whitelisted
 *    register takes effect (read back by MI_STORE_REGISTER_MEM; the
 *    masked ones keep only the bits whose enable bit, 16 higher, is set);
 *    an LRI of a slot itself is dropped (a batch cannot whitelist a
 *    register: RING_EMR, which it tried to name, stays privileged);
 *  - BDW: no whitelist: an LRI of each of the five is dropped (IGT's
 *    gem_ctx_isolation: privileged unless enabled by FORCE_TO_NONPRIV),
 *    the register keeps its value and the batch goes on (its last store
 *    lands). */
#include <stdbool.h>

#include "integration/kernel/eb_test.h"

#define PIN_T 0x100000ull
#define PIN_BB 0x300000ull
#define RCS_BASE 0x2000u
#define FORCE_TO_NONPRIV(i) (RCS_BASE + 0x4d0u + 4u * (i))
#define RCS_NOPID (RCS_BASE + 0x94u)

/* i915 (Linux 6.1) skl_whitelist_build, render engine, in its order */
static const uint32_t skl_whitelist[] = {
	0x2248,   /* GEN9_CTX_PREEMPT_REG */
	0x2580,   /* GEN8_CS_CHICKEN1 */
	0x7304,   /* GEN8_HDC_CHICKEN1 */
	0x7014,   /* COMMON_SLICE_CHICKEN2 */
	0xb118,   /* GEN8_L3SQCREG4 */
};
/* masked registers (the write's upper half enables its lower half's
 * bits; i915 writes them with _MASKED_BIT_ENABLE) */
static const bool skl_masked[] = { false, true, true, true, false };

#define RCS_EMR (RCS_BASE + 0xb4u)   /* RING_EMR: the kernel's */

/* The register into the target at byte off. */
static unsigned srm(uint32_t *dw, uint32_t reg, uint32_t off)
{
	return emit_srm(dw, reg, PIN_T + off);
}

/* Runs dw[0..n) as a PPGTT batch of a new file with the target softpinned
 * at PIN_T; returns the target's first 1024 dwords. */
static void run(struct gtsim_device *dev, const uint32_t *dw, unsigned n, uint32_t *out)
{
	struct gtsim_file *f = gtsim_open(dev);
	CHECK(f != NULL);
	uint32_t t = eb_create(f, 4096), bb = eb_create(f, 8192);
	uint32_t buf[1024];
	memcpy(buf, dw, n * 4);
	buf[n++] = MI_BATCH_BUFFER_END;
	buf[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, bb, 0, buf, n * 4), 0);
	struct drm_i915_gem_exec_object2 o[2] = {
		{ .handle = t, .offset = PIN_T, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = PIN_BB, .flags = EXEC_OBJECT_PINNED } };
	CHECK_EQ(eb_exec(f, o, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, bb, 10ll * 1000000000), 0);
	CHECK_EQ(eb_read(f, t, 0, out, 4096), 0);
	gtsim_close(f);
}

static struct gtsim_device *device(const char *name)
{
	struct gtsim_config cfg = { .device = name, .hangcheck_ms = 1000 };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	return dev;
}

/* What a write of v leaves in a register that held old. */
static uint32_t written(bool masked, uint32_t old, uint32_t v)
{
	if (!masked)
		return v;
	uint32_t enable = v >> 16;
	return (old & ~enable & 0xffffu) | (v & enable & 0xffffu);
}

static void skl(void)
{
	struct gtsim_device *dev = device("skl");
	uint32_t dw[900], out[1024];
	unsigned n = 0;
	const unsigned nw = sizeof(skl_whitelist) / sizeof(skl_whitelist[0]);
	/* 0x000: the slots; 0x100: each register before; 0x200: after its
	 * LRI; 0x320: slot 5 after a batch's LRI of it, 0x324 and 0x328:
	 * RING_EMR before and after an LRI of it, 0x32c: the last store */
	for (unsigned i = 0; i < 12; i++)
		n += srm(dw + n, FORCE_TO_NONPRIV(i), 4 * i);
	const uint32_t values[] = { 0x00000003, 0x00070005, 0x00ff00a5, 0x80018001, 0x40000000 };
	for (unsigned i = 0; i < nw; i++) {
		n += srm(dw + n, skl_whitelist[i], 0x100 + 4 * i);
		n += emit_lri(dw + n, skl_whitelist[i], values[i]);
		n += srm(dw + n, skl_whitelist[i], 0x200 + 4 * i);
	}
	n += emit_lri(dw + n, FORCE_TO_NONPRIV(5), RCS_EMR);
	n += srm(dw + n, FORCE_TO_NONPRIV(5), 0x320);
	n += srm(dw + n, RCS_EMR, 0x324);
	n += emit_lri(dw + n, RCS_EMR, 0x1234);
	n += srm(dw + n, RCS_EMR, 0x328);
	n += emit_store(dw + n, PIN_T + 0x32c, 0x600df00d);
	run(dev, dw, n, out);

	for (unsigned i = 0; i < 12; i++)
		CHECK_EQ(out[i], i < nw ? skl_whitelist[i] : RCS_NOPID);
	for (unsigned i = 0; i < nw; i++) {
		uint32_t want = written(skl_masked[i], out[0x40 + i], values[i]);
		if (out[0x80 + i] != want)
			fprintf(stderr, "whitelisted 0x%04x: 0x%08x before, wrote 0x%08x, read 0x%08x\n",
				skl_whitelist[i], out[0x40 + i], values[i], out[0x80 + i]);
		CHECK_EQ(out[0x80 + i], want);
	}
	CHECK_EQ(out[0xc8], RCS_NOPID);   /* the slot kept i915's value */
	CHECK_EQ(out[0xca], out[0xc9]);   /* RING_EMR still privileged */
	CHECK(out[0xca] != 0x1234);
	CHECK_EQ(out[0xcb], 0x600df00d);  /* the batch went on */
	gtsim_device_destroy(dev);
}

static void bdw(void)
{
	struct gtsim_device *dev = device("bdw");
	uint32_t dw[200], out[1024];
	unsigned n = 0;
	/* SKL's list but its Gen9 preemption register: no whitelist on Gen8 */
	const uint32_t *regs = skl_whitelist + 1;
	for (unsigned i = 0; i < 4; i++) {
		n += srm(dw + n, regs[i], 0x100 + 4 * i);
		n += emit_lri(dw + n, regs[i], 0xffffffffu);
		n += srm(dw + n, regs[i], 0x200 + 4 * i);
	}
	n += emit_store(dw + n, PIN_T + 0x300, 0x600df00d);
	run(dev, dw, n, out);
	for (unsigned i = 0; i < 4; i++) {
		CHECK_EQ(out[0x80 + i], out[0x40 + i]);
		CHECK(out[0x80 + i] != 0xffffffffu && out[0x80 + i] != 0xffffu);
	}
	CHECK_EQ(out[0xc0], 0x600df00d);
	gtsim_device_destroy(dev);
}

int main(void)
{
	setenv("GTSIM_ERROR_STATE", "/dev/null", 1);
	skl();
	bdw();
	return test_exit();
}
