/* The math instruction's float functions (PRM vol. 7 "math", "Extended
 * Math Function"). gtsim computes them correctly rounded by the host's
 * libm, a deterministic choice: the hardware is only specified to a few
 * ULP. ALT mode (cr0 bit 0) has no infinities or NaNs: log, sqrt and rsq
 * take |x|, and results that would be infinite become +-FLT_MAX. */
#include <float.h>
#include <math.h>

#include "gpu/eu/exec_internal.h"

/* Double precision has no ALT mode. */
static double fn_df(unsigned fn, double a, double b)
{
	switch (fn) {
	case EU_MATH_INV: case EU_MATH_INVM: return fn == EU_MATH_INVM ? a / b : 1.0 / a;
	case EU_MATH_LOG: return log2(a);
	case EU_MATH_EXP: return exp2(a);
	case EU_MATH_SQRT: return sqrt(a);
	case EU_MATH_RSQ: case EU_MATH_RSQRTM: return 1.0 / sqrt(a);
	case EU_MATH_SIN: return sin(a);
	case EU_MATH_COS: return cos(a);
	case EU_MATH_FDIV: return a / b;
	case EU_MATH_POW: return pow(a, b);
	default: return NAN;
	}
}

union exec_val exec_math_float(unsigned fn, enum exec_dom dom, bool alt,
			       union exec_val a, union exec_val b)
{
	union exec_val r;
	if (dom == DOM_DF) {
		r.d = fn_df(fn, a.d, b.d);
		return r;
	}
	float x = a.f, y = b.f, f;
	if (alt) {
		if (fn == EU_MATH_LOG || fn == EU_MATH_SQRT || fn == EU_MATH_RSQ)
			x = fabsf(x);
	}
	switch (fn) {
	case EU_MATH_INV: f = 1.0f / x; break;
	case EU_MATH_INVM: f = x / y; break;
	case EU_MATH_LOG: f = log2f(x); break;
	case EU_MATH_EXP: f = exp2f(x); break;
	case EU_MATH_SQRT: f = sqrtf(x); break;
	case EU_MATH_RSQ: case EU_MATH_RSQRTM: f = 1.0f / sqrtf(x); break;
	case EU_MATH_SIN: f = sinf(x); break;
	case EU_MATH_COS: f = cosf(x); break;
	case EU_MATH_FDIV: f = x / y; break;
	case EU_MATH_POW: f = powf(x, y); break;
	default: f = NAN; break;
	}
	if (alt) {
		if (isinf(f))
			f = copysignf(FLT_MAX, f);
		else if (isnan(f))
			f = FLT_MAX;
	}
	r.f = f;
	return r;
}
