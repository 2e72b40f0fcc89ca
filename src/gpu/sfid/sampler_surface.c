/* The sampler's view of state and memory: RENDER_SURFACE_STATE through the
 * binding table, SAMPLER_STATE and its border colour, and the address of a
 * texel (PRM vol. 5 "Surface Layout": mip levels of 1D/2D surfaces and of
 * Gen9 3D surfaces below level 0, level 2 right of level 1 and the others
 * below it, each aligned to HALIGN x VALIGN; array slices QPitch rows
 * apart; Gen8 3D surfaces keep each level's slices side by side, 2^level
 * of them per row). Fields come from the command tables. */
#include <stdio.h>
#include <string.h>

#include "gpu/cmd/cmd.h"
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

uint32_t smp_minify(uint32_t size, uint32_t level)
{
	uint32_t v = level < 32 ? size >> level : 0;
	return v ? v : 1;
}

static const enum gt_tiling tile_modes[4] = { GT_TILING_NONE, GT_TILING_W, GT_TILING_X,
					      GT_TILING_Y };

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
	const struct cmd_desc *sd = cmd_struct_find(u->gen, "RENDER_SURFACE_STATE");
	if (!sd)
		return WHY("no RENDER_SURFACE_STATE layout for gen %d", u->gen);
#define SS(name) cmd_field_get(sd, ss, name)
	memset(s, 0, sizeof(*s));
	s->gen = u->gen;
	s->vm = &u->vm;
	s->type = (uint32_t)SS("Surface Type");
	s->format = (uint32_t)SS("Surface Format");
	s->fi = format_info(s->format);
	if (s->type == SURF_NULL)
		return WHY("binding table entry %u is a null surface", bti);
	if (s->type > SURF_BUFFER)
		return WHY("surface type %u cannot be sampled", s->type);
	if (!s->fi || !s->fi->supported || s->fi->bpe % 8 || s->fi->bpe > 128)
		return WHY("surface format %u (%s) is not implemented in the sampler", s->format,
			   format_name(s->format));
	s->array = SS("Surface Array");
	s->base = SS("Surface Base Address");
	s->cpp = s->fi->bpe / 8;
	uint32_t w = (uint32_t)SS("Width"), h = (uint32_t)SS("Height"), d = (uint32_t)SS("Depth");
	s->pitch = (uint32_t)SS("Surface Pitch") + 1;
	if (s->type == SURF_BUFFER) {
		/* entries - 1 spread over Width 6:0, Height 20:7, Depth 30:21;
		 * the pitch is the element stride */
		s->width = ((w & 0x7f) | (h & 0x3fff) << 7 | (d & 0x3ff) << 21) + 1;
		s->height = s->depth = 1;
	} else {
		s->width = w + 1;
		s->height = h + 1;
		s->depth = d + 1;
	}
	s->qpitch = (uint32_t)SS("Surface QPitch") * 4;   /* bits 16:2 of the row count */
	static const uint32_t align[4] = { 4, 4, 8, 16 };
	s->halign = align[SS("Surface Horizontal Alignment") & 3];
	s->valign = align[SS("Surface Vertical Alignment") & 3];
	s->tiling = tile_modes[SS("Tile Mode") & 3];
	s->min_lod = (uint32_t)SS("Surface Min LOD");
	s->mip_count = (uint32_t)SS("MIP Count / LOD");
	s->min_array = (uint32_t)SS("Minimum Array Element");
	s->x_offset = (uint32_t)SS("X Offset") * 4;
	s->y_offset = (uint32_t)SS("Y Offset") * 4;
	s->samples = 1u << (SS("Number of Multisamples") & 7);
	s->scs[0] = (uint8_t)SS("Shader Channel Select Red");
	s->scs[1] = (uint8_t)SS("Shader Channel Select Green");
	s->scs[2] = (uint8_t)SS("Shader Channel Select Blue");
	s->scs[3] = (uint8_t)SS("Shader Channel Select Alpha");
#undef SS
	if (s->samples > 1)
		return WHY("multisampled surfaces are not implemented in the sampler");
	if (s->tiling != GT_TILING_NONE && s->pitch % tile_width(s->tiling))
		return WHY("surface pitch %u is not a whole number of tiles", s->pitch);
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
	const struct cmd_desc *sd = cmd_struct_find(u->gen, "SAMPLER_STATE");
	if (!sd)
		return WHY("no SAMPLER_STATE layout for gen %d", u->gen);
