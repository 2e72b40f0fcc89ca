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
#include "gpu/sfid/sampler_msg.h"

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
	bool cube_override;         /* Cube Surface Control Mode OVERRIDE */
	bool preclamp;              /* LOD PreClamp Mode OGL */
	uint8_t aniso_max;          /* probes of anisotropic minification; 1: none */
	union fmt_value border[4];
};

/* sampler_surface.c */
/* Read binding table entry bti and its RENDER_SURFACE_STATE; -1 with a
 * reason in why (size 160) when it cannot be sampled (multisampled
 * surfaces only when multisample is set: the ld2dms family, ld_mcs, the
 * size messages). size_only (resinfo, sampleinfo): the texels are not
 * read, so a format the sampler cannot decode (RAW: Mesa's SSBO length
 * is a resinfo on the SSBO's RAW buffer) is accepted. */
int smp_load_surface(const struct sampler_unit *u, unsigned bti, bool multisample,
		     bool size_only, struct smp_surface *s, char *why);
/* Read SAMPLER_STATE index idx of the table at ptr (offset from the
 * dynamic state base) and its border colour; -1 with why. */
int smp_load_sampler(const struct sampler_unit *u, uint32_t ptr, unsigned idx,
		     const struct smp_surface *s, struct smp_sampler *st, char *why);
/* Texel (x, y) of slice z (array layer or 3D slice, absolute) of level
 * (absolute, Surface Min LOD included), all inside the level; out[4] as
 * format_unpack gives it. -1 on a page fault. */
int smp_fetch(const struct smp_surface *s, uint32_t level, uint32_t x, uint32_t y,
	      uint32_t z, union fmt_value out[4]);

/* sampler_border.c */
/* SAMPLER_BORDER_COLOR_STATE at ptr (from Dynamic State Base Address)
 * into st->border as the surface's format reads it; -1 with why. */
int smp_load_border(const struct sampler_unit *u, uint32_t ptr, const struct smp_surface *s,
		    struct smp_sampler *st, char *why);

/* sampler_lod.c */
/* Anisotropic probes of a lookup: count and the major axis (a pixel step
 * in normalized or texel coordinates). */
struct smp_aniso {
	unsigned probes;
	float axis[3];
};
/* lambda from the gradients of the coordinates (isotropic, or the
 * anisotropic one when an is given and the sampler enables it). */
float smp_lod_from_gradients(const struct smp_surface *s, const struct smp_sampler *st,
			     const float dx[3], const float dy[3], struct smp_aniso *an);
/* The LOD of channel ch of message m before clamping (biases included). */
float smp_channel_lod(const struct sampler_unit *u, const struct smp_surface *s,
		      const struct smp_sampler *st, const struct smp_msg *m,
		      const struct smp_msg_in *in, unsigned ch, struct smp_aniso *an);
/* Clamped to [max(Min LOD, the message's min_lod), Max LOD]. */
float smp_lod_clamp(const struct smp_sampler *st, float lod, float msg_min_lod);
/* The lod message's R (clamped) and G (as computed). */
void smp_lod_query(const struct smp_surface *s, const struct smp_sampler *st, float lod,
		   float msg_min_lod, float out[2]);

/* sampler_cube.c */
int smp_cube_select(float x, float y, float z);
void smp_cube_project(int face, const float c[3], float *u, float *v);
/* The gradients of a direction turned into those of the face's (u, v). */
void smp_cube_gradients(const float c[3], float dx[3], float dy[3]);
bool smp_cube_seamless(const struct smp_surface *s, const struct smp_sampler *st);
/* Texel (i, j) of a face, possibly one step outside it: the texels
 * (i, j, face) it stands for (1, or 3 at a corner, to be averaged). */
int smp_cube_texel(int face, int64_t i, int64_t j, uint32_t n, int64_t out[][3]);
/* A channel's lookup coordinates: cube directions become (u, v) on the
 * face (face >= 0: on that face) and the cube array index; returns the
 * face or -1. */
int smp_coords(const struct smp_surface *s, const struct smp_msg_in *in, unsigned ch,
	       float c[3], int face);

/* sampler_compare.c */
float smp_shadow_ref(const struct smp_surface *s, float ref);
float smp_shadow_compare(unsigned func, float texel, float ref);

/* sampler_gather.c */
/* The result of a gather from the footprint's texels (corner k = i-high
 * | j-high << 1): channel `channel` after the channel selects, or the
 * comparison results. */
void smp_gather_result(const struct smp_surface *s, int channel, bool compared,
		       union fmt_value texel[4][4], union fmt_value out[4]);
/* A gather4_po offset parameter: 6-bit signed. */
int32_t smp_gather_offset(uint32_t v);

/* sampler_ms.c */
int smp_ld_mcs(const struct smp_surface *s, int32_t x, int32_t y, int32_t z, int32_t lod,
	       union fmt_value out[4]);
/* Sample si of a pixel (through the MCS value when use_mcs); 1 when out
 * of bounds (zeros), -1 on a page fault. */
int smp_ld_ms(const struct smp_surface *s, uint32_t si, uint64_t mcs, bool use_mcs, int32_t x,
	      int32_t y, int32_t z, int32_t lod, union fmt_value out[4]);

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
	float lambda_raw;           /* before the Min/Max LOD clamp */
	bool compare;
	float ref;
	int gather;                 /* -1, or the channel of a gather4 */
	int face;                   /* cube face 0..5, or -1 */
	struct smp_aniso aniso;     /* probes 0 or 1: none */
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
