/* The register whitelist i915 programs into an engine's
 * RING_FORCE_TO_NONPRIV slots (Linux 6.1 gt/intel_workarounds.c:
 * skl_whitelist_build, intel_engine_apply_whitelist): on Skylake the render
 * engine's batches may write five registers non-privileged batches could
 * not otherwise reach; unused slots name RING_NOPID, which nothing writes.
 * Broadwell whitelists nothing. */
#include "kernel/request.h"

#include "common/trace.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/engine.h"
#include "kernel/device.h"

#define RING_MAX_NONPRIV_SLOTS 12

static const uint32_t skl_render_whitelist[] = {
	0x2248,   /* GEN9_CTX_PREEMPT_REG: WaVFEStateAfterPipeControlwithMediaStateClear */
	0x2580,   /* GEN8_CS_CHICKEN1: WaEnablePreemptionGranularityControlByUMD */
	0x7304,   /* GEN8_HDC_CHICKEN1: WaAllowUMDToModifyHDCChicken1 */
	0x7014,   /* COMMON_SLICE_CHICKEN2: WaSendPushConstantsFromMMIO */
	0xb118,   /* GEN8_L3SQCREG4: WaDisableLSQCROPERFforOCL */
};

void engine_apply_whitelist(struct rq_engine *e)
{
	if (e->dev->info->gen != 9)
		return;
	unsigned n = e->id == ENGINE_RCS ? sizeof(skl_render_whitelist) / sizeof(uint32_t) : 0;
	for (unsigned i = 0; i < RING_MAX_NONPRIV_SLOTS; i++)
		engine_mmio_write(e->hw, REG_RING_FORCE_TO_NONPRIV + 4 * i,
				  i < n ? skl_render_whitelist[i]
					: engine_mmio_base(e->id) + REG_RING_NOPID);
	TRACE(TRACE_GEM, "%s: %u registers whitelisted for non-privileged batches",
	      engine_name(e->id), n);
}
