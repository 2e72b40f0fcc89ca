/* Internals of the sampler (not a contract: other units use sampler.h):
 * the surface and sampler state of one message decoded into plain values,
 * texel addressing and fetch (sampler_surface.c), and filtering
 * (sampler_filter.c). */
#ifndef GTSIM_SFID_SAMPLER_PRIV_H
#define GTSIM_SFID_SAMPLER_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/format/format.h"
#include "gpu/surface/surface.h"
#include "gpu/sfid/sampler.h"

/* RENDER_SURFACE_STATE as the sampling engine reads it: the layout from
 * the surface module, the format's description and the memory to read. */
struct smp_surface {
	struct surface_layout l;
	const struct fmt_info *fi;
	const struct gt_vm *vm;
};

/* SAMPLER_STATE (and its border colour). */
enum smp_filter { FILT_NEAREST = 0, FILT_LINEAR = 1 };
enum smp_mipfilt { MIP_NONE = 0, MIP_NEAREST = 1, MIP_LINEAR = 3 };
enum smp_wrap { WRAP_REPEAT = 0, WRAP_MIRROR = 1, WRAP_CLAMP = 2, WRAP_CUBE = 3,
		WRAP_BORDER = 4, WRAP_MIRROR_ONCE = 5, WRAP_HALF_BORDER = 6 };

struct smp_sampler {
	uint8_t min_filter, mag_filter, mip_filter;
	float lod_bias, min_lod, max_lod, base_level;
	uint8_t wrap[3];            /* TCX, TCY, TCZ */
	uint8_t shadow_func;        /* PREFILTEROP_* */
	bool non_normalized;
	union fmt_value border[4];
};

/* sampler_surface.c */
/* Read binding table entry bti and its RENDER_SURFACE_STATE; -1 with a
 * reason in why (size 160) when it cannot be sampled. */
int smp_load_surface(const struct sampler_unit *u, unsigned bti, struct smp_surface *s,
		     char *why);
/* Read SAMPLER_STATE index idx of the table at ptr (offset from the
 * dynamic state base) and its border colour; -1 with why. */
int smp_load_sampler(const struct sampler_unit *u, uint32_t ptr, unsigned idx,
		     const struct smp_surface *s, struct smp_sampler *st, char *why);
/* Texel (x, y) of slice z (array layer or 3D slice, absolute) of level
 * (absolute, Surface Min LOD included), all inside the level; out[4] as
 * format_unpack gives it. -1 on a page fault. */
int smp_fetch(const struct smp_surface *s, uint32_t level, uint32_t x, uint32_t y,
	      uint32_t z, union fmt_value out[4]);

/* sampler_filter.c */
/* One lookup: normalized (or, with non_normalized, texel) coordinates,
 * the layer/slice coordinate, and the LOD already chosen (lambda: after
 * bias and clamps). With compare, ref is the shadow reference. gather >= 0
 * returns the four texels' channel `gather` instead (gather4). -1 on a
 * page fault. */
struct smp_lookup {
	float u, v, r;              /* r: layer (arrays) or w (3D) */
	int32_t off[3];             /* texel offsets */
	float lambda;
	bool compare;
	float ref;
	int gather;                 /* -1, or the channel of a gather4 */
	int face;                   /* cube face 0..5, or -1 */
};
int smp_sample(const struct smp_surface *s, const struct smp_sampler *st,
	       const struct smp_lookup *q, union fmt_value out[4]);
/* The ld message: integer texel coordinates and level (relative to Surface
 * Min LOD); 0 in every channel outside the surface. */
int smp_load(const struct smp_surface *s, int32_t x, int32_t y, int32_t z, int32_t lod,
	     union fmt_value out[4]);
/* Shader channel selects of the surface applied to a value. */
void smp_swizzle(const struct smp_surface *s, union fmt_value v[4]);
/* Cube coordinate (x, y, z) to face and (u, v) in [0, 1]. */
int smp_cube_face(float x, float y, float z, float *u, float *v);

#endif
