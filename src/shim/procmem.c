/* The process's own memory read or written through /proc/self/mem (as a
 * debugger does, and IGT's gem_mmap_offset oob-read). On i915 the
 * fake-offset mappings (MMAP_OFFSET, MMAP_GTT) are VM_IO | VM_PFNMAP, so
 * Linux's mem_rw (fs/proc/base.c) reaches them through
 * __access_remote_vm (mm/memory.c), which hands the whole rest of its
 * chunk to the mapping's vm_access; i915's refuses a range that runs past
 * the object, and mem_rw turns a chunk with nothing copied into EIO. The
 * shim's mappings are ordinary memory, where Linux would copy what is
 * mapped: so an access of such a descriptor that touches one of them is
 * done here, chunk by chunk as mem_rw does, each fake-offset mapping
 * asked of the kernel model (gtsim_mm_io_access) and the bytes copied by
 * the real system call on the same descriptor. Accesses that touch none
 * go to the system call unchanged. */
#include "shim/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "gtsim/gtsim.h"

#define PROCMEM_FDS 4096
#define CHUNK 4096u   /* mem_rw's buffer: one page a round */

/* descriptors opened on this process's mem file (a hint: checked again
 * before use, since a descriptor may be closed behind the shim's back) */
static unsigned char maybe_mem[PROCMEM_FDS];

static bool is_own_mem_path(const char *path)
{
	if (!strcmp(path, "/proc/self/mem") || !strcmp(path, "/proc/thread-self/mem"))
		return true;
	char own[32];
	snprintf(own, sizeof(own), "/proc/%d/mem", (int)getpid());
	return !strcmp(path, own);
}

void procmem_note_open(int fd, const char *path)
{
	if (fd >= 0 && fd < PROCMEM_FDS && path && is_own_mem_path(path))
		__atomic_store_n(&maybe_mem[fd], 1, __ATOMIC_RELAXED);
}

/* Is fd (still) this process's mem file? A fork child's copy of the
 * descriptor is its parent's memory: not ours. */
static bool own_mem(int fd)
{
	if (fd < 0 || fd >= PROCMEM_FDS || !__atomic_load_n(&maybe_mem[fd], __ATOMIC_RELAXED))
		return false;
	char link[40], target[64], own[32];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = syscall(SYS_readlink, link, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = 0;
	snprintf(own, sizeof(own), "/proc/%d/mem", (int)getpid());
	return !strcmp(target, own);
}

static ssize_t sys_rw(int fd, void *buf, size_t n, uint64_t addr, bool write)
{
	return write ? syscall(SYS_pwrite64, fd, buf, n, (off_t)addr)
		     : syscall(SYS_pread64, fd, buf, n, (off_t)addr);
}

/* __access_remote_vm over one chunk: bytes copied. */
static size_t access_chunk(int fd, char *buf, size_t len, uint64_t addr, bool write)
{
	size_t done = 0;
	while (len) {
		uint64_t end;
		int io = gtsim_mm_io_access(addr, len, &end);
		if (io < 0)
			break;   /* vm_access refused the rest */
		size_t step = end - addr < len ? (size_t)(end - addr) : len;
		ssize_t r = sys_rw(fd, buf + done, step, addr, write);
		if (r <= 0)
			break;
		done += (size_t)r;
		addr += (uint64_t)r;
		len -= (size_t)r;
		if ((size_t)r < step)
			break;
	}
	return done;
}

/* Does [addr, addr + n) touch a fake-offset mapping? */
static bool touches_io(uint64_t addr, size_t n)
{
	uint64_t end;
	return gtsim_mm_io_access(addr, n, &end) != 0 || end - addr < n;
}

/* mem_rw: -1 with errno, or bytes copied. */
static ssize_t mem_rw(int fd, void *buf, size_t count, uint64_t addr, bool write)
{
	size_t copied = 0;
	while (count) {
		size_t len = count < CHUNK ? count : CHUNK;
		size_t n = access_chunk(fd, (char *)buf + copied, len, addr, write);
		if (!n) {
			if (!copied) {
				errno = EIO;
				return -1;
			}
			break;
		}
		copied += n;
		addr += n;
		count -= n;
	}
	return (ssize_t)copied;
}

/* read/write (at the file position) or pread/pwrite (at offset) of fd:
 * *handled false when fd is not this process's mem file or the range
 * touches no fake-offset mapping (the caller makes the system call). */
ssize_t procmem_rw(int fd, void *buf, size_t count, const off_t *offset, bool write,
		   bool *handled)
{
	*handled = false;
	if (!count || !own_mem(fd))
		return 0;
	off_t pos = offset ? *offset : (off_t)syscall(SYS_lseek, fd, 0, SEEK_CUR);
	if (!offset && pos == -1)
		return 0;
	uint64_t addr = (uint64_t)pos;
	if (!touches_io(addr, count))
		return 0;
	*handled = true;
	ssize_t r = mem_rw(fd, buf, count, addr, write);
	if (r > 0 && !offset)
		syscall(SYS_lseek, fd, (off_t)(addr + (uint64_t)r), SEEK_SET);
	return r;
}
