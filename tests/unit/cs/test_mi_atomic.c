/* MI_ATOMIC, every opcode and operand form, against values worked out by
 * hand from the BDW/SKL PRM vol. 2a "MI_ATOMIC" and vol. 7 "Atomic
 * Operations":
 *  - Inline Data set: Operand1 in dwords 3/5/7/9, Operand2 in 4/6/8/10;
 *  - Inline Data clear: a 3-dword command, Operand1 = [CS_GPR1:CS_GPR0],
 *    Operand2 = [CS_GPR3:CS_GPR2];
 *  - Return Data Control: the pre-atomic memory value in CS_GPR4 (low
 *    dword only for a DWord, the qword for a QWord) and CS_GPR5 (upper
 *    qword of an OctWord);
 *  - OCTWORD: compare-and-write (0x4e) of 16 bytes;
 *  - Post-Sync Operation and size/opcode mismatches are GPU faults.
 * Each case runs on BDW and SKL. */
#include "test.h"
#include "cs_harness.h"

#define MI_ATOMIC_HDR 0x17800000u
#define INLINE (1u << 18)
#define RETURN_DATA (1u << 16)
#define CS_STALL (1u << 17)
#define SIZE(s) ((uint32_t)(s) << 19)
#define POST_SYNC (1u << 21)
#define GPR(n) (0x2600u + 8u * (n))
#define MEM 0x400000u

static void set64(struct harness *h, uint32_t reg, uint64_t v)
{
	uint32_t c[] = { 0x11000003u, reg, (uint32_t)v, reg + 4, (uint32_t)(v >> 32) };
	h_emit(h, ENGINE_RCS, c, 5);
}

static uint64_t get64(struct harness *h, uint32_t reg)
{
	return gpu_mmio_read(h->gpu, reg) | (uint64_t)gpu_mmio_read(h->gpu, reg + 4) << 32;
}

struct op_case {
	uint32_t op;
	uint64_t old, src1, src2, want;
};

/* DWord opcodes over a dword whose neighbour above holds 0xaaaaaaaa. */
static const struct op_case dword_cases[] = {
	{ 0x01, 0xf0f0, 0xff00, 0, 0xf000 },             /* AND */
	{ 0x02, 0xf0f0, 0x0f0f, 0, 0xffff },             /* OR */
	{ 0x03, 0xf0f0, 0xffff, 0, 0x0f0f },             /* XOR */
	{ 0x04, 7, 0x1234, 0, 0x1234 },                  /* MOVE */
	{ 0x05, 0xffffffff, 0, 0, 0 },                   /* INC wraps */
	{ 0x06, 0, 0, 0, 0xffffffff },                   /* DEC wraps */
	{ 0x07, 100, 5, 0, 105 },                        /* ADD */
	{ 0x08, 100, 10, 0, 90 },                        /* SUB */
	{ 0x09, 100, 1000, 0, 900 },                     /* RSUB: src1 - old */
	{ 0x0a, 5, 0xffffffff, 0, 5 },                   /* IMAX(5, -1) */
	{ 0x0b, 5, 0xffffffff, 0, 0xffffffff },          /* IMIN(5, -1) */
	{ 0x0c, 5, 0xffffffff, 0, 0xffffffff },          /* UMAX */
	{ 0x0d, 5, 0xffffffff, 0, 5 },                   /* UMIN */
	{ 0x0e, 7, 7, 42, 42 },                          /* CMP_WR hit */
	{ 0x0e, 7, 8, 42, 7 },                           /* CMP_WR miss */
	{ 0x0f, 3, 0, 0, 2 },                            /* PREDEC */
};

