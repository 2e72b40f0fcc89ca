/* EU arithmetic of issue 13: the accumulator as an explicit source,
 * 64-bit float (DF) and integer (Q/UQ) operations, conversions and the
 * packing instructions, from programs in Mesa's assembly syntax (the
 * lines iris emits). Expected values are computed by hand or by the host
 * CPU's IEEE arithmetic in the test, never by gtsim. */
#include <stdlib.h>

#include "gpu/eu/asm.h"
#include "test_exec_util.h"

static struct eu_thread th;

/* Assemble Mesa-syntax text for gen and run it to the end on th (SIMD
 * width n, all channels on); the caller fills registers first. */
static int run_text(int gen, const char *text)
{
	struct eu_asm_result r;
	if (eu_assemble(gen, text, strlen(text), "test_exec_64", &r)) {
		fprintf(stderr, "%s\n", r.error);
		CHECK(0);
		return -1;
	}
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(gen, r.bytes, r.len, &bad);
	eu_asm_result_free(&r);
	CHECK(p != NULL);
	if (!p)
		return -1;
	exec_run(&th, p, 10000);
	CHECK(ran_to_end(&th));
	exec_prog_free(p);
	return 0;
}

/* A file of tests/unit/eu (Mesa-syntax text) run like run_text. */
static int run_file(int gen, const char *name)
{
	const char *root = getenv("GTSIM_SOURCE_ROOT");
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/unit/eu/%s", root ? root : ".", name);
	FILE *f = fopen(path, "rb");
	CHECK(f != NULL);
	if (!f)
		return -1;
	static char text[32768];
	size_t len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = 0;
	return run_text(gen, text);
}

static double rdf(unsigned nr, unsigned i)
{
	uint64_t b = rud(&th, nr + i / 4, (i % 4) * 2) |
		     (uint64_t)rud(&th, nr + i / 4, (i % 4) * 2 + 1) << 32;
	double d;
	memcpy(&d, &b, 8);
	return d;
}

/* Mesa 22.3's usub_sat/isub_sat lowering (brw_fs.cpp lower_sub_sat) as
 * iris emits it in vs-subtractSaturate-uint: the accumulator source is
 * encoded <0,1,0> yet each channel must get its own accumulator value
 * (the PRM requires an explicit accumulator source's region to match the
 * destination's). Oracle: saturate(a - b) per channel, by hand. */
static void test_acc_source_region(void)
{
	static const uint32_t a[8] = { 10, 0, 7, 0xffffffffu, 5, 100, 3, 0x80000000u };
	static const uint32_t b[8] = { 3, 1, 7, 1, 9, 99, 0, 0x80000001u };
	static const uint32_t want_u[8] = { 7, 0, 0, 0xfffffffeu, 0, 1, 3, 0 };
	for (unsigned gen = 8; gen <= 9; gen++) {
		eu_thread_init(&th, 8, 0xff);
		for (unsigned i = 0; i < 8; i++) {
			setud(&th, 29, i, a[i]);
			setud(&th, 34, i, b[i]);
		}
		run_text((int)gen,
			 "mov(8)          acc0<1>UD       g34<8,8,1>UD                    { align1 1Q };\n"
			 "add.sat(8)      g35<1>UD        -acc0<0,1,0>UD  g29<8,8,1>UD    { align1 1Q };\n");
		for (unsigned i = 0; i < 8; i++)
			CHECK_EQ(rud(&th, 35, i), want_u[i]);
	}
	/* signed: subtractSaturate(0, INT_MIN) = INT_MAX needs the wide
	 * accumulator (Mesa's comment: "The accumulator is 33 bits") */
	static const int32_t sa[8] = { 0, -5, INT32_MAX, INT32_MIN, 1, -1, 100, -2 };
	static const int32_t sb[8] = { INT32_MIN, 3, -1, 1, 2, INT32_MAX, 100, INT32_MIN };
	static const int32_t want_s[8] = { INT32_MAX, -8, INT32_MAX, INT32_MIN, -1,
					   INT32_MIN, 0, INT32_MAX - 1 };
	eu_thread_init(&th, 8, 0xff);
	for (unsigned i = 0; i < 8; i++) {
		setud(&th, 29, i, (uint32_t)sa[i]);
		setud(&th, 34, i, (uint32_t)sb[i]);
	}
	run_text(8,
		 "mov(8)          acc0<1>D        g34<8,8,1>D                     { align1 1Q };\n"
		 "add.sat(8)      g35<1>D         -acc0<0,1,0>D   g29<8,8,1>D     { align1 1Q };\n");
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(rud(&th, 35, i), (uint32_t)want_s[i]);
}

