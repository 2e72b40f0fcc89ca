/* Command modes that used to be silent approximations, and commands gtsim
 * does not implement. Expected values are worked out by hand from the BDW
 * PRM vol. 2a command pages:
 *  - MI_PREDICATE: SRCS_EQUAL loads REG_MI_PREDICATE_DATA with SRC0 - SRC1,
 *    DELTAS_EQUAL is true when SRC0 - SRC1 equals REG_MI_PREDICATE_DATA;
 *  - MI_BATCH_BUFFER_START with Add Offset Enable starts at the address
 *    plus BB_OFFSET (engine base + 0x158);
 *  - PIPE_CONTROL with LRI Post-Sync Operation writes the low dword of
 *    Immediate Data to the register at Address, not memory;
 *  - XY_SRC_COPY_BLT: a linear 32bpp SRCCOPY, with the byte mask;
 *  - a command of the engine's table without an implementation is a GPU
 *    fault naming it, its header and address; a hardware no-op is not;
 *  - a register write outside the description's registers is a fault, and
 *    so is a read (MI_STORE_REGISTER_MEM, MI_LOAD_REGISTER_REG's source) of
 *    a register that is not the engine's own known one, except another
 *    engine's TIMESTAMP, which reads that engine's clock. */
#include <unistd.h>

#include "test.h"
#include "cs_harness.h"

#define MI_BBE 0x05000000u
#define MI_BBS_GGTT 0x18800001u
#define MI_BBS_ADD_OFFSET (1u << 16)
#define MI_SDI_GGTT (0x10000002u | 1u << 22)
#define MI_LRI(n) (0x11000000u | (2u * (n) - 1))
#define MI_PREDICATE(load, combine, compare) \
	(0x06000000u | (load) << 6 | (combine) << 3 | (compare))
#define PIPE_CONTROL 0x7a000004u
#define PC_POST_SYNC_IMM (1u << 14)
#define PC_POST_SYNC_TIMESTAMP (3u << 14)
#define PC_LRI_POST_SYNC (1u << 23)
#define XY_SRC_COPY_BLT 0x54c00008u
#define MI_ARB_CHECK 0x02800000u
#define MI_SRM_GGTT (0x12000002u | 1u << 22)
#define MI_LRR 0x15000001u

#define PRED_SRC0 0x2400u
#define PRED_SRC1 0x2408u
#define PRED_DATA 0x2410u
#define PRED_RESULT 0x2418u
#define GPR(n) (0x2600u + 8u * (n))
#define RCS_BB_OFFSET 0x2158u

static void set64(struct harness *h, uint32_t reg, uint64_t v)
{
	uint32_t c[] = { MI_LRI(2), reg, (uint32_t)v, reg + 4, (uint32_t)(v >> 32) };
	h_emit(h, ENGINE_RCS, c, 5);
}

static uint64_t get64(struct harness *h, uint32_t reg)
{
	return gpu_mmio_read(h->gpu, reg) | (uint64_t)gpu_mmio_read(h->gpu, reg + 4) << 32;
}

static uint32_t predicate(struct harness *h, uint64_t src0, uint64_t src1, uint32_t compare)
{
	set64(h, PRED_SRC0, src0);
	set64(h, PRED_SRC1, src1);
	uint32_t c[] = { MI_PREDICATE(2, 0, compare) };
	h_emit(h, ENGINE_RCS, c, 1);
	h_run(h, ENGINE_RCS);
	return gpu_mmio_read(h->gpu, PRED_RESULT);
}

