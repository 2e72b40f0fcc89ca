/* The blitter's pattern, mono and setup commands through execbuf on the
 * blitter (BCS), on Broadwell and Skylake, each destination compared
 * byte for byte with a CPU computation written here:
 *  - the raster operation as the PRM defines the ROP3: result bit =
 *    bit (P << 2 | S << 1 | D) of the ROP, per bit of the pattern, source
 *    and destination pixels;
 *  - an 8x8 pattern aligned to the surface, destination pixel (x, y)
 *    taking ((x + horizontal seed) & 7, (y + vertical seed) & 7);
 *  - 1 bpp data (mono pattern: byte r row r, bit 7 column 0; mono source:
 *    rows padded to 16 bits, Source Pixel Offset bits skipped, the most
 *    significant bit first), 1 the foreground colour, 0 the background or,
 *    transparent, the destination unchanged;
 *  - clipping to [X1, X2) x [Y1, Y2) of the clip rectangle, the 32bpp byte
 *    mask, 8/16/32 bpp;
 *  - glyphs (XY_TEXT_IMMEDIATE_BLT): byte-packed rows with the setup's
 *    colours;
 *  - X and Y tiled destinations at the addresses of tests/tiling_ref.h
 *    (the PRM's tiling, written for the tests), Y chosen by BCS_SWCTRL.
 * Command layouts: BDW PRM vol. 2a (Gen8: 64-bit addresses), as
 * xf86-video-intel's SNA emits them. Also: the `blt` trace names each
 * command. */
#include "integration/kernel/eb_test.h"
#include "tiling_ref.h"
#include "trace_capture.h"

#define DST 0x100000ull
#define PAT 0x200000ull
#define SRC 0x300000ull
#define BB 0x400000ull
#define DST_SIZE 65536u
#define BB_SIZE 65536u

#define BR00(op) (2u << 29 | (uint32_t)(op) << 22)
#define OP_SETUP 0x01
#define OP_SETUP_CLIP 0x03
#define OP_SETUP_MONO_PATTERN_SL 0x11
#define OP_PIXEL 0x24
#define OP_SCANLINES 0x25
#define OP_PAT 0x51
#define OP_MONO_PAT 0x52
#define OP_MONO_SRC 0x54
#define OP_FULL_MONO_PATTERN_MONO_SRC 0x58
#define OP_MONO_SRC_IMM 0x71
#define OP_PAT_IMM 0x72
#define OP_TEXT_IMM 0x31
#define BCS_SWCTRL 0x22200u

enum { P_NONE, P_SOLID, P_COLOR, P_MONO };

/* One blit as the reference computes it. */
struct blit {
	uint32_t cpp, pitch;            /* destination, pitch in bytes */
	enum ref_tiling tiling;
	int x1, y1, x2, y2;
	bool clip;
	int cx1, cy1, cx2, cy2;
	uint8_t rop;
	uint32_t mask;                  /* 32bpp byte mask */
	int pat;
	uint32_t solid;
	const uint8_t *pixels;          /* P_COLOR: 64 pixels */
	uint64_t mono;                  /* P_MONO */
	uint32_t pfg, pbg;
	bool ptrans;
	unsigned sx, sy;
	bool src;                       /* a mono source */
	const uint8_t *bits;
	uint32_t stride, off, sfg, sbg;
	bool strans;
};

static uint64_t pixel_offset(const struct blit *b, int x, int y)
{
	return ref_tiled_offset(b->tiling, (uint64_t)x * b->cpp, (uint64_t)y, b->pitch);
}

static void colour(uint32_t c, uint32_t cpp, uint8_t *out)
{
	for (uint32_t k = 0; k < cpp; k++)
		out[k] = (uint8_t)(c >> (8 * k));
}

static uint8_t rop3(uint8_t rop, uint8_t p, uint8_t s, uint8_t d)
{
	uint8_t r = 0;
	for (unsigned j = 0; j < 8; j++) {
		unsigned idx = (p >> j & 1u) << 2 | (s >> j & 1u) << 1 | (d >> j & 1u);
		r |= (uint8_t)((rop >> idx & 1u) << j);
	}
	return r;
}

