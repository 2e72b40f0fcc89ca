/* One module for surface layouts (PRM vol. 5 "Memory Views": "Surface
 * Layout and Tiling", "Tiling", "Multisampled Surfaces"): RENDER_SURFACE_STATE
 * read into a struct surface_layout once per surface (dimensions, pitch,
 * mip and array layout, alignments, tiling, aux surface), where each level
 * and slice starts, the byte address of a pixel in a linear, X-, Y- or
 * W-tiled surface, the per-sample layouts, and the aux-surface block sizes
 * gtsim uses. The sampler, render target writes, depth/stencil, fast
 * clears, PNG dumps and the kernel's tiling checks all call it.
 *
 * Per-pixel work is a struct surface_view: a level and slice of a layout
 * reduced to (base, bounds, pitch, tiling, origin), made once per surface
 * and message; surface_view_offset() is then a few integer operations. */
#ifndef GTSIM_GPU_SURFACE_SURFACE_H
#define GTSIM_GPU_SURFACE_SURFACE_H

#include <stdbool.h>
#include <stdint.h>

/* RENDER_SURFACE_STATE Surface Type values. */
enum surface_type { SURF_1D = 0, SURF_2D = 1, SURF_3D = 2, SURF_CUBE = 3, SURF_BUFFER = 4,
		    SURF_STRBUF = 5, SURF_NULL = 7 };

/* Tile Mode values (RENDER_SURFACE_STATE DWord 0 13:12). */
enum surface_tiling { SURFACE_LINEAR = 0, SURFACE_TILE_W = 1, SURFACE_TILE_X = 2,
		      SURFACE_TILE_Y = 3 };

#define SURFACE_TILE_SIZE 4096u

/* How levels and slices are placed (PRM vol. 5 "Surface Layout"). */
enum surface_dim_layout {
	SURFACE_DIM_2D,       /* 1D/2D/cube, and gen9 3D: level 1 below level 0, level 2
				 right of level 1, later levels below; slices QPitch rows apart */
	SURFACE_DIM_GEN8_3D,  /* gen8 3D: level l's slices 2^l per row, levels stacked */
	SURFACE_DIM_GEN9_1D,  /* gen9 1D: levels side by side in one row; QPitch in pixels */
	SURFACE_DIM_BUFFER,   /* SURFTYPE_BUFFER: element i at i * pitch */
};

/* Multisampled Surface Storage Format. */
enum surface_msaa_layout { SURFACE_MSAA_ARRAY = 0,        /* MSFMT_MSS: one slice per sample */
			   SURFACE_MSAA_INTERLEAVED = 1 }; /* MSFMT_DEPTH_STENCIL */

/* Auxiliary Surface Mode values. */
enum surface_aux_mode { SURFACE_AUX_NONE = 0, SURFACE_AUX_MCS = 1, SURFACE_AUX_APPEND = 2,
			SURFACE_AUX_HIZ = 3, SURFACE_AUX_CCS_E = 5 };

/* Levels a layout can address: Surface Min LOD (<= 15) + MIP Count (<= 15). */
#define SURFACE_MAX_LEVELS 31

/* Where a level starts (elements, rows of elements from the surface
 * origin) and its size in elements rounded up to the alignments. An
 * element is a pixel, or a block of a compressed format. */
struct surface_level {
	uint32_t x, y;
	uint32_t aw, ah;
};

