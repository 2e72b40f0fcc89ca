/* Copies between gtsim and "user" memory named by a client's 64-bit
 * pointer (the kernel model's copy_{from,to}_user). A bad address gives
 * -EFAULT instead of a crash: the copy is guarded by the process's fault
 * handler (common/sigfault.h), at the cost of a plain copy. Without the
 * handler the copy falls back to process_vm_readv/writev (a few
 * microseconds). */
#ifndef GTSIM_COMMON_USER_COPY_H
#define GTSIM_COMMON_USER_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>

int copy_from_user_ptr(void *dst, uint64_t user_ptr, size_t size);
int copy_to_user_ptr(uint64_t user_ptr, const void *src, size_t size);

/* The device server (kernel/server/) runs a client's ioctl on one of its
 * threads with user memory in the client's process: while pid is set
 * (not 0) the copies of the calling thread go to pid's address space
 * through process_vm_readv/writev, as copy_from_user reaches the calling
 * process; a page that is not there is -EFAULT. 0 goes back to the own
 * process. */
void user_copy_set_remote(pid_t pid);
/* The calling thread's remote pid, 0 when none. */
pid_t user_copy_remote(void);
/* The caller's effective uid is 0: the kernel's capable() checks the
 * calling task's credentials; for a remote caller (above) those of its
 * process (/proc/PID/status), else this process's. */
bool user_caller_is_root(void);

#endif
