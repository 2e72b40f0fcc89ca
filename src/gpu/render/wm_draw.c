/* A draw through the back end: each primitive the front end assembles is
 * read from its VUEs, clipped, divided and mapped to the window, culled,
 * set up (attributes, depth offset) and rasterized; its quads pass the
 * early depth/stencil test and are gathered into PS threads whose render
 * target writes reach the output merger (rt_write.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cs/regs.h"
#include "gpu/render/png_dump.h"
#include "gpu/render/topology.h"
#include "gpu/render/wm_draw.h"


int wm_fault(struct wm_draw *d, const char *fmt, ...)
{
	struct ps_job *j = ps_running_job();
	bool in_job = j && j->d == d;
	/* the primitives kept for the bands come before it: their fault, if
	 * any, is the one a single thread meets first */
	if (!in_job && !d->band)
		wm_band_flush(d);
	if (in_job ? !j->faulted : !d->fault) {
		char buf[200];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		if (in_job) {
			memcpy(j->fault, buf, sizeof(buf));
			j->faulted = true;
			return -1;
		}
		if (wm_band_fault(d, buf))
			return -1;
		render_set_fault(d->rs, "%s", buf);
		__atomic_store_n(&d->fault, 1, __ATOMIC_RELAXED);
	}
	return -1;
}

const char *wm_fault_text(const struct wm_draw *d)
{
	const struct ps_job *j = ps_running_job();
	return j && j->d == d ? j->fault : d->band ? wm_band_fault_text(d) : d->rs->fault;
}

bool wm_faulted(const struct wm_draw *d)
{
	const struct ps_job *j = ps_running_job();
	return j && j->d == d ? j->faulted : d->fault;
}

/* The coverage of a quad (16 bits a pixel) as the WM passes it on: with
 * multisample rasterization off, the centre's coverage given to every
 * sample (MSRASTMODE_OFF_PIXEL); then 3DSTATE_SAMPLE_MASK. */
static uint64_t wm_coverage(const struct ms_state *ms, uint64_t cov)
{
	uint64_t all = (1u << ms->samples) - 1;
	if (ms->samples > 1 && !ms->raster)
		for (unsigned p = 0; p < 4; p++)
			if (cov >> (16 * p) & 1)
				cov |= all << (16 * p);
	uint64_t m = ms->mask;
	return cov & (m | m << 16 | m << 32 | m << 48);
}

static bool ms_raster(const struct wm_state *st)
{
	return st->ms.samples > 1 && st->ms.raster;
}

/* The AA coverage rule modelled: AALINEDISTANCE_TRUE and the legacy
 * computation (3DSTATE_AA_LINE_PARAMETERS all zeros, which Mesa sends);
 * true with a fault otherwise. */
static bool aa_unmodelled(struct wm_draw *d)
{
	if (!d->st.aa_distance_true) {
		wm_fault(d, "3DSTATE_RASTER Antialiasing Enable / Smooth Point Enable with "
			 "3DSTATE_SF AA Line Distance Mode 0 (not AALINEDISTANCE_TRUE) is not modelled");
		return true;
	}
	if (!d->st.aa_params_legacy) {
		wm_fault(d, "3DSTATE_RASTER Antialiasing Enable / Smooth Point Enable with a nonzero "
			 "3DSTATE_AA_LINE_PARAMETERS slope or bias is not modelled");
		return true;
	}
	return false;
}

/* Of an antialiased primitive's quad at (x, y), the coverage bits kept:
 * the pixels whose coverage at the centre is above 0, or (a smooth point
 * under multisample rasterization) the samples inside its circle. */
static uint64_t aa_quad_mask(const struct wm_draw *d, int32_t x, int32_t y, uint64_t cov)
{
	const struct wm_prim *p = &d->prim;
	const struct wm_state *st = &d->st;
	uint64_t keep = 0;
	for (unsigned i = 0; i < 4; i++) {
		double px = x + (int32_t)(i & 1), py = y + (int32_t)(i >> 1);
		if (p->aa_alpha) {
			if (raster_aa_coverage(&p->aa, px + 0.5, py + 0.5) > 0)
				keep |= 0xffffull << (16 * i);
			continue;
		}
		for (unsigned s = 0; s < st->ms.samples; s++) {
			double sx = px + wm_sample_x(st, s) - p->aa.x;
			double sy = py + wm_sample_y(st, s) - p->aa.y;
			if (sx * sx + sy * sy <= (double)p->aa.half * p->aa.half)
				keep |= 1ull << (16 * i + s);
		}
	}
	return cov & keep;
}

