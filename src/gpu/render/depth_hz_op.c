/* 3DSTATE_WM_HZ_OP (PRM vol. 2a) modelled by its effect, as gtsim models
 * auxiliary surfaces: a depth clear writes the clear value of
 * 3DSTATE_CLEAR_PARAMS into every pixel of the clear rectangle of the
 * depth buffer, a stencil clear writes the stencil clear value; the HiZ
 * and depth resolves have nothing left to do. The rectangle's maxima are
 * exclusive; a multisampled buffer's clear writes every sample of its
 * pixels. The rectangle is clipped to the buffer (nothing outside it is
 * written), and a clear polls the engine's abort flag once a row, so that
 * a reset stops a huge one as it stops a long draw. */
#include <string.h>

#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/cs.h"
#include "gpu/cs/state.h"
#include "gpu/eu/exec.h"
#include "gpu/render/render_cs.h"
#include "gpu/render/wm.h"

/* One sample: a row at a time, its offsets from the surface module at
 * once (surface_view_row_offsets), one translation per 4 KiB page; a
 * page not wholly mapped goes through vm_write, which drops the bytes it
 * cannot write, as the per-pixel path does. */
static bool fill_rows(const struct gt_vm *vm, const struct surface_view *s, uint32_t x0,
		      uint32_t y0, uint32_t x1, uint32_t y1, const void *value, uint32_t *row)
{
	struct vm_page_hold hold;
	vm_page_hold_init(&hold);
	uint64_t off[64];
	for (uint32_t y = y0; y < y1 && y < s->height; y++) {
		if (exec_abort_requested()) {
			*row = y;
			return true;
		}
		for (uint32_t x = x0; x < x1; x += 64) {
			unsigned want = x1 - x < 64 ? x1 - x : 64;
			unsigned n = surface_view_row_offsets(s, x, y, want, off);
			for (unsigned i = 0; i < n; i++) {
				uint8_t *host = vm_page_map(vm, &hold, s->base + off[i], true);
				if (host)
					memcpy(host, value, s->cpp);
				else
					vm_write(vm, s->base + off[i], value, s->cpp);
			}
			if (n < want)
				break;              /* the rest of the row is outside */
		}
	}
	return false;
}

/* true: stopped by a reset at *row */
static bool fill(const struct gt_vm *vm, const struct surface_view *s, uint32_t samples,
		 uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, const void *value, uint32_t *row)
{
	if (samples == 1)
		return fill_rows(vm, s, x0, y0, x1, y1, value, row);
	if (x1 > s->width)
		x1 = s->width;
	if (y1 > s->height)
		y1 = s->height;
	for (uint32_t y = y0; y < y1; y++) {
		if (exec_abort_requested()) {
			*row = y;
			return true;
		}
		for (uint32_t x = x0; x < x1; x++)
			for (uint32_t i = 0; i < samples; i++) {
				uint64_t off;
				if (surface_view_sample_offset(s, samples, x, y, i, &off))
					vm_write(vm, s->base + off, value, s->cpp);
			}
	}
	return false;
}

enum cs_result render_cs_hz_op(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len)
{
	if (cs_state_record(e->state, d, dw, len))
		return cs_fault(e, "out of memory recording %s", d->name);
	struct cmd_3DSTATE_WM_HZ_OP v;
	int gen = e->gpu->info->gen;
	cmd_3DSTATE_WM_HZ_OP_unpack(gen, dw, len, &v);
	if (!v.depth_buffer_clear_enable && !v.stencil_buffer_clear_enable)
		return CS_NEXT;
	/* Scissor Rectangle Enable must be zero "due to a hardware issue"
	 * (the note drivers follow: blorp and anv never set it) */
	if (v.scissor_rectangle_enable)
		return cs_fault(e, "3DSTATE_WM_HZ_OP: Scissor Rectangle Enable set (MBZ)");
	/* Number of Multisamples: log2 of the buffers' samples, every one of
	 * which the clear writes (interleaved layout) */
	if (v.number_of_multisamples > (gen >= 9 ? 4u : 3u))
		return cs_fault(e, "3DSTATE_WM_HZ_OP: reserved Number of Multisamples %u",
				v.number_of_multisamples);
	uint32_t samples = 1u << v.number_of_multisamples;
	struct depth_state ds;
	char why[160];
	if (wm_depth_state_load(&ds, gen, e->state, samples, why))
		return cs_fault(e, "3DSTATE_WM_HZ_OP: depth/stencil buffer: %s", why);
	struct gt_vm vm = cs_vm_for(e, false);
	uint32_t x0 = v.clear_rectangle_x_min, y0 = v.clear_rectangle_y_min;
	uint32_t x1 = v.clear_rectangle_x_max, y1 = v.clear_rectangle_y_max;
	uint32_t row = 0;
	if (v.depth_buffer_clear_enable && ds.has_depth) {
		uint32_t z = depth_encode(ds.depth_format, ds.clear_valid ? ds.clear_value : 0.0f);
		if (fill(&vm, &ds.depth, samples, x0, y0, x1, y1, &z, &row))
			return cs_fault(e, "3DSTATE_WM_HZ_OP: depth clear stopped by an engine reset "
					"at row %u", row);
	}
	if (v.stencil_buffer_clear_enable && ds.has_stencil) {
		uint8_t s = (uint8_t)v.stencil_clear_value;
		if (fill(&vm, &ds.stencil, samples, x0, y0, x1, y1, &s, &row))
			return cs_fault(e, "3DSTATE_WM_HZ_OP: stencil clear stopped by an engine reset "
					"at row %u", row);
	}
	return CS_NEXT;
}
