/* The GPGPU pipeline on the render engine (gpgpu.h): the command
 * streamer calls gpgpu_cs_command for the commands engine_handlers.c gives
 * it. The state of the engine's current logical context is owned by its
 * recorded state (cs_state_gpgpu), like the 3D pipeline's. */
#include <stdlib.h>

#include "gpu/cs/mi.h"
#include "gpu/cs/state.h"
#include "gpu/gpu.h"
#include "gpu/gpgpu/gpgpu.h"

static void gpgpu_free(void *gs)
{
	gpgpu_state_destroy(gs);
}

enum cs_result gpgpu_cs_command(struct gt_engine *e, const struct cmd_desc *d,
				const uint32_t *dw, uint32_t len)
{
	struct gpgpu_state *gs = cs_state_gpgpu(e->state);
	if (!gs) {
		gs = gpgpu_state_create(e->gpu->info);
		if (gs)
			cs_state_set_gpgpu(e->state, gs, gpgpu_free);
	}
	if (!gs || cs_state_record(e->state, d, dw, len))
		return cs_fault(e, "out of memory for the GPGPU state");
	struct gpgpu_env env = { .vm = cs_vm_for(e, false), .regs = &e->regs,
				 .predicate = mi_predicate_value(e) };
	if (gpgpu_command(gs, &env, d, dw, len) < 0)
		return cs_fault(e, "%s", gpgpu_fault(gs));
	return CS_NEXT;
}