static void test_deltas_equal(void)
{
	struct harness h;
	h_init(&h, 8, true);
	/* SRCS_EQUAL on 10, 4: false, and DATA = 6. */
	CHECK_EQ(predicate(&h, 10, 4, 2), 0);
	CHECK_EQ(get64(&h, PRED_DATA), 6);
	/* DELTAS_EQUAL: 9 - 3 = 6 equals DATA; 9 - 4 = 5 does not. DATA stays. */
	CHECK_EQ(predicate(&h, 9, 3, 3), 1);
	CHECK_EQ(predicate(&h, 9, 4, 3), 0);
	CHECK_EQ(get64(&h, PRED_DATA), 6);
	/* A 64-bit difference: 1 - 2 = 0xffffffffffffffff. */
	CHECK_EQ(predicate(&h, 1, 2, 2), 0);
	CHECK_EQ(get64(&h, PRED_DATA), 0xffffffffffffffffull);
	CHECK_EQ(predicate(&h, 0x100000000ull, 0x100000001ull, 3), 1);
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

/* Two batches in the GGTT: at 0x200000 one stores 1, at 0x201000 one
 * stores 2, both into out. */
static void test_add_offset(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint32_t out = 0x300000;
	h_ggtt_map(&h, 0x200000, 2);
	h_ggtt_map(&h, out, 1);
	uint32_t b1[] = { MI_SDI_GGTT, out, 0, 1, MI_BBE };
	uint32_t b2[] = { MI_SDI_GGTT, out, 0, 2, MI_BBE };
	h_write(&h, true, 0x200000, b1, 5);
	h_write(&h, true, 0x201000, b2, 5);
	uint32_t c1[] = { MI_LRI(1), RCS_BB_OFFSET, 0x1000, MI_BBS_GGTT, 0x200000, 0 };
	h_emit(&h, ENGINE_RCS, c1, 6);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h_read32(&h, true, out), 1);   /* without Add Offset Enable */
	uint32_t c2[] = { MI_BBS_GGTT | MI_BBS_ADD_OFFSET, 0x200000, 0 };
	h_emit(&h, ENGINE_RCS, c2, 3);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h_read32(&h, true, out), 2);   /* 0x200000 + 0x1000 */
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

static void test_lri_post_sync(void)
{
	struct harness h;
	h_init(&h, 8, true);
	/* The PPGTT page holding the address, to see that memory stays. */
	uint32_t *page = h_ppgtt_map(&h, 0x2000);
	set64(&h, GPR(5), 0);
	uint32_t c[] = { PIPE_CONTROL, PC_POST_SYNC_IMM | PC_LRI_POST_SYNC, GPR(5), 0,
			 0xdeadbeef, 0x12345678 };
	h_emit(&h, ENGINE_RCS, c, 6);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(get64(&h, GPR(5)), 0xdeadbeef);
	CHECK_EQ(page[(GPR(5) & 0xfff) / 4], 0);
	CHECK_EQ(page[(GPR(5) & 0xfff) / 4 + 1], 0);
	CHECK_EQ(h.faults, 0);
	/* With another post-sync operation the PRM gives it no meaning. */
	uint32_t bad[] = { PIPE_CONTROL, PC_POST_SYNC_TIMESTAMP | PC_LRI_POST_SYNC, GPR(6), 0,
			   0, 0 };
	h_emit(&h, ENGINE_RCS, bad, 6);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.faults, 1);
	CHECK(strstr(h.fault_reason, "PIPE_CONTROL with LRI post-sync") != NULL);
	CHECK(strstr(h.fault_reason, "not implemented in gtsim") != NULL);
	h_fini(&h);
}

/* Source: 4 x 2 pixels, pitch 64 at 0x500000, pixel (x, y) = 0xA0000000 |
 * y << 8 | x. Copy the 2 x 2 rectangle at source (1, 0) to destination
 * (3, 1), destination pitch 128 at 0x600000. */
