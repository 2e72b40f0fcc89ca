/* The tessellation stage of a draw (PRM vol. 2 "Tessellation"; seed 003
 * for the URB partitions): each patch the primitive assembler makes from a
 * PATCHLIST_n topology takes an entry of the HS partition, HS threads fill
 * it (the 8-DWord patch header with the tessellation factors first), the
 * TE reads the header in the layout of the TE domain and tessellates, and
 * the domain points are shaded by DS threads into VUEs of the DS
 * partition, which go on as points, lines or triangles. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/render/kernel_load.h"
#include "gpu/render/te_draw.h"
#include "gpu/render/topology.h"

static const char *const domain_names[] = { "QUAD", "TRI", "ISOLINE" };

int tess_kernel_load(struct tess_draw *td, struct tess_kernel *k, uint64_t ksp, const char *stage,
		     enum render_stage st)
{
	struct render_state *rs = td->rs;
	char why[160];
	k->prog = render_kernel_load(rs->info->gen, &td->env->vm, rs->sba.instruction + ksp, stage,
				     why, sizeof(why));
	if (!k->prog)
		return render_set_fault(rs, "%s", why);
	k->thread = aligned_alloc(64, sizeof(struct eu_thread));
	if (!k->thread)
		return render_set_fault(rs, "%s: out of memory", stage);
	sampler_unit_init(&k->sampler, rs->info->gen, &td->env->vm, rs->sba.surface,
			  rs->sba.dynamic, rs->binding_table[st], rs->sampler_state[st], false);
	if (st == RS_HS)
		render_dp_unit(rs, td->env, &k->dp, st, rs->tess.hs.scratch_base,
			       rs->tess.hs.scratch_space);
	else
		render_dp_unit(rs, td->env, &k->dp, st, rs->tess.ds.scratch_base,
			       rs->tess.ds.scratch_space);
	k->units = (struct render_units){ .urb = &rs->urb_space, .sampler = &k->sampler,
					  .dp = &k->dp };
	k->sfids = &render_sfids[st];
	TRACE(TRACE_TE, "%s kernel at 0x%llx: %zu instructions", stage,
	      (unsigned long long)(rs->sba.instruction + ksp), exec_prog_count(k->prog));
	return 0;
}

void tess_kernel_free(struct tess_kernel *k)
{
	exec_prog_free(k->prog);
	free(k->thread);
	k->prog = NULL;
	k->thread = NULL;
}

int tess_thread_setup(struct tess_draw *td, struct eu_thread *t, enum render_stage st,
		      const struct tess_consts *c, uint32_t grf_start, uint32_t scratch_space,
		      uint64_t scratch_base, unsigned *next, const char *stage)
{
	struct render_state *rs = td->rs;
	eu_grf_set_ud(t, 0, 3, (rs->sampler_state[st] & ~31u) | (scratch_space & 15));
	eu_grf_set_ud(t, 0, 4, rs->binding_table[st] & ~31u);
	eu_grf_set_ud(t, 0, 5, ((uint32_t)scratch_base & ~1023u) | (uint32_t)(rs->threads % 512));
	unsigned grf = grf_start;
	for (int b = 0; b < 4; b++) {
		if (!c->len[b])
			continue;
		if (grf + c->len[b] > EU_GRF_COUNT)
			return render_set_fault(rs, "%s: %u push constant registers from g%u pass "
						"g127", stage, c->len[b], grf);
		if (vm_read(&td->env->vm, c->addr[b], eu_grf(t, grf), c->len[b] * 32u))
			return render_set_fault(rs, "%s: page fault reading constant buffer %d at "
						"0x%llx", stage, b, (unsigned long long)c->addr[b]);
		grf += c->len[b];
	}
	*next = grf;
	return 0;
}

void tess_thread_wire(struct tess_draw *td, struct tess_kernel *k, struct eu_thread *t)
{
	td->rs->threads++;
	t->sfids = k->sfids;         /* eu_thread_init cleared them */
	t->sfid_units = &k->units;
	t->user = td->rs;
}

