/* Atomics: every integer operation of the untyped atomic message and the
 * float ones (Gen9) computed by hand, the values lanes return (old values;
 * PREDEC the new one), slots done in ascending order on one address,
 * enables, out-of-bounds lanes (no change, 0 returned), typed atomics on
 * an R32_UINT image by coordinates, the A64 form, and atomics from host
 * threads at once on one counter. */
#include <pthread.h>

#include "dp_fixture.h"

/* 12: SIMD8, 13: return data (Mesa's brw_dp_untyped_atomic_desc) */
#define AT_SIMD8 (1u << 4)
#define AT_RET (1u << 5)

static uint32_t run_op(struct fixture *f, unsigned op, uint32_t old, uint32_t s0, uint32_t s1,
		       uint32_t *ret)
{
	fx_dw(f, FX_DATA)[0] = old;
	fx_set(f, FX_PAYLOAD, 0, 0);
	fx_set(f, FX_PAYLOAD + 1, 0, s0);
	fx_set(f, FX_PAYLOAD + 2, 0, s1);
	unsigned nsrc = op == 5 || op == 6 || op == 15 ? 0 : op == 14 ? 2 : 1;
	fx_set(f, FX_PAYLOAD + 1 + nsrc, 0, 0);
	fx_set(f, FX_RESP, 0, 0xdeadbeef);
	CHECK_EQ(fx_send(f, EU_SFID_DP_DC1, fx_desc(2, AT_SIMD8 | AT_RET | op, 0), 8, 1 + nsrc, 1,
			 false, 0x1), 0);
	*ret = fx_get(f, FX_RESP, 0);
	return fx_dw(f, FX_DATA)[0];
}

static void test_integer_ops(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	fx_buffer(&f, 0, FX_DATA, 64);
	const uint32_t old = 0xfffffff0, s0 = 5;   /* -16 and 5 */
	static const struct { unsigned op; uint32_t s0, s1, want; } cases[] = {
		{ 1, 5, 0, 0x00000000 },    /* AND */
		{ 2, 5, 0, 0xfffffff5 },    /* OR */
		{ 3, 5, 0, 0xfffffff5 },    /* XOR */
		{ 4, 5, 0, 0x00000005 },    /* MOV */
		{ 5, 0, 0, 0xfffffff1 },    /* INC */
		{ 6, 0, 0, 0xffffffef },    /* DEC */
		{ 7, 5, 0, 0xfffffff5 },    /* ADD */
		{ 8, 5, 0, 0xffffffeb },    /* SUB: old - src0 */
		{ 9, 5, 0, 0x00000015 },    /* REVSUB: src0 - old */
		{ 10, 5, 0, 0x00000005 },   /* IMAX */
		{ 11, 5, 0, 0xfffffff0 },   /* IMIN */
		{ 12, 5, 0, 0xfffffff0 },   /* UMAX */
		{ 13, 5, 0, 0x00000005 },   /* UMIN */
		{ 14, 0xfffffff0, 7, 7 },   /* CMPWR, equal */
		{ 14, 1, 7, 0xfffffff0 },   /* CMPWR, not equal */
		{ 15, 0, 0, 0xffffffef },   /* PREDEC */
	};
	(void)s0;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		uint32_t ret;
		uint32_t now = run_op(&f, cases[k].op, old, cases[k].s0, cases[k].s1, &ret);
		CHECK_EQ(now, cases[k].want);
		/* every lane returns the old value, PREDEC the new one */
		CHECK_EQ(ret, cases[k].op == 15 ? cases[k].want : old);
	}
	fx_fini(&f);
}

