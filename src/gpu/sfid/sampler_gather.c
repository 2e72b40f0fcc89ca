/* gather4 (PRM vol. 7 "gather4"; OpenGL 4.6 section 8.14.2 "Texel
 * Gathering"): the four texels of the bilinear footprint at LOD 0, each
 * after the surface's shader channel selects, give the header's channel
 * (M0.2 17:16) in the order (i0, j1), (i1, j1), (i1, j0), (i0, j0) as x, y,
 * z, w; gather4_c returns the comparison results instead. gather4_po's
 * per-channel offsets are the low 6 bits of its offset parameters, signed
 * (PRM: range [-32, 31]). */
#include <string.h>

#include "gpu/sfid/sampler_priv.h"

void smp_gather_result(const struct smp_surface *s, int channel, bool compared,
		       union fmt_value texel[4][4], union fmt_value out[4])
{
	/* footprint corners k = (hi_i) | (hi_j) << 1 */
	static const unsigned order[4] = { 2, 3, 1, 0 };
	for (int c = 0; c < 4; c++) {
		union fmt_value v[4];
		memcpy(v, texel[order[c]], sizeof(v));
		if (compared) {
			out[c] = v[0];
			continue;
		}
		smp_swizzle(s, v);
		out[c] = v[channel & 3];
	}
}

int32_t smp_gather_offset(uint32_t v)
{
	return (int32_t)((v & 63) ^ 32) - 32;
}
