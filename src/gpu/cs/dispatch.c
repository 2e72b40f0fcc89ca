/* From a command's table entry to the code that executes it: the engine's
 * handler table (e->handlers: src/gpu/engine_handlers.c). A command with no handler is either a no-op
 * on the hardware too (the description's CMD_F_HW_NOOP) or not implemented
 * by gtsim, and then a GPU fault naming it, never a silent no-op. */
#include "gpu/cs/cs.h"

#include <stdio.h>

#include "common/trace.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/handlers.h"
#include "gpu/cs/state.h"

enum cs_result cs_record_state(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len)
{
	if (cs_state_record(e->state, d, dw, len))
		return cs_fault(e, "out of memory recording %s", d->name);
	return CS_NEXT;
}

enum cs_result cs_no_effect(struct gt_engine *e, const struct cmd_desc *d,
			    const uint32_t *dw, uint32_t len)
{
	return CS_NEXT;
}

/* Report each command kind once under the trace category stub. */
static void stub_once(struct gt_engine *e, const struct cmd_desc *d)
{
	static uint8_t reported[2][CMD_ID_COUNT];
	int gen = e->gpu->info->gen;
	if (gen < 8 || gen > 9 || d->id >= CMD_ID_COUNT)
		return;
	if (!__atomic_exchange_n(&reported[gen - 8][d->id], 1, __ATOMIC_RELAXED))
		TRACE(TRACE_STUB, "%s: %s not implemented in gtsim: a GPU fault",
		      e->name, d->name);
}

enum cs_result cs_not_implemented(struct gt_engine *e, const struct cmd_desc *d,
				  const uint32_t *dw, uint32_t len, const char *what)
{
	stub_once(e, d);
	char words[64] = "";
	size_t n = 0;
	for (uint32_t i = 1; i < len && i < 5 && n < sizeof(words); i++)
		n += (size_t)snprintf(words + n, sizeof(words) - n, " %08x", dw[i]);
	return cs_fault(e, "%s%s%s 0x%08x at 0x%llx: not implemented in gtsim (dwords %08x%s%s)",
			d->name, what ? " " : "", what ? what : "", dw[0],
			(unsigned long long)e->cmd_addr, dw[0], words, len > 5 ? " ..." : "");
}

enum cs_result cs_execute(struct gt_engine *e, const struct cmd_desc *d,
			  const uint32_t *dw, uint32_t len)
{
	/* INSTPM's instruction disables (3D state, 3D rendering, media) would
	 * make the engine skip those commands: not modelled. */
	if (e->instpm_disables && dw[0] >> 29 == 3) /* command type 3: GFXPIPE */
		return cs_fault(e, "%s 0x%08x at 0x%llx: INSTPM disables 3D/media instructions "
				"(0x%08x), which gtsim does not model", d->name, dw[0],
				(unsigned long long)e->cmd_addr, cs_reg_read(e, e->base + REG_RING_INSTPM));
	const cs_handler *table = e->handlers;
	cs_handler h = table && d->id < CMD_ID_COUNT ? table[d->id] : NULL;
	if (h)
		return h(e, d, dw, len);
	if (d->flags & CMD_F_HW_NOOP)
		return CS_NEXT;
	return cs_not_implemented(e, d, dw, len, NULL);
}
