/* A surface as the blitter's commands give it (BDW PRM vol. 2a, the 2D
 * blitter: XY_* commands): a base address, a pitch, bytes per pixel and a
 * tiling; and the rows of a rectangle read from and written to it through
 * the engine's address space. The tiled layouts are the surface module's
 * (gpu/surface). */
#ifndef GTSIM_BLT_SURFACE_H
#define GTSIM_BLT_SURFACE_H

#include <stdint.h>

#include "gpu/cs/cs.h"

struct blt_surface {
	const char *role;        /* "source" or "destination", for messages */
	uint64_t base;
	int32_t pitch;           /* bytes; negative (linear only) walks upwards */
	uint32_t cpp;            /* bytes per pixel */
	unsigned tiling;         /* enum surface_tiling: linear, X or Y */
};

/* Fills s from a command's fields. A tiled surface's pitch is given in
 * dwords ("If the surface is tiled, the pitch is in DWords") and must be a
 * positive multiple of the tile width: otherwise a GPU fault naming the
 * command and the surface (returns CS_FAULT). */
enum cs_result blt_surface_init(struct gt_engine *e, const char *cmd, struct blt_surface *s,
				const char *role, uint64_t base, int32_t pitch_field,
				uint32_t cpp, unsigned tiling);

/* Pixels [x, x + n) of row y into buf, or buf into them: CS_NEXT, or a
 * GPU fault naming the command and the unmapped address. */
enum cs_result blt_row_read(struct gt_engine *e, const char *cmd, const struct gt_vm *vm,
			    const struct blt_surface *s, int32_t x, int32_t y, uint32_t n,
			    uint8_t *buf);
enum cs_result blt_row_write(struct gt_engine *e, const char *cmd, const struct gt_vm *vm,
			     const struct blt_surface *s, int32_t x, int32_t y, uint32_t n,
			     const uint8_t *buf);

/* The raster operation (a ROP3: bit (P << 2 | S << 1 | D) of rop is the
 * result for pattern, source and destination bits P, S, D) on n bytes:
 * dst = rop(pat, src, dst). pat or src NULL: that operand is 0 (the
 * caller has checked that rop does not depend on it). */
void blt_rop(uint8_t rop, const uint8_t *pat, const uint8_t *src, uint8_t *dst, size_t n);
/* Whether rop's result depends on the pattern / on the source. */
int blt_rop_uses_pattern(uint8_t rop);
int blt_rop_uses_source(uint8_t rop);
/* Whether rop's result depends on the destination (it must be read). */
int blt_rop_uses_dest(uint8_t rop);

/* The 32bpp byte mask of XY_* commands: bit 0 writes the three colour
 * bytes, bit 1 the alpha byte; kept bytes come from old. */
void blt_byte_mask(uint8_t *row, const uint8_t *old, uint32_t pixels, uint32_t mask);

#endif
