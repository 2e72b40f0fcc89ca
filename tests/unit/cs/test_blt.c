/* The blitter's XY_COLOR_BLT, XY_SRC_COPY_BLT, XY_FAST_COPY_BLT and XY_SETUP_CLIP_BLT against
 * values worked out by hand from the PRM's command pages (vol. 2a) and
 * IGT's encodings (lib/intel_reg.h): dword layouts, Color Depth (0 8bpp,
 * 1 565, 2 1555, 3 32bpp; fast copy 4 64bpp, 5 128bpp), tiled pitches in
 * dwords, BCS_SWCTRL (0x22200, masked: bit 0 Y-tiled source, bit 1 Y-tiled
 * destination), and the raster operations as the logic each ROP3 code
 * names (0xCC S, 0x66 S^D, 0x33 ~S, 0x88 S&D, 0xEE S|D, 0x55 ~D, 0x00, 0xFF,
 * 0xF0 P, 0x5A P^D). Tiled addresses come from tests/tiling_ref.h, written
 * independently of gtsim's surface module. */
#include "test.h"
#include "cs_harness.h"
#include "tiling_ref.h"
#include "gpu/cs/cs.h"
#include "gpu/blt/blt_surface.h"

#define XY_COLOR_BLT 0x54000005u
#define XY_SRC_COPY_BLT 0x54c00008u
#define XY_FAST_COPY_BLT 0x50800008u
#define XY_SETUP_CLIP_BLT 0x40c00001u
#define MI_LRI1 0x11000001u
#define BCS_SWCTRL 0x22200u
#define DST 0x400000u
#define SRC 0x800000u

static void map(struct harness *h, uint64_t va, uint32_t bytes)
{
	for (uint32_t off = 0; off < bytes; off += 4096)
		h_ppgtt_map(h, va + off);
}

static void put8(struct harness *h, uint64_t va, uint8_t v)
{
	*(uint8_t *)h_ptr(h, false, va) = v;
}

static uint8_t get8(struct harness *h, uint64_t va)
{
	return *(uint8_t *)h_ptr(h, false, va);
}

static void put32(struct harness *h, uint64_t va, uint32_t v)
{
	h_write(h, false, va, &v, 1);
}

static uint32_t rop_by_name(uint8_t rop, uint32_t p, uint32_t s, uint32_t d)
{
	switch (rop) {
	case 0xcc: return s;
	case 0x66: return s ^ d;
	case 0x33: return ~s;
	case 0x88: return s & d;
	case 0xee: return s | d;
	case 0x55: return ~d;
	case 0x00: return 0;
	case 0xff: return 0xffffffffu;
	case 0xf0: return p;
	case 0x5a: return p ^ d;
	default: abort();
	}
}

/* XY_COLOR_BLT: a 32bpp rectangle with each ROP of the pattern, the byte
 * mask, and 8bpp. */
static void test_color(void)
{
	static const uint8_t rops[] = { 0xf0, 0x5a, 0x55, 0x00, 0xff };
	for (unsigned r = 0; r < sizeof(rops); r++)
		for (uint32_t mask = 1; mask <= 3; mask++) {
			struct harness h;
			h_init(&h, 8, true);
			map(&h, DST, 4096);
			for (uint32_t i = 0; i < 1024; i++)
				put32(&h, DST + 4 * i, 0xa0b0c0d0u ^ i);
			/* (2,1)-(6,3) of a 16-pixel-wide (64-byte pitch) surface */
			uint32_t c[] = { XY_COLOR_BLT | mask << 20, 3u << 24 | (uint32_t)rops[r] << 16 | 64,
					 1u << 16 | 2, 3u << 16 | 6, DST, 0, 0x11223344 };
			h_emit(&h, ENGINE_BCS, c, 7);
			h_run(&h, ENGINE_BCS);
			CHECK_EQ(h.faults, 0);
			for (uint32_t y = 0; y < 5; y++)
				for (uint32_t x = 0; x < 16; x++) {
					uint32_t i = y * 16 + x, old = 0xa0b0c0d0u ^ i, want = old;
					if (y >= 1 && y < 3 && x >= 2 && x < 6) {
						uint32_t v = rop_by_name(rops[r], 0x11223344, 0, old);
						uint32_t keep = (mask & 1 ? 0 : 0x00ffffffu) |
								(mask & 2 ? 0 : 0xff000000u);
						want = (v & ~keep) | (old & keep);
					}
					CHECK_EQ(h_read32(&h, false, DST + 4 * i), want);
				}
			h_fini(&h);
		}
	/* 8bpp: the colour's low byte, (1,0)-(4,2), 16-byte pitch */
	struct harness h;
	h_init(&h, 8, true);
	map(&h, DST, 4096);
	uint32_t c[] = { XY_COLOR_BLT, 0u << 24 | 0xf0u << 16 | 16, 0u << 16 | 1, 2u << 16 | 4,
			 DST, 0, 0x1234565a };
	h_emit(&h, ENGINE_BCS, c, 7);
	h_run(&h, ENGINE_BCS);
	CHECK_EQ(h.faults, 0);
	for (uint32_t y = 0; y < 3; y++)
		for (uint32_t x = 0; x < 16; x++)
			CHECK_EQ(get8(&h, DST + y * 16 + x), y < 2 && x >= 1 && x < 4 ? 0x5a : 0);
	h_fini(&h);
}

