/* Executor ALU semantics, one instruction family at a time. Expected
 * values are worked out by hand from the PRM's rule for each opcode (the
 * comment next to each check says how). */
#include <float.h>

#include "test_exec_util.h"

static struct eu_thread th;

/* Fresh SIMD8 thread (all 8 channels), then run the given instructions. */
static void fresh(unsigned simd)
{
	eu_thread_init(&th, simd, 0xffffffff);
}
static void run(const struct eu_inst *p, size_t n)
{
	run_prog(&th, p, n);
	if (!ran_to_end(&th))
		fprintf(stderr, "unexpected fault: %s\n", th.fault);
	CHECK(ran_to_end(&th));
	th.state = EU_THREAD_READY;
	th.ip = 0;
}
static void run1(struct eu_inst in) { run(&in, 1); }

static void test_mov_conversions(void)
{
	fresh(8);
	for (unsigned i = 0; i < 8; i++)
		setud(&th, 2, i, (uint32_t)(int32_t)(i * 3 - 10));   /* -10,-7,...,11 */
	run1(i1(EU_OP_MOV, 8, gd(10, EU_TYPE_F), g(2, EU_TYPE_D)));
	for (unsigned i = 0; i < 8; i++)
		CHECK(rf(&th, 10, i) == (float)((int)i * 3 - 10));
	/* F -> D: round toward zero, clamp, NaN -> 0 (PRM "Type conversion") */
	float in[8] = { 2.7f, -2.7f, 3e9f, -3e9f, NAN, 0.5f, -0.5f, 1e10f };
	int32_t want[8] = { 2, -2, INT32_MAX, INT32_MIN, 0, 0, 0, INT32_MAX };
	for (unsigned i = 0; i < 8; i++)
		setf(&th, 3, i, in[i]);
	run1(i1(EU_OP_MOV, 8, gd(11, EU_TYPE_D), g(3, EU_TYPE_F)));
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ((int32_t)rud(&th, 11, i), want[i]);
	/* F -> UD: negative values clamp to 0 */
	run1(i1(EU_OP_MOV, 8, gd(12, EU_TYPE_UD), g(3, EU_TYPE_F)));
	CHECK_EQ(rud(&th, 12, 1), 0);
	CHECK_EQ(rud(&th, 12, 2), 3000000000u);
	/* D -> UW truncates; W destination stride 2 keeps dword lanes */
	setud(&th, 4, 0, 0x12345);
	struct eu_operand dw = gd(13, EU_TYPE_UW);
	dw.hstride = 2;
	setud(&th, 13, 0, 0xffffffff);
	run1(i1(EU_OP_MOV, 1, dw, gs(4, 0, EU_TYPE_D)));
	CHECK_EQ(rud(&th, 13, 0), 0xffff2345);
	/* mov.sat D -> UB clamps to 0..255 */
	setud(&th, 5, 0, 300);
	setud(&th, 5, 1, (uint32_t)-5);
	struct eu_inst m = i1(EU_OP_MOV, 2, gd(14, EU_TYPE_UB), op_reg(EU_FILE_GRF, 5, 0, EU_TYPE_D, 2, 2, 1));
	m.dst.hstride = 4;
	m.saturate = true;
	setud(&th, 14, 0, 0xaaaaaaaa);
	setud(&th, 14, 1, 0xaaaaaaaa);
	run1(m);
	CHECK_EQ(rud(&th, 14, 0), 0xaaaaaaff);
	CHECK_EQ(rud(&th, 14, 1), 0xaaaaaa00);
	/* mov.sat F: clamp to [0, 1], NaN -> 0 */
	float s[4] = { 1.5f, -0.5f, NAN, 0.25f };
	for (unsigned i = 0; i < 4; i++)
		setf(&th, 6, i, s[i]);
	m = i1(EU_OP_MOV, 4, gd(15, EU_TYPE_F), op_reg(EU_FILE_GRF, 6, 0, EU_TYPE_F, 4, 4, 1));
	m.saturate = true;
	run1(m);
	CHECK(rf(&th, 15, 0) == 1.0f && rf(&th, 15, 1) == 0.0f && !signbit(rf(&th, 15, 1)));
	CHECK(rf(&th, 15, 2) == 0.0f && rf(&th, 15, 3) == 0.25f);
	/* HF -> F: 0x3c00 is 1.0, 0xc000 is -2.0 */
	setud(&th, 7, 0, 0xc0003c00);
	run1(i1(EU_OP_MOV, 2, gd(16, EU_TYPE_F), op_reg(EU_FILE_GRF, 7, 0, EU_TYPE_HF, 2, 2, 1)));
	CHECK(rf(&th, 16, 0) == 1.0f && rf(&th, 16, 1) == -2.0f);
}

static void test_vector_immediates(void)
{
	fresh(8);
	/* VF bytes: 0x00 = 0, 0x30 = 1.0 (exp 3 - bias 3), 0x20 = 0.5,
	 * 0xc0 = -2.0; channel i takes element i % 4 */
	run1(i1(EU_OP_MOV, 8, gd(10, EU_TYPE_F), imm(EU_TYPE_VF, 0xc0203000)));
	float w[4] = { 0.0f, 1.0f, 0.5f, -2.0f };
	for (unsigned i = 0; i < 8; i++)
		CHECK(rf(&th, 10, i) == w[i % 4]);
	/* V: eight signed nibbles, element 0 in the low bits */
	run1(i1(EU_OP_MOV, 8, gd(11, EU_TYPE_D), imm(EU_TYPE_V, 0x8f012345)));
	int32_t v[8] = { 5, 4, 3, 2, 1, 0, -1, -8 };
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ((int32_t)rud(&th, 11, i), v[i]);
	run1(i1(EU_OP_MOV, 8, gd(12, EU_TYPE_UD), imm(EU_TYPE_UV, 0xf0000000)));
	CHECK_EQ(rud(&th, 12, 7), 15);
	CHECK_EQ(rud(&th, 12, 0), 0);
}

static void test_add_mul_int(void)
{
	fresh(8);
	setud(&th, 2, 0, 0x7fffffff);
	setud(&th, 3, 0, 1);
	run1(i2(EU_OP_ADD, 1, gd(10, EU_TYPE_D), gs(2, 0, EU_TYPE_D), gs(3, 0, EU_TYPE_D)));
	CHECK_EQ(rud(&th, 10, 0), 0x80000000u);          /* wraps */
	struct eu_inst a = i2(EU_OP_ADD, 1, gd(11, EU_TYPE_D), gs(2, 0, EU_TYPE_D), gs(3, 0, EU_TYPE_D));
	a.saturate = true;
	run1(a);
	CHECK_EQ(rud(&th, 11, 0), 0x7fffffffu);          /* saturates */
	a = i2(EU_OP_ADD, 1, gd(12, EU_TYPE_UD), gs(3, 0, EU_TYPE_D), immd(-6));
	a.saturate = true;
	run1(a);
	CHECK_EQ(rud(&th, 12, 0), 0);                    /* -5 clamps to 0 */
	/* negate and abs source modifiers on integers */
	run1(i2(EU_OP_ADD, 1, gd(13, EU_TYPE_D), neg(gs(3, 0, EU_TYPE_D)), absm(immd(-7))));
	CHECK_EQ(rud(&th, 13, 0), 6);
	setud(&th, 4, 0, 0x10000);
	run1(i2(EU_OP_MUL, 1, gd(14, EU_TYPE_D), gs(4, 0, EU_TYPE_D), gs(4, 0, EU_TYPE_D)));
	CHECK_EQ(rud(&th, 14, 0), 0);                    /* low 32 bits of 2^32 */
	run1(i2(EU_OP_MUL, 1, gd(15, EU_TYPE_D), gs(4, 0, EU_TYPE_D), immd(-3)));
	CHECK_EQ((int32_t)rud(&th, 15, 0), -0x30000);
	/* avg rounds up: (a + b + 1) >> 1 */
	run1(i2(EU_OP_AVG, 1, gd(16, EU_TYPE_D), immd(3), immd(4)));
	CHECK_EQ(rud(&th, 16, 0), 4);
	run1(i2(EU_OP_AVG, 1, gd(16, EU_TYPE_D), immd(-3), immd(-4)));
	CHECK_EQ((int32_t)rud(&th, 16, 0), -3);
}

