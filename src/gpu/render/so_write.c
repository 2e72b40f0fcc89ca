/* Stream output of one primitive (so.h; BDW PRM vol. 7 "Stream Output
 * Logic"): the primitive becomes points, lines or triangles, and each of
 * its vertices is written through the stream's decls into the buffers the
 * stream selects, at SO_WRITE_OFFSETn + vertex * pitch. A primitive that
 * does not fit entirely in every buffer its stream selects is not written
 * at all: SO_PRIM_STORAGE_NEEDED counts it, SO_NUM_PRIMS_WRITTEN does not.
 * A selected buffer that is disabled has no room: Gen7's SO_BUFFER has no
 * enable bit and drivers disable one with a zero-size range, which every
 * primitive overflows; anv pauses transform feedback on Gen8/9 by clearing
 * SO Buffer Enable with the SO function left on, and expects the paused
 * primitives not to count as written. */
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/render/render_state.h"
#include "gpu/render/so_draw.h"
#include "gpu/render/topology.h"

static bool fail(struct so_draw *so, const char *what, uint32_t handle, const char *why)
{
	if (!so->fault)
		render_set_fault(so->rs, "stream output: %s 0x%x: %s", what, handle, why);
	so->fault = true;
	return false;
}

/* Dwords one vertex writes into (or skips in) buffer b. */
static uint32_t vertex_dwords(const struct so_draw *so, unsigned stream, unsigned b)
{
	uint32_t n = 0;
	for (unsigned i = 0; i < so->ndecl[stream]; i++)
		if (so->decl[stream][i].buffer == b)
			n += (uint32_t)__builtin_popcount(so->decl[stream][i].mask);
	return n;
}

static void trace_vertex(unsigned stream, unsigned b, uint64_t off, const uint32_t *dw,
			 unsigned n)
{
	char line[400];
	int k = snprintf(line, sizeof(line), "stream %u buffer %u offset %llu:", stream, b,
			 (unsigned long long)off);
	for (unsigned i = 0; i < n && k > 0 && (size_t)k < sizeof(line) - 12; i++) {
		float f;
		memcpy(&f, &dw[i], 4);
		k += snprintf(line + k, sizeof(line) - (size_t)k, " %g", (double)f);
	}
	TRACE(TRACE_SO, "%s", line);
}

/* Writes vertex v (the v-th of its primitive) of `stream`. */
static bool write_vertex(struct so_draw *so, unsigned stream, uint32_t handle, unsigned v)
{
	struct render_state *rs = so->rs;
	uint32_t pos[SO_BUFFERS] = { 0 };   /* dwords into the vertex, per buffer */
	uint32_t out[SO_BUFFERS][64];       /* what each buffer gets, for the trace */
	unsigned nout[SO_BUFFERS] = { 0 };
	for (unsigned i = 0; i < so->ndecl[stream]; i++) {
		const struct so_decl *d = &so->decl[stream][i];
		unsigned b = d->buffer, ncomp = (unsigned)__builtin_popcount(d->mask);
		const struct so_buffer *sb = &rs->so_buf[b];
		if (d->hole || !ncomp || !sb->enable || !((so->select[stream] >> b) & 1)) {
			pos[b] += ncomp;
			continue;
		}
		const char *why = "";
		uint32_t row = so->read_row[stream] + d->reg;
		/* handle: a VUE reference (stage.h), a GS vertex inside its entry */
		const uint8_t *src = urb_entry_bytes(&rs->urb_space, vue_ref_handle(handle),
						     vue_ref_byte_offset(handle) + row * 16, 16, &why);
		if (!src)
			return fail(so, "reading VUE", handle, why);
		uint32_t comp[4];
		memcpy(comp, src, 16);
		uint64_t addr = sb->base + so->offset[b] + (uint64_t)v * so->pitch[b];
		for (unsigned c = 0; c < 4; c++) {
			if (!((d->mask >> c) & 1))
				continue;
			if (vm_write(&so->env->vm, addr + pos[b] * 4, &comp[c], 4)) {
				char msg[80];
				snprintf(msg, sizeof(msg), "page fault writing buffer %u at 0x%llx",
					 b, (unsigned long long)(addr + pos[b] * 4));
				return fail(so, "vertex", handle, msg);
			}
			if (nout[b] < 64)
				out[b][nout[b]++] = comp[c];
			pos[b]++;
		}
	}
	for (unsigned b = 0; trace_on(TRACE_SO) && b < SO_BUFFERS; b++)
		if (nout[b])
			trace_vertex(stream, b, so->offset[b] + (uint64_t)v * so->pitch[b],
				     out[b], nout[b]);
	return true;
}

