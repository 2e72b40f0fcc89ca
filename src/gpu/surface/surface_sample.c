/* Per-sample layouts of multisampled surfaces (PRM vol. 5 "Multisampled
 * Surfaces"):
 *  - MSFMT_MSS (array of samples): every sample is a slice of its own,
 *    physical slice = slice * samples + sample, same (x, y).
 *  - MSFMT_DEPTH_STENCIL (interleaved, IMS): the samples of a pixel sit in
 *    the same slice, the surface scaled by 2x1, 2x2, 4x2 or 4x4; pairs of
 *    pixels stay adjacent (bit 0 of x and y), the sample number fills the
 *    bits above: 2x/4x x' bit 1 = s0, 4x y' bit 1 = s1; 8x x' bit 1 = s0,
 *    x' bit 2 = s2, y' bit 1 = s1; 16x as 8x plus y' bit 2 = s3. */
#include "gpu/surface/surface.h"

void surface_sample_position(unsigned msaa_layout, uint32_t samples, uint32_t x, uint32_t y,
			     uint32_t slice, uint32_t s, uint32_t *ox, uint32_t *oy,
			     uint32_t *oslice)
{
	if (samples <= 1 || msaa_layout == SURFACE_MSAA_ARRAY) {
		*ox = x;
		*oy = y;
		*oslice = samples <= 1 ? slice : slice * samples + s;
		return;
	}
	uint32_t xl = x & 1, yl = y & 1, xh = x >> 1, yh = y >> 1;
	*oslice = slice;
	switch (samples) {
	case 2:
		*ox = xh << 2 | (s & 1) << 1 | xl;
		*oy = y;
		break;
	case 4:
		*ox = xh << 2 | (s & 1) << 1 | xl;
		*oy = yh << 2 | (s & 2) | yl;
		break;
	case 8:
		*ox = xh << 3 | (s & 4) | (s & 1) << 1 | xl;
		*oy = yh << 2 | (s & 2) | yl;
		break;
	default:   /* 16 */
		*ox = xh << 3 | (s & 4) | (s & 1) << 1 | xl;
		*oy = yh << 3 | (s & 8) >> 1 | (s & 2) | yl;
		break;
	}
}

bool surface_view_sample_offset(const struct surface_view *v, uint32_t samples, uint32_t x,
				uint32_t y, uint32_t s, uint64_t *off)
{
	if (samples <= 1)
		return surface_view_offset(v, x, y, off);
	if (x >= v->width || y >= v->height)
		return false;
	uint32_t ox, oy, slice;
	surface_sample_position(SURFACE_MSAA_INTERLEAVED, samples, x, y, 0, s, &ox, &oy, &slice);
	uint64_t bx = ((uint64_t)ox + v->x_offset) * v->cpp, by = (uint64_t)oy + v->y_offset;
	*off = v->tiling == SURFACE_LINEAR ? by * v->pitch + bx
					   : surface_tiled_offset(v->tiling, bx, by, v->pitch);
	return true;
}

unsigned surface_mcs_bytes(uint32_t samples)
{
	return samples <= 4 ? 1 : samples == 8 ? 4 : 8;
}

unsigned surface_mcs_sample_bits(uint32_t samples)
{
	return samples == 2 ? 1 : samples == 4 ? 2 : 4;
}

uint64_t surface_mcs_identity(uint32_t samples)
{
	uint64_t v = 0;
	unsigned bits = surface_mcs_sample_bits(samples);
	for (uint32_t s = 0; s < samples && s < 16; s++)
		v |= (uint64_t)s << (bits * s);
	return v;
}

uint64_t surface_mcs_clear(uint32_t samples)
{
	unsigned n = surface_mcs_bytes(samples);
	return n == 8 ? ~0ull : (1ull << (8 * n)) - 1;
}

uint64_t surface_mcs_offset(const struct surface_layout *l, uint32_t x, uint32_t y,
			    uint32_t slice)
{
	uint64_t row = (uint64_t)y + (uint64_t)slice * l->aux_qpitch;
	return surface_tiled_offset(SURFACE_TILE_Y, (uint64_t)x * surface_mcs_bytes(l->samples),
				    row, l->aux_pitch);
}

void surface_mcs_clear_block(uint32_t samples, uint32_t *bw, uint32_t *bh)
{
	*bw = samples <= 4 ? 8 : samples == 8 ? 2 : 1;
	*bh = 2;
}