static void test_float_arith(void)
{
	fresh(16);
	for (unsigned i = 0; i < 16; i++) {
		setf(&th, 2, i, (float)i);
		setf(&th, 4, i, 0.5f);
	}
	run1(i2(EU_OP_ADD, 16, gd(10, EU_TYPE_F), g16(2, EU_TYPE_F), neg(g16(4, EU_TYPE_F))));
	for (unsigned i = 0; i < 16; i++)
		CHECK(rf(&th, 10, i) == (float)i - 0.5f);
	run1(i2(EU_OP_MUL, 16, gd(12, EU_TYPE_F), g16(2, EU_TYPE_F), gs(4, 0, EU_TYPE_F)));
	for (unsigned i = 0; i < 16; i++)
		CHECK(rf(&th, 12, i) == (float)i * 0.5f);
	/* mad: src0 + src1 * src2 */
	run1(i3(EU_OP_MAD, 16, gd(14, EU_TYPE_F), gs(4, 0, EU_TYPE_F), g16(2, EU_TYPE_F), g16(2, EU_TYPE_F)));
	for (unsigned i = 0; i < 16; i++)
		CHECK(rf(&th, 14, i) == 0.5f + (float)(i * i));
	/* abs modifier: |-3| * 2 */
	run1(i2(EU_OP_MUL, 1, gd(16, EU_TYPE_F), absm(immf(-3.0f)), immf(2.0f)));
	CHECK(rf(&th, 16, 0) == 6.0f);
	/* lrp: src1 * src0 + src2 * (1 - src0) = 8*0.25 + 4*0.75 */
	run1(i3(EU_OP_LRP, 1, gd(17, EU_TYPE_F), immf(0.25f), immf(8.0f), immf(4.0f)));
	CHECK(rf(&th, 17, 0) == 5.0f);
	/* mixed types: D source and F source compute in float */
	setud(&th, 18, 0, 7);
	run1(i2(EU_OP_ADD, 1, gd(19, EU_TYPE_F), gs(18, 0, EU_TYPE_D), immf(0.5f)));
	CHECK(rf(&th, 19, 0) == 7.5f);
	/* NaN propagates through add; add.sat turns it into 0 */
	setf(&th, 20, 0, NAN);
	run1(i2(EU_OP_ADD, 1, gd(21, EU_TYPE_F), gs(20, 0, EU_TYPE_F), immf(1.0f)));
	CHECK(isnan(rf(&th, 21, 0)));
	struct eu_inst s = i2(EU_OP_ADD, 1, gd(22, EU_TYPE_F), gs(20, 0, EU_TYPE_F), immf(1.0f));
	s.saturate = true;
	run1(s);
	CHECK(rf(&th, 22, 0) == 0.0f);
	/* inf - inf is NaN */
	run1(i2(EU_OP_ADD, 1, gd(23, EU_TYPE_F), immf(INFINITY), immf(-INFINITY)));
	CHECK(isnan(rf(&th, 23, 0)));
}

static void test_rounding_ops(void)
{
	fresh(8);
	float x[8] = { 1.75f, -1.25f, -1.5f, 2.5f, 3.5f, -2.5f, -2.7f, 0.0f };
	for (unsigned i = 0; i < 8; i++)
		setf(&th, 2, i, x[i]);
	run1(i1(EU_OP_FRC, 8, gd(10, EU_TYPE_F), g(2, EU_TYPE_F)));
	CHECK(rf(&th, 10, 0) == 0.75f && rf(&th, 10, 1) == 0.75f && rf(&th, 10, 2) == 0.5f);
	run1(i1(EU_OP_RNDD, 8, gd(11, EU_TYPE_F), g(2, EU_TYPE_F)));
	CHECK(rf(&th, 11, 2) == -2.0f && rf(&th, 11, 0) == 1.0f);
	run1(i1(EU_OP_RNDU, 8, gd(12, EU_TYPE_F), g(2, EU_TYPE_F)));
	CHECK(rf(&th, 12, 2) == -1.0f && rf(&th, 12, 0) == 2.0f);
	run1(i1(EU_OP_RNDE, 8, gd(13, EU_TYPE_F), g(2, EU_TYPE_F)));
	CHECK(rf(&th, 13, 3) == 2.0f && rf(&th, 13, 4) == 4.0f && rf(&th, 13, 5) == -2.0f);
	CHECK(rf(&th, 13, 0) == 2.0f);
	run1(i1(EU_OP_RNDZ, 8, gd(14, EU_TYPE_F), g(2, EU_TYPE_F)));
	CHECK(rf(&th, 14, 6) == -2.0f && rf(&th, 14, 0) == 1.0f);
}

static void test_logic_shift(void)
{
	fresh(8);
	run1(i2(EU_OP_AND, 1, gd(10, EU_TYPE_UD), immud(0xff00ff00), immud(0x0ff00ff0)));
	CHECK_EQ(rud(&th, 10, 0), 0x0f000f00);
	run1(i2(EU_OP_OR, 1, gd(10, EU_TYPE_UD), immud(0xff00ff00), immud(0x0ff00ff0)));
	CHECK_EQ(rud(&th, 10, 0), 0xfff0fff0);
	run1(i2(EU_OP_XOR, 1, gd(10, EU_TYPE_UD), immud(0xff00ff00), immud(0x0ff00ff0)));
	CHECK_EQ(rud(&th, 10, 0), 0xf0f0f0f0);
	run1(i1(EU_OP_NOT, 1, gd(10, EU_TYPE_UD), immud(0x0000ffff)));
	CHECK_EQ(rud(&th, 10, 0), 0xffff0000);
	/* on logic ops the negate modifier is a bitwise NOT (PRM) */
	run1(i2(EU_OP_AND, 1, gd(10, EU_TYPE_UD), neg(immud(0x0000ffff)), immud(0x00ffff00)));
	CHECK_EQ(rud(&th, 10, 0), 0x00ff0000);
	run1(i2(EU_OP_SHR, 1, gd(11, EU_TYPE_D), immd(-8), immd(1)));
	CHECK_EQ(rud(&th, 11, 0), 0x7ffffffc);            /* logical */
	run1(i2(EU_OP_ASR, 1, gd(11, EU_TYPE_D), immd(-8), immd(1)));
	CHECK_EQ((int32_t)rud(&th, 11, 0), -4);           /* arithmetic */
	run1(i2(EU_OP_SHL, 1, gd(11, EU_TYPE_UD), immud(1), immud(33)));
	CHECK_EQ(rud(&th, 11, 0), 2);                     /* count mod 32 */
	run1(i2(EU_OP_SHL, 1, gd(11, EU_TYPE_UD), immud(0x80000001), immud(1)));
	CHECK_EQ(rud(&th, 11, 0), 2);
	/* ror/rol are gen11+ opcodes: test_exec_fault checks they fault */
}

