/* RENDER_SURFACE_STATE interpretation and level/slice placement against
 * the PRM (vol. 2d RENDER_SURFACE_STATE, vol. 5 "Surface Layout"): the
 * dwords are built bit by bit here from the PRM's field positions, and
 * every origin below is worked by hand. */
#include "gpu/cmd/cmd_structs.h"
#include "gpu/surface/surface.h"
#include "test.h"

static void bits(uint32_t *dw, unsigned hi, unsigned lo, uint32_t v)
{
	uint32_t m = (hi - lo == 31 ? ~0u : ((1u << (hi - lo + 1)) - 1)) << lo;
	*dw = (*dw & ~m) | ((v << lo) & m);
}

struct desc {
	uint32_t type, w, h, d, pitch, qpitch, halign, valign, tile, mips, min_lod, format;
	uint32_t samples_log2, msfmt, trmode, xoff, yoff, min_array;
	uint64_t base;
};

static void state(uint32_t ss[16], const struct desc *s)
{
	memset(ss, 0, 64);
	bits(&ss[0], 31, 29, s->type);
	bits(&ss[0], 26, 18, s->format);
	bits(&ss[0], 17, 16, s->valign);     /* 1: 4, 2: 8, 3: 16 */
	bits(&ss[0], 15, 14, s->halign);
	bits(&ss[0], 13, 12, s->tile);
	bits(&ss[1], 14, 0, s->qpitch >> 2);  /* bits 16:2 of the row count */
	bits(&ss[2], 13, 0, s->w - 1);
	bits(&ss[2], 29, 16, s->h - 1);
	bits(&ss[3], 31, 21, s->d - 1);
	bits(&ss[3], 17, 0, s->pitch - 1);
	bits(&ss[4], 5, 3, s->samples_log2);
	bits(&ss[4], 6, 6, s->msfmt);
	bits(&ss[4], 28, 18, s->min_array);
	bits(&ss[5], 3, 0, s->mips);
	bits(&ss[5], 7, 4, s->min_lod);
	bits(&ss[5], 19, 18, s->trmode);      /* gen9 only */
	bits(&ss[5], 23, 21, s->yoff / 4);
	bits(&ss[5], 31, 25, s->xoff / 4);
	ss[8] = (uint32_t)s->base;
	ss[9] = (uint32_t)(s->base >> 32);
}

static void origin(const struct surface_layout *l, uint32_t level, uint32_t slice, uint64_t x,
		   uint64_t y, int line)
{
	uint64_t gx, gy;
	surface_slice_origin(l, level, slice, &gx, &gy);
	if (gx != x || gy != y) {
		test_failures++;
		fprintf(stderr, "line %d: level %u slice %u at (%llu, %llu), want (%llu, %llu)\n",
			line, level, slice, (unsigned long long)gx, (unsigned long long)gy,
			(unsigned long long)x, (unsigned long long)y);
	}
	test_checks++;
}
#define ORIGIN(l, lv, sl, x, y) origin(l, lv, sl, x, y, __LINE__)

