/* Border colours (PRM vol. 2d SAMPLER_BORDER_COLOR_STATE; vol. 7 "Border
 * Color"): the texel a CLAMP_BORDER / HALF_BORDER address takes. On
 * Gen8/Gen9 the state holds four 32-bit values, read as floats for
 * float-like formats and as 32-bit integers for UINT/SINT formats (Mesa's
 * iris/anv/i965 program it that way for Broadwell: "interpreted according
 * to the surface format"); all four channels are returned as programmed,
 * whatever channels the format has, and the surface's channel selects
 * apply after filtering like for any texel. Read only when some address
 * mode uses it (Mesa leaves the pointer 0 otherwise). */
#include <stdio.h>

#include "gpu/sfid/sampler_priv.h"

int smp_load_border(const struct sampler_unit *u, uint32_t ptr, const struct smp_surface *s,
		    struct smp_sampler *st, char *why)
{
	bool used = false;
	for (int c = 0; c < 3; c++)
		used |= st->wrap[c] == WRAP_BORDER || st->wrap[c] == WRAP_HALF_BORDER;
	if (!used)
		return 0;
	uint32_t bc[4];
	uint64_t addr = u->dynamic_base + (ptr & ~63u);
	if (vm_read(&u->vm, addr, bc, sizeof(bc))) {
		snprintf(why, 160, "page fault reading the border colour at 0x%llx",
			 (unsigned long long)addr);
		return -1;
	}
	(void)s;
	for (int c = 0; c < 4; c++)
		st->border[c].u = bc[c];
	return 0;
}