int tess_thread_run(struct tess_draw *td, struct tess_kernel *k, const char *stage)
{
	struct render_state *rs = td->rs;
	tess_thread_wire(td, k, k->thread);
	enum eu_thread_state st = exec_run(k->thread, k->prog, 0);
	if (st == EU_THREAD_FAULT)
		return render_set_fault(rs, "%s thread: %s", stage, k->thread->fault);
	if (st != EU_THREAD_DONE)
		return render_set_fault(rs, "%s thread did not end (%llu instructions)", stage,
					(unsigned long long)k->thread->instructions);
	return 0;
}

/* The next entry of a partition's ring, as a handle (64-byte units). */
static uint32_t ring_entry(const struct urb_partition *p, uint32_t *next)
{
	uint32_t e = (*next)++ % p->entries;
	return (p->start * 8192 + e * p->size * 64) / 64;
}

/* The factors in the patch header (PRM vol. 2 "Patch Header"): QUAD
 * DW7-4 the U==0, V==0, U==1, V==1 edges, DW3 inside U, DW2 inside V;
 * TRI DW7-5 the U==0, V==0, W==0 edges, DW4 inside; ISOLINE DW7 line
 * detail, DW6 line density. 3DSTATE_TE's maximum factors clamp them. */
static void read_factors(const struct te_state *te, const float hdr[8], struct te_factors *f)
{
	memset(f, 0, sizeof(*f));
	switch (te->domain) {
	case TE_DOMAIN_QUAD:
		for (int i = 0; i < 4; i++)
			f->outer[i] = hdr[7 - i];
		f->inner[0] = hdr[3];
		f->inner[1] = hdr[2];
		break;
	case TE_DOMAIN_TRI:
		for (int i = 0; i < 3; i++)
			f->outer[i] = hdr[7 - i];
		f->inner[0] = hdr[4];
		break;
	default:
		f->outer[0] = hdr[6];
		f->outer[1] = hdr[7];
		break;
	}
	float max = te->partitioning == TE_PART_ODD_FRACTIONAL ? te->max_odd : te->max_not_odd;
	for (int i = 0; i < 4 && max > 0; i++) {
		if (f->outer[i] > max)
			f->outer[i] = max;
		if (i < 2 && f->inner[i] > max)
			f->inner[i] = max;
	}
}

static uint32_t out_topology(unsigned prim_vertices)
{
	return prim_vertices == 1 ? PRIM_POINTLIST : prim_vertices == 2 ? PRIM_LINELIST :
	       PRIM_TRILIST;
}

/* DS-shade the points of primitives [first, end) (each once, in domain
 * point order, 8 a thread) into entries of the DS ring, then send the
 * primitives on. */
static int shade_and_emit(struct tess_draw *td, uint32_t patch, unsigned first, unsigned end,
			  const uint32_t *pts, unsigned npts)
{
	struct render_state *rs = td->rs;
	const struct te_output *o = td->te;
	unsigned pv = o->prim_vertices;
	/* 3DSTATE_DS Dispatch Mode: SIMD4X2 two points a thread, else 8 */
	bool simd4x2 = rs->tess.ds.dispatch_mode == 0;
	unsigned per_thread = simd4x2 ? 2 : 8;
	for (unsigned i = 0; i < npts; i += per_thread) {
		unsigned n = npts - i < per_thread ? npts - i : per_thread;
		uint32_t h[8];
		for (unsigned k = 0; k < n; k++) {
			h[k] = ring_entry(&rs->urb[RS_DS], &td->ds_next);
			td->handle[pts[i + k]] = h[k];
		}
		if (simd4x2 ? ds_run_points_simd4x2(td, patch, pts + i, h, n) :
			      ds_run_points(td, patch, pts + i, h, n))
			return -1;
		for (unsigned k = 0; trace_on(TRACE_URB) && k < n; k++)
			vue_trace(rs, h[k], pts[i + k]);
	}
	td->ds_points += npts;
	struct vue_prim vp = { .topology = out_topology(pv), .prim_id = td->primitive_id, .n = pv };
	for (unsigned p = first; p < end; p++) {
		for (unsigned k = 0; k < pv; k++)
			vp.vue[k] = VUE_REF(td->handle[o->index[p * pv + k]], 0);
		td->prims++;
		if (td->next->prim(td->next, &vp))
			return -1;
	}
	/* the chunk's DS entries are reused by the next one: the later
	 * stages consume them first (stage.h) */
	return td->next->flush ? td->next->flush(td->next) : 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The DS partition holds a chunk of primitives' points at a time: all of
 * the patch's when it has room, else as many primitives as fit (points
 * shared with a later chunk are shaded again there). */
