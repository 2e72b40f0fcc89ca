/* The EU JIT (src/gpu/eu/jit/): a program of the inline ALU forms run in
 * the interpreter, in compiled code and in check mode gives the values
 * computed here by hand (CPU arithmetic), with a disabled channel and
 * predication; the instruction budget stops compiled code where it stops
 * the interpreter; and check mode catches a deliberately wrong compiler
 * (it aborts), which proves the comparison of every other test run under
 * GTSIM_JIT=check (meson: *_jit_check) can fail; pln inline in both
 * widths against fmaf on the CPU. Skips without LLVM. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu/eu/asm.h"
#include "gpu/eu/jit/jit.h"
#include "test_exec_util.h"

static struct eu_thread th;

/* SIMD16 align16 row (mad's sources on Gen8) */
static struct eu_operand a16(unsigned nr)
{
	return op_reg(EU_FILE_GRF, nr, 0, EU_TYPE_F, 4, 4, 1);
}

static size_t program(struct eu_inst *p, int32_t add_imm)
{
	size_t n = 0;
	p[n++] = i2(EU_OP_ADD, 16, gd(10, EU_TYPE_D), g16(2, EU_TYPE_D), immd(add_imm));
	p[n++] = i2(EU_OP_MUL, 16, gd(12, EU_TYPE_F), g16(4, EU_TYPE_F), immf(2.0f));
	struct eu_inst m = i3(EU_OP_MAD, 16, gd(14, EU_TYPE_F), a16(12), a16(4), a16(4));
	m.access_mode = EU_ALIGN16;
	p[n++] = m;
	struct eu_inst c = i2(EU_OP_CMP, 16, null_dst(EU_TYPE_D), g16(2, EU_TYPE_D), immd(5));
	c.cond = EU_COND_L;
	p[n++] = c;
	struct eu_inst s = i2(EU_OP_SEL, 16, gd(16, EU_TYPE_D), g16(10, EU_TYPE_D),
			      g16(2, EU_TYPE_D));
	s.pred = EU_PRED_NORMAL;
	p[n++] = s;
	struct eu_inst a = i2(EU_OP_ADD, 16, gd(18, EU_TYPE_D), g16(2, EU_TYPE_D), immd(1));
	a.pred = EU_PRED_NORMAL;
	p[n++] = a;
	p[n++] = i2(EU_OP_SHL, 16, gd(20, EU_TYPE_D), g16(2, EU_TYPE_D), immd(2));
	p[n++] = i2(EU_OP_AND, 16, gd(22, EU_TYPE_UD), g16(2, EU_TYPE_UD), immud(6));
	p[n++] = i1(EU_OP_MOV, 16, gd(24, EU_TYPE_F), g16(2, EU_TYPE_D));
	struct eu_inst x = i2(EU_OP_SEL, 16, gd(26, EU_TYPE_F), g16(4, EU_TYPE_F), immf(3.0f));
	x.cond = EU_COND_GE;
	p[n++] = x;
	struct eu_inst c2 = i2(EU_OP_CMP, 16, gd(28, EU_TYPE_F), g16(4, EU_TYPE_F), immf(2.0f));
	c2.cond = EU_COND_GE;
	c2.flag_nr = 1;
	p[n++] = c2;
	p[n++] = eot_send();
	return n;
}

/* run the program on a fresh SIMD16 thread with channel 15 off */
static void run(int32_t add_imm, uint64_t budget)
{
	struct eu_inst p[16];
	size_t n = program(p, add_imm);
	eu_thread_init(&th, 16, 0x7fff);
	for (unsigned r = 10; r < 32; r++)
		for (unsigned i = 0; i < 8; i++)
			eu_grf_set_ud(&th, r, i, 0xdeadbeefu);
	for (unsigned i = 0; i < 16; i++) {
		setud(&th, 2, i, i);
		setf(&th, 4, i, (float)i * 0.5f);
	}
	struct exec_prog *prog = exec_prog_build(8, p, NULL, n);
	exec_run(&th, prog, budget);
	exec_prog_free(prog);
}

