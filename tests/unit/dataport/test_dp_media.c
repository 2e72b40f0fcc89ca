/* Media block write and read (data cache 1 types 10 and 4) against
 * hand-computed surface bytes: the rows of a block at their register pitch
 * (16-byte rows two to a register, 3-byte rows at a 4-byte pitch), the
 * linear address y * pitch + x, the surface's Width in DWords (an R8
 * surface of Width 16 is 64 bytes wide, as IGT and Intel's VA driver bind
 * media surfaces), a Y-tiled surface (the PRM's Y-major tile
 * formula written below: 128-byte x 32-row tiles of 16-byte columns), a
 * block partly out of bounds (writes drop the bytes past Width x cpp and
 * Height even where the pitch has room; reads return the nearest pixel,
 * the byte within it kept), and the faults: no header, lengths, field
 * access, a buffer. */
#include "dp_fixture.h"

#define R8_UNORM 0x140
#define MB_READ 4
#define MB_WRITE 10

/* Header: X offset (bytes), Y offset (rows), M0.2 = (height - 1) << 16 |
 * (width - 1). */
static void header(struct fixture *f, int32_t x, int32_t y, unsigned w, unsigned h)
{
	for (unsigned i = 0; i < 8; i++)
		fx_set(f, FX_PAYLOAD, i, 0);
	fx_set(f, FX_PAYLOAD, 0, (uint32_t)x);
	fx_set(f, FX_PAYLOAD, 1, (uint32_t)y);
	fx_set(f, FX_PAYLOAD, 2, (h - 1) << 16 | (w - 1));
}

/* Byte b of the payload's data (after the header). */
static void set_byte(struct fixture *f, unsigned b, uint8_t v)
{
	eu_grf(f->t, FX_PAYLOAD + 1 + b / 32)[b % 32] = v;
}

static uint8_t resp_byte(struct fixture *f, unsigned b)
{
	return eu_grf(f->t, FX_RESP + b / 32)[b % 32];
}

static uint8_t *mem(struct fixture *f, uint32_t addr)
{
	return f->mem + addr;
}

/* IGT's media_fill block: 16 x 16 bytes of an R8 surface of Width 16
 * (DWords: 64 bytes) x 64 rows, pitch 64 (8 data registers, two rows
 * each), at x = 32..47: past 16 pixels, inside 16 DWords. */
static void test_linear_write(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	struct fx_surf s = { .type = 1, .format = R8_UNORM, .width = 16, .height = 64,
			     .pitch = 64, .base = FX_DATA };
	fx_surface(&f, 0, &s);
	memset(mem(&f, FX_DATA), 0xee, 64 * 64);
	header(&f, 32, 32, 16, 16);
	for (unsigned b = 0; b < 256; b++)
		set_byte(&f, b, (uint8_t)b);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_WRITE, 0, 0), 8, 9, 0, true, 0xff), 0);
	for (unsigned y = 0; y < 64; y++)
		for (unsigned x = 0; x < 64; x++) {
			bool in = x >= 32 && x < 48 && y >= 32 && y < 48;
			uint8_t want = in ? (uint8_t)((y - 32) * 16 + (x - 32)) : 0xee;
			CHECK_EQ(mem(&f, FX_DATA)[y * 64 + x], want);
		}
	/* 3-byte rows sit at a 4-byte register pitch: 5 rows = 20 bytes, one
	 * register; byte 3 of each 4 is padding that is not written */
	header(&f, 1, 2, 3, 5);
	for (unsigned b = 0; b < 32; b++)
		set_byte(&f, b, (uint8_t)(0x80 + b));
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_WRITE, 0, 0), 8, 2, 0, true, 0xff), 0);
	for (unsigned r = 0; r < 5; r++) {
		CHECK_EQ(mem(&f, FX_DATA)[(2 + r) * 64 + 0], 0xee);
		for (unsigned b = 0; b < 3; b++)
			CHECK_EQ(mem(&f, FX_DATA)[(2 + r) * 64 + 1 + b], 0x80 + r * 4 + b);
		CHECK_EQ(mem(&f, FX_DATA)[(2 + r) * 64 + 4], 0xee);
	}
	/* IGT's gpgpu_fill: a 16 x 1 block sent with 2 data registers (a
	 * SIMD16 mov of the colour): the first 16 bytes land, nothing else */
	header(&f, 16, 60, 16, 1);
	for (unsigned b = 0; b < 64; b++)
		set_byte(&f, b, 0x4c);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_WRITE, 0, 0), 8, 3, 0, true, 0xff), 0);
	for (unsigned x = 0; x < 64; x++) {
		CHECK_EQ(mem(&f, FX_DATA)[60 * 64 + x], x >= 16 && x < 32 ? 0x4c : 0xee);
		CHECK_EQ(mem(&f, FX_DATA)[61 * 64 + x], 0xee);
	}
	/* and read back: the padding byte of each row reads 0 */
	header(&f, 1, 2, 3, 5);
	fx_fill_resp(&f, 1, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_READ, 0, 0), 8, 1, 1, true, 0xff), 0);
	for (unsigned b = 0; b < 20; b++)
		CHECK_EQ(resp_byte(&f, b), b % 4 == 3 ? 0 : 0x80 + b);
	fx_fini(&f);
}

