/* The sampler's view of state and memory: RENDER_SURFACE_STATE through the
 * binding table (interpreted by the surface module: levels, slices,
 * tiling), SAMPLER_STATE and its border colour, and the fetch of one
 * texel. Both states are read through the generated typed structs. */
#include <stdio.h>
#include <string.h>

#include "gpu/cmd/cmd_structs.h"
#include "gpu/sfid/sampler_priv.h"

#define WHY(...) (snprintf(why, 160, __VA_ARGS__), -1)

void sampler_unit_init(struct sampler_unit *u, int gen, const struct gt_vm *vm,
		       uint64_t surface_base, uint64_t dynamic_base,
		       uint32_t binding_table, uint32_t sampler_state, bool pixel_shader)
{
	*u = (struct sampler_unit){
		.gen = gen, .vm = *vm, .surface_base = surface_base, .dynamic_base = dynamic_base,
		.binding_table = binding_table, .sampler_state = sampler_state,
		.pixel_shader = pixel_shader,
	};
}

int smp_load_surface(const struct sampler_unit *u, unsigned bti, bool multisample,
		     bool size_only, struct smp_surface *s, char *why)
{
	uint32_t entry = 0, ss[16];
	uint64_t bt = u->surface_base + u->binding_table + 4ull * bti;
	if (vm_read(&u->vm, bt, &entry, 4))
		return WHY("page fault reading binding table entry %u at 0x%llx", bti,
			   (unsigned long long)bt);
	entry &= ~63u;
	if (!entry)
		return WHY("binding table entry %u is unbound", bti);
	if (vm_read(&u->vm, u->surface_base + entry, ss, sizeof(ss)))
		return WHY("page fault reading SURFACE_STATE at 0x%llx",
			   (unsigned long long)(u->surface_base + entry));
	s->vm = &u->vm;
	if (surface_layout_from_state(u->gen, ss, &s->l, why))
		return -1;
	const struct surface_layout *l = &s->l;
	s->fi = format_info(l->format);
	if (l->type == SURF_NULL)
		return WHY("binding table entry %u is a null surface", bti);
	if (l->type > SURF_BUFFER)
		return WHY("surface type %u cannot be sampled", l->type);
	if (size_only && l->type == SURF_BUFFER && l->format == FMT_RAW)
		return 0;                    /* resinfo: the width alone */
	if (!s->fi || !(s->fi->supported || s->fi->compressed) || s->fi->bpe % 8 ||
	    s->fi->bpe > 128)
		return WHY("surface format %u (%s) is not implemented in the sampler", l->format,
			   format_name(l->format));
	/* Shader Channel Select: 0 ZERO, 1 ONE, 4..7 R, G, B, A; 2 and 3 are
	 * reserved */
	for (int c = 0; c < 4; c++)
		if (l->scs[c] == 2 || l->scs[c] == 3)
			return WHY("reserved shader channel select %u for channel %c", l->scs[c],
				   "RGBA"[c]);
	if (s->fi->compressed && (l->type == SURF_BUFFER || l->type == SURF_1D))
		return WHY("a %s surface of the compressed format %s",
			   l->type == SURF_BUFFER ? "buffer" : "1D", s->fi->name);
	s->l.cpp = s->fi->bpe / 8;
	if (l->samples > 1 && !multisample)
		return WHY("a filtered or single-sample message on a %u-sample surface",
			   l->samples);
	if (l->pitch % surface_pitch_unit(l->tiling))
		return WHY("surface pitch %u is not a whole number of tiles", l->pitch);
	return 0;
}

