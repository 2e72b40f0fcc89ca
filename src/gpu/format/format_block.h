/* Internals of the compressed-format decoders (not a contract: other units
 * use format.h's format_decode_texel). Each family's decoder reads one
 * texel (x, y) of a block into four floats, before sRGB decoding (the
 * table in format_compressed.c applies it). */
#ifndef GTSIM_FORMAT_FORMAT_BLOCK_H
#define GTSIM_FORMAT_FORMAT_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* Variants of a family (flags). */
enum fmt_block_flags {
	FMT_BLK_SIGNED = 1,     /* BC4/BC5/EAC snorm, BC6H signed */
	FMT_BLK_NO_ALPHA = 2,   /* DXT1_RGB: alpha 1 in every mode */
	FMT_BLK_SRGB = 4,       /* R, G, B sRGB-encoded */
	FMT_BLK_PUNCH = 8,      /* ETC2 punch-through alpha */
};

/* Little-endian bits [at, at + n) of a block, n <= 32. */
static inline uint32_t fmt_block_bits(const uint8_t *b, unsigned at, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = (at + n + 7) / 8; i-- > at / 8; )
		v = v << 8 | b[i];
	v >>= at % 8;
	return (uint32_t)(v & ((1ull << n) - 1));
}

/* format_bc.c: S3TC/DXT and RGTC. */
void fmt_bc1_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);
void fmt_bc2_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);
void fmt_bc3_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);
void fmt_bc4_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);
void fmt_bc5_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);

/* format_etc.c: ETC1, ETC2 (RGB, punch-through, with EAC alpha), EAC R11/RG11. */
void fmt_etc1_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);
void fmt_etc2_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);
void fmt_etc2_eac_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);
void fmt_eac_r11_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);
void fmt_eac_rg11_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);

/* format_bptc.c: BC7 (BPTC unorm), and the tables BC6H shares. */
void fmt_bc7_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);
int fmt_bptc_weight(unsigned bits, unsigned index);          /* of 64 */
unsigned fmt_bptc_subset(unsigned subsets, unsigned partition, unsigned texel);
bool fmt_bptc_anchor(unsigned subsets, unsigned partition, unsigned texel);

/* format_bc6h.c: BC6H (BPTC float), signed and unsigned. */
void fmt_bc6h_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);

/* format_fxt1.c: FXT1, 8x4 texels a block. */
void fmt_fxt1_texel(const uint8_t *b, unsigned x, unsigned y, unsigned flags, float out[4]);

#endif
