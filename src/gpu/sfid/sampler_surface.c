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

int smp_load_surface(const struct sampler_unit *u, unsigned bti, struct smp_surface *s,
		     char *why)
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
	if (!s->fi || !s->fi->supported || s->fi->bpe % 8 || s->fi->bpe > 128)
		return WHY("surface format %u (%s) is not implemented in the sampler", l->format,
			   format_name(l->format));
	s->l.cpp = s->fi->bpe / 8;
	if (l->samples > 1)
		return WHY("multisampled surfaces are not implemented in the sampler");
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
	/* filters: NEAREST 0, LINEAR 1; anisotropic and mono are filtered
	 * as linear */
	st->min_filter = v.min_mode_filter ? FILT_LINEAR : FILT_NEAREST;
	st->mag_filter = v.mag_mode_filter ? FILT_LINEAR : FILT_NEAREST;
	st->mip_filter = (uint8_t)v.mip_mode_filter;
	st->lod_bias = (float)v.texture_lod_bias / 256.0f;     /* S4.8 */
	st->min_lod = (float)v.min_lod / 256.0f;               /* U4.8 */
	st->max_lod = (float)v.max_lod / 256.0f;
	st->base_level = (float)v.base_mip_level / 2.0f;       /* U4.1 */
	st->wrap[0] = (uint8_t)v.tcx_address_control_mode;
	st->wrap[1] = (uint8_t)v.tcy_address_control_mode;
	st->wrap[2] = (uint8_t)v.tcz_address_control_mode;
	st->shadow_func = (uint8_t)v.shadow_function;
	st->non_normalized = v.non_normalized_coordinate_enable;
	uint32_t border_ptr = v.border_color_pointer;
	/* SAMPLER_BORDER_COLOR_STATE, from Dynamic State Base Address: four
	 * floats, or four 32-bit integers for an integer format */
	uint32_t bc[4];
	uint64_t baddr = u->dynamic_base + (border_ptr & ~63u);
	bool border_used = false;
	for (int c = 0; c < 3; c++)
		border_used |= st->wrap[c] == WRAP_BORDER || st->wrap[c] == WRAP_HALF_BORDER;
	if (border_used) {
		if (vm_read(&u->vm, baddr, bc, sizeof(bc)))
			return WHY("page fault reading the border colour at 0x%llx",
				   (unsigned long long)baddr);
		for (int c = 0; c < 4; c++)
			st->border[c].u = bc[c];
	}
	(void)s;
	return 0;
}

int smp_fetch(const struct smp_surface *s, uint32_t level, uint32_t x, uint32_t y,
	      uint32_t z, union fmt_value out[4])
{
	uint64_t off;
	if (level >= s->l.nlevels)
		return -1;
	if (s->l.type == SURF_BUFFER) {
		off = (uint64_t)x * s->l.pitch;
	} else {
		uint64_t lx, ly;
		surface_slice_origin(&s->l, level, z, &lx, &ly);
		uint64_t bx = (lx + x + s->l.x_offset) * s->l.cpp, by = ly + y + s->l.y_offset;
		off = surface_tiled_offset(s->l.tiling, bx, by, s->l.pitch);
	}
	uint8_t texel[16];
	uint64_t addr = s->l.base + off, avail = 0;
	const void *p = vm_map(s->vm, addr, false, &avail);
	if (p && avail >= s->l.cpp)
		memcpy(texel, p, s->l.cpp);
	else if (vm_read(s->vm, addr, texel, s->l.cpp))
		return -1;
	return format_unpack(s->fi, texel, out);
}