/* XY_SRC_COPY_BLT with the source ROPs on 32bpp linear surfaces: the
 * source's (1,0)-(4,2) to the destination's (3,1)-(6,3). */
static void test_copy_rops(void)
{
	static const uint8_t rops[] = { 0xcc, 0x66, 0x33, 0x88, 0xee, 0x55 };
	for (unsigned r = 0; r < sizeof(rops); r++) {
		struct harness h;
		h_init(&h, 8, true);
		map(&h, DST, 4096);
		map(&h, SRC, 4096);
		for (uint32_t i = 0; i < 256; i++) {
			put32(&h, SRC + 4 * i, 0x01020304u * (i + 1));
			put32(&h, DST + 4 * i, 0xf0e0d0c0u ^ (i << 4));
		}
		uint32_t c[] = { XY_SRC_COPY_BLT | 3u << 20, 3u << 24 | (uint32_t)rops[r] << 16 | 64,
				 1u << 16 | 3, 3u << 16 | 6, DST, 0, 0u << 16 | 1, 32, SRC, 0 };
		h_emit(&h, ENGINE_BCS, c, 10);
		h_run(&h, ENGINE_BCS);
		CHECK_EQ(h.faults, 0);
		for (uint32_t y = 0; y < 4; y++)
			for (uint32_t x = 0; x < 16; x++) {
				uint32_t old = 0xf0e0d0c0u ^ ((y * 16 + x) << 4), want = old;
				if (y >= 1 && y < 3 && x >= 3 && x < 6) {
					/* source pitch 32 bytes: 8 pixels a row */
					uint32_t si = (y - 1) * 8 + (x - 3 + 1);
					want = rop_by_name(rops[r], 0, 0x01020304u * (si + 1), old);
				}
				CHECK_EQ(h_read32(&h, false, DST + 4 * (y * 16 + x)), want);
			}
		h_fini(&h);
	}
}

/* One surface, rows 0..3 copied one row down: each destination row gets
 * the source row as it was before the blit. */
static void test_copy_overlap(void)
{
	struct harness h;
	h_init(&h, 8, true);
	map(&h, DST, 4096);
	for (uint32_t i = 0; i < 64; i++)
		put32(&h, DST + 4 * i, 0x1000u + i);
	uint32_t c[] = { XY_SRC_COPY_BLT | 3u << 20, 3u << 24 | 0xccu << 16 | 32,
			 1u << 16 | 0, 5u << 16 | 8, DST, 0, 0, 32, DST, 0 };
	h_emit(&h, ENGINE_BCS, c, 10);
	h_run(&h, ENGINE_BCS);
	CHECK_EQ(h.faults, 0);
	for (uint32_t y = 0; y < 6; y++)
		for (uint32_t x = 0; x < 8; x++) {
			uint32_t want = y >= 1 && y < 5 ? 0x1000u + (y - 1) * 8 + x : 0x1000u + y * 8 + x;
			CHECK_EQ(h_read32(&h, false, DST + 32 * y + 4 * x), want);
		}
	h_fini(&h);
}