static void check_values(const char *how)
{
	fprintf(stderr, "checking %s\n", how);
	CHECK(ran_to_end(&th));
	for (unsigned i = 0; i < 16; i++) {
		bool on = i < 15;
		float h = (float)i * 0.5f;
		uint32_t junk = 0xdeadbeefu;
		CHECK_EQ(rud(&th, 10, i), on ? 100 + i : junk);
		CHECK_EQ(rud(&th, 12, i), on ? fbits((float)i) : junk);
		CHECK_EQ(rud(&th, 14, i), on ? fbits(fmaf(h, h, (float)i)) : junk);
		CHECK_EQ(rud(&th, 16, i), on ? (i < 5 ? 100 + i : i) : junk);
		CHECK_EQ(rud(&th, 18, i), on && i < 5 ? i + 1 : junk);
		CHECK_EQ(rud(&th, 20, i), on ? 4 * i : junk);
		CHECK_EQ(rud(&th, 22, i), on ? (i & 6) : junk);
		CHECK_EQ(rud(&th, 24, i), on ? fbits((float)i) : junk);
		CHECK_EQ(rud(&th, 26, i), on ? fbits(h >= 3.0f ? h : 3.0f) : junk);
		CHECK_EQ(rud(&th, 28, i), on ? (h >= 2.0f ? 0xffffffffu : 0) : junk);
	}
	/* f0.0: channels 0..4 (i < 5); f1.0: channels 4..14 (i/2 >= 2) */
	CHECK_EQ(eu_thread_flags(&th) & 0xffff, 0x1f);
	CHECK_EQ((eu_thread_flags(&th) >> 32) & 0xffff, 0x7ff0);
	/* channel operations: 15 per instruction, 5 for the predicated add */
	CHECK_EQ(th.channel_ops, 10 * 15 + 5);
}

static void test_modes(void)
{
	exec_jit_configure(EXEC_JIT_OFF, 0);
	run(100, 0);
	check_values("interpreter");

	exec_jit_configure(EXEC_JIT_TIERED, 0);
	struct exec_jit_stats s0, s1;
	exec_jit_stats(&s0);
	run(100, 0);
	exec_jit_stats(&s1);
	check_values("compiled");
	/* every instruction but the last (nop) compiled inline */
	CHECK_EQ(s1.programs - s0.programs, 1);
	CHECK_EQ(s1.inlined - s0.inlined, 11);

	exec_jit_configure(EXEC_JIT_CHECK, 0);
	run(100, 0);
	check_values("check mode");

	/* tiered: the first two runs interpret, the third compiles (a
	 * program of its own: the one above is cached already) */
	exec_jit_configure(EXEC_JIT_TIERED, 2);
	for (int k = 0; k < 3; k++) {
		exec_jit_stats(&s0);
		run(200, 0);
		exec_jit_stats(&s1);
		CHECK_EQ(s1.programs - s0.programs, k == 2 ? 1 : 0);
	}
}

static void test_budget(void)
{
	/* 3 instructions: the add, mul and mad happen, the rest does not */
	exec_jit_configure(EXEC_JIT_TIERED, 0);
	run(100, 3);
	CHECK_EQ(th.state, EU_THREAD_LIMIT);
	CHECK_EQ(th.instructions, 3);
	CHECK_EQ(th.ip, 3);
	CHECK_EQ(rud(&th, 14, 3), fbits(fmaf(1.5f, 1.5f, 3.0f)));
	CHECK_EQ(rud(&th, 16, 3), 0xdeadbeefu);
	/* and it goes on where it stopped */
	struct eu_inst p[16];
	size_t n = program(p, 100);
	struct exec_prog *prog = exec_prog_build(8, p, NULL, n);
	th.state = EU_THREAD_READY;
	exec_run(&th, prog, 0);
	exec_prog_free(prog);
	check_values("compiled, resumed after the budget");
}

/* pln inline, SIMD16 and SIMD8, plain, negated and saturated: each
 * channel fmaf(q, y, fmaf(p, x, c)) (PRM pln: src0.0 * x + src0.1 * y +
 * src0.3, no intermediate rounding as the interpreter's generic path),
 * with x, y interleaved per 8 channels in src1. Values chosen so that a
 * separately rounded product would differ (p = 1/3). */