static void setuq(unsigned nr, unsigned i, uint64_t v)
{
	setud(&th, nr + i / 4, (i % 4) * 2, (uint32_t)v);
	setud(&th, nr + i / 4, (i % 4) * 2 + 1, (uint32_t)(v >> 32));
}

static uint64_t ruq(unsigned nr, unsigned i)
{
	return rud(&th, nr + i / 4, (i % 4) * 2) |
	       (uint64_t)rud(&th, nr + i / 4, (i % 4) * 2 + 1) << 32;
}

/* UQ values above INT64_MAX: cmp and sel.l/.ge compare unsigned, a UQ
 * converts to F and DF as an unsigned number (lines iris emits for
 * uint64 <, min and float(uint64_t)); oracle: C's unsigned compare and
 * the host's correctly rounded conversion of the constants below. */
static void test_uq_compare_convert(void)
{
	static const uint64_t a[8] = { 1, 0x8000000000000000ull, UINT64_MAX, 5,
				       0x7fffffffffffffffull, 0, 0x8000000000000001ull, 7 };
	static const uint64_t b[8] = { 2, 1, 0, 5, 0x8000000000000000ull, UINT64_MAX, 0x8000000000000000ull, 6 };
	eu_thread_init(&th, 8, 0xff);
	for (unsigned i = 0; i < 8; i++) {
		setuq(33, i, a[i]);
		setuq(36, i, b[i]);
	}
	run_text(8,
		 "cmp.l.f0.0(8)   g20<1>UD        g33<4,4,1>UQ    g36<4,4,1>UQ    { align1 1Q };\n"
		 "sel.l(8)        g40<1>UQ        g33<4,4,1>UQ    g36<4,4,1>UQ    { align1 1Q };\n"
		 "sel.ge(8)       g42<1>UQ        g33<4,4,1>UQ    g36<4,4,1>UQ    { align1 1Q };\n"
		 "mov(8)          g10<2>F         g33<4,4,1>UQ                    { align1 1Q };\n"
		 "mov(8)          g50<1>DF        g33<4,4,1>UQ                    { align1 1Q };\n"
		 "add.g.f1.0(8)   g44<1>UQ        g33<4,4,1>UQ    0x0UD           { align1 1Q };\n");
	/* float(a): 2^63 -> 0x5f000000, UINT64_MAX -> 2^64 = 0x5f800000,
	 * 2^63-1 -> 2^63 (nearest), 2^63+1 -> 2^63 */
	static const uint32_t want_f[8] = { 0x3f800000, 0x5f000000, 0x5f800000, 0x40a00000,
					    0x5f000000, 0, 0x5f000000, 0x40e00000 };
	/* double: 2^63 = 0x43e0000000000000, 2^64 = 0x43f0000000000000 */
	static const uint64_t want_df[8] = { 0x3ff0000000000000ull, 0x43e0000000000000ull,
					     0x43f0000000000000ull, 0x4014000000000000ull,
					     0x43e0000000000000ull, 0, 0x43e0000000000000ull,
					     0x401c000000000000ull };
	uint32_t lt = 0, gt0 = 0;
	for (unsigned i = 0; i < 8; i++) {
		CHECK_EQ(rud(&th, 20, i), a[i] < b[i] ? 0xffffffffu : 0);
		lt |= (uint32_t)(a[i] < b[i]) << i;
		gt0 |= (uint32_t)(a[i] != 0) << i;
		CHECK_EQ(ruq(40, i), a[i] < b[i] ? a[i] : b[i]);
		CHECK_EQ(ruq(42, i), a[i] >= b[i] ? a[i] : b[i]);
		CHECK_EQ(rud(&th, 10, 2 * i), want_f[i]);
		CHECK_EQ(ruq(50, i), want_df[i]);
		CHECK_EQ(ruq(44, i), a[i]);
	}
	CHECK_EQ(eu_thread_flags(&th) & 0xff, lt);
	CHECK_EQ((eu_thread_flags(&th) >> 32) & 0xff, gt0);
}

