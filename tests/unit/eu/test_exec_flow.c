/* Control flow with divergent channels: if/else/endif, loops with break
 * and continue, halt, jmpi, call/ret. Branch offsets are bytes relative to
 * the branch (16-byte instructions here), as Mesa sets them on Gen8. */
#include "test_exec_util.h"

#define AT(k) ((k) * 16)

static struct eu_thread th;

static struct eu_inst cmp(unsigned n, unsigned cond, struct eu_operand a,
			  struct eu_operand b)
{
	struct eu_inst c = i2(EU_OP_CMP, n, null_dst(a.type), a, b);
	c.cond = (uint8_t)cond;
	return c;
}
static struct eu_inst pred(struct eu_inst in)
{
	in.pred = EU_PRED_NORMAL;
	return in;
}
/* A branch at index `at` to indices jip/uip. */
static struct eu_inst bra(unsigned opc, unsigned n, int at, int jip, int uip)
{
	return br(opc, n, AT(jip - at), AT(uip - at));
}

static void run(const struct eu_inst *p, size_t n, unsigned simd, uint32_t mask)
{
	eu_thread_init(&th, simd, mask);
	for (unsigned i = 0; i < 32; i++)
		setud(&th, 2, i, i);          /* g2.i = channel number */
	run_prog(&th, p, n);
	if (!ran_to_end(&th))
		fprintf(stderr, "fault: %s\n", th.fault);
	CHECK(ran_to_end(&th));
}

static void test_if_else(void)
{
	struct eu_inst p[] = {
		/* 0 */ cmp(8, EU_COND_L, g(2, EU_TYPE_D), immd(4)),
		/* 1 */ pred(bra(EU_OP_IF, 8, 1, 4, 5)),
		/* 2 */ i1(EU_OP_MOV, 8, gd(10, EU_TYPE_D), immd(1)),
		/* 3 */ bra(EU_OP_ELSE, 8, 3, 5, 5),
		/* 4 */ i1(EU_OP_MOV, 8, gd(10, EU_TYPE_D), immd(2)),
		/* 5 */ bra(EU_OP_ENDIF, 8, 5, 6, 6),
		/* 6 */ i2(EU_OP_ADD, 8, gd(11, EU_TYPE_D), g(10, EU_TYPE_D), immd(10)),
	};
	run(p, 7, 8, 0xff);
	for (unsigned i = 0; i < 8; i++) {
		CHECK_EQ(rud(&th, 10, i), i < 4 ? 1 : 2);
		CHECK_EQ(rud(&th, 11, i), i < 4 ? 11 : 12);
	}
	/* all channels false: the then-block is skipped, even its NoMask
	 * instruction (the thread jumps) */
	p[0] = cmp(8, EU_COND_L, g(2, EU_TYPE_D), immd(0));
	p[2].no_mask = true;
	run(p, 7, 8, 0xff);
	CHECK_EQ(rud(&th, 10, 0), 2);
	CHECK_EQ(th.instructions, 5);     /* cmp, if, mov, endif, add */
	/* disabled dispatch channels stay untouched in both branches */
	p[0] = cmp(8, EU_COND_L, g(2, EU_TYPE_D), immd(4));
	p[2].no_mask = false;
	run(p, 7, 8, 0x3c);
	CHECK_EQ(rud(&th, 10, 0), 0);
	CHECK_EQ(rud(&th, 10, 3), 1);
	CHECK_EQ(rud(&th, 10, 5), 2);
	CHECK_EQ(rud(&th, 10, 7), 0);
}