static int quad_fn(void *ctx, int32_t x, int32_t y, uint64_t cov)
{
	struct wm_draw *d = ctx;
	const struct wm_state *st = &d->st;
	if (d->prim.aa.kind)
		cov = aa_quad_mask(d, x, y, cov);
	cov = wm_coverage(&st->ms, cov);
	if (d->prim.stippled)
		cov &= wm_stipple_quad_mask(st, x, y);
	if (d->prim.line_stippled)
		cov &= wm_line_stipple_mask(st, &d->prim.ls, x, y);
	if (!cov)
		return 0;
	if (!d->dispatch) {            /* depth/stencil only, each covered sample */
		for (unsigned i = 0; i < 4; i++) {
			int32_t px = x + (int32_t)(i & 1), py = y + (int32_t)(i >> 1);
			for (unsigned s = 0; s < st->ms.samples; s++) {
				if (!(cov >> (16 * i + s) & 1))
					continue;
				double sx = st->ms.samples > 1 ? wm_sample_x(st, s) : 0.5;
				double sy = st->ms.samples > 1 ? wm_sample_y(st, s) : 0.5;
				float z = wm_prim_z(&d->prim, px + sx, py + sy);
				d->depth_passed += depth_stencil_sample(d, px, py, s, z,
									d->prim.back_facing, -1);
			}
		}
		return d->fault ? -1 : 0;
	}
	return ps_add_quad(d, x, y, cov);
}

/* A run of whole quads (raster_run_fn): straight into threads when
 * nothing drops samples of them, else quad by quad. */
static int run_fn(void *ctx, int32_t x, int32_t y, unsigned n, uint64_t cov)
{
	struct wm_draw *d = ctx;
	const struct wm_prim *p = &d->prim;
	if (d->dispatch && !p->aa.kind && !p->stippled && !p->line_stippled &&
	    wm_coverage(&d->st.ms, cov) == cov)
		return ps_add_run(d, x, y, n, cov);
	for (unsigned k = 0; k < n; k++) {
		int ret = quad_fn(ctx, x + 2 * (int32_t)k, y, cov);
		if (ret)
			return ret;
	}
	return 0;
}

/* Polygon offset (PRM "Depth Offset"): constant * r + scale * max slope,
 * r the depth buffer's minimum resolvable difference. */
static float depth_offset(const struct wm_draw *d, const struct win_vertex *v, bool enable)
{
	const struct wm_state *st = &d->st;
	if (!enable)
		return 0;
	double ex1 = v[1].x - v[0].x, ey1 = v[1].y - v[0].y, ez1 = v[1].z - v[0].z;
	double ex2 = v[2].x - v[0].x, ey2 = v[2].y - v[0].y, ez2 = v[2].z - v[0].z;
	double a = ex1 * ey2 - ex2 * ey1;
	double dzdx = a ? (ez1 * ey2 - ez2 * ey1) / a : 0, dzdy = a ? (ex1 * ez2 - ex2 * ez1) / a : 0;
	/* r: D16/D24 UNORM one step of the format; D32_FLOAT 2^(e - 23) with
	 * e the exponent of the primitive's largest depth */
	double r = st->ds.depth_format == 5 ? 1.0 / 65535 : 1.0 / 16777215;
	if (st->ds.depth_format == 1) {
		double zmax = fmax(fabs(v[0].z), fmax(fabs(v[1].z), fabs(v[2].z)));
		int exp = 0;
		frexp(zmax, &exp);                /* zmax = m * 2^exp, m in [0.5, 1) */
		r = zmax > 0 ? ldexp(1.0, exp - 24) : ldexp(1.0, -149);
	}
	double o = st->depth_offset_const * r + st->depth_offset_scale * fmax(fabs(dzdx), fabs(dzdy));
	float clamp = st->depth_offset_clamp;
	if (clamp > 0 && o > clamp)
		o = clamp;
	if (clamp < 0 && o < clamp)
		o = clamp;
	return (float)o;
}

static struct win_vertex to_window(const struct wm_draw *d, const struct clip_vertex *c)
{
	struct win_vertex w = viewport_apply(&d->st.vp, c->pos, d->st.persp_divide,
					     d->st.viewport_transform);
	w.x += (float)d->st.origin_x;
	w.y += (float)d->st.origin_y;
	return w;
}

static void line(struct wm_draw *d, const struct clip_vertex *c0, const struct clip_vertex *c1,
		 const struct clip_vertex *pv, bool back_facing, float z_offset,
		 const struct clip_vertex *orig);
static void point(struct wm_draw *d, const struct clip_vertex *c, const struct clip_vertex *pv,
		  bool back_facing, float z_offset);

/* Wireframe and point fill modes (3DSTATE_RASTER Front/Back Face Fill
 * Mode; GL 4.6 section 14.6.4): the triangle's boundary edges (bit k of
 * `edges`: vertex k to k + 1) as lines of the line width, or the vertices
 * that start one as points of the point width, each with the triangle's
 * facing, its provoking vertex's flat attributes and its depth offset
 * (Global Depth Offset Enable Wireframe / Point: the offset of the
 * triangle's slope, PRM vol. 2 "Depth Offset"). */
