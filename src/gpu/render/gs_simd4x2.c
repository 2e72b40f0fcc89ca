/* SIMD4x2 GS threads (3DSTATE_GS Dispatch Mode DUAL_OBJECT and
 * DUAL_INSTANCE; PRM vol. 7 "GS Thread Payload"; the vec4 GS, whose
 * registers hold two 4-channel halves: channels 0-3 slot 0, 4-7 slot 1).
 * A thread runs up to two objects, each with an output entry of its own:
 * DUAL_OBJECT two input primitives (or two instances, in object order),
 * DUAL_INSTANCE instances 2i and 2i + 1 of one primitive. The payload:
 *   g0.0, g0.1  slot 0's and slot 1's output URB handles (bits 15:0), the
 *               slot's instance number in bits 31:27; g0.2 0 (its other
 *               fields are not modelled); g0.3-5 as a SIMD8 GS's,
 *   g1          with Include Primitive ID: DWord 0 slot 0's primitive ID,
 *               DWord 4 slot 1's,
 *   gS...       from the Dispatch GRF Start S: the push constants, then the
 *               input vertices' Read Length x 2 rows from Read Offset x 2:
 *               DUAL_OBJECT one row a register (slot 0's primitive in the
 *               lower half, slot 1's in the upper), DUAL_INSTANCE two rows
 *               a register (the one primitive's rows k, k + 1 of all its
 *               vertices in turn), as the vec4 compiler lays out its
 *               attributes (attributes_per_reg 1 and 2).
 * The thread writes its entries with SIMD4x2 URB writes (sfid/urb_simd4x2.c)
 * and ends with EOT. Include Vertex Handles faults in gs_state_check. */
#include <string.h>

#include "common/trace.h"
#include "gpu/eu/exec.h"
#include "gpu/render/gs_stage.h"

/* The rows of every input vertex, from the dispatch GRF start on. */
static int push_rows(struct gs_stage *gs, struct eu_thread *t, unsigned grf,
		     const struct vue_prim *const *obj, unsigned n, bool dual_instance)
{
	struct render_state *rs = gs->rs;
	const struct gs_state *st = &rs->gs;
	uint32_t nrows = st->read_length * 2;
	unsigned rows = gs->nverts * nrows;
	unsigned regs = dual_instance ? (rows + 1) / 2 : rows;
	if (grf + regs > EU_GRF_COUNT)
		return render_set_fault(rs, "GS: %u URB rows of %u vertices from g%u pass g127",
					nrows, gs->nverts, grf);
	for (unsigned s = 0; s < (dual_instance ? 1 : n) && nrows; s++)
		for (unsigned v = 0; v < gs->nverts; v++) {
			const uint8_t *vue = gs_input_rows(gs, obj[s]->vue[v]);
			if (!vue)
				return -1;
			for (uint32_t r = 0; r < nrows; r++) {
				unsigned a = v * nrows + r;
				unsigned reg = grf + (dual_instance ? a / 2 : a);
				unsigned half = dual_instance ? a % 2 : s;
				for (unsigned c = 0; c < 4; c++) {
					uint32_t x;
					memcpy(&x, vue + (r * 4 + c) * 4, 4);
					eu_grf_set_ud(t, reg, half * 4 + c, x);
				}
			}
		}
	return 0;
}

int gs_run_simd4x2(struct gs_stage *gs, const struct vue_prim *const *obj, const uint32_t *inst,
		   unsigned n)
{
	struct render_state *rs = gs->rs;
	const struct gs_state *st = &rs->gs;
	struct eu_thread *t = gs->thread;
	bool dual_instance = st->dispatch_mode == GS_DISPATCH_DUAL_INSTANCE;
	uint32_t out[2];

	uint64_t t0 = render_clock(rs);
	eu_thread_init(t, 8, n == 2 ? 0xffu : 0x0fu);
	gs_thread_header(gs, t);
	for (unsigned s = 0; s < n; s++) {
		out[s] = gs_alloc_entry(gs);
		eu_grf_set_ud(t, 0, s, out[s] | (st->instances > 1 ? inst[s] << 27 : 0));
	}
	unsigned r = 1;
	if (st->include_primitive_id) {
		for (unsigned s = 0; s < n; s++)
			eu_grf_set_ud(t, 1, 4 * s, obj[s]->prim_id);
		r++;
	}
	if (r > st->grf_start)
		return render_set_fault(rs, "3DSTATE_GS: the payload's %u registers pass the "
					"dispatch GRF start g%u", r, st->grf_start);
	unsigned grf;
	if (render_push_constants(rs, gs->env, t, &rs->gs_const, st->grf_start, "GS", &grf) ||
	    push_rows(gs, t, grf, obj, n, dual_instance))
		return -1;
	TRACE(TRACE_GS, "thread %llu: SIMD4x2 %s, %u %s, output handles 0x%x..0x%x, primitive ID "
	      "%u, instance %u, %u vertices each, push constants at g%u, URB rows %u..%u at g%u",
	      (unsigned long long)gs->threads, dual_instance ? "DUAL_INSTANCE" : "DUAL_OBJECT", n,
	      n == 1 ? "object" : "objects", out[0], out[n - 1], obj[0]->prim_id,
	      inst[0], gs->nverts, st->grf_start, st->read_offset * 2,
	      st->read_offset * 2 + st->read_length * 2 - 1, grf);
	return gs_thread_run(gs, t0, out, n);
}