static void test_bit_ops(void)
{
	fresh(8);
	run1(i1(EU_OP_BFREV, 1, gd(10, EU_TYPE_UD), immud(0x00000001)));
	CHECK_EQ(rud(&th, 10, 0), 0x80000000u);
	run1(i1(EU_OP_BFREV, 1, gd(10, EU_TYPE_UD), immud(0x0000f00d)));
	CHECK_EQ(rud(&th, 10, 0), 0xb00f0000u);
	run1(i1(EU_OP_CBIT, 1, gd(10, EU_TYPE_UD), immud(0xf0f00001)));
	CHECK_EQ(rud(&th, 10, 0), 9);
	run1(i1(EU_OP_FBH, 1, gd(10, EU_TYPE_UD), immud(0x00010000)));
	CHECK_EQ(rud(&th, 10, 0), 15);                    /* counted from the MSB */
	run1(i1(EU_OP_FBH, 1, gd(10, EU_TYPE_UD), immd(-2)));
	CHECK_EQ(rud(&th, 10, 0), 31);                    /* D: first bit != sign */
	run1(i1(EU_OP_FBH, 1, gd(10, EU_TYPE_UD), immud(0)));
	CHECK_EQ(rud(&th, 10, 0), 0xffffffffu);
	run1(i1(EU_OP_FBL, 1, gd(10, EU_TYPE_UD), immud(0x8)));
	CHECK_EQ(rud(&th, 10, 0), 3);
	run1(i1(EU_OP_FBL, 1, gd(10, EU_TYPE_UD), immud(0)));
	CHECK_EQ(rud(&th, 10, 0), 0xffffffffu);
	run1(i1(EU_OP_LZD, 1, gd(10, EU_TYPE_UD), immud(0)));
	CHECK_EQ(rud(&th, 10, 0), 32);
	run1(i1(EU_OP_LZD, 1, gd(10, EU_TYPE_UD), immud(1)));
	CHECK_EQ(rud(&th, 10, 0), 31);
	/* bfe(width, offset, value) */
	run1(i3(EU_OP_BFE, 1, gd(11, EU_TYPE_UD), immud(4), immud(8), immud(0x0000ab00)));
	CHECK_EQ(rud(&th, 11, 0), 0xb);
	run1(i3(EU_OP_BFE, 1, gd(11, EU_TYPE_D), immd(4), immd(8), immd(0x0000f800)));
	CHECK_EQ((int32_t)rud(&th, 11, 0), -8);           /* sign-extended field */
	run1(i2(EU_OP_BFI1, 1, gd(12, EU_TYPE_UD), immud(4), immud(8)));
	CHECK_EQ(rud(&th, 12, 0), 0xf00);
	/* bfi2 shifts the insert to the mask's lowest bit (NIR's bfi, which
	 * Mesa maps to bfi2; IGC's bfi1+bfi2 lowering of vISA BFI):
	 * (0x1234 << 8) & 0xff00 | 0xabcd & ~0xff00 */
	run1(i3(EU_OP_BFI2, 1, gd(12, EU_TYPE_UD), immud(0xff00), immud(0x1234), immud(0xabcd)));
	CHECK_EQ(rud(&th, 12, 0), 0x34cd);
	run1(i3(EU_OP_BFI2, 1, gd(12, EU_TYPE_UD), immud(0x7ff00000), immud(0x400), immud(0x40000000)));
	CHECK_EQ(rud(&th, 12, 0), 0x40000000);   /* exponent 0x400 into a double's high word */
	run1(i3(EU_OP_BFI2, 1, gd(12, EU_TYPE_UD), immud(0), immud(0x1234), immud(0xabcd)));
	CHECK_EQ(rud(&th, 12, 0), 0xabcd);
}

static void test_cmp_sel_flags(void)
{
	fresh(8);
	float a[8] = { 1, 2, 3, 4, NAN, -1, 0, 5 };
	for (unsigned i = 0; i < 8; i++)
		setf(&th, 2, i, a[i]);
	struct eu_inst c = i2(EU_OP_CMP, 8, gd(10, EU_TYPE_F), g(2, EU_TYPE_F), immf(3.0f));
	c.cond = EU_COND_L;
	run1(c);
	/* 1,2,-1,0 are < 3: channels 0,1,5,6; NaN compares false */
	CHECK_EQ(eu_thread_flags(&th) & 0xffff, 0x63);
	CHECK_EQ(rud(&th, 10, 0), 0xffffffffu);
	CHECK_EQ(rud(&th, 10, 2), 0);
	/* .nz is true for NaN */
	c.cond = EU_COND_NZ;
	c.flag_subnr = 1;      /* f0.1 */
	c.dst = null_dst(EU_TYPE_F);
	run1(c);
	CHECK_EQ((eu_thread_flags(&th) >> 16) & 0xffff, 0xfb);
	/* predicated sel picks src0 where f0.0 is set */
	struct eu_inst s = i2(EU_OP_SEL, 8, gd(11, EU_TYPE_F), g(2, EU_TYPE_F), immf(9.0f));
	s.pred = EU_PRED_NORMAL;
	run1(s);
	CHECK(rf(&th, 11, 0) == 1.0f && rf(&th, 11, 2) == 9.0f && rf(&th, 11, 5) == -1.0f);
	/* sel.ge is max; a NaN operand loses (returns the other source) */
	s = i2(EU_OP_SEL, 8, gd(12, EU_TYPE_F), g(2, EU_TYPE_F), immf(2.5f));
	s.cond = EU_COND_GE;
	uint64_t before = eu_thread_flags(&th);
	run1(s);
	CHECK(rf(&th, 12, 0) == 2.5f && rf(&th, 12, 3) == 4.0f && rf(&th, 12, 4) == 2.5f);
	CHECK_EQ(eu_thread_flags(&th), before);          /* sel writes no flag */
	/* cmpn: NaN in src1 compares true */
	setf(&th, 3, 0, NAN);
	c = i2(EU_OP_CMPN, 1, null_dst(EU_TYPE_F), immf(1.0f), gs(3, 0, EU_TYPE_F));
	c.cond = EU_COND_L;
	eu_thread_set_flags(&th, 0);
	run1(c);
	CHECK_EQ(eu_thread_flags(&th) & 1, 1);
	/* add with a conditional modifier flags the result: .z */
	struct eu_inst z = i2(EU_OP_ADD, 8, gd(13, EU_TYPE_F), g(2, EU_TYPE_F), immf(-3.0f));
	z.cond = EU_COND_Z;
	eu_thread_set_flags(&th, 0);
	run1(z);
	CHECK_EQ(eu_thread_flags(&th), 0x4);
	/* with .sat the flag sees the saturated value written (the PRM's
	 * post_zero "after all the clamping"; Mesa's cmod propagation notes
	 * hardware applies conditional modifiers after saturation):
	 * -0.5 is written as 0, which is not < 0 */
	struct eu_inst sl = i2(EU_OP_ADD, 1, gd(15, EU_TYPE_F), immf(-1.0f), immf(0.5f));
	sl.saturate = true;
	sl.cond = EU_COND_L;
	eu_thread_set_flags(&th, 0);
	run1(sl);
	CHECK(rf(&th, 15, 0) == 0.0f);
	CHECK_EQ(eu_thread_flags(&th), 0);
	/* Mesa's mad.sat.nz (the alpha of piglit's
	 * sample-mask-mrt-alpha-to-coverage check shader): -1 + 0 * x
	 * saturates to 0, so .nz is false; 2.5 saturates to 1, .nz true */
	static const struct { float a, written; uint64_t flag; } nz[] = {
		{ -1.5f, 0.0f, 0 }, { 2.0f, 1.0f, 1 },
	};
	for (unsigned k = 0; k < 2; k++) {
		struct eu_inst sn = i2(EU_OP_ADD, 1, gd(15, EU_TYPE_F), immf(nz[k].a), immf(0.5f));
		sn.saturate = true;
		sn.cond = EU_COND_NZ;
		eu_thread_set_flags(&th, 0);
		run1(sn);
		CHECK(rf(&th, 15, 0) == nz[k].written);
		CHECK_EQ(eu_thread_flags(&th), nz[k].flag);
	}
	/* csel: src2 .g 0 ? src0 : src1 (align16 3-src form) */
	struct eu_inst cs = i3(EU_OP_CSEL, 8, gd(14, EU_TYPE_F), immf(1.0f), immf(2.0f), g(2, EU_TYPE_F));
	cs.cond = EU_COND_G;
	run1(cs);
	CHECK(rf(&th, 14, 0) == 1.0f && rf(&th, 14, 5) == 2.0f && rf(&th, 14, 6) == 2.0f);
}

