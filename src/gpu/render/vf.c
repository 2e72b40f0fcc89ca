/* The vertex fetcher (PRM vol. 2 "Vertex Fetch (VF) Stage"; seed 000): for
 * every valid VERTEX_ELEMENT_STATE, read the element from its vertex
 * buffer, convert it from its Source Element Format (format.h), apply the
 * component controls and write it as one 128-bit row of the vertex's VUE,
 * then store the VertexID/InstanceID system values (3DSTATE_VF_SGVS) into
 * the row of the element they name.
 *
 * *64*_PASSTHRU formats are copied without conversion, one 64-bit value
 * per component control: a 128-bit element (components 2-3 NOSTORE) or a
 * 256-bit one taking two rows (PRM vol. 2d VERTEX_ELEMENT_STATE). An
 * element with Edge Flag Enable is sideband data, not stored in the VUE:
 * its component 0 (nonzero: the edge that starts at this vertex is a
 * boundary) is kept per VS URB handle for the clipper (wm_draw.c); it
 * cannot use a *64*_PASSTHRU format.
 *
 * Buffer-size rule: an element that does not lie entirely inside the
 * buffer's Buffer Size reads as zeros; memory is only ever read through
 * the context's address space. */
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/format/format.h"
#include "gpu/render/render_state.h"

#define VF_MAX_ROWS (2 * RENDER_MAX_VE)  /* 256-bit elements take two rows */

int vf_prepare(struct render_state *rs)
{
	for (uint32_t e = 0; e < rs->num_ve; e++) {
		struct ve_state *ve = &rs->ve[e];
		if (!ve->valid)
			continue;
		ve->reads = false;
		for (int c = 0; c < 4; c++) {
			if (ve->comp[c] > VFCOMP_STORE_1_INT && ve->comp[c] != VFCOMP_STORE_PID)
				return render_set_fault(rs, "VF: element %u component %d: "
							"control %u is reserved", e, c, ve->comp[c]);
			ve->reads |= ve->comp[c] == VFCOMP_STORE_SRC;
		}
		if (ve->vb >= RENDER_MAX_VB)
			return render_set_fault(rs, "VF: element %u names vertex buffer %u",
						e, ve->vb);
		ve->fi = format_info(ve->format);
		if (ve->reads && (!ve->fi || !ve->fi->supported || !format_vf_supported(ve->format)))
			return render_set_fault(rs, "VF: vertex element format %u (%s) is not a "
						"vertex fetch format", ve->format,
						format_name(ve->format));
		if (ve->edge_flag && ve->fi && ve->fi->ch[0].type == FMT_T_PASSTHRU)
			return render_set_fault(rs, "VF: element %u: a *64*_PASSTHRU format "
						"cannot carry the edge flag", e);
	}
	for (uint32_t i = 0; i < RENDER_MAX_VB; i++)
		rs->vb[i].tlb_host = NULL;
	return 0;
}

/* bytes at va, through the buffer's one-page translation cache */
static int vb_read(const struct render_env *env, struct vb_state *vb, uint64_t va,
		   void *dst, uint32_t bytes)
{
	uint64_t page = va & ~4095ull;
	if ((va & 4095) + bytes > 4096)
		return vm_read(&env->vm, va, dst, bytes);
	if (!vb->tlb_host || vb->tlb_page != page) {
		uint64_t avail;
		vb->tlb_host = vm_map(&env->vm, page, false, &avail);
		vb->tlb_page = page;
		if (!vb->tlb_host)
			return -1;
	}
	memcpy(dst, vb->tlb_host + (va & 4095), bytes);
	return 0;
}

static int fetch_element(struct render_state *rs, const struct render_env *env,
			 const struct ve_state *ve, uint32_t index, union fmt_value out[4])
{
	uint8_t raw[32] = { 0 };
	uint32_t bytes = ve->fi->bpe / 8;
	struct vb_state *vb = &rs->vb[ve->vb];
	uint64_t off = (uint64_t)index * vb->pitch + ve->offset;
	if (vb->valid && !vb->null && off + bytes <= vb->size &&
	    vb_read(env, vb, vb->addr + off, raw, bytes))
		return render_set_fault(rs, "VF: page fault reading vertex buffer %u at 0x%llx",
					ve->vb, (unsigned long long)(vb->addr + off));
	format_unpack(ve->fi, raw, out);
	return 0;
}

static bool is_passthru64(const struct ve_state *ve)
{
	return ve->fi && ve->fi->ch[0].type == FMT_T_PASSTHRU && ve->fi->ch[0].bits == 64;
}

/* A *64*_PASSTHRU element: each control stores 64 bits (two dwords) until
 * the first NOSTORE; returns the dwords written (4 or 8). */
static int fetch_passthru64(struct render_state *rs, const struct render_env *env,
			    const struct ve_state *ve, uint32_t index, uint32_t *out,
			    uint32_t *ndw)
{
	uint8_t raw[32] = { 0 };
	uint32_t bytes = ve->fi->bpe / 8 < 32 ? ve->fi->bpe / 8 : 32;
	struct vb_state *vb = &rs->vb[ve->vb];
	uint64_t off = (uint64_t)index * vb->pitch + ve->offset;
	if (ve->reads && vb->valid && !vb->null && off + bytes <= vb->size &&
	    vb_read(env, vb, vb->addr + off, raw, bytes))
		return render_set_fault(rs, "VF: page fault reading vertex buffer %u at 0x%llx",
					ve->vb, (unsigned long long)(vb->addr + off));
	uint32_t n = 0;
	for (unsigned c = 0; c < 4 && ve->comp[c] != VFCOMP_NOSTORE; c++, n += 2) {
		uint64_t v = 0;
		if (ve->comp[c] == VFCOMP_STORE_SRC && (c + 1) * 8 <= bytes)
			memcpy(&v, raw + 8 * c, 8);
		else if (ve->comp[c] == VFCOMP_STORE_1_FP)
			v = 0x3ff0000000000000ull;          /* 1.0 as a double */
		else if (ve->comp[c] == VFCOMP_STORE_1_INT)
			v = 1;
		out[n] = (uint32_t)v;
		out[n + 1] = (uint32_t)(v >> 32);
	}
	for (uint32_t i = n; i < 8; i++)
		out[i] = 0;
	*ndw = n <= 4 ? 4 : 8;
	return 0;
}

