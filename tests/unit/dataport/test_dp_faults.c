/* What the data port refuses, by name: message types Mesa's Gen8/9 3D
 * and compute stages do not emit, types no data port has, an unbound
 * binding table entry, a page fault inside a surface's bounds, a stage
 * without a data port unit; and the memory fence's commit response. */
#include "dp_fixture.h"

static void test_unimplemented(void)
{
	struct fixture f;
	fx_init(&f, 9);
	/* data cache 1 type 11: atomic counter */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(11, 0, 0), 8, 1, 1, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "atomic counter") != NULL);
	CHECK(strstr(f.t->fault, "not implemented") != NULL);
	CHECK_EQ(f.t->state, EU_THREAD_FAULT);
	/* OWord dual block read on the constant cache */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_CC, fx_desc(2, 0, 0), 8, 2, 1, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "OWord dual block read") != NULL);
	/* the constant cache has no type 8 */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_CC, fx_desc(8, 0, 0), 8, 2, 0, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "not a data port message") != NULL);
	/* A64 OWord block read is Gen9's */
	fx_fini(&f);
	fx_init(&f, 8);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(0x14, 2, 0), 8, 1, 1, true, 0xff), -1);
	CHECK(strstr(f.t->fault, "does not exist on Gen8") != NULL);
	fx_fini(&f);
}

static void test_bad_state(void)
{
	struct fixture f;
	fx_init(&f, 8);
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD, i, 4 * i);
	/* entry 5 is unbound */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(1, 0x2e, 5), 8, 1, 1, false, 0xff), -1);
	CHECK(strstr(f.t->fault, "unbound") != NULL);
	/* a buffer whose memory is not mapped: in bounds, a page fault */
	fx_buffer(&f, 0, FX_UNMAPPED, 64);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(1, 0x2e, 0), 8, 1, 1, false, 0xff), -1);
	CHECK(strstr(f.t->fault, "page fault") != NULL);
	/* ... but out of its bounds nothing is touched: reads are 0 */
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD, i, 64 + 4 * i);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(1, 0x2e, 0), 8, 1, 1, false, 0xff), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 3), 0);
	/* a null surface (type 7): reads 0, writes dropped */
	struct fx_surf n = { .type = 7, .format = FX_R32_UINT, .width = 1, .pitch = 1 };
	fx_surface(&f, 1, &n);
	fx_set(&f, FX_RESP, 0, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(1, 0x2e, 1), 8, 1, 1, false, 0x1), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0);
	/* a stage without a data port unit */
	struct eu_send m = { .sfid = EU_SFID_DP_DC1, .desc = fx_desc(1, 0x2e, 0), .mlen = 1,
			     .rlen = 1, .src = FX_PAYLOAD, .dst = FX_RESP, .exec_size = 8,
			     .mask = 0xff };
	CHECK_EQ(dp_sfid_handler(NULL, f.t, &m), -1);
	CHECK(strstr(f.t->fault, "no data port unit") != NULL);
	fx_fini(&f);
}

static void test_fence(void)
{
	struct fixture f;
	fx_init(&f, 9);
	/* commit enable (13): one response register, written */
	fx_fill_resp(&f, 1, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(7, 1u << 5, 0), 8, 1, 1, true, 0xff), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC0, fx_desc(7, 0, 0), 8, 1, 0, true, 0xff), 0);
	fx_fini(&f);
}

int main(void)
{
	test_unimplemented();
	test_bad_state();
	test_fence();
	return test_exit();
}
