/* Copies between the kernel model and "user" memory named by a client's
 * 64-bit pointer. A bad address gives -EFAULT instead of a crash: the copy
 * goes through process_vm_readv/writev on our own process, which reports
 * unmapped memory as an error (plain memcpy where those calls are not
 * permitted). */
#ifndef GTSIM_SYNC_USER_COPY_H
#define GTSIM_SYNC_USER_COPY_H

#include <stddef.h>
#include <stdint.h>

int copy_from_user_ptr(void *dst, uint64_t user_ptr, size_t size);
int copy_to_user_ptr(uint64_t user_ptr, const void *src, size_t size);

#endif