#define SS(name) cmd_field_get(sd, dw, name)
	memset(st, 0, sizeof(*st));
	/* filters: NEAREST 0, LINEAR 1; anisotropic and mono are filtered
	 * as linear */
	st->min_filter = SS("Min Mode Filter") ? FILT_LINEAR : FILT_NEAREST;
	st->mag_filter = SS("Mag Mode Filter") ? FILT_LINEAR : FILT_NEAREST;
	st->mip_filter = (uint8_t)SS("Mip Mode Filter");
	st->lod_bias = (float)(int64_t)SS("Texture LOD Bias") / 256.0f;   /* S4.8 */
	st->min_lod = (float)SS("Min LOD") / 256.0f;                      /* U4.8 */
	st->max_lod = (float)SS("Max LOD") / 256.0f;
	st->base_level = (float)SS("Base Mip Level") / 2.0f;               /* U4.1 */
	st->wrap[0] = (uint8_t)SS("TCX Address Control Mode");
	st->wrap[1] = (uint8_t)SS("TCY Address Control Mode");
	st->wrap[2] = (uint8_t)SS("TCZ Address Control Mode");
	st->shadow_func = (uint8_t)SS("Shadow Function");
	st->non_normalized = SS("Non-normalized Coordinate Enable");
	uint32_t border_ptr = (uint32_t)SS("Border Color Pointer");
#undef SS
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

/* Position of a level's top-left texel, in texels/rows from the surface's
 * origin, and of slice z inside it. */
static void level_origin(const struct smp_surface *s, uint32_t level, uint32_t z,
			 uint64_t *x, uint64_t *y)
{
	uint64_t lx = 0, ly = 0;
	if (s->type == SURF_3D && s->gen == 8) {
		/* Gen8 3D: level l holds its max(1, D >> l) slices in rows of
		 * 2^l, each level below the previous one */
		for (uint32_t l = 0; l < level; l++) {
			uint64_t hl = (smp_minify(s->height, l) + s->valign - 1) / s->valign * s->valign;
			uint64_t dl = smp_minify(s->depth, l), per_row = 1ull << l;
			ly += hl * ((dl + per_row - 1) / per_row);
		}
		uint64_t wl = (smp_minify(s->width, level) + s->halign - 1) / s->halign * s->halign;
		uint64_t hl = (smp_minify(s->height, level) + s->valign - 1) / s->valign * s->valign;
		uint64_t dl = smp_minify(s->depth, level);
		uint64_t across = level < 32 && (1ull << level) < dl ? 1ull << level : dl;
		*x = lx + wl * (z % across);
		*y = ly + hl * (z / across);
		return;
	}
	for (uint32_t l = 0; l < level; l++) {
		if (l == 1)
			lx += (smp_minify(s->width, l) + s->halign - 1) / s->halign * s->halign;
		else
			ly += (smp_minify(s->height, l) + s->valign - 1) / s->valign * s->valign;
	}
	*x = lx;
	*y = ly + (uint64_t)z * s->qpitch;
}

int smp_fetch(const struct smp_surface *s, uint32_t level, uint32_t x, uint32_t y,
	      uint32_t z, union fmt_value out[4])
{
	uint64_t off;
	if (s->type == SURF_BUFFER) {
		off = (uint64_t)x * s->pitch;
	} else {
		uint64_t lx, ly;
		level_origin(s, level, z, &lx, &ly);
		uint64_t bx = (lx + x + s->x_offset) * s->cpp, by = ly + y + s->y_offset;
		if (s->tiling == GT_TILING_NONE)
			off = by * s->pitch + bx;
		else
			off = tiled_offset(s->tiling, bx, by, s->pitch);
	}
	uint8_t texel[16];
	uint64_t addr = s->base + off, avail = 0;
	const void *p = vm_map(s->vm, addr, false, &avail);
	if (p && avail >= s->cpp)
		memcpy(texel, p, s->cpp);
	else if (vm_read(s->vm, addr, texel, s->cpp))
		return -1;
	return format_unpack(s->fi, texel, out);
}