static void ref_blit(const struct blit *b, uint8_t *mem)
{
	for (int y = b->y1; y < b->y2; y++)
		for (int x = b->x1; x < b->x2; x++) {
			if (b->clip && (x < b->cx1 || x >= b->cx2 || y < b->cy1 || y >= b->cy2))
				continue;
			uint8_t p[4] = { 0 }, s[4] = { 0 };
			bool keep = false;
			unsigned px = (unsigned)(x + (int)b->sx) & 7, py = (unsigned)(y + (int)b->sy) & 7;
			if (b->pat == P_SOLID)
				colour(b->solid, b->cpp, p);
			else if (b->pat == P_COLOR)
				memcpy(p, b->pixels + (py * 8 + px) * b->cpp, b->cpp);
			else if (b->pat == P_MONO) {
				unsigned bit = (unsigned)(b->mono >> (8 * py + 7 - px)) & 1;
				colour(bit ? b->pfg : b->pbg, b->cpp, p);
				keep |= !bit && b->ptrans;
			}
			if (b->src) {
				uint32_t i = b->off + (uint32_t)(x - b->x1);
				unsigned bit = b->bits[(uint32_t)(y - b->y1) * b->stride + i / 8] >>
					       (7 - i % 8) & 1;
				colour(bit ? b->sfg : b->sbg, b->cpp, s);
				keep |= !bit && b->strans;
			}
			if (keep)
				continue;
			uint8_t *d = mem + pixel_offset(b, x, y);
			for (uint32_t k = 0; k < b->cpp; k++) {
				if (b->cpp == 4 && !(b->mask & (k == 3 ? 2u : 1u)))
					continue;
				d[k] = rop3(b->rop, p[k], s[k], d[k]);
			}
		}
}

static struct gtsim_file *f;
static uint32_t dst_bo, pat_bo, src_bo, bb_bo;
static uint8_t before[DST_SIZE], want[DST_SIZE], got[DST_SIZE];
static uint32_t seed = 12345;

static uint32_t rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8 ^ seed << 13;
}

/* Fills the destination with noise (and the reference's copy). */
static void fresh_dst(void)
{
	for (uint32_t i = 0; i < DST_SIZE; i++)
		before[i] = (uint8_t)rnd();
	eb_write(f, dst_bo, 0, before, DST_SIZE);
	memcpy(want, before, DST_SIZE);
}

static uint32_t depth(uint32_t cpp)
{
	return cpp == 1 ? 0 : cpp == 2 ? 1 : 3;
}

/* BR13: clip, depth, ROP, pitch (dwords when tiled). */
static uint32_t br13(const struct blit *b)
{
	uint32_t pitch = b->tiling == REF_LINEAR ? b->pitch : b->pitch / 4;
	return (uint32_t)b->clip << 30 | depth(b->cpp) << 24 | (uint32_t)b->rop << 16 | pitch;
}

static uint32_t br00(const struct blit *b, unsigned op)
{
	return BR00(op) | (b->cpp == 4 ? b->mask : 3u) << 20 |
	       (uint32_t)(b->tiling != REF_LINEAR) << 11;
}

static uint32_t seeds(const struct blit *b)
{
	return b->sx << 12 | b->sy << 8;
}

/* Starts a batch: BCS_SWCTRL for the destination's tiling, and the clip
 * rectangle when the blit clips. */
static unsigned begin(uint32_t *dw, const struct blit *b)
{
	unsigned n = emit_lri(dw, BCS_SWCTRL,
			      3u << 16 | (b->tiling == REF_TILE_Y ? 2u : 0u));
	if (b->clip) {
		dw[n++] = BR00(OP_SETUP_CLIP) | 1;
		dw[n++] = (uint32_t)b->cy1 << 16 | (uint32_t)b->cx1;
		dw[n++] = (uint32_t)b->cy2 << 16 | (uint32_t)b->cx2;
	}
	return n;
}