static void test_one_address(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	fx_buffer(&f, 0, FX_DATA, 64);
	/* SIMD8 ADD of 1..8 on one counter: slots in ascending order return
	 * the running sums */
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD, i, 8);
		fx_set(&f, FX_PAYLOAD + 1, i, i + 1);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(2, AT_SIMD8 | AT_RET | 7, 0), 8, 2, 1, false,
			 0xff), 0);
	static const uint32_t sums[8] = { 0, 1, 3, 6, 10, 15, 21, 28 };
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), sums[i]);
	CHECK_EQ(fx_dw(&f, FX_DATA)[2], 36);
	/* SIMD16 INC (no sources, 12 clear) with slots 0-3 and 8-11 enabled,
	 * slot 11 out of bounds (byte 64), no return data */
	for (unsigned i = 0; i < 16; i++)
		fx_set(&f, FX_PAYLOAD, i, i == 11 ? 64 : 4 * (i % 4));
	fx_fill_resp(&f, 2, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(2, 5, 0), 16, 2, 0, false, 0x0f0f), 0);
	CHECK_EQ(fx_dw(&f, FX_DATA)[0], 2);
	CHECK_EQ(fx_dw(&f, FX_DATA)[1], 2);
	CHECK_EQ(fx_dw(&f, FX_DATA)[2], 38);
	CHECK_EQ(fx_dw(&f, FX_DATA)[3], 1);
	CHECK_EQ(fx_dw(&f, FX_DATA)[16], 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0xdeadbeef);      /* no response written */
	/* SIMD16 with return: an out-of-bounds lane returns 0 */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(2, AT_RET | 5, 0), 16, 2, 2, false, 0x0800),
		 0);
	CHECK_EQ(fx_get(&f, FX_RESP + 1, 3), 0);
	/* the wrong message length: a fault */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(2, AT_SIMD8 | 7, 0), 8, 1, 0, false, 0xff),
		 -1);
	CHECK(strstr(f.t->fault, "untyped atomic") != NULL);
	fx_fini(&f);
}

static void test_float_ops(void)
{
	struct fixture f;
	fx_init(&f, 9);
	fx_buffer(&f, 0, FX_DATA, 64);
	const uint32_t nan = 0x7fc00000, pz = 0, nz = 0x80000000;
	static const struct { unsigned op; uint32_t old, s0, s1, want; } cases[] = {
		{ 1, 0x3f800000, 0x40000000, 0, 0x40000000 },  /* FMAX(1, 2) = 2 */
		{ 2, 0x3f800000, 0x40000000, 0, 0x3f800000 },  /* FMIN(1, 2) = 1 */
		{ 2, 0x7fc00000, 0x40400000, 0, 0x40400000 },  /* FMIN(NaN, 3) = 3 */
		{ 1, 0x40000000, 0x7fc00000, 0, 0x40000000 },  /* FMAX(2, NaN) = 2 */
		{ 2, 0, 0x80000000, 0, 0x80000000 },           /* FMIN(+0, -0) = -0 */
		{ 1, 0x80000000, 0, 0, 0 },                    /* FMAX(-0, +0) = +0 */
		{ 2, 0xc0000000, 0x3f800000, 0, 0xc0000000 },  /* FMIN(-2, 1) = -2 */
		{ 3, 0x80000000, 0, 0x40a00000, 0x40a00000 },  /* FCMPWR(-0 == +0) */
		{ 3, 0x7fc00000, 0x7fc00000, 0x40a00000, 0x7fc00000 }, /* NaN != NaN */
		{ 3, 0x3f800000, 0x40000000, 0x40a00000, 0x3f800000 },
	};
	(void)nan; (void)pz; (void)nz;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		fx_dw(&f, FX_DATA)[0] = cases[k].old;
		fx_set(&f, FX_PAYLOAD, 0, 0);
		fx_set(&f, FX_PAYLOAD + 1, 0, cases[k].s0);
		fx_set(&f, FX_PAYLOAD + 2, 0, cases[k].s1);
		unsigned nsrc = cases[k].op == 3 ? 2 : 1;
		CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(0x1b, AT_SIMD8 | AT_RET | cases[k].op, 0),
				 8, 1 + nsrc, 1, false, 0x1), 0);
		CHECK_EQ(fx_dw(&f, FX_DATA)[0], cases[k].want);
		CHECK_EQ(fx_get(&f, FX_RESP, 0), cases[k].old);
	}
	fx_fini(&f);
	/* Gen8 has no float atomics */
	fx_init(&f, 8);
	fx_buffer(&f, 0, FX_DATA, 64);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(0x1b, AT_SIMD8 | 1, 0), 8, 2, 0, false, 0x1),
		 -1);
	CHECK(strstr(f.t->fault, "does not exist on Gen8") != NULL);
	fx_fini(&f);
}

