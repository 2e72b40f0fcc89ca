/* Domain shader threads (PRM vol. 2 "Domain Shader", vol. 7 "DS thread
 * payload"). 3DSTATE_DS Dispatch Mode:
 * SIMD8_SINGLE_PATCH, what iris and anv use (GEN9's SINGLE_OR_DUAL_PATCH
 * lets the hardware choose; gtsim dispatches single patches): 8 domain
 * points of one patch a thread. Payload:
 *   g0.0    the patch URB handle, g0.1 primitive ID,
 *   g1-g3   u, v and w of the 8 points (w = 1 - u - v with Compute W
 *           Coordinate Enable, else 0),
 *   g4      the output VUE handles.
 * SIMD4X2 (the vec4 DS of Mesa's older compilers; brw_vec4_tes.cpp reads
 * its payload so): two points of one patch a thread, channels 0-3 the
 * first, 4-7 the second (4-7 off when there is one). Payload:
 *   g0.0    the first point's output VUE handle, g0.1 the second's (the
 *           header of its SIMD4x2 URB write, sfid/urb_simd4x2.c),
 *   g1      DWords 0-2 u, v, w of the first point, DWord 3 the patch URB
 *           handle, DWords 4-6 u, v, w of the second, DWord 7 primitive ID.
 * Both: g0.3-5 as every 3D stage (sampler state, binding table, scratch);
 * from the dispatch GRF start S the push constants (3DSTATE_CONSTANT_DS),
 * then Patch URB Entry Read Length registers of the patch entry from Read
 * Offset (256-bit units, one register each). */
#include <string.h>

#include "common/trace.h"
#include "gpu/render/te_draw.h"

/* Patch URB Entry Read Length registers of the patch entry at g[next]. */
static int ds_push_patch(struct tess_draw *td, struct eu_thread *t, uint32_t patch,
			 unsigned next)
{
	struct render_state *rs = td->rs;
	const struct ds_state *ds = &rs->tess.ds;
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
	return 0;
}

/* u, v and w of a domain point as DWords */
static void point_uvw(const struct tess_draw *td, uint32_t point, uint32_t b[3])
{
	float u = td->te->u[point], v = td->te->v[point];
	float w = td->rs->tess.ds.compute_w ? 1.0f - u - v : 0.0f;
	memcpy(&b[0], &u, 4);
	memcpy(&b[1], &v, 4);
	memcpy(&b[2], &w, 4);
}

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
		uint32_t b[3];
		point_uvw(td, points[i], b);
		for (int c = 0; c < 3; c++)
			eu_grf_set_ud(t, 1 + c, i, b[c]);
		eu_grf_set_ud(t, 4, i, handles[i]);
	}
	if (ds_push_patch(td, t, patch, next))
		return -1;
	TRACE(TRACE_TE, "DS thread: patch %u, %u points from %u, handles 0x%x..0x%x, patch URB "
	      "registers %u at g%u", td->primitive_id, n, points[0], handles[0], handles[n - 1],
	      ds->read_length, next);
	td->ds_threads++;
	return tess_thread_run(td, &td->ds, "DS");
}

int ds_run_points_simd4x2(struct tess_draw *td, uint32_t patch, const uint32_t *points,
			  const uint32_t *handles, unsigned n)
{
	struct render_state *rs = td->rs;
	const struct ds_state *ds = &rs->tess.ds;
	struct eu_thread *t = td->ds.thread;
	unsigned next;
	eu_thread_init(t, 8, n > 1 ? 0xff : 0x0f);
	if (tess_thread_setup(td, t, RS_DS, &ds->consts, ds->grf_start, ds->scratch_space,
			      ds->scratch_base, &next, "DS"))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		uint32_t b[3];
		point_uvw(td, points[i], b);
		eu_grf_set_ud(t, 0, i, handles[i]);
		for (int c = 0; c < 3; c++)
			eu_grf_set_ud(t, 1, 4 * i + c, b[c]);
	}
	eu_grf_set_ud(t, 1, 3, patch);
	eu_grf_set_ud(t, 1, 7, td->primitive_id);
	if (ds_push_patch(td, t, patch, next))
		return -1;
	TRACE(TRACE_TE, "DS SIMD4x2 thread: patch %u, %u points from %u, handles 0x%x 0x%x, "
	      "patch URB registers %u at g%u", td->primitive_id, n, points[0], handles[0],
	      n > 1 ? handles[1] : 0, ds->read_length, next);
	td->ds_threads++;
	return tess_thread_run(td, &td->ds, "DS");
}
