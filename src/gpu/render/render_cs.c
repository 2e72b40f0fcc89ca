/* The front end on the render engine: the command streamer calls these
 * handlers (cs_register_handler) for the 3D commands the front end
 * implements. The render state of the engine's current logical context is
 * owned by its recorded state (cs_state_render): created with the first 3D
 * command, switched by MI_SET_CONTEXT with the rest of the context, freed
 * when that state is cleared or destroyed. */
#include <stdlib.h>

#include "gpu/cs/cs.h"
#include "gpu/cs/state.h"
#include "gpu/render/render_state.h"

static void render_free(void *rs)
{
	render_state_destroy(rs);
}

struct render_state *render_engine_state(struct gt_engine *e)
{
	struct render_state *rs = cs_state_render(e->state);
	if (!rs) {
		rs = render_state_create(e->gpu->info);
		if (rs)
			cs_state_set_render(e->state, rs, render_free);
	}
	return rs;
}

static enum cs_result render_handler(struct gt_engine *e, const struct cmd_desc *d,
				     const uint32_t *dw, uint32_t len)
{
	struct render_state *rs = render_engine_state(e);
	if (!rs || cs_state_record(e->state, d, dw, len))
		return cs_fault(e, "out of memory for the 3D state");
	struct render_env env = { .vm = cs_vm_for(e, false), .regs = &e->regs,
				  .state = e->state };
	if (render_command(rs, &env, d, dw, len) < 0)
		return cs_fault(e, "%s", render_fault(rs));
	return CS_NEXT;
}

__attribute__((constructor)) static void register_render_handlers(void)
{
	static const char *const names[] = {
		"PIPELINE_SELECT", "STATE_BASE_ADDRESS", "3DSTATE_VERTEX_BUFFERS",
		"3DSTATE_VERTEX_ELEMENTS", "3DSTATE_VF", "3DSTATE_VF_INSTANCING",
		"3DSTATE_VF_SGVS", "3DSTATE_VF_TOPOLOGY", "3DSTATE_VF_STATISTICS",
		"3DSTATE_INDEX_BUFFER", "3DSTATE_URB_VS", "3DSTATE_URB_HS",
		"3DSTATE_URB_DS", "3DSTATE_URB_GS", "3DSTATE_PUSH_CONSTANT_ALLOC_VS",
		"3DSTATE_PUSH_CONSTANT_ALLOC_HS", "3DSTATE_PUSH_CONSTANT_ALLOC_DS",
		"3DSTATE_PUSH_CONSTANT_ALLOC_GS", "3DSTATE_PUSH_CONSTANT_ALLOC_PS",
		"3DSTATE_CONSTANT_VS", "3DSTATE_BINDING_TABLE_POINTERS_VS",
		"3DSTATE_BINDING_TABLE_POINTERS_HS", "3DSTATE_BINDING_TABLE_POINTERS_DS",
		"3DSTATE_BINDING_TABLE_POINTERS_GS", "3DSTATE_BINDING_TABLE_POINTERS_PS",
		"3DSTATE_SAMPLER_STATE_POINTERS_VS", "3DSTATE_SAMPLER_STATE_POINTERS_HS",
		"3DSTATE_SAMPLER_STATE_POINTERS_DS", "3DSTATE_SAMPLER_STATE_POINTERS_GS",
		"3DSTATE_SAMPLER_STATE_POINTERS_PS", "3DSTATE_VS", "3DSTATE_HS",
		"3DSTATE_DS", "3DSTATE_GS", "3DSTATE_TE", "3DSTATE_STREAMOUT",
		"3DPRIMITIVE",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		cs_register_handler(names[i], render_handler);
}
