/* sigdefer's window (common/sigdefer.h): a wait that i915 lets a signal
 * interrupt is interrupted when the client's handler runs while the window
 * is open, even if the system call inside returned just before the signal
 * came (the race that let IGT-style SIGALRM loops through execbuf's ring
 * throttle: a kernel wait would see the pending signal at its next check).
 * sigdefer_close() tells. The shim's trampoline is played by a handler
 * that, as hook_signal.c does, asks sigdefer_hold and reports each run
 * with sigdefer_ran. */
#include <signal.h>

#include "common/sigdefer.h"
#include "test.h"

static volatile int runs;

static void trampoline(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	if (!sigdefer_hold(sig, info)) {
		sigdefer_ran(false);
		runs++;
	}
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = trampoline, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);

	sigdefer_enter();
	/* no signal: not interrupted */
	CHECK(!sigdefer_open());
	CHECK(!sigdefer_close());
	/* a handler inside the window: it runs there, and the wait is
	 * interrupted */
	CHECK(!sigdefer_open());
	raise(SIGUSR1);
	CHECK_EQ(runs, 1);
	CHECK(sigdefer_close());
	/* the next window starts clean */
	CHECK(!sigdefer_open());
	CHECK(!sigdefer_close());
	/* outside a window the handler waits for the call's end */
	raise(SIGUSR1);
	CHECK_EQ(runs, 1);
	CHECK(sigdefer_open());     /* ... and a window opened now ends at once */
	CHECK(!sigdefer_close());
	sigdefer_leave();
	CHECK_EQ(runs, 1);          /* no runner set: recorded only */
	return test_exit();
}
