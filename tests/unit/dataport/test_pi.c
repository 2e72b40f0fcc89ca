/* The pixel interpolator (SFID 11) through its handler with a stand-in
 * back end that reports the positions asked for: the descriptor's shared
 * offset (signed 1/16 pixel nibbles), per-slot offsets from the payload,
 * sample n at the pattern's position (the standard 4x positions written
 * here, in 1/16 pixel from the upper left corner), the centroid from the
 * back end's callback, the centre for one sample, the noperspective bit,
 * the SIMD16 response layout (b1 and b2 registers per 8 slots) with
 * Mesa's one-register dummy payload, slot enables and the faults. */
#include <string.h>

#include "gpu/eu/inst.h"
#include "gpu/sfid/pi.h"
#include "test.h"

/* b1 = slot + dx, b2 = dy (+ 100 when linear) */
static int fake_weights(void *ctx, unsigned slot, float dx, float dy, bool linear, float b[2])
{
	(void)ctx;
	if (slot >= 16)
		return -1;
	b[0] = (float)slot + dx;
	b[1] = dy + (linear ? 100.0f : 0.0f);
	return 0;
}

/* the centroid: slot / 32 pixels right of the centre, 1/8 up */
static int fake_centroid(void *ctx, unsigned slot, float *dx, float *dy)
{
	(void)ctx;
	if (slot >= 16)
		return -1;
	*dx = (float)slot / 32;
	*dy = -0.125f;
	return 0;
}

/* D3D's standard 4x positions (1/16 pixel from the upper left corner) */
static const int pos4[4][2] = { { 6, 2 }, { 14, 6 }, { 2, 10 }, { 10, 14 } };

static struct eu_thread *t;

static int send(struct pi_unit *u, uint32_t desc, unsigned mlen, unsigned rlen, uint32_t mask,
		unsigned group)
{
	struct eu_send m = { .sfid = EU_SFID_PI, .desc = desc, .mlen = (uint8_t)mlen,
			     .rlen = (uint8_t)rlen, .src = 2, .dst = 40, .exec_size = 16,
			     .mask = mask, .group = (uint8_t)group };
	t->state = EU_THREAD_READY;
	return pi_sfid_handler(u, t, &m);
}

static float getf(unsigned reg, unsigned dw)
{
	uint32_t u = eu_grf_ud(t, reg, dw);
	float f;
	memcpy(&f, &u, 4);
	return f;
}

