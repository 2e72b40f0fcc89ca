/* Geometry shader threads (PRM vol. 2 "GS Stage", vol. 7 "GS Thread
 * Payload", SIMD8 dispatch). The GS is a stage of the draw's chain
 * (stage.h): it gathers input primitives and runs a SIMD8 thread over up to
 * 8 of them, one primitive per channel, or, with instancing (Instance
 * Control > 0), over up to 8 instances of one primitive. The payload:
 *   g0      header (sampler state pointer, binding table pointer, scratch),
 *   g1      the channels' output URB handles (bits 15:0), the instance
 *           number in bits 31:27,
 *   g2      the primitive IDs, with Include Primitive ID,
 *   then    with Include Vertex Handles, the input vertices' URB handles:
 *           one register per vertex (channel = primitive) or, instanced,
 *           one DWord per vertex of one register,
 *   gS...   from the dispatch GRF start S: push constants (3DSTATE_
 *           CONSTANT_GS), then for every input vertex its Read Length x 2
 *           VUE rows from Read Offset x 2, 4 registers (x, y, z, w of the
 *           8 channels) per row.
 * The thread writes its output entry with URB writes (per-slot offsets)
 * and ends with EOT; gs_output.c then cuts the entry into primitives. */
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/eu/exec.h"
#include "gpu/render/kernel_load.h"
#include "gpu/render/gs_stage.h"
#include "gpu/render/render_state.h"

int render_push_constants(struct render_state *rs, const struct render_env *env,
			  struct eu_thread *t, const struct push_constants *pc, unsigned grf,
			  const char *stage, unsigned *next_grf)
{
	unsigned start = grf;
	for (int b = 0; b < 4; b++) {
		uint32_t regs = pc->len[b];
		if (!regs)
			continue;
		if (grf + regs > EU_GRF_COUNT)
			return render_set_fault(rs, "%s: %u push constant registers from g%u "
						"pass g127", stage, grf + regs - start, start);
		if (vm_read(&env->vm, pc->addr[b], eu_grf(t, grf), regs * 32u))
			return render_set_fault(rs, "%s: page fault reading constant buffer %d "
						"at 0x%llx", stage, b, (unsigned long long)pc->addr[b]);
		grf += regs;
	}
	*next_grf = grf;
	return 0;
}

uint32_t gs_alloc_entry(struct gs_stage *gs)
{
	const struct urb_partition *p = &gs->rs->urb[GS_PART];
	uint32_t e = gs->next_entry++ % p->entries;
	return (p->start * 8192 + e * p->size * 64) / 64;
}

const uint8_t *gs_input_rows(struct gs_stage *gs, uint32_t ref)
{
	struct render_state *rs = gs->rs;
	uint32_t first_row = rs->gs.read_offset * 2, nrows = rs->gs.read_length * 2;
	const char *why = "";
	const uint8_t *vue = urb_entry_bytes(&rs->urb_space, vue_ref_handle(ref),
					     vue_ref_byte_offset(ref) + first_row * 16, nrows * 16,
					     &why);
	if (!vue)
		render_set_fault(rs, "GS: reading rows %u..%u of input VUE 0x%x: %s", first_row,
				 first_row + nrows - 1, vue_ref_handle(ref), why);
	return vue;
}

/* The input vertices' rows from Read Offset, pushed for each channel. */
static int push_vertices(struct gs_stage *gs, struct eu_thread *t, unsigned grf,
			 const struct vue_prim *const *chan, unsigned nchan)
{
	struct render_state *rs = gs->rs;
	const struct gs_state *st = &rs->gs;
	uint32_t nrows = st->read_length * 2;
	if (grf + gs->nverts * nrows * 4 > EU_GRF_COUNT)
		return render_set_fault(rs, "GS: %u URB rows of %u vertices from g%u pass g127",
					nrows, gs->nverts, grf);
	for (unsigned c = 0; c < nchan && nrows; c++)
		for (unsigned v = 0; v < gs->nverts; v++) {
			const uint8_t *vue = gs_input_rows(gs, chan[c]->vue[v]);
			if (!vue)
				return -1;
			for (uint32_t r = 0; r < nrows; r++)
				for (unsigned k = 0; k < 4; k++) {
					uint32_t x;
					memcpy(&x, vue + (r * 4 + k) * 4, 4);
					eu_grf_set_ud(t, grf + (v * nrows + r) * 4 + k, c, x);
				}
		}
	return 0;
}

/* One SIMD8 thread: channel c runs primitive chan[c] as instance inst0 + c
 * (instanced) or instance 0. */