static void test_nested_if_simd16(void)
{
	/* if (i < 8) { if (i odd) x = 1 else x = 2 } else { x = 3 } */
	struct eu_inst p[] = {
		/* 0 */ cmp(16, EU_COND_L, g16(2, EU_TYPE_D), immd(8)),
		/* 1 */ pred(bra(EU_OP_IF, 16, 1, 10, 11)),
		/* 2 */ i2(EU_OP_AND, 16, gd(12, EU_TYPE_UD), g16(2, EU_TYPE_UD), immud(1)),
		/* 3 */ cmp(16, EU_COND_NZ, g16(12, EU_TYPE_D), immd(0)),
		/* 4 */ pred(bra(EU_OP_IF, 16, 4, 7, 8)),
		/* 5 */ i1(EU_OP_MOV, 16, gd(10, EU_TYPE_D), immd(1)),
		/* 6 */ bra(EU_OP_ELSE, 16, 6, 8, 8),
		/* 7 */ i1(EU_OP_MOV, 16, gd(10, EU_TYPE_D), immd(2)),
		/* 8 */ bra(EU_OP_ENDIF, 16, 8, 9, 9),
		/* 9 */ bra(EU_OP_ELSE, 16, 9, 11, 11),
		/* 10 */ i1(EU_OP_MOV, 16, gd(10, EU_TYPE_D), immd(3)),
		/* 11 */ bra(EU_OP_ENDIF, 16, 11, 12, 12),
		/* 12 */ i2(EU_OP_ADD, 16, gd(14, EU_TYPE_D), g16(10, EU_TYPE_D), immd(100)),
	};
	run(p, 13, 16, 0xffff);
	for (unsigned i = 0; i < 16; i++)
		CHECK_EQ(rud(&th, 14, i), 100 + (i >= 8 ? 3 : i & 1 ? 1 : 2));
}

static void test_loop_break_continue(void)
{
	/* per channel: for (k = 1; ; k++) { if (k > i) break;
	 * if (k == 2) continue; sum += k; } */
	struct eu_inst p[] = {
		/* 0 */ i1(EU_OP_MOV, 8, gd(21, EU_TYPE_D), immd(0)),
		/* 1 */ i1(EU_OP_MOV, 8, gd(22, EU_TYPE_D), immd(0)),
		/* 2 */ i2(EU_OP_ADD, 8, gd(22, EU_TYPE_D), g(22, EU_TYPE_D), immd(1)),
		/* 3 */ cmp(8, EU_COND_G, g(22, EU_TYPE_D), g(2, EU_TYPE_D)),
		/* 4 */ pred(bra(EU_OP_BREAK, 8, 4, 9, 9)),
		/* 5 */ cmp(8, EU_COND_Z, g(22, EU_TYPE_D), immd(2)),
		/* 6 */ pred(bra(EU_OP_CONTINUE, 8, 6, 9, 9)),
		/* 7 */ i2(EU_OP_ADD, 8, gd(21, EU_TYPE_D), g(21, EU_TYPE_D), g(22, EU_TYPE_D)),
		/* 8 */ br(EU_OP_NOP, 8, 0, 0),
		/* 9 */ bra(EU_OP_WHILE, 8, 9, 2, 2),
		/* 10 */ i2(EU_OP_ADD, 8, gd(23, EU_TYPE_D), g(21, EU_TYPE_D), immd(1000)),
	};
	run(p, 11, 8, 0xff);
	int want[8] = { 0, 1, 1, 4, 8, 13, 19, 26 };   /* 1+3+4+..+i */
	for (unsigned i = 0; i < 8; i++) {
		CHECK_EQ((int32_t)rud(&th, 21, i), want[i]);
		CHECK_EQ((int32_t)rud(&th, 23, i), 1000 + want[i]);
	}
	/* a predicated while: do { k++ } while (k < i) */
	struct eu_inst q[] = {
		/* 0 */ i1(EU_OP_MOV, 8, gd(22, EU_TYPE_D), immd(0)),
		/* 1 */ i2(EU_OP_ADD, 8, gd(22, EU_TYPE_D), g(22, EU_TYPE_D), immd(1)),
		/* 2 */ cmp(8, EU_COND_L, g(22, EU_TYPE_D), g(2, EU_TYPE_D)),
		/* 3 */ pred(bra(EU_OP_WHILE, 8, 3, 1, 1)),
		/* 4 */ i2(EU_OP_ADD, 8, gd(23, EU_TYPE_D), g(22, EU_TYPE_D), immd(0)),
	};
	run(q, 5, 8, 0xff);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(rud(&th, 23, i), i < 1 ? 1 : i);
}