static void unfilled(struct wm_draw *d, const struct clip_vertex *const c[3],
		     const struct clip_vertex *pv, unsigned fill, unsigned edges)
{
	const struct wm_state *st = &d->st;
	struct wm_prim *p = &d->prim;
	bool back = p->back_facing;
	for (uint32_t e = 0; e < d->rs->num_ve && !d->rs->vf_edge_flags; e++)
		if (d->rs->ve[e].valid && d->rs->ve[e].edge_flag) {
			wm_fault(d, "VERTEX_ELEMENT_STATE Edge Flag Enable with the %s fill mode "
				 "behind a GS or tessellation is not modelled",
				 fill == 1 ? "wireframe" : "point");
			return;
		}
	if (fill == 1) {
		float zo = depth_offset(d, p->v, st->depth_offset_wire);
		d->line_stipple_s = 0;    /* each triangle's edges restart it */
		for (unsigned k = 0; k < 3 && !d->fault; k++)
			if (edges >> k & 1)
				line(d, c[k], c[(k + 1) % 3], pv, back, zo, NULL);
	} else if (fill == 2) {
		float zo = depth_offset(d, p->v, st->depth_offset_point);
		for (unsigned k = 0; k < 3 && !d->fault; k++)
			if (edges >> k & 1)
				point(d, c[k], pv, back, zo);
	} else {
		wm_fault(d, "3DSTATE_RASTER: face fill mode %u is reserved", fill);
	}
}

/* The setup of a piece c[0..2] of the clipped primitive orig[0..n) (n 3,
 * or 2 for a line, whose third setup vertex is its first): attributes
 * from the original vertices, as the SF reads them, and the barycentric
 * map from the piece's vertices' weights in the original (wm_prim). A
 * point's screen-space weights are its clip-space weights by the original
 * vertices' w, normalised (no divide: w is 1). */
static void clipped_setup(struct wm_draw *d, const struct clip_vertex *const c[3],
			  const struct clip_vertex *orig, unsigned n, const struct clip_vertex *pv)
{
	struct wm_prim *p = &d->prim;
	p->bary_mapped = true;
	for (unsigned i = 0; i < 3; i++) {
		float *per = p->bmap[0][i], *lin = p->bmap[1][i];
		double sum = 0, w[3] = { 1, 1, 1 };
		for (unsigned k = 0; k < 3; k++) {
			per[k] = k < n ? c[i]->bw[k] : 0;
			if (d->st.persp_divide && k < n)
				w[k] = orig[k].pos[3];
			sum += per[k] * w[k];
		}
		for (unsigned k = 0; k < 3; k++)
			lin[k] = sum != 0 && isfinite(sum) ? (float)(per[k] * w[k] / sum) : per[k];
	}
	const float (*rows[3])[4] = { orig[0].attr, orig[1].attr, orig[n == 3 ? 2 : 0].attr };
	attr_setup(p, &d->st.sbe, rows, pv->attr, CLIP_MAX_ATTRS, d->rs->prim_id);
}

/* One triangle after clipping; edges: its boundary edges (bit k: vertex k
 * to k + 1 mod 3); orig: the three vertices of the primitive it is a
 * piece of when the clipper cut it, else NULL. */
static void triangle(struct wm_draw *d, const struct clip_vertex *c0, const struct clip_vertex *c1,
		     const struct clip_vertex *c2, const struct clip_vertex *pv, unsigned edges,
		     const struct clip_vertex *orig)
{
	struct wm_prim *p = &d->prim;
	const struct wm_state *st = &d->st;
	p->v[0] = to_window(d, c0);
	p->v[1] = to_window(d, c1);
	p->v[2] = to_window(d, c2);
	double area = raster_area2(&p->v[0], &p->v[1], &p->v[2]);
	if (area == 0 || !isfinite(area))
		return;
	/* area > 0: clockwise on the screen (y down) */
	bool front = st->front_ccw ? area < 0 : area > 0;
	p->back_facing = !front;
	if (st->cull_mode == 0 || st->cull_mode == 0xff || (st->cull_mode == 2 && front) ||
	    (st->cull_mode == 3 && !front))
		return;
	unsigned fill = front ? st->fill_front : st->fill_back;
	if (fill != 0) {
		unfilled(d, (const struct clip_vertex *const[3]){ c0, c1, c2 }, pv, fill, edges);
		return;
	}
	p->is_point = false;
	p->stippled = st->poly_stipple;
	p->line_stippled = false;
	p->aa.kind = RASTER_AA_NONE;
	p->aa_alpha = false;
	p->z_offset = depth_offset(d, p->v, st->depth_offset);
	bary_setup(&p->bary, &p->v[0], &p->v[1], &p->v[2]);
	if (orig) {
		clipped_setup(d, (const struct clip_vertex *const[3]){ c0, c1, c2 }, orig, 3, pv);
	} else {
		p->bary_mapped = false;
		const float (*rows[3])[4] = { c0->attr, c1->attr, c2->attr };
		attr_setup(p, &st->sbe, rows, pv->attr, CLIP_MAX_ATTRS, d->rs->prim_id);
	}
	if (wm_band_add(d, WM_PRIM_TRIANGLE)) {
		wm_raster_prim(d, WM_PRIM_TRIANGLE, &d->clip);
		ps_prim_end(d);
	}
}

static void rect(struct wm_draw *d, const struct clip_vertex *c)
{
	struct wm_prim *p = &d->prim;
	for (int i = 0; i < 3; i++)
		p->v[i] = to_window(d, &c[i]);
	if (d->st.poly_stipple) {
		wm_fault(d, "3DSTATE_WM: polygon stipple on a RECTLIST is not modelled");
		return;
	}
	p->back_facing = false;
	p->is_point = false;
	p->stippled = false;
	p->line_stippled = false;
	p->aa.kind = RASTER_AA_NONE;
	p->aa_alpha = false;
	p->z_offset = 0;
	p->bary_mapped = false;
	bary_setup(&p->bary, &p->v[0], &p->v[1], &p->v[2]);
	const float (*rows[3])[4] = { c[0].attr, c[1].attr, c[2].attr };
	attr_setup(p, &d->st.sbe, rows, c[0].attr, CLIP_MAX_ATTRS, d->rs->prim_id);
	if (wm_band_add(d, WM_PRIM_RECT)) {
		wm_raster_prim(d, WM_PRIM_RECT, &d->clip);
		ps_prim_end(d);
	}
}

