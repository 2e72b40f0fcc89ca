/* Interposed: write. A write(2) on a served debugfs, module-parameter or
 * engine file is applied at once, and a value the kernel model refuses
 * fails the write with its errno, as kernfs's store does (IGT's
 * igt_params_set and igt_sysfs_set check the write; before, the value was
 * applied at close and its error lost). A write of the process's own
 * /proc/self/mem goes through procmem.c. Every other descriptor goes
 * straight to the system call. */
#include <errno.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shim.h"

ssize_t write(int fd, const void *buf, size_t n)
{
	if (debugfs_is_ours(fd)) {
		bool handled;
		ssize_t r = debugfs_write(fd, buf, n, &handled);
		if (handled) {
			if (r < 0) {
				errno = (int)-r;
				return -1;
			}
			return r;
		}
	}
	bool mem;
	ssize_t r = procmem_rw(fd, (void *)buf, n, NULL, true, &mem);
	if (mem)
		return r;
	return syscall(SYS_write, fd, buf, n);
}
