/* A GS thread's output entry cut into primitives (PRM vol. 2 "GS Output",
 * "GS URB Entry"): with Static Output off, DWord 0 of the entry holds the
 * number of vertices the thread emitted (Broadwell+: a 256-bit slot); then
 * the control data header (Control Data Header Size x 256 bits); then the
 * vertices, Output Vertex Size x 128 bits each, as VUEs (header row,
 * position, ...). Header bit k belongs to vertex k: in CUT format a set bit
 * ends the strip after vertex k, in SID format two bits per vertex give
 * its stream, and a change of stream also ends a strip. The vertices are
 * assembled into Output Topology primitives, in output order, and handed to
 * the next stage; bits past the header's end are 0. */
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/render/render_state.h"

#define GS_PART (URB_NUM_PARTS - 1)

static uint32_t header_bits(const uint8_t *hdr, uint32_t hdr_bits, uint32_t first, unsigned n)
{
	if (first + n > hdr_bits)
		return 0;
	uint32_t dw;
	memcpy(&dw, hdr + first / 32 * 4, 4);
	return (dw >> (first % 32)) & ((1u << n) - 1);
}

static void trace_vertex(const uint8_t *v, uint32_t bytes, uint32_t handle, uint32_t k,
			 uint32_t stream, bool cut)
{
	trace_lock();
	FILE *f = trace_stream();
	fprintf(f, "[gs] entry 0x%x vertex %u (stream %u%s), %u rows:\n", handle, k, stream,
		cut ? ", cut after" : "", bytes / 16);
	for (uint32_t r = 0; r < bytes / 16; r++) {
		uint32_t dw[4];
		char row[160];
		memcpy(dw, v + r * 16, 16);
		render_format_row(row, sizeof(row), dw);
		fprintf(f, "[gs]   row %2u  %-44s %08x %08x %08x %08x%s\n", r, row, dw[0], dw[1],
			dw[2], dw[3], r == 0 ? "  header" : r == 1 ? "  position" : "");
	}
	trace_unlock();
}

int gs_output_assemble(struct render_state *rs, uint32_t handle, struct prim_stage *next,
		       uint64_t *prims)
{
	const struct gs_state *gs = &rs->gs;
	uint32_t entry_bytes = rs->urb[GS_PART].size * 64;
	uint32_t head = gs_output_header_bytes(gs), vbytes = gs->vertex_size * 16;
	const char *why = "";
	const uint8_t *e = urb_entry_bytes(&rs->urb_space, handle, 0, entry_bytes, &why);
	if (!e)
		return render_set_fault(rs, "GS: output entry 0x%x: %s", handle, why);
	uint32_t count = gs->static_vertex_count;
	if (!gs->static_output)
		memcpy(&count, e, 4);
	uint32_t room = (entry_bytes - head) / vbytes;
	if (count > room)
		return render_set_fault(rs, "GS: a thread output %u vertices; its %u-byte URB "
					"entry holds %u of %u bytes after a %u-byte header",
					count, entry_bytes, room, vbytes, head);
	const uint8_t *hdr = e + (gs->static_output ? 0 : 32);
	uint32_t hdr_bits = gs->control_header * 256;
	TRACE(TRACE_GS, "entry 0x%x: %u vertices, control data %s", handle, count,
	      !hdr_bits ? "none" : gs->control_data_sid ? "stream IDs" : "cut bits");

	struct prim_asm pa;
	prim_begin(&pa, gs->output_topology, false, next);
	pa.stream = gs->default_stream;
	for (uint32_t k = 0; k < count; k++) {
		uint32_t stream = gs->default_stream;
		bool cut = false;
		if (gs->control_data_sid)
			stream = hdr_bits ? header_bits(hdr, hdr_bits, 2 * k, 2) : stream;
		else
			cut = header_bits(hdr, hdr_bits, k, 1);
		if (stream != pa.stream) {
			if (prim_end(&pa))
				return -1;
			pa.stream = stream;
		}
		uint32_t off = head + k * vbytes;
		if (trace_on(TRACE_GS))
			trace_vertex(e + off, vbytes, handle, k, stream, cut);
		if (prim_vertex(&pa, VUE_REF(handle, off / 16)) || (cut && prim_end(&pa)))
			return -1;
	}
	int r = prim_end(&pa);
	*prims += pa.prims;
	return r;
}
