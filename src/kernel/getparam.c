/* GETPARAM: answered as i915 (Linux 6.1, Debian 12) answers on a BDW GT2
 * with execlists and full PPGTT. Unknown parameters are -EINVAL; the old
 * UMS ones and HuC status (no HuC on BDW) -ENODEV; a bad value pointer
 * -EFAULT. SETPARAM only had UMS-era parameters: -ENODEV. */
#include <errno.h>
#include <i915_drm.h>
#include <unistd.h>

#include "common/trace.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/params.h"
#include "common/user_copy.h"

/* INTEL_PPGTT_FULL */
#define PPGTT_FULL 2
/* i915_gem_mmap_gtt_version(): 4 since MMAP_OFFSET. */
#define MMAP_GTT_VERSION 4
/* i915_perf_ioctl_version() in 6.1. */
#define PERF_REVISION 5

static int param_value(const struct gtsim_device *dev, int32_t param, int *value)
{
	const struct gt_devinfo *info = dev->info;
	switch (param) {
	case I915_PARAM_IRQ_ACTIVE:
	case I915_PARAM_ALLOW_BATCHBUFFER:
	case I915_PARAM_LAST_DISPATCH:
	case I915_PARAM_HAS_EXEC_CONSTANTS:
	case I915_PARAM_HUC_STATUS:
		return -ENODEV;
	case I915_PARAM_CHIPSET_ID: *value = info->pci_device; return 0;
	case I915_PARAM_REVISION: *value = info->revision; return 0;
	case I915_PARAM_NUM_FENCES_AVAIL: *value = 32; return 0;
	case I915_PARAM_HAS_OVERLAY: *value = 0; return 0;
	case I915_PARAM_HAS_BSD:
	case I915_PARAM_HAS_BLT:
	case I915_PARAM_HAS_VEBOX: *value = 1; return 0;
	case I915_PARAM_HAS_BSD2: *value = 0; return 0;     /* GT2: one VCS */
	case I915_PARAM_HAS_LLC: *value = 1; return 0;
	case I915_PARAM_HAS_WT: *value = 0; return 0;       /* no eDRAM */
	case I915_PARAM_HAS_ALIASING_PPGTT: *value = PPGTT_FULL; return 0;
	case I915_PARAM_HAS_SEMAPHORES:   /* i915 6.1: the scheduler's cap */
		*value = !!(SCHEDULER_CAPS_OF(info->gen) & I915_SCHEDULER_CAP_SEMAPHORES);
		return 0;
	case I915_PARAM_HAS_SECURE_BATCHES: *value = 0; return 0; /* gen < 6 only */
	case I915_PARAM_CMD_PARSER_VERSION: *value = 0; return 0; /* no parser on BDW */
	case I915_PARAM_SUBSLICE_TOTAL: *value = info->num_subslices; return 0;
	case I915_PARAM_EU_TOTAL: *value = info->num_eus; return 0;
	case I915_PARAM_HAS_GPU_RESET:   /* i915_getparam.c: 2 with engine reset */
		*value = !params_hangcheck() || !params_reset() ? 0 : params_reset() >= 2 ? 2 : 1;
		return 0;
	case I915_PARAM_HAS_RESOURCE_STREAMER: *value = 0; return 0;
	case I915_PARAM_HAS_POOLED_EU: *value = 0; return 0;
	case I915_PARAM_MIN_EU_IN_POOL: *value = 0; return 0;
	case I915_PARAM_MMAP_GTT_VERSION: *value = MMAP_GTT_VERSION; return 0;
	case I915_PARAM_HAS_SCHEDULER: *value = SCHEDULER_CAPS_OF(info->gen); return 0;
	case I915_PARAM_MMAP_VERSION: *value = 1; return 0;
	case I915_PARAM_SLICE_MASK: *value = (1 << info->num_slices) - 1; return 0;
	case I915_PARAM_SUBSLICE_MASK:
		*value = (1 << (info->num_subslices / info->num_slices)) - 1;
		return 0;
	case I915_PARAM_CS_TIMESTAMP_FREQUENCY: *value = (int)info->timestamp_hz; return 0;
	case I915_PARAM_MMAP_GTT_COHERENT: *value = 1; return 0;
	case I915_PARAM_PERF_REVISION: *value = PERF_REVISION; return 0;
	/* Engine classes with context isolation: render, copy, video, enhance. */
	case I915_PARAM_HAS_CONTEXT_ISOLATION: *value = 0xf; return 0;
	case I915_PARAM_HAS_GEM:
	case I915_PARAM_HAS_PAGEFLIPPING:
	case I915_PARAM_HAS_EXECBUF2:
	case I915_PARAM_HAS_RELAXED_FENCING:
	case I915_PARAM_HAS_COHERENT_RINGS:
	case I915_PARAM_HAS_RELAXED_DELTA:
	case I915_PARAM_HAS_GEN7_SOL_RESET:
	case I915_PARAM_HAS_WAIT_TIMEOUT:
	case I915_PARAM_HAS_PRIME_VMAP_FLUSH:
	case I915_PARAM_HAS_PINNED_BATCHES:
	case I915_PARAM_HAS_EXEC_NO_RELOC:
	case I915_PARAM_HAS_EXEC_HANDLE_LUT:
	case I915_PARAM_HAS_COHERENT_PHYS_GTT:
	case I915_PARAM_HAS_EXEC_SOFTPIN:
	case I915_PARAM_HAS_EXEC_ASYNC:
	case I915_PARAM_HAS_EXEC_FENCE:
	case I915_PARAM_HAS_EXEC_CAPTURE:
	case I915_PARAM_HAS_EXEC_BATCH_FIRST:
	case I915_PARAM_HAS_EXEC_FENCE_ARRAY:
	case I915_PARAM_HAS_EXEC_SUBMIT_FENCE:
	case I915_PARAM_HAS_EXEC_TIMELINE_FENCES:
	case I915_PARAM_HAS_USERPTR_PROBE:
		*value = 1;
		return 0;
	default:
		return -EINVAL;
	}
}

int i915_getparam_ioctl(struct gtsim_file *file, void *arg)
{
	drm_i915_getparam_t *gp = arg;
	int value = 0;
	int ret = param_value(file->dev, gp->param, &value);
	if (!ret)
		ret = copy_to_user_ptr((uint64_t)(uintptr_t)gp->value, &value, sizeof(value));
	TRACE(TRACE_GEM, "getparam %d -> %d, value %d", gp->param, ret, ret ? 0 : value);
	return ret;
}

int i915_setparam_ioctl(struct gtsim_file *file, void *arg)
{
	(void)file; (void)arg;
	return -ENODEV;
}
