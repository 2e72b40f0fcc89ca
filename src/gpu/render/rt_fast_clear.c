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
 * (surface_ccs_clear_block). */
#include <string.h>

#include "common/trace.h"
#include "gpu/format/format.h"
#include "gpu/render/wm_draw.h"

int rt_fast_clear_setup(struct wm_draw *d, struct eu_thread *t, const struct surface_layout *l,
			const struct fmt_info *fi)
{
	int gen = d->rs->info->gen;
	char why[160];
	if (surface_ccs_clear_block(gen, l->tiling, l->cpp, &d->fc_block_w, &d->fc_block_h, why))
		return eu_thread_fault(t, "RT fast clear of %s: %s", fi->name, why);
	if (l->samples > 1)
		TRACE_STUB_ONCE("RT fast clear of a multisampled surface: cleared as one sample");

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
	TRACE(TRACE_PS, "fast clear: blocks of %ux%u pixels to 0x%08x 0x%08x 0x%08x 0x%08x",
	      d->fc_block_w, d->fc_block_h, v[0].u, v[1].u, v[2].u, v[3].u);
	return 0;
}

int rt_fast_clear_block(struct wm_draw *d, const struct surface_view *s, int32_t x, int32_t y)
{
	if (x < 0 || y < 0)
		return 0;
	uint64_t x0 = (uint64_t)x * d->fc_block_w, y0 = (uint64_t)y * d->fc_block_h;
	for (uint64_t py = y0; py < y0 + d->fc_block_h && py < s->height; py++)
		for (uint64_t px = x0; px < x0 + d->fc_block_w && px < s->width; px++) {
			uint64_t off;
			if (!surface_view_offset(s, (uint32_t)px, (uint32_t)py, &off))
				continue;
			if (vm_write(&d->env->vm, s->base + off, d->fc_packed, s->cpp))
				return wm_fault(d, "RT fast clear: page fault writing 0x%llx",
						(unsigned long long)(s->base + off));
		}
	return 0;
}
