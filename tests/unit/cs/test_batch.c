/* Ring and batch execution (seed 004): HEAD/TAIL/ACTHD, first- and
 * second-level batches, chains, privilege, faults and reset. Commands are
 * hex dwords computed from the BDW PRM (vol. 2a), not from gtsim's table. */
#include "test.h"
#include "cs_harness.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define MI_NOOP 0x00000000u
#define MI_USER_INTERRUPT 0x01000000u             /* opcode 0x02 */
#define MI_BBE 0x05000000u                        /* opcode 0x0a */
#define MI_BBS_GGTT 0x18800001u                   /* opcode 0x31, 3 dwords */
#define MI_BBS_PPGTT (0x18800001u | 1u << 8)      /* Address Space Indicator */
#define MI_BBS_2ND_PPGTT (MI_BBS_PPGTT | 1u << 22) /* Second Level Batch */
#define MI_SDI 0x10000002u                        /* MI_STORE_DATA_IMM, opcode 0x20 */
#define MI_SDI_GGTT (MI_SDI | 1u << 22)
#define MI_STORE_DATA_INDEX 0x10800001u           /* opcode 0x21 */
#define MI_LRI 0x11000001u                        /* opcode 0x22, one pair */
#define MI_SEMAPHORE_WAIT_POLL_EQ (0x0e000002u | 1u << 15 | 4u << 12)

static void sleep_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };
	nanosleep(&ts, NULL);
}

/* Seqno into the status page then an interrupt, from the ring alone. */
static void test_ring_only(void)
{
	struct harness h;
	h_init(&h, 8, false);
	uint32_t cmds[] = { MI_STORE_DATA_INDEX, 0x30 * 4, 42, MI_USER_INTERRUPT };
	h_emit(&h, ENGINE_RCS, cmds, 4);
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(h.hws[ENGINE_RCS][0x30], 42);
	CHECK_EQ(h.interrupts, 1);
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2034), 16);   /* HEAD */
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2030), 16);   /* TAIL */
	CHECK_EQ(engine_acthd(h.gpu->engines[ENGINE_RCS]), H_RING_GGTT + 16);
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

/* ring -> first-level batch -> second-level batch -> back, each step
 * leaving a mark; the ring goes on after the batch. */
