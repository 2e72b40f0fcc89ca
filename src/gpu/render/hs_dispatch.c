/* Hull shader threads (PRM vol. 2 "Hull Shader", vol. 7 "HS thread
 * payload"), SINGLE_PATCH dispatch, the mode GEN8 has and iris and anv use
 * on GEN9: one SIMD8 thread per patch and instance, all 8 channels on (an
 * instance's channels are its output control points). Payload:
 *   g0.0    the patch URB entry's handle (the thread writes the patch header
 *           and outputs there), g0.1 primitive ID, g0.2 bits 23:17 the
 *           instance number; g0.3-5 sampler state, binding table, scratch,
 *   g1-g4   the input control points' VUE handles, 8 a register, when
 *           Include Vertex Handles is set (past the patch: vertex 0's),
 *   gS...   push constants (3DSTATE_CONSTANT_HS) from S, the dispatch GRF
 *           start. */
#include "common/trace.h"
#include "gpu/render/te_draw.h"

int hs_run_patch(struct tess_draw *td, uint32_t patch, const uint32_t *icp, unsigned n)
{
	struct render_state *rs = td->rs;
	const struct hs_state *hs = &rs->tess.hs;
	struct eu_thread *t = td->hs.thread;
	for (uint32_t inst = 0; inst < hs->instances; inst++) {
		unsigned next;
		eu_thread_init(t, 8, 0xff);
		if (tess_thread_setup(td, t, RS_HS, &hs->consts, hs->grf_start, hs->scratch_space,
				      hs->scratch_base, &next, "HS"))
			return -1;
		eu_grf_set_ud(t, 0, 0, patch);
		eu_grf_set_ud(t, 0, 1, td->primitive_id);
		eu_grf_set_ud(t, 0, 2, inst << 17);
		/* slots past the patch's n vertices hold no vertex (GL leaves
		 * reading them undefined); gtsim repeats vertex 0's handle there
		 * so such a read stays inside the URB */
		for (unsigned i = 0; hs->vertex_handles && i < 32; i++)
			eu_grf_set_ud(t, 1 + i / 8, i % 8, icp[i < n ? i : 0]);
		TRACE(TRACE_TE, "HS thread: patch %u instance %u/%u, patch handle 0x%x, %u control "
		      "points 0x%x..0x%x, %u push constant registers at g%u", td->primitive_id,
		      inst, hs->instances, patch, n, icp[0], icp[n - 1], next - hs->grf_start,
		      hs->grf_start);
		if (tess_thread_run(td, &td->hs, "HS"))
			return -1;
		td->hs_threads++;
	}
	return 0;
}
