#include "kernel/sync/user_copy.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static int copy_self(void *local, uint64_t remote, size_t size, int to_user)
{
	if (size == 0)
		return 0;
	if (remote == 0 || remote + size < remote)
		return -EFAULT;
	struct iovec l = { local, size };
	struct iovec r = { (void *)(uintptr_t)remote, size };
	ssize_t n = to_user ? process_vm_writev(getpid(), &l, 1, &r, 1, 0)
			    : process_vm_readv(getpid(), &l, 1, &r, 1, 0);
	if (n == (ssize_t)size)
		return 0;
	if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
		if (to_user)
			memcpy((void *)(uintptr_t)remote, local, size);
		else
			memcpy(local, (const void *)(uintptr_t)remote, size);
		return 0;
	}
	return -EFAULT;
}

int copy_from_user_ptr(void *dst, uint64_t user_ptr, size_t size)
{
	return copy_self(dst, user_ptr, size, 0);
}

int copy_to_user_ptr(uint64_t user_ptr, const void *src, size_t size)
{
	return copy_self((void *)src, user_ptr, size, 1);
}
