/* Deferred client signal handlers (sigdefer.h). Per-thread state, read by
 * the trampoline on the same thread: plain thread-locals with compiler
 * barriers (a handler interrupts its own thread, no other thread reads
 * them). */
#include "common/sigdefer.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>

static _Thread_local volatile int depth __attribute__((tls_model("initial-exec")));
/* the depth at which a window is open, 0 when none: a handler that runs
 * in the window and calls gtsim again is deferred inside that call */
static _Thread_local volatile int window __attribute__((tls_model("initial-exec")));
static _Thread_local volatile unsigned long long pending
	__attribute__((tls_model("initial-exec")));
static _Thread_local siginfo_t pending_info[64] __attribute__((tls_model("initial-exec")));
/* a handler without SA_RESTART ran in this call (sigdefer_restart) */
static _Thread_local volatile bool ran_no_restart __attribute__((tls_model("initial-exec")));
/* a handler ran while the window was open (sigdefer_close) */
static _Thread_local volatile bool ran_in_window __attribute__((tls_model("initial-exec")));
static sigdefer_runner runner;
static _Thread_local bool (*abort_fn)(void *);
static _Thread_local void *abort_arg;

void sigdefer_set_abort(bool (*aborted)(void *arg), void *arg)
{
	abort_fn = aborted;
	abort_arg = arg;
}

void sigdefer_set_runner(sigdefer_runner run)
{
	__atomic_store_n(&runner, run, __ATOMIC_RELEASE);
}

void sigdefer_enter(void)
{
	if (depth == 0)
		ran_no_restart = false;
	depth++;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static void run_pending(void)
{
	sigdefer_runner run = __atomic_load_n(&runner, __ATOMIC_ACQUIRE);
	int saved_errno = errno;
	while (pending) {
		int sig = __builtin_ctzll(pending);
		siginfo_t info = pending_info[sig];
		pending &= ~(1ull << sig);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		if (run)
			run(sig, &info);
	}
	errno = saved_errno;
}

void sigdefer_leave(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (--depth == 0 && pending)
		run_pending();
}

void sigdefer_ran(bool sa_restart)
{
	if (window && window == depth)
		ran_in_window = true;
	if (!sa_restart)
		ran_no_restart = true;
}

bool sigdefer_restart(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (pending)
		run_pending();
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	bool restart = !ran_no_restart;
	ran_no_restart = false;
	return restart;
}

bool sigdefer_open(void)
{
	ran_in_window = false;
	window = depth;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return pending != 0 || (abort_fn && abort_fn(abort_arg));
}

bool sigdefer_close(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	window = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return ran_in_window;
}

bool sigdefer_hold(int sig, const siginfo_t *info)
{
	if (depth == 0 || (window && window == depth) || sig <= 0 || sig >= 64)
		return false;
	pending_info[sig] = *info;
	pending |= 1ull << sig;
	return true;
}
