/* Hull shader threads (PRM vol. 2 "Hull Shader", vol. 7 "HS thread
 * payload"). 3DSTATE_HS Dispatch Mode (GEN9; GEN8 has SINGLE_PATCH only):
 *
 * SINGLE_PATCH, what iris and anv use: one SIMD8 thread per patch and
 * instance, all 8 channels on (an instance's channels are its output
 * control points; a vec4 HS takes them as two halves). Payload:
 *   g0.0    the patch URB entry's handle, g0.1 primitive ID,
 *   g1-g4   the input control points' VUE handles, 8 a register, when
 *           Include Vertex Handles is set (past the patch: vertex 0's).
 * 8_PATCH: one SIMD8 thread per instance for up to 8 patches, channel c
 * the same instance of patch c (the channels of absent patches off; facts
 * from Mesa's 8_PATCH TCS, commit 646924cf). Payload:
 *   g1      the 8 patches' URB handles,
 *   g2      their primitive IDs, with Include Primitive ID,
 *   then    with Include Vertex Handles one register per input vertex k:
 *           vertex k's VUE handle of each patch.
 * Both: g0.2 bits 23:17 the instance number and bits 16:13 the barrier ID;
 * g0.3-5 sampler state, binding table, scratch; from the dispatch GRF
 * start the push constants (3DSTATE_CONSTANT_HS).
 *
 * DUAL_PATCH faults by name in te_stage.c: no public document gtsim could
 * find gives its payload, and no driver emits it.
 *
 * The instances of a patch (a set of patches) run together, as the
 * hardware runs them in parallel: a thread that sends a gateway barrier
 * and waits yields to the others, and all resume once every instance has
 * arrived (the message's Barrier Count, m0.2 bits 14:9 with bit 15, as
 * Mesa's TCS barrier sets it: sfid/gateway.c). */
#include <string.h>

#include "common/trace.h"
#include "gpu/render/te_draw.h"

static int hs_setup(struct tess_draw *td, struct eu_thread *t, uint32_t inst, uint32_t mask)
{
	struct render_state *rs = td->rs;
	const struct hs_state *hs = &rs->tess.hs;
	unsigned next;
	eu_thread_init(t, 8, mask);
	if (tess_thread_setup(td, t, RS_HS, &hs->consts, hs->grf_start, hs->scratch_space,
			      hs->scratch_base, &next, "HS"))
		return -1;
	eu_grf_set_ud(t, 0, 2, inst << 17 | (td->hs_barrier_id & 15) << 13);
	return 0;
}

/* Run the set-up threads of every instance until each has ended. */
static int hs_run_instances(struct tess_draw *td, unsigned n)
{
	struct render_state *rs = td->rs;
	struct tess_kernel *k = &td->hs;
	td->hs_gateway = (struct gateway_group){
		.gen = rs->info->gen, .barrier_enable = true,
		.barrier_id = (td->hs_barrier_id & 15) << 24, .expected = n,
		.threads = td->hs_thread, .nthreads = n };
	k->units.gateway = &td->hs_gateway;
	unsigned ended = 0;
	for (unsigned i = 0; i < n; i++)
		tess_thread_wire(td, k, td->hs_thread[i]);
	td->hs_threads += n;
	while (ended < n) {
		bool ran = false;
		for (unsigned i = 0; i < n; i++) {
			struct eu_thread *t = td->hs_thread[i];
			if (t->state != EU_THREAD_READY)
				continue;
			ran = true;
			switch (exec_run(t, k->prog, 0)) {
			case EU_THREAD_DONE:
				ended++;
				break;
			case EU_THREAD_WAIT:
				TRACE(TRACE_TE, "HS instance %u waits at the barrier (%u of %u "
				      "arrived)", i, td->hs_gateway.arrived,
				      td->hs_gateway.expected);
				break;
			case EU_THREAD_FAULT:
				return render_set_fault(rs, "HS thread (instance %u): %s", i,
							t->fault);
			default:
				return render_set_fault(rs, "HS thread (instance %u) did not end "
							"(%llu instructions)", i,
							(unsigned long long)t->instructions);
			}
		}
		if (!ran)
			return render_set_fault(rs, "GPU hang: HS barrier: %u of %u instances "
						"arrived, the others ended", td->hs_gateway.arrived,
						td->hs_gateway.expected);
	}
	td->hs_barrier_id++;
	return 0;
}

int hs_run_patch(struct tess_draw *td, uint32_t patch, const uint32_t *icp, unsigned n)
{
	const struct hs_state *hs = &td->rs->tess.hs;
	for (uint32_t inst = 0; inst < hs->instances; inst++) {
		struct eu_thread *t = td->hs_thread[inst];
		if (hs_setup(td, t, inst, 0xff))
			return -1;
		eu_grf_set_ud(t, 0, 0, patch);
		eu_grf_set_ud(t, 0, 1, td->primitive_id);
		/* slots past the patch's n vertices hold no vertex (GL leaves
		 * reading them undefined); gtsim repeats vertex 0's handle there
		 * so such a read stays inside the URB */
		for (unsigned i = 0; hs->vertex_handles && i < 32; i++)
			eu_grf_set_ud(t, 1 + i / 8, i % 8, icp[i < n ? i : 0]);
	}
	TRACE(TRACE_TE, "HS SINGLE_PATCH: patch %u, %u instances, patch handle 0x%x, %u control "
	      "points 0x%x..0x%x", td->primitive_id, hs->instances, patch, n, icp[0], icp[n - 1]);
	return hs_run_instances(td, hs->instances);
}

int hs_run_8_patch(struct tess_draw *td, const struct hs_patch *p, unsigned np, unsigned n)
{
	const struct hs_state *hs = &td->rs->tess.hs;
	struct render_state *rs = td->rs;
	unsigned icp_reg = 2 + hs->primitive_id;
	if (hs->vertex_handles && icp_reg + n > hs->grf_start)
		return render_set_fault(rs, "3DSTATE_HS: 8_PATCH payload of %u registers passes the "
					"Dispatch GRF Start %u", icp_reg + n, hs->grf_start);
	for (uint32_t inst = 0; inst < hs->instances; inst++) {
		struct eu_thread *t = td->hs_thread[inst];
		if (hs_setup(td, t, inst, (1u << np) - 1))
			return -1;
		for (unsigned c = 0; c < np; c++) {
			eu_grf_set_ud(t, 1, c, p[c].handle);
			if (hs->primitive_id)
				eu_grf_set_ud(t, 2, c, p[c].prim_id);
			for (unsigned k = 0; hs->vertex_handles && k < n; k++)
				eu_grf_set_ud(t, icp_reg + k, c, p[c].icp[k]);
		}
	}
	TRACE(TRACE_TE, "HS 8_PATCH: patches %u..%u, %u instances, patch handles 0x%x..0x%x, %u "
	      "control points each", p[0].prim_id, p[np - 1].prim_id, hs->instances, p[0].handle,
	      p[np - 1].handle, n);
	return hs_run_instances(td, hs->instances);
}
