/* Domain shader threads (PRM vol. 2 "Domain Shader", vol. 7 "DS thread
 * payload"), SIMD8 dispatch of one patch's domain points (the
 * SIMD8_SINGLE_PATCH mode iris and anv use; GEN9's SINGLE_OR_DUAL_PATCH
 * lets the hardware choose, gtsim dispatches single patches). Payload:
 *   g0.0    the patch URB handle, g0.1 primitive ID; g0.3-5 as every 3D
 *           stage (sampler state, binding table, scratch),
 *   g1-g3   u, v and w of the 8 points (w = 1 - u - v with Compute W
 *           Coordinate Enable, else 0),
 *   g4      the output VUE handles,
 *   gS...   push constants (3DSTATE_CONSTANT_DS) from S, the dispatch GRF
 *           start, then Patch URB Entry Read Length registers of the patch
 *           entry from Read Offset (256-bit units, one register each). */
#include <string.h>

#include "common/trace.h"
#include "gpu/render/te_draw.h"

int ds_run_points(struct tess_draw *td, uint32_t patch, const uint32_t *points,
		  const uint32_t *handles, unsigned n)
{
	struct render_state *rs = td->rs;
	const struct ds_state *ds = &rs->tess.ds;
	struct eu_thread *t = td->ds.thread;
	unsigned next;
	eu_thread_init(t, 8, (1u << n) - 1);
	if (tess_thread_setup(td, t, RS_DS, &ds->consts, ds->grf_start, ds->scratch_space,
			      ds->scratch_base, &next, "DS"))
		return -1;
	eu_grf_set_ud(t, 0, 0, patch);
	eu_grf_set_ud(t, 0, 1, td->primitive_id);
	for (unsigned i = 0; i < n; i++) {
		float u = td->te->u[points[i]], v = td->te->v[points[i]];
		float w = ds->compute_w ? 1.0f - u - v : 0.0f;
		uint32_t b[3];
		memcpy(&b[0], &u, 4);
		memcpy(&b[1], &v, 4);
		memcpy(&b[2], &w, 4);
		for (int c = 0; c < 3; c++)
			eu_grf_set_ud(t, 1 + c, i, b[c]);
		eu_grf_set_ud(t, 4, i, handles[i]);
	}
	if (next + ds->read_length > EU_GRF_COUNT)
		return render_set_fault(rs, "DS: %u patch URB registers from g%u pass g127",
					ds->read_length, next);
	if (ds->read_length) {
		const char *why = "";
		const uint8_t *p = urb_entry_bytes(&rs->urb_space, patch, ds->read_offset * 32,
						   ds->read_length * 32, &why);
		if (!p)
			return render_set_fault(rs, "DS: reading %u patch URB registers at offset "
						"%u of patch 0x%x: %s", ds->read_length,
						ds->read_offset, patch, why);
		memcpy(eu_grf(t, next), p, ds->read_length * 32u);
	}
	TRACE(TRACE_TE, "DS thread: patch %u, %u points from %u, handles 0x%x..0x%x, patch URB "
	      "registers %u at g%u", td->primitive_id, n, points[0], handles[0], handles[n - 1],
	      ds->read_length, next);
	td->ds_threads++;
	return tess_thread_run(td, &td->ds, "DS");
}