int main(void)
{
	uint32_t ss[16];
	char why[160];
	struct surface_layout l;

	/* the fields as the PRM encodes them */
	struct desc d2 = { .type = SURF_2D, .w = 10, .h = 6, .d = 3, .pitch = 256, .qpitch = 20,
			   .halign = 1, .valign = 1, .tile = 3, .mips = 2, .format = 0xc7,
			   .xoff = 8, .yoff = 4, .min_array = 1, .base = 0x123456000ull };
	state(ss, &d2);
	CHECK_EQ(surface_layout_from_state(8, ss, &l, why), 0);
	CHECK_EQ(l.type, SURF_2D);
	CHECK_EQ(l.format, 0xc7);
	CHECK_EQ(l.width, 10);
	CHECK_EQ(l.height, 6);
	CHECK_EQ(l.depth, 3);
	CHECK_EQ(l.pitch, 256);
	CHECK_EQ(l.qpitch, 20);
	CHECK_EQ(l.halign, 4);
	CHECK_EQ(l.valign, 4);
	CHECK_EQ(l.tiling, SURFACE_TILE_Y);
	CHECK_EQ(l.mip_count_lod, 2);
	CHECK_EQ(l.min_array, 1);
	CHECK_EQ(l.x_offset, 8);
	CHECK_EQ(l.y_offset, 4);
	CHECK_EQ(l.base, 0x123456000ull);
	CHECK_EQ(l.samples, 1);
	CHECK_EQ(l.dim_layout, SURFACE_DIM_2D);
	CHECK_EQ(l.nlevels, 3);

	/* 2D, 3 levels, HALIGN 4 / VALIGN 4: level 0 10x6 -> 12x8 aligned;
	 * level 1 5x3 -> 8x4 below level 0 at (0, 8); level 2 2x1 -> 4x4 right
	 * of level 1 at (8, 8) */
	ORIGIN(&l, 0, 0, 0, 0);
	ORIGIN(&l, 1, 0, 0, 8);
	ORIGIN(&l, 2, 0, 8, 8);
	/* array slices QPitch (20) rows apart, at every level */
	ORIGIN(&l, 0, 2, 0, 40);
	ORIGIN(&l, 2, 1, 8, 28);
	/* the view of level 1, slice 2: 5x3, origin plus X/Y Offset */
	struct surface_view v;
	l.cpp = 4;
	CHECK_EQ(surface_view_of(&l, 1, 2, &v), 0);
	CHECK_EQ(v.width, 5);
	CHECK_EQ(v.height, 3);
	CHECK_EQ(v.x_offset, 0 + 8);
	CHECK_EQ(v.y_offset, 8 + 40 + 4);
	CHECK_EQ(v.base, 0x123456000ull);
	CHECK(surface_view_of(&l, 3, 0, &v) != 0);          /* past the levels */

	/* level 3 and on go below level 2: 40x40, HALIGN 8, VALIGN 16, 5 levels:
	 * widths 40 20 10 5 2 -> aligned 40 24 16 8 8; heights 40 20 10 5 2 ->
	 * 48 32 16 16 16. Level 1 (0, 48), level 2 (24, 48), level 3 (24, 64),
	 * level 4 (24, 80). */
	struct desc big = { .type = SURF_2D, .w = 40, .h = 40, .d = 1, .pitch = 512,
			    .halign = 2, .valign = 3, .mips = 4, .format = 0xc7 };
	state(ss, &big);
	CHECK_EQ(surface_layout_from_state(9, ss, &l, why), 0);
	CHECK_EQ(l.halign, 8);
	CHECK_EQ(l.valign, 16);
	ORIGIN(&l, 1, 0, 0, 48);
	ORIGIN(&l, 2, 0, 24, 48);
	ORIGIN(&l, 3, 0, 24, 64);
	ORIGIN(&l, 4, 0, 24, 80);

	/* Surface Min LOD counts: levels up to Min LOD + MIP Count exist */
	big.min_lod = 2;
	big.mips = 1;
	state(ss, &big);
	CHECK_EQ(surface_layout_from_state(9, ss, &l, why), 0);
	CHECK_EQ(l.nlevels, 4);
	ORIGIN(&l, 3, 0, 24, 64);

	/* gen8 3D, 8x8x4, HALIGN/VALIGN 4: level 0's slices one a row
	 * (2^0), 8 rows apart; level 1 (4x4, 2 slices, 2^1 a row) below level
	 * 0's 32 rows: slice 1 at (4, 32); level 2 (2x2 -> 4x4, 1 slice) at
	 * 32 + 4 = 36. QPitch is ignored. */
	struct desc d3 = { .type = SURF_3D, .w = 8, .h = 8, .d = 4, .pitch = 128, .qpitch = 100,
			   .halign = 1, .valign = 1, .mips = 2, .format = 0xc7 };
	state(ss, &d3);
	CHECK_EQ(surface_layout_from_state(8, ss, &l, why), 0);
	CHECK_EQ(l.dim_layout, SURFACE_DIM_GEN8_3D);
	ORIGIN(&l, 0, 0, 0, 0);
	ORIGIN(&l, 0, 3, 0, 24);
	ORIGIN(&l, 1, 0, 0, 32);
	ORIGIN(&l, 1, 1, 4, 32);
	ORIGIN(&l, 2, 0, 0, 36);
	/* gen9 3D is a 2D array: slices QPitch apart, levels as 2D */
	d3.qpitch = 12;
	state(ss, &d3);
	CHECK_EQ(surface_layout_from_state(9, ss, &l, why), 0);
	CHECK_EQ(l.dim_layout, SURFACE_DIM_2D);
	ORIGIN(&l, 0, 2, 0, 24);
	ORIGIN(&l, 1, 1, 0, 8 + 12);
	ORIGIN(&l, 2, 0, 4, 8);

	/* gen9 1D: levels side by side, each 64 elements aligned whatever the
	 * HALIGN field says (SKL PRM vol. 5 "1D Alignment Requirements",
	 * TRMODE_NONE: 64): 20 -> 64, 10 -> 64: x 0, 64, 128; array slices
	 * QPitch pixels apart: QPitch 64 pixels of 4 bytes in a 128-byte pitch
	 * = 2 rows */
	struct desc d1 = { .type = SURF_1D, .w = 20, .h = 1, .d = 3, .pitch = 128, .qpitch = 64,
			   .halign = 1, .valign = 1, .mips = 2, .format = 0xc7 };
	state(ss, &d1);
	CHECK_EQ(surface_layout_from_state(9, ss, &l, why), 0);
	CHECK_EQ(l.dim_layout, SURFACE_DIM_GEN9_1D);
	l.cpp = 4;
	ORIGIN(&l, 1, 0, 64, 0);
	ORIGIN(&l, 2, 0, 128, 0);
	ORIGIN(&l, 0, 1, 0, 2);
	ORIGIN(&l, 1, 2, 64, 4);
	/* iris's 1D RGBA32F texture of 65 texels and 7 levels (piglit
	 * texelFetch gs sampler1D on SKL), its dwords as iris wrote them:
	 * HALIGN_4 in the field, QPitch 512 = 128 + 6 x 64, the levels'
	 * widths 65, 33, 17, 9, 5, 3, 2 each rounded up to 64 */
	static const uint32_t iris_1d[16] = { 0x1001403f, 0x04000080, 0x00000040, 0, 0,
					      0x00000f06, 0, 0x09770000, 0xffa00000, 0xfffffffe };
	CHECK_EQ(iris_1d[0] >> 14 & 3, 1);                  /* HALIGN_4 */
	CHECK_EQ(surface_layout_from_state(9, iris_1d, &l, why), 0);
	CHECK_EQ(l.dim_layout, SURFACE_DIM_GEN9_1D);
	CHECK_EQ(l.qpitch, 512);
	l.cpp = 16;
	ORIGIN(&l, 1, 0, 128, 0);
	ORIGIN(&l, 2, 0, 192, 0);
	ORIGIN(&l, 6, 0, 448, 0);
	/* a tiled gen9 1D surface is laid out as 2D, and so is gen8 1D
	 * (level 1 below level 0) */
	d1.tile = 3;
	state(ss, &d1);
	CHECK_EQ(surface_layout_from_state(9, ss, &l, why), 0);
	CHECK_EQ(l.dim_layout, SURFACE_DIM_2D);
	d1.tile = 0;
	state(ss, &d1);
	CHECK_EQ(surface_layout_from_state(8, ss, &l, why), 0);
	CHECK_EQ(l.dim_layout, SURFACE_DIM_2D);
	ORIGIN(&l, 1, 0, 0, 4);

	/* a buffer: entries - 1 over Width 6:0, Height 20:7, Depth 30:21 */
	struct desc buf = { .type = SURF_BUFFER, .w = 0x7f + 1, .h = 3 + 1, .d = 2 + 1,
			    .pitch = 16, .format = 0xc7 };
	state(ss, &buf);
	CHECK_EQ(surface_layout_from_state(8, ss, &l, why), 0);
	CHECK_EQ(l.width, (0x7fu | 3u << 7 | 2u << 21) + 1);
	CHECK_EQ(l.dim_layout, SURFACE_DIM_BUFFER);

	/* samples and their storage format */
	struct desc ms = d2;
	ms.samples_log2 = 2;
	ms.msfmt = 1;
	state(ss, &ms);
	CHECK_EQ(surface_layout_from_state(8, ss, &l, why), 0);
	CHECK_EQ(l.samples, 4);
	CHECK_EQ(l.msaa_layout, SURFACE_MSAA_INTERLEAVED);

	/* what gtsim does not implement is an error, never a guess: Yf/Ys
	 * (gen9 Tiled Resource Mode) and a reserved alignment once levels
	 * need it */
	struct desc yf = d2;
	yf.trmode = 1;
	state(ss, &yf);
	CHECK(surface_layout_from_state(9, ss, &l, why) != 0);
	CHECK(strstr(why, "Yf") && strstr(why, "not implemented"));
	struct desc reserved = d2;
	reserved.halign = 0;
	state(ss, &reserved);
	CHECK(surface_layout_from_state(8, ss, &l, why) != 0);
	reserved.mips = 0;                      /* one level: no alignment used */
	state(ss, &reserved);
	CHECK_EQ(surface_layout_from_state(8, ss, &l, why), 0);
	/* SURFTYPE_NULL (7) has no layout: its other fields are ignored, so
	 * alignments 0 with levels and layers are no error. iris's null render
	 * target of a depth-only draw into a level of a 2D array (piglit
	 * tes-texturesize-sampler2darrayshadow), as its dwords are: 65x32, 40
	 * layers, MIP Count 1, HALIGN/VALIGN 0 */
	static const uint32_t null_rt[16] = { 0xf31c3000, 0x78000000, 0x001f0040, 0x04e00000,
					      0x00001380, 0x00000001 };
	CHECK_EQ(null_rt[0] >> 29, 7);
	CHECK_EQ(null_rt[0] >> 14 & 3, 0);
	CHECK_EQ(null_rt[5] & 15, 1);
	CHECK_EQ(surface_layout_from_state(8, null_rt, &l, why), 0);
	CHECK_EQ(l.type, SURF_NULL);
	struct desc null2 = reserved;
	null2.type = 7;
	null2.mips = 3;
	state(ss, &null2);
	CHECK_EQ(surface_layout_from_state(9, ss, &l, why), 0);
	CHECK_EQ(l.type, SURF_NULL);

	/* depth and stencil buffers: no alignment fields; the BDW PRM vol. 5
	 * "Memory Views" alignment units: depth 4 x 4 (8 x 4 for D16),
	 * stencil 8 x 8. A 10x10 D32_FLOAT buffer at
	 * LOD 1 (5x5): level 0's 10 rows -> 12, so level 1 at (0, 12); layer 2
	 * of QPitch 40 (field 10) -> 80 more rows */
	struct cmd_3DSTATE_DEPTH_BUFFER db = { .surface_type = SURF_2D, .surface_format = 1,
		.surface_base_address = 0x40000, .surface_pitch = 127, .width = 9, .height = 9,
		.lod = 1, .minimum_array_element = 2, .depth = 3, .surface_qpitch = 10 };
	CHECK_EQ(surface_depth_view(8, &db, &v, why), 0);
	CHECK_EQ(v.base, 0x40000);
	CHECK_EQ(v.pitch, 128);
	CHECK_EQ(v.cpp, 4);
	CHECK_EQ(v.tiling, SURFACE_TILE_Y);
	CHECK_EQ(v.width, 5);
	CHECK_EQ(v.height, 5);
	CHECK_EQ(v.x_offset, 0);
	CHECK_EQ(v.y_offset, 12 + 80);
	/* D16: VALIGN 4, level 0's 10 rows -> 12 */
	db.surface_format = 5;
	db.minimum_array_element = 0;
	CHECK_EQ(surface_depth_view(9, &db, &v, why), 0);
	CHECK_EQ(v.cpp, 2);
	CHECK_EQ(v.y_offset, 12);
	/* LOD 2 is right of LOD 1: level 1's 5 pixels -> 8 (D16 HALIGN 8) */
	db.lod = 2;
	CHECK_EQ(surface_depth_view(9, &db, &v, why), 0);
	CHECK_EQ(v.x_offset, 8);
	CHECK_EQ(v.y_offset, 12);
	/* and D32_FLOAT: -> 8 too (HALIGN 4); a 14-wide buffer's level 1 of
	 * 7 pixels -> 8 (HALIGN 4) where D16 gives 8 as well: 18 wide, level
	 * 1 of 9 -> 12 (HALIGN 4) against 16 (D16) */
	db.surface_format = 1;
	db.width = 17;
	CHECK_EQ(surface_depth_view(9, &db, &v, why), 0);
	CHECK_EQ(v.x_offset, 12);
	db.surface_format = 5;
	CHECK_EQ(surface_depth_view(9, &db, &v, why), 0);
	CHECK_EQ(v.x_offset, 16);
	db.width = 9;
	/* stencil: W-major, 1 byte, VALIGN 8 -> level 1 at row 16, its own
	 * QPitch (field 12: 48 rows); LOD 2 at x = 5 -> 8 (HALIGN 8) */
	struct cmd_3DSTATE_STENCIL_BUFFER sb = { .stencil_buffer_enable = true,
		.surface_base_address = 0x80000, .surface_pitch = 127, .surface_qpitch = 12 };
	db.lod = 1;
	db.minimum_array_element = 1;
	CHECK_EQ(surface_stencil_view(8, &db, &sb, &v, why), 0);
	CHECK_EQ(v.base, 0x80000);
	CHECK_EQ(v.tiling, SURFACE_TILE_W);
	CHECK_EQ(v.cpp, 1);
	CHECK_EQ(v.pitch, 128);
	CHECK_EQ(v.y_offset, 16 + 48);
	db.lod = 2;
	db.minimum_array_element = 0;
	CHECK_EQ(surface_stencil_view(8, &db, &sb, &v, why), 0);
	CHECK_EQ(v.x_offset, 8);
	CHECK_EQ(v.y_offset, 16);
	/* gen9 Yf depth: not implemented, an error */
	db.tiled_resource_mode = 1;
	CHECK(surface_depth_view(9, &db, &v, why) != 0);

	CHECK_EQ(surface_minify(10, 1), 5);
	CHECK_EQ(surface_minify(10, 4), 1);
	CHECK_EQ(surface_minify(10, 40), 1);
	/* compressed: a 36x20 BC1 (format 390, 4x4 blocks) 2D array, 3 levels
	 * of 9x5, 5x3 and 3x2 blocks (pixels 36x20, 18x10, 9x5 rounded up).
	 * Gen8: HALIGN/VALIGN 8 are pixels, 2 blocks; QPitch 48 rows of the
	 * uncompressed surface, 12 block rows. Aligned 10x6, 6x4, 4x2 blocks:
	 * level 1 at (0, 6), level 2 at (6, 6). */
	struct desc bc = { .type = SURF_2D, .w = 36, .h = 20, .d = 2, .pitch = 128,
			   .qpitch = 48, .halign = 2, .valign = 2, .mips = 2, .format = 390,
			   .xoff = 8, .yoff = 4 };
	state(ss, &bc);
	CHECK_EQ(surface_layout_from_state(8, ss, &l, why), 0);
	CHECK_EQ(l.bw, 4);
	CHECK_EQ(l.bh, 4);
	CHECK_EQ(l.halign, 2);
	CHECK_EQ(l.qpitch, 12);
	CHECK_EQ(l.x_offset, 2);
	CHECK_EQ(l.y_offset, 1);
	ORIGIN(&l, 1, 0, 0, 6);
	ORIGIN(&l, 2, 0, 6, 6);
	ORIGIN(&l, 2, 1, 6, 18);
	l.cpp = 8;
	CHECK_EQ(surface_view_of(&l, 1, 0, &v), 0);
	CHECK_EQ(v.width, 5);                      /* 18 pixels: 5 blocks */
	CHECK_EQ(v.height, 3);
	/* Gen9: HALIGN/VALIGN 8 are blocks; QPitch in block rows. Aligned
	 * 16x8, 8x8, 8x8 blocks: level 1 at (0, 8), level 2 at (8, 8) */
	bc.qpitch = 24;
	state(ss, &bc);
	CHECK_EQ(surface_layout_from_state(9, ss, &l, why), 0);
	CHECK_EQ(l.halign, 8);
	CHECK_EQ(l.qpitch, 24);
	ORIGIN(&l, 1, 0, 0, 8);
	ORIGIN(&l, 2, 0, 8, 8);
	ORIGIN(&l, 2, 1, 8, 32);
	return test_exit();
}
