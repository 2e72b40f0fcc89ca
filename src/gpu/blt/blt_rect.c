/* A blit's destination rectangle, row by row (blt_rect.h). */
#include "gpu/blt/blt_rect.h"

#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/mem/mem.h"
#include "gpu/surface/surface.h"

uint32_t blt_color_depth_cpp(uint32_t color_depth)
{
	static const uint32_t cpp[4] = { 1, 2, 2, 4 };
	return cpp[color_depth & 3];
}

unsigned blt_xy_tiling(struct gt_engine *e, bool tiling_enable, bool source)
{
	if (!tiling_enable)
		return SURFACE_LINEAR;
	uint32_t swctrl = cs_reg_read(e, REG_BCS_SWCTRL);
	uint32_t y = source ? REG_BCS_SWCTRL_TILE_Y_SOURCE_MASK
			    : REG_BCS_SWCTRL_TILE_Y_DESTINATION_MASK;
	return swctrl & y ? SURFACE_TILE_Y : SURFACE_TILE_X;
}

void blt_color_bytes(uint32_t color, uint8_t out[4])
{
	for (unsigned i = 0; i < 4; i++)
		out[i] = (uint8_t)(color >> (8 * i));
}

enum cs_result blt_dst_init(struct gt_engine *e, struct blt_op *op, uint64_t base, int32_t pitch,
			    uint32_t color_depth, bool tiling_enable, uint32_t byte_mask)
{
	uint32_t cpp = blt_color_depth_cpp(color_depth);
	op->byte_mask = cpp == 4 ? byte_mask : 3;
	return blt_surface_init(e, op->cmd, &op->dst, "destination", base, pitch, cpp,
				blt_xy_tiling(e, tiling_enable, false));
}

enum cs_result blt_op_dest(struct gt_engine *e, struct blt_op *op, const char *cmd,
			   struct blt_dest f)
{
	op->cmd = cmd;
	op->x1 = f.x1, op->y1 = f.y1, op->x2 = f.x2, op->y2 = f.y2;
	op->rop = (uint8_t)f.rop;
	if (f.clip)
		blt_op_clip(e, op);
	return blt_dst_init(e, op, f.base, f.pitch, f.color_depth, f.tiled, f.byte_mask);
}

void blt_op_clip(const struct gt_engine *e, struct blt_op *op)
{
	op->clip = true;
	op->clip_x1 = (int32_t)(e->blt_clip_top_left & 0xffff);
	op->clip_y1 = (int32_t)(e->blt_clip_top_left >> 16);
	op->clip_x2 = (int32_t)(e->blt_clip_bottom_right & 0xffff);
	op->clip_y2 = (int32_t)(e->blt_clip_bottom_right >> 16);
}

enum cs_result blt_read_mem(struct gt_engine *e, const char *cmd, const char *what, uint64_t va,
			    void *buf, size_t len)
{
	struct gt_vm vm = cs_vm_for(e, false);
	if (vm_read(&vm, va, buf, len))
		return cs_fault(e, "%s: read of the %s (%zu bytes) at unmapped address 0x%llx", cmd,
				what, len, (unsigned long long)va);
	return CS_NEXT;
}

static const char *tiling_name(unsigned t)
{
	return t == SURFACE_TILE_X ? "X" : t == SURFACE_TILE_Y ? "Y" : "linear";
}

/* One expanded 1 bpp pixel: its colour into px, or keep set (transparent). */
static void mono_pixel(const struct blt_mono_colors *c, unsigned bit, uint32_t cpp, uint8_t *px,
		       uint8_t *keep)
{
	uint8_t col[4];
	blt_color_bytes(bit ? c->fg : c->bg, col);
	memcpy(px, col, cpp);
	if (!bit && c->transparent)
		*keep = 1;
}

/* The pattern of row y, pixels [x, x + w). */
static void pattern_row(const struct blt_op *op, int32_t x, int32_t y, int32_t w, uint8_t *pat,
			uint8_t *keep)
{
	uint32_t cpp = op->dst.cpp;
	uint32_t py = ((uint32_t)y + op->seed_y) & 7;
	for (int32_t i = 0; i < w; i++) {
		uint32_t px = ((uint32_t)(x + i) + op->seed_x) & 7;
		uint8_t *out = pat + (size_t)i * cpp;
		if (op->mono_pattern)
			mono_pixel(&op->pat_colors, op->mono_pattern[py] >> (7 - px) & 1, cpp, out,
				   &keep[i]);
		else if (op->pattern_8x8)
			memcpy(out, op->pattern + (py * 8 + px) * cpp, cpp);
		else
			memcpy(out, op->pattern, cpp);
	}
}

/* The mono source's pixels for destination row y, pixels [x, x + w); a
 * source in memory is read into rowbuf (stride bytes). */
