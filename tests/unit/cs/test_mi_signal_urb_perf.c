/* MI_SEMAPHORE_SIGNAL, MI_LOAD_URB_MEM / MI_STORE_URB_MEM and
 * MI_REPORT_PERF_COUNT against values worked out by hand from the PRM's
 * command pages (BDW/SKL vol. 2a): headers (MI opcode in bits 28:23:
 * SEMAPHORE_SIGNAL 0x1b, LOAD_URB_MEM 0x2c, STORE_URB_MEM 0x2d,
 * REPORT_PERF_COUNT 0x28), Target Engine Select (bits 17:15: 0 RCS, 1 VCS0,
 * 2 BCS, 3 VECS, 4 VCS1), URB Address (dword 1 bits 14:2 of a byte
 * address), one 64-byte line per URB command, and the report's dword 0
 * (Report ID) and dword 1 (the timestamp's low 32 bits). */
#include "test.h"
#include "cs_harness.h"
#include "gpu/cs/cs.h"
#include "gpu/render/render.h"

#define MI_SEMAPHORE_SIGNAL(target) (0x0d800000u | (uint32_t)(target) << 15)
#define MI_SEMAPHORE_WAIT_SIGNAL_EQ (0x0e000002u | 4u << 12)   /* signal mode, SAD == SDD */
#define MI_STORE_DATA_IMM 0x10000002u
#define MI_LOAD_URB_MEM 0x16000002u
#define MI_STORE_URB_MEM 0x16800002u
#define MI_REPORT_PERF_COUNT 0x14000002u
#define MI_STORE_REGISTER_MEM 0x12000002u
#define RCS_TIMESTAMP 0x2358u
#define MEM 0x200000u

/* Each target select reaches its engine: the signal is counted there with
 * its context ID; VCS1 (select 4) is no engine of this device: a fault. */
static void test_signal_targets(void)
{
	static const enum gt_engine_id want[4] = { ENGINE_RCS, ENGINE_VCS, ENGINE_BCS, ENGINE_VECS };
	for (unsigned gen = 8; gen <= 9; gen++)
		for (unsigned sel = 0; sel < 4; sel++) {
			struct harness h;
			h_init(&h, (int)gen, true);
			uint32_t c[] = { MI_SEMAPHORE_SIGNAL(sel), 0xc0de0000u + sel };
			h_emit(&h, ENGINE_BCS, c, 2);
			h_run(&h, ENGINE_BCS);
			CHECK_EQ(h.faults, 0);
			for (int i = 0; i < GT_NUM_ENGINES; i++)
				CHECK_EQ(h.gpu->engines[i]->semaphore_signals,
					 i == (int)want[sel] ? 1u : 0u);
			CHECK_EQ(h.gpu->engines[want[sel]]->semaphore_signal_ctx, 0xc0de0000u + sel);
			h_fini(&h);
		}
	struct harness h;
	h_init(&h, 8, true);
	uint32_t c[] = { MI_SEMAPHORE_SIGNAL(4), 0 };
	h_emit(&h, ENGINE_RCS, c, 2);
	h_run(&h, ENGINE_RCS);
	CHECK_EQ(h.faults, 1);
	CHECK(strstr(h.fault_reason, "VCS1") != NULL);
	h_fini(&h);
}

/* The Gen8 i915 pattern (intel_ringbuffer.c gen8_*_signal): RCS writes the
 * semaphore, then signals BCS, whose MI_SEMAPHORE_WAIT in signal mode
 * waits for the value 7 and then stores 0x600d. Asynchronous engines: BCS
 * is submitted first and waits. */
static void test_signal_wakes_wait(void)
{
	struct harness h;
	h_init(&h, 8, false);
	h_ppgtt_map(&h, MEM);
	uint32_t wait[] = { MI_SEMAPHORE_WAIT_SIGNAL_EQ, 7, MEM, 0,
			    MI_STORE_DATA_IMM, MEM + 8, 0, 0x600d };
	h_emit(&h, ENGINE_BCS, wait, 8);
	h_submit(&h, ENGINE_BCS);
	struct timespec ts = { 0, 2000000 };
	nanosleep(&ts, NULL);
	CHECK_EQ(h_read32(&h, false, MEM + 8), 0);   /* still waiting */
	uint32_t sig[] = { MI_STORE_DATA_IMM, MEM, 0, 7, MI_SEMAPHORE_SIGNAL(2), 0 };
	h_emit(&h, ENGINE_RCS, sig, 6);
	h_run(&h, ENGINE_RCS);
	CHECK(engine_wait_idle(h.gpu->engines[ENGINE_BCS], 5000000000ull));
	CHECK_EQ(h.faults, 0);
	CHECK_EQ(h_read32(&h, false, MEM + 8), 0x600d);
	CHECK_EQ(h.gpu->engines[ENGINE_BCS]->semaphore_signals, 1);
	h_fini(&h);
}

