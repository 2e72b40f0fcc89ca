/* MI commands on a real engine: MI_MATH vectors computed by hand,
 * MI_PREDICATE, register loads/stores, MI_FLUSH_DW and PIPE_CONTROL
 * post-sync writes, MI_CONDITIONAL_BATCH_BUFFER_END, TIMESTAMP. Dwords from
 * the BDW PRM (vol. 2a) by hand. All in sync mode. */
#include "test.h"
#include "cs_harness.h"
#include "gpu/cmd/cmd.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/state.h"

#include <time.h>

#define MI_NOOP 0x00000000u
#define MI_BBE 0x05000000u
#define MI_BBS_PPGTT (0x18800001u | 1u << 8)
#define MI_SDI 0x10000002u
#define MI_LRI(n) (0x11000000u | (2u * (n) - 1))   /* opcode 0x22 */
#define MI_LRM 0x14800002u                          /* opcode 0x29 */
#define MI_LRR 0x15000001u                          /* opcode 0x2a */
#define MI_SRM 0x12000002u                          /* opcode 0x24 */
#define MI_MATH(n) (0x0d000000u | ((n) - 1))        /* opcode 0x1a */
#define MI_PREDICATE(load, combine, compare) \
	(0x06000000u | (load) << 6 | (combine) << 3 | (compare))
#define MI_CBBE 0x1b000002u                         /* opcode 0x36, 4 dwords */
#define MI_FLUSH_DW 0x13000003u                     /* opcode 0x26, 5 dwords */
#define PIPE_CONTROL 0x7a000004u                    /* 3D 3/2/0, 6 dwords */
#define MI_REPORT_HEAD 0x03800000u                  /* opcode 0x07 */

/* ALU instruction words: opcode << 20 | operand1 << 10 | operand2. */
#define ALU(op, a, b) ((uint32_t)(op) << 20 | (uint32_t)(a) << 10 | (uint32_t)(b))
#define LOAD 0x080
#define LOADINV 0x480
#define LOAD0 0x081
#define LOAD1 0x481
#define ADD 0x100
#define SUB 0x101
#define AND 0x102
#define OR 0x103
#define XOR 0x104
#define STORE 0x180
#define STOREINV 0x580
#define SRCA 0x20
#define SRCB 0x21
#define ACCU 0x31
#define ZF 0x32
#define CF 0x33

#define GPR(n) (0x2600u + 8u * (n))

static uint64_t gpr(struct harness *h, int n)
{
	return gpu_mmio_read(h->gpu, GPR(n)) | (uint64_t)gpu_mmio_read(h->gpu, GPR(n) + 4) << 32;
}

static void set_gpr(struct harness *h, int n, uint64_t v)
{
	uint32_t cmds[] = { MI_LRI(2), GPR(n), (uint32_t)v, GPR(n) + 4, (uint32_t)(v >> 32) };
	h_emit(h, ENGINE_RCS, cmds, 5);
}

static void math(struct harness *h, uint64_t a, uint64_t b, uint32_t op)
{
	set_gpr(h, 0, a);
	set_gpr(h, 1, b);
	uint32_t cmds[] = {
		MI_MATH(6),
		ALU(LOAD, SRCA, 0), ALU(LOAD, SRCB, 1), ALU(op, 0, 0),
		ALU(STORE, 2, ACCU), ALU(STORE, 3, CF), ALU(STORE, 4, ZF),
	};
	h_emit(h, ENGINE_RCS, cmds, 7);
	h_run(h, ENGINE_RCS);
}