static unsigned rect(uint32_t *dw, const struct blit *b)
{
	dw[0] = (uint32_t)b->y1 << 16 | (uint32_t)b->x1;
	dw[1] = (uint32_t)b->y2 << 16 | (uint32_t)b->x2;
	dw[2] = (uint32_t)DST;
	dw[3] = (uint32_t)(DST >> 32);
	return 4;
}

static void addr(uint32_t *dw, uint64_t a)
{
	dw[0] = (uint32_t)a;
	dw[1] = (uint32_t)(a >> 32);
}

/* Runs the batch dw[0..n) (MI_BATCH_BUFFER_END added) on the blitter and
 * compares the destination with want; what names the case. */
static void run_and_check(uint32_t *dw, unsigned n, const char *what)
{
	dw[n++] = MI_BATCH_BUFFER_END;
	if (n & 1)
		dw[n++] = MI_NOOP;
	eb_write(f, bb_bo, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 o[4] = {
		{ .handle = dst_bo, .offset = DST, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = pat_bo, .offset = PAT, .flags = EXEC_OBJECT_PINNED },
		{ .handle = src_bo, .offset = SRC, .flags = EXEC_OBJECT_PINNED },
		{ .handle = bb_bo, .offset = BB, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, o, 4, I915_EXEC_BLT, 0), 0);
	CHECK_EQ(eb_wait(f, dst_bo, 5ll * 1000000000), 0);
	eb_read(f, dst_bo, 0, got, DST_SIZE);
	unsigned bad = 0;
	for (uint32_t i = 0; i < DST_SIZE; i++)
		if (got[i] != want[i] && bad++ < 4)
			printf("%s: byte 0x%x is 0x%02x, want 0x%02x (was 0x%02x)\n", what, i, got[i],
			       want[i], before[i]);
	CHECK_EQ(bad, 0);
}

static const struct { uint32_t cpp; enum ref_tiling t; } layouts[] = {
	{ 1, REF_LINEAR }, { 2, REF_TILE_X }, { 4, REF_TILE_Y }, { 4, REF_LINEAR },
	{ 2, REF_LINEAR }, { 1, REF_TILE_Y }, { 4, REF_TILE_X },
};

/* A destination of layout i: 512-byte pitch (a multiple of both tile
 * widths), a rectangle not aligned to the pattern or to tiles. */
static struct blit base_blit(unsigned i, uint8_t rop, bool clip)
{
	struct blit b = {
		.cpp = layouts[i].cpp, .pitch = 512, .tiling = layouts[i].t,
		.x1 = 5, .y1 = 3, .x2 = 5 + 37, .y2 = 3 + 21,
		.clip = clip, .cx1 = 9, .cy1 = 6, .cx2 = 30, .cy2 = 19,
		.rop = rop, .mask = 1 + i % 3,
		.sx = i % 8, .sy = (3 * i + 1) % 8,
	};
	return b;
}

static uint8_t pattern_pixels[256];

/* XY_PAT_BLT (pattern in memory) and XY_PAT_BLT_IMMEDIATE. */
static void test_pat(void)
{
	static const uint8_t rops[] = { 0xf0, 0x5a, 0x0f, 0xa0, 0xfa };
	for (unsigned i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		for (unsigned imm = 0; imm < 2; imm++) {
			struct blit b = base_blit(i, rops[(i + imm) % 5], (i + imm) & 1);
			b.pat = P_COLOR;
			b.pixels = pattern_pixels;
			fresh_dst();
			ref_blit(&b, want);
			uint32_t dw[128];
			unsigned n = begin(dw, &b);
			if (!imm) {
				dw[n++] = br00(&b, OP_PAT) | seeds(&b) | 6;
				dw[n++] = br13(&b);
				n += rect(dw + n, &b);
				addr(dw + n, PAT);
				n += 2;
			} else {
				uint32_t data = 16 * b.cpp;
				dw[n++] = br00(&b, OP_PAT_IMM) | seeds(&b) | (4 + data);
				dw[n++] = br13(&b);
				n += rect(dw + n, &b);
				memcpy(dw + n, pattern_pixels, data * 4);
				n += data;
			}
			run_and_check(dw, n, imm ? "XY_PAT_BLT_IMMEDIATE" : "XY_PAT_BLT");
		}
}

/* XY_MONO_PAT_BLT, opaque and transparent. */
static void test_mono_pat(void)
{
	for (unsigned i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		for (unsigned trans = 0; trans < 2; trans++) {
			struct blit b = base_blit(i, trans ? 0xf0 : 0x5a, i & 1);
			b.pat = P_MONO;
			b.mono = 0x81c3e7ff5a3c1866ull ^ (uint64_t)i << 13;
			b.pfg = 0xc0ffee11 + i;
			b.pbg = 0x12345678 ^ i;
			b.ptrans = trans;
			fresh_dst();
			ref_blit(&b, want);
			uint32_t dw[64];
			unsigned n = begin(dw, &b);
			dw[n++] = br00(&b, OP_MONO_PAT) | seeds(&b) | 8;
			dw[n++] = br13(&b) | (uint32_t)trans << 28;
			n += rect(dw + n, &b);
			dw[n++] = b.pbg;
			dw[n++] = b.pfg;
			addr(dw + n, b.mono);
			n += 2;
			run_and_check(dw, n, "XY_MONO_PAT_BLT");
		}
}

/* A mono source for b in bits (rows padded to 16 bits). */
static void mono_source(struct blit *b, uint8_t *bits, size_t size, uint32_t off)
{
	b->src = true;
	b->off = off;
	b->stride = ((off + (uint32_t)(b->x2 - b->x1) + 7) / 8 + 1) & ~1u;
	for (size_t k = 0; k < size; k++)
		bits[k] = (uint8_t)rnd();
	b->bits = bits;
}

/* XY_MONO_SRC_COPY_BLT (source in memory) and its immediate form. */
static void test_mono_src(void)
{
	static const uint8_t rops[] = { 0xcc, 0x66, 0x33, 0x88, 0xee };
	static uint8_t bits[4096];
	for (unsigned i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		for (unsigned imm = 0; imm < 2; imm++) {
			struct blit b = base_blit(i, rops[(i + imm) % 5], (i + imm) & 1);
			mono_source(&b, bits, sizeof(bits), (i * 3 + imm) % 8);
			b.sfg = 0xa5a5f00f ^ i;
			b.sbg = 0x0ff05a5a + i;
			b.strans = (i + imm) % 3 == 0;
			fresh_dst();
			ref_blit(&b, want);
			static uint32_t dw[1024];
			unsigned n = begin(dw, &b);
			uint32_t hdr = br00(&b, imm ? OP_MONO_SRC_IMM : OP_MONO_SRC) | b.off << 17;
			uint32_t bytes = b.stride * (uint32_t)(b.y2 - b.y1);
			if (!imm) {
				eb_write(f, src_bo, 0, bits, bytes);
				dw[n++] = hdr | 8;
				dw[n++] = br13(&b) | (uint32_t)b.strans << 29;
				n += rect(dw + n, &b);
				addr(dw + n, SRC);
				n += 2;
				dw[n++] = b.sbg;
				dw[n++] = b.sfg;
			} else {
				uint32_t data = ((bytes + 7) & ~7u) / 4;   /* qword padded */
				dw[n++] = hdr | (6 + data);
				dw[n++] = br13(&b) | (uint32_t)b.strans << 29;
				n += rect(dw + n, &b);
				dw[n++] = b.sbg;
				dw[n++] = b.sfg;
				memset(dw + n, 0, data * 4);
				memcpy(dw + n, bits, bytes);
				n += data;
			}
			run_and_check(dw, n, imm ? "XY_MONO_SRC_COPY_IMMEDIATE_BLT"
						 : "XY_MONO_SRC_COPY_BLT");
		}
}

/* XY_SETUP_BLT (colour pattern) or XY_SETUP_MONO_PATTERN_SL_BLT (mono or
 * solid pattern), then XY_SCANLINES_BLT runs and XY_PIXEL_BLT pixels with
 * the setup's state; clip from the setup command's own rectangle. */
static void test_setup(void)
{
	static const uint8_t rops[] = { 0xf0, 0x5a, 0x55, 0xa5, 0xff, 0x00 };
	for (unsigned i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		for (unsigned kind = 0; kind < 3; kind++) {
			struct blit b = base_blit(i, rops[(i + kind) % 6], (i + kind) & 1);
			b.pat = kind == 0 ? P_COLOR : kind == 1 ? P_MONO : P_SOLID;
			b.pixels = pattern_pixels;
			b.mono = 0x0123456789abcdefull * (i + 1);
			b.pfg = 0x3c5a96e1 ^ i;
			b.pbg = 0x11223344 + i;
			b.ptrans = kind == 1 && (i & 1);
			b.solid = b.pfg;
			fresh_dst();
			uint32_t dw[128];
			unsigned n = emit_lri(dw, BCS_SWCTRL,
					      3u << 16 | (b.tiling == REF_TILE_Y ? 2u : 0u));
			uint32_t tiled = (uint32_t)(b.tiling != REF_LINEAR) << 11;
			if (kind == 0) {
				dw[n++] = br00(&b, OP_SETUP) | 8;
				dw[n++] = br13(&b);
			} else {
				dw[n++] = br00(&b, OP_SETUP_MONO_PATTERN_SL) | 8;
				dw[n++] = br13(&b) | (uint32_t)(kind == 2) << 31 |
					  (uint32_t)b.ptrans << 28;
			}
			dw[n++] = (uint32_t)b.cy1 << 16 | (uint32_t)b.cx1;
			dw[n++] = (uint32_t)b.cy2 << 16 | (uint32_t)b.cx2;
			addr(dw + n, DST);
			n += 2;
			dw[n++] = b.pbg;
			dw[n++] = b.pfg;
			addr(dw + n, kind == 0 ? PAT : b.mono);
			n += 2;
			/* three scanline runs with their own seeds */
			for (unsigned s = 0; s < 3; s++) {
				struct blit r = b;
				r.x1 = 2 + 11 * (int)s;
				r.x2 = r.x1 + 19;
				r.y1 = 2 + 7 * (int)s;
				r.y2 = r.y1 + 1 + (int)s * 3;
				r.sx = (b.sx + s) % 8;
				r.sy = (b.sy + 5 * s) % 8;
				ref_blit(&r, want);
				dw[n++] = BR00(OP_SCANLINES) | tiled | seeds(&r) | 1;
				dw[n++] = (uint32_t)r.y1 << 16 | (uint32_t)r.x1;
				dw[n++] = (uint32_t)r.y2 << 16 | (uint32_t)r.x2;
			}
			/* pixels inside and outside the clip rectangle */
			static const int pts[][2] = { { 10, 7 }, { 29, 18 }, { 3, 3 }, { 30, 19 },
						      { 20, 25 } };
			for (unsigned p = 0; p < 5; p++) {
				struct blit r = b;
				r.x1 = pts[p][0];
				r.y1 = pts[p][1];
				r.x2 = r.x1 + 1;
				r.y2 = r.y1 + 1;
				r.sx = r.sy = 0;
				ref_blit(&r, want);
				dw[n++] = BR00(OP_PIXEL) | tiled;
				dw[n++] = (uint32_t)r.y1 << 16 | (uint32_t)r.x1;
			}
			run_and_check(dw, n, kind == 0 ? "XY_SETUP_BLT + XY_SCANLINES_BLT"
						       : "XY_SETUP_MONO_PATTERN_SL_BLT + XY_SCANLINES_BLT");
		}
}

/* XY_FULL_MONO_PATTERN_MONO_SRC_BLT with every one of the 256 ROPs: ROP r
 * draws row r of a 32bpp linear destination (64-byte pitch) from a mono
 * source and a mono pattern, every operand in play; then each layout with
 * a solid pattern and clipping. */
static void test_full_every_rop(void)
{
	static uint8_t bits[64];
	static uint32_t dw[256 * 14 + 16];
	struct blit b = { .cpp = 4, .pitch = 64, .tiling = REF_LINEAR, .mask = 3,
			  .pat = P_MONO, .mono = 0xf00fcc33aa5569c3ull, .pfg = 0xff00f0cc,
			  .pbg = 0x0f33aa55, .sfg = 0xf0f0cc33, .sbg = 0x3c3c55aa, .src = true,
			  .sx = 3, .sy = 6 };
	for (unsigned k = 0; k < sizeof(bits); k++)
		bits[k] = (uint8_t)rnd();
	eb_write(f, src_bo, 0, bits, sizeof(bits));
	b.bits = bits;
	b.stride = 4;        /* 16 pixels after 5 bits: 3 bytes, padded to 4 */
	b.off = 5;
	fresh_dst();
	unsigned n = begin(dw, &b);
	for (unsigned rop = 0; rop < 256; rop++) {
		b.rop = (uint8_t)rop;
		b.x1 = 0;
		b.x2 = 16;
		b.y1 = (int)rop;
		b.y2 = (int)rop + 1;
		ref_blit(&b, want);
		dw[n++] = br00(&b, OP_FULL_MONO_PATTERN_MONO_SRC) | seeds(&b) | b.off << 17 | 12;
		dw[n++] = br13(&b);
		n += rect(dw + n, &b);
		addr(dw + n, SRC);
		n += 2;
		dw[n++] = b.sbg;
		dw[n++] = b.sfg;
		dw[n++] = b.pbg;
		dw[n++] = b.pfg;
		addr(dw + n, b.mono);
		n += 2;
	}
	run_and_check(dw, n, "XY_FULL_MONO_PATTERN_MONO_SRC_BLT, 256 ROPs");

	static uint8_t sbits[4096];
	for (unsigned i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		struct blit c = base_blit(i, 0xce, true);   /* S | (D & ~P), as SNA uses it */
		mono_source(&c, sbits, sizeof(sbits), i % 8);
		c.pat = P_SOLID;
		c.solid = c.pfg = 0x5b6c7d8e ^ i;
		c.sfg = 0x99aabbcc;
		c.sbg = 0;
		c.strans = i & 1;
		eb_write(f, src_bo, 0, sbits, c.stride * (uint32_t)(c.y2 - c.y1));
		fresh_dst();
		ref_blit(&c, want);
		n = begin(dw, &c);
		dw[n++] = br00(&c, OP_FULL_MONO_PATTERN_MONO_SRC) | c.off << 17 | 12;
		dw[n++] = br13(&c) | 1u << 31 | (uint32_t)c.strans << 29;
		n += rect(dw + n, &c);
		addr(dw + n, SRC);
		n += 2;
		dw[n++] = c.sbg;
		dw[n++] = c.sfg;
		dw[n++] = 0xdeadbeef;   /* pattern background: unused with a solid pattern */
		dw[n++] = c.pfg;
		dw[n++] = 0;
		dw[n++] = 0;
		run_and_check(dw, n, "XY_FULL_MONO_PATTERN_MONO_SRC_BLT, solid pattern");
	}
}

/* XY_SETUP_BLT, then glyphs by XY_TEXT_IMMEDIATE_BLT (byte packed, bit 16:
 * rows of ceil(w / 8) bytes, the data qword padded) with the setup's
 * colours, transparency, ROP and clip rectangle. */
static void test_text(void)
{
	static const uint8_t rops[] = { 0xcc, 0x66, 0x33, 0xee };
	static uint8_t bits[512];
	for (unsigned i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		struct blit b = base_blit(i, rops[i % 4], i & 1);
		b.sfg = 0x76543210 ^ i;
		b.sbg = 0x0a0b0c0d + i;
		b.strans = i % 3 != 1;
		fresh_dst();
		uint32_t dw[256];
		unsigned n = emit_lri(dw, BCS_SWCTRL, 3u << 16 | (b.tiling == REF_TILE_Y ? 2u : 0u));
		dw[n++] = br00(&b, OP_SETUP) | 8;
		dw[n++] = br13(&b) | (uint32_t)b.strans << 29;
		dw[n++] = (uint32_t)b.cy1 << 16 | (uint32_t)b.cx1;
		dw[n++] = (uint32_t)b.cy2 << 16 | (uint32_t)b.cx2;
		addr(dw + n, DST);
		n += 2;
		dw[n++] = b.sbg;
		dw[n++] = b.sfg;
		addr(dw + n, 0);
		n += 2;
		static const int glyphs[][4] = { { 4, 4, 7, 9 }, { 12, 8, 13, 11 }, { 26, 15, 9, 6 } };
		for (unsigned g = 0; g < 3; g++) {
			struct blit r = b;
			r.x1 = glyphs[g][0];
			r.y1 = glyphs[g][1];
			r.x2 = r.x1 + glyphs[g][2];
			r.y2 = r.y1 + glyphs[g][3];
			r.src = true;
			r.off = 0;
			r.stride = (uint32_t)(glyphs[g][2] + 7) / 8;
			uint32_t bytes = r.stride * (uint32_t)glyphs[g][3];
			for (uint32_t k = 0; k < bytes; k++)
				bits[k] = (uint8_t)rnd();
			r.bits = bits;
			ref_blit(&r, want);
			uint32_t data = ((bytes + 7) & ~7u) / 4;
			dw[n++] = BR00(OP_TEXT_IMM) | 1u << 16 | (uint32_t)(b.tiling != REF_LINEAR) << 11 |
				  (1 + data);
			dw[n++] = (uint32_t)r.y1 << 16 | (uint32_t)r.x1;
			dw[n++] = (uint32_t)r.y2 << 16 | (uint32_t)r.x2;
			memset(dw + n, 0, data * 4);
			memcpy(dw + n, bits, bytes);
			n += data;
		}
		run_and_check(dw, n, "XY_SETUP_BLT + XY_TEXT_IMMEDIATE_BLT");
	}
}

static void run_device(const char *device)
{
	struct gtsim_config cfg = { .device = device, .sync = 1, .hangcheck_ms = 5000 };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	if (!dev)
		test_skip("gtsim_device_create failed");
	f = gtsim_open(dev);
	dst_bo = eb_create(f, DST_SIZE);
	pat_bo = eb_create(f, 4096);
	src_bo = eb_create(f, 4096);
	bb_bo = eb_create(f, BB_SIZE);
	for (unsigned k = 0; k < sizeof(pattern_pixels); k++)
		pattern_pixels[k] = (uint8_t)rnd();
	eb_write(f, pat_bo, 0, pattern_pixels, sizeof(pattern_pixels));
	test_pat();
	test_mono_pat();
	test_mono_src();
	test_setup();
	test_text();
	test_full_every_rop();
	gtsim_close(f);
	gtsim_device_destroy(dev);
}

int main(void)
{
	char path[] = "/tmp/gtsim-blt-trace-XXXXXX";
	CHECK_EQ(trace_capture_start(path, "blt"), 0);
	run_device("bdw");
	run_device("skl");
	static char text[1 << 20];
	const char *t = trace_capture_read(path, text, sizeof(text));
	CHECK(t != NULL);
	static const char *names[] = {
		"XY_PAT_BLT 37x21 at (5,3)", "XY_PAT_BLT_IMMEDIATE", "XY_MONO_PAT_BLT",
		"mono pattern, transparent", "XY_MONO_SRC_COPY_BLT", "from a mono source",
		"XY_MONO_SRC_COPY_IMMEDIATE_BLT", "XY_SETUP_BLT, clip (9,6)-(30,19)",
		"XY_SETUP_MONO_PATTERN_SL_BLT", "XY_SCANLINES_BLT", "XY_PIXEL_BLT", "XY_TEXT_IMMEDIATE_BLT",
		"XY_FULL_MONO_PATTERN_MONO_SRC_BLT", "rop 0xce", "8x8 pattern", "clipped",
		"pitch 512 Y, 4 bytes per pixel",
	};
	for (unsigned i = 0; t && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strstr(t, names[i])) {
			printf("trace lacks \"%s\" in:\n%.600s\n", names[i], t);
			CHECK(0);
		}
	return test_exit();
}
