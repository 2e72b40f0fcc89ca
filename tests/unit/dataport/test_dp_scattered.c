/* DWord and byte scattered messages: SIMD8 and SIMD16 forms, per-slot
 * enables (a disabled slot neither reads nor writes), dword offsets for
 * DWord scattered, byte offsets and zero-extended bytes/words for byte
 * scattered, out-of-bounds slots (reads 0, writes dropped), stateless
 * scratch through the header. Expected images computed by hand. */
#include "dp_fixture.h"

static void test_dword_scattered(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	for (unsigned i = 0; i < 32; i++)
		fx_dw(&f, FX_DATA)[i] = 0x200 + i;
	fx_buffer(&f, 1, FX_DATA, 64);          /* dwords 0..15 */
	/* SIMD16 read (9:8 = 3), no header: slot i reads dword 15 - i, slot 0
	 * dword 16 (out of bounds), slot 15 disabled */
	for (unsigned i = 0; i < 16; i++)
		fx_set(&f, FX_PAYLOAD, i, i ? 15 - i : 16);
	fx_fill_resp(&f, 2, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(3, 3, 1), 16, 2, 2, false, 0x7fff), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0);
	for (unsigned i = 1; i < 15; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), 0x200 + 15 - i);
	CHECK_EQ(fx_get(&f, FX_RESP, 15), 0xdeadbeef);
	/* the constant cache takes the same message */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_CC, fx_desc(3, 3, 1), 16, 2, 2, false, 0x0002), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 1), 0x200 + 14);
	/* SIMD8 write (9:8 = 2) to dwords 2i, slots 1 and 3 disabled, slot 7
	 * at dword 16: dropped */
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD, i, i == 7 ? 16 : 2 * i);
		fx_set(&f, FX_PAYLOAD + 1, i, 0x300 + i);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(11, 2, 1), 8, 2, 0, false, 0xf5), 0);
	static const uint32_t want[17] = { 0x300, 0x201, 0x202, 0x203, 0x302, 0x205, 0x206,
					   0x207, 0x304, 0x209, 0x305, 0x20b, 0x306, 0x20d,
					   0x20e, 0x20f, 0x210 };
	for (unsigned i = 0; i < 17; i++)
		CHECK_EQ(fx_dw(&f, FX_DATA)[i], want[i]);
	fx_fini(&f);
}

static void test_byte_scattered(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	for (unsigned i = 0; i < 128; i++)
		f.mem[FX_DATA + i] = (uint8_t)i;
	fx_buffer(&f, 0, FX_DATA, 64);
	/* bytes (11:10 = 0), SIMD8: offsets 3i + 1, zero-extended */
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD, i, 3 * i + 1);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(4, 0, 0), 8, 1, 1, false, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), 3 * i + 1);
	/* words (11:10 = 1), SIMD16 (bit 8): offsets 2i, slot 15 at byte 63
	 * (its second byte is past the buffer: the whole word reads 0) */
	for (unsigned i = 0; i < 16; i++)
		fx_set(&f, FX_PAYLOAD, i, i == 15 ? 63 : 2 * i);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(4, 1 << 2 | 1, 0), 16, 2, 2, false, 0xffff),
		 0);
	for (unsigned i = 0; i < 15; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), (2 * i) | (2 * i + 1) << 8);
	CHECK_EQ(fx_get(&f, FX_RESP, 15), 0);
	/* byte writes change one byte each */
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD, i, 8 * i);
		fx_set(&f, FX_PAYLOAD + 1, i, 0xabcdef00 + i);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(12, 0, 0), 8, 2, 0, false, 0xff), 0);
	for (unsigned i = 0; i < 64; i++)
		CHECK_EQ(f.mem[FX_DATA + i], i % 8 ? i : i / 8);
	/* dwords (11:10 = 2) */
	fx_set(&f, FX_PAYLOAD, 0, 9);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(4, 2 << 2, 0), 8, 1, 1, false, 0x1), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0x0c0b0a09);
	fx_fini(&f);
}

static void test_stateless_scratch(int gen)
{
	/* Mesa's load_scratch: DWord scattered to BTI 253 with a header whose
	 * M0.5 holds the scratch pointer and M0.3 its size */
	struct fixture f;
	fx_init(&f, gen);
	f.unit.general_base = 0x8000;
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD, i, 0);
	fx_set(&f, FX_PAYLOAD, 3, 1);            /* 2 KB */
	fx_set(&f, FX_PAYLOAD, 5, 0x800);
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD + 1, i, i == 7 ? 512 : 100 + i);   /* dwords */
		fx_set(&f, FX_PAYLOAD + 2, i, 0x700 + i);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(11, 2, 253), 8, 3, 0, true, 0xff), 0);
	for (unsigned i = 0; i < 7; i++)
		CHECK_EQ(fx_dw(&f, 0x8800 + 400)[i], 0x700 + i);
	CHECK_EQ(fx_dw(&f, 0x8800 + 2048)[0], 0);    /* dword 512: past 2 KB */
	fx_fill_resp(&f, 1, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(3, 2, 253), 8, 2, 1, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), i == 7 ? 0 : 0x700 + i);
	/* a header global offset is not implemented: a fault */
	fx_set(&f, FX_PAYLOAD, 2, 4);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(3, 2, 253), 8, 2, 1, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "global offset") != NULL);
	fx_fini(&f);
}

int main(void)
{
	test_dword_scattered(8);
	test_dword_scattered(9);
	test_byte_scattered(8);
	test_byte_scattered(9);
	test_stateless_scratch(8);
	test_stateless_scratch(9);
	return test_exit();
}