static const struct op_case qword_cases[] = {
	{ 0x21, 0xff00ff00ff00ff00ull, 0x0ff00ff00ff00ff0ull, 0, 0x0f000f000f000f00ull },
	{ 0x22, 0x1ull << 63, 1, 0, (1ull << 63) | 1 },
	{ 0x23, ~0ull, 0xffff0000ffff0000ull, 0, 0x0000ffff0000ffffull },
	{ 0x24, 1, 0x123456789abcdefull, 0, 0x123456789abcdefull },
	{ 0x25, 0xffffffffull, 0, 0, 0x100000000ull },    /* INC8B carries */
	{ 0x26, 0x100000000ull, 0, 0, 0xffffffffull },    /* DEC8B borrows */
	{ 0x27, 0xffffffffull, 1, 0, 0x100000000ull },    /* ADD8B */
	{ 0x28, 0, 1, 0, ~0ull },                         /* SUB8B */
	{ 0x29, 1, 0x100000000ull, 0, 0xffffffffull },    /* RSUB8B */
	{ 0x2a, 1, 1ull << 63, 0, 1 },                    /* IMAX8B(1, min) */
	{ 0x2b, 1, 1ull << 63, 0, 1ull << 63 },           /* IMIN8B */
	{ 0x2c, 1, 1ull << 63, 0, 1ull << 63 },           /* UMAX8B */
	{ 0x2d, 1, 1ull << 63, 0, 1 },                    /* UMIN8B */
	{ 0x2e, 0x123456789ull, 0x123456789ull, 0xabcdef0123ull, 0xabcdef0123ull },
	{ 0x2e, 0x123456789ull, 0x023456789ull, 0xabcdef0123ull, 0x123456789ull },
	{ 0x2f, 0x100000000ull, 0, 0, 0xffffffffull },    /* PREDEC8B */
};

/* Runs one MI_ATOMIC at MEM (qword old, upper dword preset for a DWord)
 * with the operands inline or in the GPRs; GPR4 preset to a marker.
 * Checks memory and GPR4 (the return data, or the marker untouched). */
static void run_case(int gen, const struct op_case *k, bool qword, bool inline_data,
		     bool ret)
{
	struct harness h;
	h_init(&h, gen, true);
	h_ppgtt_map(&h, MEM);
	const uint64_t hi = qword ? 0 : 0xaaaaaaaa00000000ull;
	const uint64_t marker = 0x5555555566666666ull;
	uint64_t old = hi | k->old;
	uint32_t init[2] = { (uint32_t)old, (uint32_t)(old >> 32) };
	h_write(&h, false, MEM, init, 2);
	set64(&h, GPR(4), marker);
	uint32_t hdr = MI_ATOMIC_HDR | k->op << 8 | SIZE(qword) | CS_STALL |
		       (ret ? RETURN_DATA : 0);
	if (inline_data) {
		uint32_t c[] = { hdr | INLINE | 9, MEM, 0, (uint32_t)k->src1, (uint32_t)k->src2,
				 (uint32_t)(k->src1 >> 32), (uint32_t)(k->src2 >> 32), 0, 0, 0, 0 };
		h_emit(&h, ENGINE_RCS, c, 11);
	} else {
		set64(&h, GPR(0), k->src1);
		set64(&h, GPR(2), k->src2);
		/* GPR1/GPR3 are an OctWord's upper halves: not read here. */
		set64(&h, GPR(1), 0x7777777777777777ull);
		set64(&h, GPR(3), 0x7777777777777777ull);
		uint32_t c[] = { hdr | 1, MEM, 0 };
		h_emit(&h, ENGINE_RCS, c, 3);
	}
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.faults, 0);
	CHECK_EQ(h_read64(&h, false, MEM), hi | k->want);
	uint64_t want_gpr4 = !ret ? marker
			     : qword ? k->old
			     : (marker & 0xffffffff00000000ull) | k->old;
	CHECK_EQ(get64(&h, GPR(4)), want_gpr4);
	if (h.faults || h_read64(&h, false, MEM) != (hi | k->want))
		fprintf(stderr, "  gen %d op 0x%02x inline %d return %d\n", gen, k->op,
			inline_data, ret);
	h_fini(&h);
}

/* CMP_WR16B over 16 bytes: hit writes Operand2, miss (upper qword
 * differs) leaves memory; the return data is the old 16 bytes. */