/* Mesa's fp64 sqrt lowering as iris emits it (test_exec_fp64_sqrt.asm):
 * its bfi2 puts a computed exponent into the high word of a double (bfi2
 * shifts the insert to the mask's lowest bit), so a bfi2 without that
 * shift gives 0 or garbage. Oracle: the host's sqrt(); the lowering (one
 * Goldschmidt step after a float rsq) is good to about 2^-46 relative. */
static void test_fp64_sqrt_lowering(void)
{
	static const double x[] = { 2.0, 0.6666666666666666, 1.3333333333333333, 1e-300,
				    3e300, 7.0, 0.5, 0.0, 1e16, 2.2250738585072014e-308 };
	for (unsigned k = 0; k < sizeof(x) / sizeof(x[0]); k++) {
		eu_thread_init(&th, 8, 0xff);
		memcpy(eu_grf(&th, 2), &x[k], 8);
		if (run_file(8, "test_exec_fp64_sqrt.asm"))
			return;
		double want = sqrt(x[k]), got = rdf(52, 5);
		double err = want == 0 ? fabs(got) : fabs(got - want) / want;
		if (!(err <= 0x1p-44))
			fprintf(stderr, "sqrt(%.17g): got %.17g, want %.17g\n", x[k], got, want);
		CHECK(err <= 0x1p-44);
	}
}

/* DF -> F rounds as IEEE with gradual underflow, then flushes a denormal
 * result when cr0's F denorm bit (7) is clear. 0x380fffffe0000000 is
 * 2^-126 - 2^-150: halfway between the denormal 0x007fffff and FLT_MIN,
 * ties to even gives FLT_MIN (a normal: kept). 0x369fffffffffffff rounds
 * to the smallest denormal 0x00000001: flushed to +0, kept with cr0 bit 7
 * set. Values from piglit's conversion-explicit-dvec2-vec2, by hand. */
static void test_df_to_f_underflow(void)
{
	static const uint64_t in[4] = { 0x380fffffe0000000ull, 0xb80fffffe0000000ull,
					0x369fffffffffffffull, 0xb69fffffffffffffull };
	static const uint32_t flushed[4] = { 0x00800000, 0x80800000, 0, 0x80000000 };
	static const uint32_t kept[4] = { 0x00800000, 0x80800000, 1, 0x80000001 };
	for (unsigned keep = 0; keep < 2; keep++) {
		eu_thread_init(&th, 8, 0xff);
		for (unsigned i = 0; i < 8; i++)
			setuq(20, i, in[i % 4]);
		run_text(8, keep
			 ? "or(1)           cr0<1>UD        cr0<0,1,0>UD    0x00000080UD    { align1 1N };\n"
			   "mov(8)          g10<2>F         g20<4,4,1>DF                    { align1 1Q };\n"
			 : "mov(8)          g10<2>F         g20<4,4,1>DF                    { align1 1Q };\n");
		for (unsigned i = 0; i < 8; i++)
			CHECK_EQ(rud(&th, 10, 2 * i), (keep ? kept : flushed)[i % 4]);
	}
}

/* unpackHalf2x16 / packHalf2x16 as iris lowers them on Gen8/9 (movs
 * with an HF operand, cr0 left at 0): half denormals convert exactly both
 * ways. 0x83ff = -1023 * 2^-24; 0x0001 = 2^-24; 0x03ff = 1023 * 2^-24. */