static void test_nested_loops(void)
{
	/* for (a = 0; a < i; a++) for (b = 0; b < a; b++) n++;  n = i(i-1)/2 */
	struct eu_inst p[] = {
		/* 0 */ i1(EU_OP_MOV, 8, gd(30, EU_TYPE_D), immd(0)),          /* n */
		/* 1 */ i1(EU_OP_MOV, 8, gd(31, EU_TYPE_D), immd(0)),          /* a */
		/* 2 */ cmp(8, EU_COND_GE, g(31, EU_TYPE_D), g(2, EU_TYPE_D)),
		/* 3 */ pred(bra(EU_OP_BREAK, 8, 3, 12, 12)),
		/* 4 */ i1(EU_OP_MOV, 8, gd(32, EU_TYPE_D), immd(0)),          /* b */
		/* 5 */ cmp(8, EU_COND_GE, g(32, EU_TYPE_D), g(31, EU_TYPE_D)),
		/* 6 */ pred(bra(EU_OP_BREAK, 8, 6, 9, 9)),
		/* 7 */ i2(EU_OP_ADD, 8, gd(30, EU_TYPE_D), g(30, EU_TYPE_D), immd(1)),
		/* 8 */ i2(EU_OP_ADD, 8, gd(32, EU_TYPE_D), g(32, EU_TYPE_D), immd(1)),
		/* 9 */ bra(EU_OP_WHILE, 8, 9, 5, 5),
		/* 10 */ i2(EU_OP_ADD, 8, gd(31, EU_TYPE_D), g(31, EU_TYPE_D), immd(1)),
		/* 11 */ br(EU_OP_NOP, 8, 0, 0),
		/* 12 */ bra(EU_OP_WHILE, 8, 12, 2, 2),
	};
	run(p, 13, 8, 0xff);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(rud(&th, 30, i), i * (i - (i ? 1 : 0)) / 2);
}

static void test_halt(void)
{
	struct eu_inst p[] = {
		/* 0 */ i2(EU_OP_AND, 8, null_dst(EU_TYPE_UD), g(2, EU_TYPE_UD), immud(1)),
		/* 1 */ pred(bra(EU_OP_HALT, 8, 1, 3, 3)),
		/* 2 */ i1(EU_OP_MOV, 8, gd(30, EU_TYPE_D), immd(5)),
		/* 3 */ bra(EU_OP_HALT, 8, 3, 4, 4),     /* the final halt */
		/* 4 */ i1(EU_OP_MOV, 8, gd(31, EU_TYPE_D), immd(7)),
	};
	p[0].cond = EU_COND_NZ;
	run(p, 5, 8, 0xff);
	for (unsigned i = 0; i < 8; i++) {
		CHECK_EQ(rud(&th, 30, i), i & 1 ? 0 : 5);
		CHECK_EQ(rud(&th, 31, i), 7);
	}
	/* every channel halts: the thread goes straight to the final halt */
	p[0] = i2(EU_OP_OR, 8, null_dst(EU_TYPE_UD), g(2, EU_TYPE_UD), immud(1));
	p[0].cond = EU_COND_NZ;
	run(p, 5, 8, 0xff);
	CHECK_EQ(rud(&th, 30, 0), 0);
	CHECK_EQ(rud(&th, 31, 0), 7);
}

static void test_jmpi_call(void)
{
	/* jmpi: the offset (src1 immediate) counts from the next instruction */
	struct eu_inst j = i2(EU_OP_JMPI, 1, arf(EU_ARF_IP, EU_TYPE_UD), arf(EU_ARF_IP, EU_TYPE_UD), immd(16));
	struct eu_inst p[] = {
		j,
		i1(EU_OP_MOV, 8, gd(40, EU_TYPE_D), immd(1)),
		i1(EU_OP_MOV, 8, gd(41, EU_TYPE_D), immd(2)),
	};
	p[0].jip = 16;
	run(p, 3, 8, 0xff);
	CHECK_EQ(rud(&th, 40, 0), 0);
	CHECK_EQ(rud(&th, 41, 0), 2);
	/* predicated jmpi with a false flag falls through */
	p[0].pred = EU_PRED_NORMAL;
	run(p, 3, 8, 0xff);
	CHECK_EQ(rud(&th, 40, 0), 1);
	/* call stores the return address and jumps; ret comes back */
	struct eu_inst c = i1(EU_OP_CALL, 1, gd(50, EU_TYPE_UD), immd(0));
	c.jip = AT(3);
	struct eu_inst r = i1(EU_OP_RET, 1, null_dst(EU_TYPE_UD), gs(50, 0, EU_TYPE_UD));
	struct eu_inst jj = j;
	jj.src[1] = immd(AT(2));
	jj.jip = AT(2);
	struct eu_inst q[] = {
		/* 0 */ c,
		/* 1 */ i1(EU_OP_MOV, 8, gd(51, EU_TYPE_D), immd(1)),
		/* 2 */ jj,                    /* to 5 */
		/* 3 */ i1(EU_OP_MOV, 8, gd(52, EU_TYPE_D), immd(2)),
		/* 4 */ r,
		/* 5 */ br(EU_OP_NOP, 1, 0, 0),
	};
	run(q, 6, 8, 0xff);
	CHECK_EQ(rud(&th, 50, 0), AT(1));
	CHECK_EQ(rud(&th, 51, 0), 1);
	CHECK_EQ(rud(&th, 52, 0), 2);
	CHECK_EQ(th.instructions, 6);
}

