/* REG_READ: i915's whitelist has one register on gen8, the render
 * engine's 64-bit TIMESTAMP at 0x2358. The low bits of the offset are
 * flags: 0 reads it as one 64-bit access, 1 (I915_REG_READ_8B_WA) as two
 * 32-bit reads; any other offset is -EINVAL. */
#include <errno.h>
#include <i915_drm.h>

#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"

#include "gpu/cmd/cmd_structs.h"

/* The render engine's TIMESTAMP (0x2358) and its upper half. */
#define RENDER_TIMESTAMP (engine_mmio_base(ENGINE_RCS) + REG_RING_TIMESTAMP)
#define RENDER_TIMESTAMP_UDW (RENDER_TIMESTAMP + 4)

int i915_reg_read_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_reg_read *reg = arg;
	if ((reg->offset & ~7ull) != RENDER_TIMESTAMP)
		return -EINVAL;
	uint64_t flags = reg->offset & 7;
	if (flags != 0 && flags != I915_REG_READ_8B_WA)
		return -EINVAL;
	struct gt_gpu *gpu = file->dev->gpu;
	/* Read upper, lower, upper again so a carry between the two halves is
	 * not torn. */
	uint32_t hi, lo, hi2 = gpu_mmio_read(gpu, RENDER_TIMESTAMP_UDW);
	do {
		hi = hi2;
		lo = gpu_mmio_read(gpu, RENDER_TIMESTAMP);
		hi2 = gpu_mmio_read(gpu, RENDER_TIMESTAMP_UDW);
	} while (hi != hi2);
	reg->val = (uint64_t)hi << 32 | lo;
	return 0;
}