static void test_blt_copy(uint32_t byte_mask)
{
	struct harness h;
	h_init(&h, 8, true);
	h_ppgtt_map(&h, 0x500000);
	h_ppgtt_map(&h, 0x600000);
	for (uint32_t y = 0; y < 2; y++)
		for (uint32_t x = 0; x < 4; x++) {
			uint32_t v = 0xa0000000u | y << 8 | x;
			h_write(&h, false, 0x500000 + y * 64 + x * 4, &v, 1);
		}
	for (uint32_t i = 0; i < 4 * 128 / 4; i++) {
		uint32_t old = 0x11223344;
		h_write(&h, false, 0x600000 + 4 * i, &old, 1);
	}
	uint32_t c[] = { XY_SRC_COPY_BLT | byte_mask << 20, 3u << 24 | 0xccu << 16 | 128,
			 1u << 16 | 3, 3u << 16 | 5, 0x600000, 0,
			 0u << 16 | 1, 64, 0x500000, 0 };
	h_emit(&h, ENGINE_BCS, c, 10);
	h_run(&h, ENGINE_BCS);
	CHECK_EQ(h.faults, 0);
	for (uint32_t y = 0; y < 4; y++)
		for (uint32_t x = 0; x < 8; x++) {
			uint32_t got = h_read32(&h, false, 0x600000 + y * 128 + x * 4), want = 0x11223344;
			if (y >= 1 && y < 3 && x >= 3 && x < 5) {
				uint32_t src = 0xa0000000u | (y - 1) << 8 | (x - 3 + 1);
				want = byte_mask == 3 ? src : (src & 0x00ffffff) | (want & 0xff000000);
			}
			CHECK_EQ(got, want);
		}
	h_fini(&h);
}