/* Partly outside: an R8 surface 6 DWords (24 bytes) wide in a 64-byte
 * pitch, 6 rows.
 * A 16 x 4 block at (16, 4): bytes 16..23 of rows 4 and 5 land, the rest
 * (x 24..31: inside the pitch, outside the surface; rows 6, 7) is dropped. */
static void test_write_out_of_bounds(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	struct fx_surf s = { .type = 1, .format = R8_UNORM, .width = 6, .height = 6,
			     .pitch = 64, .base = FX_DATA };
	fx_surface(&f, 0, &s);
	memset(mem(&f, FX_DATA), 0xee, 64 * 10);
	header(&f, 16, 4, 16, 4);
	for (unsigned b = 0; b < 64; b++)
		set_byte(&f, b, (uint8_t)(b + 1));
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_WRITE, 0, 0), 8, 3, 0, true, 0xff), 0);
	for (unsigned y = 0; y < 10; y++)
		for (unsigned x = 0; x < 64; x++) {
			bool in = x >= 16 && x < 24 && y >= 4 && y < 6;
			uint8_t want = in ? (uint8_t)((y - 4) * 16 + (x - 16) + 1) : 0xee;
			CHECK_EQ(mem(&f, FX_DATA)[y * 64 + x], want);
		}
	/* a negative offset: (-4, -1), 8 x 2: only row 0, bytes 0..3 */
	memset(mem(&f, FX_DATA), 0xee, 64 * 10);
	header(&f, -4, -1, 8, 2);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_WRITE, 0, 0), 8, 2, 0, true, 0xff), 0);
	for (unsigned x = 0; x < 64; x++)
		CHECK_EQ(mem(&f, FX_DATA)[x], x < 4 ? 8 + 4 + x + 1 : 0xee);
	fx_fini(&f);
}

/* Reads outside return the nearest pixel: an R32_UINT surface of 4 x 3
 * pixels (16 bytes a row, pitch 32) holding byte (y << 4 | byte of row). */
static void test_read_clamp(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	struct fx_surf s = { .type = 1, .format = FX_R32_UINT, .width = 4, .height = 3,
			     .pitch = 32, .base = FX_DATA };
	fx_surface(&f, 0, &s);
	for (unsigned y = 0; y < 3; y++)
		for (unsigned x = 0; x < 32; x++)
			mem(&f, FX_DATA)[y * 32 + x] = (uint8_t)(y << 4 | (x & 15));
	/* 16 x 4 at (-4, 1): rows 1, 2, 2, 2; bytes -4..-1 are pixel 0 */
	header(&f, -4, 1, 16, 4);
	fx_fill_resp(&f, 2, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_READ, 0, 0), 8, 1, 2, true, 0xff), 0);
	for (unsigned r = 0; r < 4; r++) {
		unsigned y = r + 1 > 2 ? 2 : r + 1;
		for (unsigned b = 0; b < 16; b++) {
			unsigned x = b < 4 ? b : b - 4;     /* pixel -1 -> 0 */
			CHECK_EQ(resp_byte(&f, r * 16 + b), (uint8_t)(y << 4 | x));
		}
	}
	/* 8 x 1 at (14, -3): bytes 14, 15 are pixel 3's bytes 2, 3; 16..21 are
	 * pixels 4 and 5, clamped to pixel 3: its bytes 0, 1, 2, 3, 0, 1; row
	 * -3 is row 0 */
	header(&f, 14, -3, 8, 1);
	fx_fill_resp(&f, 1, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_READ, 0, 0), 8, 1, 1, true, 0xff), 0);
	static const uint8_t want[8] = { 14, 15, 12, 13, 14, 15, 12, 13 };
	for (unsigned b = 0; b < 8; b++)
		CHECK_EQ(resp_byte(&f, b), want[b]);
	/* R8, Width 1 DWord: 4 bytes; 8 bytes at (2, 0): bytes 2, 3, then
	 * byte 3 (the last pixel) again */
	struct fx_surf s8 = { .type = 1, .format = R8_UNORM, .width = 1, .height = 3,
			      .pitch = 32, .base = FX_DATA };
	fx_surface(&f, 1, &s8);
	header(&f, 2, 0, 8, 1);
	fx_fill_resp(&f, 1, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_READ, 0, 1), 8, 1, 1, true, 0xff), 0);
	static const uint8_t want8[8] = { 2, 3, 3, 3, 3, 3, 3, 3 };
	for (unsigned b = 0; b < 8; b++)
		CHECK_EQ(resp_byte(&f, b), want8[b]);
	fx_fini(&f);
}

