/* Interposed: sigaction and signal for SIGSEGV and SIGBUS. The kernel
 * model's user copies keep a fault handler that turns a bad client
 * pointer into -EFAULT (src/common/sigfault.c); a program installing
 * its own handler would otherwise replace it, and a bad pointer passed to
 * an ioctl would then crash the program instead of failing with EFAULT as
 * on i915. The program's handler is recorded instead and receives every
 * fault that is not inside a copy, as if it were installed. */
#include "shim/shim.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "common/sigfault.h"

int sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
	if (sigfault_sigaction(sig, act, oldact) == 0)
		return 0;
	real_init();
	if (!real.sigaction) {
		errno = ENOSYS;
		return -1;
	}
	return real.sigaction(sig, act, oldact);
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
