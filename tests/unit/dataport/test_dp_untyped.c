/* Untyped surface read/write (data cache 1) and their A64 forms: SIMD8
 * and SIMD16, channel masks (a set bit of 11:8 skips the channel, the
 * enabled ones packed in order), slot enables, per-dword bounds of a
 * buffer, SLM, and the SIMD4x2 form that is not implemented. */
#include "dp_fixture.h"

/* 13:12 SIMD mode: 1 SIMD16, 2 SIMD8 */
#define SIMD8 (2u << 4)
#define SIMD16 (1u << 4)

static void test_write_read(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	fx_buffer(&f, 2, FX_DATA, 120);
	/* SIMD8 RGBA write: slot i at byte 16i, channel c = 0x10c + i */
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD, i, 16 * i);
		for (unsigned c = 0; c < 4; c++)
			fx_set(&f, FX_PAYLOAD + 1 + c, i, 0x10 * c + i);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(9, SIMD8, 2), 8, 5, 0, false, 0xbf), 0);
	for (unsigned i = 0; i < 8; i++)
		for (unsigned c = 0; c < 4; c++) {
			/* slot 6 disabled; slot 7's B and A (bytes 120, 124) out */
			bool written = i != 6 && 16 * i + 4 * c < 120;
			CHECK_EQ(fx_dw(&f, FX_DATA + 16 * i)[c], written ? 0x10 * c + i : 0);
		}
	/* SIMD16 read of R and B (11:8 = 0b1010): 2 registers each, slot i at
	 * byte 8i */
	for (unsigned i = 0; i < 32; i++)
		fx_dw(&f, FX_DATA)[i] = 0x400 + i;
	for (unsigned i = 0; i < 16; i++)
		fx_set(&f, FX_PAYLOAD, i, 8 * i);
	fx_fill_resp(&f, 4, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(1, SIMD16 | 0xa, 2), 16, 2, 4, false,
			 0xfffe), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0xdeadbeef);      /* slot 0 disabled */
	CHECK_EQ(fx_get(&f, FX_RESP + 2, 0), 0xdeadbeef);
	for (unsigned i = 1; i < 16; i++) {
		/* R at 8i, B at 8i + 8: in the 120 bytes or 0 */
		CHECK_EQ(fx_get(&f, FX_RESP, i), 8 * i + 4 <= 120 ? 0x400 + 2 * i : 0);
		CHECK_EQ(fx_get(&f, FX_RESP + 2, i), 8 * i + 12 <= 120 ? 0x402 + 2 * i : 0);
	}
	/* SIMD4x2 (13:12 = 0): a fault */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(1, 0xe, 2), 8, 1, 1, false, 0xff), -1);
	CHECK(strstr(f.t->fault, "untyped surface read") != NULL);
	CHECK(strstr(f.t->fault, "SIMD4x2") != NULL);
	fx_fini(&f);
}

static void test_slm(void)
{
	struct fixture f;
	fx_init(&f, 9);
	/* SIMD8 write of R, G (11:8 = 0b1100) to SLM at 1016 - 8i: slot 0 is
	 * at 1016..1023, in; then a read back */
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD, i, 1016 - 8 * i);
		fx_set(&f, FX_PAYLOAD + 1, i, 0xe0 + i);
		fx_set(&f, FX_PAYLOAD + 2, i, 0xf0 + i);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(9, SIMD8 | 0xc, 254), 8, 3, 0, false, 0xff),
		 0);
	for (unsigned i = 0; i < 8; i++) {
		uint32_t r, g;
		memcpy(&r, f.slm + 1016 - 8 * i, 4);
		memcpy(&g, f.slm + 1020 - 8 * i, 4);
		CHECK_EQ(r, 0xe0 + i);
		CHECK_EQ(g, 0xf0 + i);
	}
	fx_set(&f, FX_PAYLOAD, 0, 1020);            /* G would be at 1024: out */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(1, SIMD8 | 0xc, 254), 8, 1, 2, false, 0xff),
		 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0xf0);
	CHECK_EQ(fx_get(&f, FX_RESP + 1, 0), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 3), 0xe3);
	CHECK_EQ(fx_get(&f, FX_RESP + 1, 3), 0xf3);
	fx_fini(&f);
}

/* SLM addresses keep bits 15:0 only (the most SLM a group can have is
 * 64 KB): IGC's kernel-scope __local variables carry bit 28. */
