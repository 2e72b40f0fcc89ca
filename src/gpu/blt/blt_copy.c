/* XY_SRC_COPY_BLT on the blitter (BDW PRM vol. 2a "XY_SRC_COPY_BLT"; the
 * 2D blitter chapter): copies the rectangle [X1, X2) x [Y1, Y2) of the
 * destination from the source rectangle at (Source X1, Source Y1), pixels
 * of 1, 2 or 4 bytes (Color Depth), rows Pitch bytes apart (signed: a
 * negative pitch walks memory upwards). For 32bpp the byte mask selects
 * what is written: bit 1 the alpha byte, bit 0 the three colour bytes.
 * Addresses go through the PPGTT when one is loaded.
 *
 * Modelled: linear surfaces with the raster operation SRCCOPY (0xCC), as
 * IGT's gem_latency uses it. Not modelled, and so a GPU fault: tiled
 * surfaces, other raster operations, clipping (XY_SETUP_CLIP_BLT). The
 * blitter unit of a later issue replaces this file. */
#include "gpu/blt/blt.h"

#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/cs/mi.h"

#define ROP_SRCCOPY 0xcc

static uint64_t row_addr(uint64_t base, int32_t pitch, int32_t x, int32_t y, uint32_t cpp)
{
	return base + (uint64_t)((int64_t)y * pitch + (int64_t)x * cpp);
}

/* Keep the bytes of old a 32bpp byte mask does not write. */
static void merge_masked(uint8_t *dst_row, const uint8_t *old_row, uint32_t pixels,
			 uint32_t mask)
{
	for (uint32_t i = 0; i < pixels; i++) {
		if (!(mask & 1))
			memcpy(dst_row + 4 * i, old_row + 4 * i, 3);
		if (!(mask & 2))
			dst_row[4 * i + 3] = old_row[4 * i + 3];
	}
}

enum cs_result blt_xy_src_copy(struct gt_engine *e, const struct cmd_desc *d,
			       const uint32_t *dw, uint32_t len)
{
	struct cmd_XY_SRC_COPY_BLT c;
	cmd_XY_SRC_COPY_BLT_unpack(cs_gen(e), dw, len, &c);
	if (c.destination_tiling_enable || c.source_tiling_enable)
		return cs_not_implemented(e, d, dw, len, "on a tiled surface");
	if (c.raster_operation != ROP_SRCCOPY)
		return cs_not_implemented(e, d, dw, len, "with a raster operation other "
					  "than SRCCOPY");
	if (c.clipping_enabled)
		return cs_not_implemented(e, d, dw, len, "with clipping");
	static const uint32_t cpp_of_depth[4] = { 1, 2, 2, 4 };
	uint32_t cpp = cpp_of_depth[c.color_depth & 3];
	int32_t w = c.destination_x2 - c.destination_x1;
	int32_t h = c.destination_y2 - c.destination_y1;
	if (w <= 0 || h <= 0)
		return CS_NEXT;  /* an empty rectangle writes nothing */
	uint32_t mask = cpp == 4 ? c._32bpp_byte_mask : 3;
	if (!mask)
		return CS_NEXT;
	size_t row = (size_t)w * cpp;
	uint8_t *buf = malloc(2 * row);
	if (!buf)
		return cs_fault(e, "XY_SRC_COPY_BLT: out of memory for a %zu-byte row", row);
	struct gt_vm vm = cs_vm_for(e, false);
	/* Rows in the order that reads each source row before an
	 * overlapping destination row overwrites it. */
	bool up = c.destination_y1 > c.source_y1;
	enum cs_result r = CS_NEXT;
	for (int32_t i = 0; i < h && r == CS_NEXT; i++) {
		int32_t y = up ? h - 1 - i : i;
		uint64_t src = row_addr(c.source_base_address, c.source_pitch, c.source_x1,
					c.source_y1 + y, cpp);
		uint64_t dst = row_addr(c.destination_base_address, c.destination_pitch,
					c.destination_x1, c.destination_y1 + y, cpp);
		if (vm_read(&vm, src, buf, row)) {
			r = cs_fault(e, "XY_SRC_COPY_BLT: read of unmapped address 0x%llx",
				     (unsigned long long)src);
			break;
		}
		if (mask != 3) {
			if (vm_read(&vm, dst, buf + row, row)) {
				r = cs_fault(e, "XY_SRC_COPY_BLT: read of unmapped address "
					     "0x%llx", (unsigned long long)dst);
				break;
			}
			merge_masked(buf, buf + row, (uint32_t)w, mask);
		}
		if (vm_write(&vm, dst, buf, row))
			r = cs_fault(e, "XY_SRC_COPY_BLT: write to unmapped address 0x%llx",
				     (unsigned long long)dst);
	}
	free(buf);
	if (r == CS_NEXT)
		TRACE(TRACE_CS, "%s: XY_SRC_COPY_BLT %dx%d, %u bytes per pixel", e->name,
		      w, h, cpp);
	return r;
}