/* A RENDER_SURFACE_STATE, interpreted. */
struct surface_layout {
	int gen;
	uint32_t type;              /* enum surface_type */
	uint32_t format;            /* SURFACE_FORMAT */
	bool array;                 /* Surface Array */
	uint64_t base;              /* Surface Base Address */
	uint32_t width, height;     /* level 0, pixels; buffers: the element count in width */
	uint32_t depth;             /* Depth + 1: layers (1D/2D/cube) or 3D depth */
	uint32_t pitch;             /* bytes (buffers: the element stride) */
	uint32_t cpp;               /* bytes per element; 0 until the caller sets it */
	uint32_t qpitch;            /* slice distance: element rows (gen9 1D: elements) */
	uint32_t halign, valign;    /* level alignment, elements */
	uint8_t bw, bh;             /* the format's block size in pixels (1 x 1 uncompressed) */
	uint8_t tiling;             /* enum surface_tiling */
	uint8_t tiled_resource;     /* gen9 Tiled Resource Mode: 0 none, 1 Yf, 2 Ys */
	uint8_t dim_layout;         /* enum surface_dim_layout */
	uint8_t msaa_layout;        /* enum surface_msaa_layout */
	uint32_t samples;           /* 1, 2, 4, 8, 16 */
	uint32_t mip_count_lod;     /* MIP Count (sampler) / LOD (render target) */
	uint32_t min_lod;           /* Surface Min LOD */
	uint32_t min_array;         /* Minimum Array Element */
	uint32_t rt_view_extent;    /* Render Target View Extent */
	uint32_t x_offset, y_offset; /* X/Y Offset, elements */
	uint8_t scs[4];             /* shader channel selects R, G, B, A */
	/* the media block messages' rows (data port, dp_media.c): Vertical
	 * Line Stride and its Offset (field mode), Media Boundary Pixel Mode */
	uint8_t vline_stride, vline_offset, media_boundary;
	/* aux surface */
	uint8_t aux_mode;           /* enum surface_aux_mode */
	uint64_t aux_base;
	uint32_t aux_pitch, aux_qpitch; /* bytes; rows */
	uint32_t clear_color[4];    /* gen8: one bit per channel; gen9: the 32-bit values */
	/* levels 0 .. nlevels - 1 (surface_layout_levels) */
	uint32_t nlevels;
	struct surface_level level[SURFACE_MAX_LEVELS];
};

/* One level and slice of a surface as the pixel path sees it (elements:
 * blocks of a compressed format). */
struct surface_view {
	uint64_t base;              /* graphics address */
	uint32_t width, height;     /* elements; positions outside are dropped */
	uint32_t pitch;             /* bytes per row */
	uint32_t cpp;               /* bytes per element */
	uint32_t format;            /* SURFACE_FORMAT (render targets) */
	uint8_t tiling;             /* enum surface_tiling */
	uint32_t x_offset, y_offset; /* pixels and rows added to every position */
};

/* surface_state.c */
/* Read RENDER_SURFACE_STATE ss[16] of generation gen (through the
 * generated cmd_RENDER_SURFACE_STATE) into l, with the level table filled
 * for the levels the state can address. cpp is left 0: the caller knows
 * the format's element size. -1 with a reason in why (160 bytes) for what
 * gtsim does not implement (Yf/Ys tiling, reserved alignments). */
int surface_layout_from_state(int gen, const uint32_t ss[16], struct surface_layout *l,
			      char *why);

/* surface_mip.c */
/* max(1, size >> level). */
uint32_t surface_minify(uint32_t size, uint32_t level);
/* A level's width and height in elements: the pixels divided by the block
 * size, rounded up. */
uint32_t surface_level_width_el(const struct surface_layout *l, uint32_t level);
uint32_t surface_level_height_el(const struct surface_layout *l, uint32_t level);
/* Fill l->level[0 .. n) (n <= SURFACE_MAX_LEVELS) from the dimensions,
 * alignments and dim_layout. */
void surface_layout_levels(struct surface_layout *l, uint32_t n);
/* Where slice `slice` (array layer, cube face or 3D slice, absolute) of
 * level `level` (< l->nlevels) starts, in elements and rows from the
 * surface origin (X/Y Offset not included). */
void surface_slice_origin(const struct surface_layout *l, uint32_t level, uint32_t slice,
			  uint64_t *x, uint64_t *y);
/* The view of one level and slice (X/Y Offset included; bounds are the
 * level's size). -1 when level >= l->nlevels. */
int surface_view_of(const struct surface_layout *l, uint32_t level, uint32_t slice,
		    struct surface_view *v);

/* surface_depth.c */
/* The depth buffer (Y-major, 2 or 4 bytes a pixel) and the separate
 * stencil buffer (W-major, 1 byte) at 3DSTATE_DEPTH_BUFFER's LOD and
 * Minimum Array Element; -1 with why for Yf/Ys. */
struct cmd_3DSTATE_DEPTH_BUFFER;
struct cmd_3DSTATE_STENCIL_BUFFER;
int surface_depth_view(int gen, const struct cmd_3DSTATE_DEPTH_BUFFER *db,
		       struct surface_view *v, char *why);
int surface_stencil_view(int gen, const struct cmd_3DSTATE_DEPTH_BUFFER *db,
			 const struct cmd_3DSTATE_STENCIL_BUFFER *sb, struct surface_view *v,
			 char *why);