static void test_predication_forms(void)
{
	fresh(8);
	eu_thread_set_flags(&th, 0x0f);    /* f0.0 = channels 0..3 */
	struct eu_inst m = i1(EU_OP_MOV, 8, gd(10, EU_TYPE_UD), immud(7));
	m.pred = EU_PRED_NORMAL;
	run1(m);
	CHECK_EQ(rud(&th, 10, 3), 7);
	CHECK_EQ(rud(&th, 10, 4), 0);
	m.pred_inv = true;
	m.src[0] = immud(9);
	run1(m);
	CHECK_EQ(rud(&th, 10, 3), 7);
	CHECK_EQ(rud(&th, 10, 4), 9);
	/* align1 .any4h / .all4h over groups of four channels */
	eu_thread_set_flags(&th, 0x21);    /* channels 0 and 5 */
	m = i1(EU_OP_MOV, 8, gd(11, EU_TYPE_UD), immud(1));
	m.pred = EU_PRED_ANY4H;
	run1(m);
	CHECK_EQ(rud(&th, 11, 2), 1);
	CHECK_EQ(rud(&th, 11, 7), 1);
	eu_thread_set_flags(&th, 0xf0);
	m = i1(EU_OP_MOV, 8, gd(12, EU_TYPE_UD), immud(1));
	m.pred = EU_PRED_ALL4H;
	run1(m);
	CHECK_EQ(rud(&th, 12, 0), 0);
	CHECK_EQ(rud(&th, 12, 4), 1);
	/* .any2h/.all2h, .any8h, .any16h over larger groups; .anyv/.allv
	 * across f0.0 and f1.0 of each channel */
	eu_thread_set_flags(&th, 0x10);          /* channel 4 */
	unsigned forms[4] = { EU_PRED_ANY2H, EU_PRED_ALL2H, EU_PRED_ANY8H, EU_PRED_ANY16H };
	uint32_t want_mask[4] = { 0x30, 0x00, 0xff, 0xff };
	for (unsigned k = 0; k < 4; k++) {
		m = i1(EU_OP_MOV, 8, gd(20 + k, EU_TYPE_UD), immud(1));
		m.pred = (uint8_t)forms[k];
		run1(m);
		for (unsigned i = 0; i < 8; i++)
			CHECK_EQ(rud(&th, 20 + k, i), (want_mask[k] >> i) & 1);
	}
	eu_thread_set_flags(&th, 0x0000000300000005ull);   /* f0.0 = 0b101, f1.0 = 0b11 */
	m = i1(EU_OP_MOV, 8, gd(24, EU_TYPE_UD), immud(1));
	m.pred = EU_PRED_ANYV;
	run1(m);
	CHECK_EQ(rud(&th, 24, 0) | rud(&th, 24, 1) << 1 | rud(&th, 24, 2) << 2 | rud(&th, 24, 3) << 3, 0x7);
	m = i1(EU_OP_MOV, 8, gd(25, EU_TYPE_UD), immud(1));
	m.pred = EU_PRED_ALLV;
	run1(m);
	CHECK_EQ(rud(&th, 25, 0) | rud(&th, 25, 1) << 1 | rud(&th, 25, 2) << 2, 0x1);
	/* align16 .y: each group of four channels takes its own y bit;
	 * f1.1 selects bits 48.. */
	eu_thread_set_flags(&th, 0x0020000000000000ull);   /* f1.1 bit 5 */
	m = i1(EU_OP_MOV, 8, gd(26, EU_TYPE_UD), immud(1));
	m.access_mode = EU_ALIGN16;
	m.src[0] = immud(1);
	m.pred = EU_PRED_XYZW_Y;
	m.flag_nr = 1;
	m.flag_subnr = 1;
	run1(m);
	CHECK_EQ(rud(&th, 26, 0), 0);
	CHECK_EQ(rud(&th, 26, 4), 1);
	CHECK_EQ(rud(&th, 26, 7), 1);
	/* NoMask (WE_all) writes channels the dispatch disabled */
	eu_thread_init(&th, 8, 0x01);
	m = i1(EU_OP_MOV, 8, gd(13, EU_TYPE_UD), immud(5));
	run1(m);
	CHECK_EQ(rud(&th, 13, 0), 5);
	CHECK_EQ(rud(&th, 13, 1), 0);
	m.no_mask = true;
	run1(m);
	CHECK_EQ(rud(&th, 13, 1), 5);
	/* quarter control: a SIMD8 instruction for channels 8..15 */
	eu_thread_init(&th, 16, 0xff00);
	m = i1(EU_OP_MOV, 8, gd(14, EU_TYPE_UD), immud(3));
	m.group = 8;
	run1(m);
	CHECK_EQ(rud(&th, 14, 0), 3);
}

static void test_regions_indirect_align16(void)
{
	fresh(8);
	for (unsigned i = 0; i < 16; i++)
		setud(&th, 2, i, 100 + i);
	/* <4;2,1>: 100,101,104,105,108,109,112,113 */
	run1(i1(EU_OP_MOV, 8, gd(10, EU_TYPE_UD), op_reg(EU_FILE_GRF, 2, 0, EU_TYPE_UD, 4, 2, 1)));
	uint32_t want[8] = { 100, 101, 104, 105, 108, 109, 112, 113 };
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(rud(&th, 10, i), want[i]);
	/* g[a0.0 + 4]<8;8,1> with a0.0 = 32 (g1): reads from g1.1 on */
	uint16_t a0 = 32;
	memcpy(eu_arf(&th, EU_ARF_A0), &a0, 2);
	struct eu_operand ind = g(0, EU_TYPE_UD);
	ind.addr_mode = EU_ADDR_INDIRECT;
	ind.indirect_offset = 36;      /* g2.1 */
	run1(i1(EU_OP_MOV, 8, gd(11, EU_TYPE_UD), ind));
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(rud(&th, 11, i), 101 + i);
	/* align16: g2.wzyx swizzle into g12.xz write mask */
	struct eu_operand s = op_reg(EU_FILE_GRF, 2, 0, EU_TYPE_UD, 4, 4, 1);
	s.swizzle[0] = 3; s.swizzle[1] = 2; s.swizzle[2] = 1; s.swizzle[3] = 0;
	struct eu_operand d = gd(12, EU_TYPE_UD);
	d.writemask = 0x5;
	struct eu_inst m = i1(EU_OP_MOV, 8, d, s);
	m.access_mode = EU_ALIGN16;
	run1(m);
	CHECK_EQ(rud(&th, 12, 0), 103);
	CHECK_EQ(rud(&th, 12, 1), 0);
	CHECK_EQ(rud(&th, 12, 2), 101);
	CHECK_EQ(rud(&th, 12, 4), 107);
	CHECK_EQ(rud(&th, 12, 6), 105);
}