void wm_raster_prim(struct wm_draw *d, enum wm_prim_kind kind, const struct pixel_rect *clip)
{
	const struct wm_prim *p = &d->prim;
	if (kind == WM_PRIM_RECT)
		raster_rect_runs(&p->v[0], &p->v[1], &p->v[2], clip, &d->st.ms.pattern, quad_fn,
				 run_fn, d);
	else
		raster_triangle_runs(&p->v[0], &p->v[1], &p->v[2], clip, &d->st.ms.pattern,
				     quad_fn, run_fn, d);
}

/* The shape of a non-AA line, from 3DSTATE_RASTER's API Mode and DX
 * Multisample Rasterization Enable and the sample count (the PRM's table
 * "Multisample Rasterization Modes", vol. 7, which Mesa's anv cites; the
 * table itself was not available):
 *  - Enable with more than one sample (iris: GL_MULTISAMPLE, API Mode
 *    DX9/OGL; anv: rectangular lines, DX10.x): multisample rasterization,
 *    the rectangle (raster_line_rect_ms). GL 4.6 section 14.5.4 asks for
 *    it; gen7's MSRASTMODE_ON_PATTERN is what anv programs there for
 *    VK_LINE_RASTERIZATION_MODE_RECTANGULAR. Its width is Line Width as
 *    sent: GL rounds only non-multisampled non-AA widths, which iris does
 *    itself (get_line_width);
 *  - Enable off under DX9/OGL (GL_MULTISAMPLE off, anv's Bresenham
 *    lines): the parallelogram at the pixel centre (MSRASTMODE_OFF_PIXEL).
 * The other combinations (Enable with one sample; Enable off under
 * DX10.x, which anv uses for wide rectangular lines on gen8/9 and says
 * draws "parallelograms") are drawn as the parallelogram with a stub trace.
 * Returns 1 for the rectangle, 0 for the parallelogram, -1 after a fault. */
static int line_shape(struct wm_draw *d)
{
	const struct ms_state *ms = &d->st.ms;
	if (ms_raster(&d->st)) {
		/* SNB PRM vol. 2 part 1 (3DSTATE_SF Line Width, quoted by Mesa's
		 * ilo): "zero-width lines are not available when multisampling
		 * rasterization is enabled" */
		if (!(d->st.line_width > 0)) {
			wm_fault(d, "3DSTATE_SF Line Width 0 under multisample rasterization "
				 "(the PRM forbids it)");
			return -1;
		}
		if (d->st.last_pixel) {
			wm_fault(d, "3DSTATE_SF Last Pixel Enable under multisample rasterization "
				 "(rectangle lines) is not modelled");
			return -1;
		}
		return 1;
	}
	if (ms->raster_enable || ms->api_mode != 0)
		TRACE_STUB_ONCE("3DSTATE_RASTER API Mode %u, DX Multisample Rasterization Enable %u "
				"with %u samples: the line is drawn as the single-sample "
				"parallelogram (this mode's line rule is not modelled)",
				ms->api_mode, ms->raster_enable, ms->samples);
	return 0;
}

/* orig: the line's two vertices when the clipper cut it, else NULL. */
static void line(struct wm_draw *d, const struct clip_vertex *c0, const struct clip_vertex *c1,
		 const struct clip_vertex *pv, bool back_facing, float z_offset,
		 const struct clip_vertex *orig)
{
	wm_band_flush(d);     /* lines are the engine thread's alone */
	struct wm_prim *p = &d->prim;
	struct win_vertex a = to_window(d, c0), b = to_window(d, c1);
	float dx = b.x - a.x, dy = b.y - a.y, len = sqrtf(dx * dx + dy * dy);
	if (!(len > 0))
		return;
	/* setup triangle: the two ends and a point beside the first, whose
	 * attributes are the first's: values vary along the line only */
	p->v[0] = a;
	p->v[1] = b;
	p->v[2] = a;
	p->v[2].x -= dy / len;
	p->v[2].y += dx / len;
	if (d->st.aa_lines && aa_unmodelled(d))
		return;
	int rect = line_shape(d);
	if (rect < 0)
		return;
	/* an antialiased line: not under multisample rasterization (GL
	 * ignores LINE_SMOOTH there) nor with Line Width 0, which the PRM
	 * makes the thinnest non-antialiased line (Mesa's iris quotes it) */
	p->aa_alpha = d->st.aa_lines && !ms_raster(&d->st) && d->st.line_width > 0;
	p->aa.kind = RASTER_AA_NONE;
	if (p->aa_alpha)
		raster_aa_line(&p->aa, &a, &b, d->st.line_width, d->st.aa_region,
			       d->st.aa_cap_region);
	p->line_stippled = d->st.line_stipple;
	if (p->line_stippled) {
		wm_line_stipple_begin(&p->ls, a.x, a.y, b.x, b.y, d->line_stipple_s);
		d->line_stipple_s += wm_line_stipple_count(a.x, a.y, b.x, b.y);
	}
	p->back_facing = back_facing;
	p->is_point = false;
	p->stippled = false;
	p->z_offset = z_offset;
	bary_setup(&p->bary, &p->v[0], &p->v[1], &p->v[2]);
	if (orig) {
		clipped_setup(d, (const struct clip_vertex *const[3]){ c0, c1, c0 }, orig, 2, pv);
	} else {
		p->bary_mapped = false;
		const float (*rows[3])[4] = { c0->attr, c1->attr, c0->attr };
		attr_setup(p, &d->st.sbe, rows, pv->attr, CLIP_MAX_ATTRS, d->rs->prim_id);
	}
	if (p->aa_alpha)
		raster_aa_ms(&p->aa, &a, &d->clip, &d->st.ms.pattern, quad_fn, d);
	else if (rect)
		raster_line_rect_ms(&a, &b, d->st.line_width, &d->clip, &d->st.ms.pattern,
				    quad_fn, d);
	else
		raster_line_ms(&a, &b, d->st.line_width, d->st.last_pixel, &d->clip,
			       &d->st.ms.pattern, quad_fn, d);
	ps_prim_end(d);
}