int main(void)
{
	t = aligned_alloc(64, sizeof(struct eu_thread));
	eu_thread_init(t, 16, 0xffff);
	struct pi_unit u = { .weights = fake_weights, .samples = 1 };
	/* shared offset (13:12 = 0), SIMD16 (16): X = 0xd (-3/16), Y = 7 */
	uint32_t desc = 1u << 16 | 0x7d;
	CHECK_EQ(send(&u, desc, 1, 4, 0xffff, 0), 0);
	for (unsigned i = 0; i < 16; i++) {
		unsigned r = 40 + (i / 8) * 2;
		CHECK(getf(r, i % 8) == (float)i - 3.0f / 16);
		CHECK(getf(r + 1, i % 8) == 7.0f / 16);
	}
	/* noperspective (14), SIMD8, slot 3 disabled, from channel 8 */
	for (unsigned i = 0; i < 8; i++)
		eu_grf_set_ud(t, 40, i, 0xdeadbeef);
	CHECK_EQ(send(&u, 1u << 14 | 0x08, 1, 2, 0xf7, 8), 0);
	CHECK(getf(40, 0) == 8.0f - 0.5f);
	CHECK(getf(41, 0) == 100.0f);
	CHECK_EQ(eu_grf_ud(t, 40, 3), 0xdeadbeef);
	/* per-slot offsets (3), SIMD16: X in g2-g3, Y in g4-g5, S0.4 */
	for (unsigned i = 0; i < 16; i++) {
		eu_grf_set_ud(t, 2 + i / 8, i % 8, (uint32_t)((int)i - 8));
		eu_grf_set_ud(t, 4 + i / 8, i % 8, (uint32_t)(7 - (int)(i % 8)));
	}
	CHECK_EQ(send(&u, 1u << 16 | 3u << 12, 4, 4, 0xffff, 0), 0);
	for (unsigned i = 0; i < 16; i++) {
		unsigned r = 40 + (i / 8) * 2;
		CHECK(getf(r, i % 8) == (float)i + ((float)i - 8) / 16);
		CHECK(getf(r + 1, i % 8) == (7.0f - (float)(i % 8)) / 16);
	}
	/* sample 0 (1) and the centroid (2) of a one-sample pixel: the
	 * centre; SIMD16 with the one-register dummy payload */
	CHECK_EQ(send(&u, 1u << 16 | 1u << 12, 1, 4, 0xffff, 0), 0);
	CHECK(getf(40, 5) == 5.0f);
	CHECK(getf(41, 5) == 0.0f);
	CHECK(getf(42, 5) == 13.0f);
	CHECK_EQ(send(&u, 2u << 12, 1, 2, 0xff, 0), 0);
	CHECK(getf(40, 6) == 6.0f);
	/* sample 1 of a one-sample pixel: not in the pattern, a fault */
	CHECK_EQ(send(&u, 1u << 12 | 1u << 4, 1, 2, 0xff, 0), -1);
	CHECK(strstr(t->fault, "sample 1 of a 1-sample pattern") != NULL);
	/* 4 samples: sample s at its standard position, offset from the
	 * centre (8/16, 8/16) */
	u.samples = 4;
	for (unsigned s = 0; s < 4; s++) {
		u.sample_dx[s] = (float)(pos4[s][0] - 8) / 16;
		u.sample_dy[s] = (float)(pos4[s][1] - 8) / 16;
	}
	for (unsigned s = 0; s < 4; s++) {
		CHECK_EQ(send(&u, 1u << 16 | 1u << 12 | s << 4, 1, 4, 0xffff, 0), 0);
		for (unsigned i = 0; i < 16; i++) {
			unsigned r = 40 + (i / 8) * 2;
			CHECK(getf(r, i % 8) == (float)i + (pos4[s][0] - 8) / 16.0f);
			CHECK(getf(r + 1, i % 8) == (pos4[s][1] - 8) / 16.0f);
		}
	}
	CHECK_EQ(send(&u, 1u << 12 | 4u << 4, 1, 2, 0xff, 0), -1);
	CHECK(strstr(t->fault, "sample 4 of a 4-sample pattern") != NULL);
	/* the centroid of a multisampled pixel: without the back end's
	 * coverage a fault; with it, where the back end says, per slot */
	CHECK_EQ(send(&u, 2u << 12, 1, 2, 0xff, 0), -1);
	CHECK(strstr(t->fault, "centroid") != NULL);
	u.centroid = fake_centroid;
	CHECK_EQ(send(&u, 1u << 14 | 2u << 12, 1, 2, 0xff, 8), 0);
	for (unsigned i = 0; i < 8; i++) {
		CHECK(getf(40, i) == (float)(8 + i) + (float)(8 + i) / 32);
		CHECK(getf(41, i) == 100.0f - 0.125f);
	}
	/* offsets stay relative to the centre whatever the sample count */
	CHECK_EQ(send(&u, 0x7d, 1, 2, 0xff, 0), 0);
	CHECK(getf(40, 2) == 2.0f - 3.0f / 16);
	u.samples = 1;
	u.centroid = NULL;
	/* a SIMD16 shared offset with a payload of two registers: not Mesa's
	 * (nor the PRM's) layout */
	CHECK_EQ(send(&u, 1u << 16, 2, 4, 0xffff, 0), -1);
	/* the wrong length, and a stage with nothing to interpolate */
	CHECK_EQ(send(&u, 3u << 12, 1, 2, 0xff, 0), -1);
	CHECK(strstr(t->fault, "per-slot offset") != NULL);
	CHECK_EQ(send(NULL, 0, 1, 2, 0xff, 0), -1);
	free(t);
	return test_exit();
}