static int domain_points(struct tess_draw *td, uint32_t patch)
{
	const struct te_output *o = td->te;
	unsigned pv = o->prim_vertices, nprims = o->nindices / pv;
	uint32_t cap = td->rs->urb[RS_DS].entries;
	uint32_t pts[TE_MAX_POINTS];   /* on the stack: see wm_draw.c clipped_triangle_pv */
	unsigned p = 0;
	while (p < nprims) {
		unsigned first = p, npts = 0;
		td->chunk++;
		for (; p < nprims; p++) {
			unsigned fresh = 0;
			for (unsigned k = 0; k < pv; k++)
				fresh += td->stamp[o->index[p * pv + k]] != td->chunk;
			if (npts + fresh > cap)
				break;
			for (unsigned k = 0; k < pv; k++) {
				uint32_t x = o->index[p * pv + k];
				if (td->stamp[x] != td->chunk) {
					td->stamp[x] = td->chunk;
					pts[npts++] = x;
				}
			}
		}
		qsort(pts, npts, sizeof(pts[0]), cmp_u32);
		if (shade_and_emit(td, patch, first, p, pts, npts))
			return -1;
	}
	return 0;
}

/* The TE and the DS for a patch whose HS threads have ended. */
static int tessellate(struct tess_draw *td, uint32_t ph, unsigned n)
{
	struct render_state *rs = td->rs;
	const struct te_state *te = &rs->tess.te;
	const char *why = "";
	const uint8_t *hdr = urb_entry_bytes(&rs->urb_space, ph, 0, 32, &why);
	if (!hdr)
		return render_set_fault(rs, "TE: reading the patch header of 0x%x: %s", ph, why);
	float h[8];
	memcpy(h, hdr, sizeof(h));
	struct te_factors f;
	read_factors(te, h, &f);
	te_tessellate(te->domain, te->partitioning, te->topology, &f, td->te);
	TRACE(TRACE_TE, "patch %u (0x%x, %u control points): %s factors outer %g %g %g %g inner "
	      "%g %g: %u points, %u primitives", td->primitive_id, ph, n,
	      domain_names[te->domain], f.outer[0], f.outer[1], f.outer[2], f.outer[3],
	      f.inner[0], f.inner[1], td->te->npoints,
	      td->te->nindices / (td->te->prim_vertices ? td->te->prim_vertices : 1));
	td->patches++;
	return domain_points(td, ph);
}

/* 8_PATCH: the HS threads of the patches collected, then each patch on
 * through the TE and the DS in order, with its own primitive ID. */
static int run_pending(struct tess_draw *td)
{
	unsigned np = td->npending;
	if (!np)
		return 0;
	td->npending = 0;
	if (hs_run_8_patch(td, td->pending, np, td->pending_n))
		return -1;
	uint32_t prim_id = td->primitive_id;
	int r = 0;
	for (unsigned c = 0; !r && c < np; c++) {
		td->primitive_id = td->pending[c].prim_id;
		r = tessellate(td, td->pending[c].handle, td->pending_n);
	}
	td->primitive_id = prim_id;
	return r;
}