static void test_pln(void)
{
	struct eu_operand c = op_reg(EU_FILE_GRF, 8, 0, EU_TYPE_F, 0, 1, 0);
	const float p = 1.0f / 3.0f, q = -2.5f, k = 0.125f;
	for (unsigned mode = 0; mode < 2; mode++)
		for (unsigned n = 8; n <= 16; n += 8)
			for (unsigned form = 0; form < 3; form++) {
				exec_jit_configure(mode ? EXEC_JIT_CHECK : EXEC_JIT_TIERED, 0);
				struct eu_inst prog[2];
				prog[0] = i2(EU_OP_PLN, n, gd(20, EU_TYPE_F),
					     form == 1 ? neg(c) : c, g(2, EU_TYPE_F));
				prog[0].saturate = form == 2;
				prog[1] = eot_send();
				eu_thread_init(&th, n, n == 16 ? 0xffff : 0xff);
				setf(&th, 8, 0, p);
				setf(&th, 8, 1, q);
				setf(&th, 8, 3, k);
				float x[16], y[16];
				for (unsigned i = 0; i < n; i++) {
					x[i] = (float)i * 0.1f + 0.05f;
					y[i] = 0.3f - (float)i * 0.01f;
					unsigned r = 2 + (i / 8) * 2;
					setf(&th, r, i % 8, x[i]);
					setf(&th, r + 1, i % 8, y[i]);
				}
				struct exec_jit_stats s0, s1;
				exec_jit_stats(&s0);
				struct exec_prog *pp = exec_prog_build(8, prog, NULL, 2);
				exec_run(&th, pp, 0);
				exec_prog_free(pp);
				exec_jit_stats(&s1);
				CHECK(ran_to_end(&th));
				if (!mode)     /* one program of each shape, inline */
					CHECK_EQ(s1.inlined - s0.inlined, 1);
				float sg = form == 1 ? -1.0f : 1.0f;
				for (unsigned i = 0; i < n; i++) {
					float v = fmaf(sg * q, y[i], fmaf(sg * p, x[i], sg * k));
					if (form == 2)
						v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
					if (rud(&th, 20, i) != fbits(v))
						fprintf(stderr, "pln SIMD%u form %u mode %u channel %u: "
							"%a want %a\n", n, form, mode, i,
							(double)rf(&th, 20, i), (double)v);
					CHECK_EQ(rud(&th, 20, i), fbits(v));
				}
			}
}

/* Two NaN sources: the result is the first NaN in the instruction's
 * source order (src0, src1, src2), quieted (exec_fast.c nan_first),
 * interpreted and compiled alike; before, each took the NaN its host
 * instruction named first, and they differed for mad (fuzz target
 * eu_jit, docs/fuzzing.md finding 16). min/max (sel.l, sel.ge) of two
 * NaNs the same (finding 17: the compiled code gave src1's, unquieted).
 * Values by hand. */
