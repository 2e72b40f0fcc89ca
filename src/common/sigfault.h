/* The process's SIGSEGV/SIGBUS handler, shared by everything in gtsim that
 * must survive a fault on memory it does not own:
 *  - guarded copies (sigfault_copy): a fault inside one makes the copy
 *    return -EFAULT, like the kernel's exception-table fixups (the kernel
 *    model's user copies, common/user_copy.h);
 *  - hooks (sigfault_add_hook) that see the other faults first (the
 *    shim's emulated MMIO through the PCI BAR);
 *  - everything else goes on to the handler installed before ours, or to
 *    the one a program installs later if its sigaction goes through
 *    sigfault_sigaction (the shim interposes sigaction for that); with
 *    none, the default action.
 * The handler is installed on first use (sigfault_available). */
#ifndef GTSIM_COMMON_SIGFAULT_H
#define GTSIM_COMMON_SIGFAULT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* Installs the handler if not done yet; false when it cannot be. */
bool sigfault_available(void);

/* Copies size bytes; -EFAULT when src or dst faults (partly copied), 0
 * otherwise. Only when sigfault_available(). */
int sigfault_copy(void *dst, const void *src, size_t size);

/* For an interposer's sigaction(): when sig is SIGSEGV or SIGBUS and the
 * handler is installed, act (if given) becomes the handler that faults
 * outside copies are passed on to, oldact (if given) receives the one
 * before, and 0 is returned; otherwise -1 (use the real sigaction). */
int sigfault_sigaction(int sig, const struct sigaction *act, struct sigaction *oldact);

/* hook sees every SIGSEGV/SIGBUS that is not inside a copy, before the
 * program's handler, and returns true when it dealt with the fault (the
 * faulting thread then resumes at the context hook left in uctx). Hooks
 * are asked in the order they were added (at most 4; adding one twice
 * keeps one). Installs the handler if needed; 0, or -1 when it cannot be
 * installed or no place is left. */
typedef bool (*sigfault_hook)(int sig, siginfo_t *info, void *uctx);
int sigfault_add_hook(sigfault_hook hook);

#endif
