/* The engine's callbacks run on its thread with the engine lock dropped
 * (the kernel's locks come before the engine's). engine_set_callbacks
 * must not return while one set before still runs: the kernel clears
 * them at device teardown (request.c engine_fini) and then destroys the
 * locks and frees the memory the callbacks use. Before, it returned at
 * once: a user-interrupt callback in flight locked an engine's mutex
 * that was being destroyed and freed (a glibc "__owner == 0" assertion
 * once in kernel-preempt and gpgpu-jit-hangcheck under load).
 *
 * Here a user-interrupt callback blocks until released; another thread
 * clears the callbacks meanwhile: it must still be waiting 100 ms later,
 * and return only after the callback has returned. An interrupt after
 * that calls nothing. */
#include <pthread.h>

#include "test.h"
#include "cs_harness.h"

#define MI_USER_INTERRUPT 0x01000000u             /* opcode 0x02 */

static int entered, released, left, cleared, calls;
static int order;                                  /* 1 + the event's rank */
static int left_rank, cleared_rank;

static void sleep_ms(int ms)
{
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000L }, NULL);
}

static bool wait_flag(int *flag, int ms)
{
	for (int i = 0; i < ms && !__atomic_load_n(flag, __ATOMIC_SEQ_CST); i++)
		sleep_ms(1);
	return __atomic_load_n(flag, __ATOMIC_SEQ_CST);
}

static void blocking_interrupt(void *data, struct gt_engine *e)
{
	(void)data;
	(void)e;
	__atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&entered, 1, __ATOMIC_SEQ_CST);
	wait_flag(&released, 10000);
	left_rank = __atomic_add_fetch(&order, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&left, 1, __ATOMIC_SEQ_CST);
}

static void *clear_callbacks(void *arg)
{
	engine_set_callbacks(arg, NULL);
	cleared_rank = __atomic_add_fetch(&order, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&cleared, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

int main(void)
{
	struct harness h;
	h_init(&h, 9, false);
	struct gt_engine *e = h.gpu->engines[ENGINE_RCS];
	engine_set_callbacks(e, &(struct engine_callbacks){ .user_interrupt = blocking_interrupt });
	uint32_t irq = MI_USER_INTERRUPT;
	h_emit(&h, ENGINE_RCS, &irq, 1);
	h_submit(&h, ENGINE_RCS);
	CHECK(wait_flag(&entered, 5000));

	pthread_t t;
	CHECK_EQ(pthread_create(&t, NULL, clear_callbacks, e), 0);
	sleep_ms(100);
	CHECK(!__atomic_load_n(&cleared, __ATOMIC_SEQ_CST));   /* the callback still runs */
	__atomic_store_n(&released, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	CHECK(left && cleared);
	CHECK_EQ(left_rank, 1);
	CHECK_EQ(cleared_rank, 2);

	/* none is called any more */
	h_emit(&h, ENGINE_RCS, &irq, 1);
	CHECK(h_run(&h, ENGINE_RCS));
	CHECK_EQ(calls, 1);
	h_fini(&h);
	return test_exit();
}
