/* MI commands the cs unit tests do not reach through execbuf, run from a
 * user (PPGTT, non-privileged) batch: MI_ARB_CHECK and MI_ARB_ON_OFF change
 * nothing visible (ARB_ON_OFF is privileged, so it is dropped here), the SO
 * registers Mesa's transform feedback queries use are plain registers
 * (LRI then SRM reads back what was written), and LRM/LRR/SRM move a
 * value memory -> GPR0 -> GPR1 -> memory. Encodings by hand from the BDW
 * PRM vol. 2a; register offsets from vol. 2c. */
#include "integration/kernel/eb_test.h"

#define MI_ARB_CHECK (0x05u << 23)
#define MI_ARB_ON_OFF_ENABLE ((0x08u << 23) | 1u)
#define MI_SRM_GEN8 ((0x24u << 23) | 2u)   /* 4 dwords */
#define MI_LRM_GEN8 ((0x29u << 23) | 2u)   /* 4 dwords */
#define MI_LRR ((0x2au << 23) | 1u)        /* 3 dwords */
#define SO_NUM_PRIMS_WRITTEN0 0x5200u
#define SO_WRITE_OFFSET0 0x5280u
#define CS_GPR0 0x2600u
#define CS_GPR1 0x2608u

static unsigned emit_reg_mem(uint32_t *dw, uint32_t op, uint32_t reg, uint64_t addr)
{
	dw[0] = op;
	dw[1] = reg;
	dw[2] = (uint32_t)addr;
	dw[3] = (uint32_t)(addr >> 32);
	return 4;
}

int main(void)
{
	struct gtsim_device *dev = eb_device(1, 0, 0);
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t target = eb_create(f, 4096), batch = eb_create(f, 4096);
	const uint64_t t = 0x100000, b = 0x200000;
	uint32_t seed = 0xabcd;
	CHECK_EQ(eb_write(f, target, 16, &seed, 4), 0);

	uint32_t dw[64];
	unsigned n = 0;
	dw[n++] = MI_ARB_CHECK;
	dw[n++] = MI_ARB_ON_OFF_ENABLE;
	dw[n++] = MI_LOAD_REGISTER_IMM1;
	dw[n++] = SO_NUM_PRIMS_WRITTEN0;
	dw[n++] = 0x12345678;
	dw[n++] = MI_LOAD_REGISTER_IMM1;
	dw[n++] = SO_WRITE_OFFSET0;
	dw[n++] = 0x40;
	n += emit_reg_mem(dw + n, MI_SRM_GEN8, SO_NUM_PRIMS_WRITTEN0, t + 0);
	n += emit_reg_mem(dw + n, MI_SRM_GEN8, SO_WRITE_OFFSET0, t + 4);
	n += emit_reg_mem(dw + n, MI_LRM_GEN8, CS_GPR0, t + 16);
	dw[n++] = MI_LRR;
	dw[n++] = CS_GPR0;
	dw[n++] = CS_GPR1;
	n += emit_reg_mem(dw + n, MI_SRM_GEN8, CS_GPR1, t + 8);
	dw[n++] = MI_BATCH_BUFFER_END;
	if (n & 1)
		dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, batch, 0, dw, n * 4), 0);

	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = target, .offset = t,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE | EXEC_OBJECT_SUPPORTS_48B_ADDRESS },
		{ .handle = batch, .offset = b,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS },
	};
	CHECK_EQ(eb_exec(f, obj, 2, I915_EXEC_RENDER | I915_EXEC_NO_RELOC, 0), 0);
	CHECK_EQ(eb_wait(f, target, 5ll * 1000000000), 0);
	CHECK_EQ(eb_read32(f, target, 0), 0x12345678);
	CHECK_EQ(eb_read32(f, target, 4), 0x40);
	CHECK_EQ(eb_read32(f, target, 8), 0xabcd);

	/* Nothing faulted: the context was not found guilty. */
	struct drm_i915_reset_stats rs = { .ctx_id = 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	CHECK_EQ(rs.batch_active, 0);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
