/* The front end on the render engine: the command streamer calls these
 * handlers (render_cs.h, named in the render engine's table in
 * gpu/cs/handlers.c) for the 3D commands the front end implements. The
 * render state of the engine's current logical context is owned by its
 * recorded state (cs_state_render): created with the first 3D command,
 * switched by MI_SET_CONTEXT with the rest of the context, freed when that
 * state is cleared or destroyed. */
#include <stdlib.h>

#include "gpu/cs/cs.h"
#include "gpu/cs/mi.h"
#include "gpu/cs/state.h"
#include "gpu/render/render_cs.h"
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

enum cs_result render_cs_command(struct gt_engine *e, const struct cmd_desc *d,
				 const uint32_t *dw, uint32_t len)
{
	struct render_state *rs = render_engine_state(e);
	if (!rs || cs_state_record(e->state, d, dw, len))
		return cs_fault(e, "out of memory for the 3D state");
	struct render_env env = { .vm = cs_vm_for(e, false), .regs = &e->regs,
				  .state = e->state, .predicate = mi_predicate_value(e) };
	if (render_command(rs, &env, d, dw, len) < 0)
		return cs_fault(e, "%s", render_fault(rs));
	return CS_NEXT;
}