static void test_acc_ops(void)
{
	fresh(8);
	/* addc: carry into acc0; subb: borrow */
	struct eu_inst a = i2(EU_OP_ADDC, 1, gd(10, EU_TYPE_UD), immud(0xffffffff), immud(2));
	a.acc_wr = true;
	struct eu_inst prog[6];
	prog[0] = a;
	prog[1] = i1(EU_OP_MOV, 1, gd(11, EU_TYPE_UD), arf(EU_ARF_ACC0, EU_TYPE_UD));
	prog[2] = i2(EU_OP_SUBB, 1, gd(12, EU_TYPE_UD), immud(1), immud(2));
	prog[2].acc_wr = true;
	prog[3] = i1(EU_OP_MOV, 1, gd(13, EU_TYPE_UD), arf(EU_ARF_ACC0, EU_TYPE_UD));
	run(prog, 4);
	CHECK_EQ(rud(&th, 10, 0), 1);
	CHECK_EQ(rud(&th, 11, 0), 1);
	CHECK_EQ(rud(&th, 12, 0), 0xffffffffu);
	CHECK_EQ(rud(&th, 13, 0), 1);
	/* 32x32 -> high 32: mul acc0 a b.lo16; mach dst a b; mov acc0 = low */
	setud(&th, 2, 0, 0x12345678);
	setud(&th, 3, 0, 0x9abcdef0);
	setud(&th, 2, 1, (uint32_t)-5);
	setud(&th, 3, 1, 0x7ffffff3);
	struct eu_operand acc = arf(EU_ARF_ACC0, EU_TYPE_UD);
	acc.hstride = 1;
	prog[0] = i2(EU_OP_MUL, 2, acc, op_reg(EU_FILE_GRF, 2, 0, EU_TYPE_UD, 2, 2, 1),
		     op_reg(EU_FILE_GRF, 3, 0, EU_TYPE_UW, 4, 2, 2));
	prog[1] = i2(EU_OP_MACH, 2, gd(14, EU_TYPE_UD), op_reg(EU_FILE_GRF, 2, 0, EU_TYPE_UD, 2, 2, 1),
		     op_reg(EU_FILE_GRF, 3, 0, EU_TYPE_UD, 2, 2, 1));
	prog[1].acc_wr = true;
	prog[2] = i1(EU_OP_MOV, 2, gd(15, EU_TYPE_UD), op_reg(EU_FILE_ARF, EU_ARF_ACC0, 0, EU_TYPE_UD, 2, 2, 1));
	/* the signed pair: D types */
	run(prog, 3);
	CHECK_EQ(rud(&th, 14, 0), 0x0b00ea4e);           /* python: (a*b) >> 32 */
	CHECK_EQ(rud(&th, 15, 0), 0x242d2080);
	for (unsigned k = 0; k < 3; k++) {
		prog[k].src[0].type = EU_TYPE_D;
		if (k < 2)
			prog[k].src[1].type = k == 0 ? EU_TYPE_UW : EU_TYPE_D;
		prog[k].dst.type = EU_TYPE_D;
	}
	run(prog, 3);
	CHECK_EQ(rud(&th, 14, 1), 0xfffffffd);           /* -5 * 0x7ffffff3 */
	CHECK_EQ(rud(&th, 15, 1), 0x80000041);
	/* mac: acc + src0 * src1 */
	struct eu_operand accf = arf(EU_ARF_ACC0, EU_TYPE_F);
	accf.hstride = 1;
	prog[0] = i1(EU_OP_MOV, 8, accf, immf(1.0f));
	prog[1] = i2(EU_OP_MAC, 8, gd(16, EU_TYPE_F), immf(2.0f), immf(3.0f));
	run(prog, 2);
	CHECK(rf(&th, 16, 5) == 7.0f);
}

static void test_math(void)
{
	fresh(8);
	struct { unsigned fn; float a, b, want; } f[] = {
		{ EU_MATH_INV, 4, 0, 0.25f }, { EU_MATH_SQRT, 16, 0, 4 },
		{ EU_MATH_RSQ, 4, 0, 0.5f }, { EU_MATH_EXP, 3, 0, 8 },
		{ EU_MATH_LOG, 8, 0, 3 }, { EU_MATH_POW, 2, 10, 1024 },
		{ EU_MATH_FDIV, 1, 4, 0.25f }, { EU_MATH_SIN, 0, 0, 0 },
		{ EU_MATH_COS, 0, 0, 1 },
	};
	for (unsigned k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		struct eu_inst m = i2(EU_OP_MATH, 1, gd(10, EU_TYPE_F), immf(f[k].a), immf(f[k].b));
		m.math_fn = f[k].fn;
		run1(m);
		CHECK(rf(&th, 10, 0) == f[k].want);
	}
	/* integer divide: truncation toward zero, remainder takes the
	 * dividend's sign; INT_DIV_BOTH puts the remainder one GRF later */
	struct eu_inst d = i2(EU_OP_MATH, 1, gd(11, EU_TYPE_D), immd(-7), immd(2));
	d.math_fn = EU_MATH_INT_DIV_QUOTIENT;
	run1(d);
	CHECK_EQ((int32_t)rud(&th, 11, 0), -3);
	d.math_fn = EU_MATH_INT_DIV_REMAINDER;
	run1(d);
	CHECK_EQ((int32_t)rud(&th, 11, 0), -1);
	d = i2(EU_OP_MATH, 1, gd(12, EU_TYPE_UD), immud(100), immud(7));
	d.math_fn = EU_MATH_INT_DIV_BOTH;
	run1(d);
	CHECK_EQ(rud(&th, 12, 0), 14);
	CHECK_EQ(rud(&th, 13, 0), 2);
	/* divide by zero is defined by gtsim (quotient ~0), never a crash;
	 * INT_MIN / -1 too */
	d = i2(EU_OP_MATH, 1, gd(14, EU_TYPE_D), immd(INT32_MIN), immd(-1));
	d.math_fn = EU_MATH_INT_DIV_QUOTIENT;
	run1(d);
	CHECK_EQ(rud(&th, 14, 0), 0x80000000u);
	d.src[1] = immd(0);
	run1(d);
	CHECK_EQ(rud(&th, 14, 0), 0xffffffffu);
	/* IEEE: inv(0) = +inf; ALT mode (cr0 bit 0): +FLT_MAX */
	struct eu_inst m = i1(EU_OP_MATH, 1, gd(15, EU_TYPE_F), immf(0.0f));
	m.math_fn = EU_MATH_INV;
	run1(m);
	CHECK(isinf(rf(&th, 15, 0)));
	uint32_t cr0 = 1;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	run1(m);
	CHECK(rf(&th, 15, 0) == FLT_MAX);
	/* ALT: log and sqrt take |x| */
	m.math_fn = EU_MATH_SQRT;
	m.src[0] = immf(-4.0f);
	run1(m);
	CHECK(rf(&th, 15, 0) == 2.0f);
}