/* One point, line or triangle of stream: written when it fits. */
static bool output(struct so_draw *so, unsigned stream, const uint32_t *h, unsigned n)
{
	struct render_state *rs = so->rs;
	so->needed[stream]++;
	uint32_t sel = so->select[stream];
	for (unsigned b = 0; b < SO_BUFFERS; b++) {
		const struct so_buffer *sb = &rs->so_buf[b];
		if (!((sel >> b) & 1))
			continue;
		if (!sb->enable) {
			TRACE(TRACE_SO, "stream %u: %u-vertex primitive dropped: buffer %u "
			      "is disabled", stream, n, b);
			return true;
		}
		uint64_t last = vertex_dwords(so, stream, b) * 4ull;
		uint64_t need = (uint64_t)(n - 1) * so->pitch[b] +
				(last > so->pitch[b] ? last : so->pitch[b]);
		if (so->offset[b] + need > sb->size) {
			TRACE(TRACE_SO, "stream %u: %u-vertex primitive dropped: buffer %u "
			      "offset %llu + %llu > size %llu", stream, n, b,
			      (unsigned long long)so->offset[b], (unsigned long long)need,
			      (unsigned long long)sb->size);
			return true;
		}
	}
	for (unsigned v = 0; v < n; v++)
		if (!write_vertex(so, stream, h[v], v))
			return false;
	for (unsigned b = 0; b < SO_BUFFERS; b++)
		if (((sel >> b) & 1) && rs->so_buf[b].enable)
			so->offset[b] += (uint64_t)n * so->pitch[b];
	so->written[stream]++;
	return true;
}

bool so_primitive(struct so_draw *so, unsigned stream, uint32_t topology,
		  const uint32_t *h, unsigned n, bool reordered)
{
	bool go_on = so->render && stream == so->render_stream;
	if (!so->function || so->fault || stream >= SO_STREAMS)
		return go_on && !so->fault;
	switch (topology) {
	case PRIM_LINELIST_ADJ: case PRIM_LINESTRIP_ADJ:
		if (n == 4)          /* without a GS: the line between the adjacent ones */
			output(so, stream, &h[1], 2);
		break;
	case PRIM_TRILIST_ADJ: case PRIM_TRISTRIP_ADJ:
		if (n == 6)
			output(so, stream, (uint32_t[]){ h[0], h[2], h[4] }, 3);
		break;
	case PRIM_TRIFAN: case PRIM_TRIFAN_NOSTIPPLE: case PRIM_POLYGON:
		/* (v0, vi, vi+1): LEADING puts the leading vertex vi first,
		 * TRAILING keeps vi+1 last (the provoking vertex of either
		 * convention stays where a triangle list has it) */
		if (n == 3 && !so->trailing)
			output(so, stream, (uint32_t[]){ h[1], h[2], h[0] }, 3);
		else
			output(so, stream, h, n);
		break;
	case PRIM_QUADLIST:      /* as the rasterizer splits them */
		if (output(so, stream, (uint32_t[]){ h[0], h[1], h[2] }, 3))
			output(so, stream, (uint32_t[]){ h[0], h[2], h[3] }, 3);
		break;
	case PRIM_QUADSTRIP:
		if (output(so, stream, (uint32_t[]){ h[0], h[1], h[3] }, 3))
			output(so, stream, (uint32_t[]){ h[0], h[3], h[2] }, 3);
		break;
	default:
		if (n == 3 && reordered && so->trailing) {
			/* (v0, v2, v1) -> TRAILING's (v1, v0, v2) (BDW PRM vol. 2a,
			 * 3DSTATE_STREAMOUT Reorder Mode) */
			output(so, stream, (uint32_t[]){ h[2], h[0], h[1] }, 3);
		} else if (n >= 1 && n <= 3) {
			output(so, stream, h, n);
		} else {
			char msg[60];
			snprintf(msg, sizeof(msg), "topology %u with %u vertices", topology, n);
			return fail(so, "primitive of vertex", h[0], msg);
		}
		break;
	}
	return go_on && !so->fault;
}
