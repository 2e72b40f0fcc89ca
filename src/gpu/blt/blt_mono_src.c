/* The blits with a 1 bpp source (BDW PRM vol. 2a): XY_MONO_SRC_COPY_BLT
 * (the source in memory), XY_MONO_SRC_COPY_IMMEDIATE_BLT (inline) and
 * XY_FULL_MONO_PATTERN_MONO_SRC_BLT (with a mono pattern too). The source
 * covers the destination rectangle [X1, X2) x [Y1, Y2): each of its rows
 * starts on a byte, skips Source Pixel Offset bits, holds one bit a pixel
 * from the most significant bit of each byte, and is padded to 16 bits
 * (the Intel 815 PRM's MONO_SRC_COPY_BLT: "all non-text monochrome sources
 * are word aligned"; the layout xf86-video-intel's SNA uploads);
 * bit 1 is the foreground colour, bit 0 the background colour or, in
 * transparency mode, the destination left alone. Clipping Enabled keeps
 * the blit within the clip rectangle without moving the source. A ROP
 * reading a pattern the command does not have is a GPU fault, as is an
 * inline source shorter than the rectangle needs. */
#include "gpu/blt/blt.h"

#include <stdlib.h>
#include <string.h>

#include "gpu/blt/blt_rect.h"
#include "gpu/cs/mi.h"

/* Bytes of a mono source row for w pixels after offset bits. */
static uint32_t mono_stride(int32_t w, uint32_t offset)
{
	uint32_t bytes = (offset + (uint32_t)w + 7) / 8;
	return (bytes + 1) & ~1u;
}

enum cs_result blt_run_mono(struct gt_engine *e, const struct cmd_desc *d, struct blt_op *op,
			    struct blt_mono_src *m, uint64_t va, const uint32_t *data,
			    uint32_t data_dwords)
{
	int32_t w = op->x2 - op->x1, h = op->y2 - op->y1;
	if (w <= 0 || h <= 0)
		return CS_NEXT;
	if (!m->stride)
		m->stride = mono_stride(w, m->offset);
	size_t bytes = (size_t)m->stride * (size_t)h;
	if (data && bytes > (size_t)data_dwords * 4)
		return cs_fault(e, "%s: %u bytes of inline source, a %dx%d rectangle needs %zu",
				d->name, data_dwords * 4, w, h, bytes);
	m->bits = data ? (const uint8_t *)data : NULL;   /* dwords hold bytes in memory order */
	m->va = va;
	op->mono_src = m;
	return blt_rect(e, op);
}

/* The mono source's colours and offset of command c (an
 * XY_MONO_SRC_COPY_BLT or its immediate form). */
#define MONO_SRC(c) ((struct blt_mono_src){ .offset = (c).source_pixel_offset, \
	.c = { .fg = (c).foreground_color, .bg = (c).background_color, \
	       .transparent = (c).mono_source_transparency_mode } })

static enum cs_result no_pattern(struct gt_engine *e, const struct cmd_desc *d,
				 const uint32_t *dw, uint32_t len, uint32_t rop)
{
	if (blt_rop_uses_pattern((uint8_t)rop))
		return cs_not_implemented(e, d, dw, len, "with a raster operation that "
					  "reads the pattern");
	return CS_NEXT;
}

enum cs_result blt_run_mono_inline(struct gt_engine *e, const struct cmd_desc *d,
				   struct blt_op *op, struct blt_mono_src *m, const uint32_t *dw,
				   uint32_t len, uint32_t count, blt_data_at at)
{
	uint32_t *data = calloc(count ? count : 1, sizeof(uint32_t));
	if (!data)
		return cs_fault(e, "%s: out of memory", d->name);
	for (uint32_t i = 0; i < count; i++)
		data[i] = (uint32_t)at(cs_gen(e), dw, len, i);
	enum cs_result r = blt_run_mono(e, d, op, m, 0, data, count);
	free(data);
	return r;
}

enum cs_result blt_xy_mono_src_copy(struct gt_engine *e, const struct cmd_desc *d,
				    const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_MONO_SRC_COPY_BLT c;
	cmd_XY_MONO_SRC_COPY_BLT_unpack(cs_gen(e), dw, len, &c);
	struct blt_mono_src m = MONO_SRC(c);
	struct blt_op op = { 0 };
	enum cs_result r = no_pattern(e, d, dw, len, c.raster_operation);
	if (r == CS_NEXT)
		r = blt_op_dest(e, &op, d->name, BLT_DEST(c));
	return r == CS_NEXT ? blt_run_mono(e, d, &op, &m, c.source_base_address, NULL, 0) : r;
}

enum cs_result blt_xy_mono_src_copy_immediate(struct gt_engine *e, const struct cmd_desc *d,
					      const uint32_t *dw, uint32_t len)
{
	int gen = cs_gen(e);
	struct cmd_XY_MONO_SRC_COPY_IMMEDIATE_BLT c;
	cmd_XY_MONO_SRC_COPY_IMMEDIATE_BLT_unpack(gen, dw, len, &c);
	struct blt_mono_src m = MONO_SRC(c);
	struct blt_op op = { 0 };
	enum cs_result r = no_pattern(e, d, dw, len, c.raster_operation);
	if (r == CS_NEXT)
		r = blt_op_dest(e, &op, d->name, BLT_DEST(c));
	if (r != CS_NEXT)
		return r;
	return blt_run_mono_inline(e, d, &op, &m, dw, len,
				   cmd_XY_MONO_SRC_COPY_IMMEDIATE_BLT_data_count(gen, len),
				   cmd_XY_MONO_SRC_COPY_IMMEDIATE_BLT_data_at);
}

enum cs_result blt_xy_full_mono_pattern_mono_src(struct gt_engine *e, const struct cmd_desc *d,
						 const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_FULL_MONO_PATTERN_MONO_SRC_BLT c;
	cmd_XY_FULL_MONO_PATTERN_MONO_SRC_BLT_unpack(cs_gen(e), dw, len, &c);
	struct blt_mono_src m = { .offset = c.source_pixel_offset,
				  .c = { .fg = c.source_foreground_color,
					 .bg = c.source_background_color,
					 .transparent = c.mono_source_transparency_mode } };
	uint8_t mono[8], solid[4];
	struct blt_op op = { .seed_x = c.pattern_horizontal_seed,
			     .seed_y = c.pattern_vertical_seed };
	if (c.solid_pattern_select) {
		/* the pattern's foreground colour everywhere */
		blt_color_bytes(c.pattern_foreground_color, solid);
		op.pattern = solid;
	} else {
		for (unsigned i = 0; i < 8; i++)
			mono[i] = (uint8_t)(c.pattern_data >> (8 * i));
		op.mono_pattern = mono;
		op.pat_colors = (struct blt_mono_colors){
			.fg = c.pattern_foreground_color, .bg = c.pattern_background_color,
			.transparent = c.mono_pattern_transparency_mode };
	}
	enum cs_result r = blt_op_dest(e, &op, d->name, BLT_DEST(c));
	return r == CS_NEXT ? blt_run_mono(e, d, &op, &m, c.source_base_address, NULL, 0) : r;
}
