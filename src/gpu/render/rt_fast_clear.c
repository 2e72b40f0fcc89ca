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
 * of the surface. Scale-down factors are half the clear alignment, which
 * the PRM ties to the CCS element: a CCS cache line covers 16 x 32 (gen8)
 * or 16 x 16 (gen9) CCS elements, an element 256 bits of a Y-tile row
 * (512 of an X-tile row on gen8) by 4 rows (2 for X tiles). So for a
 * surface of bpp bits per pixel: gen9 (Y tiles) 2048/bpp x 32 pixels;
 * gen8 Y-tiled 2048/bpp x 64, X-tiled 4096/bpp x 32 (Mesa's blorp
 * records the same table). */
#include <string.h>

#include "common/trace.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/format/format.h"
#include "gpu/render/wm_draw.h"

int rt_fast_clear_setup(struct wm_draw *d, struct eu_thread *t, const struct cmd_desc *sd,
			const uint32_t *ss, const struct om_surface *s, const struct fmt_info *fi)
{
	int gen = d->rs->info->gen;
	unsigned bpp = s->cpp * 8;
	if (bpp != 32 && bpp != 64 && bpp != 128)
		return eu_thread_fault(t, "RT fast clear of a %u-bit format (%s): the CCS "
				       "covers 32, 64 and 128-bit formats only", bpp, fi->name);
	if (s->tiling != OM_TILE_Y && (gen >= 9 || s->tiling != OM_TILE_X))
		return eu_thread_fault(t, "RT fast clear of a %s surface", s->tiling == OM_LINEAR ?
				       "linear" : "W-tiled or X-tiled");
	struct cmd_RENDER_SURFACE_STATE v;
	cmd_RENDER_SURFACE_STATE_unpack(gen, ss, cmd_RENDER_SURFACE_STATE_length(gen), &v);
	if (v.number_of_multisamples)
		TRACE_STUB_ONCE("RT fast clear of a multisampled surface: cleared as one sample");
	d->fc_block_w = (s->tiling == OM_TILE_X ? 4096 : 2048) / bpp;
	d->fc_block_h = gen >= 9 || s->tiling == OM_TILE_X ? 32 : 64;

	/* Gen8 has one-bit clear colour channels (RENDER_SURFACE_STATE
	 * DWord 7), gen9 32-bit ones (DWords 12-15), in R, G, B, A order. */
	const int64_t bits[4] = { v.red_clear_color, v.green_clear_color, v.blue_clear_color,
				  v.alpha_clear_color };
	union fmt_value c[4];
	bool integer = format_is_integer(fi);
	for (int i = 0; i < 4; i++) {
		if (gen < 9)                 /* one bit: 0 or 1 (1.0 for float data) */
			c[i].u = bits[i] ? (integer ? 1u : 0x3f800000u) : 0;
		else                         /* the value as the format's data */
			c[i].u = (uint32_t)bits[i];
	}
	memset(d->fc_packed, 0, sizeof(d->fc_packed));
	if (format_pack(fi, c, d->fc_packed))
		return eu_thread_fault(t, "RT fast clear: cannot pack format %s", fi->name);
	TRACE(TRACE_PS, "fast clear: blocks of %ux%u pixels to 0x%08x 0x%08x 0x%08x 0x%08x",
	      d->fc_block_w, d->fc_block_h, c[0].u, c[1].u, c[2].u, c[3].u);
	return 0;
}

int rt_fast_clear_block(struct wm_draw *d, const struct om_surface *s, int32_t x, int32_t y)
{
	if (x < 0 || y < 0)
		return 0;
	uint64_t x0 = (uint64_t)x * d->fc_block_w, y0 = (uint64_t)y * d->fc_block_h;
	for (uint64_t py = y0; py < y0 + d->fc_block_h && py < s->height; py++)
		for (uint64_t px = x0; px < x0 + d->fc_block_w && px < s->width; px++) {
			uint64_t off;
			if (!om_surface_offset(s, (uint32_t)px, (uint32_t)py, &off))
				continue;
			if (vm_write(&d->env->vm, s->base + off, d->fc_packed, s->cpp))
				return wm_fault(d, "RT fast clear: page fault writing 0x%llx",
						(unsigned long long)(s->base + off));
		}
	return 0;
}
