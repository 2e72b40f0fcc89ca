/* The compressed formats gtsim decodes (PRM vol. 7 "Compressed Surface
 * Formats"; Mesa's isl lists the same per generation): their block sizes
 * and the decoder of their family. The table completes format_list.h's
 * entries (format_layout.c calls format_compressed_describe for each). */
#include <stddef.h>

#include "gpu/format/format.h"
#include "gpu/format/format_astc.h"
#include "gpu/format/format_block.h"

typedef void (*block_texel_fn)(const uint8_t *b, unsigned x, unsigned y, unsigned flags,
			       float out[4]);

struct compressed {
	uint16_t number;
	uint8_t bw, bh;
	uint16_t bits;
	uint8_t flags;              /* enum fmt_block_flags */
	block_texel_fn texel;       /* NULL: ASTC (fmt_astc_texel, by block size) */
};

/* Gen9's ASTC LDR 2D formats: sRGB (U8SRGB) and linear (FLT16 decode). */
#define ASTC(w, h) \
	{ FMT_ASTC_LDR_2D_##w##X##h##_U8SRGB, w, h, 128, FMT_BLK_SRGB, NULL }, \
	{ FMT_ASTC_LDR_2D_##w##X##h##_FLT16, w, h, 128, 0, NULL },

static const struct compressed formats[] = {
	{ FMT_BC1_UNORM, 4, 4, 64, 0, fmt_bc1_texel },
	{ FMT_BC1_UNORM_SRGB, 4, 4, 64, FMT_BLK_SRGB, fmt_bc1_texel },
	{ FMT_DXT1_RGB, 4, 4, 64, FMT_BLK_NO_ALPHA, fmt_bc1_texel },
	{ FMT_DXT1_RGB_SRGB, 4, 4, 64, FMT_BLK_NO_ALPHA | FMT_BLK_SRGB, fmt_bc1_texel },
	{ FMT_BC2_UNORM, 4, 4, 128, 0, fmt_bc2_texel },
	{ FMT_BC2_UNORM_SRGB, 4, 4, 128, FMT_BLK_SRGB, fmt_bc2_texel },
	{ FMT_BC3_UNORM, 4, 4, 128, 0, fmt_bc3_texel },
	{ FMT_BC3_UNORM_SRGB, 4, 4, 128, FMT_BLK_SRGB, fmt_bc3_texel },
	{ FMT_BC4_UNORM, 4, 4, 64, 0, fmt_bc4_texel },
	{ FMT_BC4_SNORM, 4, 4, 64, FMT_BLK_SIGNED, fmt_bc4_texel },
	{ FMT_BC5_UNORM, 4, 4, 128, 0, fmt_bc5_texel },
	{ FMT_BC5_SNORM, 4, 4, 128, FMT_BLK_SIGNED, fmt_bc5_texel },
	{ FMT_BC7_UNORM, 4, 4, 128, 0, fmt_bc7_texel },
	{ FMT_BC7_UNORM_SRGB, 4, 4, 128, FMT_BLK_SRGB, fmt_bc7_texel },
	{ FMT_BC6H_UF16, 4, 4, 128, 0, fmt_bc6h_texel },
	{ FMT_BC6H_SF16, 4, 4, 128, FMT_BLK_SIGNED, fmt_bc6h_texel },
	{ FMT_ETC1_RGB8, 4, 4, 64, 0, fmt_etc1_texel },
	{ FMT_ETC2_RGB8, 4, 4, 64, 0, fmt_etc2_texel },
	{ FMT_ETC2_SRGB8, 4, 4, 64, FMT_BLK_SRGB, fmt_etc2_texel },
	{ FMT_ETC2_RGB8_PTA, 4, 4, 64, FMT_BLK_PUNCH, fmt_etc2_texel },
	{ FMT_ETC2_SRGB8_PTA, 4, 4, 64, FMT_BLK_PUNCH | FMT_BLK_SRGB, fmt_etc2_texel },
	{ FMT_ETC2_EAC_RGBA8, 4, 4, 128, 0, fmt_etc2_eac_texel },
	{ FMT_ETC2_EAC_SRGB8_A8, 4, 4, 128, FMT_BLK_SRGB, fmt_etc2_eac_texel },
	{ FMT_EAC_R11, 4, 4, 64, 0, fmt_eac_r11_texel },
	{ FMT_EAC_SIGNED_R11, 4, 4, 64, FMT_BLK_SIGNED, fmt_eac_r11_texel },
	{ FMT_EAC_RG11, 4, 4, 128, 0, fmt_eac_rg11_texel },
	{ FMT_EAC_SIGNED_RG11, 4, 4, 128, FMT_BLK_SIGNED, fmt_eac_rg11_texel },
	{ FMT_FXT1, 8, 4, 128, 0, fmt_fxt1_texel },
	ASTC(4, 4) ASTC(5, 4) ASTC(5, 5) ASTC(6, 5) ASTC(6, 6) ASTC(8, 5) ASTC(8, 6)
	ASTC(8, 8) ASTC(10, 5) ASTC(10, 6) ASTC(10, 8) ASTC(10, 10) ASTC(12, 10) ASTC(12, 12)
};

static const struct compressed *lookup(uint32_t number)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].number == number)
			return &formats[i];
	return NULL;
}

void format_compressed_describe(struct fmt_info *fi)
{
	const struct compressed *c = lookup(fi->number);
	if (!c)
		return;
	fi->compressed = true;
	fi->bw = c->bw;
	fi->bh = c->bh;
	fi->bpe = c->bits;
	fi->srgb = c->flags & FMT_BLK_SRGB;
}

int format_decode_texel(const struct fmt_info *fi, const void *block, unsigned x, unsigned y,
			union fmt_value out[4])
{
	const struct compressed *c = fi && fi->compressed ? lookup(fi->number) : NULL;
	if (!c || x >= c->bw || y >= c->bh)
		return -1;
	float v[4];
	if (c->texel)
		c->texel(block, x, y, c->flags, v);
	else
		fmt_astc_texel(block, c->bw, c->bh, x, y, c->flags & FMT_BLK_SRGB, v);
	for (int k = 0; k < 4; k++)
		out[k].f = (c->flags & FMT_BLK_SRGB) && k < 3 ? fmt_srgb_to_linear(v[k]) : v[k];
	return 0;
}