static void point(struct wm_draw *d, const struct clip_vertex *c, const struct clip_vertex *pv,
		  bool back_facing, float z_offset)
{
	wm_band_flush(d);     /* points are the engine thread's alone */
	struct wm_prim *p = &d->prim;
	struct win_vertex v = to_window(d, c);
	float size = d->st.point_width;
	if (!d->st.point_width_from_state)
		size = c->attr[0][3];             /* VUE header DWord 3: point width */
	if (!(size > 0))
		size = 1;
	float h = size / 2;
	p->v[0] = v; p->v[0].x -= h; p->v[0].y -= h;
	p->v[1] = v; p->v[1].x += h; p->v[1].y -= h;
	p->v[2] = v; p->v[2].x -= h; p->v[2].y += h;
	/* a smooth point: its circle's coverage in alpha, or under
	 * multisample rasterization the samples inside the circle */
	if (d->st.smooth_points && aa_unmodelled(d))
		return;
	p->aa.kind = RASTER_AA_NONE;
	p->aa_alpha = d->st.smooth_points && !ms_raster(&d->st);
	if (d->st.smooth_points)
		raster_aa_point(&p->aa, &v, size, d->st.aa_region);
	p->back_facing = back_facing;
	p->is_point = true;
	p->stippled = false;
	p->line_stippled = false;
	p->z_offset = z_offset;
	p->bary_mapped = false;
	bary_setup(&p->bary, &p->v[0], &p->v[1], &p->v[2]);
	/* z and 1/w constant over the point */
	for (int i = 0; i < 3; i++) {
		p->v[i].z = v.z;
		p->v[i].rhw = v.rhw;
	}
	bary_setup(&p->bary, &p->v[0], &p->v[1], &p->v[2]);
	const float (*rows[3])[4] = { c->attr, c->attr, c->attr };
	attr_setup(p, &d->st.sbe, rows, pv->attr, CLIP_MAX_ATTRS, d->rs->prim_id);
	if (p->aa_alpha)
		raster_aa_ms(&p->aa, &v, &d->clip, &d->st.ms.pattern, quad_fn, d);
	else
		raster_point_ms(&v, size, &d->clip, &d->st.ms.pattern, quad_fn, d);
	ps_prim_end(d);
}

/* The clip vertex of a VUE: position from row 1, clip distances from rows
 * 2-3 when user clipping is on, every row as an attribute. */
static int read_vue(struct wm_draw *d, uint32_t handle, struct clip_vertex *c)
{
	struct render_state *rs = d->rs;
	uint32_t bytes = rs->sink_vue_bytes;   /* handle: a VUE_REF (stage.h) */
	uint32_t rows = bytes / 16 < CLIP_MAX_ATTRS ? bytes / 16 : CLIP_MAX_ATTRS;
	const char *why = "";
	const uint8_t *vue = urb_entry_bytes(&rs->urb_space, vue_ref_handle(handle),
					     vue_ref_byte_offset(handle), rows * 16, &why);
	if (!vue || rows < 2)
		return wm_fault(d, "clip: reading VUE 0x%x: %s", handle, vue ? "entry too small" : why);
	memset(c, 0, sizeof(*c));
	memcpy(c->attr, vue, rows * 16);
	memcpy(c->pos, c->attr[1], 16);
	if ((d->st.clip.user_clip | d->st.clip.user_cull) && rows >= 4) {
		memcpy(c->dist, c->attr[2], 16);
		memcpy(c->dist + 4, c->attr[3], 16);
	}
	return 0;
}

/* hidden: the triangle's edges that are no polygon boundary (bit k:
 * vertex k to k + 1). The clipped polygon is drawn as a fan whose inner
 * edges are not boundaries either. Its constant (flat) attributes come
 * from provoking, which a quad's half need not contain. */
