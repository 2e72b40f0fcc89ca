/* The illegal-instruction exception: undefined opcodes, illegal regions,
 * register accesses past the register file, bad branch targets, messages
 * to shared functions nobody implements. Each must stop the thread with a
 * fault naming the problem, never crash the host; random instructions must
 * not crash it either (this test runs under ASan/UBSan). */
#include <stdio.h>
#include <stdlib.h>

#include "gpu/eu/isa.h"
#include "gpu/eu/send.h"
#include "test_exec_util.h"

static struct eu_thread th;

static void expect_fault(struct eu_inst in, const char *words)
{
	struct eu_inst p[2] = { in, i1(EU_OP_MOV, 8, gd(1, EU_TYPE_D), immd(1)) };
	eu_thread_init(&th, 8, 0xff);
	run_prog(&th, p, 2);
	CHECK_EQ(th.state, EU_THREAD_FAULT);
	CHECK(strstr(th.fault, words) != NULL);
	if (!strstr(th.fault, words))
		fprintf(stderr, "  fault was: %s\n", th.fault);
	CHECK_EQ(rud(&th, 1, 0), 0);        /* nothing after the fault ran */
}

/* Executed on gen 8 and 9 (built with that gen's opcode table). */
static void expect_fault_gen(int gen, struct eu_inst in, const char *words)
{
	struct eu_inst p[2] = { in, i1(EU_OP_MOV, 8, gd(1, EU_TYPE_D), immd(1)) };
	struct exec_prog *prog = exec_prog_build(gen, p, NULL, 2);
	eu_thread_init(&th, 8, 0xff);
	exec_run(&th, prog, 1000);
	exec_prog_free(prog);
	CHECK_EQ(th.state, EU_THREAD_FAULT);
	CHECK(strstr(th.fault, words) != NULL);
	if (!strstr(th.fault, words))
		fprintf(stderr, "  gen%d fault was: %s\n", gen, th.fault);
	CHECK_EQ(rud(&th, 1, 0), 0);
}

static int sink(void *ctx, struct eu_thread *t, const struct eu_send *m)
{
	(void)ctx; (void)t; (void)m;
	return 0;
}

