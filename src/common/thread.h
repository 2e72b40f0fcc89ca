/* Host threads of gtsim's own (the engines, the kernel worker). */
#ifndef GTSIM_COMMON_THREAD_H
#define GTSIM_COMMON_THREAD_H

#include <pthread.h>
#include <signal.h>
#include <time.h>

/* pthread_create with the asynchronous signals blocked in the new thread:
 * a client's process-directed signal (an interval timer's SIGALRM, IGT's
 * interrupting SIGRTMIN) then reaches the client's own threads, where it
 * interrupts a waiting ioctl (EINTR) as on i915, and the client's handlers
 * never run on gtsim's threads. The synchronous signals stay open: the
 * guarded user copies and userptr accesses catch SIGSEGV and SIGBUS
 * (common/sigfault.h), and a blocked synchronous signal would kill. */
static inline int gt_thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t block, old;
	sigfillset(&block);
	sigdelset(&block, SIGSEGV);
	sigdelset(&block, SIGBUS);
	sigdelset(&block, SIGFPE);
	sigdelset(&block, SIGILL);
	sigdelset(&block, SIGTRAP);
	pthread_sigmask(SIG_SETMASK, &block, &old);
	int r = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return r;
}

/* The absolute time ns nanoseconds (below a second) from now on clock clk,
 * for pthread_cond_timedwait on a condition variable of that clock. */
static inline struct timespec gt_abstime_in(clockid_t clk, long ns)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	ts.tv_nsec += ns;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	return ts;
}

#endif