static int run_thread(struct gs_stage *gs, const struct vue_prim *const *chan, unsigned nchan,
		      uint32_t inst0, bool instanced)
{
	struct render_state *rs = gs->rs;
	const struct gs_state *st = &rs->gs;
	struct eu_thread *t = gs->thread;
	uint32_t out[8];

	uint64_t t0 = render_clock(rs);
	eu_thread_init(t, 8, (1u << nchan) - 1);
	gs_thread_header(gs, t);
	for (unsigned c = 0; c < nchan; c++) {
		out[c] = gs_alloc_entry(gs);
		eu_grf_set_ud(t, 1, c, out[c] | (instanced ? (inst0 + c) << 27 : 0));
	}
	unsigned r = 2;
	if (st->include_primitive_id) {
		for (unsigned c = 0; c < nchan; c++)
			eu_grf_set_ud(t, r, c, chan[c]->prim_id);
		r++;
	}
	if (st->include_vertex_handles) {
		if (instanced) {
			for (unsigned v = 0; v < gs->nverts; v++)
				eu_grf_set_ud(t, r, v, vue_ref_handle(chan[0]->vue[v]));
			r++;
		} else {
			for (unsigned v = 0; v < gs->nverts; v++, r++)
				for (unsigned c = 0; c < nchan; c++)
					eu_grf_set_ud(t, r, c, vue_ref_handle(chan[c]->vue[v]));
		}
	}
	if (r > st->grf_start)
		return render_set_fault(rs, "3DSTATE_GS: the payload's %u registers pass the "
					"dispatch GRF start g%u", r, st->grf_start);
	unsigned grf;
	if (render_push_constants(rs, gs->env, t, &rs->gs_const, st->grf_start, "GS", &grf) ||
	    push_vertices(gs, t, grf, chan, nchan))
		return -1;
	TRACE(TRACE_GS, "thread %llu: SIMD8, %u %s, output handles 0x%x..0x%x, primitive "
	      "ID %u, %u vertices each, push constants at g%u, URB rows %u..%u at g%u",
	      (unsigned long long)gs->threads, nchan, instanced ? "instances" : "primitives",
	      out[0], out[nchan - 1], chan[0]->prim_id, gs->nverts, st->grf_start,
	      st->read_offset * 2, st->read_offset * 2 + st->read_length * 2 - 1, grf);
	return gs_thread_run(gs, t0, out, nchan);
}

void gs_thread_header(struct gs_stage *gs, struct eu_thread *t)
{
	struct render_state *rs = gs->rs;
	const struct gs_state *st = &rs->gs;
	eu_grf_set_ud(t, 0, 3, (rs->sampler_state[RS_GS] & ~31u) | (st->scratch_space & 15));
	eu_grf_set_ud(t, 0, 4, rs->binding_table[RS_GS] & ~31u);
	eu_grf_set_ud(t, 0, 5, ((uint32_t)st->scratch_base & ~1023u) |
		      (uint32_t)(gs->threads % 512));
	t->sfids = &render_sfids[RS_GS];
	t->sfid_units = &rs->gs_units;
	t->user = rs;
}

int gs_thread_run(struct gs_stage *gs, uint64_t t0, const uint32_t *out, unsigned n)
{
	struct render_state *rs = gs->rs;
	struct eu_thread *t = gs->thread;
	gs->threads++;
	uint64_t t1 = render_clock(rs);
	enum eu_thread_state s = exec_run(t, gs->prog, 0);
	rs->prof.dispatch_ns += t1 - t0;
	rs->prof.eu_ns += render_clock(rs) - t1;
	if (s == EU_THREAD_FAULT)
		return render_set_fault(rs, "GS thread: %s", t->fault);
	if (s != EU_THREAD_DONE)
		return render_set_fault(rs, "GS thread did not end (%llu instructions)",
					(unsigned long long)t->instructions);
	/* the output in channel order: primitive order, then instance order */
	for (unsigned c = 0; c < n; c++)
		if (gs_output_assemble(rs, out[c], gs->next, &gs->out_prims))
			return -1;
	return 0;
}

/* SIMD4x2: the objects (primitive, instance) in order, two a thread;
 * DUAL_INSTANCE pairs only the instances 2i, 2i + 1 of one primitive. */
static int dispatch_simd4x2(struct gs_stage *gs)
{
	const struct gs_state *st = &gs->rs->gs;
	bool dual_instance = st->dispatch_mode == GS_DISPATCH_DUAL_INSTANCE;
	const struct vue_prim *obj[2];
	uint32_t inst[2];
	unsigned n = 0;
	for (unsigned p = 0; p < gs->nprims; p++)
		for (uint32_t i = 0; i < st->instances; i++) {
			obj[n] = &gs->prims[p];
			inst[n++] = i;
			bool last = i + 1 == st->instances;
			if (n == gs->per_slot_thread || (dual_instance && last)) {
				if (gs_run_simd4x2(gs, obj, inst, n))
					return -1;
				n = 0;
			}
		}
	return n ? gs_run_simd4x2(gs, obj, inst, n) : 0;
}

