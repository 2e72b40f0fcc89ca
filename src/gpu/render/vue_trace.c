/* Trace output of the front end: VUEs row by row (vec4 rows, header first,
 * as seed 001 draws them). A DWord prints as a float, or as #n when its
 * bits are a small integer (VertexID, handles, integer attributes). */
#include <stdio.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/render/render_state.h"

int render_format_row(char *buf, size_t size, const uint32_t dw[4])
{
	int n = snprintf(buf, size, "(");
	for (int c = 0; c < 4 && n > 0 && (size_t)n < size; c++) {
		float f;
		memcpy(&f, &dw[c], 4);
		const char *sep = c < 3 ? ", " : ")";
		if (dw[c] && dw[c] < 0x00800000u)
			n += snprintf(buf + n, size - (size_t)n, "#%u%s", dw[c], sep);
		else
			n += snprintf(buf + n, size - (size_t)n, "%g%s", f, sep);
	}
	return n;
}

void vue_trace(struct render_state *rs, uint32_t handle, uint32_t vertex)
{
	const char *why = "";
	uint32_t rows = rs->urb[0].size * 4;
	for (int p = 0; p < URB_NUM_PARTS; p++) {   /* the partition the handle is in */
		uint32_t at = handle * 64, first = rs->urb_space.part[p].first;
		if (rs->urb_space.part[p].entry_bytes && at >= first &&
		    at < first + rs->urb_space.part[p].entry_bytes * rs->urb_space.part[p].entries)
			rows = rs->urb_space.part[p].entry_bytes / 16;
	}
	const uint8_t *vue = urb_entry_bytes(&rs->urb_space, handle, 0, rows * 16, &why);
	if (!vue)
		return;
	trace_lock();
	FILE *f = trace_stream();
	fprintf(f, "[urb] VUE 0x%x (vertex %u), %u rows:\n", handle, vertex, rows);
	for (uint32_t r = 0; r < rows; r++) {
		uint32_t dw[4];
		char row[160];
		memcpy(dw, vue + r * 16, 16);
		render_format_row(row, sizeof(row), dw);
		fprintf(f, "[urb]   row %2u  DW %2u-%2u  %-44s %08x %08x %08x %08x%s\n", r,
			r * 4, r * 4 + 3, row, dw[0], dw[1], dw[2], dw[3],
			r == 0 ? "  header" : r == 1 ? "  position" : "");
	}
	trace_unlock();
}