/* Y-major tiling (PRM vol. 5 "Tiling": a 4 KB tile is 128 bytes x 32 rows
 * stored as 8 columns of 16 bytes x 32 rows, tiles row-major at pitch /
 * 128 tiles a tile row). */
static uint32_t tile_y(uint32_t x, uint32_t y, uint32_t pitch)
{
	return (y / 32) * (pitch / 128) * 4096 + (x / 128) * 4096 + ((x % 128) / 16) * 512 +
	       (y % 32) * 16 + x % 16;
}

static void test_tiled(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	/* R8 256 bytes (Width 64 DWords) x 64, pitch 256: 2 x 2 tiles, 16 KB */
	struct fx_surf s = { .type = 1, .format = R8_UNORM, .width = 64, .height = 64,
			     .pitch = 256, .tiling = 3, .base = FX_DATA };
	fx_surface(&f, 0, &s);
	memset(mem(&f, FX_DATA), 0xee, 16384);
	/* 32 x 8 at (120, 28): crosses the tile boundaries in X (128) and Y
	 * (32) and the 16-byte columns */
	header(&f, 120, 28, 32, 8);
	for (unsigned b = 0; b < 256; b++)
		set_byte(&f, b, (uint8_t)(b ^ 0x5a));
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_WRITE, 0, 0), 8, 9, 0, true, 0xff), 0);
	unsigned written = 0;
	for (uint32_t y = 0; y < 64; y++)
		for (uint32_t x = 0; x < 256; x++) {
			bool in = x >= 120 && x < 152 && y >= 28 && y < 36;
			uint8_t want = in ? (uint8_t)((((y - 28) * 32) + (x - 120)) ^ 0x5a) : 0xee;
			CHECK_EQ(mem(&f, FX_DATA + tile_y(x, y, 256))[0], want);
			written += in;
		}
	CHECK_EQ(written, 256);
	/* read it back from a block shifted by (8, 2): 16 x 4 at (128, 30) */
	header(&f, 128, 30, 16, 4);
	fx_fill_resp(&f, 2, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_READ, 0, 0), 8, 1, 2, true, 0xff), 0);
	for (unsigned r = 0; r < 4; r++)
		for (unsigned b = 0; b < 16; b++)
			CHECK_EQ(resp_byte(&f, r * 16 + b),
				 (uint8_t)((((r + 2) * 32) + (b + 8)) ^ 0x5a));
	fx_fini(&f);
}

static void test_faults(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	struct fx_surf s = { .type = 1, .format = R8_UNORM, .width = 16, .height = 64,
			     .pitch = 64, .base = FX_DATA };
	fx_surface(&f, 0, &s);
	fx_buffer(&f, 1, FX_DATA, 256);
	header(&f, 0, 0, 16, 16);
	/* no header */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_WRITE, 0, 0), 8, 9, 0, false, 0xff), -1);
	CHECK(strstr(f.t->fault, "media block write") != NULL);
	/* 16 x 16 bytes need 8 data registers, not 4 */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_WRITE, 0, 0), 8, 5, 0, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "message length 5") != NULL);
	/* 64 x 8 = 512 bytes: more than a message holds */
	header(&f, 0, 0, 64, 8);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_READ, 0, 0), 8, 1, 8, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "256 bytes") != NULL);
	/* Vertical Line Stride Override: field access */
	header(&f, 0, 0, 4, 1);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_READ, 4, 0), 8, 1, 1, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "Vertical Line Stride Override") != NULL);
	/* a buffer is no 2D surface */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_READ, 0, 1), 8, 1, 1, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "surface type 4") != NULL);
	/* the surface's Vertical Line Stride (RENDER_SURFACE_STATE 11) */
	fx_bits(&fx_dw(&f, FX_SS(0))[0], 11, 11, 1);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(MB_READ, 0, 0), 8, 1, 1, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "Vertical Line Stride (field access)") != NULL);
	fx_fini(&f);
}

int main(void)
{
	for (int gen = 8; gen <= 9; gen++) {
		test_linear_write(gen);
		test_write_out_of_bounds(gen);
		test_read_clamp(gen);
		test_tiled(gen);
		test_faults(gen);
	}
	return test_exit();
}