static enum cs_result mono_src_row(struct gt_engine *e, const struct blt_op *op, int32_t x,
				   int32_t y, int32_t w, uint8_t *src, uint8_t *keep,
				   uint8_t *rowbuf)
{
	const struct blt_mono_src *m = op->mono_src;
	uint64_t off = (uint64_t)(y - op->y1) * m->stride;
	const uint8_t *row = rowbuf;
	if (m->bits) {
		row = m->bits + off;   /* immediate data (no offset from a NULL) */
	} else {
		enum cs_result r = blt_read_mem(e, op->cmd, "mono source", m->va + off, rowbuf,
						m->stride);
		if (r != CS_NEXT)
			return r;
	}
	for (int32_t i = 0; i < w; i++) {
		uint32_t b = m->offset + (uint32_t)(x + i - op->x1);
		mono_pixel(&m->c, row[b / 8] >> (7 - b % 8) & 1, op->dst.cpp,
			   src + (size_t)i * op->dst.cpp, &keep[i]);
	}
	return CS_NEXT;
}

static int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }
static int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }

enum cs_result blt_rect(struct gt_engine *e, const struct blt_op *op)
{
	int32_t x1 = op->x1, y1 = op->y1, x2 = op->x2, y2 = op->y2;
	if (op->clip) {
		x1 = max32(x1, op->clip_x1);
		y1 = max32(y1, op->clip_y1);
		x2 = min32(x2, op->clip_x2);
		y2 = min32(y2, op->clip_y2);
	}
	int32_t w = x2 - x1, h = y2 - y1;
	if (w <= 0 || h <= 0 || !op->byte_mask)
		return CS_NEXT;   /* an empty rectangle (or mask) writes nothing */
	uint32_t cpp = op->dst.cpp;
	size_t row = (size_t)w * cpp;
	bool transparent = (op->mono_src && op->mono_src->c.transparent) ||
			   (op->mono_pattern && op->pat_colors.transparent);
	bool has_pat = op->pattern || op->mono_pattern, has_src = op->src || op->mono_src;
	bool read_dst = blt_rop_uses_dest(op->rop) || op->byte_mask != 3 || transparent;
	size_t mono_row = op->mono_src ? op->mono_src->stride : 0;
	uint8_t *buf = calloc(1, 4 * (row + (size_t)w) + mono_row);
	if (!buf)
		return cs_fault(e, "%s: out of memory for a %zu-byte row", op->cmd, row);
	uint8_t *src = buf, *dst = buf + row, *pat = buf + 2 * row, *orig = buf + 3 * row;
	uint8_t *keep = buf + 4 * row, *mono_buf = keep + w;
	struct gt_vm vm = cs_vm_for(e, false);
	/* on one surface, copying downwards: the bottom row first */
	bool up = op->src && op->dst.base == op->src->base && op->y1 > op->src_y;
	enum cs_result r = CS_NEXT;
	for (int32_t i = 0; i < h && r == CS_NEXT; i++) {
		int32_t y = y1 + (up ? h - 1 - i : i);
		if (transparent)
			memset(keep, 0, (size_t)w);
		if (has_pat && (i == 0 || op->pattern_8x8 || op->mono_pattern))
			pattern_row(op, x1, y, w, pat, keep);   /* a solid one once */
		if (op->src)
			r = blt_row_read(e, op->cmd, &vm, op->src, op->src_x + (x1 - op->x1),
					 op->src_y + (y - op->y1), (uint32_t)w, src);
		else if (op->mono_src)
			r = mono_src_row(e, op, x1, y, w, src, keep, mono_buf);
		if (r == CS_NEXT && read_dst)
			r = blt_row_read(e, op->cmd, &vm, &op->dst, x1, y, (uint32_t)w, dst);
		if (r != CS_NEXT)
			break;
		memcpy(orig, dst, row);
		blt_rop(op->rop, has_pat ? pat : NULL, has_src ? src : NULL, dst, row);
		if (transparent)
			for (int32_t k = 0; k < w; k++)
				if (keep[k])
					memcpy(dst + (size_t)k * cpp, orig + (size_t)k * cpp, cpp);
		if (op->byte_mask != 3)
			blt_byte_mask(dst, orig, (uint32_t)w, op->byte_mask);
		r = blt_row_write(e, op->cmd, &vm, &op->dst, x1, y, (uint32_t)w, dst);
	}
	free(buf);
	if (r == CS_NEXT)
		TRACE(TRACE_BLT, "%s: %s %dx%d at (%d,%d) pitch %d %s, %u bytes per pixel, "
		      "rop 0x%02x%s%s%s%s%s%s", e->name, op->cmd, w, h, x1, y1, op->dst.pitch,
		      tiling_name(op->dst.tiling), cpp, op->rop,
		      op->src ? ", from a source " : "", op->src ? tiling_name(op->src->tiling) : "",
		      op->mono_src ? ", from a mono source" : "",
		      op->mono_pattern ? ", mono pattern" : op->pattern_8x8 ? ", 8x8 pattern" : "",
		      transparent ? ", transparent" : "", op->clip ? ", clipped" : "");
	return r;
}
