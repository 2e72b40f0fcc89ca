/* Shadow comparison (PRM vol. 7 "Shadow Prefilter", SAMPLER_STATE Shadow
 * Function; OpenGL 4.6 section 8.22.1 "Depth Texture Comparison Mode"):
 * each texel's R is compared with the reference before filtering, the
 * comparison giving 0.0 or 1.0; for a fixed-point depth format the
 * reference is clamped to [0, 1] first (GL: "if the texture's internal
 * format indicates a fixed-point depth texture, D_t and D_ref are clamped
 * to the range [0, 1]"). */
#include <math.h>

#include "gpu/sfid/sampler_priv.h"

float smp_shadow_ref(const struct smp_surface *s, float ref)
{
	if (s->fi->ch[0].type == FMT_T_UNORM && !isnan(ref))
		return ref < 0 ? 0 : ref > 1 ? 1 : ref;
	return ref;
}

/* PREFILTEROP_*: the result is 0.0 where `texel OP ref` holds, 1.0
 * elsewhere. Mesa's iris and anv program GL's/Vulkan's function through
 * the inverse (GL_LESS as LEQUAL, GL_ALWAYS as NEVER, ...): the PRM's
 * operand order and sense. */
float smp_shadow_compare(unsigned func, float texel, float ref)
{
	bool hold;
	switch (func & 7) {
	case 0: hold = true; break;                  /* ALWAYS */
	case 1: hold = false; break;                 /* NEVER */
	case 2: hold = texel < ref; break;           /* LESS */
	case 3: hold = texel == ref; break;          /* EQUAL */
	case 4: hold = texel <= ref; break;          /* LEQUAL */
	case 5: hold = texel > ref; break;           /* GREATER */
	case 6: hold = texel != ref; break;          /* NOTEQUAL */
	default: hold = texel >= ref; break;         /* GEQUAL */
	}
	return hold ? 0.0f : 1.0f;
}