static void test_math(void)
{
	struct harness h;
	h_init(&h, 8, true);

	math(&h, ~0ull, 1, ADD);       /* wraps to 0 with a carry */
	CHECK_EQ(gpr(&h, 2), 0);
	CHECK_EQ(gpr(&h, 3), ~0ull);
	CHECK_EQ(gpr(&h, 4), ~0ull);

	math(&h, 0x100000000ull, 0xffffffffull, ADD);
	CHECK_EQ(gpr(&h, 2), 0x1ffffffffull);
	CHECK_EQ(gpr(&h, 3), 0);
	CHECK_EQ(gpr(&h, 4), 0);

	math(&h, 5, 7, SUB);           /* borrow */
	CHECK_EQ(gpr(&h, 2), (uint64_t)-2);
	CHECK_EQ(gpr(&h, 3), ~0ull);
	CHECK_EQ(gpr(&h, 4), 0);

	math(&h, 9, 9, SUB);
	CHECK_EQ(gpr(&h, 2), 0);
	CHECK_EQ(gpr(&h, 3), 0);
	CHECK_EQ(gpr(&h, 4), ~0ull);

	math(&h, 0xff00ff00f0f0f0f0ull, 0x0ff00ff0ffff0000ull, AND);
	CHECK_EQ(gpr(&h, 2), 0x0f000f00f0f00000ull);
	math(&h, 0xff00ff00f0f0f0f0ull, 0x0ff00ff0ffff0000ull, OR);
	CHECK_EQ(gpr(&h, 2), 0xfff0fff0fffff0f0ull);
	math(&h, 0xff00ff00f0f0f0f0ull, 0x0ff00ff0ffff0000ull, XOR);
	CHECK_EQ(gpr(&h, 2), 0xf0f0f0f00f0ff0f0ull);
	math(&h, 0x1234, 0x1234, XOR);
	CHECK_EQ(gpr(&h, 4), ~0ull);

	/* LOADINV, LOAD0, LOAD1, STOREINV: R5 = ~R0 + 1 (negation), R6 =
	 * ~(0 + 1), R7 = 1 - 0. */
	set_gpr(&h, 0, 10);
	uint32_t cmds[] = {
		MI_MATH(12),
		ALU(LOADINV, SRCA, 0), ALU(LOAD1, SRCB, 0), ALU(ADD, 0, 0), ALU(STORE, 5, ACCU),
		ALU(LOAD0, SRCA, 0), ALU(LOAD1, SRCB, 0), ALU(ADD, 0, 0), ALU(STOREINV, 6, ACCU),
		ALU(LOAD1, SRCA, 0), ALU(LOAD0, SRCB, 0), ALU(SUB, 0, 0), ALU(STORE, 7, ACCU),
	};
	h_emit(&h, ENGINE_RCS, cmds, 13);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(gpr(&h, 5), (uint64_t)-10);
	CHECK_EQ(gpr(&h, 6), ~1ull);
	CHECK_EQ(gpr(&h, 7), 1);

	/* An unknown ALU opcode is a GPU fault, not a crash. */
	uint32_t bad[] = { MI_MATH(1), ALU(0x7ff, 0, 0) };
	h_emit(&h, ENGINE_RCS, bad, 2);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.faults, 1);
	h_fini(&h);
}

#define PRED_SRC0 0x2400u
#define PRED_SRC1 0x2408u
#define PRED_RESULT 0x2418u

static void test_predicate(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint64_t out = 0x300000;
	h_ppgtt_map(&h, out);
	/* SRC0 == SRC1 == 5: LOAD/SET/SRCS_EQUAL gives 1, LOADINV gives 0. */
	uint32_t c1[] = { MI_LRI(4), PRED_SRC0, 5, PRED_SRC0 + 4, 0, PRED_SRC1, 5, PRED_SRC1 + 4, 0,
			  MI_PREDICATE(2, 0, 2) };
	h_emit(&h, ENGINE_RCS, c1, 10);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(gpu_mmio_read(h.gpu, PRED_RESULT), 1);
	uint32_t c2[] = { MI_PREDICATE(3, 0, 2) };
	h_emit(&h, ENGINE_RCS, c2, 1);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(gpu_mmio_read(h.gpu, PRED_RESULT), 0);
	/* OR with TRUE -> 1; AND with FALSE -> 0; XOR with TRUE -> 1. */
	uint32_t c3[] = { MI_PREDICATE(2, 2, 0) };
	h_emit(&h, ENGINE_RCS, c3, 1);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(gpu_mmio_read(h.gpu, PRED_RESULT), 1);
	uint32_t c4[] = { MI_PREDICATE(2, 1, 1) };
	h_emit(&h, ENGINE_RCS, c4, 1);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(gpu_mmio_read(h.gpu, PRED_RESULT), 0);
	uint32_t c5[] = { MI_PREDICATE(2, 3, 0) };
	h_emit(&h, ENGINE_RCS, c5, 1);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(gpu_mmio_read(h.gpu, PRED_RESULT), 1);
	/* Predicated MI_STORE_REGISTER_MEM (Predicate Enable, bit 21). */
	uint32_t c6[] = { MI_LRI(1), GPR(0), 0xcafe,
			  MI_SRM | 1u << 21, GPR(0), (uint32_t)out, 0,
			  MI_PREDICATE(2, 0, 1),   /* FALSE */
			  MI_SRM | 1u << 21, GPR(0), (uint32_t)out + 4, 0 };
	h_emit(&h, ENGINE_RCS, c6, 12);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h_read32(&h, false, out), 0xcafe);
	CHECK_EQ(h_read32(&h, false, out + 4), 0);
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

