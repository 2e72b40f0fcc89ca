/* A draw (3DPRIMITIVE; PRM vol. 2 "Vertex Fetch", "VS Stage"): for every
 * instance and every vertex, the vertex index (sequential, or read from
 * the index buffer with the cut index ending a primitive run), a vertex
 * cache for indexed draws, a VUE from the VS partition of the URB filled
 * by the VF, SIMD8 VS threads over batches of 8 new vertices, primitive
 * assembly into the chain of later stages (stage.h: [GS] -> back end),
 * and the pipeline statistics registers. */
#include <stddef.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cs/regs.h"
#include "gpu/eu/exec.h"
#include "gpu/render/render_state.h"
#include "gpu/render/topology.h"

#define VCACHE_SIZE 16
#define PENDING_MAX 256
/* vertices between two looks at the engine's abort flag */
#define DRAW_ABORT_POLL 256u

struct vcache_entry {
	uint32_t index, handle;
	bool valid;
};

struct draw_ctx {
	struct render_state *rs;
	const struct render_env *env;
	const struct draw_params *p;
	struct vs_kernel *kernel;
	struct prim_asm pa;
	struct prim_stage back_end;   /* the chain's last stage */
	struct prim_stage so_stage;   /* stream output, before the back end */
	struct vcache_entry cache[VCACHE_SIZE];
	unsigned cache_next;
	bool cache_on;
	uint32_t batch[8];            /* new vertices waiting for a VS thread */
	unsigned nbatch, batch_max;
	uint32_t pending[PENDING_MAX]; /* handles (or CUT) in draw order */
	unsigned npending;
	uint64_t vertices, shaded;
};

#define PENDING_CUT 0xffffffffu

/* Sets the URB partitions from 3DSTATE_URB_* and checks they fit. */
static int setup_urb(struct render_state *rs)
{
	struct urb_space *u = &rs->urb_space;
	for (int s = 0; s < URB_NUM_PARTS; s++) {
		const struct urb_partition *p = &rs->urb[s];
		uint64_t first = (uint64_t)p->start * 8192, bytes = (uint64_t)p->entries * p->size * 64;
		if (p->entries && first + bytes > u->bytes)
			return render_set_fault(rs, "URB: stage %d partition (start %u, %u "
						"entries of %u) passes the %u KB URB", s,
						p->start, p->entries, p->size, u->bytes / 1024);
		u->part[s].first = (uint32_t)first;
		u->part[s].entry_bytes = p->entries ? p->size * 64 : 0;
		u->part[s].entries = p->entries;
	}
	if (!rs->urb[0].entries)
		return render_set_fault(rs, "draw with no VS URB entries (3DSTATE_URB_VS)");
	return 0;
}

/* Whether primitive assembly still holds VUE handle for a later
 * primitive: the first vertex of a fan, polygon or line loop (every
 * triangle of the run, or the closing line, uses it again) and a
 * polygon's held-back triangle. */
static bool held_by_assembly(const struct prim_asm *pa, uint32_t handle)
{
	if (!pa->seen)
		return false;
	bool keeps_first = pa->topology == PRIM_TRIFAN || pa->topology == PRIM_TRIFAN_NOSTIPPLE ||
			   pa->topology == PRIM_POLYGON || pa->topology == PRIM_LINELOOP;
	if (keeps_first && pa->first == VUE_REF(handle, 0))
		return true;
	for (unsigned i = 0; pa->poly_pending && i < 3; i++)
		if (pa->poly[i] == VUE_REF(handle, 0))
			return true;
	return false;
}

static uint32_t alloc_vue(struct draw_ctx *dc)
{
	struct render_state *rs = dc->rs;
	const struct urb_partition *p = &rs->urb[0];
	uint32_t handle;
	/* Round robin over the VS entries, past those a run still needs
	 * (a line loop of more vertices than entries lost its first vertex
	 * and closed to a later one). At most 4 are held, and a VS
	 * partition has more entries than that. */
	do {
		uint32_t e = rs->vs_next_entry++ % p->entries;
		handle = (p->start * 8192 + e * p->size * 64) / 64;
	} while (held_by_assembly(&dc->pa, handle) && p->entries > 4);
	for (unsigned i = 0; dc->cache_on && i < VCACHE_SIZE; i++) /* reused: not cached */
		if (dc->cache[i].valid && dc->cache[i].handle == handle)
			dc->cache[i].valid = false;
	return handle;
}

/* Runs the VS over the waiting vertices, hands them to primitive
 * assembly and lets the later stages consume every VUE before the VS's
 * entries are reused. */