/* IGT's copy within one object (lib/intel_batchbuffer.c): XY_SRC_COPY_BLT
 * then XY_SETUP_CLIP_BLT with a zero rectangle. The clip command draws
 * nothing and loads the clip rectangle (dwords 1 and 2: X1 15:0, Y1 31:16;
 * X2, Y2); a later command with Clipping Enabled writes only inside it. */
static void test_setup_clip(void)
{
	struct harness h;
	h_init(&h, 8, true);
	map(&h, DST, 4096);
	for (uint32_t i = 0; i < 64; i++)
		put32(&h, DST + 4 * i, 0x2000u + i);
	uint32_t c[] = { XY_SRC_COPY_BLT | 3u << 20, 3u << 24 | 0xccu << 16 | 32,
			 4u << 16 | 0, 5u << 16 | 8, DST, 0, 0, 32, DST, 0,
			 XY_SETUP_CLIP_BLT, 0, 0,
			 XY_SETUP_CLIP_BLT, 3u << 16 | 2, 7u << 16 | 6 };
	h_emit(&h, ENGINE_BCS, c, 16);
	h_run(&h, ENGINE_BCS);
	CHECK_EQ(h.faults, 0);
	for (uint32_t x = 0; x < 8; x++)
		CHECK_EQ(h_read32(&h, false, DST + 32 * 4 + 4 * x), 0x2000u + x);
	CHECK_EQ(h_read32(&h, false, DST + 32 * 5), 0x2000u + 40);
	struct gt_engine *bcs = h.gpu->engines[ENGINE_BCS];
	CHECK_EQ(bcs->blt_clip_top_left, 3u << 16 | 2);
	CHECK_EQ(bcs->blt_clip_bottom_right, 7u << 16 | 6);
	uint32_t fill[] = { XY_COLOR_BLT | 3u << 20, 1u << 30 | 3u << 24 | 0xf0u << 16 | 32,
			    0, 8u << 16 | 8, DST, 0, 0x55 };
	h_emit(&h, ENGINE_BCS, fill, 7);
	h_run(&h, ENGINE_BCS);
	CHECK_EQ(h.faults, 0);
	/* (0,0)-(8,8) clipped to (2,3)-(6,7), X2/Y2 exclusive: 4x4 pixels */
	for (uint32_t y = 0; y < 8; y++)
		for (uint32_t x = 0; x < 8; x++) {
			uint32_t old = h_read32(&h, false, DST + 32 * y + 4 * x);
			bool in = x >= 2 && x < 6 && y >= 3 && y < 7;
			CHECK(in ? old == 0x55 : old != 0x55);
		}
	h_fini(&h);
}

/* Linear to tiled and back: 8bpp, 256 bytes wide (2 Y tiles or half an X
 * tile row... of a 512-byte X pitch), 32 rows. swctrl is BCS_SWCTRL's value
 * (with its enables); tiling what the destination then is. */
static void test_tiled(uint32_t swctrl, enum ref_tiling tiling, bool tiled_source)
{
	uint32_t pitch = tiling == REF_TILE_X ? 512 : 256, rows = 32;
	struct harness h;
	h_init(&h, 8, true);
	map(&h, DST, pitch * rows);
	map(&h, SRC, pitch * rows);
	uint64_t lin = tiled_source ? DST : SRC, til = tiled_source ? SRC : DST;
	for (uint32_t y = 0; y < rows; y++)
		for (uint32_t x = 0; x < pitch; x++) {
			uint8_t v = (uint8_t)(x * 7 + y * 13 + 1);
			if (tiled_source)
				put8(&h, til + ref_tiled_offset(tiling, x, y, pitch), v);
			else
				put8(&h, lin + y * pitch + x, v);
		}
	uint32_t lri[] = { MI_LRI1, BCS_SWCTRL, swctrl };
	h_emit(&h, ENGINE_BCS, lri, 3);
	/* tiled pitches in dwords; the rectangle (8,2)-(200,30) */
	uint32_t dpitch = tiled_source ? pitch : pitch / 4, spitch = tiled_source ? pitch / 4 : pitch;
	uint32_t c[] = { XY_SRC_COPY_BLT | (tiled_source ? 1u << 15 : 1u << 11),
			 0u << 24 | 0xccu << 16 | dpitch, 2u << 16 | 8, 30u << 16 | 200, DST, 0,
			 2u << 16 | 8, spitch, SRC, 0 };
	h_emit(&h, ENGINE_BCS, c, 10);
	h_run(&h, ENGINE_BCS);
	CHECK_EQ(h.faults, 0);
	unsigned bad = 0;
	for (uint32_t y = 2; y < 30; y++)
		for (uint32_t x = 8; x < 200; x++) {
			uint8_t want = (uint8_t)(x * 7 + y * 13 + 1);
			uint64_t a = tiled_source ? lin + y * pitch + x
						  : til + ref_tiled_offset(tiling, x, y, pitch);
			bad += get8(&h, a) != want;
		}
	CHECK_EQ(bad, 0);
	/* nothing outside the rectangle: row 1 of the destination stays 0 */
	uint64_t outside = tiled_source ? lin + pitch + 8 : til + ref_tiled_offset(tiling, 8, 1, pitch);
	CHECK_EQ(get8(&h, outside), 0);
	h_fini(&h);
}