static void test_slm_high_bits(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	/* SIMD8 write of R to 0x10000000 + 4i (SLM bytes 4i), slot 7 at
	 * 0x7fff0400 (bits 15:0 0x400: past the 1 KB, dropped) */
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD, i, i == 7 ? 0x7fff0400u : 0x10000000u + 4 * i);
		fx_set(&f, FX_PAYLOAD + 1, i, 0x70 + i);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(9, SIMD8 | 0xe, 254), 8, 2, 0, false, 0xff),
		 0);
	for (unsigned i = 0; i < 8; i++) {
		uint32_t v;
		memcpy(&v, f.slm + 4 * i, 4);
		CHECK_EQ(v, i < 7 ? 0x70 + i : 0);
	}
	/* read back through other high bits: 0xabcd0000 + 4i is byte 4i */
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD, i, 0xabcd0000u + 4 * i);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(1, SIMD8 | 0xe, 254), 8, 1, 1, false, 0xff),
		 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), i < 7 ? 0x70 + i : 0);
	/* untyped atomic ADD (2, 11:8 = 7, 12 SIMD8, 13 return) of 1 on
	 * 0x10000010 from every slot: SLM dword 4 counts 8, the returns
	 * the running sums */
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD, i, 0x10000010u);
		fx_set(&f, FX_PAYLOAD + 1, i, 1);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(2, 1u << 5 | 1u << 4 | 7, 254), 8, 2, 1,
			 false, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), 0x74 + i);
	uint32_t v;
	memcpy(&v, f.slm + 16, 4);
	CHECK_EQ(v, 0x7c);
	/* a surface keeps every bit: 0x10000000 into a 64-byte buffer is out */
	fx_buffer(&f, 2, FX_DATA, 64);
	fx_dw(&f, FX_DATA)[0] = 0x55;
	fx_set(&f, FX_PAYLOAD, 0, 0x10000000u);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(1, SIMD8 | 0xe, 2), 8, 1, 1, false, 0x1), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0);
	fx_fini(&f);
}

static void test_a64(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	for (unsigned i = 0; i < 64; i++)
		fx_dw(&f, FX_DATA)[i] = 0x900 + i;
	/* A64 untyped read SIMD8 of R, G: 64-bit addresses, 2 registers, slots
	 * 0-3 in the first */
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD, 2 * i, FX_DATA + 12 * i);
		fx_set(&f, FX_PAYLOAD, 2 * i + 1, 0);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(0x11, SIMD8 | 0xc, 0), 8, 2, 2, false, 0xff),
		 0);
	for (unsigned i = 0; i < 8; i++) {
		CHECK_EQ(fx_get(&f, FX_RESP, i), 0x900 + 3 * i);
		CHECK_EQ(fx_get(&f, FX_RESP + 1, i), 0x901 + 3 * i);
	}
	/* A64 untyped write of R, SIMD8 */
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD + 2, i, 0xa00 + i);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(0x19, SIMD8 | 0xe, 0), 8, 3, 0, false, 0x0f),
		 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_dw(&f, FX_DATA)[3 * i], i < 4 ? 0xa00 + i : 0x900 + 3 * i);
	/* A64 byte scattered write of words (9:8 subtype 0, 11:10 = 1), slot
	 * 0 only, then a read of the dword around it */
	fx_set(&f, FX_PAYLOAD, 0, FX_DATA + 2);
	fx_set(&f, FX_PAYLOAD + 2, 0, 0x1234abcd);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(0x1a, 1 << 2, 0), 8, 3, 0, false, 0x1), 0);
	CHECK_EQ(fx_dw(&f, FX_DATA)[0], 0xabcd0a00);
	/* an unmapped address: a page fault naming it */
	fx_set(&f, FX_PAYLOAD, 0, FX_UNMAPPED);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(0x11, SIMD8 | 0xe, 0), 8, 2, 1, false, 0x1),
		 -1);
	CHECK(strstr(f.t->fault, "page fault") != NULL);
	if (gen == 9) {
		/* A64 OWord block read (Gen9): the address in M0.1:M0.0 */
		fx_set(&f, FX_PAYLOAD, 0, FX_DATA + 16);
		fx_set(&f, FX_PAYLOAD, 1, 0);
		CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(0x14, 2, 0), 8, 1, 1, true, 0xff), 0);
		for (unsigned i = 0; i < 8; i++)
			CHECK_EQ(fx_get(&f, FX_RESP, i), fx_dw(&f, FX_DATA)[4 + i]);
	}
	fx_fini(&f);
}

int main(void)
{
	test_write_read(8);
	test_write_read(9);
	test_slm();
	test_slm_high_bits(8);
	test_slm_high_bits(9);
	test_a64(8);
	test_a64(9);
	return test_exit();
}
