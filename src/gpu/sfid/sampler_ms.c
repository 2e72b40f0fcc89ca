/* Multisampled surfaces (PRM vol. 7 "ld2dms", "ld_mcs"; vol. 5
 * "Multisample Control Surface"): ld_mcs reads a pixel's MCS element (8
 * bits for 2x/4x, 32 for 8x, 64 for 16x; Y-tiled at the aux surface, one
 * element per pixel, aux QPitch rows a slice), 0 when the surface has no
 * MCS; ld2dms/ld2dms_w map the sample index through the MCS value the
 * shader passes (1, 2, 4, 4 bits a sample for 2x, 4x, 8x, 16x) to the
 * slice holding it, and an all-ones MCS value is a fast-cleared pixel: the
 * surface's clear colour; ld2dss reads the sample index as it is. */
#include <string.h>

#include "gpu/sfid/sampler_priv.h"

static unsigned mcs_bytes(uint32_t samples)
{
	return samples <= 4 ? 1 : samples == 8 ? 4 : 8;
}

static unsigned mcs_bits(uint32_t samples)
{
	return samples == 2 ? 1 : samples == 4 ? 2 : 4;
}

/* The sample's level-0 bounds check; 1 when out of bounds. */
static int ms_bounds(const struct smp_surface *s, int32_t x, int32_t y, int32_t z, int32_t lod)
{
	uint32_t layers = s->l.array ? s->l.depth : 1;
	return lod != 0 || x < 0 || y < 0 || z < 0 || (uint32_t)x >= s->l.width ||
	       (uint32_t)y >= s->l.height || (uint32_t)z >= layers;
}

int smp_ld_mcs(const struct smp_surface *s, int32_t x, int32_t y, int32_t z, int32_t lod,
	       union fmt_value out[4])
{
	memset(out, 0, 4 * sizeof(*out));
	if (s->l.aux_mode != SURFACE_AUX_MCS || ms_bounds(s, x, y, z, lod))
		return 0;
	unsigned n = mcs_bytes(s->l.samples);
	uint64_t row = (uint64_t)y + (uint64_t)(s->l.min_array + (uint32_t)z) * s->l.aux_qpitch;
	uint64_t off = surface_tiled_offset(SURFACE_TILE_Y, (uint64_t)x * n, row, s->l.aux_pitch);
	uint8_t b[8] = { 0 };
	if (vm_read(s->vm, s->l.aux_base + off, b, n))
		return -1;
	memcpy(&out[0].u, b, 4);
	memcpy(&out[1].u, b + 4, 4);
	return 0;
}

/* The surface's clear colour as a sampler result: gen8 keeps one bit per
 * channel (0 or 1 of the format's class), gen9 the 32-bit values. */
static void clear_colour(const struct smp_surface *s, union fmt_value out[4])
{
	bool integer = format_is_integer(s->fi);
	for (int c = 0; c < 4; c++) {
		if (s->l.gen >= 9)
			out[c].u = s->l.clear_color[c];
		else if (integer)
			out[c].u = s->l.clear_color[c] & 1;
		else
			out[c].f = (s->l.clear_color[c] & 1) ? 1.0f : 0.0f;
	}
}

int smp_ld_ms(const struct smp_surface *s, uint32_t si, uint64_t mcs, bool use_mcs, int32_t x,
	      int32_t y, int32_t z, int32_t lod, union fmt_value out[4])
{
	memset(out, 0, 4 * sizeof(*out));
	uint32_t n = s->l.samples;
	if (ms_bounds(s, x, y, z, lod) || si >= n)
		return 1;
	uint32_t sample = si;
	if (use_mcs && s->l.aux_mode == SURFACE_AUX_MCS) {
		unsigned bits = mcs_bits(n);
		uint64_t all = n == 16 ? ~0ull : (1ull << (8 * mcs_bytes(n))) - 1;
		if ((mcs & all) == all) {
			clear_colour(s, out);
			return 0;
		}
		sample = (uint32_t)(mcs >> (bits * si)) & ((1u << bits) - 1);
	}
	uint32_t ox, oy, oslice;
	surface_sample_position(s->l.msaa_layout, n, (uint32_t)x, (uint32_t)y,
				s->l.min_array + (uint32_t)z, sample, &ox, &oy, &oslice);
	return smp_fetch(s, s->l.min_lod, ox, oy, oslice, out) ? -1 : 0;
}
