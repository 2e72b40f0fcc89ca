/* The file behind a shared mapping (map_file.h). */
#include "common/map_file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int map_file_open(const void *addr, size_t len, int flags)
{
	char path[96];
	/* the names are the mapping's bounds in lowercase hex, no 0x */
	snprintf(path, sizeof(path), "/proc/self/map_files/%lx-%lx", (unsigned long)(uintptr_t)addr,
		 (unsigned long)((uintptr_t)addr + len));
	int fd = open(path, flags);
	return fd < 0 ? -errno : fd;
}

static bool reopen_works;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

static void probe(void)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = memfd_create("map-file-probe", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, page)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return;
	int again = map_file_open(p, (size_t)page, O_RDWR | O_CLOEXEC);
	reopen_works = again >= 0;
	if (again >= 0)
		close(again);
	munmap(p, (size_t)page);
}

bool map_file_reopen_works(void)
{
	pthread_once(&probe_once, probe);
	return reopen_works;
}
