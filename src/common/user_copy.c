/* User copies that survive bad pointers (user_copy.h): a guarded copy
 * (sigfault.h), or, when the fault handler cannot be installed, a copy
 * through process_vm_readv/writev on our own process, which reports
 * unmapped memory as an error but costs a system call with page pinning. */
#include "common/user_copy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/sigfault.h"

static _Thread_local pid_t remote_pid;

void user_copy_set_remote(pid_t pid)
{
	remote_pid = pid;
}

pid_t user_copy_remote(void)
{
	return remote_pid;
}

bool user_caller_is_root(void)
{
	if (!remote_pid)
		return geteuid() == 0;
	char path[32], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)remote_pid);
	FILE *f = fopen(path, "re");
	unsigned long real_uid, euid = 1;
	bool found = false;
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "Uid: %lu %lu", &real_uid, &euid) == 2;
	if (f)
		fclose(f);
	return found && euid == 0;
}

/* Another process's memory: all of it or -EFAULT (no fallback: its memory
 * is not ours to memcpy). */
static int copy_remote(void *local, uint64_t remote, size_t size, int to_user)
{
	struct iovec l = { local, size };
	struct iovec r = { (void *)(uintptr_t)remote, size };
	ssize_t n = to_user ? process_vm_writev(remote_pid, &l, 1, &r, 1, 0)
			    : process_vm_readv(remote_pid, &l, 1, &r, 1, 0);
	return n == (ssize_t)size ? 0 : -EFAULT;
}

static int copy_syscall(void *local, uint64_t remote, size_t size, int to_user)
{
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

static int copy_user(void *local, uint64_t remote, size_t size, int to_user)
{
	if (size == 0)
		return 0;
	if (remote == 0 || remote + size < remote || remote + size > UINTPTR_MAX)
		return -EFAULT;
	if (remote_pid)
		return copy_remote(local, remote, size, to_user);
	if (!sigfault_available())
		return copy_syscall(local, remote, size, to_user);
	void *user = (void *)(uintptr_t)remote;
	return to_user ? sigfault_copy(user, local, size) : sigfault_copy(local, user, size);
}

int copy_from_user_ptr(void *dst, uint64_t user_ptr, size_t size)
{
	return copy_user(dst, user_ptr, size, 0);
}

int copy_to_user_ptr(uint64_t user_ptr, const void *src, size_t size)
{
	return copy_user((void *)src, user_ptr, size, 1);
}