static void test_nan_first(void)
{
	const uint32_t na = 0xffc00005u, nb = 0x7f800007u;   /* -qNaN, +sNaN */
	/* program: add g10 = g2 + g3; add g11 = g3 + g2; mul g12 = g2 * g3;
	 * mad g13 = g4 + g2 * g3; mad g14 = g4 + g3 * g2; mad g15 = g2 + g4 * g3;
	 * sel.l g16 = min(g2, g3); sel.ge g17 = max(g3, g2) */
	struct eu_inst p[9];
	size_t n = 0;
	p[n++] = i2(EU_OP_ADD, 8, gd(10, EU_TYPE_F), g(2, EU_TYPE_F), g(3, EU_TYPE_F));
	p[n++] = i2(EU_OP_ADD, 8, gd(11, EU_TYPE_F), g(3, EU_TYPE_F), g(2, EU_TYPE_F));
	p[n++] = i2(EU_OP_MUL, 8, gd(12, EU_TYPE_F), g(2, EU_TYPE_F), g(3, EU_TYPE_F));
	const unsigned mad[3][3] = { { 4, 2, 3 }, { 4, 3, 2 }, { 2, 4, 3 } };
	for (unsigned k = 0; k < 3; k++) {
		struct eu_inst m = i3(EU_OP_MAD, 8, gd(13 + k, EU_TYPE_F), a16(mad[k][0]),
				      a16(mad[k][1]), a16(mad[k][2]));
		m.access_mode = EU_ALIGN16;
		p[n++] = m;
	}
	struct eu_inst mn = i2(EU_OP_SEL, 8, gd(16, EU_TYPE_F), g(2, EU_TYPE_F), g(3, EU_TYPE_F));
	mn.cond = EU_COND_L;
	p[n++] = mn;
	struct eu_inst mx = i2(EU_OP_SEL, 8, gd(17, EU_TYPE_F), g(3, EU_TYPE_F), g(2, EU_TYPE_F));
	mx.cond = EU_COND_GE;
	p[n++] = mx;
	p[n++] = eot_send();
	const uint32_t want[8] = { na, nb | 0x00400000u, na, na, nb | 0x00400000u, na,
				   na, nb | 0x00400000u };
	for (unsigned mode = 0; mode < 2; mode++) {
		exec_jit_configure(mode ? EXEC_JIT_TIERED : EXEC_JIT_OFF, 0);
		eu_thread_init(&th, 8, 0xff);
		for (unsigned i = 0; i < 8; i++) {
			eu_grf_set_ud(&th, 2, i, na);
			eu_grf_set_ud(&th, 3, i, nb);
			setf(&th, 4, i, 1.5f);
		}
		struct exec_prog *pp = exec_prog_build(8, p, NULL, n);
		exec_run(&th, pp, 0);
		exec_prog_free(pp);
		CHECK(ran_to_end(&th));
		for (unsigned r = 0; r < 8; r++)
			for (unsigned i = 0; i < 8; i++) {
				if (rud(&th, 10 + r, i) != want[r])
					fprintf(stderr, "%s g%u.%u: 0x%08x want 0x%08x\n",
						mode ? "compiled" : "interpreter", 10 + r, i,
						rud(&th, 10 + r, i), want[r]);
				CHECK_EQ(rud(&th, 10 + r, i), want[r]);
			}
	}
}

/* text assembled for gen and built into a program (NULL, checked, when
 * either fails). */
static struct exec_prog *text_prog(int gen, const char *text, const char *name)
{
	struct eu_asm_result r;
	CHECK(!eu_assemble(gen, text, strlen(text), name, &r));
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(gen, r.bytes, r.len, &bad);
	eu_asm_result_free(&r);
	CHECK(p != NULL);
	return p;
}

/* pln with NaN sources (fuzz target eu_jit, docs/fuzzing.md finding 18):
 * a NaN result is the first NaN of src0's coefficients p, q, c (elements
 * 0, 1, 3), then of src1's x, y, quieted, in the interpreter's fast path,
 * its generic path (cr0 rounding toward zero first, which the fast path
 * and the compiled code leave to it) and the compiled code; before, each
 * took the NaN its host fma named. Channel i: x = nb on even channels, 1
 * on odd; y as the case says. Values by hand. */
