/* Copies between the kernel model and "user" memory named by a client's
 * 64-bit pointer. A bad address gives -EFAULT instead of a crash: the copy
 * runs under a SIGSEGV/SIGBUS handler (installed at the first copy,
 * chaining to the handler that was there before) that turns a fault inside
 * it into -EFAULT, at the cost of a plain copy. A program that installs its
 * own SIGSEGV handler later takes such faults itself, unless its sigaction
 * goes through user_copy_sigaction (the shim does that). Without the handler
 * the copy falls back to process_vm_readv/writev (a few microseconds). */
#ifndef GTSIM_SYNC_USER_COPY_H
#define GTSIM_SYNC_USER_COPY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int copy_from_user_ptr(void *dst, uint64_t user_ptr, size_t size);
int copy_to_user_ptr(uint64_t user_ptr, const void *src, size_t size);

/* For an interposer's sigaction(): when sig is SIGSEGV or SIGBUS and the
 * copy handler is installed, act (if given) becomes the handler that
 * faults outside copies are passed on to, oldact (if given) receives the
 * one before, and 0 is returned; otherwise -1 (use the real sigaction). */
int user_copy_sigaction(int sig, const struct sigaction *act, struct sigaction *oldact);

/* A second user of the fault handler: hook sees every SIGSEGV/SIGBUS that
 * is not inside a copy, before the program's handler, and returns true
 * when it dealt with the fault (the faulting thread then resumes at the
 * context hook left in uctx). Installs the handler if needed; 0, or -1
 * when the handler cannot be installed. */
typedef bool (*user_fault_hook)(int sig, siginfo_t *info, void *uctx);
int user_copy_set_fault_hook(user_fault_hook hook);

#endif