/* GPGPU_WALKER's Predicate Enable (PRM vol. 2a) gates the walker on
 * MI_PREDICATE_RESULT. No compute state is loaded, so a walker that runs
 * is a fault; one predicated off does nothing. */
static void test_predicated_walker(void)
{
	uint32_t walker[15];
	CHECK_EQ(cmd_GPGPU_WALKER_pack(8, walker, 15, &(struct cmd_GPGPU_WALKER){
		.predicate_enable = true, .thread_group_id_x_dimension = 1,
		.thread_group_id_y_dimension = 1, .thread_group_id_z_dimension = 1,
		.right_execution_mask = 1, .bottom_execution_mask = 1 }), 0);
	uint32_t select = 0x69040000u | 0x3u << 8 | 2;   /* PIPELINE_SELECT GPGPU, mask */
	for (uint32_t result = 0; result <= 1; result++) {
		struct harness h;
		h_init(&h, 8, true);
		uint32_t c[3 + 1 + 15] = { MI_LRI(1), PRED_RESULT, result, select };
		memcpy(c + 4, walker, sizeof(walker));
		h_emit(&h, ENGINE_RCS, c, 19);
		h_run(&h, ENGINE_RCS);
		if (h.faults)
			fprintf(stderr, "walker fault: %s\n", h.fault_reason);
		CHECK_EQ(h.faults, (int)result);
		h_fini(&h);
	}
}

static void test_registers(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint64_t mem = 0x7f0000000000ull;
	h_ppgtt_map(&h, mem);
	*(uint32_t *)h_ptr(&h, false, mem) = 0x600df00d;
	uint32_t c[] = {
		MI_LRM, GPR(3), (uint32_t)mem, (uint32_t)(mem >> 32),
		MI_LRR, GPR(3), GPR(4),
		MI_SRM, GPR(4), (uint32_t)mem + 8, (uint32_t)(mem >> 32),
		/* Byte Write Disables 0b0101: bytes 0 and 2 keep 0x0d/0x0d. */
		MI_LRI(1) | 0x5u << 8, GPR(4), 0x11223344,
		MI_SRM, GPR(4), (uint32_t)mem + 12, (uint32_t)(mem >> 32),
	};
	h_emit(&h, ENGINE_RCS, c, 18);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(gpr(&h, 3) & 0xffffffff, 0x600df00d);
	CHECK_EQ(h_read32(&h, false, mem + 8), 0x600df00d);
	CHECK_EQ(h_read32(&h, false, mem + 12), 0x110d330d);
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void test_post_sync_writes(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint64_t out = 0x10000, gout = 0x200000;
	h_ppgtt_map(&h, out);
	h_ggtt_map(&h, gout, 1);

	/* MI_FLUSH_DW on BCS: write immediate dword (4 dwords? no: 5 with a
	 * qword), to the PPGTT, then to the GGTT (DAT bit 2 of DWord 1). */
	uint32_t f[] = {
		MI_FLUSH_DW | 1u << 14, (uint32_t)out, 0, 0x11111111, 0x22222222,
		MI_FLUSH_DW | 1u << 14, (uint32_t)gout | 4, 0, 0x33333333, 0x44444444,
		MI_FLUSH_DW | 3u << 14, (uint32_t)out + 16, 0, 0, 0,
	};
	h_emit(&h, ENGINE_BCS, f, 15);
	uint64_t t0 = now_ns();
	h_run(&h, ENGINE_BCS);
	CHECK_EQ(h_read64(&h, false, out), 0x2222222211111111ull);
	CHECK_EQ(h_read64(&h, true, gout), 0x4444444433333333ull);
	uint64_t ts = h_read64(&h, false, out + 16);
	CHECK(ts > 0);
	/* TIMESTAMP ticks at 12.5 MHz (devinfo) from engine creation: it can
	 * not be ahead of the host clock. */
	CHECK(ts <= (t0 / 80) + 1000000000ull);

	/* PIPE_CONTROL on RCS: write immediate QWord (post-sync op 1, bits
	 * 15:14 of DWord 1), GGTT with Destination Address Type (bit 24),
	 * timestamp (op 3), PS depth count (op 2) = the register, 0. */
	uint32_t p[] = {
		PIPE_CONTROL, 1u << 14, (uint32_t)out + 32, 0, 0x55667788, 0x11223344,
		PIPE_CONTROL, 1u << 14 | 1u << 24, (uint32_t)gout + 16, 0, 0xaabbccdd, 0,
		PIPE_CONTROL, 3u << 14, (uint32_t)out + 40, 0, 0, 0,
		PIPE_CONTROL, 2u << 14, (uint32_t)out + 48, 0, 0, 0,
	};
	*(uint64_t *)h_ptr(&h, false, out + 48) = ~0ull;
	h_emit(&h, ENGINE_RCS, p, 24);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h_read64(&h, false, out + 32), 0x1122334455667788ull);
	CHECK_EQ(h_read64(&h, true, gout + 16), 0xaabbccddull);
	CHECK(h_read64(&h, false, out + 40) >= ts);
	CHECK_EQ(h_read64(&h, false, out + 48), 0);
	/* PIPE_CONTROL is not a BCS command: a fault there. */
	h_emit(&h, ENGINE_BCS, p, 6);
	h_run(&h, ENGINE_BCS);
	CHECK_EQ(h.faults, 1);
	h_fini(&h);
}