/* LOAD a 64-byte line to URB byte 0x1040 (dword 1 = 0x1040: bits 14:2
 * hold address bits 14:2), STORE it back elsewhere, and an untouched line
 * (URB 0x1080, zero) too. */
static void test_urb_mem(void)
{
	for (unsigned gen = 8; gen <= 9; gen++) {
		struct harness h;
		h_init(&h, (int)gen, true);
		h_ppgtt_map(&h, MEM);
		uint32_t line[16];
		for (unsigned i = 0; i < 16; i++)
			line[i] = 0x01020304u * (i + 1) ^ 0x80000000u;
		h_write(&h, false, MEM, line, 16);
		uint32_t ones[48];
		memset(ones, 0xff, sizeof(ones));
		h_write(&h, false, MEM + 0x100, ones, 48);
		uint32_t c[] = { MI_LOAD_URB_MEM, 0x1040, MEM, 0,
				 MI_STORE_URB_MEM, 0x1040, MEM + 0x100, 0,
				 MI_STORE_URB_MEM, 0x1080, MEM + 0x140, 0 };
		h_emit(&h, ENGINE_RCS, c, 12);
		h_run(&h, ENGINE_RCS);
		CHECK_EQ(h.faults, 0);
		for (unsigned i = 0; i < 16; i++) {
			CHECK_EQ(h_read32(&h, false, MEM + 0x100 + 4 * i), line[i]);
			CHECK_EQ(h_read32(&h, false, MEM + 0x140 + 4 * i), 0);
			CHECK_EQ(h_read32(&h, false, MEM + 0x180 + 4 * i), 0xffffffffu);
		}
		/* the line is in the render unit's URB at byte 0x1040 */
		size_t size = 0;
		uint8_t *urb = render_urb(render_engine_state(h.gpu->engines[ENGINE_RCS]), &size);
		CHECK(size >= 0x10c0);
		CHECK(urb && memcmp(urb + 0x1040, line, 64) == 0);
		CHECK(urb && urb[0x103f] == 0 && urb[0x1080] == 0);
		h_fini(&h);
	}
}

/* A report between two TIMESTAMP reads: Report ID, a timestamp between
 * them, zeros (no OA unit) up to 64 bytes, nothing after. */
static void test_report_perf_count(void)
{
	for (unsigned gen = 8; gen <= 9; gen++) {
		struct harness h;
		h_init(&h, (int)gen, true);
		h_ppgtt_map(&h, MEM);
		uint32_t ones[32];
		memset(ones, 0xff, sizeof(ones));
		h_write(&h, false, MEM + 0x40, ones, 32);
		uint32_t c[] = { MI_STORE_REGISTER_MEM, RCS_TIMESTAMP, MEM, 0,
				 MI_REPORT_PERF_COUNT, MEM + 0x40, 0, 0xabcd1234u,
				 MI_STORE_REGISTER_MEM, RCS_TIMESTAMP, MEM + 4, 0 };
		h_emit(&h, ENGINE_RCS, c, 12);
		h_run(&h, ENGINE_RCS);
		CHECK_EQ(h.faults, 0);
		uint32_t t0 = h_read32(&h, false, MEM), t1 = h_read32(&h, false, MEM + 4);
		uint32_t t = h_read32(&h, false, MEM + 0x44);
		CHECK_EQ(h_read32(&h, false, MEM + 0x40), 0xabcd1234u);
		CHECK(t - t0 <= t1 - t0);
		for (unsigned i = 2; i < 16; i++)
			CHECK_EQ(h_read32(&h, false, MEM + 0x40 + 4 * i), 0);
		CHECK_EQ(h_read32(&h, false, MEM + 0x80), 0xffffffffu);
		h_fini(&h);
	}
}

int main(void)
{
	test_signal_targets();
	test_signal_wakes_wait();
	test_urb_mem();
	test_report_perf_count();
	return test_exit();
}