static void test_half_pack_unpack(void)
{
	for (unsigned gen = 8; gen <= 9; gen++) {
		eu_thread_init(&th, 8, 0xff);
		setud(&th, 2, 0, 0x03ff83ffu);
		setf(&th, 3, 0, ldexpf(1.0f, -24));
		setf(&th, 3, 1, ldexpf(-1023.0f, -24));
		run_text((int)gen,
			 "mov(8)          g14<1>F         g2<0,1,0>F                      { align1 1Q };\n"
			 "mov(8)          g5<1>F          g2<0,1,0>HF                     { align1 1Q };\n"
			 "mov(8)          g4<1>F          g14.1<16,8,2>HF                 { align1 1Q };\n"
			 "mov(8)          g6<2>HF         g3<0,1,0>F                      { align1 1Q };\n"
			 "mov(8)          g6.1<2>HF       g3.1<0,1,0>F                    { align1 1Q };\n");
		for (unsigned i = 0; i < 8; i++) {
			CHECK(rf(&th, 5, i) == ldexpf(-1023.0f, -24));
			CHECK(rf(&th, 4, i) == ldexpf(1023.0f, -24));
			CHECK_EQ(rud(&th, 6, i), 0x83ff0001u);
		}
	}
}

/* cr0 bits 5:4 (0 RNE, 1 RU, 2 RD, 3 RTZ) round DF arithmetic and
 * conversions to F too. By hand: 1 + 2^-60 is 1 or nextafter(1) = 1 +
 * 2^-52; D 16777217 (2^24 + 1) to F is 2^24 or 2^24 + 2; DF 1 + 2^-30 to
 * F is 1 or 1 + 2^-23; -(1 + 2^-30) rounds down to -(1 + 2^-23). */
static void test_df_rounding_modes(void)
{
	static const uint32_t rnd_bits[4] = { 0x00, 0x10, 0x20, 0x30 };
	static const double add_want[4] = { 1.0, 1.0 + 0x1p-52, 1.0, 1.0 };
	static const float d2f_want[4] = { 16777216.0f, 16777218.0f, 16777216.0f, 16777216.0f };
	static const float df2f_want[4] = { 1.0f, 1.0f + 0x1p-23f, 1.0f, 1.0f };
	static const float ndf2f_want[4] = { -1.0f, -1.0f, -1.0f - 0x1p-23f, -1.0f };
	char text[1024];
	for (unsigned r = 0; r < 4; r++) {
		eu_thread_init(&th, 8, 0xff);
		double one = 1.0, tiny = 0x1p-60, near1 = 1.0 + 0x1p-30, nnear1 = -near1;
		memcpy(eu_grf(&th, 2), &one, 8);
		memcpy(eu_grf(&th, 2) + 8, &tiny, 8);
		memcpy(eu_grf(&th, 2) + 16, &near1, 8);
		memcpy(eu_grf(&th, 2) + 24, &nnear1, 8);
		setud(&th, 3, 0, 16777217u);
		snprintf(text, sizeof(text),
			 "or(1)           cr0<1>UD        cr0<0,1,0>UD    0x%08xUD    { align1 1N };\n"
			 "add(8)          g10<1>DF        g2<0,1,0>DF     g2.1<0,1,0>DF   { align1 1Q };\n"
			 "mov(8)          g12<1>F         g3<0,1,0>D                      { align1 1Q };\n"
			 "mov(8)          g13<2>F         g2.2<0,1,0>DF                   { align1 1Q };\n"
			 "mov(8)          g15<2>F         g2.3<0,1,0>DF                   { align1 1Q };\n",
			 rnd_bits[r]);
		run_text(8, text);
		for (unsigned i = 0; i < 8; i++) {
			CHECK(rdf(10, i) == add_want[r]);
			CHECK(rf(&th, 12, i) == d2f_want[r]);
			CHECK(rf(&th, 13 + i / 4, (i % 4) * 2) == df2f_want[r]);
			CHECK(rf(&th, 15 + i / 4, (i % 4) * 2) == ndf2f_want[r]);
		}
	}
}

int main(void)
{
	test_acc_source_region();
	test_uq_compare_convert();
	test_fp64_sqrt_lowering();
	test_df_to_f_underflow();
	test_half_pack_unpack();
	test_df_rounding_modes();
	return test_exit();
}
