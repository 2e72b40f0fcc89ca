/* The walk over a blit's destination rectangle shared by the XY_*
 * commands (blt_rect.c): per pixel, the raster operation of the pattern,
 * the source and the destination (BDW PRM vol. 2a, the 2D blitter). */
#ifndef GTSIM_BLT_RECT_H
#define GTSIM_BLT_RECT_H

#include "gpu/blt/blt_surface.h"

/* A 1 bpp operand expanded to colours: bit 1 the foreground colour, bit 0
 * the background colour, or (transparent) the destination left as it is. */
struct blt_mono_colors {
	uint32_t fg, bg;
	bool transparent;
};

/* A mono source: rows of stride bytes from bits (inline data), or at
 * address va (bits NULL: each row read as it is drawn), pixel i of row r at
 * bit offset + i counted from the most significant bit of each byte. Pixel
 * (X1, Y1) of the destination is pixel 0 of row 0. */
struct blt_mono_src {
	const uint8_t *bits;
	uint64_t va;
	uint32_t stride, offset;
	struct blt_mono_colors c;
};

struct blt_op {
	const char *cmd;                 /* the command's name, for messages */
	struct blt_surface dst;
	const struct blt_surface *src;   /* NULL: no colour source */
	const struct blt_mono_src *mono_src; /* NULL: no mono source */
	int32_t x1, y1, x2, y2;          /* destination [x1, x2) x [y1, y2) */
	int32_t src_x, src_y;            /* colour source of (x1, y1) */
	/* The pattern: one pixel (a solid colour), 8x8 pixels (rows of 8,
	 * pattern_8x8 set), a mono 8x8 pattern (mono_pattern set: byte r is
	 * row r, its bit 7 column 0), or none (all NULL). Destination pixel
	 * (x, y) takes the pattern's ((x + seed_x) & 7, (y + seed_y) & 7). */
	const uint8_t *pattern;
	bool pattern_8x8;
	const uint8_t *mono_pattern;
	struct blt_mono_colors pat_colors;
	uint32_t seed_x, seed_y;
	/* Clipping Enabled: only [clip_x1, clip_x2) x [clip_y1, clip_y2) is
	 * written (the clip rectangle of XY_SETUP_CLIP_BLT/XY_SETUP_BLT). */
	bool clip;
	int32_t clip_x1, clip_y1, clip_x2, clip_y2;
	uint8_t rop;
	uint32_t byte_mask;              /* 32bpp: bit 0 colour, bit 1 alpha; else 3 */
};

/* Runs the blit row by row (in the order that reads each source row before
 * an overlapping destination row overwrites it). CS_NEXT or a fault. */
enum cs_result blt_rect(struct gt_engine *e, const struct blt_op *op);

/* The engine's clip rectangle into op (Clipping Enabled set). */
void blt_op_clip(const struct gt_engine *e, struct blt_op *op);

/* The low cpp bytes of a colour dword, as they are in memory. */
void blt_color_bytes(uint32_t color, uint8_t out[4]);

/* Bytes per pixel of the XY_* commands' Color Depth (8 bit, 565, 1555,
 * 32 bit). */
uint32_t blt_color_depth_cpp(uint32_t color_depth);
/* The tiling of an XY_* command's surface: linear unless its Tiling Enable
 * is set, then Y where BCS_SWCTRL says so (bit "Tile Y Source" or "Tile Y
 * Destination"), X otherwise. */
unsigned blt_xy_tiling(struct gt_engine *e, bool tiling_enable, bool source);

/* The destination of a colour blit's BR13/BR00 fields: fills op->dst and
 * op->byte_mask (CS_NEXT, or the fault of a bad pitch). */
enum cs_result blt_dst_init(struct gt_engine *e, struct blt_op *op, uint64_t base, int32_t pitch,
			    uint32_t color_depth, bool tiling_enable, uint32_t byte_mask);

/* The destination fields the XY_* commands with a rectangle share (their
 * generated structs name them alike): BLT_DEST(c) of an unpacked command. */
struct blt_dest {
	int32_t x1, y1, x2, y2;
	uint32_t rop, color_depth, byte_mask;
	bool clip, tiled;
	uint64_t base;
	int32_t pitch;
};
#define BLT_DEST(c) ((struct blt_dest){ \
	.x1 = (c).destination_x1, .y1 = (c).destination_y1, \
	.x2 = (c).destination_x2, .y2 = (c).destination_y2, \
	.rop = (c).raster_operation, .color_depth = (c).color_depth, \
	.byte_mask = (c)._32bpp_byte_mask, .clip = (c).clipping_enabled, \
	.tiled = (c).destination_tiling_enable, .base = (c).destination_base_address, \
	.pitch = (c).destination_pitch })
/* op's command name, rectangle, ROP, clip rectangle (Clipping Enabled) and
 * destination from f: CS_NEXT, or the fault of a bad pitch. */
enum cs_result blt_op_dest(struct gt_engine *e, struct blt_op *op, const char *cmd,
			   struct blt_dest f);

/* Reads len bytes at va through the engine's address space into buf:
 * CS_NEXT or a fault naming the command and what it read. */
enum cs_result blt_read_mem(struct gt_engine *e, const char *cmd, const char *what, uint64_t va,
			    void *buf, size_t len);

/* The pattern operands the setup state gives (blt_setup.c). */
struct blt_setup_pattern {
	uint8_t pixels[64 * 4];
	uint8_t mono[8];
	uint8_t solid[4];
};
/* op from the setup state of the last XY_SETUP_BLT (destination, ROP,
 * clipping, its 8x8 colour pattern read when the ROP uses it) or
 * XY_SETUP_MONO_PATTERN_SL_BLT (its mono or solid pattern), for a command
 * d whose own Tiling Enable is tiling_enable: CS_NEXT, or a GPU fault (no
 * setup, a Tiling Enable unlike the setup's, a bad pitch or pattern). */
enum cs_result blt_setup_op(struct gt_engine *e, const struct cmd_desc *d, const uint32_t *dw,
			    uint32_t len, bool tiling_enable, struct blt_op *op,
			    struct blt_setup_pattern *p);
/* Runs op with the mono source m (offset and colours set; its stride is
 * set here from the rectangle, or given when byte_packed rows are not
 * padded to 16 bits), bytes from memory at va or from data (data_dwords
 * dwords) when data is not NULL (blt_mono_src.c). */
enum cs_result blt_run_mono(struct gt_engine *e, const struct cmd_desc *d, struct blt_op *op,
			    struct blt_mono_src *m, uint64_t va, const uint32_t *data,
			    uint32_t data_dwords);
/* The same with the mono data inline: count dwords from the generated
 * accessor at of command dw (len dwords). */
typedef uint64_t (*blt_data_at)(int gen, const uint32_t *dw, uint32_t len, uint32_t i);
enum cs_result blt_run_mono_inline(struct gt_engine *e, const struct cmd_desc *d,
				   struct blt_op *op, struct blt_mono_src *m, const uint32_t *dw,
				   uint32_t len, uint32_t count, blt_data_at at);

#endif