static void test_fp_modes(void)
{
	fresh(8);
	/* 1 + 2^-24 is a tie: RNE keeps 1.0, round-up (cr0 5:4 = 1) gives
	 * the next float 1 + 2^-23 */
	struct eu_inst a = i2(EU_OP_ADD, 1, gd(10, EU_TYPE_F), immf(1.0f), immf(0x1p-24f));
	run1(a);
	CHECK(rf(&th, 10, 0) == 1.0f);
	uint32_t cr0 = 1u << 4;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	run1(a);
	CHECK(rf(&th, 10, 0) == 1.0f + 0x1p-23f);
	/* round toward zero (3): 1 - (1+2^-24)... use -1 - 2^-24 -> -1 */
	cr0 = 3u << 4;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	a.src[0] = immf(-1.0f);
	a.src[1] = immf(-0x1p-23f * 0.75f);
	run1(a);
	CHECK(rf(&th, 10, 0) == -1.0f);
	/* denormals: flushed by default, kept with cr0 bit 7 */
	cr0 = 0;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	a = i2(EU_OP_ADD, 1, gd(11, EU_TYPE_F), imm(EU_TYPE_F, 1), immf(0.0f));
	run1(a);
	CHECK_EQ(rud(&th, 11, 0), 0);
	cr0 = 1u << 7;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	run1(a);
	CHECK_EQ(rud(&th, 11, 0), 1);
	/* a plain mov copies a denormal untouched */
	cr0 = 0;
	memcpy(eu_arf(&th, EU_ARF_CR0), &cr0, 4);
	run1(i1(EU_OP_MOV, 1, gd(12, EU_TYPE_F), imm(EU_TYPE_F, 1)));
	CHECK_EQ(rud(&th, 12, 0), 1);
}

static void test_dot_line_pln(void)
{
	fresh(8);
	for (unsigned i = 0; i < 8; i++) {
		setf(&th, 2, i, (float)(i + 1));          /* 1..4 | 5..8 */
		setf(&th, 3, i, i < 4 ? 1.0f : 2.0f);
	}
	struct eu_operand s0 = op_reg(EU_FILE_GRF, 2, 0, EU_TYPE_F, 4, 4, 1);
	struct eu_operand s1 = op_reg(EU_FILE_GRF, 3, 0, EU_TYPE_F, 4, 4, 1);
	unsigned ops[4] = { EU_OP_DP4, EU_OP_DPH, EU_OP_DP3, EU_OP_DP2 };
	/* dp4: 1+2+3+4 = 10, 2*(5+6+7+8) = 52; dph: 1+2+3+1 = 7,
	 * 2*(5+6+7)+2 = 38; dp3: 6, 36; dp2: 3, 22 */
	float want[4][2] = { { 10, 52 }, { 7, 38 }, { 6, 36 }, { 3, 22 } };
	for (unsigned k = 0; k < 4; k++) {
		struct eu_inst m = i2(ops[k], 8, gd(10 + k, EU_TYPE_F), s0, s1);
		m.access_mode = EU_ALIGN16;
		run1(m);
		CHECK(rf(&th, 10 + k, 0) == want[k][0] && rf(&th, 10 + k, 3) == want[k][0]);
		CHECK(rf(&th, 10 + k, 4) == want[k][1] && rf(&th, 10 + k, 7) == want[k][1]);
	}
	/* line: src0.0 * src1 + src0.3 with p = 2, q = 3 */
	setf(&th, 4, 0, 2.0f);
	setf(&th, 4, 3, 3.0f);
	setf(&th, 4, 1, 5.0f);    /* pln's second coefficient */
	setf(&th, 4, 3, 3.0f);
	struct eu_operand p = op_reg(EU_FILE_GRF, 4, 0, EU_TYPE_F, 0, 4, 1);
	run1(i2(EU_OP_LINE, 8, gd(14, EU_TYPE_F), p, g(2, EU_TYPE_F)));
	CHECK(rf(&th, 14, 0) == 5.0f && rf(&th, 14, 7) == 19.0f);
	/* pln: src0.0 * x + src0.1 * y + src0.3, x in g6, y in g7 */
	for (unsigned i = 0; i < 8; i++) {
		setf(&th, 6, i, (float)i);
		setf(&th, 7, i, 1.0f);
	}
	run1(i2(EU_OP_PLN, 8, gd(15, EU_TYPE_F), p, g(6, EU_TYPE_F)));
	CHECK(rf(&th, 15, 0) == 8.0f && rf(&th, 15, 4) == 16.0f);
	/* SIMD16: x/y interleaved per 8 channels: g6 x0-7, g7 y0-7,
	 * g8 x8-15, g9 y8-15 */
	fresh(16);
	setf(&th, 4, 0, 2.0f);
	setf(&th, 4, 1, 5.0f);
	setf(&th, 4, 3, 3.0f);
	for (unsigned i = 0; i < 8; i++) {
		setf(&th, 6, i, (float)i);
		setf(&th, 7, i, 1.0f);
		setf(&th, 8, i, (float)(i + 8));
		setf(&th, 9, i, 2.0f);
	}
	run1(i2(EU_OP_PLN, 16, gd(16, EU_TYPE_F), p, g(6, EU_TYPE_F)));
	CHECK(rf(&th, 16, 1) == 2 * 1 + 5 * 1 + 3);
	CHECK(rf(&th, 16, 9) == 2 * 9 + 5 * 2 + 3);
	/* the same through the generic path (a conditional modifier keeps
	 * the fast handler out): every channel, and the flags */
	struct eu_inst pg = i2(EU_OP_PLN, 16, gd(20, EU_TYPE_F), p, g(6, EU_TYPE_F));
	pg.cond = EU_COND_G;
	setf(&th, 9, 7, -20.0f);      /* y of channel 15: 2*15 - 100 + 3 < 0 */
	run1(pg);
	for (unsigned i = 0; i < 16; i++) {
		float x = (float)i, y = i < 8 ? 1.0f : i == 15 ? -20.0f : 2.0f;
		CHECK(rf(&th, 20, i) == 2 * x + 5 * y + 3);
		CHECK(rf(&th, 16, i) == 2 * x + 5 * (i < 8 ? 1.0f : 2.0f) + 3);
	}
	uint32_t f0;
	memcpy(&f0, eu_arf(&th, EU_ARF_F0), 4);
	CHECK_EQ(f0 & 0xffff, 0x7fff);
}

static void test_half_convert_sad(void)
{
	fresh(8);
	run1(i1(EU_OP_F32TO16, 1, gd(10, EU_TYPE_UD), immf(1.0f)));
	CHECK_EQ(rud(&th, 10, 0), 0x3c00);
	run1(i1(EU_OP_F32TO16, 1, gd(10, EU_TYPE_UD), immf(65520.0f)));
	CHECK_EQ(rud(&th, 10, 0), 0x7c00);      /* ties to even: overflows to inf */
	run1(i1(EU_OP_F32TO16, 1, gd(10, EU_TYPE_UD), immf(-0x1p-24f)));
	CHECK_EQ(rud(&th, 10, 0), 0x8001);      /* smallest half denormal */
	run1(i1(EU_OP_F16TO32, 1, gd(11, EU_TYPE_F), immud(0xc000)));
	CHECK(rf(&th, 11, 0) == -2.0f);
	run1(i1(EU_OP_F16TO32, 1, gd(11, EU_TYPE_F), immud(0x3555)));
	CHECK(rf(&th, 11, 0) == 0x1.554p-2f);
	/* sad2: |10-13| + |20-15| = 8 per byte pair */
	setud(&th, 2, 0, 0x1e14140a);          /* bytes 10,20,20,30 */
	setud(&th, 3, 0, 0x0f0f0f0d);          /* bytes 13,15,15,15 */
	struct eu_operand a = op_reg(EU_FILE_GRF, 2, 0, EU_TYPE_UB, 4, 2, 2);
	struct eu_operand b = op_reg(EU_FILE_GRF, 3, 0, EU_TYPE_UB, 4, 2, 2);
	run1(i2(EU_OP_SAD2, 2, gd(12, EU_TYPE_UW), a, b));
	CHECK_EQ(rud(&th, 12, 0), (20u << 16) | 8u);   /* |20-15|+|30-15| = 20 */
	/* sada2 adds the accumulator: acc0 = UV [1, 2] + 99 = 100, 101 */
	struct eu_operand acc = op_reg(EU_FILE_ARF, EU_ARF_ACC0, 0, EU_TYPE_UW, 0, 1, 1);
	run1(i2(EU_OP_ADD, 2, acc, imm(EU_TYPE_UV, 0x21), imm(EU_TYPE_UW, 99)));
	run1(i2(EU_OP_SADA2, 2, gd(13, EU_TYPE_UW), a, b));
	CHECK_EQ(rud(&th, 13, 0), (121u << 16) | 108u);   /* 8+100, 20+101 */
	/* movi moves like mov; madm multiplies and adds like mad */
	run1(i1(EU_OP_MOVI, 1, gd(14, EU_TYPE_UD), immud(0xabc)));
	CHECK_EQ(rud(&th, 14, 0), 0xabc);
	setf(&th, 15, 0, 1.0f);
	setf(&th, 15, 1, 2.0f);
	setf(&th, 15, 2, 3.0f);
	struct eu_inst mm = i3(EU_OP_MADM, 1, gd(16, EU_TYPE_F), gs(15, 0, EU_TYPE_F),
			       gs(15, 1, EU_TYPE_F), gs(15, 2, EU_TYPE_F));
	run1(mm);
	CHECK(rf(&th, 16, 0) == 7.0f);
}

