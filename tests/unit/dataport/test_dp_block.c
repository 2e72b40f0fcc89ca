/* OWord block and scratch block messages against hand-computed memory
 * images: offsets in OWords (unaligned: bytes) from header M0.2, the
 * one-OWord low/high forms, buffer bounds (dwords past the surface read 0),
 * stateless scratch from header M0.5 bounded by M0.3's 1 KB << n, the
 * scratch block's descriptor offset in 32-byte units, and SLM. */
#include "dp_fixture.h"

#define SCRATCH_GSB 0x8000u
#define SCRATCH_PTR 0x400u

static void header(struct fixture *f, uint32_t m02)
{
	for (unsigned i = 0; i < 8; i++)
		fx_set(f, FX_PAYLOAD, i, 0);
	fx_set(f, FX_PAYLOAD, 2, m02);
	fx_set(f, FX_PAYLOAD, 3, 0);            /* per-thread scratch 1 KB << 0 */
	fx_set(f, FX_PAYLOAD, 5, SCRATCH_PTR | 7); /* 9:0 is the thread id */
}

static void test_constant_block_read(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	for (unsigned i = 0; i < 64; i++)
		fx_dw(&f, FX_DATA)[i] = 0x100 + i;
	fx_buffer(&f, 0, FX_DATA, 40);          /* 40 bytes: dwords 0..9 */
	/* 4 OWords (descriptor 10:8 = 3) from OWord 1 */
	header(&f, 1);
	fx_fill_resp(&f, 2, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_CC, fx_desc(0, 3, 0), 16, 1, 2, true, 0xffff), 0);
	for (unsigned i = 0; i < 16; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), 4 + i <= 9 ? 0x104 + i : 0);
	/* one OWord into the high half (descriptor 10:8 = 1): the low half
	 * is not written */
	header(&f, 0);
	fx_fill_resp(&f, 1, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_CC, fx_desc(0, 1, 0), 8, 1, 1, true, 0xff), 0);
	for (unsigned i = 0; i < 4; i++) {
		CHECK_EQ(fx_get(&f, FX_RESP, i), 0xdeadbeef);
		CHECK_EQ(fx_get(&f, FX_RESP, 4 + i), 0x100 + i);
	}
	/* one OWord into the low half (0) */
	header(&f, 2);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_CC, fx_desc(0, 0, 0), 8, 1, 1, true, 0xff), 0);
	for (unsigned i = 0; i < 4; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), 0x108 + i <= 0x109 ? 0x108 + i : 0);
	/* unaligned read (type 1): M0.2 is a byte offset */
	header(&f, 4);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_CC, fx_desc(1, 2, 0), 8, 1, 1, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), 1 + i <= 9 ? 0x101 + i : 0);
	/* no header: a fault naming the message */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_CC, fx_desc(0, 2, 0), 8, 1, 1, false, 0xff), -1);
	CHECK(strstr(f.t->fault, "OWord block read") != NULL);
	fx_fini(&f);
}

static void test_scratch(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	f.unit.general_base = SCRATCH_GSB;
	uint32_t base = SCRATCH_GSB + SCRATCH_PTR;
	/* OWord block write of 2 OWords (Mesa's spill) to BTI 253 at M0.2 = 2 */
	header(&f, 2);
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD + 1, i, 0xa0 + i);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(8, 2, 253), 8, 2, 0, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_dw(&f, base + 32)[i], 0xa0 + i);
	CHECK_EQ(fx_dw(&f, base + 28)[0], 0);
	CHECK_EQ(fx_dw(&f, base + 64)[0], 0);
	/* 2 OWords at byte 1008 of a 1 KB space: the last 16 bytes fall out */
	header(&f, 63);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(8, 2, 253), 8, 2, 0, true, 0xff), 0);
	for (unsigned i = 0; i < 4; i++)
		CHECK_EQ(fx_dw(&f, base + 1008)[i], 0xa0 + i);
	for (unsigned i = 0; i < 4; i++)
		CHECK_EQ(fx_dw(&f, base + 1024)[i], 0);
	/* scratch block read (bit 18), 2 registers (13:12 = 1), offset 1
	 * (32 bytes): the block written above, then the zeros after it */
	header(&f, 0);
	uint32_t rd = 1u << 18 | 1u << 12 | 1;
	fx_fill_resp(&f, 2, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, rd, 8, 1, 2, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++) {
		CHECK_EQ(fx_get(&f, FX_RESP, i), 0xa0 + i);
		CHECK_EQ(fx_get(&f, FX_RESP + 1, i), 0);
	}
	/* scratch block write (bit 17), 1 register at offset 5 (160 bytes),
	 * read back by an OWord block read at M0.2 = 10 */
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD + 1, i, 0xc0 + i);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, 1u << 18 | 1u << 17 | 5, 8, 2, 0, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_dw(&f, base + 160)[i], 0xc0 + i);
	header(&f, 10);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(0, 2, 253), 8, 1, 1, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), 0xc0 + i);
	/* four registers (13:12 = 3) */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, 1u << 18 | 3u << 12 | 2, 8, 1, 4, true, 0xff), 0);
	CHECK_EQ(fx_get(&f, FX_RESP + 2, 0), 0);
	CHECK_EQ(fx_get(&f, FX_RESP + 3, 0), 0xc0);
	/* the DWord channel mode (bit 16) is not implemented: a fault */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, 1u << 18 | 1u << 16, 8, 1, 1, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "scratch block read") != NULL);
	fx_fini(&f);
}

static void test_slm_block(void)
{
	struct fixture f;
	fx_init(&f, 9);
	for (unsigned i = 0; i < 256; i++)
		memcpy(f.slm + 4 * i, &(uint32_t){ 0x5000 + i }, 4);
	/* 8 OWords (descriptor 10:8 = 4) from OWord 62 of 64: the last 6 are
	 * past the 1 KB of SLM */
	header(&f, 62);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(0, 4, 254), 8, 1, 4, true, 0xff), 0);
	for (unsigned i = 0; i < 32; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), i < 8 ? 0x5000 + 248 + i : 0);
	/* without SLM: a fault */
	f.unit.slm = NULL;
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(0, 4, 254), 8, 1, 4, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "shared local memory") != NULL);
	fx_fini(&f);
}

int main(void)
{
	test_constant_block_read(8);
	test_constant_block_read(9);
	test_scratch(8);
	test_scratch(9);
	test_slm_block();
	return test_exit();
}
