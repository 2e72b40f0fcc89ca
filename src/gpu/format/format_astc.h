/* Internals of the ASTC decoder (format_astc.c, format_astc_ise.c,
 * format_astc_endpoint.c); other units use format.h's format_decode_texel. */
#ifndef GTSIM_FORMAT_FORMAT_ASTC_H
#define GTSIM_FORMAT_FORMAT_ASTC_H

#include <stdbool.h>
#include <stdint.h>

/* A quantization range of the integer sequence encoding. */
struct astc_ise {
	unsigned levels;        /* values 0 .. levels - 1 */
	unsigned bits;          /* plain bits a value */
	bool trits, quints;
};

/* A bit stream over bytes: bits [pos, end) readable, 0 past end. */
struct astc_bits {
	const uint8_t *data;
	unsigned pos, end;
};

/* The encoding of a range of `levels` (2, 3, 4, 5, 6, 8, ..., 256); -1 when
 * no range has that many levels. */
int fmt_astc_ise_shape(unsigned levels, struct astc_ise *s);
/* Bits n values of the range take. */
unsigned fmt_astc_ise_size(const struct astc_ise *s, unsigned n);
/* n values (n <= 64) from the stream. */
void fmt_astc_ise_decode(const struct astc_ise *s, struct astc_bits *r, unsigned n,
			 uint8_t *out);
/* A colour value of the range to 0..255, a weight to 0..64. */
unsigned fmt_astc_unquant_color(const struct astc_ise *s, unsigned v);
unsigned fmt_astc_unquant_weight(const struct astc_ise *s, unsigned v);

/* Colour endpoint mode `cem` (LDR modes 0, 1, 4, 5, 6, 8, 9, 10, 12, 13)
 * from its unquantized values v to two RGBA endpoints of 0..255; -1 for
 * the HDR modes (an error block in the LDR profile). */
int fmt_astc_endpoints(unsigned cem, const uint8_t *v, int e0[4], int e1[4]);

/* The partition of texel (x, y) of a block of `texels` texels (the
 * specification's hash; z = 0 for 2D). */
unsigned fmt_astc_partition(unsigned seed, unsigned x, unsigned y, unsigned parts,
			    unsigned texels);

/* Texel (x, y) of a bw x bh block as floats: sRGB blocks as their 8-bit
 * values / 255 (sRGB not yet decoded), others as the 16-bit UNORM result
 * converted to half (FLT16 decode). */
void fmt_astc_texel(const uint8_t *b, unsigned bw, unsigned bh, unsigned x, unsigned y,
		    bool srgb, float out[4]);

#endif