static void clipped_triangle_pv(struct wm_draw *d, struct clip_vertex *v,
				const struct clip_vertex *provoking, unsigned hidden)
{
	/* On the stack, not in thread-local storage: the shim's static TLS is
	 * set up (and its pages touched) for every thread of the client, and
	 * IGT's exhaustion tests start 150 000 of them. */
	struct clip_vertex out[CLIP_MAX_VERTS];
	unsigned n;
	struct clip_vertex pv = *provoking;
	for (unsigned k = 0; k < 3; k++)
		v[k].edge = !(hidden >> k & 1);
	enum clip_result r = clip_polygon(&d->st.clip, v, 3, out, &n);
	if (r == CLIP_REJECT)
		return;
	d->cl_out += n - 2;
	for (unsigned i = 1; i + 1 < n && !d->fault; i++) {
		unsigned edges = (i == 1 && out[0].edge) | (unsigned)out[i].edge << 1 |
				 (unsigned)(i + 2 == n && out[n - 1].edge) << 2;
		triangle(d, &out[0], &out[i], &out[i + 1], &pv, edges,
			 r == CLIP_CLIPPED ? v : NULL);
	}
}

static void clipped_triangle(struct wm_draw *d, struct clip_vertex *v, unsigned pvi,
			     unsigned hidden)
{
	clipped_triangle_pv(d, v, &v[pvi], hidden);
}

/* The drawing rectangle, cut by viewport vpi's extents and its scissor
 * when enabled. */
static void set_clip_rect(struct wm_draw *d, uint32_t vpi)
{
	d->clip = d->st.draw_rect;
	if (d->st.vp_extents_valid) {
		struct pixel_rect e = d->st.vp_extents[vpi];
		e.x0 += d->st.origin_x; e.x1 += d->st.origin_x;
		e.y0 += d->st.origin_y; e.y1 += d->st.origin_y;
		rect_intersect(&d->clip, &e);
	}
	if (d->st.scissor_enable)
		rect_intersect(&d->clip, &d->st.scissors[vpi]);
}

/* The VUE header of the primitive's first vertex: DWord 1 Render Target
 * Array Index, DWord 2 Viewport Index (PRM vol. 2 "Vertex URB Entry (VUE)
 * Formats"). A viewport index above 3DSTATE_CLIP's Maximum VP Index
 * becomes 0, as the clipper passes it down. */
static void header_indices(struct wm_draw *d, const struct clip_vertex *v)
{
	uint32_t rtai, vpi;
	memcpy(&rtai, &v->attr[0][1], 4);
	memcpy(&vpi, &v->attr[0][2], 4);
	if (vpi >= d->st.num_vp)
		vpi = 0;
	if (d->st.force_zero_rtai)     /* 3DSTATE_CLIP Force Zero RTAIndex Enable */
		rtai = 0;
	if (rtai != d->prim.rt_array_index) {
		char why[160];
		if (wm_depth_layer(&d->st.ds, rtai, why))
			wm_fault(d, "depth buffer layer %u: %s", rtai, why);
	}
	d->prim.rt_array_index = rtai;
	if (vpi == d->vp_index)
		return;
	d->vp_index = vpi;
	d->st.vp = d->st.vps[vpi];
	d->st.clip.xy_test = d->st.xy_clip_enable && d->st.gb_valid[vpi];
	memcpy(d->st.clip.gb, d->st.gbs[vpi], sizeof(d->st.clip.gb));
	set_clip_rect(d, vpi);
}

/* The VF's edge flags of the triangle (h[k[0]], h[k[1]], h[k[2]]) as
 * hidden edges: vertex k's flag off hides the edge from it to the next
 * (GL 4.6 section 10.1.17: edge flags apply to independent triangles,
 * quads and polygons only). */
static unsigned vf_hidden(const struct wm_draw *d, const uint32_t *h, const unsigned k[3])
{
	if (!d->rs->vf_edge_flags)
		return 0;
	unsigned m = 0;
	for (unsigned i = 0; i < 3; i++) {
		uint32_t hd = vue_ref_handle(h[k[i]]);
		m |= (unsigned)(d->rs->vf_edge_off[hd >> 3] >> (hd & 7) & 1) << i;
	}
	return m;
}