static void test_timestamp(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint64_t t0 = gpu_mmio_read(h.gpu, 0x2358);
	uint64_t h0 = now_ns();
	struct timespec ts = { 0, 20 * 1000000L };
	nanosleep(&ts, NULL);
	uint64_t t1 = gpu_mmio_read(h.gpu, 0x2358);
	uint64_t dt_ns = now_ns() - h0;
	/* 12.5 MHz: 12.5 ticks per microsecond. */
	uint64_t expect = dt_ns * 125 / 10000;
	CHECK(t1 - t0 <= expect + 20);
	CHECK(t1 - t0 >= 20 * 12500 - 20);
	h_fini(&h);
}

static void test_conditional_end(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint64_t b = 0x400000, val = 0x401000, out = 0x402000;
	h_ppgtt_map(&h, b);
	h_ppgtt_map(&h, val);
	h_ppgtt_map(&h, out);
	uint32_t batch[] = {
		MI_CBBE, 10, (uint32_t)val, 0,
		MI_SDI, (uint32_t)out, 0, 1,
		MI_BBE,
	};
	h_write(&h, false, b, batch, 9);
	uint32_t ring[] = { MI_BBS_PPGTT, (uint32_t)b, 0, MI_NOOP };

	*(uint32_t *)h_ptr(&h, false, val) = 5;          /* 5 <= 10: ends */
	h_emit(&h, ENGINE_RCS, ring, 4);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h_read32(&h, false, out), 0);
	CHECK(engine_is_idle(h.gpu->engines[ENGINE_RCS]));

	*(uint32_t *)h_ptr(&h, false, val) = 11;         /* 11 > 10: goes on */
	h_emit(&h, ENGINE_RCS, ring, 4);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h_read32(&h, false, out), 1);
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

static void test_report_head(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint32_t c[] = { MI_NOOP, MI_NOOP, MI_REPORT_HEAD, MI_NOOP };
	h_emit(&h, ENGINE_RCS, c, 4);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.hws[ENGINE_RCS][4], 8);
	h_fini(&h);
}

/* 3D state commands are recorded for the pipeline; a command shorter
 * than its fixed length is a fault. 3DSTATE_VS is 3D 3/0/0x10 with 9
 * dwords, 3DSTATE_CLIP 3/0/0x12 with 4. */
static void test_state_and_lengths(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint32_t c[] = {
		0x78100007, 0x1000, 0, 0x11, 0, 0, 0x22, 0x33, 0x44,
		0x78120002, 0, 0, 0,
	};
	h_emit(&h, ENGINE_RCS, c, 13);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.faults, 0);
	const struct cmd_desc *vs = cmd_find_id(8, CMD_ID_3DSTATE_VS);
	uint32_t len = 0;
	const uint32_t *rec = cs_state_get(engine_state(h.gpu->engines[ENGINE_RCS]), vs, &len);
	CHECK(rec != NULL);
	CHECK_EQ(len, 9);
	if (rec)
		CHECK(!memcmp(rec, c, 9 * 4));
	/* MI_BATCH_BUFFER_START with DWord Length 0: 2 dwords, too short. */
	uint32_t bad[] = { 0x18800100, 0 };
	h_emit(&h, ENGINE_RCS, bad, 2);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.faults, 1);
	CHECK(strstr(h.fault_reason, "bad length") != NULL);
	h_fini(&h);
}