int smp_load_sampler(const struct sampler_unit *u, uint32_t ptr, unsigned idx,
		     const struct smp_surface *s, struct smp_sampler *st, char *why)
{
	uint32_t dw[4];
	uint64_t addr = u->dynamic_base + (ptr & ~31u) + 16ull * idx;
	if (vm_read(&u->vm, addr, dw, sizeof(dw)))
		return WHY("page fault reading SAMPLER_STATE %u at 0x%llx", idx,
			   (unsigned long long)addr);
	struct cmd_SAMPLER_STATE v;
	if (!cmd_SAMPLER_STATE_unpack(u->gen, dw, 4, &v))
		return WHY("no SAMPLER_STATE layout for gen %d", u->gen);
	memset(st, 0, sizeof(*st));
	/* Unmodelled SAMPLER_STATE features fault rather than guess. */
	if (v.chromakey_enable)
		return WHY("SAMPLER_STATE chroma key is not implemented");
	if (u->gen >= 9 && v.reduction_type_enable)
		return WHY("SAMPLER_STATE Reduction Type (min/max filtering) is not implemented");
	if (v.texture_border_color_mode)
		return WHY("SAMPLER_STATE Texture Border Color Mode DX9 is not implemented");
	/* MAPFILTER_NEAREST 0, LINEAR 1, ANISOTROPIC 2, MONO 6 */
	if (v.min_mode_filter > 2 || v.mag_mode_filter > 2)
		return WHY("SAMPLER_STATE map filter %u is not implemented",
			   v.min_mode_filter > 2 ? v.min_mode_filter : v.mag_mode_filter);
	if (v.mip_mode_filter == 2)
		return WHY("SAMPLER_STATE Mip Mode Filter 2 is reserved");
	st->min_filter = v.min_mode_filter ? FILT_LINEAR : FILT_NEAREST;
	st->mag_filter = v.mag_mode_filter ? FILT_LINEAR : FILT_NEAREST;
	/* Maximum Anisotropy: RATIO21 (0) .. RATIO161 (7), 2:1 steps */
	st->aniso_max = v.min_mode_filter == 2 ? (uint8_t)(2 * (v.maximum_anisotropy + 1)) : 1;
	st->mip_filter = (uint8_t)v.mip_mode_filter;
	st->lod_bias = (float)v.texture_lod_bias / 256.0f;     /* S4.8 */
	st->min_lod = (float)v.min_lod / 256.0f;               /* U4.8 */
	st->max_lod = (float)v.max_lod / 256.0f;
	st->base_level = (float)v.base_mip_level / 2.0f;       /* U4.1 */
	st->wrap[0] = (uint8_t)v.tcx_address_control_mode;
	st->wrap[1] = (uint8_t)v.tcy_address_control_mode;
	st->wrap[2] = (uint8_t)v.tcz_address_control_mode;
	for (int c = 0; c < 3; c++)
		if (st->wrap[c] == 7)
			return WHY("SAMPLER_STATE address control mode 7 is reserved");
	st->shadow_func = (uint8_t)v.shadow_function;
	st->non_normalized = v.non_normalized_coordinate_enable;
	st->cube_override = v.cube_surface_control_mode == 1;
	st->preclamp = v.lod_preclamp_mode == 2;
	return smp_load_border(u, v.border_color_pointer, s, st, why);
}

int smp_fetch(const struct smp_surface *s, uint32_t level, uint32_t x, uint32_t y,
	      uint32_t z, union fmt_value out[4])
{
	uint64_t off;
	if (level >= s->l.nlevels)
		return -1;
	/* compressed: the block holding the texel (x, y), then the texel in it */
	uint32_t ex = x / s->fi->bw, ey = y / s->fi->bh;
	if (s->l.type == SURF_BUFFER) {
		off = (uint64_t)x * s->l.pitch;
	} else {
		uint64_t lx, ly;
		surface_slice_origin(&s->l, level, z, &lx, &ly);
		uint64_t bx = (lx + ex + s->l.x_offset) * s->l.cpp, by = ly + ey + s->l.y_offset;
		off = surface_tiled_offset(s->l.tiling, bx, by, s->l.pitch);
	}
	uint8_t texel[16];
	uint64_t addr = s->l.base + off, avail = 0;
	const void *p = vm_map(s->vm, addr, false, &avail);
	if (p && avail >= s->l.cpp)
		memcpy(texel, p, s->l.cpp);
	else if (vm_read(s->vm, addr, texel, s->l.cpp))
		return -1;
	if (s->fi->compressed)
		return format_decode_texel(s->fi, texel, x % s->fi->bw, y % s->fi->bh, out);
	return format_unpack(s->fi, texel, out);
}