static void store_sgv(uint32_t *rows, uint32_t nrows, uint32_t row, uint32_t comp,
		      uint32_t value)
{
	if (row < nrows)
		rows[row * 4 + (comp & 3)] = value;
}

static void store_edge_flag(struct render_state *rs, const struct render_env *env,
			    const struct ve_state *ve, uint32_t index, uint32_t handle, int *err)
{
	union fmt_value v[4] = { { 0 } };
	if (ve->reads && fetch_element(rs, env, ve, index, v)) {
		*err = -1;
		return;
	}
	bool on = ve->comp[0] == VFCOMP_STORE_SRC ? v[0].u != 0 :
		ve->comp[0] == VFCOMP_STORE_1_FP || ve->comp[0] == VFCOMP_STORE_1_INT;
	uint8_t bit = (uint8_t)(1u << (handle & 7));
	if (on)
		rs->vf_edge_off[(handle & 0xffff) >> 3] &= (uint8_t)~bit;
	else
		rs->vf_edge_off[(handle & 0xffff) >> 3] |= bit;
}

int vf_fetch(struct render_state *rs, const struct render_env *env, uint32_t handle,
	     uint32_t vertex_index, uint32_t vertex_id, uint32_t instance,
	     uint32_t start_instance)
{
	uint32_t rows[VF_MAX_ROWS * 4];
	uint32_t nrows = 0;
	uint32_t row_of[RENDER_MAX_VE];   /* each element's first row */

	for (uint32_t e = 0; e < rs->num_ve; e++) {
		const struct ve_state *ve = &rs->ve[e];
		row_of[e] = nrows;
		if (!ve->valid)
			continue;
		union fmt_value v[4] = { { 0 } };
		uint32_t index = vertex_index;
		if (ve->instancing)
			index = start_instance + (ve->step_rate ? instance / ve->step_rate : 0);
		if (ve->edge_flag) {
			int err = 0;
			store_edge_flag(rs, env, ve, index, handle, &err);
			if (err)
				return -1;
			continue;
		}
		uint32_t *row = &rows[nrows * 4];
		if (is_passthru64(ve)) {
			uint32_t ndw = 4;
			if (fetch_passthru64(rs, env, ve, index, row, &ndw))
				return -1;
			nrows += ndw / 4;
			continue;
		}
		if (ve->reads && fetch_element(rs, env, ve, index, v))
			return -1;
		for (int c = 0; c < 4; c++) {
			switch (ve->comp[c]) {
			case VFCOMP_STORE_SRC: row[c] = v[c].u; break;
			case VFCOMP_STORE_0: row[c] = 0; break;
			case VFCOMP_STORE_1_FP: row[c] = 0x3f800000u; break;
			case VFCOMP_STORE_1_INT: row[c] = 1; break;
			case VFCOMP_NOSTORE: row[c] = 0; break;
			default: row[c] = 0; break; /* STORE_PID: no primitive yet */
			}
		}
		nrows++;
	}
	/* System values go into a row the elements already made (the driver
	 * sets that component to STORE_0 or NOSTORE). VertexID leaves out
	 * Start Vertex Location and Base Vertex Location, as InstanceID leaves
	 * out Start Instance Location: iris and anv add them back in the shader
	 * (gl_VertexID = VertexID + firstvertex, their draw parameter), and
	 * piglit's transform-feedback-vertex-id, which iris passes on the
	 * hardware, captures 4..7 for glDrawArrays(first 4, count 4). */
	if (rs->vid_enable && rs->vid_elem < rs->num_ve)
		store_sgv(rows, nrows, row_of[rs->vid_elem], rs->vid_comp, vertex_id);
	if (rs->iid_enable && rs->iid_elem < rs->num_ve)
		store_sgv(rows, nrows, row_of[rs->iid_elem], rs->iid_comp, instance);

	const char *why = "";
	uint8_t *vue = urb_entry_bytes(&rs->urb_space, handle, 0, nrows * 16, &why);
	if (nrows && !vue)
		return render_set_fault(rs, "VF: %u rows do not fit the VS URB entry "
					"(handle 0x%x): %s", nrows, handle, why);
	if (nrows)
		memcpy(vue, rows, nrows * 16);
	if (trace_on(TRACE_VF)) {
		char line[1024];
		int n = snprintf(line, sizeof(line), "vertex %u instance %u -> VUE 0x%x:",
				 vertex_index, instance, handle);
		for (uint32_t r = 0; r < nrows && n > 0 && n + 2 < (int)sizeof(line); r++) {
			line[n++] = ' ';
			n += render_format_row(line + n, sizeof(line) - (size_t)n, &rows[r * 4]);
		}
		trace_printf(TRACE_VF, "%s", line);
	}
	return 0;
}
