/* Copies between gtsim and "user" memory named by a client's 64-bit
 * pointer (the kernel model's copy_{from,to}_user). A bad address gives
 * -EFAULT instead of a crash: the copy is guarded by the process's fault
 * handler (common/sigfault.h), at the cost of a plain copy. Without the
 * handler the copy falls back to process_vm_readv/writev (a few
 * microseconds). */
#ifndef GTSIM_COMMON_USER_COPY_H
#define GTSIM_COMMON_USER_COPY_H

#include <stddef.h>
#include <stdint.h>

int copy_from_user_ptr(void *dst, uint64_t user_ptr, size_t size);
int copy_to_user_ptr(uint64_t user_ptr, const void *src, size_t size);

#endif
