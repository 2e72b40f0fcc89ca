/* Async TAIL writes are posted to the engine thread without the engine
 * lock; the thread spins a little for the next one, then sleeps, and a TAIL
 * posted while it sleeps must wake it (engine.c). Submissions here come
 * with pauses around the spin time, so both sides of the sleep are hit;
 * completion is read from the status page only (an MMIO access would take
 * the lock and apply the posted TAIL itself, hiding a lost wake-up). An
 * idle engine must not keep spinning either. */
#include "test.h"
#include "cs_harness.h"

#include <time.h>

#define MI_STORE_DATA_INDEX 0x10800001u           /* opcode 0x21, 3 dwords */
#define MI_USER_INTERRUPT 0x01000000u             /* opcode 0x02 */

static uint64_t now_ns(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };
	nanosleep(&ts, NULL);
}

/* Status page dword 0x30 reaches value within 2 s. */
static bool seqno_reaches(struct harness *h, enum gt_engine_id id, uint32_t value)
{
	uint64_t deadline = now_ns(CLOCK_MONOTONIC) + 2000000000ull;
	while (__atomic_load_n(&h->hws[id][0x30], __ATOMIC_ACQUIRE) != value)
		if (now_ns(CLOCK_MONOTONIC) > deadline)
			return false;
	return true;
}

static void test_no_lost_wakeup(void)
{
	struct harness h;
	h_init(&h, 8, false);
	/* Pauses (us) below, near and above the engine's spin time. */
	static const long pause_us[] = { 0, 1, 3, 8, 12, 25, 60, 200 };
	const int n = 1200;
	int lost = 0;
	for (int i = 1; i <= n && !lost; i++) {
		const uint32_t cmds[4] = { MI_STORE_DATA_INDEX, 0x30 * 4, (uint32_t)i,
					   MI_USER_INTERRUPT };
		h_emit(&h, ENGINE_VCS, cmds, 4);
		h_submit(&h, ENGINE_VCS);
		if (i % 3 == 0 && !seqno_reaches(&h, ENGINE_VCS, (uint32_t)i))
			lost++;
		sleep_us(pause_us[(i * 7) % 8]);
	}
	CHECK_EQ(lost, 0);
	CHECK(lost || seqno_reaches(&h, ENGINE_VCS, (uint32_t)n));
	CHECK_EQ(__atomic_load_n(&h.interrupts, __ATOMIC_SEQ_CST), n);
	CHECK_EQ(h.faults, 0);

	/* Idle now: over 200 ms the process (four engine threads) uses
	 * almost no CPU. */
	uint64_t cpu0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	sleep_us(200000);
	uint64_t cpu = now_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	fprintf(stderr, "idle: %.2f ms of CPU in 200 ms\n", (double)cpu / 1e6);
	CHECK(cpu < 20000000ull);
	h_fini(&h);
}

int main(void)
{
	test_no_lost_wakeup();
	return test_exit();
}