static void test_goto_join(void)
{
	/* (+f0) goto to the join: taken channels skip the mov */
	struct eu_inst p[] = {
		/* 0 */ cmp(8, EU_COND_L, g(2, EU_TYPE_D), immd(3)),
		/* 1 */ pred(bra(EU_OP_GOTO, 8, 1, 3, 3)),
		/* 2 */ i1(EU_OP_MOV, 8, gd(60, EU_TYPE_D), immd(1)),
		/* 3 */ bra(EU_OP_JOIN, 8, 3, 4, 4),
		/* 4 */ i2(EU_OP_ADD, 8, gd(61, EU_TYPE_D), g(60, EU_TYPE_D), immd(10)),
	};
	run(p, 5, 8, 0xff);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(rud(&th, 61, i), i < 3 ? 10 : 11);
}

static void test_brd_wait(void)
{
	/* brd: channels whose predicate holds branch to JIP, the others run
	 * on and meet them there */
	struct eu_inst p[] = {
		/* 0 */ cmp(8, EU_COND_L, g(2, EU_TYPE_D), immd(4)),
		/* 1 */ pred(bra(EU_OP_BRD, 8, 1, 3, 3)),
		/* 2 */ i1(EU_OP_MOV, 8, gd(70, EU_TYPE_D), immd(1)),
		/* 3 */ i2(EU_OP_ADD, 8, gd(71, EU_TYPE_D), g(70, EU_TYPE_D), immd(5)),
	};
	run(p, 4, 8, 0xff);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(rud(&th, 71, i), i < 4 ? 5 : 6);
	/* wait consumes a pending notification in n0 */
	struct eu_inst w = br(EU_OP_WAIT, 1, 0, 0);
	eu_thread_init(&th, 8, 0xff);
	uint32_t n0 = 2;
	memcpy(eu_arf(&th, EU_ARF_N0), &n0, 4);
	run_prog(&th, &w, 1);
	CHECK(ran_to_end(&th));
	memcpy(&n0, eu_arf(&th, EU_ARF_N0), 4);
	CHECK_EQ(n0, 1);
	/* with no notification pending the thread is suspended at the wait
	 * (EU_THREAD_WAIT, ip on it, nothing after it run); a notification
	 * and READY resume it there: the wait consumes it and the thread
	 * runs on */
	struct eu_inst ws[] = {
		/* 0 */ br(EU_OP_WAIT, 1, 0, 0),
		/* 1 */ i1(EU_OP_MOV, 8, gd(72, EU_TYPE_D), immd(7)),
	};
	struct exec_prog *prog = exec_prog_build(8, ws, NULL, 2);
	CHECK(prog != NULL);
	eu_thread_init(&th, 8, 0xff);
	CHECK_EQ(exec_run(&th, prog, 0), EU_THREAD_WAIT);
	CHECK_EQ(th.ip, 0);
	CHECK_EQ(rud(&th, 72, 0), 0);
	CHECK_EQ(exec_run(&th, prog, 0), EU_THREAD_WAIT);   /* still nothing pending */
	n0 = 1;
	memcpy(eu_arf(&th, EU_ARF_N0), &n0, 4);
	th.state = EU_THREAD_READY;
	exec_run(&th, prog, 0);
	CHECK(ran_to_end(&th));
	CHECK_EQ(rud(&th, 72, 0), 7);
	memcpy(&n0, eu_arf(&th, EU_ARF_N0), 4);
	CHECK_EQ(n0, 0);
	exec_prog_free(prog);
}

int main(void)
{
	test_brd_wait();
	test_goto_join();
	test_if_else();
	test_nested_if_simd16();
	test_loop_break_continue();
	test_nested_loops();
	test_halt();
	test_jmpi_call();
	return test_exit();
}
