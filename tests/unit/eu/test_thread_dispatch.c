/* eu_thread_dispatch (thread.c): a new dispatch on a used thread resets
 * everything eu_thread_init does except the GRFs, which keep what the last
 * thread left (PRM: registers outside the payload are undefined at
 * dispatch). Oracle: values written by hand before the dispatch and the
 * state eu_thread_init's contract names (sr0.2/sr0.3 the dispatch mask,
 * IP 0, READY, counters 0). */
#include <stdlib.h>

#include "gpu/eu/thread.h"
#include "test.h"

int main(void)
{
	struct eu_thread *t = aligned_alloc(64, sizeof(*t));
	if (!t)
		return 1;
	eu_thread_init(t, 16, 0xffff);
	for (unsigned r = 0; r < EU_GRF_COUNT; r++)
		eu_grf_set_ud(t, r, 3, 0x1000 + r);
	eu_thread_set_flags(t, 0x123456789abcdefull);
	memset(eu_arf(t, EU_ARF_ACC0), 0x77, EU_REG_SIZE);
	memset(eu_arf(t, EU_ARF_A0), 0x55, EU_REG_SIZE);
	t->acc_wide[5].i = 42;
	t->ip = 17;
	t->pcip[3] = 9;
	t->state = EU_THREAD_DONE;
	t->instructions = 100;
	t->channel_ops = 1600;
	t->user = t;
	snprintf(t->fault, sizeof(t->fault), "old");

	eu_thread_dispatch(t, 8, 0x0f0f);
	for (unsigned r = 0; r < EU_GRF_COUNT; r++)
		CHECK_EQ(eu_grf_ud(t, r, 3), 0x1000 + r);
	CHECK_EQ(eu_thread_flags(t), 0);
	for (unsigned i = 0; i < EU_REG_SIZE; i++) {
		CHECK_EQ(eu_arf(t, EU_ARF_ACC0)[i], 0);
		CHECK_EQ(eu_arf(t, EU_ARF_A0)[i], 0);
	}
	CHECK_EQ(t->acc_wide[5].i, 0);
	CHECK_EQ(t->simd, 8);
	CHECK_EQ(t->dispatch_mask, 0x0f);      /* only SIMD8's low 8 bits */
	CHECK_EQ(t->live, 0x0f);
	CHECK_EQ(t->active, 0x0f);
	CHECK_EQ(t->ip, 0);
	CHECK_EQ(t->pcip[3], 0);
	CHECK_EQ(t->wake_at, UINT32_MAX);
	CHECK_EQ(t->state, EU_THREAD_READY);
	CHECK_EQ(t->instructions, 0);
	CHECK_EQ(t->channel_ops, 0);
	CHECK(t->user == NULL && t->sfids == NULL);
	CHECK_EQ(t->fault[0], 0);
	uint32_t sr2, sr3;
	memcpy(&sr2, eu_arf(t, EU_ARF_SR0) + 8, 4);
	memcpy(&sr3, eu_arf(t, EU_ARF_SR0) + 12, 4);
	CHECK_EQ(sr2, 0x0f);
	CHECK_EQ(sr3, 0x0f);

	/* eu_thread_init still clears the GRFs */
	eu_thread_init(t, 16, 0xffff);
	CHECK_EQ(eu_grf_ud(t, 100, 3), 0);
	free(t);
	return test_exit();
}
