/* Interposed: read, pread, pread64, pwrite, pwrite64 (write is in
 * hook_write.c), for the process's own /proc/self/mem (procmem.c); every
 * other descriptor goes straight to the system call. */
#include "shim/shim.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

static ssize_t procmem_or(int fd, void *buf, size_t n, const off_t *offset, bool write,
			  long nr)
{
	bool handled;
	ssize_t r = procmem_rw(fd, buf, n, offset, write, &handled);
	if (handled)
		return r;
	return offset ? syscall(nr, fd, buf, n, *offset) : syscall(nr, fd, buf, n);
}

ssize_t read(int fd, void *buf, size_t n)
{
	return procmem_or(fd, buf, n, NULL, false, SYS_read);
}

ssize_t pread(int fd, void *buf, size_t n, off_t offset)
{
	return procmem_or(fd, buf, n, &offset, false, SYS_pread64);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t offset)
{
	return procmem_or(fd, buf, n, &offset, false, SYS_pread64);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t offset)
{
	return procmem_or(fd, (void *)buf, n, &offset, true, SYS_pwrite64);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t offset)
{
	return procmem_or(fd, (void *)buf, n, &offset, true, SYS_pwrite64);
}