static void test_octword(int gen, bool inline_data, bool hit)
{
	struct harness h;
	h_init(&h, gen, true);
	h_ppgtt_map(&h, MEM);
	uint32_t old[4] = { 0x11111111, 0x22222222, 0x33333333, 0x44444444 };
	uint32_t cmp[4] = { 0x11111111, 0x22222222, 0x33333333, hit ? 0x44444444 : 0x44444445 };
	uint32_t nv[4] = { 0xa0a0a0a0, 0xb1b1b1b1, 0xc2c2c2c2, 0xd3d3d3d3 };
	h_write(&h, false, MEM, old, 4);
	uint32_t hdr = MI_ATOMIC_HDR | 0x4eu << 8 | SIZE(2) | RETURN_DATA;
	if (inline_data) {
		uint32_t c[] = { hdr | INLINE | 9, MEM, 0, cmp[0], nv[0], cmp[1], nv[1],
				 cmp[2], nv[2], cmp[3], nv[3] };
		h_emit(&h, ENGINE_RCS, c, 11);
	} else {
		set64(&h, GPR(0), cmp[0] | (uint64_t)cmp[1] << 32);
		set64(&h, GPR(1), cmp[2] | (uint64_t)cmp[3] << 32);
		set64(&h, GPR(2), nv[0] | (uint64_t)nv[1] << 32);
		set64(&h, GPR(3), nv[2] | (uint64_t)nv[3] << 32);
		uint32_t c[] = { hdr | 1, MEM, 0 };
		h_emit(&h, ENGINE_RCS, c, 3);
	}
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.faults, 0);
	const uint32_t *want = hit ? nv : old;
	CHECK_EQ(h_read64(&h, false, MEM), want[0] | (uint64_t)want[1] << 32);
	CHECK_EQ(h_read64(&h, false, MEM + 8), want[2] | (uint64_t)want[3] << 32);
	CHECK_EQ(get64(&h, GPR(4)), 0x2222222211111111ull);
	CHECK_EQ(get64(&h, GPR(5)), 0x4444444433333333ull);
	h_fini(&h);
}

/* A command that must fault, and the fault's reason. */
static void test_fault(uint32_t hdr, const char *reason)
{
	struct harness h;
	h_init(&h, 9, true);
	h_ppgtt_map(&h, MEM);
	uint32_t c[] = { hdr, MEM, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	h_emit(&h, ENGINE_RCS, c, 11);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.faults, 1);
	CHECK(strstr(h.fault_reason, reason) != NULL);
	h_fini(&h);
}

int main(void)
{
	for (int gen = 8; gen <= 9; gen++) {
		for (int form = 0; form < 4; form++) {
			bool inline_data = form & 1, ret = form & 2;
			for (size_t i = 0; i < sizeof(dword_cases) / sizeof(dword_cases[0]); i++)
				run_case(gen, &dword_cases[i], false, inline_data, ret);
			for (size_t i = 0; i < sizeof(qword_cases) / sizeof(qword_cases[0]); i++)
				run_case(gen, &qword_cases[i], true, inline_data, ret);
		}
		for (int form = 0; form < 4; form++)
			test_octword(gen, form & 1, form & 2);
	}
	test_fault(MI_ATOMIC_HDR | 0x07u << 8 | INLINE | POST_SYNC | 9,
		   "MI_ATOMIC with Post-Sync Operation");
	test_fault(MI_ATOMIC_HDR | 0x07u << 8 | INLINE | SIZE(3) | 9, "reserved Data Size");
	test_fault(MI_ATOMIC_HDR | 0x07u << 8 | INLINE | SIZE(2) | 9,
		   "opcode 0x07 with OCTWORD size");
	test_fault(MI_ATOMIC_HDR | 0x07u << 8 | INLINE | SIZE(1) | 9,
		   "opcode 0x07 with QWORD size");
	test_fault(MI_ATOMIC_HDR | 0x27u << 8 | INLINE | 9, "opcode 0x27 with DWORD size");
	test_fault(MI_ATOMIC_HDR | 0x10u << 8 | INLINE | 9, "unknown atomic opcode 0x10");
	return test_exit();
}