static int patch(struct tess_draw *td, const uint32_t *icp, unsigned n)
{
	struct render_state *rs = td->rs;
	const struct urb_partition *hp = &rs->urb[RS_HS];
	uint32_t ph = ring_entry(hp, &td->hs_next);
	if (rs->tess.hs.dispatch_mode != HS_DISPATCH_8_PATCH) {
		if (hs_run_patch(td, ph, icp, n))
			return -1;
		return tessellate(td, ph, n);
	}
	/* up to 8 patches a thread, as many as the HS partition holds at once */
	unsigned batch = hp->entries < 8 ? hp->entries : 8;
	if (td->npending && td->pending_n != n && run_pending(td))
		return -1;
	struct hs_patch *p = &td->pending[td->npending++];
	p->handle = ph;
	p->prim_id = td->primitive_id;
	memcpy(p->icp, icp, n * sizeof(icp[0]));
	td->pending_n = n;
	return td->npending == batch ? run_pending(td) : 0;
}

/* The stage's input: the primitive assembler's patches only. */
static int patch_in(struct prim_stage *s, const struct vue_prim *p)
{
	struct tess_draw *td = (struct tess_draw *)((char *)s - offsetof(struct tess_draw, input));
	if (td->failed)
		return -1;
	if (p->topology < PRIM_PATCHLIST_1 || p->topology > PRIM_PATCHLIST_32) {
		td->failed = true;
		return render_set_fault(td->rs, "tessellation enabled with topology %u, not "
					"a PATCHLIST_n", p->topology);
	}
	uint32_t h[VUE_PRIM_MAX];
	for (unsigned i = 0; i < p->n; i++)
		h[i] = vue_ref_handle(p->vue[i]);
	if (patch(td, h, p->n)) {
		td->failed = true;
		return -1;
	}
	td->primitive_id++;
	return 0;
}

/* 8_PATCH's collected patches, then the next stages' work. */
static int patch_flush(struct prim_stage *s)
{
	struct tess_draw *td = (struct tess_draw *)((char *)s - offsetof(struct tess_draw, input));
	if (td->failed)
		return -1;
	if (run_pending(td)) {
		td->failed = true;
		return -1;
	}
	return td->next->flush ? td->next->flush(td->next) : 0;
}

struct prim_stage *tess_stage_input(struct tess_draw *td)
{
	return &td->input;
}

void tess_instance_begin(struct tess_draw *td)
{
	if (td)
		td->primitive_id = 0;
}

uint32_t tess_output_topology(const struct render_state *rs)
{
	/* TE Output Topology: points, lines (isolines), or triangles */
	uint32_t t = rs->tess.te.topology;
	return out_topology(t == TE_TOPO_POINT ? 1 : t == TE_TOPO_LINE ? 2 : 3);
}

bool tess_enabled(const struct render_state *rs)
{
	return rs->tess.hs.enable || rs->tess.te.enable || rs->tess.ds.enable;
}

/* State the hardware would hang on or gtsim does not implement. */
static int check_state(struct render_state *rs)
{
	const struct tess_state *t = &rs->tess;
	int gen = rs->info->gen;
	if (!t->hs.enable || !t->te.enable || !t->ds.enable)
		return render_set_fault(rs, "tessellation: HS %s, TE %s, DS %s: the three are "
					"enabled together", t->hs.enable ? "on" : "off",
					t->te.enable ? "on" : "off", t->ds.enable ? "on" : "off");
	if (t->te.mode != 0)
		return render_set_fault(rs, "3DSTATE_TE: TE Mode %u (SW_TESS) is not implemented",
					t->te.mode);
	if (t->te.domain > TE_DOMAIN_ISOLINE || t->te.partitioning > TE_PART_EVEN_FRACTIONAL)
		return render_set_fault(rs, "3DSTATE_TE: reserved %s %u", t->te.domain > 2 ?
					"TE Domain" : "Partitioning", t->te.domain > 2 ?
					t->te.domain : t->te.partitioning);
	if (gen >= 9 && t->hs.dispatch_mode == HS_DISPATCH_DUAL_PATCH)
		return render_set_fault(rs, "3DSTATE_HS: Dispatch Mode DUAL_PATCH is not "
					"implemented");
	if (gen >= 9 && t->hs.dispatch_mode > HS_DISPATCH_8_PATCH)
		return render_set_fault(rs, "3DSTATE_HS: reserved Dispatch Mode %u",
					t->hs.dispatch_mode);
	if (t->hs.read_length)
		return render_set_fault(rs, "3DSTATE_HS: pushed vertex data (Vertex URB Entry "
					"Read Length %u) is not implemented", t->hs.read_length);
	if (t->ds.dispatch_mode > (gen >= 9 ? 2u : 1u))
		return render_set_fault(rs, "3DSTATE_DS: reserved Dispatch Mode %u",
					t->ds.dispatch_mode);
	if (t->hs.instances > HS_MAX_INSTANCES)
		return render_set_fault(rs, "3DSTATE_HS: %u instances", t->hs.instances);
	const struct urb_partition *hp = &rs->urb[RS_HS], *dp = &rs->urb[RS_DS];
	if (!hp->entries || hp->size * 64 < 32)
		return render_set_fault(rs, "3DSTATE_URB_HS: %u entries of %u bytes: no room for "
					"a patch and its 32-byte header", hp->entries, hp->size * 64);
	if (dp->entries < 3)
		return render_set_fault(rs, "3DSTATE_URB_DS: %u entries cannot hold a primitive's "
					"vertices", dp->entries);
	return 0;
}

