/* The command streamer reads the ring ahead (run.c), but only what lies
 * between HEAD and TAIL, and forgets it when HEAD is written or the engine
 * is reset: commands written past TAIL, or rewritten before a HEAD write or
 * a reset, are the ones that execute. Commands are hex dwords from the BDW
 * PRM (vol. 2a); the status page is the oracle. */
#include "test.h"
#include "cs_harness.h"

#include <time.h>

#define MI_NOOP 0x00000000u
#define MI_BBS_PPGTT (0x18800001u | 1u << 8)      /* opcode 0x31, PPGTT */
#define MI_STORE_DATA_INDEX 0x10800001u           /* opcode 0x21, 3 dwords */

static void sleep_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };
	nanosleep(&ts, NULL);
}

static uint32_t *ring_dw(struct harness *h, enum gt_engine_id id, uint32_t off)
{
	return h_ptr(h, true, H_RING_GGTT + (uint32_t)id * 0x10000u + off);
}

/* MI_STORE_DATA_INDEX of value into status page dword idx, padded to a
 * qword, written at ring offset off (no TAIL move). */
static void put_sdi(struct harness *h, enum gt_engine_id id, uint32_t off, uint32_t idx,
		    uint32_t value)
{
	const uint32_t dw[4] = { MI_STORE_DATA_INDEX, idx * 4, value, MI_NOOP };
	for (int i = 0; i < 4; i++)
		*ring_dw(h, id, off + 4u * (uint32_t)i) = dw[i];
}

/* Past TAIL the ring holds zeros (MI_NOOP) when the engine first reads;
 * the command written there afterwards must run, not a stale NOOP. Then
 * the same ring bytes rewritten and HEAD moved back: the new command runs. */
static void test_past_tail_and_head_write(void)
{
	struct harness h;
	h_init(&h, 8, false);
	const uint32_t noops[2] = { MI_NOOP, MI_NOOP };
	h_emit(&h, ENGINE_RCS, noops, 2);
	CHECK(h_run(&h, ENGINE_RCS));                  /* TAIL 8 */
	put_sdi(&h, ENGINE_RCS, 8, 0x31, 0x111);
	h.tail[ENGINE_RCS] = 24;
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(h.hws[ENGINE_RCS][0x31], 0x111);

	put_sdi(&h, ENGINE_RCS, 8, 0x31, 0x222);
	gpu_mmio_write(h.gpu, 0x2000 + RING_HEAD, 8);
	CHECK(h_run(&h, ENGINE_RCS));                  /* TAIL 24 again */
	CHECK_EQ(h.hws[ENGINE_RCS][0x31], 0x222);
	CHECK_EQ(gpu_mmio_read(h.gpu, 0x2000 + RING_HEAD), 24);
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

/* The engine spins in a batch that jumps to itself, with a command after
 * the batch already in the ring (read ahead with the MI_BATCH_BUFFER_START).
 * The kernel rewrites that command while the engine is stuck (as i915 skips
 * a banned context's batches) and resets the engine there: the rewritten
 * command runs. */
static void test_rewrite_before_reset(void)
{
	struct harness h;
	h_init(&h, 8, false);
	struct gt_engine *e = h.gpu->engines[ENGINE_RCS];
	uint64_t b = 0xb00000;
	h_ppgtt_map(&h, b);
	const uint32_t loop[4] = { MI_NOOP, MI_BBS_PPGTT, (uint32_t)b, 0 };
	h_write(&h, false, b, loop, 4);
	const uint32_t start[4] = { MI_BBS_PPGTT, (uint32_t)b, 0, MI_NOOP };
	h_emit(&h, ENGINE_RCS, start, 4);
	put_sdi(&h, ENGINE_RCS, 16, 0x32, 0xa);
	h.tail[ENGINE_RCS] = 32;
	h_submit(&h, ENGINE_RCS);
	sleep_ms(20);
	uint64_t acthd = engine_acthd(e);
	CHECK(acthd >= b && acthd < b + 16);
	CHECK_EQ(h.hws[ENGINE_RCS][0x32], 0);
	put_sdi(&h, ENGINE_RCS, 16, 0x32, 0xb);
	engine_reset(e, 16);
	CHECK(engine_wait_idle(e, 5000000000ull));
	CHECK_EQ(h.hws[ENGINE_RCS][0x32], 0xb);
	CHECK_EQ(h.faults, 0);
	h_fini(&h);
}

int main(void)
{
	test_past_tail_and_head_write();
	test_rewrite_before_reset();
	return test_exit();
}