static void prim_sink(void *ctx, uint32_t topo, const uint32_t *h, unsigned n)
{
	struct wm_draw *d = ctx;
	struct clip_vertex v[6];   /* on the stack: see clipped_triangle_pv */
	if (d->fault || n == 0 || n > 6)
		return;
	for (unsigned i = 0; i < n; i++)
		if (read_vue(d, h[i], &v[i]))
			return;
	header_indices(d, &v[0]);
	d->prim.topology = (uint8_t)topo;
	const struct wm_state *st = &d->st;
	d->cl_in++;
	if (st->cull_mode == 0xff)   /* CLIPMODE_REJECT_ALL (rasterizer discard): none out */
		return;
	switch (topo) {
	case PRIM_POINTLIST: case PRIM_POINTLIST_BF: {
		struct clip_vertex out[CLIP_MAX_VERTS];
		unsigned m;
		if (clip_polygon(&st->clip, v, 1, out, &m) != CLIP_REJECT) {
			d->cl_out++;
			point(d, &v[0], &v[0], false, 0);
		}
		break;
	}
	case PRIM_LINELIST: case PRIM_LINESTRIP: case PRIM_LINELOOP: case PRIM_LINESTRIP_CONT:
	case PRIM_LINESTRIP_BF: case PRIM_LINESTRIP_CONT_BF: case PRIM_LINELIST_ADJ:
	case PRIM_LINESTRIP_ADJ: {
		struct clip_vertex out[CLIP_MAX_VERTS], *l = v;
		if (n == 4) /* adjacency: the middle two */
			l = &v[1];
		struct clip_vertex pv = l[st->pv_line ? 1 : 0];
		unsigned m;
		/* the stipple restarts at each line of a list and at a strip's
		 * or loop's first segment; LINESTRIP_CONT goes on from the last */
		bool cont = topo == PRIM_LINESTRIP_CONT || topo == PRIM_LINESTRIP_CONT_BF;
		if (topo == PRIM_LINELIST || topo == PRIM_LINELIST_ADJ || (d->rs->prim_first && !cont))
			d->line_stipple_s = 0;
		enum clip_result r = clip_polygon(&st->clip, l, 2, out, &m);
		if (r != CLIP_REJECT) {
			d->cl_out++;
			line(d, &out[0], &out[1], &pv, false, 0, r == CLIP_CLIPPED ? l : NULL);
		}
		break;
	}
	case PRIM_RECTLIST:
		d->cl_out++;
		rect(d, v);
		break;
	case PRIM_QUADLIST: case PRIM_QUADSTRIP: {
		/* A quad reaches the clipper as two triangles; both halves take
		 * the quad's one provoking vertex: its last (QUADLIST 4i+3,
		 * QUADSTRIP 2i+3, v[3] here), or its first when the triangle
		 * select says first (GL 4.6 compatibility, table 13.2 "Provoking
		 * vertex selection", with quads following the convention). The
		 * diagonal (v0-v2, QUADSTRIP v0-v3) is no boundary. */
		const struct clip_vertex *pv = st->pv_tri % 3 == 0 ? &v[0] : &v[3];
		d->cl_in++;
		if (topo == PRIM_QUADLIST) {
			clipped_triangle_pv(d, (struct clip_vertex[]){ v[0], v[1], v[2] }, pv,
					    4 | vf_hidden(d, h, (const unsigned[]){ 0, 1, 2 }));
			clipped_triangle_pv(d, (struct clip_vertex[]){ v[0], v[2], v[3] }, pv,
					    1 | vf_hidden(d, h, (const unsigned[]){ 0, 2, 3 }));
		} else {
			clipped_triangle_pv(d, (struct clip_vertex[]){ v[0], v[1], v[3] }, pv, 4);
			clipped_triangle_pv(d, (struct clip_vertex[]){ v[0], v[3], v[2] }, pv, 1);
		}
		break;
	}
	case PRIM_TRILIST_ADJ: case PRIM_TRISTRIP_ADJ:
		clipped_triangle(d, (struct clip_vertex[]){ v[0], v[2], v[4] }, st->pv_tri % 3, 0);
		break;
	case PRIM_TRIFAN: case PRIM_TRIFAN_NOSTIPPLE: case PRIM_POLYGON:
		clipped_triangle(d, v, st->pv_fan % 3, d->rs->prim_hidden_edges |
				 (topo == PRIM_POLYGON ? vf_hidden(d, h, (const unsigned[]){ 0, 1, 2 }) : 0));
		break;
	default:
		if (n == 3)      /* (v0, v2, v1): the window's vertex k is at {0, 2, 1}[k] */
			clipped_triangle(d, v, d->rs->prim_reordered ?
					 (unsigned[]){ 0, 2, 1 }[st->pv_tri % 3] : st->pv_tri % 3,
					 topo == PRIM_TRILIST ?
					 vf_hidden(d, h, (const unsigned[]){ 0, 1, 2 }) : 0);
		else
			wm_fault(d, "back end: topology %u with %u vertices is not rasterized",
				 topo, n);
		break;
	}
}

/* 3DSTATE_PS: the windower dispatches the widest enabled width (a draw
 * here never restricts it), whose kernel start pointer and GRF start are
 * in the slot the PRM's "dispatch enables to KSP" table gives: KSP0 for
 * the only width enabled or for SIMD8, KSP1 for SIMD32 beside a narrower
 * one, KSP2 for SIMD16 beside another. */
static void choose_dispatch(struct wm_draw *d)
{
	const struct ps_state *ps = &d->st.ps;
	unsigned k = 0;
	if (ps->simd32) {
		d->simd = 32;
		k = ps->simd8 || ps->simd16 ? 1 : 0;
	} else if (ps->simd16) {
		d->simd = 16;
		k = ps->simd8 ? 2 : 0;
	} else {
		d->simd = 8;
	}
	d->grf_start = ps->grf_start[k];
	d->kernel.addr = ps->ksp[k];          /* offset; ps_kernel_load adds the base */
}

