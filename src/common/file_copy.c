/* Hole-aware file copy (file_copy.h): lseek(SEEK_DATA / SEEK_HOLE), which
 * tmpfs (memfds) answers page by page, finds the data extents. The system
 * call itself: an interposed lseek (the shim's, for dma-bufs) refuses
 * these whences. */
#include "common/file_copy.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

static off_t sys_lseek(int fd, off_t offset, int whence)
{
	return (off_t)syscall(SYS_lseek, fd, offset, whence);
}

static int copy_extent(int dst, off_t dst_off, int src, off_t src_off, off_t len)
{
	char buf[65536];
	while (len > 0) {
		size_t want = len < (off_t)sizeof(buf) ? (size_t)len : sizeof(buf);
		ssize_t n = pread(src, buf, want, src_off);
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		if (pwrite(dst, buf, (size_t)n, dst_off) != n)
			return -EIO;
		src_off += n;
		dst_off += n;
		len -= n;
	}
	return 0;
}

int file_copy_data(int dst, off_t dst_off, int src, off_t src_off, off_t len)
{
	const off_t end = src_off + len;
	off_t at = src_off;
	while (at < end) {
		off_t data = sys_lseek(src, at, SEEK_DATA);
		if (data < 0)
			return errno == ENXIO ? 0 : -errno;   /* only a hole is left */
		if (data >= end)
			return 0;
		off_t hole = sys_lseek(src, data, SEEK_HOLE);
		if (hole < 0)
			return -errno;
		if (hole > end)
			hole = end;
		int err = copy_extent(dst, dst_off + (data - src_off), src, data, hole - data);
		if (err)
			return err;
		at = hole;
	}
	return 0;
}