/* Per engine a command of its table that gtsim does not implement. */
static void test_not_implemented(void)
{
	static const struct {
		enum gt_engine_id engine;
		uint32_t dw[10];
		int n;
		const char *reason;
	} cases[] = {
		{ ENGINE_RCS, { 0x0c800000, 0 }, 2, "MI_URB_CLEAR 0x0c800000 at 0x" },
		{ ENGINE_RCS, { 0x71060000 | 5, 0 }, 7, "MEDIA_OBJECT_GRPID 0x71060005 at 0x" },
		{ ENGINE_BCS, { 0x01800000 }, 1, "MI_WAIT_FOR_EVENT 0x01800000 at 0x" },
		{ ENGINE_VCS, { 0x68000000 }, 1, "MFX_WAIT 0x68000000 at 0x" },
		{ ENGINE_VECS, { 0x00800001 }, 1, "MI_SET_PREDICATE 0x00800001 at 0x" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct harness h;
		h_init(&h, 8, true);
		uint32_t dw[16] = { 0 };
		memcpy(dw, cases[i].dw, sizeof(cases[i].dw));
		uint32_t arb = MI_ARB_CHECK;    /* a hardware no-op: runs */
		h_emit(&h, cases[i].engine, &arb, 1);
		h_emit(&h, cases[i].engine, dw, cases[i].n);
		h_run(&h, cases[i].engine);
		CHECK_EQ(h.faults, 1);
		CHECK(strstr(h.fault_reason, cases[i].reason) != NULL);
		CHECK(strstr(h.fault_reason, "not implemented in gtsim") != NULL);
		if (!strstr(h.fault_reason, cases[i].reason))
			printf("reason: %s\n", h.fault_reason);
		h_fini(&h);
	}
}

/* Registers: the description's are written (stored-only ones read back;
 * a masked one keeps only the bits its upper half enables: 0x00010001
 * sets bit 0 and reads 0x00000001); a write to any other is a fault naming
 * the register. GT_MODE (0x7008) is masked on both (BDW PRM vol. 2c;
 * i915's bdw_ctx_workarounds write it masked). */
static void test_register_writes(int gen, enum gt_engine_id engine, uint32_t reg, bool known,
				 uint32_t readback)
{
	struct harness h;
	h_init(&h, gen, true);
	uint32_t c[] = { MI_LRI(1), reg, 0x00010001 };
	h_emit(&h, engine, c, 3);
	h_run(&h, engine);
	CHECK_EQ(h.faults, known ? 0 : 1);
	if (known) {
		CHECK_EQ(gpu_mmio_read(h.gpu, reg), readback);
	} else {
		char want[96];
		snprintf(want, sizeof(want), "MI_LOAD_REGISTER_IMM writing register 0x%05x "
			 "0x11000001 at 0x", reg);
		CHECK(strstr(h.fault_reason, want) != NULL);
		CHECK(strstr(h.fault_reason, "not implemented in gtsim") != NULL);
	}
	h_fini(&h);
}

/* Register reads: an unknown register, or another engine's (other than its
 * TIMESTAMP), is a fault naming the register, not a stored or zero value;
 * RCS's TIMESTAMP (0x2358) read from the blitter lies between two reads on
 * RCS itself (IGT gem_ctx_create orders such reads across engines; it read
 * 0 before). */
static void test_register_reads(void)
{
	static const struct {
		enum gt_engine_id engine;
		uint32_t dw[4];
		int n;
		const char *reason;
	} faults[] = {
		{ ENGINE_RCS, { MI_SRM_GGTT, 0x1234, 0x300000, 0 }, 4,
		  "MI_STORE_REGISTER_MEM reading register 0x01234" },
		{ ENGINE_RCS, { MI_LRR, 0x1238, GPR(0) }, 3,
		  "MI_LOAD_REGISTER_REG reading register 0x01238" },
		{ ENGINE_BCS, { MI_SRM_GGTT, GPR(0), 0x300000, 0 }, 4,
		  "MI_STORE_REGISTER_MEM reading register 0x02600" },
	};
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		struct harness h;
		h_init(&h, 8, true);
		h_ggtt_map(&h, 0x300000, 1);
		h_emit(&h, faults[i].engine, faults[i].dw, faults[i].n);
		h_run(&h, faults[i].engine);
		CHECK_EQ(h.faults, 1);
		CHECK(strstr(h.fault_reason, faults[i].reason) != NULL);
		CHECK(strstr(h.fault_reason, "not implemented in gtsim") != NULL);
		if (!strstr(h.fault_reason, faults[i].reason))
			printf("reason: %s\n", h.fault_reason);
		h_fini(&h);
	}
	for (int gen = 8; gen <= 9; gen++) {
		struct harness h;
		h_init(&h, gen, true);
		uint32_t out = 0x300000;
		h_ggtt_map(&h, out, 1);
		uint32_t r1[] = { MI_SRM_GGTT, 0x2358, out, 0 };
		uint32_t b[] = { MI_SRM_GGTT, 0x2358, out + 4, 0, MI_SRM_GGTT, 0x2358 + 4, out + 12, 0 };
		uint32_t r2[] = { MI_SRM_GGTT, 0x2358, out + 8, 0 };
		h_emit(&h, ENGINE_RCS, r1, 4);
		h_run(&h, ENGINE_RCS);
		usleep(2000);
		h_emit(&h, ENGINE_BCS, b, 8);
		h_run(&h, ENGINE_BCS);
		usleep(2000);
		h_emit(&h, ENGINE_RCS, r2, 4);
		h_run(&h, ENGINE_RCS);
		CHECK_EQ(h.faults, 0);
		uint32_t t1 = h_read32(&h, true, out), t2 = h_read32(&h, true, out + 4);
		uint32_t t3 = h_read32(&h, true, out + 8);
		CHECK(t2 != 0);
		CHECK(t1 < t2 && t2 < t3);   /* 2 ms at >= 12 MHz: thousands of ticks */
		if (!(t1 < t2 && t2 < t3))
			printf("gen%d RCS TIMESTAMP: %u on RCS, %u on BCS, %u on RCS\n", gen, t1, t2, t3);
		h_fini(&h);
	}
}

/* Masked registers (i915's _MASKED_BIT_ENABLE/_DISABLE): bit n+16 enables
 * the write of bit n; the upper half reads 0. CACHE_MODE_1 (0x7004) on
 * BDW, CS_CHICKEN1 (0x2580) and RCS's CS_DEBUG_MODE2 (0x20d8) on SKL. */
