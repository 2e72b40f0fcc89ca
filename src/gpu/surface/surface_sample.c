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