static void test_pln_nan(void)
{
	const uint32_t na = 0xffc00005u, nb = 0x7f800007u, nc = 0x7f800009u;
	const uint32_t one = 0x3f800000u, two = 0x40000000u;
	struct {
		uint32_t p, q, c, y_even, y_odd, want_even, want_odd;
	} cases[3] = {
		{ na, two, one, one, one, na, na },                      /* p first */
		{ two, two, nc, na, na, nc | 0x00400000u, nc | 0x00400000u },   /* c before x, y */
		{ two, two, one, one, na, nb | 0x00400000u, na },        /* x before y */
	};
	static const char pln_text[] =
		"pln(16)         g20<1>F         g8<0,1,0>F      g2<8,8,1>F      { align1 1H };\n";
	static const char rtz_pln_text[] =
		"or(1)           cr0<1>UD        cr0<0,1,0>UD    0x00000030UD    { align1 1N };\n"
		"pln(16)         g20<1>F         g8<0,1,0>F      g2<8,8,1>F      { align1 1H };\n";
	for (unsigned k = 0; k < 3; k++)
		for (unsigned mode = 0; mode < 3; mode++) {
			const char *text = mode == 2 ? rtz_pln_text : pln_text;
			exec_jit_configure(mode == 1 ? EXEC_JIT_TIERED : EXEC_JIT_OFF, 0);
			struct exec_prog *pp = text_prog(9, text, "pln_nan");
			if (!pp)
				return;
			eu_thread_init(&th, 16, 0xffff);
			setud(&th, 8, 0, cases[k].p);
			setud(&th, 8, 1, cases[k].q);
			setud(&th, 8, 3, cases[k].c);
			for (unsigned i = 0; i < 16; i++) {
				unsigned reg = 2 + (i / 8) * 2;
				setud(&th, reg, i % 8, i % 2 ? one : nb);
				setud(&th, reg + 1, i % 8, i % 2 ? cases[k].y_odd : cases[k].y_even);
			}
			exec_run(&th, pp, 0);
			exec_prog_free(pp);
			CHECK(ran_to_end(&th));
			for (unsigned i = 0; i < 16; i++) {
				uint32_t want = i % 2 ? cases[k].want_odd : cases[k].want_even;
				if (rud(&th, 20, i) != want)
					fprintf(stderr, "pln NaN case %u mode %u channel %u: 0x%08x "
						"want 0x%08x\n", k, mode, i, rud(&th, 20, i), want);
				CHECK_EQ(rud(&th, 20, i), want);
			}
		}
}

/* test_nan_first's rule on the interpreter's generic path (cr0 rounding
 * toward zero, which the fast handlers leave to it): add, mul, mad and lrp
 * with two NaN sources give the first, quieted. Values by hand. */
static void test_nan_first_generic(void)
{
	const uint32_t na = 0xffc00005u, nb = 0x7f800007u, qb = nb | 0x00400000u;
	static const char text[] =
		"or(1)           cr0<1>UD        cr0<0,1,0>UD    0x00000030UD    { align1 1N };\n"
		"add(8)          g10<1>F         g2<8,8,1>F      g3<8,8,1>F      { align1 1Q };\n"
		"add(8)          g11<1>F         g3<8,8,1>F      g2<8,8,1>F      { align1 1Q };\n"
		"mul(8)          g12<1>F         g3<8,8,1>F      g2<8,8,1>F      { align1 1Q };\n"
		"mad(8) g13<1>F g4<4,4,1>F g2<4,4,1>F g3<4,4,1>F { align16 1Q };\n"
		"mad(8) g14<1>F g4<4,4,1>F g3<4,4,1>F g2<4,4,1>F { align16 1Q };\n"
		"lrp(8) g15<1>F g3<4,4,1>F g2<4,4,1>F g4<4,4,1>F { align16 1Q };\n";
	const uint32_t want[6] = { na, qb, qb, na, qb, qb };
	exec_jit_configure(EXEC_JIT_OFF, 0);
	struct exec_prog *pp = text_prog(9, text, "nan_generic");
	if (!pp)
		return;
	eu_thread_init(&th, 8, 0xff);
	for (unsigned i = 0; i < 8; i++) {
		setud(&th, 2, i, na);
		setud(&th, 3, i, nb);
		setf(&th, 4, i, 1.5f);
	}
	exec_run(&th, pp, 0);
	exec_prog_free(pp);
	CHECK(ran_to_end(&th));
	for (unsigned k = 0; k < 6; k++)
		for (unsigned i = 0; i < 8; i++) {
			if (rud(&th, 10 + k, i) != want[k])
				fprintf(stderr, "generic g%u.%u: 0x%08x want 0x%08x\n", 10 + k, i,
					rud(&th, 10 + k, i), want[k]);
			CHECK_EQ(rud(&th, 10 + k, i), want[k]);
		}
}