/* cmds on a new gen-N RCS: one fault naming the command's bad length. */
static void expect_bad_length(int gen, const uint32_t *cmds, uint32_t n, const char *name)
{
	struct harness h;
	h_init(&h, gen, true);
	h_emit(&h, ENGINE_RCS, cmds, n);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.faults, 1);
	CHECK(strstr(h.fault_reason, name) && strstr(h.fault_reason, "bad length"));
	h_fini(&h);
}

/* Commands shorter than their usual length that the hardware accepts, the
 * left-out dwords reading as zero (docs/cmd.md `minlength`), and one dword
 * less than that still a fault. Each is followed by MI_STORE_DATA_IMM to
 * show the command streamer resumed right after the short command. */
static void test_short_lengths(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint64_t out = 0x10000;
	h_ppgtt_map(&h, out);
	memset(h_ptr(&h, false, out), 0xff, 64);

	/* PIPE_CONTROL of 5 dwords (DWord Length 3, the gen7 length IGT's
	 * gem_pipe_control_store_loop emits on gen8, with its old "global GTT"
	 * bit 2 set in the address): the QWord written is Immediate Data low
	 * with a zero high dword, at the QWord-aligned address. */
	uint32_t p[] = {
		0x7a000003, 1u << 14, (uint32_t)out | 4, 0, 0xcafef00d,
		MI_SDI, (uint32_t)out + 8, 0, 0x12345678,
	};
	h_emit(&h, ENGINE_RCS, p, 9);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.faults, 0);
	CHECK_EQ(h_read64(&h, false, out), 0x00000000cafef00dull);
	CHECK_EQ(*(uint32_t *)h_ptr(&h, false, out + 8), 0x12345678u);

	/* MI_FLUSH_DW of 4 dwords (DWord Length 2): one dword of data, the
	 * next dword of memory untouched. */
	uint32_t f[] = {
		0x13000002 | 1u << 14, (uint32_t)out + 16, 0, 0x11111111,
		MI_SDI, (uint32_t)out + 24, 0, 0x9abcdef0,
	};
	h_emit(&h, ENGINE_BCS, f, 8);
	h_run(&h, ENGINE_BCS);
	CHECK_EQ(h.faults, 0);
	CHECK_EQ(h_read64(&h, false, out + 16), 0xffffffff11111111ull);
	CHECK_EQ(*(uint32_t *)h_ptr(&h, false, out + 24), 0x9abcdef0u);

	h_fini(&h);
	/* PIPE_CONTROL of 4 dwords: too short on gen8; gen8 STATE_BASE_ADDRESS
	 * has 16 dwords: 15 is too short. */
	uint32_t p4[] = { 0x7a000002, 1u << 14, (uint32_t)out + 32, 0 };
	expect_bad_length(8, p4, 4, "PIPE_CONTROL");
	uint32_t sba15[15] = { 0x6101000d };
	expect_bad_length(8, sba15, 15, "STATE_BASE_ADDRESS");

	/* SKL STATE_BASE_ADDRESS: 19 dwords, or 18 without Bindless Surface
	 * State Size (WaBindlessSurfaceStateModifyEnable, as IGT's gen9 render
	 * copy emits it); 17 is a fault. */
	h_init(&h, 9, true);
	h_ppgtt_map(&h, out);
	uint32_t sba18[18 + 4] = { 0x61010010 };
	sba18[18] = MI_SDI;
	sba18[19] = (uint32_t)out;
	sba18[21] = 0x600df00d;
	h_emit(&h, ENGINE_RCS, sba18, 22);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.faults, 0);
	CHECK_EQ(*(uint32_t *)h_ptr(&h, false, out), 0x600df00du);
	h_fini(&h);
	uint32_t sba17[17] = { 0x6101000f };
	expect_bad_length(9, sba17, 17, "STATE_BASE_ADDRESS");
}

int main(void)
{
	test_state_and_lengths();
	test_short_lengths();
	test_math();
	test_predicate();
	test_predicated_walker();
	test_registers();
	test_post_sync_writes();
	test_timestamp();
	test_conditional_end();
	test_report_head();
	return test_exit();
}
