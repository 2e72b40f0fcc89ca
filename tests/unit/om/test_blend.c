/* Every blend factor and function against the formulas of the PRM's
 * "Color Buffer Blending" tables (written out here per factor), logic ops
 * against their truth tables, and the alpha test. */
#include <math.h>

#include "gpu/render/om.h"
#include "test.h"

static const float S[4] = { 0.25f, 0.5f, 0.75f, 0.6f };
static const float S1[4] = { 0.1f, 0.2f, 0.3f, 0.9f };
static const float D[4] = { 0.8f, 0.4f, 0.2f, 0.3f };
static const float C[4] = { 0.3f, 0.6f, 0.9f, 0.45f };

/* Expected factor value of channel ch (3 = alpha). */
static float want_factor(unsigned f, int ch)
{
	switch (f) {
	case 0x01: return 1;
	case 0x02: return S[ch];
	case 0x03: return S[3];
	case 0x04: return D[3];
	case 0x05: return D[ch];
	case 0x06: return ch == 3 ? 1 : fminf(S[3], 1 - D[3]);
	case 0x07: return C[ch];
	case 0x08: return C[3];
	case 0x09: return S1[ch];
	case 0x0a: return S1[3];
	case 0x11: return 0;
	case 0x12: return 1 - S[ch];
	case 0x13: return 1 - S[3];
	case 0x14: return 1 - D[3];
	case 0x15: return 1 - D[ch];
	case 0x17: return 1 - C[ch];
	case 0x18: return 1 - C[3];
	case 0x19: return 1 - S1[ch];
	case 0x1a: return 1 - S1[3];
	}
	return NAN;
}

static const unsigned factors[] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
	0x11, 0x12, 0x13, 0x14, 0x15, 0x17, 0x18, 0x19, 0x1a,
};
#define NF (sizeof(factors) / sizeof(factors[0]))

int main(void)
{
	int bad = 0;
	for (unsigned fn = 0; fn < 5; fn++)
		for (unsigned i = 0; i < NF; i++)
			for (unsigned j = 0; j < NF; j++) {
				/* colour uses (i, j), alpha the reverse pair */
				struct om_blend_rt b = {
					.enable = true, .src = (uint8_t)factors[i], .dst = (uint8_t)factors[j],
					.func = (uint8_t)fn, .src_a = (uint8_t)factors[j],
					.dst_a = (uint8_t)factors[i], .func_a = (uint8_t)fn,
				};
				float out[4];
				om_blend(&b, S, S1, D, C, out);
				for (int ch = 0; ch < 4; ch++) {
					float fs = want_factor(ch == 3 ? factors[j] : factors[i], ch);
					float fd = want_factor(ch == 3 ? factors[i] : factors[j], ch);
					float want;
					switch (fn) {
					case 0: want = S[ch] * fs + D[ch] * fd; break;
					case 1: want = S[ch] * fs - D[ch] * fd; break;
					case 2: want = D[ch] * fd - S[ch] * fs; break;
					case 3: want = fminf(S[ch], D[ch]); break;
					default: want = fmaxf(S[ch], D[ch]); break;
					}
					if (fabsf(out[ch] - want) > 1e-6f && bad++ < 5)
						fprintf(stderr, "func %u src 0x%x dst 0x%x ch %d: %f want %f\n",
							fn, factors[i], factors[j], ch, out[ch], want);
				}
			}
	CHECK_EQ(bad, 0);

	/* clamping */
	float v[4] = { -0.5f, 0.5f, 1.5f, 2.0f };
	om_clamp(v, CLAMP_UNORM, false, false);
	CHECK(v[0] == 0 && v[1] == 0.5f && v[2] == 1 && v[3] == 1);
	float w[4] = { -1.5f, -0.5f, 1.5f, 0 };
	om_clamp(w, CLAMP_RTFORMAT, false, true);
	CHECK(w[0] == -1 && w[1] == -0.5f && w[2] == 1);
	float x[4] = { -7, 9, 0, 0 };
	om_clamp(x, CLAMP_RTFORMAT, false, false);     /* float RT: untouched */
	CHECK(x[0] == -7 && x[1] == 9);

	/* logic ops: the truth table of each of the 16 functions (CLEAR, NOR,
	 * AND_INVERTED, ... SET in 3D_Logic_Op_Function order). */
	static const struct { unsigned op; int t[4]; } lt[] = {
		/* results for (s,d) = (0,0) (0,1) (1,0) (1,1) */
		{ 0, { 0, 0, 0, 0 } }, { 1, { 1, 0, 0, 0 } }, { 2, { 0, 1, 0, 0 } },
		{ 3, { 1, 1, 0, 0 } }, { 4, { 0, 0, 1, 0 } }, { 5, { 1, 0, 1, 0 } },
		{ 6, { 0, 1, 1, 0 } }, { 7, { 1, 1, 1, 0 } }, { 8, { 0, 0, 0, 1 } },
		{ 9, { 1, 0, 0, 1 } }, { 10, { 0, 1, 0, 1 } }, { 11, { 1, 1, 0, 1 } },
		{ 12, { 0, 0, 1, 1 } }, { 13, { 1, 0, 1, 1 } }, { 14, { 0, 1, 1, 1 } },
		{ 15, { 1, 1, 1, 1 } },
	};
	for (unsigned i = 0; i < 16; i++)
		for (int sd = 0; sd < 4; sd++) {
			uint32_t s = sd & 2 ? ~0u : 0, d = sd & 1 ? ~0u : 0;
			uint32_t r = om_logic_op(lt[i].op, s, d);
			CHECK_EQ(r, lt[i].t[sd] ? ~0u : 0u);
		}

	/* alpha test: passes when alpha `func` reference */
	CHECK(om_alpha_test(CMP_GREATER, 0.6f, 0.5f));
	CHECK(!om_alpha_test(CMP_GREATER, 0.5f, 0.5f));
	CHECK(om_alpha_test(CMP_LEQUAL, 0.5f, 0.5f));
	CHECK(!om_alpha_test(CMP_NEVER, 0.5f, 0.5f));
	return test_exit();
}