static void test_masked_registers(void)
{
	static const struct { int gen; uint32_t reg; } regs[] = {
		{ 8, 0x7004 }, { 9, 0x2580 }, { 9, 0x20d8 }, { 8, 0x20c0 /* INSTPM */ },
	};
	for (unsigned i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		struct harness h;
		h_init(&h, regs[i].gen, true);
		uint32_t reg = regs[i].reg;
		/* set bits 7 and 5 (0x00a0), with bit 4 enabled as 0 */
		uint32_t c1[] = { MI_LRI(1), reg, 0x00b000a0 };
		h_emit(&h, ENGINE_RCS, c1, 3);
		h_run(&h, ENGINE_RCS);
		CHECK_EQ(gpu_mmio_read(h.gpu, reg), 0x00a0);
		/* clear bit 7, try bit 3 without its enable: 0x0020 */
		uint32_t c2[] = { MI_LRI(1), reg, 0x00800008 };
		h_emit(&h, ENGINE_RCS, c2, 3);
		h_run(&h, ENGINE_RCS);
		CHECK_EQ(gpu_mmio_read(h.gpu, reg), 0x0020);
		/* no enables: nothing changes */
		uint32_t c3[] = { MI_LRI(1), reg, 0x0000ffff };
		h_emit(&h, ENGINE_RCS, c3, 3);
		h_run(&h, ENGINE_RCS);
		CHECK_EQ(gpu_mmio_read(h.gpu, reg), 0x0020);
		CHECK_EQ(h.faults, 0);
		h_fini(&h);
	}
}

/* MI_MODE (RCS 0x209c) Stop Ring, bit 8 (enable bit 24): the engine runs no
 * further command; Mode Idle (bit 9) reads 1. Clearing it by MMIO, as the
 * kernel does, lets the ring go on. */
static void test_stop_ring(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint32_t out = 0x300000;
	h_ggtt_map(&h, out, 1);
	uint32_t c[] = { MI_LRI(1), 0x209c, 0x01000100, MI_SDI_GGTT, out, 0, 7 };
	h_emit(&h, ENGINE_RCS, c, 7);
	CHECK(!h_run(&h, ENGINE_RCS));          /* commands left, none running */
	CHECK_EQ(h_read32(&h, true, out), 0);
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x209c), 0x0300);
	gpu_mmio_write(h.gpu, 0x209c, 0x01000000);
	CHECK(engine_wait_idle(h.gpu->engines[ENGINE_RCS], 5000000000ull));
	CHECK_EQ(h_read32(&h, true, out), 7);
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x209c), 0);
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

/* INSTPM (RCS 0x20c0) 3D State Instruction Disable (bit 1): gtsim does not
 * skip 3D commands, so the next one is a fault naming INSTPM. */
static void test_instpm_disable(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint32_t c[] = { MI_LRI(1), 0x20c0, 0x00020002, PIPE_CONTROL, 0, 0, 0, 0, 0 };
	h_emit(&h, ENGINE_RCS, c, 9);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h_wait_faults(&h, 1), 1);
	CHECK(strstr(h.fault_reason, "PIPE_CONTROL") != NULL);
	CHECK(strstr(h.fault_reason, "INSTPM") != NULL);
	h_fini(&h);
}

int main(void)
{
	test_register_writes(8, ENGINE_RCS, 0x7034, true, 0x00010001); /* L3CNTLREG, stored only */
	test_register_writes(8, ENGINE_RCS, GPR(15) + 4, true, 0x00010001);
	test_register_writes(8, ENGINE_RCS, 0x7008, true, 1);   /* GT_MODE, masked */
	test_register_writes(9, ENGINE_RCS, 0x7008, true, 1);   /* GT_MODE, masked */
	test_register_writes(8, ENGINE_RCS, 0x1234, false, 0);
	test_register_writes(8, ENGINE_BCS, 0x22600, true, 0x00010001); /* its own GPR0 */
	test_register_writes(8, ENGINE_BCS, 0x2600, false, 0);  /* RCS's GPR0 */
	test_register_writes(8, ENGINE_VCS, 0x7034, false, 0);  /* the render unit's */
	test_register_reads();
	test_masked_registers();
	test_stop_ring();
	test_instpm_disable();
	test_deltas_equal();
	test_add_offset();
	test_lri_post_sync();
	test_blt_copy(3);
	test_blt_copy(1);
	test_not_implemented();
	return test_exit();
}