/* The shapes the specialised handlers take (SIMD8/16 rows, scalars,
 * immediates): same rules as everywhere else. */
static void test_fast_shapes(void)
{
	fresh(16);
	for (unsigned i = 0; i < 16; i++) {
		setf(&th, 2, i, (float)i);
		setud(&th, 4, i, i);
	}
	eu_grf_set_ud(&th, 6, 0, 1);                 /* a denormal */
	/* denormal scalar source flushed to 0: 0 + (-i) */
	run1(i2(EU_OP_ADD, 16, gd(10, EU_TYPE_F), gs(6, 0, EU_TYPE_F), neg(g16(2, EU_TYPE_F))));
	CHECK(rf(&th, 10, 3) == -3.0f && rf(&th, 10, 15) == -15.0f);
	CHECK_EQ(rud(&th, 10, 0), 0);                /* +0 + -0 = +0 (RNE) */
	/* a product that underflows is flushed: 1e-30 * 1e-10 */
	run1(i2(EU_OP_MUL, 8, gd(12, EU_TYPE_F), immf(1e-30f), immf(1e-10f)));
	CHECK_EQ(rud(&th, 12, 0), 0);
	/* predicated SIMD16 mad writes only enabled channels */
	eu_thread_set_flags(&th, 0x00f0);
	for (unsigned i = 0; i < 16; i++)
		setf(&th, 14, i, -1.0f);
	setf(&th, 7, 0, 1.0f);
	setf(&th, 7, 1, 2.0f);
	struct eu_operand one = op_reg(EU_FILE_GRF, 7, 0, EU_TYPE_F, 0, 1, 0);
	struct eu_operand two = op_reg(EU_FILE_GRF, 7, 4, EU_TYPE_F, 0, 1, 0);
	struct eu_inst m = i3(EU_OP_MAD, 16, gd(14, EU_TYPE_F), one,
			      op_reg(EU_FILE_GRF, 2, 0, EU_TYPE_F, 4, 4, 1), two);
	m.access_mode = EU_ALIGN16;
	m.pred = EU_PRED_NORMAL;
	run1(m);
	CHECK(rf(&th, 14, 3) == -1.0f && rf(&th, 14, 5) == 11.0f && rf(&th, 14, 8) == -1.0f);
	/* integer: negated mul and add wrap */
	run1(i2(EU_OP_MUL, 16, gd(16, EU_TYPE_D), neg(g16(4, EU_TYPE_D)), immd(3)));
	CHECK_EQ((int32_t)rud(&th, 16, 5), -15);
	run1(i2(EU_OP_ADD, 8, gd(18, EU_TYPE_UD), g(4, EU_TYPE_UD), immud(0xffffffff)));
	CHECK_EQ(rud(&th, 18, 0), 0xffffffffu);
	CHECK_EQ(rud(&th, 18, 2), 1);
	/* cmp.ge on D rows into a flag and a mask register */
	struct eu_inst c = i2(EU_OP_CMP, 16, gd(20, EU_TYPE_D), g16(4, EU_TYPE_D), immd(10));
	c.cond = EU_COND_GE;
	run1(c);
	CHECK_EQ(eu_thread_flags(&th) & 0xffff, 0xfc00);
	CHECK_EQ(rud(&th, 20, 10), 0xffffffffu);
	CHECK_EQ(rud(&th, 20, 9), 0);

	/* SIMD8 rows of integers: logic and shifts */
	uint32_t x[8] = { 0x0000ffff, 0x80000000, 0xdeadbeef, 0, 1, 0xffffffff, 0x12345678, 7 };
	uint32_t c8[8] = { 4, 31, 8, 0, 33, 1, 16, 3 };
	for (unsigned i = 0; i < 8; i++) {
		setud(&th, 22, i, x[i]);
		setud(&th, 23, i, c8[i]);
	}
	run1(i2(EU_OP_AND, 8, gd(24, EU_TYPE_UD), g(22, EU_TYPE_UD), immud(0x00ff00ff)));
	CHECK_EQ(rud(&th, 24, 2), 0x00ad00ef);
	run1(i2(EU_OP_OR, 8, gd(24, EU_TYPE_UD), g(22, EU_TYPE_UD), immud(0x0f)));
	CHECK_EQ(rud(&th, 24, 1), 0x8000000f);
	run1(i2(EU_OP_XOR, 8, gd(24, EU_TYPE_UD), g(22, EU_TYPE_UD), g(23, EU_TYPE_UD)));
	CHECK_EQ(rud(&th, 24, 0), 0x0000fffb);
	run1(i1(EU_OP_NOT, 8, gd(24, EU_TYPE_UD), g(22, EU_TYPE_UD)));
	CHECK_EQ(rud(&th, 24, 3), 0xffffffffu);
	run1(i2(EU_OP_SHL, 8, gd(24, EU_TYPE_UD), g(22, EU_TYPE_UD), g(23, EU_TYPE_UD)));
	CHECK_EQ(rud(&th, 24, 0), 0x000ffff0);
	CHECK_EQ(rud(&th, 24, 4), 2);                 /* count 33 & 31 = 1 */
	run1(i2(EU_OP_SHR, 8, gd(24, EU_TYPE_UD), g(22, EU_TYPE_UD), g(23, EU_TYPE_UD)));
	CHECK_EQ(rud(&th, 24, 1), 1);
	CHECK_EQ(rud(&th, 24, 6), 0x1234);
	run1(i2(EU_OP_ASR, 8, gd(24, EU_TYPE_D), g(22, EU_TYPE_D), g(23, EU_TYPE_UD)));
	CHECK_EQ(rud(&th, 24, 1), 0xffffffffu);       /* INT_MIN >> 31 */
	CHECK_EQ(rud(&th, 24, 2), 0xffdeadbe);
	/* float min/max: a NaN loses; a negative denormal is flushed to -0 */
	float f8[8] = { 1.0f, -2.0f, NAN, 3.0f, -0.0f, 5.0f, -1e-40f, 0.25f };
	for (unsigned i = 0; i < 8; i++)
		setf(&th, 25, i, f8[i]);
	struct eu_inst mn = i2(EU_OP_SEL, 8, gd(26, EU_TYPE_F), g(25, EU_TYPE_F), immf(0.5f));
	mn.cond = EU_COND_L;
	run1(mn);
	CHECK(rf(&th, 26, 0) == 0.5f && rf(&th, 26, 1) == -2.0f && rf(&th, 26, 2) == 0.5f);
	CHECK_EQ(rud(&th, 26, 6), 0x80000000u);
	mn.cond = EU_COND_GE;
	run1(mn);
	CHECK(rf(&th, 26, 0) == 1.0f && rf(&th, 26, 2) == 0.5f && rf(&th, 26, 7) == 0.5f);
	/* conversions F -> D (toward zero, clamp, NaN 0), D -> F, UD -> F */
	float cf[8] = { 2.9f, -2.9f, NAN, 3e9f, -3e9f, 0.0f, -0.5f, 16777217.0f };
	int32_t cd[8] = { 2, -2, 0, INT32_MAX, INT32_MIN, 0, 0, 16777216 };
	for (unsigned i = 0; i < 8; i++)
		setf(&th, 27, i, cf[i]);
	run1(i1(EU_OP_MOV, 8, gd(28, EU_TYPE_D), g(27, EU_TYPE_F)));
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ((int32_t)rud(&th, 28, i), cd[i]);
	setud(&th, 29, 0, 16777217);                  /* rounds to even: 2^24 */
	setud(&th, 29, 1, (uint32_t)-7);
	run1(i1(EU_OP_MOV, 8, gd(30, EU_TYPE_F), g(29, EU_TYPE_D)));
	CHECK(rf(&th, 30, 0) == 16777216.0f && rf(&th, 30, 1) == -7.0f);
	run1(i1(EU_OP_MOV, 8, gd(30, EU_TYPE_F), g(29, EU_TYPE_UD)));
	CHECK(rf(&th, 30, 1) == 4294967296.0f);       /* 0xfffffff9 rounds up */

	/* predicated sel on rows: f0.0 = 0b0101 picks src0 in channels 0, 2 */
	eu_thread_set_flags(&th, 0x5);
	struct eu_inst ps = i2(EU_OP_SEL, 8, gd(31, EU_TYPE_F), g(25, EU_TYPE_F), immf(9.0f));
	ps.pred = EU_PRED_NORMAL;
	run1(ps);
	CHECK(rf(&th, 31, 0) == 1.0f && rf(&th, 31, 1) == 9.0f && isnan(rf(&th, 31, 2)));
	eu_thread_set_flags(&th, 0x40);               /* channel 6: -1e-40 */
	run1(ps);
	CHECK_EQ(rud(&th, 31, 6), 0x80000000u);       /* flushed, sign kept */
	ps = i2(EU_OP_SEL, 8, gd(32, EU_TYPE_D), g(22, EU_TYPE_D), immd(-1));
	ps.pred = EU_PRED_NORMAL;
	ps.pred_inv = true;
	run1(ps);
	/* inverted: flag clear (channel 0) takes src0, set (6) src1 */
	CHECK_EQ(rud(&th, 32, 0), 0x0000ffff);
	CHECK_EQ(rud(&th, 32, 6), 0xffffffffu);
	/* math on a SIMD8 row, with .sat and with |x| */
	float mx[8] = { 4.0f, 0.25f, -4.0f, 0.0f, 1.0f, 9.0f, 2.25f, 100.0f };
	for (unsigned i = 0; i < 8; i++)
		setf(&th, 33, i, mx[i]);
	struct eu_inst mt = i1(EU_OP_MATH, 8, gd(34, EU_TYPE_F), g(33, EU_TYPE_F));
	mt.math_fn = EU_MATH_SQRT;
	run1(mt);
	CHECK(rf(&th, 34, 0) == 2.0f && rf(&th, 34, 1) == 0.5f && isnan(rf(&th, 34, 2)));
	CHECK(rf(&th, 34, 6) == 1.5f);
	mt.src[0] = absm(g(33, EU_TYPE_F));
	mt.saturate = true;
	run1(mt);
	CHECK(rf(&th, 34, 2) == 1.0f && rf(&th, 34, 1) == 0.5f && rf(&th, 34, 3) == 0.0f);
	mt = i2(EU_OP_MATH, 8, gd(35, EU_TYPE_F), g(33, EU_TYPE_F), immf(2.0f));
	mt.math_fn = EU_MATH_POW;
	run1(mt);
	CHECK(rf(&th, 35, 5) == 81.0f && rf(&th, 35, 2) == 16.0f);
	/* lrp as iris emits it: align16, src0/src1 scalars, src2 a row:
	 * 0.25 * 8 + row * 0.75 */
	setf(&th, 41, 0, 0.25f);
	setf(&th, 41, 1, 8.0f);
	for (unsigned i = 0; i < 8; i++)
		setf(&th, 42, i, (float)i * 4.0f);
	struct eu_inst lr = i3(EU_OP_LRP, 8, gd(43, EU_TYPE_F),
			       op_reg(EU_FILE_GRF, 41, 0, EU_TYPE_F, 0, 1, 0),
			       op_reg(EU_FILE_GRF, 41, 4, EU_TYPE_F, 0, 1, 0),
			       op_reg(EU_FILE_GRF, 42, 0, EU_TYPE_F, 4, 4, 1));
	lr.access_mode = EU_ALIGN16;
	run1(lr);
	for (unsigned i = 0; i < 8; i++)
		CHECK(rf(&th, 43, i) == 2.0f + 3.0f * (float)i);
	/* pln.sat(8): 0.5 * x - 0.25 * y + 0.125, clamped */
	setf(&th, 44, 0, 0.5f);
	setf(&th, 44, 1, -0.25f);
	setf(&th, 44, 3, 0.125f);
	for (unsigned i = 0; i < 8; i++) {
		setf(&th, 45, i, (float)i * 0.25f);     /* x */
		setf(&th, 46, i, 1.0f);                 /* y */
	}
	struct eu_inst pl = i2(EU_OP_PLN, 8, gd(47, EU_TYPE_F),
			       op_reg(EU_FILE_GRF, 44, 0, EU_TYPE_F, 0, 1, 0), g(45, EU_TYPE_F));
	pl.saturate = true;
	run1(pl);
	CHECK(rf(&th, 47, 0) == 0.0f);                 /* -0.125 -> 0 */
	CHECK(rf(&th, 47, 4) == 0.375f);               /* 0.5 - 0.25 + 0.125 */
	CHECK(rf(&th, 47, 7) == 0.75f);                /* 0.875 - 0.125 */
	/* add.sat and mul with |x| on SIMD16 rows */
	for (unsigned i = 0; i < 16; i++)
		setf(&th, 36, i, (float)i * 0.25f - 1.0f);    /* -1 .. 2.75 */
	struct eu_inst as = i2(EU_OP_ADD, 16, gd(38, EU_TYPE_F), g16(36, EU_TYPE_F), immf(0.0f));
	as.saturate = true;
	run1(as);
	CHECK(rf(&th, 38, 0) == 0.0f && rf(&th, 38, 6) == 0.5f && rf(&th, 38, 15) == 1.0f);
	run1(i2(EU_OP_MUL, 16, gd(40, EU_TYPE_F), absm(g16(36, EU_TYPE_F)), immf(2.0f)));
	CHECK(rf(&th, 40, 0) == 2.0f && rf(&th, 40, 15) == 5.5f);
}

int main(void)
{
	test_fast_shapes();
	test_mov_conversions();
	test_vector_immediates();
	test_add_mul_int();
	test_float_arith();
	test_rounding_ops();
	test_logic_shift();
	test_bit_ops();
	test_cmp_sel_flags();
	test_predication_forms();
	test_regions_indirect_align16();
	test_acc_ops();
	test_math();
	test_fp_modes();
	test_dot_line_pln();
	test_half_convert_sad();
	return test_exit();
}