int wm_draw_begin(struct render_state *rs, const struct render_env *env,
		  const struct cs_state *state)
{
	struct wm_draw *d = calloc(1, sizeof(*d));
	if (!d)
		return render_set_fault(rs, "back end: out of memory");
	d->rs = rs;
	d->env = env;
	if (wm_state_load(&d->st, rs, env, state)) {
		free(d);
		return -1;
	}
	/* clipping interpolates every VUE row read_vue() carries */
	uint32_t rows = rs->sink_vue_bytes / 16;
	d->st.clip.nattrs = rows < CLIP_MAX_ATTRS ? rows : CLIP_MAX_ATTRS;
	const struct wm_state *st = &d->st;
	set_clip_rect(d, 0);
	d->dispatch = st->ps.valid && (st->ps.simd8 || st->ps.simd16 || st->ps.simd32) &&
		      st->force_dispatch != 1;
	/* 3DSTATE_WM Early Depth/Stencil Control PSEXEC (1): the PS runs for
	 * pixels that then fail the depth test (a PS with stores, images).
	 * The alpha test and alpha to coverage drop pixels or samples at the
	 * RT write as a kill does (3DSTATE_PS_BLEND Alpha Test Enable, Alpha
	 * To Coverage Enable: the WM's copies of BLEND_STATE's bits), so the
	 * depth/stencil test waits for them: iris's fixed-function alpha test
	 * into a depth-only FBO leaves Pixel Shader Kills Pixel off */
	bool a2c = st->alpha_to_coverage && !st->ps_disables_a2c;
	bool late = st->ps.kills || st->ps.computed_depth || st->ps.computed_stencil ||
		    st->force_kill == 2 || st->alpha_test || a2c ||
		    st->early_ds == 1;
	d->early_depth = depth_test_enabled(st) && (!d->dispatch || !late || st->early_ds == 2);
	sampler_unit_init(&d->sampler, rs->info->gen, &env->vm, rs->sba.surface, rs->sba.dynamic,
			  rs->binding_table[RS_PS], rs->sampler_state[RS_PS], true);
	dp_unit_init(&d->dp, rs->info->gen, &env->vm, rs->sba.general, rs->sba.surface,
		     rs->sba.dynamic, rs->binding_table[RS_PS]);
	d->dp.scratch_base = st->ps.scratch_base;
	d->dp.scratch_per_thread = st->ps.scratch_base ? 1024u << (st->ps.scratch_space & 15) : 0;
	d->units = (struct render_units){ .urb = &rs->urb_space, .sampler = &d->sampler,
					  .rt = d, .dp = &d->dp };
	if (d->dispatch) {
		choose_dispatch(d);
		uint64_t ksp = d->kernel.addr;
		d->kernel.addr = 0;
		if (ps_kernel_load(d, ksp)) {
			free(d);
			return -1;
		}
		d->job = calloc(1, sizeof(*d->job));
		if (d->job)
			d->job->t = aligned_alloc(64, sizeof(struct eu_thread));
		if (!d->job || !d->job->t) {
			if (d->job)
				free(d->job->t);
			free(d->job);
			ps_kernel_release(d);
			free(d);
			return render_set_fault(rs, "back end: out of memory");
		}
		ps_job_init(d, d->job);
		d->px = &d->job->px;
	}
	wm_band_begin(d);
	rs->prim_sink = prim_sink;
	rs->prim_ctx = d;
	return 0;
}

static void add_stat(const struct wm_draw *d, uint32_t reg, uint64_t n)
{
	render_stat_add(d->env, reg, n);
}

/* Pipeline statistics (PRM vol. 2 "Statistics"): CL_* with 3DSTATE_CLIP
 * Statistics Enable, PS_* with 3DSTATE_WM's. Broadwell's
 * REG_PS_INVOCATION_COUNT counts four per pixel (Mesa's
 * WaDividePSInvocationCountBy4 for HSW/BDW divides it back). */
static void add_stats(const struct wm_draw *d)
{
	if (d->st.clip_stats) {
		add_stat(d, REG_CL_INVOCATION_COUNT, d->cl_in);
		add_stat(d, REG_CL_PRIMITIVES_COUNT, d->cl_out);
	}
	if (d->st.wm_stats) {
		add_stat(d, REG_PS_INVOCATION_COUNT, d->ps_pixels * (d->rs->info->gen == 8 ? 4 : 1));
		add_stat(d, REG_PS_DEPTH_COUNT, d->depth_passed);
	}
}

int wm_draw_end(struct render_state *rs)
{
	struct wm_draw *d = rs->prim_ctx;
	if (!d || rs->prim_sink != prim_sink)
		return 0;
	wm_band_flush(d);
	ps_flush(d);
	rt_write_add_fast_subspans(d->fast_subspans);
	int ret = d->fault ? -1 : 0;
	if (!ret)
		add_stats(d);
	if (d->have_rt0)
		png_dump_rt_from_env(&d->env->vm, d->rt0.base, d->rt0.format, d->rt0.tiling,
				     d->rt0.pitch, d->rt0.width, d->rt0.height);
	TRACE(TRACE_PS, "draw: %llu PS threads, %llu pixels", (unsigned long long)d->ps_threads,
	      (unsigned long long)d->ps_pixels);
	wm_band_end(d);
	ps_kernel_release(d);
	if (d->job)
		free(d->job->t);
	free(d->job);
	free(d);
	rs->prim_sink = NULL;
	rs->prim_ctx = NULL;
	return ret;
}
