/* Floating-point modes of a thread (cr0.0, PRM vol. 7 "Control Register":
 * bit 0 single precision ALT mode, bits 5:4 rounding mode, bits 6/7/10
 * keep double/single/half denormals instead of flushing them) and the
 * conversions the executor needs. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "gpu/eu/exec_internal.h"
#if EXEC_HOST_DAZ
#include <xmmintrin.h>
#endif


static uint32_t cr0(const struct eu_thread *t)
{
	uint32_t v;
	memcpy(&v, eu_arf_c(t, EU_ARF_CR0), 4);
	return v;
}

struct exec_fpmode exec_fpmode(const struct eu_thread *t)
{
	uint32_t c = cr0(t);
	struct exec_fpmode m = {
		.alt = c & CR0_ALT,
		.f32_denorm = c & CR0_F32_DENORM,
		.f64_denorm = c & CR0_F64_DENORM,
		.f16_denorm = c & CR0_F16_DENORM,
		.round = (c >> CR0_ROUND_SHIFT) & 3,
	};
	return m;
}


float exec_flush_f(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	if (!(b & 0x7f800000u)) {       /* zero or denormal: keep the sign */
		b &= 0x80000000u;
		memcpy(&f, &b, 4);
	}
	return f;
}

double exec_flush_df(double d)
{
	uint64_t b;
	memcpy(&b, &d, 8);
	if (!(b & 0x7ff0000000000000ull)) {
		b &= 0x8000000000000000ull;
		memcpy(&d, &b, 8);
	}
	return d;
}

/* DF to F as the EU rounds it: IEEE rounding to the F format (with its
 * denormals), then the caller flushes a denormal result when F denormals
 * are off. The host's FTZ instead flushes every result that is tiny
 * before rounding, also one that rounds up to FLT_MIN (piglit fp64
 * conversion-explicit-dvec2-vec2: 0x380fffffe0000000 -> 0x00800000), so
 * such a value is converted again with the host's FTZ off. */
float exec_df_to_f(double d)
{
	float f = (float)d;
	if (f == 0 && d != 0) {
		unsigned saved = exec_host_daz(false);
		volatile double v = d;
		f = (float)v;
		exec_host_restore(saved);
	}
	return f;
}

float exec_half_to_float(uint16_t h)
{
	unsigned s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
	float f;
	if (e == 0)
		f = ldexpf((float)m, -24);
	else if (e == 31)
		f = m ? NAN : INFINITY;
	else
		f = ldexpf((float)(m | 1024), (int)e - 25);
	return s ? -f : f;
}

/* Single to half precision with the given rounding mode (0 RNE, 1 toward
 * +inf, 2 toward -inf, 3 toward zero). */
uint16_t exec_float_to_half(float f, unsigned round)
{
	uint16_t sign = signbit(f) ? 0x8000 : 0;
	if (isnan(f))
		return sign | 0x7e00;
	float a = fabsf(f);
	if (isinf(a))
		return sign | 0x7c00;
	/* scale so the half's last mantissa bit is the integer unit */
	int e;
	frexpf(a, &e);               /* a = m * 2^e, m in [0.5, 1) */
	int exp = e - 1;             /* a = 1.x * 2^exp */
	if (exp < -14)
		exp = -14;           /* denormal range: fixed scale */
	double scaled = ldexp((double)a, 10 - exp);   /* exact in double */
	double ip = floor(scaled), frac = scaled - ip;
	bool up;
	switch (round) {
	case 1: up = !sign && frac > 0; break;
	case 2: up = sign && frac > 0; break;
	case 3: up = false; break;
	default: up = frac > 0.5 || (frac == 0.5 && fmod(ip, 2) != 0); break;
	}
	uint32_t mant = (uint32_t)ip + up;       /* includes the implicit bit */
	int hexp = exp + 15;
	if (mant >= 2048) {          /* rounding carried into the exponent */
		mant >>= 1;
		hexp++;
	}
	if (mant < 1024)             /* denormal (or zero) */
		return sign | (uint16_t)mant;
	if (hexp >= 31) {
		bool to_inf = round == 0 || (round == 1 && !sign) || (round == 2 && sign);
		return sign | (to_inf ? 0x7c00 : 0x7bff);
	}
	return sign | (uint16_t)(hexp << 10) | (uint16_t)(mant & 1023);
}

int exec_set_host_round(unsigned mode)
{
	static const int modes[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD,
				      FE_TOWARDZERO };
	int saved = fegetround();
	fesetround(modes[mode & 3]);
	return saved;
}

void exec_restore_host_round(int saved)
{
	fesetround(saved);
}

#define MXCSR_DAZ_FTZ 0x8040u   /* FTZ bit 15, DAZ bit 6 */

unsigned exec_host_daz(bool on)
{
#if EXEC_HOST_DAZ
	unsigned saved = _mm_getcsr();
	unsigned want = on ? saved | MXCSR_DAZ_FTZ : saved & ~MXCSR_DAZ_FTZ;
	if (want != saved)
		_mm_setcsr(want);
	return saved;
#else
	(void)on;
	return 0;
#endif
}

void exec_host_restore(unsigned saved)
{
#if EXEC_HOST_DAZ
	if ((unsigned)_mm_getcsr() != saved)
		_mm_setcsr(saved);
#else
	(void)saved;
#endif
}

/* MXCSR words of a thread's run (thread.h fp_*): read once when exec_run
 * starts (stmxcsr waits for the floating-point work in flight, as costly
 * as a load), then switched by loads only, each skipped when the word is
 * already loaded. */
static inline void fp_load(struct eu_thread *t, uint32_t want)
{
#if EXEC_HOST_DAZ
	if (t->fp_cur != want)
		_mm_setcsr(want);
#endif
	t->fp_cur = want;
}

void exec_fp_enter(struct eu_thread *t)
{
#if EXEC_HOST_DAZ
	uint32_t host = _mm_getcsr();
#else
	uint32_t host = 0;
#endif
	t->fp_host = t->fp_cur = host;
	t->fp_eu = host | MXCSR_DAZ_FTZ;
	t->fp_ieee = host & ~MXCSR_DAZ_FTZ;
	t->fp_on = true;
	fp_load(t, t->fp_eu);
}

void exec_fp_ieee(struct eu_thread *t)
{
	fp_load(t, t->fp_ieee);
}

void exec_fp_eu(struct eu_thread *t)
{
	fp_load(t, t->fp_eu);
}

void exec_fp_leave(struct eu_thread *t)
{
	fp_load(t, t->fp_host);
	t->fp_on = false;
}