/* One thread that loops (a GS emitting a thousand vertices) is due for
 * the compile by the instructions it interpreted, not by its one run, and
 * goes on in compiled code: with the corrupting compiler (+1 on every
 * add) the counter it ends with shows compiled adds ran after the first
 * 10 000 interpreted instructions. Sum and count by hand. */
static const char loop_text[] =
	"mov(16) g10<1>D 0D { align1 1H };\n"
	"mov(16) g12<1>D 0D { align1 1H };\n"
	"LOOP:\n"
	"add(16) g12<1>D g12<8,8,1>D 1D { align1 1H };\n"
	"add(16) g10<1>D g10<8,8,1>D 1D { align1 1H };\n"
	"cmp.l.f0.0(16) null<1>D g12<8,8,1>D g2<8,8,1>D { align1 1H };\n"
	"(+f0.0) while(16) JIP: LOOP { align1 1H };\n";

static void run_loop(int32_t limit)
{
	struct eu_asm_result r;
	CHECK(!eu_assemble(8, loop_text, sizeof(loop_text) - 1, "loop", &r));
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(8, r.bytes, r.len, &bad);
	eu_asm_result_free(&r);
	CHECK(p != NULL);
	eu_thread_init(&th, 16, 0xffff);
	for (unsigned i = 0; i < 16; i++)
		setud(&th, 2, i, (uint32_t)limit);
	exec_run(&th, p, 0);
	exec_prog_free(p);
	CHECK(ran_to_end(&th));
}

static void test_long_thread(void)
{
	/* 4 instructions an iteration: 400 000 in one run */
	exec_jit_configure_work(1000, 10000);
	struct exec_jit_stats s0, s1;
	exec_jit_stats(&s0);
	run_loop(100000);
	exec_jit_stats(&s1);
	CHECK_EQ(s1.programs - s0.programs, 1);
	CHECK_EQ(rud(&th, 12, 0), 100000);
	CHECK_EQ(rud(&th, 10, 0), 100000);
	CHECK_EQ(th.instructions, 2 + 4 * 100000);
	/* the corrupt compile needs a program not cached: one more mov */
	exec_jit_configure_work(1000, 10000);
	struct eu_asm_result r;
	static const char more[] = "mov(16) g14<1>D 7D { align1 1H };\n";
	char text[sizeof(loop_text) + sizeof(more)];
	snprintf(text, sizeof(text), "%s%s", more, loop_text);
	CHECK(!eu_assemble(8, text, strlen(text), "loop2", &r));
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(8, r.bytes, r.len, &bad);
	eu_asm_result_free(&r);
	exec_jit_set_corrupt(true);
	eu_thread_init(&th, 16, 0xffff);
	for (unsigned i = 0; i < 16; i++)
		setud(&th, 2, i, 100000);
	exec_run(&th, p, 0);
	exec_jit_set_corrupt(false);
	exec_prog_free(p);
	CHECK(ran_to_end(&th));
	/* interpreted: +1 an add; compiled: +2. About 2 500 iterations are
	 * interpreted (10 000 instructions), the rest compiled, so g12
	 * reaches the limit after about 51 000 iterations, not 100 000 */
	CHECK(th.instructions < 3 + 4 * 60000);
	CHECK(th.instructions > 3 + 4 * 50000);
}

/* A compiler that adds one to every add result must be caught. */
static void test_corrupt_detected(void)
{
	exec_jit_configure(EXEC_JIT_TIERED, 0);
	exec_jit_set_corrupt(true);
	run(300, 0);
	/* compiled code is what runs: its (wrong) result shows */
	CHECK_EQ(rud(&th, 10, 3), 304);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		exec_jit_configure(EXEC_JIT_CHECK, 0);
		run(400, 0);   /* a new program: compiled wrong, compared */
		_exit(0);
	}
	int status = 0;
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	exec_jit_set_corrupt(false);
}

int main(void)
{
	if (!exec_jit_available())
		test_skip("no code generator (built without LLVM 15)");
	test_modes();
	test_budget();
	test_long_thread();
	test_pln();
	test_nan_first();
	test_pln_nan();
	test_nan_first_generic();
	test_corrupt_detected();
	return test_exit();
}
