/* Arbitration points (BDW/SKL PRM vol. 2a MI_ARB_CHECK, MI_ARB_ON_OFF;
 * vol. 7 "Preemption": a context is switched out only at an MI_ARB_CHECK
 * while arbitration is enabled, and resumes after it). With a preemption
 * requested, the engine stops after such a command, in the ring or in a
 * first-level batch, and reports where execution resumes; with
 * arbitration off, or no request, MI_ARB_CHECK changes nothing; in a
 * second-level batch it does not stop (the model keeps no return address
 * across the restart). Commands are hex dwords from the PRM. */
#include "test.h"
#include "cs_harness.h"

#define MI_NOOP 0x00000000u
#define MI_BBE 0x05000000u                        /* opcode 0x0a */
#define MI_ARB_CHECK 0x02800000u                  /* opcode 0x05 */
#define MI_ARB_ON 0x04000001u                     /* opcode 0x08, bit 0: enable */
#define MI_ARB_OFF 0x04000000u
#define MI_SDI 0x10000002u                        /* MI_STORE_DATA_IMM, opcode 0x20 */
#define MI_BBS_PPGTT (0x18800001u | 1u << 8)
#define MI_BBS_2ND_PPGTT (MI_BBS_PPGTT | 1u << 22)

static void wait_preempted(struct harness *h, int n)
{
	for (int i = 0; i < 5000 && __atomic_load_n(&h->preempted, __ATOMIC_SEQ_CST) < n; i++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
}

/* In the ring: stop after the MI_ARB_CHECK, the store after it not done;
 * a reset at the reported HEAD goes on. */
static void test_ring(void)
{
	struct harness h;
	h_init(&h, 9, false);
	uint64_t out = 0x300000;
	h_ppgtt_map(&h, out);
	struct gt_engine *e = h.gpu->engines[ENGINE_RCS];
	engine_request_preemption(e, true);
	uint32_t ring[] = { MI_NOOP, MI_ARB_CHECK, MI_SDI, (uint32_t)out, 0, 7 };
	h_emit(&h, ENGINE_RCS, ring, 6);
	h_run(&h, ENGINE_RCS);
	wait_preempted(&h, 1);
	CHECK_EQ(h.preempted, 1);
	struct engine_preempt_point pt;
	CHECK(engine_preempted(e, &pt));
	CHECK(!pt.in_batch);
	CHECK_EQ(pt.head, 8);
	CHECK_EQ(h_read32(&h, false, out), 0);
	engine_request_preemption(e, false);
	engine_reset(e, pt.head);
	engine_wait_idle(e, 5000000000ull);
	CHECK_EQ(h_read32(&h, false, out), 7);
	CHECK(!engine_preempted(e, NULL));
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

/* In a first-level batch: resumes at the next command's address. */
static void test_batch(void)
{
	struct harness h;
	h_init(&h, 9, false);
	uint64_t b = 0x200000, out = 0x300000;
	h_ppgtt_map(&h, b);
	h_ppgtt_map(&h, out);
	uint32_t batch[] = { MI_SDI, (uint32_t)out, 0, 1, MI_ARB_CHECK,
			     MI_SDI, (uint32_t)out + 4, 0, 2, MI_BBE };
	h_write(&h, false, b, batch, 10);
	struct gt_engine *e = h.gpu->engines[ENGINE_RCS];
	engine_request_preemption(e, true);
	uint32_t ring[] = { MI_BBS_PPGTT, (uint32_t)b, 0, MI_NOOP };
	h_emit(&h, ENGINE_RCS, ring, 4);
	h_run(&h, ENGINE_RCS);
	wait_preempted(&h, 1);
	struct engine_preempt_point pt = { 0 };
	CHECK(engine_preempted(e, &pt));
	CHECK(pt.in_batch && pt.ppgtt);
	CHECK_EQ(pt.batch_addr, b + 20);
	CHECK_EQ(h_read32(&h, false, out), 1);
	CHECK_EQ(h_read32(&h, false, out + 4), 0);
	h_fini(&h);
}

/* Arbitration off (MI_ARB_ON_OFF from the ring, privileged), or in a
 * second-level batch: MI_ARB_CHECK passes. No request: it passes too. */
static void test_no_stop(void)
{
	struct harness h;
	h_init(&h, 9, false);
	uint64_t b1 = 0x200000, b2 = 0x210000, out = 0x300000;
	h_ppgtt_map(&h, b1);
	h_ppgtt_map(&h, b2);
	h_ppgtt_map(&h, out);
	uint32_t batch1[] = { MI_BBS_2ND_PPGTT, (uint32_t)b2, 0, MI_BBE };
	uint32_t batch2[] = { MI_ARB_CHECK, MI_SDI, (uint32_t)out + 4, 0, 2, MI_BBE };
	h_write(&h, false, b1, batch1, 4);
	h_write(&h, false, b2, batch2, 6);
	struct gt_engine *e = h.gpu->engines[ENGINE_RCS];
	uint64_t arb0 = engine_arb_checks(e);
	/* no request */
	uint32_t r0[] = { MI_ARB_CHECK, MI_NOOP };
	h_emit(&h, ENGINE_RCS, r0, 2);
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(engine_arb_checks(e), arb0 + 1);
	engine_request_preemption(e, true);
	uint32_t r1[] = { MI_ARB_OFF, MI_ARB_CHECK, MI_SDI, (uint32_t)out, 0, 1, MI_ARB_ON,
			  MI_BBS_PPGTT, (uint32_t)b1, 0 };
	h_emit(&h, ENGINE_RCS, r1, 10);
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(h.preempted, 0);
	CHECK_EQ(h_read32(&h, false, out), 1);
	CHECK_EQ(h_read32(&h, false, out + 4), 2);
	/* arbitration off: not an arbitration point (hangcheck's progress);
	 * the second-level one is */
	CHECK_EQ(engine_arb_checks(e), arb0 + 2);
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

int main(void)
{
	test_ring();
	test_batch();
	test_no_stop();
	return test_exit();
}