static int flush(struct draw_ctx *dc)
{
	struct render_state *rs = dc->rs;
	if (dc->nbatch && dc->kernel &&
	    vs_dispatch(rs, dc->env, dc->kernel, dc->batch, dc->nbatch))
		return -1;
	dc->nbatch = 0;
	for (unsigned i = 0; i < dc->npending; i++) {
		uint32_t h = dc->pending[i];
		if (h == PENDING_CUT) {
			if (prim_end(&dc->pa))
				return -1;
			continue;
		}
		if (trace_on(TRACE_URB))
			vue_trace(rs, h, rs->num_last_vues);
		if (rs->num_last_vues < RENDER_MAX_DRAW_VUES)
			rs->last_vues[rs->num_last_vues++] = h;
		if (prim_vertex(&dc->pa, VUE_REF(h, 0)))
			return -1;
	}
	dc->npending = 0;
	struct prim_stage *first = dc->pa.next;
	return first->flush ? first->flush(first) : 0;
}

static int push_pending(struct draw_ctx *dc, uint32_t h)
{
	if (dc->npending == PENDING_MAX && flush(dc))
		return -1;
	dc->pending[dc->npending++] = h;
	return 0;
}

static int vertex(struct draw_ctx *dc, uint32_t vindex, uint32_t instance)
{
	struct render_state *rs = dc->rs;
	dc->vertices++;
	if (dc->cache_on) {
		for (unsigned i = 0; i < VCACHE_SIZE; i++)
			if (dc->cache[i].valid && dc->cache[i].index == vindex)
				return push_pending(dc, dc->cache[i].handle);
	}
	uint32_t h = alloc_vue(dc);
	uint64_t t0 = render_clock(rs);
	/* the SGVS VertexID: the index (sequential or from the index buffer)
	 * without Start Vertex Location / Base Vertex Location */
	uint32_t vid = vindex - (dc->p->indexed ? (uint32_t)dc->p->base_vertex
					       : dc->p->start_vertex);
	if (vf_fetch(rs, dc->env, h, vindex, vid, instance, dc->p->start_instance))
		return -1;
	rs->prof.fetch_ns += render_clock(rs) - t0;
	dc->shaded++;
	if (dc->cache_on) {
		dc->cache[dc->cache_next] = (struct vcache_entry){ vindex, h, true };
		dc->cache_next = (dc->cache_next + 1) % VCACHE_SIZE;
	}
	dc->batch[dc->nbatch++] = h;
	if (push_pending(dc, h))
		return -1;
	return dc->nbatch == dc->batch_max ? flush(dc) : 0;
}

/* Index i of the draw from the index buffer; outside Buffer Size reads 0. */
static int read_index(struct draw_ctx *dc, uint64_t i, uint32_t *out)
{
	struct render_state *rs = dc->rs;
	unsigned bytes = 1u << rs->ib_format;
	uint64_t off = i * bytes;
	uint32_t v = 0;
	*out = 0;
	if (off + bytes > rs->ib_size)
		return 0;
	if (vm_read(&dc->env->vm, rs->ib_addr + off, &v, bytes))
		return render_set_fault(rs, "VF: page fault reading the index buffer at 0x%llx",
					(unsigned long long)(rs->ib_addr + off));
	*out = v;
	return 0;
}

static int instance(struct draw_ctx *dc, uint32_t inst)
{
	const struct draw_params *p = dc->p;
	struct render_state *rs = dc->rs;
	uint32_t cut_mask = rs->ib_format == 0 ? 0xff : rs->ib_format == 1 ? 0xffff : ~0u;

	memset(dc->cache, 0, sizeof(dc->cache));
	dc->pa.prim_id = 0;        /* primitive IDs count per instance */
	for (uint32_t i = 0; i < p->vertex_count; i++) {
		/* a reset reaches a draw whose vertices run no EU thread (no
		 * VS), or of billions of empty instances: the command unwinds
		 * as from a thread's fault */
		if (i % DRAW_ABORT_POLL == 0 && exec_abort_requested())
			return render_set_fault(rs, "3DPRIMITIVE: stopped by an engine reset at "
						"vertex %u of %u, instance %u", i, p->vertex_count, inst);
		uint32_t vindex = p->start_vertex + i;
		if (p->indexed) {
			uint32_t idx;
			if (read_index(dc, (uint64_t)p->start_vertex + i, &idx))
				return -1;
			/* primitive restart: compared at the index's width */
			if (rs->cut_enable && idx == (rs->cut_index & cut_mask)) {
				if (push_pending(dc, PENDING_CUT))
					return -1;
				continue;
			}
			vindex = idx + (uint32_t)p->base_vertex;
		} else if (rs->seq_cut_enable && vindex == rs->cut_index) {
			/* gen9: a sequential index equal to Cut Index cuts too */
			if (push_pending(dc, PENDING_CUT))
				return -1;
			continue;
		}
		if (vertex(dc, vindex, inst))
			return -1;
	}
	if (!p->vertex_count && exec_abort_requested())
		return render_set_fault(rs, "3DPRIMITIVE: stopped by an engine reset at instance %u",
					inst);
	if (push_pending(dc, PENDING_CUT))
		return -1;
	return flush(dc);
}

