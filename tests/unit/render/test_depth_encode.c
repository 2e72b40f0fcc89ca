/* depth_encode's UNORM rule (D16, D24): GL 4.6 section 2.3.5.2, the
 * conversion of a float c to an n-bit unsigned normalized value is
 * round(clamp(c) * (2^n - 1)). The oracle here is integer arithmetic on
 * the float's significand and exponent (no floating-point product):
 * c = m * 2^e, so c * (2^n - 1) = m * (2^n - 1) / 2^-e, rounded to nearest
 * (a half rounds up; GL leaves ties open and none occurs for D16/D24 but
 * c = 1/2, where both directions agree on the even value). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu/render/wm.h"
#include "test.h"

/* 3DSTATE_DEPTH_BUFFER Surface Format: 3 D24_UNORM_X8_UINT, 5 D16_UNORM */
enum { D24_ = 3, D16_ = 5 };

static uint32_t oracle(float c, unsigned bits)
{
	if (!(c > 0))
		return 0;
	if (c >= 1)
		return (1u << bits) - 1;
	int e;
	float fr = frexpf(c, &e);                 /* c = fr * 2^e, fr in [1/2, 1) */
	uint64_t m = (uint64_t)ldexpf(fr, 24);    /* c = m * 2^(e - 24), m < 2^24 */
	unsigned sh = (unsigned)(24 - e);         /* >= 24 */
	unsigned __int128 p = (unsigned __int128)m * ((1u << bits) - 1);
	return (uint32_t)((p + ((unsigned __int128)1 << (sh - 1))) >> sh);
}

int main(void)
{
	/* hand-computed: 0.3f = 0.300000011920928955078125, * 65535 =
	 * 19660.50078..., so 19661 (0x4ccd); a float product rounds to
	 * 19660.5 and then to the even 19660 */
	CHECK_EQ(depth_encode(D16_, 0.3f), 0x4ccdu);
	CHECK_EQ(depth_encode(D16_, 0.5f), 32768u);         /* 32767.5 */
	CHECK_EQ(depth_encode(D16_, 1.0f), 65535u);
	CHECK_EQ(depth_encode(D16_, -0.25f), 0u);
	CHECK_EQ(depth_encode(D16_, 2.0f), 65535u);
	CHECK_EQ(depth_encode(D16_, NAN), 0u);
	CHECK_EQ(depth_encode(D24_, 0.5f), 8388608u);       /* 8388607.5 */
	CHECK_EQ(depth_encode(D24_, 0.75f), 12582911u);     /* 12582911.25 */
	/* every 97th float in [2^-20, 1): D16 and D24 against the oracle;
	 * count the D16 values where a float product would have differed */
	int bad = 0, float_differs = 0;
	for (float c = ldexpf(1, -20); c < 1; c = nextafterf(c, 2)) {
		for (int k = 0; k < 96 && c < 1; k++)
			c = nextafterf(c, 2);
		uint32_t d16 = depth_encode(D16_, c), d24 = depth_encode(D24_, c) & 0xffffff;
		if ((d16 != oracle(c, 16) || d24 != oracle(c, 24)) && bad++ < 4)
			fprintf(stderr, "z %a: D16 %u want %u, D24 %u want %u\n", c, d16,
				oracle(c, 16), d24, oracle(c, 24));
		float_differs += (uint32_t)lrintf(c * 65535.0f) != oracle(c, 16);
	}
	CHECK_EQ(bad, 0);
	CHECK(float_differs > 0);
	fprintf(stderr, "D16 values where a float product rounds differently: %d\n",
		float_differs);
	return test_exit();
}
