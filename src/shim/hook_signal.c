/* Interposed: sigaction and signal.
 *  - SIGSEGV and SIGBUS: the kernel model's user copies keep a fault
 *    handler that turns a bad client pointer into -EFAULT
 *    (src/common/sigfault.c); a program installing its own handler would
 *    otherwise replace it, and a bad pointer passed to an ioctl would then
 *    crash the program instead of failing with EFAULT as on i915. The
 *    program's handler is recorded instead and receives every fault that
 *    is not inside a copy, as if it were installed.
 *  - Every asynchronous signal with a handler (not SIGFPE, SIGILL,
 *    SIGTRAP, SIGSYS: faults are handled where they happen): the handler is
 *    installed behind a trampoline, which runs it at once unless the
 *    thread is inside gtsim (common/sigdefer.h); then it runs when the
 *    interposed call returns, with the handler's mask blocked, as the
 *    kernel runs handlers on the way back from a system call. Defaults
 *    and SIG_IGN are installed as they are. sigaction() answers with the
 *    program's handlers, never the trampoline. */
#include "shim/shim.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "common/sigdefer.h"
#include "common/sigfault.h"

static struct sigaction client[_NSIG];   /* what the program installed */
static bool recorded[_NSIG];
static pthread_mutex_t client_lock = PTHREAD_MUTEX_INITIALIZER;

static void call_client(int sig, siginfo_t *info, void *uctx)
{
	struct sigaction a = client[sig];
	if (a.sa_flags & SA_RESETHAND)
		client[sig].sa_handler = SIG_DFL;   /* the kernel reset ours */
	if (a.sa_flags & SA_SIGINFO) {
		if (a.sa_sigaction)
			a.sa_sigaction(sig, info, uctx);
	} else if (a.sa_handler != SIG_DFL && a.sa_handler != SIG_IGN) {
		a.sa_handler(sig);
	}
}

static void trampoline(int sig, siginfo_t *info, void *uctx)
{
	if (!sigdefer_hold(sig, info)) {
		sigdefer_ran(client[sig].sa_flags & SA_RESTART);
		call_client(sig, info, uctx);
	}
}

/* A deferred signal, when the outermost gtsim call returns: the handler's
 * mask (and the signal itself, unless SA_NODEFER) blocked while it runs. */
static void run_deferred(int sig, siginfo_t *info)
{
	sigset_t block = client[sig].sa_mask, old;
	if (!(client[sig].sa_flags & SA_NODEFER))
		sigaddset(&block, sig);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	sigdefer_ran(client[sig].sa_flags & SA_RESTART);
	ucontext_t uc;
	getcontext(&uc);
	call_client(sig, info, &uc);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static int real_sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
	real_init();
	if (!real.sigaction) {
		errno = ENOSYS;
		return -1;
	}
	return real.sigaction(sig, act, oldact);
}

/* Asynchronous signals only: a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGTRAP, SIGSYS) must be handled where it happens, or the faulting
 * instruction runs again for ever (the kernel model's guarded copies
 * catch theirs through a SIGSEGV handler, sigfault.c). */
static bool deferrable(int sig)
{
	switch (sig) {
	case SIGKILL: case SIGSTOP:
	case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGTRAP: case SIGSYS:
		return false;
	default:
		return sig > 0 && sig < _NSIG && sig < 64;
	}
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
	if (sigfault_sigaction(sig, act, oldact) == 0)
		return 0;
	if (!deferrable(sig))
		return real_sigaction(sig, act, oldact);
	pthread_mutex_lock(&client_lock);
	struct sigaction installed, prev;
	int ret = 0;
	if (act) {
		installed = *act;
		if (act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN) {
			installed.sa_flags |= SA_SIGINFO;
			installed.sa_sigaction = trampoline;
		}
	}
	ret = real_sigaction(sig, act ? &installed : NULL, &prev);
	if (ret == 0) {
		if (oldact)
			*oldact = recorded[sig] ? client[sig] : prev;
		if (act) {
			client[sig] = *act;
			recorded[sig] = true;
			sigdefer_set_runner(run_deferred);
		}
	}
	pthread_mutex_unlock(&client_lock);
	return ret;
}

sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}
