/* /proc/self/mem over GEM mappings, as on i915 (Linux 6.1): a mapping made
 * through a fake offset (MMAP_OFFSET, MMAP_GTT) is VM_IO | VM_PFNMAP, so an
 * access through /proc/self/mem (fs/proc/base.c mem_rw, one page-sized
 * chunk a round) reaches it through __access_remote_vm, which gives the
 * mapping's vm_access the whole rest of the chunk; i915's vm_access
 * (gem/i915_gem_mman.c) refuses it with -EINVAL when offset + len runs
 * past the object, and mem_rw answers EIO when a chunk copied nothing
 * (else a short count). Ordinary memory is read page by page up to the
 * first page that fails. The expected counts below follow those rules by
 * hand for a 2-page object mapped at obj, an ordinary page before it and a
 * hole after it:
 *
 *   pread  8 at obj + 8188       0 copied -> EIO  (IGT gem_mmap_offset oob-read)
 *   pread  8 at obj + 4092       8 (one vm_access over the page boundary)
 *   pread  8192 at obj           8192
 *   pread  4096 at obj + 4100    EIO (4100 + 4096 > 8192; a plain read: 4092)
 *   pread  16 at obj - 8         16 (8 ordinary, then vm_access(obj, 8))
 *   pread  8200 at obj + 8       4096: the first chunk (obj + 8, 4096) fits,
 *                                the second (obj + 4104, 4096) runs past
 *                                the object: a short count
 *   pwrite 8 at obj + 8188       EIO, object unchanged
 *   pwrite 4 at obj + 8188       4, the object's last dword written
 *   read after lseek             the file position moves by the count
 * and a read of a malloc'd block passes through unchanged. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shim_gem.h"
#include "test.h"

#define PAGE 4096

static ssize_t rd(int mem, void *buf, size_t n, const char *at)
{
	return pread(mem, buf, n, (off_t)(uintptr_t)at);
}

int main(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	uint32_t h = shim_gem_create(fd, 2 * PAGE);
	struct drm_i915_gem_mmap_offset mo = { .handle = h, .flags = I915_MMAP_OFFSET_WB };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	/* [ordinary page][object: 2 pages][hole] */
	char *area = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(area != MAP_FAILED);
	char *obj = mmap(area + PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
			 (off_t)mo.offset);
	CHECK(obj == area + PAGE);
	CHECK_EQ(munmap(area + 3 * PAGE, PAGE), 0);
	if (obj != area + PAGE)
		return test_exit();
	for (int i = 0; i < 2 * PAGE; i++)
		obj[i] = (char)(i * 7 + 1);
	memset(area, 0x5a, PAGE);

	int mem = open("/proc/self/mem", O_RDWR);
	CHECK(mem >= 0);
	char buf[3 * PAGE];
	errno = 0;
	CHECK_EQ(rd(mem, buf, 8, obj + 8188), -1);
	CHECK_EQ(errno, EIO);
	CHECK_EQ(rd(mem, buf, 8, obj + 4092), 8);
	CHECK_EQ(memcmp(buf, obj + 4092, 8), 0);
	CHECK_EQ(rd(mem, buf, 2 * PAGE, obj), 2 * PAGE);
	CHECK_EQ(memcmp(buf, obj, 2 * PAGE), 0);
	errno = 0;
	CHECK_EQ(rd(mem, buf, PAGE, obj + 4100), -1);
	CHECK_EQ(errno, EIO);
	memset(buf, 0, sizeof(buf));
	CHECK_EQ(rd(mem, buf, 16, obj - 8), 16);
	CHECK_EQ(memcmp(buf, "\x5a\x5a\x5a\x5a\x5a\x5a\x5a\x5a", 8), 0);
	CHECK_EQ(memcmp(buf + 8, obj, 8), 0);
	CHECK_EQ(rd(mem, buf, 8200, obj + 8), 4096);
	CHECK_EQ(memcmp(buf, obj + 8, 4096), 0);

	/* writes: refused past the object, else into it */
	char last[4] = { obj[8188], obj[8189], obj[8190], obj[8191] };
	errno = 0;
	CHECK_EQ(pwrite(mem, "ABCDEFGH", 8, (off_t)(uintptr_t)(obj + 8188)), -1);
	CHECK_EQ(errno, EIO);
	CHECK_EQ(memcmp(obj + 8188, last, 4), 0);
	CHECK_EQ(pwrite(mem, "WXYZ", 4, (off_t)(uintptr_t)(obj + 8188)), 4);
	CHECK_EQ(memcmp(obj + 8188, "WXYZ", 4), 0);

	/* read(2) at the file position, which moves by the count */
	CHECK_EQ(lseek(mem, (off_t)(uintptr_t)(obj + 100), SEEK_SET), (off_t)(uintptr_t)(obj + 100));
	CHECK_EQ(read(mem, buf, 8), 8);
	CHECK_EQ(memcmp(buf, obj + 100, 8), 0);
	CHECK_EQ(lseek(mem, 0, SEEK_CUR), (off_t)(uintptr_t)(obj + 108));
	CHECK_EQ(lseek(mem, (off_t)(uintptr_t)(obj + 8188), SEEK_SET),
		 (off_t)(uintptr_t)(obj + 8188));
	errno = 0;
	CHECK_EQ(read(mem, buf, 8), -1);
	CHECK_EQ(errno, EIO);
	CHECK_EQ(lseek(mem, 0, SEEK_CUR), (off_t)(uintptr_t)(obj + 8188));

	/* ordinary memory: Linux's own answer */
	char *heap = malloc(64);
	memset(heap, 0x33, 64);
	CHECK_EQ(rd(mem, buf, 64, heap), 64);
	CHECK_EQ(memcmp(buf, heap, 64), 0);
	free(heap);

	close(mem);
	munmap(area, 3 * PAGE);
	close(fd);
	return test_exit();
}