static void test_typed_atomic(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	/* a 4x4 R32_UINT 2D image, linear, pitch 16 */
	struct fx_surf s = { .type = 1, .format = FX_R32_UINT, .width = 4, .height = 4,
			     .pitch = 16, .base = FX_DATA };
	fx_surface(&f, 3, &s);
	for (unsigned i = 0; i < 16; i++)
		fx_dw(&f, FX_DATA)[i] = 1000 * i;
	/* header M0.7: slots 0-6 enabled (slot 7 off); slot 5 at v = 5: out */
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD, i, 0);
	fx_set(&f, FX_PAYLOAD, 7, 0x7f);
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD + 1, i, (i * 3) % 4);          /* U */
		fx_set(&f, FX_PAYLOAD + 2, i, i == 5 ? 5 : i / 2);   /* V */
		fx_set(&f, FX_PAYLOAD + 3, i, 100 + i);              /* src0 */
	}
	fx_fill_resp(&f, 1, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(6, AT_RET | 7, 3), 8, 4, 1, true, 0xff), 0);
	uint32_t want[16];
	for (unsigned i = 0; i < 16; i++)
		want[i] = 1000 * i;
	for (unsigned i = 0; i < 8; i++) {
		unsigned x = (i * 3) % 4, y = i / 2;
		if (i == 5) {
			CHECK_EQ(fx_get(&f, FX_RESP, i), 0);
		} else if (i == 7) {
			CHECK_EQ(fx_get(&f, FX_RESP, i), 0xdeadbeef);
		} else {
			CHECK_EQ(fx_get(&f, FX_RESP, i), want[4 * y + x]);
			want[4 * y + x] += 100 + i;
		}
	}
	for (unsigned i = 0; i < 16; i++)
		CHECK_EQ(fx_dw(&f, FX_DATA)[i], want[i]);
	/* the upper slot group (12) takes M0.7 15:8: 0 there, nothing done */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(6, 1u << 4 | 7, 3), 8, 4, 0, true, 0xff), 0);
	for (unsigned i = 0; i < 16; i++)
		CHECK_EQ(fx_dw(&f, FX_DATA)[i], want[i]);
	fx_fini(&f);
}

static void test_a64_atomic(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	fx_dw(&f, FX_DATA)[5] = 40;
	/* A64 CMPWR (SIMD8): slot 0 compares 40 -> 41, slot 1 then 40 -> 99
	 * fails and returns 41 */
	for (unsigned i = 0; i < 2; i++) {
		fx_set(&f, FX_PAYLOAD, 2 * i, FX_DATA + 20);
		fx_set(&f, FX_PAYLOAD, 2 * i + 1, 0);
		fx_set(&f, FX_PAYLOAD + 2, i, 40);
		fx_set(&f, FX_PAYLOAD + 3, i, i ? 99 : 41);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(0x12, AT_RET | 14, 0), 8, 4, 1, false, 0x3),
		 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 40);
	CHECK_EQ(fx_get(&f, FX_RESP, 1), 41);
	CHECK_EQ(fx_dw(&f, FX_DATA)[5], 41);
	fx_fini(&f);
}

/* Host threads sending atomic adds at once to one counter: every add
 * lands (the data port's read-modify-write is atomic). */
struct racer { struct fixture *f; struct eu_thread *t; };

static void *race(void *arg)
{
	struct racer *r = arg;
	for (unsigned i = 0; i < 8; i++) {
		eu_grf_set_ud(r->t, FX_PAYLOAD, i, 0);
		eu_grf_set_ud(r->t, FX_PAYLOAD + 1, i, 1);
	}
	uint32_t desc = fx_desc(2, AT_SIMD8 | 7, 0) | 2u << 25;
	struct eu_send m = { .sfid = EU_SFID_DP_DC1, .desc = desc, .mlen = 2, .func = desc & 0x7ffff,
			     .src = FX_PAYLOAD, .dst = FX_RESP, .exec_size = 8, .mask = 0xff };
	for (unsigned k = 0; k < 2000; k++)
		if (dp_sfid_handler(&r->f->unit, r->t, &m))
			return NULL;
	return NULL;
}

static void test_concurrent(void)
{
	struct fixture f;
	fx_init(&f, 9);
	fx_buffer(&f, 0, FX_DATA, 64);
	struct racer r[4];
	pthread_t th[4];
	for (unsigned i = 0; i < 4; i++) {
		r[i].f = &f;
		r[i].t = aligned_alloc(64, sizeof(struct eu_thread));
		eu_thread_init(r[i].t, 8, 0xff);
		pthread_create(&th[i], NULL, race, &r[i]);
	}
	for (unsigned i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		free(r[i].t);
	}
	CHECK_EQ(fx_dw(&f, FX_DATA)[0], 4 * 2000 * 8);
	fx_fini(&f);
}

int main(void)
{
	test_integer_ops(8);
	test_integer_ops(9);
	test_one_address(8);
	test_one_address(9);
	test_float_ops();
	test_typed_atomic(8);
	test_typed_atomic(9);
	test_a64_atomic(8);
	test_a64_atomic(9);
	test_concurrent();
	return test_exit();
}
