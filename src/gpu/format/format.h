/* Surface formats: the one layout/format library shared by the vertex
 * fetcher, the sampler, render target writes, the blitter and PNG dumps.
 *
 * A format is its SURFACE_FORMAT number (PRM vol. 2d). format_info() gives
 * its layout: bits per element, and for each of R, G, B, A where the
 * channel sits and what numeric type it has. Values travel as four 32-bit
 * words (union fmt_value): floats for the float-like types (UNORM, SNORM,
 * FLOAT, USCALED, SSCALED, SFIXED), integers for UINT and SINT. */
#ifndef GTSIM_FORMAT_FORMAT_H
#define GTSIM_FORMAT_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/format/format_list.h"

enum fmt {
#define FMT_ENUM(name, num) FMT_##name = num,
	FORMAT_LIST(FMT_ENUM)
#undef FMT_ENUM
	FMT_NUM = 1024,   /* gen9's Surface Format has 10 bits (ASTC from 512) */
};

/* Numeric type of a channel. */
enum fmt_type {
	FMT_T_NONE = 0,   /* channel absent */
	FMT_T_UNORM, FMT_T_SNORM, FMT_T_UINT, FMT_T_SINT, FMT_T_FLOAT,
	FMT_T_USCALED, FMT_T_SSCALED, FMT_T_SFIXED, /* SFIXED: 16.16 */
	FMT_T_PASSTHRU,   /* 64-bit data copied as two dwords */
	FMT_T_X,          /* padding (X, TYPELESS) */
};

/* How the value of a format is read back as RGBA. */
enum fmt_swizzle_kind {
	FMT_RGBA,         /* channels are R, G, B, A */
	FMT_LUMINANCE,    /* L (and maybe A): R = G = B = L */
	FMT_INTENSITY,    /* I: R = G = B = A = I */
	FMT_ALPHA,        /* A only */
};

struct fmt_channel {
	uint8_t type;     /* enum fmt_type */
	uint8_t bits;     /* width; 0 when absent */
	uint8_t shift;    /* first bit within the element */
};

struct fmt_info {
	const char *name;           /* "R8G8B8A8_UNORM" */
	uint16_t number;
	uint16_t bpe;               /* bits per element (block) */
	bool supported;             /* layout understood (not compressed, YUV, palette) */
	bool compressed;            /* a block format a decoder reads (format_decode_texel) */
	uint8_t bw, bh;             /* block size in texels (1 x 1 uncompressed) */
	bool srgb;
	bool shared_exp;            /* R9G9B9E5_SHAREDEXP */
	uint8_t kind;               /* enum fmt_swizzle_kind */
	bool raw32;                 /* RGBA channels of 32-bit FLOAT/UINT/SINT: copied */
	bool integer;               /* format_is_integer(), worked out once */
	struct fmt_channel ch[4];   /* R, G, B, A (L/I stored in R) */
};

union fmt_value {
	float f;
	uint32_t u;
	int32_t i;
};

/* NULL when number names no format. */
const struct fmt_info *format_info(uint32_t number);
const char *format_name(uint32_t number); /* "?" when unknown */
/* True when every channel present is an integer type (UINT/SINT). */
bool format_is_integer(const struct fmt_info *fi);
/* The numeric type (enum fmt_type) of the format's first channel present:
 * R, or A for an alpha-only format (A8_UNORM); FMT_T_NONE when none. */
uint8_t format_class(const struct fmt_info *fi);
/* A channel present (not X) narrower than 8 bits (B5G6R5, B4G4R4A4...). */
bool format_has_narrow_channel(const struct fmt_info *fi);

/* Whether the vertex fetcher accepts the format as a Source Element Format
 * (PRM vol. 2d VERTEX_ELEMENT_STATE; the "VF" column of vol. 7's table). */
bool format_vf_supported(uint32_t number);
/* Render target formats of the render cache on gen (8 or 9). */
bool format_rt_supported(uint32_t number, int gen);

/* Read one element at src (format_info()->bpe / 8 bytes) into out[4]:
 * floats for float-like channels (sRGB decoded), integers for UINT/SINT.
 * A channel the format lacks reads as 0 (R, G, B) or 1 (A) of the format's
 * class, and PASSTHRU formats give their raw dwords. Returns -1 for an
 * unsupported format. */
int format_unpack(const struct fmt_info *fi, const void *src, union fmt_value out[4]);

/* Write one element at dst from in[4] (floats for float-like formats,
 * integers for integer ones), with the conversion rules of the render
 * target write (clamping, round to nearest, sRGB encoding). Returns -1 for
 * an unsupported format. */
int format_pack(const struct fmt_info *fi, const union fmt_value in[4], void *dst);

/* Compressed formats (format_compressed.c: the table; format_bc.c,
 * format_etc.c: the decoders). Texel (x, y) (x < bw, y < bh) of the block
 * at block (bpe / 8 bytes) into out[4] as floats, sRGB decoded; -1 when
 * fi is not a compressed format gtsim decodes. */
int format_decode_texel(const struct fmt_info *fi, const void *block, unsigned x, unsigned y,
			union fmt_value out[4]);
/* Fill fi's block fields when its number is a compressed format. */
void format_compressed_describe(struct fmt_info *fi);

/* Numeric helpers (format_num.c), also used by the EU and blending. */
float fmt_half_to_float(uint16_t h);
uint16_t fmt_float_to_half(float f);          /* round to nearest even */
/* GL's float to n-bit UNORM (n <= 32): clamp to [0, 1] (NaN to 0), then
 * round c * (2^n - 1), computed exactly, to nearest, halves up. Inline:
 * the render target's fast packers call it per channel with a constant n.
 * A float's 24-bit significand times a 32-bit integer fits double's 53
 * bits, so the product is exact and only the final rounding is taken; the
 * sum is >= 0, so the conversion floors. */
static inline uint32_t fmt_float_to_unorm(float f, unsigned bits)
{
	float c = f > 0 ? f : 0;                 /* NaN, -0 -> 0 */
	c = c < 1 ? c : 1;
	return (uint32_t)((double)c * (double)((1ull << bits) - 1) + 0.5);
}
float fmt_ufloat_to_float(uint32_t v, int mantissa_bits); /* 10/11-bit unsigned floats */
uint32_t fmt_float_to_ufloat(float f, int mantissa_bits);
float fmt_srgb_to_linear(float s);
float fmt_linear_to_srgb(float l);

#endif