int tess_draw_begin(struct render_state *rs, const struct render_env *env,
		    struct prim_stage *next, struct tess_draw **out)
{
	*out = NULL;
	if (check_state(rs))
		return -1;
	struct tess_draw *td = calloc(1, sizeof(*td));
	if (!td)
		return render_set_fault(rs, "tessellation: out of memory");
	td->rs = rs;
	td->env = env;
	td->te = malloc(sizeof(*td->te));
	td->stamp = calloc(TE_MAX_POINTS, sizeof(uint32_t));
	td->handle = calloc(TE_MAX_POINTS, sizeof(uint32_t));
	if (!td->te || !td->stamp || !td->handle) {
		render_set_fault(rs, "tessellation: out of memory");
		tess_draw_end(rs, td, NULL);
		return -1;
	}
	if (tess_kernel_load(td, &td->hs, rs->tess.hs.ksp, "HS", RS_HS) ||
	    tess_kernel_load(td, &td->ds, rs->tess.ds.ksp, "DS", RS_DS)) {
		tess_draw_end(rs, td, NULL);
		return -1;
	}
	/* instance 0 runs on the kernel's own thread, the others on their own */
	td->hs_thread[0] = td->hs.thread;
	for (unsigned i = 1; i < rs->tess.hs.instances; i++) {
		td->hs_thread[i] = aligned_alloc(64, sizeof(struct eu_thread));
		if (!td->hs_thread[i]) {
			render_set_fault(rs, "tessellation: out of memory");
			tess_draw_end(rs, td, NULL);
			return -1;
		}
	}
	td->next = next;
	td->input = (struct prim_stage){ .prim = patch_in, .flush = patch_flush, .next = next };
	TRACE(TRACE_TE, "draw: %s domain, partitioning %u, output topology %u, %u HS instances",
	      domain_names[rs->tess.te.domain], rs->tess.te.partitioning, rs->tess.te.topology,
	      rs->tess.hs.instances);
	*out = td;
	return 0;
}

int tess_draw_end(struct render_state *rs, struct tess_draw *td, struct tess_counts *c)
{
	if (!td)
		return 0;
	int ret = td->failed ? -1 : 0;
	if (c)
		*c = (struct tess_counts){ .hs_invocations = td->patches,
					   .ds_invocations = td->ds_points };
	TRACE(TRACE_TE, "draw: %llu patches, %llu HS threads, %llu DS threads for %llu domain "
	      "points, %llu primitives", (unsigned long long)td->patches,
	      (unsigned long long)td->hs_threads, (unsigned long long)td->ds_threads,
	      (unsigned long long)td->ds_points, (unsigned long long)td->prims);
	tess_kernel_free(&td->hs);
	tess_kernel_free(&td->ds);
	for (unsigned i = 1; i < HS_MAX_INSTANCES; i++)   /* [0] is td->hs.thread */
		free(td->hs_thread[i]);
	free(td->te);
	free(td->stamp);
	free(td->handle);
	free(td);
	return ret;
}
