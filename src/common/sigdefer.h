/* A client's signal handler never runs inside the kernel model.
 *
 * On Linux a system call is atomic for signal handlers: a handler runs
 * when the call returns, or interrupts a wait the kernel allows to be
 * interrupted. gtsim's "system calls" are ordinary code on the client's
 * thread: a handler that ran in the middle of one, holding dev->lock or an
 * engine's lock, and itself called into the device (IGT's exit handlers
 * drop caches on SIGTERM) deadlocked on its own thread. So the shim
 * (src/shim/hook_signal.c) installs the client's handlers behind a
 * trampoline, marks every interposed call that enters gtsim
 * (sigdefer_enter/leave), and a handler whose signal arrives inside one is
 * run when the outermost call leaves, with the handler's mask, as the
 * kernel would on return to user space. A wait that i915 lets signals
 * interrupt opens a window (sigdefer_open/close), around a system call
 * made with no lock held: there handlers run at once and the system call
 * sees EINTR. Without the shim (tests calling gtsim_ioctl), nothing is
 * deferred: these calls only count. */
#ifndef GTSIM_COMMON_SIGDEFER_H
#define GTSIM_COMMON_SIGDEFER_H

#include <signal.h>
#include <stdbool.h>

void sigdefer_enter(void);
void sigdefer_leave(void);
/* Opens the window (true: a signal is already waiting, so the wait must
 * end at once as interrupted); close it after the system call: true when
 * a handler ran while it was open (the system call may have returned for
 * another reason just before the signal came: the wait is interrupted
 * all the same, as a kernel wait sees the pending signal). */
bool sigdefer_open(void);
bool sigdefer_close(void);

/* A thread that serves another process's calls (the device server,
 * kernel/server/) has no signals of that process to see: aborted(arg),
 * when set, is asked by sigdefer_open too, and true (the client went away,
 * as a killed process's wait is interrupted) ends the wait as interrupted.
 * NULL unsets it. */
void sigdefer_set_abort(bool (*aborted)(void *arg), void *arg);

/* The return to user space of a call that answered -ERESTARTSYS (a window
 * interrupted, include/gtsim/gtsim.h): runs the handlers still deferred
 * now, as the kernel delivers them before a restart, and tells whether
 * the call restarts: true when every handler that ran since the
 * outermost sigdefer_enter (or the previous sigdefer_restart) has
 * SA_RESTART (sigdefer_ran reports each), false for EINTR. */
bool sigdefer_restart(void);
/* The shim, whenever it runs a client's handler inside gtsim. */
void sigdefer_ran(bool sa_restart);

/* For the trampoline: true when sig must wait (it is recorded, with
 * info, for the leave); false when the handler may run now. */
bool sigdefer_hold(int sig, const siginfo_t *info);

/* Who runs a deferred signal's handler (the shim's trampoline table). */
typedef void (*sigdefer_runner)(int sig, siginfo_t *info);
void sigdefer_set_runner(sigdefer_runner run);

/* Scope guard for interposed functions: sigdefer_enter now,
 * sigdefer_leave when the enclosing block is left. */
static inline void sigdefer_scope_end(int *unused)
{
	(void)unused;
	sigdefer_leave();
}
#define SIGDEFER_SCOPE \
	__attribute__((cleanup(sigdefer_scope_end))) int sigdefer_scope_ = (sigdefer_enter(), 0); \
	(void)sigdefer_scope_

#endif