/* surface_tile.c */
/* Byte offset of (x bytes, y rows) in a surface of the given pitch (a
 * multiple of the tile width when tiled):
 *  - X-major: 4 KiB tiles 512 B wide x 8 rows, rows of 512 contiguous bytes.
 *  - Y-major: 128 B x 32 rows, 8 columns of 16 B OWords, each column 32 rows.
 *  - W-major (separate stencil): 64 B x 64 rows; 8x8-byte blocks of 64 B,
 *    column by column, inside a block the bits x0 y0 x1 y1 x2 y2. Its
 *    pitch is programmed at twice the bytes of a row of W tiles (the PRM:
 *    "stored with two rows interleaved"): pitch / 128 tiles a row.
 * No bit-6 address swizzling on gen8+ (i915 reports I915_BIT_6_SWIZZLE_NONE). */
#define SURFACE_TILE_X_W 512u
#define SURFACE_TILE_X_H 8u
#define SURFACE_TILE_Y_W 128u
#define SURFACE_TILE_Y_H 32u
#define SURFACE_TILE_W_W 64u
#define SURFACE_TILE_W_H 64u

static inline uint64_t surface_tile_x_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	uint64_t tile = (y / SURFACE_TILE_X_H) * (pitch / SURFACE_TILE_X_W) + x / SURFACE_TILE_X_W;
	return tile * SURFACE_TILE_SIZE + (y % SURFACE_TILE_X_H) * SURFACE_TILE_X_W +
	       x % SURFACE_TILE_X_W;
}

static inline uint64_t surface_tile_y_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	uint64_t tile = (y / SURFACE_TILE_Y_H) * (pitch / SURFACE_TILE_Y_W) + x / SURFACE_TILE_Y_W;
	uint64_t column = (x % SURFACE_TILE_Y_W) / 16;   /* OWord column */
	return tile * SURFACE_TILE_SIZE + column * (16 * SURFACE_TILE_Y_H) +
	       (y % SURFACE_TILE_Y_H) * 16 + x % 16;
}

static inline uint64_t surface_tile_w_offset(uint64_t x, uint64_t y, uint64_t pitch)
{
	/* the pitch as programmed is twice the bytes of a row of W tiles:
	 * "the pitch must be set to 2x the value computed based on width, as
	 * the stencil buffer is stored with two rows interleaved" (PRM vol. 2d
	 * 3DSTATE_STENCIL_BUFFER and RENDER_SURFACE_STATE Surface Pitch) */
	pitch /= 2;
	/* inside a tile, 8x8-byte blocks of 64 B column-major (512 B per
	 * column of blocks); inside a block the address bits from the lowest
	 * up are x0 y0 x1 y1 x2 y2 */
	uint64_t tile = (y / SURFACE_TILE_W_H) * (pitch / SURFACE_TILE_W_W) + x / SURFACE_TILE_W_W;
	uint64_t bx = x % SURFACE_TILE_W_W, by = y % SURFACE_TILE_W_H;
	return tile * SURFACE_TILE_SIZE + 512 * (bx / 8) + 64 * (by / 8) +
	       32 * ((by >> 2) & 1) + 16 * ((bx >> 2) & 1) +
	       8 * ((by >> 1) & 1) + 4 * ((bx >> 1) & 1) +
	       2 * (by & 1) + (bx & 1);
}

static inline uint64_t surface_tiled_offset(unsigned tiling, uint64_t x, uint64_t y,
					    uint64_t pitch)
{
	switch (tiling) {
	case SURFACE_TILE_X: return surface_tile_x_offset(x, y, pitch);
	case SURFACE_TILE_Y: return surface_tile_y_offset(x, y, pitch);
	case SURFACE_TILE_W: return surface_tile_w_offset(x, y, pitch);
	default: return y * pitch + x;
	}
}

/* How many bytes of a row, from byte x on, lie at consecutive addresses:
 * to the end of the OWord (Y), of the tile's row (X), one byte (W), all of
 * them (linear: UINT64_MAX). */
static inline uint64_t surface_row_run(unsigned tiling, uint64_t x)
{
	switch (tiling) {
	case SURFACE_TILE_X: return SURFACE_TILE_X_W - x % SURFACE_TILE_X_W;
	case SURFACE_TILE_Y: return 16 - x % 16;   /* an OWord of a column */
	case SURFACE_TILE_W: return 1;
	default: return UINT64_MAX;
	}
}
/* Tile width in bytes (1 for linear), height in rows (1 for linear). */
unsigned surface_tile_width(unsigned tiling);
unsigned surface_tile_height(unsigned tiling);
/* What a tiled surface's pitch is a multiple of: the tile width, twice it
 * for W (the doubled pitch). */