static int dispatch(struct gs_stage *gs)
{
	const struct gs_state *st = &gs->rs->gs;
	const struct vue_prim *chan[8];
	int r = 0;
	gs->invocations += (uint64_t)gs->nprims * (st->invocations_increment + 1);
	if (st->dispatch_mode != GS_DISPATCH_SIMD8) {
		r = dispatch_simd4x2(gs);
	} else if (st->instances > 1) {
		for (unsigned p = 0; p < gs->nprims && !r; p++)
			for (uint32_t i = 0; i < st->instances && !r; i += gs->per_thread) {
				unsigned n = st->instances - i < gs->per_thread ?
					     st->instances - i : gs->per_thread;
				for (unsigned c = 0; c < n; c++)
					chan[c] = &gs->prims[p];
				r = run_thread(gs, chan, n, i, true);
			}
	} else if (gs->nprims) {
		for (unsigned c = 0; c < gs->nprims; c++)
			chan[c] = &gs->prims[c];
		r = run_thread(gs, chan, gs->nprims, 0, false);
	}
	gs->nprims = 0;
	return r;
}

static int gs_prim(struct prim_stage *s, const struct vue_prim *p)
{
	struct gs_stage *gs = (struct gs_stage *)s;
	if (p->n != gs->nverts)
		return render_set_fault(gs->rs, "GS: a primitive of %u vertices for a GS of %u",
					p->n, gs->nverts);
	gs->prims[gs->nprims++] = *p;
	return gs->nprims == gs->per_thread || gs->rs->gs.instances > 1 ? dispatch(gs) : 0;
}

static int gs_flush(struct prim_stage *s)
{
	struct gs_stage *gs = (struct gs_stage *)s;
	if (dispatch(gs))
		return -1;
	return gs->next->flush ? gs->next->flush(gs->next) : 0;
}

void gs_stage_end(struct gs_stage *gs)
{
	if (!gs)
		return;
	gs->rs->counts.gs_invocations += gs->invocations;
	gs->rs->counts.gs_primitives += gs->out_prims;
	TRACE(TRACE_GS, "draw: %llu GS threads, %llu invocations, %llu primitives out",
	      (unsigned long long)gs->threads, (unsigned long long)gs->invocations,
	      (unsigned long long)gs->out_prims);
	exec_prog_free(gs->prog);
	free(gs->thread);
	free(gs);
}

struct prim_stage *gs_stage_input(struct gs_stage *gs)
{
	return &gs->in;
}

struct gs_stage *gs_stage_begin(struct render_state *rs, const struct render_env *env,
				struct prim_stage *next)
{
	const struct gs_state *st = &rs->gs;
	uint64_t addr = rs->sba.instruction + st->ksp;
	char why[160];
	struct exec_prog *prog = render_kernel_load(rs->info->gen, &env->vm, addr, "GS", why,
						    sizeof(why));
	if (!prog) {
		render_set_fault(rs, "%s", why);
		return NULL;
	}
	struct gs_stage *gs = calloc(1, sizeof(*gs));
	struct eu_thread *t = aligned_alloc(64, sizeof(struct eu_thread));
	if (!gs || !t) {
		free(gs);
		free(t);
		exec_prog_free(prog);
		render_set_fault(rs, "GS: out of memory");
		return NULL;
	}
	uint32_t entries = rs->urb[GS_PART].entries;
	*gs = (struct gs_stage){
		.in = { .prim = gs_prim, .flush = gs_flush },
		.rs = rs, .env = env, .next = next, .prog = prog, .thread = t,
		.per_thread = entries < 8 ? entries : 8,
		.per_slot_thread = entries < 2 ? entries : 2,
		.nverts = st->expected_vertex_count,
	};
	gs_constants_load(rs, env);
	sampler_unit_init(&rs->gs_sampler, rs->info->gen, &env->vm, rs->sba.surface,
			  rs->sba.dynamic, rs->binding_table[RS_GS], rs->sampler_state[RS_GS],
			  false);
	render_dp_unit(rs, env, &rs->gs_dp, RS_GS, rs->gs.scratch_base, rs->gs.scratch_space);
	rs->gs_units = (struct render_units){ .urb = &rs->urb_space, .sampler = &rs->gs_sampler,
					      .dp = &rs->gs_dp };
	TRACE(TRACE_GS, "kernel at 0x%llx: %zu instructions; %u vertices in, %s out, %u-byte "
	      "vertices after a %u-byte header, %u instance(s), %u GS entries of %u bytes",
	      (unsigned long long)addr, exec_prog_count(prog), gs->nverts,
	      st->output_topology == 1 ? "points" : st->output_topology == 3 ? "line strips" :
	      st->output_topology == 5 ? "triangle strips" : "lists", st->vertex_size * 16,
	      gs_output_header_bytes(st), st->instances, entries, rs->urb[GS_PART].size * 64);
	return gs;
}
