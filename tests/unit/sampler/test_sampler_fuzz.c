/* Random SURFACE_STATE, SAMPLER_STATE, descriptors and payloads (a fixed
 * xorshift seed, 60000 messages on Gen8 and Gen9): the handler either
 * answers or faults the thread with a reason; under ASan/UBSan no message
 * reads or writes outside what it may (texels only through the address
 * space, whose last page is unmapped). */
#include "sampler_fixture.h"

static uint32_t rng = 12345;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static const unsigned types[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 16, 20, 24, 25, 26 };

/* Mostly plausible surface state (small, one sample, a known format or
 * any), sometimes pure noise. */
static void random_surface(struct fixture *f)
{
	uint32_t *ss = fx_dw(f, FX_SS(0));
	for (int i = 0; i < 16; i++)
		ss[i] = rnd();
	if (rnd() % 3) {
		ss[8] = FX_TEX + rnd() % 0x8000;
		ss[9] = 0;
		ss[0] &= ~(0x1ffu << 18 | 7u << 29 | 3u << 12);
		ss[0] |= (rnd() % 4 ? 199u : rnd() % 512) << 18 | (rnd() % 5) << 29;
		ss[0] |= (rnd() % 4 == 1 ? 0 : rnd() % 4) << 12;
		ss[1] = rnd() % 64;
		ss[2] = (rnd() % 16) | (rnd() % 16) << 16;
		ss[3] = (ss[3] & ~0x3ffffu) | rnd() % 512;
		ss[4] &= ~(7u << 3);                  /* one sample */
		ss[5] = rnd() & 0xff;
		/* shader channel selects: valid ones (2 and 3 are reserved) */
		static const uint32_t scs[6] = { 0, 1, 4, 5, 6, 7 };
		ss[7] &= ~(0xfffu << 16);
		for (int c = 0; c < 4; c++)
			ss[7] |= scs[rnd() % 6] << (25 - 3 * c);
	}
	fx_dw(f, FX_BT)[0] = FX_SS(0);
	uint32_t *sm = fx_dw(f, FX_SAMPLER(0));
	for (int i = 0; i < 4; i++)
		sm[i] = rnd();
	if (rnd() % 2)
		sm[2] = FX_BORDER;
}

int main(void)
{
	struct fixture f;
	fx_init(&f, 8);
	unsigned answered = 0, faulted = 0, bad = 0;
	for (int it = 0; it < 60000; it++) {
		f.unit.gen = it & 1 ? 9 : 8;
		f.unit.pixel_shader = it & 2;
		random_surface(&f);
		unsigned simd = rnd() & 1 ? 16 : 8;
		eu_thread_init(f.t, simd, 0xffff);
		for (unsigned r = FX_PAYLOAD; r < FX_PAYLOAD + 15; r++)
			for (unsigned d = 0; d < 8; d++) {
				uint32_t v = rnd();
				if (rnd() & 1) {
					float fl = (float)((int)(rnd() % 2000) - 1000) / 100.0f;
					memcpy(&v, &fl, 4);
				}
				eu_grf_set_ud(f.t, r, d, v);
			}
		uint32_t desc = (rnd() & 0x7ff00u) | (rnd() & 0x60000u);
		desc = (desc & ~(31u << 12)) | types[rnd() % 16] << 12;
		if (rnd() & 1)
			desc = (desc & ~(3u << 17)) | (simd == 16 ? 2u : 1u) << 17;
		int r = fx_send(&f, desc, simd, 1 + rnd() % 15, rnd() % 9, rnd() & 1, rnd() & 0xffff);
		if (r == 0) {
			answered++;
		} else {
			faulted++;
			bad += r != -1 || f.t->state != EU_THREAD_FAULT || !f.t->fault[0];
		}
	}
	printf("%u answered, %u faulted\n", answered, faulted);
	CHECK(answered > 500);
	CHECK_EQ(bad, 0);
	fx_fini(&f);
	return test_exit();
}
