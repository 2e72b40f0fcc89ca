/* Colour fast clears and resolves (3DSTATE_PS Render Target Fast Clear
 * Enable, Render Target Resolve Type / Enable; PRM vol. 7 "Render Target
 * Fast Clear" and "MCS Buffer for Render Target(s)").
 *
 * The hardware marks blocks of the control surface (CCS) "clear" and
 * writes the clear colour into the main surface only when a resolve pass
 * runs. gtsim keeps the main surface always resolved instead: a fast
 * clear writes the clear colour straight into each block, the CCS is never
 * read or written, and a resolve pass has nothing left to do (its RT
 * writes are dropped). Every reader that goes through the aux surface
 * (sampler, resolve, blending) sees the same colours as on the hardware.
 *
 * The clear rectangle arrives scaled down: each pixel stands for a block
 * of the surface, whose size the surface module gives
 * (surface_ccs_clear_block, surface_mcs_clear_block).
 *
 * Multisampled targets with an MCS: gtsim keeps every sample in its own
 * plane and the MCS at the identity (sample s in plane s), which the
 * sampler's ld_mcs/ld2dms read as the hardware's would. A fast clear
 * writes the clear colour into every sample of its blocks and the
 * identity into their MCS elements; a render target write or a partial
 * resolve of a pixel whose MCS is still all ones (iris initialises the
 * MCS so: "cleared") first gives every sample the clear colour. */
#include <string.h>

#include "common/trace.h"
#include "gpu/format/format.h"
#include "gpu/render/wm_draw.h"

int rt_clear_colour_pack(struct wm_draw *d, struct eu_thread *t, const struct surface_layout *l,
			 const struct fmt_info *fi)
{
	int gen = d->rs->info->gen;
	union fmt_value v[4];
	bool integer = format_is_integer(fi);
	for (int c = 0; c < 4; c++) {
		uint32_t bits = l->clear_color[c];   /* gen8 DWord 7's bits, gen9 DWords 12-15 */
		if (gen < 9)                 /* one bit: 0 or 1 (1.0 for float data) */
			v[c].u = bits ? (integer ? 1u : 0x3f800000u) : 0;
		else                         /* the value as the format's data */
			v[c].u = bits;
	}
	memset(d->fc_packed, 0, sizeof(d->fc_packed));
	if (format_pack(fi, v, d->fc_packed))
		return eu_thread_fault(t, "RT fast clear: cannot pack format %s", fi->name);
	TRACE(TRACE_PS, "clear colour 0x%08x 0x%08x 0x%08x 0x%08x", v[0].u, v[1].u, v[2].u, v[3].u);
	return 0;
}

int rt_fast_clear_setup(struct wm_draw *d, struct eu_thread *t, const struct surface_layout *l,
			const struct fmt_info *fi)
{
	int gen = d->rs->info->gen;
	char why[160];
	if (l->samples > 1) {
		/* an MCS fast clear (PRM vol. 7 "MCS Buffer for Render
		 * Target(s)"): every sample of the block */
		if (l->aux_mode != SURFACE_AUX_MCS)
			return eu_thread_fault(t, "RT fast clear of a %u-sample surface without an "
					       "MCS", l->samples);
		surface_mcs_clear_block(l->samples, &d->fc_block_w, &d->fc_block_h);
	} else if (surface_ccs_clear_block(gen, l->tiling, l->cpp, &d->fc_block_w, &d->fc_block_h,
					   why)) {
		return eu_thread_fault(t, "RT fast clear of %s: %s", fi->name, why);
	}
	if (rt_clear_colour_pack(d, t, l, fi))
		return -1;
	TRACE(TRACE_PS, "fast clear: blocks of %ux%u pixels", d->fc_block_w, d->fc_block_h);
	return 0;
}

static int write_mcs(struct wm_draw *d, uint32_t slice, uint32_t x, uint32_t y, uint64_t v)
{
	const struct surface_layout *l = &ps_running_job()->rc.layout;
	uint64_t a = l->aux_base + surface_mcs_offset(l, x, y, slice);
	if (vm_write(&d->env->vm, a, &v, surface_mcs_bytes(l->samples)))
		return wm_fault(d, "RT write: page fault writing the MCS at 0x%llx",
				(unsigned long long)a);
	return 0;
}

static int fill_pixel(struct wm_draw *d, const struct surface_view *views, unsigned nviews,
		      uint32_t x, uint32_t y)
{
	for (unsigned s = 0; s < nviews; s++) {
		uint64_t off;
		if (!surface_view_offset(&views[s], x, y, &off))
			continue;
		if (vm_write(&d->env->vm, views[s].base + off, d->fc_packed, views[s].cpp))
			return wm_fault(d, "RT fast clear: page fault writing 0x%llx",
					(unsigned long long)(views[s].base + off));
	}
	return 0;
}

int rt_fast_clear_block(struct wm_draw *d, const struct surface_view *views, unsigned nviews,
			uint32_t slice, int32_t x, int32_t y)
{
	if (x < 0 || y < 0)
		return 0;
	const struct surface_view *s = &views[0];
	bool mcs = nviews > 1 && ps_running_job()->rc.layout.aux_mode == SURFACE_AUX_MCS;
	uint64_t identity = surface_mcs_identity(nviews);
	uint64_t x0 = (uint64_t)x * d->fc_block_w, y0 = (uint64_t)y * d->fc_block_h;
	for (uint64_t py = y0; py < y0 + d->fc_block_h && py < s->height; py++)
		for (uint64_t px = x0; px < x0 + d->fc_block_w && px < s->width; px++) {
			if (fill_pixel(d, views, nviews, (uint32_t)px, (uint32_t)py) ||
			    (mcs && write_mcs(d, slice, (uint32_t)px, (uint32_t)py, identity)))
				return -1;
		}
	return 0;
}

int rt_mcs_prepare(struct wm_draw *d, const struct surface_view *views, uint32_t slice,
		   int32_t x, int32_t y)
{
	const struct surface_layout *l = &ps_running_job()->rc.layout;
	if (x < 0 || y < 0 || (uint32_t)x >= views[0].width || (uint32_t)y >= views[0].height)
		return 0;
	uint64_t v = 0, a = l->aux_base + surface_mcs_offset(l, (uint32_t)x, (uint32_t)y, slice);
	if (vm_read(&d->env->vm, a, &v, surface_mcs_bytes(l->samples)))
		return wm_fault(d, "RT write: page fault reading the MCS at 0x%llx",
				(unsigned long long)a);
	uint64_t identity = surface_mcs_identity(l->samples);
	if (v == identity)
		return 0;
	if (v != surface_mcs_clear(l->samples))
		return wm_fault(d, "RT write: MCS value 0x%llx of pixel (%d,%d) is neither the "
				"clear value nor the identity (gtsim keeps each sample in its "
				"own plane)", (unsigned long long)v, x, y);
	if (fill_pixel(d, views, l->samples, (uint32_t)x, (uint32_t)y))
		return -1;
	return write_mcs(d, slice, (uint32_t)x, (uint32_t)y, identity);
}