/* Skylake's XY_FAST_COPY_BLT: 64bpp linear to Y-tiled (method 2), 128-byte
 * (32-dword) pitch, (1,0)-(9,8); Tile-Yf and Tile-Ys are faults. */
static void test_fast_copy(void)
{
	struct harness h;
	h_init(&h, 9, true);
	map(&h, DST, 4096);
	map(&h, SRC, 4096);
	for (uint32_t i = 0; i < 1024; i++)
		put32(&h, SRC + 4 * i, 0xc0de0000u + i);
	uint32_t c[] = { XY_FAST_COPY_BLT | 2u << 13, 4u << 24 | 32, 0u << 16 | 1, 8u << 16 | 9,
			 DST, 0, 0u << 16 | 1, 128, SRC, 0 };
	h_emit(&h, ENGINE_BCS, c, 10);
	h_run(&h, ENGINE_BCS);
	CHECK_EQ(h.faults, 0);
	unsigned bad = 0;
	for (uint32_t y = 0; y < 8; y++)
		for (uint32_t x = 1; x < 9; x++)
			for (uint32_t k = 0; k < 2; k++) {
				uint32_t want = 0xc0de0000u + (y * 128 + x * 8) / 4 + k;
				uint64_t a = DST + ref_tile_y_offset(x * 8 + 4 * k, y, 128);
				bad += h_read32(&h, false, a) != want;
			}
	CHECK_EQ(bad, 0);
	CHECK_EQ(h_read32(&h, false, DST + ref_tile_y_offset(0, 0, 128)), 0);
	h_fini(&h);

	static const uint32_t yf_ys[][2] = { { 2u << 13, 1u << 30 }, { 3u << 13, 0 } };
	for (int i = 0; i < 2; i++) {
		h_init(&h, 9, true);
		uint32_t f[] = { XY_FAST_COPY_BLT | yf_ys[i][0], 3u << 24 | yf_ys[i][1] | 32, 0,
				 1u << 16 | 1, DST, 0, 0, 128, SRC, 0 };
		h_emit(&h, ENGINE_BCS, f, 10);
		h_run(&h, ENGINE_BCS);
		CHECK_EQ(h.faults, 1);
		CHECK(strstr(h.fault_reason, "XY_FAST_COPY_BLT") != NULL);
		CHECK(strstr(h.fault_reason, "Tile-Yf or Tile-Ys") != NULL);
		h_fini(&h);
	}
}

/* What gtsim does not model is a fault naming it: a pattern ROP in a copy,
 * a source ROP in a fill, a tiled pitch that is not a multiple
 * of the tile width, an unmapped mono source, a pattern ROP without a
 * pattern, scanlines without a setup, a short inline pattern, bit-packed
 * text, a command gtsim describes by header only. */