static void test_second_level(void)
{
	struct harness h;
	h_init(&h, 8, false);
	uint64_t b1 = 0x200000, b2 = 0x7fff00001000ull, out = 0x300000;
	h_ppgtt_map(&h, b1);
	h_ppgtt_map(&h, b2);
	h_ppgtt_map(&h, out);
	uint32_t batch1[] = {
		MI_SDI, (uint32_t)out, 0, 1,
		MI_BBS_2ND_PPGTT, (uint32_t)b2, (uint32_t)(b2 >> 32),
		MI_SDI, (uint32_t)out + 8, 0, 3,
		MI_BBE,
		MI_SDI, (uint32_t)out + 16, 0, 0xbad,   /* never reached */
	};
	uint32_t batch2[] = { MI_SDI, (uint32_t)out + 4, 0, 2, MI_BBE };
	h_write(&h, false, b1, batch1, 16);
	h_write(&h, false, b2, batch2, 5);
	uint32_t ring[] = { MI_BBS_PPGTT, (uint32_t)b1, 0, MI_STORE_DATA_INDEX, 0x40 * 4, 4 };
	h_emit(&h, ENGINE_RCS, ring, 6);
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(h_read32(&h, false, out), 1);
	CHECK_EQ(h_read32(&h, false, out + 4), 2);
	CHECK_EQ(h_read32(&h, false, out + 8), 3);
	CHECK_EQ(h_read32(&h, false, out + 16), 0);
	CHECK_EQ(h.hws[ENGINE_RCS][0x40], 4);
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

/* A chain: batch A jumps (not second level) to batch B; B's single
 * MI_BATCH_BUFFER_END returns to the ring, A's rest never runs. */
static void test_chain(void)
{
	struct harness h;
	h_init(&h, 8, false);
	uint64_t a = 0x400000, b = 0x401000, c = 0x402000, out = 0x500000;
	h_ppgtt_map(&h, a);
	h_ppgtt_map(&h, b);
	h_ppgtt_map(&h, c);
	h_ppgtt_map(&h, out);
	uint32_t ba[] = { MI_SDI, (uint32_t)out, 0, 0xa, MI_BBS_PPGTT, (uint32_t)b, 0,
			  MI_SDI, (uint32_t)out + 12, 0, 0xbad, MI_BBE };
	uint32_t bb[] = { MI_SDI, (uint32_t)out + 4, 0, 0xb, MI_BBS_PPGTT, (uint32_t)c, 0 };
	uint32_t bc[] = { MI_SDI, (uint32_t)out + 8, 0, 0xc, MI_BBE };
	h_write(&h, false, a, ba, 12);
	h_write(&h, false, b, bb, 7);
	h_write(&h, false, c, bc, 5);
	uint32_t ring[] = { MI_BBS_PPGTT, (uint32_t)a, 0, MI_STORE_DATA_INDEX, 0x44 * 4, 0x77 };
	h_emit(&h, ENGINE_RCS, ring, 6);
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(h_read32(&h, false, out), 0xa);
	CHECK_EQ(h_read32(&h, false, out + 4), 0xb);
	CHECK_EQ(h_read32(&h, false, out + 8), 0xc);
	CHECK_EQ(h_read32(&h, false, out + 12), 0);
	CHECK_EQ(h.hws[ENGINE_RCS][0x44], 0x77);
	h_fini(&h);
}

/* While a batch waits on a semaphore, ACTHD is the waiting command's batch
 * address and HEAD is past the MI_BATCH_BUFFER_START; a CPU write to the
 * semaphore releases it. */
static void test_acthd_and_semaphore(void)
{
	struct harness h;
	h_init(&h, 8, false);
	uint64_t b = 0x600000, sem = 0x601000, out = 0x602000;
	h_ppgtt_map(&h, b);
	h_ppgtt_map(&h, sem);
	h_ppgtt_map(&h, out);
	uint32_t batch[] = {
		MI_NOOP, MI_NOOP,
		MI_SEMAPHORE_WAIT_POLL_EQ, 7, (uint32_t)sem, 0,  /* at b + 8 */
		MI_SDI, (uint32_t)out, 0, 0x5e, MI_BBE,
	};
	h_write(&h, false, b, batch, 11);
	uint32_t ring[] = { MI_BBS_PPGTT, (uint32_t)b, 0, MI_NOOP };
	h_emit(&h, ENGINE_RCS, ring, 4);
	h_submit(&h, ENGINE_RCS);
	struct gt_engine *e = h.gpu->engines[ENGINE_RCS];
	uint64_t acthd = 0;
	for (int i = 0; i < 500 && acthd != b + 8; i++) {
		sleep_ms(1);
		acthd = engine_acthd(e);
	}
	CHECK_EQ(acthd, b + 8);
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2074), (uint32_t)(b + 8));   /* ACTHD */
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2034), 12);                  /* HEAD */
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2140) & ~0xfffu, (uint32_t)b); /* BBADDR */
	CHECK(!engine_is_idle(e));
	CHECK_EQ(h_read32(&h, false, out), 0);
	*(volatile uint32_t *)h_ptr(&h, false, sem) = 7;
	CHECK(engine_wait_idle(e, 5000000000ull));
	CHECK_EQ(h_read32(&h, false, out), 0x5e);
	CHECK_EQ(engine_acthd(e), H_RING_GGTT + 16);
	h_fini(&h);
}

/* Seed 004: privileged commands in a non-privileged (PPGTT) batch execute
 * as MI_NOOP; the same commands run from a GGTT batch started by the ring. */
static void test_privilege(void)
{
	struct harness h;
	h_init(&h, 8, false);
	uint64_t pb = 0x700000;           /* PPGTT batch */
	uint64_t gb = 0x800000;           /* GGTT batch */
	uint64_t gout = 0x900000, pout = 0x701000;
	h_ppgtt_map(&h, pb);
	h_ppgtt_map(&h, pout);
	h_ggtt_map(&h, gb, 1);
	h_ggtt_map(&h, gout, 1);
	uint32_t *new_hws = h_ggtt_map(&h, 0x5000, 1);
	uint32_t batch[] = {
		MI_SDI_GGTT, (uint32_t)gout, 0, 0x11,        /* dropped */
		MI_LRI, 0x2080, 0x5000,                      /* HWS_PGA: dropped */
		MI_STORE_DATA_INDEX, 0x50 * 4, 0x22,         /* dropped */
		MI_LRI, 0x2600, 0x1234,                      /* GPR0: allowed */
		MI_SDI, (uint32_t)pout, 0, 0x33,             /* PPGTT: allowed */
		MI_BBE,
	};
	h_write(&h, false, pb, batch, 18);
	h_write(&h, true, gb, batch, 18);
	uint32_t ring[] = { MI_BBS_PPGTT, (uint32_t)pb, 0, MI_NOOP };
	h_emit(&h, ENGINE_RCS, ring, 4);
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(h_read32(&h, true, gout), 0);
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2080), H_HWS_GGTT);
	CHECK_EQ(h.hws[ENGINE_RCS][0x50], 0);
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2600), 0x1234);
	CHECK_EQ(h_read32(&h, false, pout), 0x33);
	CHECK_EQ(h.faults, 0);

	/* The privileged GGTT batch: everything runs. A store without Use
	 * Global GTT still goes through the PPGTT. */
	gpu_mmio_write(h.gpu, 0x2600, 0);
	*(uint32_t *)h_ptr(&h, false, pout) = 0;
	uint32_t ring2[] = { MI_BBS_GGTT, (uint32_t)gb, 0, MI_NOOP };
	h_emit(&h, ENGINE_RCS, ring2, 4);
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(h_read32(&h, true, gout), 0x11);
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2080), 0x5000);
	CHECK_EQ(new_hws[0x50], 0x22);
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2600), 0x1234);
	CHECK_EQ(h_read32(&h, false, pout), 0x33);
	h_fini(&h);
}