unsigned surface_pitch_unit(unsigned tiling);
/* Bytes a surface of h rows occupies (rows rounded up to whole tiles). */
uint64_t surface_bytes(unsigned tiling, uint32_t pitch, uint32_t h);

/* Byte offset of pixel (x, y) of a view from its base; false when (x, y)
 * is outside the view (the access is dropped). */
static inline bool surface_view_offset(const struct surface_view *v, uint32_t x, uint32_t y,
				       uint64_t *off)
{
	if (x >= v->width || y >= v->height)
		return false;
	uint64_t bx = ((uint64_t)x + v->x_offset) * v->cpp, by = (uint64_t)y + v->y_offset;
	*off = v->tiling == SURFACE_LINEAR ? by * v->pitch + bx
					   : surface_tiled_offset(v->tiling, bx, by, v->pitch);
	return true;
}

/* surface_span.c: the offsets of many pixels at once, for the pixel
 * path's messages and runs (the same values as surface_view_offset's,
 * the tiled address computed once and its neighbours from it). */
/* Byte offsets of the four pixels of the 2x2 subspan whose upper left
 * pixel is (x, y), pixel i at (x + (i & 1), y + (i >> 1)), as a render
 * target write's subspans are; false when a pixel lies outside the view
 * (the caller then goes pixel by pixel). */
bool surface_view_subspan_offsets(const struct surface_view *v, uint32_t x, uint32_t y,
				  uint64_t off[4]);
/* Byte offsets of pixels x .. x + n - 1 of row y into off[]: how many of
 * them lie inside the view (the rest are not written). */
unsigned surface_view_row_offsets(const struct surface_view *v, uint32_t x, uint32_t y,
				  unsigned n, uint64_t *off);

/* surface_sample.c */
/* Where sample s of pixel (x, y) of slice `slice` lives in a
 * multisampled surface (PRM vol. 5 "Multisampled Surfaces"): with the
 * array layout, slice * samples + s of the same (x, y); interleaved (depth
 * and stencil), (x, y) spread over a 2x1 (2x), 2x2 (4x), 4x2 (8x) or 4x4
 * (16x) block of the same slice, pairs of pixels kept together. */
void surface_sample_position(unsigned msaa_layout, uint32_t samples, uint32_t x, uint32_t y,
			     uint32_t slice, uint32_t s, uint32_t *ox, uint32_t *oy,
			     uint32_t *oslice);

/* Byte offset of sample s of pixel (x, y) of an interleaved
 * (MSFMT_DEPTH_STENCIL) view whose width and height are the pixels':
 * false outside them. One sample: surface_view_offset. */
bool surface_view_sample_offset(const struct surface_view *v, uint32_t samples, uint32_t x,
				uint32_t y, uint32_t s, uint64_t *off);

/* The MCS of a multisampled colour surface (PRM vol. 5 "Multisample
 * Control Surface"): one element a pixel, Y-tiled at aux_base, aux_pitch
 * bytes a row, aux QPitch rows a slice; 8 bits for 2x and 4x, 32 for 8x,
 * 64 for 16x, each sample's plane in 1, 2, 4, 4 bits (sample s at bits
 * s * width). All ones: the pixel is fast-cleared (the clear colour).
 * surface_mcs_identity: every sample in its own plane. */
unsigned surface_mcs_bytes(uint32_t samples);
unsigned surface_mcs_sample_bits(uint32_t samples);
uint64_t surface_mcs_identity(uint32_t samples);
uint64_t surface_mcs_clear(uint32_t samples);
uint64_t surface_mcs_offset(const struct surface_layout *l, uint32_t x, uint32_t y,
			    uint32_t slice);
/* The block of pixels one pixel of an MCS fast-clear rectangle stands
 * for (PRM vol. 7 "MCS Buffer for Render Target(s)": the rectangle is
 * 1/8 (2x, 4x), 1/2 (8x) or all (16x) of the width, half the height). */
void surface_mcs_clear_block(uint32_t samples, uint32_t *bw, uint32_t *bh);

/* surface_aux.c */
/* The block of the main surface one pixel of a fast-clear rectangle
 * stands for (PRM vol. 7 "Render Target Fast Clear"): half the clear
 * alignment, which follows the CCS element: gen9 (Y tiles) 2048/bpp x 32
 * pixels; gen8 Y-tiled 2048/bpp x 64, X-tiled 4096/bpp x 32. -1 with why
 * for surfaces a CCS cannot cover. */
int surface_ccs_clear_block(int gen, unsigned tiling, uint32_t cpp, uint32_t *bw, uint32_t *bh,
			    char *why);

#endif