static void test_faults(void)
{
	static const struct { uint32_t dw[10]; int n; const char *why; } cases[] = {
		{ { XY_SRC_COPY_BLT, 3u << 24 | 0xf0u << 16 | 64, 0, 1u << 16 | 1, DST, 0, 0, 64, SRC, 0 },
		  10, "reads the pattern" },
		{ { XY_COLOR_BLT, 3u << 24 | 0xccu << 16 | 64, 0, 1u << 16 | 1, DST, 0, 0 }, 7,
		  "reads a source" },
		{ { XY_COLOR_BLT | 1u << 11, 3u << 24 | 0xf0u << 16 | 100, 0, 1u << 16 | 1, DST, 0, 0 },
		  7, "not a positive multiple" },
		/* XY_MONO_SRC_COPY_BLT, its 1 bpp source at an unmapped address */
		{ { 0x55000008u | 3u << 20, 3u << 24 | 0xccu << 16 | 64, 0, 1u << 16 | 8, DST, 0,
		    SRC, 0, 0, 0xffffffffu }, 10, "read of the mono source" },
		/* ... with a ROP reading a pattern it does not have */
		{ { 0x55000008u | 3u << 20, 3u << 24 | 0xf0u << 16 | 64, 0, 1u << 16 | 8, DST, 0,
		    SRC, 0, 0, 0xffffffffu }, 10, "reads the pattern" },
		/* XY_SCANLINES_BLT with no setup loaded */
		{ { 0x49400001u, 0, 1u << 16 | 1 }, 3, "without an XY_SETUP_BLT" },
		/* XY_PAT_BLT_IMMEDIATE, 32bpp, 4 of its 64 pattern dwords */
		{ { 0x5c800008u | 3u << 20, 3u << 24 | 0xf0u << 16 | 64, 0, 1u << 16 | 1, DST, 0,
		    1, 2, 3, 4 }, 10, "dwords of inline pattern" },
		/* XY_TEXT_IMMEDIATE_BLT with bit-packed data (bit 16 clear) */
		{ { 0x4c400001u, 0, 1u << 16 | 8, 0 }, 3, "with bit-packed data" },
		/* XY_FULL_BLT: described by its header only */
		{ { 0x55400008u }, 10, "XY_FULL_BLT 0x55400008 at 0x" },
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct harness h;
		h_init(&h, 8, true);
		map(&h, DST, 4096);
		h_emit(&h, ENGINE_BCS, cases[i].dw, cases[i].n);
		h_run(&h, ENGINE_BCS);
		CHECK_EQ(h.faults, 1);
		if (!strstr(h.fault_reason, cases[i].why))
			printf("case %u: %s\n", i, h.fault_reason);
		CHECK(strstr(h.fault_reason, cases[i].why) != NULL);
		CHECK_EQ(h_read32(&h, false, DST), 0);
		h_fini(&h);
	}
}

/* Every raster operation on 21 bytes (two 8-byte words and a tail), with
 * and without pattern and source, against the ROP3 definition: result bit
 * = bit (pattern << 2 | source << 1 | destination) of the rop. */
static void test_rop_table(void)
{
	uint8_t pat[21], src[21], dst[21], out[21];
	for (unsigned i = 0; i < 21; i++) {
		pat[i] = (uint8_t)(0x5a + 37 * i);
		src[i] = (uint8_t)(0xc3 ^ 91 * i);
		dst[i] = (uint8_t)(0x0f + 113 * i);
	}
	unsigned bad = 0;
	for (unsigned rop = 0; rop < 256; rop++)
		for (unsigned with = 0; with < 4; with++) {
			const uint8_t *p = with & 1 ? pat : NULL, *sr = with & 2 ? src : NULL;
			memcpy(out, dst, sizeof(out));
			blt_rop((uint8_t)rop, p, sr, out, sizeof(out));
			for (unsigned i = 0; i < 21; i++)
				for (unsigned b = 0; b < 8; b++) {
					unsigned pb = p ? p[i] >> b & 1 : 0, sb = sr ? sr[i] >> b & 1 : 0;
					unsigned db = dst[i] >> b & 1;
					unsigned want = rop >> (pb << 2 | sb << 1 | db) & 1;
					bad += (unsigned)(out[i] >> b & 1) != want;
				}
		}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	test_rop_table();
	test_color();
	test_copy_rops();
	test_copy_overlap();
	test_setup_clip();
	test_tiled(0x00030000, REF_TILE_X, false);  /* both X */
	test_tiled(0x00030002, REF_TILE_Y, false);  /* Y destination */
	test_tiled(0x00030001, REF_TILE_Y, true);   /* Y source */
	test_tiled(0x00030002, REF_TILE_X, true);   /* X source (Y only for the destination) */
	test_fast_copy();
	test_faults();
	return test_exit();
}