int main(void)
{
	struct eu_inst bad = i1(EU_OP_MOV, 8, gd(10, EU_TYPE_D), immd(1));
	bad.opcode = 0x7f;                                   /* undefined */
	expect_fault(bad, "undefined");
	bad.opcode = EU_OP_ILLEGAL;
	expect_fault(bad, "illegal");
	for (int gen = 8; gen <= 9; gen++) {
		/* ror/rol (0x0e/0x0f) exist from gen11 only (Mesa's opcode
		 * table: GFX11; iga64 -p=8/-p=9 has no such mnemonic) */
		struct eu_inst rot = i2(EU_OP_ROR, 1, gd(12, EU_TYPE_UD), immud(0x80000001), immud(1));
		expect_fault_gen(gen, rot, "ror (opcode 0x0e): undefined opcode");
		rot.opcode = EU_OP_ROL;
		expect_fault_gen(gen, rot, "rol (opcode 0x0f): undefined opcode");
		/* smov exists on gen8/9 (iga64 assembles it) but is not
		 * modelled: an explicit fault, never a silent result */
		struct eu_inst sm = i2(EU_OP_SMOV, 8, gd(12, EU_TYPE_UD), g(2, EU_TYPE_UD), immud(0));
		expect_fault_gen(gen, sm, "smov (opcode 0x0a): not implemented in gtsim");
	}
	/* math: PRM vol. 7 "math" restricts INT DIV to integer operands
	 * and every other function to float ones (eu_jit fuzz finding: an
	 * exp on D operands ran as an integer divide in the interpreter) */
	struct eu_inst mexp = i2(EU_OP_MATH, 8, gd(12, EU_TYPE_D), g(2, EU_TYPE_D), immd(-1977));
	mexp.math_fn = EU_MATH_EXP;
	expect_fault(mexp, "math float function with an integer operand");
	mexp.dst = gd(12, EU_TYPE_F);
	expect_fault(mexp, "math float function with an integer operand");
	struct eu_inst mdiv = i2(EU_OP_MATH, 8, gd(12, EU_TYPE_D), g(2, EU_TYPE_F), immd(3));
	mdiv.math_fn = EU_MATH_INT_DIV_QUOTIENT;
	expect_fault(mdiv, "math integer divide with a float operand");
	/* mov(16) to g127: the second register would be g128 */
	expect_fault(i1(EU_OP_MOV, 16, gd(127, EU_TYPE_F), immf(1)), "past the end");
	expect_fault(i1(EU_OP_MOV, 8, gd(10, EU_TYPE_F), g(127, EU_TYPE_DF)), "past the end");
	/* region width larger than the execution size */
	expect_fault(i1(EU_OP_MOV, 1, gd(10, EU_TYPE_F), g(2, EU_TYPE_F)), "width");
	/* architecture registers that do not exist: f2, 0xe0 */
	expect_fault(i1(EU_OP_MOV, 1, gd(10, EU_TYPE_UD), arf(0x32, EU_TYPE_UD)), "does not exist");
	struct eu_operand bogus = arf(0xe0, EU_TYPE_UD);
	bogus.hstride = 1;
	expect_fault(i1(EU_OP_MOV, 1, bogus, immud(1)), "does not exist");
	/* destination stride 0 */
	struct eu_inst d0 = i1(EU_OP_MOV, 8, gd(10, EU_TYPE_F), immf(1));
	d0.dst.hstride = 0;
	expect_fault(d0, "stride 0");
	expect_fault(i1(EU_OP_MOV, 3, gd(10, EU_TYPE_F), immf(1)), "execution size");
	/* indirect source beyond the GRF file: a0.0 = 4090 */
	struct eu_operand ind = g(0, EU_TYPE_UD);
	ind.addr_mode = EU_ADDR_INDIRECT;
	struct eu_inst in = i1(EU_OP_MOV, 8, gd(10, EU_TYPE_UD), ind);
	struct eu_inst seta0 = i1(EU_OP_MOV, 1, op_reg(EU_FILE_ARF, EU_ARF_A0, 0, EU_TYPE_UW, 0, 1, 1),
				  imm(EU_TYPE_UW, 4090));
	struct eu_inst p[3] = { seta0, in, i1(EU_OP_MOV, 8, gd(1, EU_TYPE_D), immd(1)) };
	eu_thread_init(&th, 8, 0xff);
	run_prog(&th, p, 3);
	CHECK(th.state == EU_THREAD_FAULT && strstr(th.fault, "indirect"));
	/* branch whose JIP lands mid-instruction */
	expect_fault(br(EU_OP_IF, 8, 8, 8), "JIP");
	/* send to the sampler with nobody registered: a fault naming it */
	struct eu_inst s = i2(EU_OP_SEND, 8, gd(20, EU_TYPE_UD), g(2, EU_TYPE_UD), immud(0));
	s.sfid = EU_SFID_SAMPLER;
	s.desc = 2u << 25 | 4u << 20;
	expect_fault(s, "sampler");
	/* payload past g127 */
	const struct sfid_table tab = { .fn = {
		[EU_SFID_URB] = sink,
	} };
	s.sfid = EU_SFID_URB;
	s.src[0] = g(125, EU_TYPE_UD);
	s.desc = 9u << 25;
	eu_thread_init(&th, 8, 0xff);
	th.sfids = &tab;
	run_prog(&th, &s, 1);
	CHECK(th.state == EU_THREAD_FAULT && strstr(th.fault, "payload"));
	/* an endless loop stops at the instruction budget */
	struct eu_inst loop = br(EU_OP_WHILE, 8, 0, 0);
	eu_thread_init(&th, 8, 0xff);
	struct exec_prog *lp = exec_prog_build(8, &loop, NULL, 1);
	CHECK_EQ(exec_run(&th, lp, 1000), EU_THREAD_LIMIT);
	CHECK_EQ(th.instructions, 1000);
	exec_prog_free(lp);

	/* random instructions: any outcome but a host crash */
	srand(12345);
	for (int k = 0; k < 3000; k++) {
		struct eu_inst r[4];
		unsigned char *b = (unsigned char *)r;
		for (size_t i = 0; i < sizeof(r); i++)
			b[i] = (unsigned char)rand();
		for (int i = 0; i < 4; i++) {
			/* keep some plausibility so the executor gets past
			 * translation more often */
			if (rand() & 1) {
				r[i].exec_size = (uint8_t)(1u << (rand() % 6));
				r[i].group = 0;
				r[i].pred = 0;
				r[i].flag_nr = r[i].flag_subnr = 0;
				r[i].opcode = (uint8_t)(0x40 + rand() % 0x20);
				r[i].dst.type = (uint8_t)(rand() % EU_TYPE_V);
				r[i].dst.file = EU_FILE_GRF;
				for (int q = 0; q < 3; q++) {
					r[i].src[q].type = (uint8_t)(rand() % EU_TYPE_NUM);
					r[i].src[q].file = (uint8_t)(rand() % 4);
				}
			}
			/* C bools must hold 0 or 1 */
			r[i].no_mask = rand() & 1; r[i].saturate = rand() & 1; r[i].debug = rand() & 1;
			r[i].acc_wr = rand() & 1; r[i].compacted = rand() & 1; r[i].branch_ctrl = rand() & 1;
			r[i].eot = rand() & 1; r[i].pred_inv = rand() & 1; r[i].desc_is_reg = rand() & 1;
			r[i].dst.negate = rand() & 1; r[i].dst.abs = rand() & 1;
			for (int q = 0; q < 3; q++) {
				r[i].src[q].negate = rand() & 1;
				r[i].src[q].abs = rand() & 1;
			}
			r[i].jip = (int32_t)(rand() % 9 - 4) * 16;
			r[i].uip = (int32_t)(rand() % 9 - 4) * 16;
		}
		eu_thread_init(&th, 16, (uint32_t)rand());
		th.sfids = &tab;
		for (int i = 0; i < 128; i++)
			setud(&th, (unsigned)i, 0, (uint32_t)rand());
		struct exec_prog *rp = exec_prog_build(8, r, NULL, 4);
		exec_run(&th, rp, 64);
		CHECK(th.state != EU_THREAD_READY);
		exec_prog_free(rp);
	}
	/* random bytes through eu-isa's decoder: whatever decodes runs */
	unsigned decoded = 0;
	for (int k = 0; k < 3000; k++) {
		/* four instructions that decode one by one */
		uint8_t bytes[64];
		for (int n = 0; n < 4; n++) {
			struct eu_inst tmp;
			int tries = 0;
			do {
				for (int i = 0; i < 16; i++)
					bytes[16 * n + i] = (uint8_t)rand();
				bytes[16 * n + 3] &= (uint8_t)~0x20;   /* native form */
			} while (eu_decode(8 + (k & 1), bytes + 16 * n, 16, &tmp, NULL) && ++tries < 1000);
		}
		size_t bad = 0;
		struct exec_prog *bp = exec_prog_from_bytes(8 + (k & 1), bytes, sizeof(bytes), &bad);
		if (!bp)
			continue;
		decoded++;
		eu_thread_init(&th, 16, (uint32_t)rand());
		th.sfids = &tab;
		exec_run(&th, bp, 64);
		CHECK(th.state != EU_THREAD_READY);
		exec_prog_free(bp);
	}
	printf("%u random byte programs decoded and ran\n", decoded);
	return test_exit();
}