/* Unknown command, page fault fetching a batch, write to an unmapped
 * address: each a GPU fault through the callback; reset restarts. */
static void test_faults(void)
{
	struct harness h;
	h_init(&h, 8, false);
	struct gt_engine *e = h.gpu->engines[ENGINE_RCS];
	uint32_t bad[] = { 0xe0000000u, MI_NOOP };   /* command type 7: none */
	h_emit(&h, ENGINE_RCS, bad, 2);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h_wait_faults(&h, 1), 1);
	CHECK(engine_is_stopped(e, NULL, 0));
	CHECK(!engine_is_idle(e));
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2068), 0xe0000000u);  /* IPEHR */
	CHECK(gpu_mmio_read(h.gpu, 0x20b0) & 1);              /* EIR */
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2034), 0);            /* HEAD on it */

	/* Reset past it, then a batch at an unmapped PPGTT address. */
	uint32_t bbs[] = { MI_BBS_PPGTT, 0x12340000u, 0, MI_NOOP };
	h_emit(&h, ENGINE_RCS, bbs, 4);
	engine_reset(e, 8);
	h_submit(&h, ENGINE_RCS);
	engine_wait_idle(e, 5000000000ull);
	CHECK_EQ(h_wait_faults(&h, 2), 2);
	CHECK(engine_is_stopped(e, NULL, 0));
	CHECK_EQ(engine_acthd(e), 0x12340000u);

	/* A store to an unmapped address. */
	uint32_t st[] = { MI_SDI_GGTT, 0x3ff0000u, 0, 1 };
	h_emit(&h, ENGINE_RCS, st, 4);
	engine_reset(e, 24);
	h_submit(&h, ENGINE_RCS);
	engine_wait_idle(e, 5000000000ull);
	CHECK_EQ(h_wait_faults(&h, 3), 3);

	/* After a reset past it the engine works again. */
	uint32_t ok[] = { MI_STORE_DATA_INDEX, 0x60 * 4, 9, MI_NOOP };
	h_emit(&h, ENGINE_RCS, ok, 4);
	engine_reset(e, 40);
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(h.hws[ENGINE_RCS][0x60], 9);
	CHECK(!engine_is_stopped(e, NULL, 0));
	h_fini(&h);
}

/* A batch that jumps to itself never ends, until engine_reset(). In sync
 * mode the thread that wrote TAIL is the one running it: the reset (from
 * another thread, as hangcheck would) makes that write return. */
static void *submit_thread(void *arg)
{
	struct harness *h = arg;
	h_submit(h, ENGINE_RCS);
	return NULL;
}