void render_stat_add(const struct render_env *env, uint32_t reg, uint64_t n)
{
	if (env->regs && n)
		regs_set64(env->regs, reg, regs_get64(env->regs, reg) + n);
}

/* The last stage of the chain: the back end's hook (wm_draw.c). */
static int to_back_end(struct prim_stage *s, const struct vue_prim *p)
{
	struct render_state *rs = ((struct draw_ctx *)((char *)s -
				   offsetof(struct draw_ctx, back_end)))->rs;
	rs->prim_reordered = p->reordered;
	rs->prim_hidden_edges = p->hidden_edges;
	rs->prim_first = p->first;
	rs->prim_id = p->prim_id;
	if (rs->prim_sink)
		rs->prim_sink(rs->prim_ctx, p->topology, p->vue, p->n);
	return 0;
}

/* Stream output (so_write.c), when the draw has it: each primitive is
 * written to its stream's buffers, then goes on to the back end unless
 * rendering is disabled or its stream is not the rasterized one. A fault
 * is kept by the SO draw (so_draw_end). */
static int to_stream_output(struct prim_stage *s, const struct vue_prim *p)
{
	struct render_state *rs = ((struct draw_ctx *)((char *)s -
				   offsetof(struct draw_ctx, so_stage)))->rs;
	if (!so_primitive(rs->so, p->stream, p->topology, p->vue, p->n, p->reordered))
		return 0;
	return s->next->prim(s->next, p);
}

/* Pipeline statistics (PRM vol. 2 "Statistics"): the counts are kept in
 * rs->counts; a register advances when its stage's Statistics Enable is on. */
static void add_stats(struct render_state *rs, const struct render_env *env,
		      const struct draw_ctx *dc)
{
	struct draw_counts *c = &rs->counts;
	c->ia_vertices = dc->vertices;
	c->ia_primitives = dc->pa.prims;
	c->vs_invocations = dc->shaded;
	if (rs->vf_stats) {
		render_stat_add(env, REG_IA_VERTICES_COUNT, c->ia_vertices);
		render_stat_add(env, REG_IA_PRIMITIVES_COUNT, c->ia_primitives);
	}
	if (rs->vs.enable && rs->vs.stats)
		render_stat_add(env, REG_VS_INVOCATION_COUNT, c->vs_invocations);
	if (tess_enabled(rs) && rs->tess.hs.stats)
		render_stat_add(env, REG_HS_INVOCATION_COUNT, c->hs_invocations);
	if (tess_enabled(rs) && rs->tess.ds.stats)
		render_stat_add(env, REG_DS_INVOCATION_COUNT, c->ds_invocations);
	if (rs->gs.enable && rs->gs.stats) {
		render_stat_add(env, REG_GS_INVOCATION_COUNT, c->gs_invocations);
		render_stat_add(env, REG_GS_PRIMITIVES_COUNT, c->gs_primitives);
	}
}

static int check_draw(struct render_state *rs, const struct draw_params *p)
{
	if (rs->pipeline != 0)
		return render_set_fault(rs, "3DPRIMITIVE with the %s pipeline selected",
					rs->pipeline == 1 ? "media" : "GPGPU");
	if (rs->vs.enable && !rs->vs.simd8)
		return render_set_fault(rs, "VS SIMD4x2 dispatch is not implemented");
	if (rs->component_packing)
		return render_set_fault(rs, "3DSTATE_VF: Component Packing Enable is not "
					"implemented");
	if (p->indexed && rs->ib_format > 2)
		return render_set_fault(rs, "3DSTATE_INDEX_BUFFER: reserved index format %u",
					rs->ib_format);
	if (setup_urb(rs) || vf_prepare(rs))
		return -1;
	/* the GS receives the tessellator's primitives when it is on */
	return rs->gs.enable ? gs_state_check(rs, tess_enabled(rs) ? tess_output_topology(rs)
							  : p->topology) : 0;
}

