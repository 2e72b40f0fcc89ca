/* XY_PAT_BLT, XY_PAT_BLT_IMMEDIATE and XY_MONO_PAT_BLT (BDW PRM vol. 2a):
 * the rectangle [X1, X2) x [Y1, Y2) through the ROP with an 8x8 pattern:
 * colour pixels (64 of the colour depth's size, rows of 8) at Pattern Base
 * Address or inline, or a mono pattern (8 bytes, byte r row r, bit 7
 * column 0) expanded to the foreground (1) and background (0) colours,
 * background pixels left alone in transparency mode. Destination pixel
 * (x, y) takes pattern pixel ((x + horizontal seed) & 7, (y + vertical
 * seed) & 7): the pattern is aligned to the surface, the seeds shift it.
 * The commands have no source: a ROP reading one is a GPU fault, as is an
 * inline pattern shorter than 64 pixels. */
#include "gpu/blt/blt.h"

#include <string.h>

#include "gpu/blt/blt_rect.h"
#include "gpu/cs/mi.h"

/* op's destination and seeds from the command c (a GPU fault for a ROP
 * reading a source). */
#define PAT_OP(e, d, dw, len, c, op)                                                       \
	(blt_rop_uses_source((uint8_t)(c).raster_operation)                                \
		 ? cs_not_implemented(e, d, dw, len, "with a raster operation that reads " \
				      "a source")                                          \
		 : ((op)->seed_x = (c).pattern_horizontal_seed,                            \
		    (op)->seed_y = (c).pattern_vertical_seed,                              \
		    blt_op_dest(e, op, (d)->name, BLT_DEST(c))))

enum cs_result blt_xy_pat(struct gt_engine *e, const struct cmd_desc *d,
			  const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_PAT_BLT c;
	cmd_XY_PAT_BLT_unpack(cs_gen(e), dw, len, &c);
	uint8_t pixels[64 * 4];
	struct blt_op op = { .pattern = pixels, .pattern_8x8 = true };
	enum cs_result r = PAT_OP(e, d, dw, len, c, &op);
	if (r == CS_NEXT && blt_rop_uses_pattern(op.rop))
		r = blt_read_mem(e, d->name, "8x8 pattern", c.pattern_base_address, pixels,
				 64 * op.dst.cpp);
	return r == CS_NEXT ? blt_rect(e, &op) : r;
}

enum cs_result blt_xy_pat_immediate(struct gt_engine *e, const struct cmd_desc *d,
				    const uint32_t *dw, uint32_t len)
{
	int gen = cs_gen(e);
	struct cmd_XY_PAT_BLT_IMMEDIATE c;
	cmd_XY_PAT_BLT_IMMEDIATE_unpack(gen, dw, len, &c);
	uint8_t pixels[64 * 4];
	struct blt_op op = { .pattern = pixels, .pattern_8x8 = true };
	enum cs_result r = PAT_OP(e, d, dw, len, c, &op);
	if (r != CS_NEXT)
		return r;
	uint32_t dwords = 16 * op.dst.cpp, have = cmd_XY_PAT_BLT_IMMEDIATE_data_count(gen, len);
	if (have < dwords)
		return cs_fault(e, "%s: %u dwords of inline pattern, a %u bpp pattern has %u",
				d->name, have, 8 * op.dst.cpp, dwords);
	for (uint32_t i = 0; i < dwords; i++) {
		uint32_t v = (uint32_t)cmd_XY_PAT_BLT_IMMEDIATE_data_at(gen, dw, len, i);
		memcpy(pixels + 4 * i, &v, 4);
	}
	return blt_rect(e, &op);
}

enum cs_result blt_xy_mono_pat(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_MONO_PAT_BLT c;
	cmd_XY_MONO_PAT_BLT_unpack(cs_gen(e), dw, len, &c);
	uint8_t mono[8];
	for (unsigned i = 0; i < 8; i++)
		mono[i] = (uint8_t)(c.pattern_data >> (8 * i));
	struct blt_op op = {
		.mono_pattern = mono,
		.pat_colors = { .fg = c.foreground_color, .bg = c.background_color,
				.transparent = c.mono_pattern_transparency_mode },
	};
	enum cs_result r = PAT_OP(e, d, dw, len, c, &op);
	return r == CS_NEXT ? blt_rect(e, &op) : r;
}