static void test_loop_until_reset(bool sync)
{
	struct harness h;
	h_init(&h, 8, sync);
	struct gt_engine *e = h.gpu->engines[ENGINE_RCS];
	uint64_t b = 0xa00000;
	h_ppgtt_map(&h, b);
	uint32_t loop[] = { MI_NOOP, MI_BBS_PPGTT, (uint32_t)b, 0 };
	h_write(&h, false, b, loop, 4);
	uint32_t ring[] = { MI_BBS_PPGTT, (uint32_t)b, 0, MI_NOOP };
	h_emit(&h, ENGINE_RCS, ring, 4);
	pthread_t t;
	if (sync)
		pthread_create(&t, NULL, submit_thread, &h);
	else
		h_submit(&h, ENGINE_RCS);
	sleep_ms(50);
	CHECK(!engine_is_idle(e));
	uint64_t acthd = engine_acthd(e);
	CHECK(acthd >= b && acthd < b + 16);
	/* it keeps executing (within 2 s: on a loaded machine the engine's
	 * thread may not run for 10 ms) */
	uint64_t n1 = engine_commands(e);
	for (int i = 0; i < 200 && engine_commands(e) == n1; i++)
		sleep_ms(10);
	CHECK(engine_commands(e) > n1);
	engine_reset(e, 16);
	if (sync)
		pthread_join(t, NULL);
	CHECK(engine_wait_idle(e, 5000000000ull));
	CHECK(engine_is_idle(e));
	CHECK_EQ(engine_acthd(e), H_RING_GGTT + 16);
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

/* MI_NOOP runs (run.c noop_run, one step for many): 1028 NOOPs from a
 * batch's start cross into its second page, then a store and the end:
 * the store lands and each NOOP counts as a command (ring jump, 1028
 * NOOPs, store, end). A second batch whose NOOPs fill its page up to an
 * unmapped one faults fetching at that page's first byte, not earlier
 * and not past it. */
static void test_noop_run(void)
{
	struct harness h;
	h_init(&h, 9, false);
	struct gt_engine *e = h.gpu->engines[ENGINE_RCS];
	uint64_t b = 0xb00000, out = 0x300000, c = 0xc00000;
	h_ppgtt_map(&h, b);
	h_ppgtt_map(&h, b + 0x1000);
	h_ppgtt_map(&h, out);
	h_ppgtt_map(&h, c);   /* c + 0x1000 stays unmapped */
	static uint32_t batch[1033];
	batch[1028] = MI_SDI;
	batch[1029] = (uint32_t)out;
	batch[1030] = 0;
	batch[1031] = 0x5a;
	batch[1032] = MI_BBE;
	h_write(&h, false, b, batch, 1033);
	uint64_t n0 = engine_commands(e);
	uint32_t ring[] = { MI_BBS_PPGTT, (uint32_t)b, 0, MI_NOOP };
	h_emit(&h, ENGINE_RCS, ring, 4);
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(h_read32(&h, false, out), 0x5a);
	CHECK_EQ(engine_commands(e) - n0, 1 + 1028 + 2 + 1);   /* and the ring's NOOP */
	CHECK_EQ(h.faults, 0);

	uint32_t ring2[] = { MI_BBS_PPGTT, (uint32_t)c, 0, MI_NOOP };
	h_emit(&h, ENGINE_RCS, ring2, 4);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h_wait_faults(&h, 1), 1);
	CHECK(engine_is_stopped(e, NULL, 0));
	CHECK_EQ(engine_acthd(e), c + 0x1000);
	h_fini(&h);
}

/* Sync mode: the TAIL write returns with the work done. */
static void test_sync_mode(void)
{
	struct harness h;
	h_init(&h, 9, true);
	uint32_t cmds[] = { MI_STORE_DATA_INDEX, 0x30 * 4, 5, MI_USER_INTERRUPT };
	h_emit(&h, ENGINE_BCS, cmds, 4);
	h_submit(&h, ENGINE_BCS);
	CHECK_EQ(h.hws[ENGINE_BCS][0x30], 5);
	CHECK_EQ(h.interrupts, 1);
	CHECK(engine_is_idle(h.gpu->engines[ENGINE_BCS]));
	h_fini(&h);
}

/* The ring wraps: commands written across its end execute in order. */
static void test_ring_wrap(void)
{
	struct harness h;
	h_init(&h, 8, true);
	uint32_t pad[2] = { 0, 0 };
	h.tail[ENGINE_VCS] = H_RING_SIZE - 16;
	gpu_mmio_write(h.gpu, 0x12000 + RING_HEAD, H_RING_SIZE - 16);
	gpu_mmio_write(h.gpu, 0x12000 + RING_TAIL, H_RING_SIZE - 16);
	h_emit(&h, ENGINE_VCS, pad, 2);
	uint32_t cmds[] = { MI_STORE_DATA_INDEX, 0x30 * 4, 0xabc, MI_NOOP };
	h_emit(&h, ENGINE_VCS, cmds, 4);   /* SDI crosses the end */
	h_submit(&h, ENGINE_VCS);
	CHECK_EQ(h.hws[ENGINE_VCS][0x30], 0xabc);
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x12034) & 0x001ffffcu, 8);   /* head, 20:2 */
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x12034) >> 21, 1);   /* wrap count */
	h_fini(&h);
}

int main(void)
{
	test_ring_only();
	test_second_level();
	test_chain();
	test_acthd_and_semaphore();
	test_privilege();
	test_faults();
	test_loop_until_reset(false);
	test_loop_until_reset(true);
	test_noop_run();
	test_sync_mode();
	test_ring_wrap();
	return test_exit();
}