int render_draw(struct render_state *rs, const struct render_env *env,
		const struct draw_params *p)
{
	if (check_draw(rs, p))
		return -1;

	struct draw_ctx dc = { .rs = rs, .env = env, .p = p };
	dc.batch_max = rs->urb[0].entries < 8 ? rs->urb[0].entries : 8;
	dc.cache_on = p->indexed && !rs->vs.cache_disable &&
		      rs->urb[0].entries >= 2 * (VCACHE_SIZE + 8);
	rs->num_last_vues = 0;
	rs->counts = (struct draw_counts){ 0 };
	TRACE(TRACE_VS, "draw: %s %u vertices x %u instances from %u, topology %u",
	      p->indexed ? "indexed" : "sequential", p->vertex_count, p->instance_count,
	      p->start_vertex, p->topology);
	bool work = p->vertex_count && p->instance_count;
	if (rs->vs.enable && work) {
		sampler_unit_init(&rs->vs_sampler, rs->info->gen, &env->vm, rs->sba.surface,
				  rs->sba.dynamic, rs->binding_table[RS_VS],
				  rs->sampler_state[RS_VS], false);
		dc.kernel = vs_kernel_load(rs, env);
		if (!dc.kernel)
			return -1;
	}
	/* The chain of stages after primitive assembly, built from the back
	 * end up (stage.h): [SO] hooks in before the back end, [GS] before
	 * that, [HS -> TE -> DS] first. sink_vue_bytes: the size of the VUEs
	 * the back end receives, those of the last stage before it. */
	dc.back_end = (struct prim_stage){ .prim = to_back_end };
	struct prim_stage *first = &dc.back_end;
	rs->sink_vue_bytes = rs->urb_space.part[0].entry_bytes;
	if (work && so_draw_begin(rs, env)) {
		vs_kernel_free(dc.kernel);
		return -1;
	}
	if (rs->so) {
		dc.so_stage = (struct prim_stage){ .prim = to_stream_output, .next = first };
		first = &dc.so_stage;
	}
	struct gs_stage *gs = NULL;
	if (rs->gs.enable && work) {
		gs = gs_stage_begin(rs, env, first);
		if (!gs) {
			vs_kernel_free(dc.kernel);
			so_draw_end(rs);
			return -1;
		}
		first = gs_stage_input(gs);
		rs->sink_vue_bytes = rs->gs.vertex_size * 16;
	}
	/* [HS -> TE -> DS] in front (te_stage.c): patches in, the DS's
	 * primitives on to the GS or the back end */
	struct tess_draw *td = NULL;
	if (tess_enabled(rs) && work) {
		if (tess_draw_begin(rs, env, first, &td)) {
			vs_kernel_free(dc.kernel);
			gs_stage_end(gs);
			so_draw_end(rs);
			return -1;
		}
		first = tess_stage_input(td);
		if (!rs->gs.enable)
			rs->sink_vue_bytes = rs->urb_space.part[RS_DS].entry_bytes;
	}
	if (env->state && wm_draw_begin(rs, env, env->state)) {
		vs_kernel_free(dc.kernel);
		tess_draw_end(rs, td, NULL);
		gs_stage_end(gs);
		so_draw_end(rs);
		return -1;
	}
	rs->vf_edge_flags = false;
	for (uint32_t e = 0; e < rs->num_ve && !rs->gs.enable && !td; e++)
		rs->vf_edge_flags |= rs->ve[e].valid && rs->ve[e].edge_flag;
	prim_begin(&dc.pa, p->topology, rs->gs.enable && !td && rs->gs.reorder_trailing, first);
	int ret = 0;
	for (uint32_t inst = 0; inst < p->instance_count && !ret; inst++) {
		tess_instance_begin(td);   /* the patches' primitive IDs restart */
		ret = instance(&dc, inst);
	}
	vs_kernel_free(dc.kernel);
	struct tess_counts tc = { 0, 0 };
	if (tess_draw_end(rs, td, &tc) && !ret)
		ret = -1;
	gs_stage_end(gs);
	/* stream output and the back end finish; a front-end fault wins */
	if (so_draw_end(rs) && !ret)
		ret = -1;
	if (env->state && wm_draw_end(rs) && !ret)
		ret = -1;
	if (ret)
		return ret;
	rs->counts.hs_invocations = tc.hs_invocations;
	rs->counts.ds_invocations = tc.ds_invocations;
	add_stats(rs, env, &dc);
	rs->prof.vertices += dc.vertices;
	return 0;
}
