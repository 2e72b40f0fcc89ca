/* Interposed: ioctl, mmap/mmap64, munmap, mprotect, mremap and madvise.
 * An ioctl on a DRM node goes to gtsim_ioctl (the kernel model); SYNC_IOC_*
 * on a gtsim sync_file goes to the sync unit; an mmap of the PCI BAR's
 * resource0 file becomes an emulated register window (bar_mmio.c);
 * everything else reaches the real system call. Whatever changes a range
 * of the address space (MAP_FIXED, munmap, mprotect, mremap, madvise that
 * drops pages) first tells the kernel model's mmu notifier
 * (gtsim_mm_invalidate: userptr objects there). */
#include "shim/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/sigdefer.h"
#include "common/trace.h"
#include "common/user_copy.h"
#include "gtsim/gtsim.h"
#include "gtsim/remote.h"

/* The argument struct goes through a copy, as drm_ioctl() does it: the
 * _IOC_SIZE bytes are read from the program if the request says _IOC_WRITE
 * (zeros otherwise), and written back after the call if it says _IOC_READ.
 * A bad pointer is then -EFAULT (on copy-out, after the ioctl took effect,
 * as in the kernel) instead of a fault inside the model. */
struct ioctl_call {
	int conn;                  /* >= 0: a node on the device server, this connection */
	struct gtsim_file *file;   /* NULL: a sync_file, sw_sync or dma-buf ioctl on fd */
	int fd;
	struct gtsim_sw_timeline *timeline;   /* a sw_sync ioctl */
	bool dmabuf;               /* a dma-buf ioctl */
	bool server_fd;            /* shared mode: an ioctl on a descriptor of the server's */
	/* a sw_sync timeline found by its inode: this process's own, or its
	 * fork-sharing server's (timeline_by_inode) */
	int (*timeline_ioctl)(int fd, unsigned long request, void *arg);
};

/* The descriptor's status flags where the model reads them: execbuf's
 * O_NONBLOCK (i915's eb_pin_timeline); one fcntl, not made for the
 * others. */
static int status_flags(int fd, unsigned long request)
{
	if (_IOC_TYPE(request) != DRM_IOCTL_BASE ||
	    _IOC_NR(request) != _IOC_NR(DRM_IOCTL_I915_GEM_EXECBUFFER2))
		return 0;
	real_init();
	int fl = real.fcntl ? real.fcntl(fd, F_GETFL) : (int)syscall(SYS_fcntl, fd, F_GETFL);
	return fl < 0 ? 0 : fl;
}

static int call_model(const struct ioctl_call *c, unsigned long request, void *arg)
{
	if (c->conn >= 0)
		return arg || !_IOC_SIZE(request)
			       ? gtsim_remote_ioctl_flags(c->conn, request, arg,
							  status_flags(c->fd, request))
			       : -EFAULT;
	if (c->server_fd)
		return arg || !_IOC_SIZE(request)
			       ? gtsim_remote_fd_ioctl(devnode_server(), c->fd, request, arg) : -EFAULT;
	if (c->file)
		return gtsim_ioctl_flags(c->file, request, arg, status_flags(c->fd, request));
	if (c->timeline)
		return gtsim_sw_sync_ioctl(c->timeline, request, arg);
	if (c->timeline_ioctl)
		return c->timeline_ioctl(c->fd, request, arg);
	if (c->dmabuf)
		return gtsim_dmabuf_ioctl(devnode_device(), c->fd, request, arg);
	return gtsim_sync_file_ioctl(c->fd, request, arg);
}

static int copied_ioctl(const struct ioctl_call *c, unsigned long request, void *arg)
{
	size_t size = _IOC_SIZE(request);
	if (size == 0)
		return call_model(c, request, arg);
	_Alignas(16) unsigned char small[256];
	unsigned char *kdata = small;
	bool copy_in = _IOC_DIR(request) & _IOC_WRITE;
	if (size <= sizeof(small))   /* what the copy does not fill */
		memset(small + (copy_in ? size : 0), 0, sizeof(small) - (copy_in ? size : 0));
	else if (!(kdata = calloc(1, size)))
		return -ENOMEM;
	int ret;
	if (copy_in && copy_from_user_ptr(kdata, (uintptr_t)arg, size)) {
		/* As drm_ioctl: an unknown number is refused before the copy;
		 * the model answers -ENOTTY for it and -EFAULT for a NULL
		 * argument of a known one. */
		ret = call_model(c, request, NULL);
	} else {
		ret = call_model(c, request, kdata);
		/* drm_ioctl copies the struct out whatever the result (an
		 * interrupted GEM_WAIT's shortened timeout_ns reaches the
		 * restart); sync_file ioctls only on success */
		if ((ret >= 0 || c->file || c->conn >= 0) && (_IOC_DIR(request) & _IOC_READ) &&
		    copy_to_user_ptr((uintptr_t)arg, kdata, size))
			ret = -EFAULT;
	}
	if (kdata != small)
		free(kdata);
	return ret;
}

static bool is_fifo(int fd)
{
	struct stat st;
	return real.fstat && !real.fstat(fd, &st) && S_ISFIFO(st.st_mode);
}

/* Shared mode: the descriptors the server hands out are sync_files and
 * syncobj fds (pipes), dma-bufs (memfds) and sw_sync timelines (pipes):
 * their ioctls go to the server with the descriptor. 'W' is also the
 * watchdog's type: only on a pipe, or on an in-process timeline's memfd
 * (a fork-sharing child's, inherited or passed from its parent, whose
 * server resolves it: docs/shared-device.md "Fork sharing"). */
static bool server_fd_ioctl(int fd, unsigned long request)
{
	if (_IOC_TYPE(request) == SYNC_IOC_MAGIC || _IOC_TYPE(request) == DMA_BUF_BASE)
		return true;
	return _IOC_TYPE(request) == 'W' && (is_fifo(fd) || debugfs_is_process_timeline(fd));
}

/* With a device of its own, a sw_sync ioctl on a timeline that is not
 * the descriptor debugfs.c opened: a copy of one of this process's (dup,
 * SCM_RIGHTS), or a timeline its fork-sharing server made for a child
 * that passed it back (a pipe). NULL: neither kind. */
static int (*timeline_by_inode(int fd))(int, unsigned long, void *)
{
	if (debugfs_is_process_timeline(fd))
		return debugfs_own_timeline_ioctl;
	return is_fifo(fd) ? fork_share_timeline_ioctl : NULL;
}

/* An interrupted wait restarts as the kernel's system call return does:
 * after the handlers, when all have SA_RESTART; else EINTR. */
static int restarted_ioctl(const struct ioctl_call *c, unsigned long request, void *arg)
{
	int ret;
	while ((ret = copied_ioctl(c, request, arg)) == -GTSIM_ERESTARTSYS)
		if (!sigdefer_restart())
			return -EINTR;
	return ret;
}

static int ioctl_result(int ret)
{
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}

int ioctl(int fd, unsigned long request, ...)
{
	SIGDEFER_SCOPE;
	va_list ap;
	va_start(ap, request);
	void *arg = va_arg(ap, void *);
	va_end(ap);

	struct node_open *held;
	struct ioctl_call call = { devnode_remote_acquire(fd, &held), NULL, fd, NULL, false, false,
				   NULL };
	if (call.conn != -1) {
		/* forwarded to the device server; a handler that runs while
		 * the reply is awaited interrupts the server's wait
		 * (GTSIM_WIRE_CANCEL), which then restarts or fails as below */
		remote_userptr_before(request, arg);
		int ret = call.conn >= 0 ? restarted_ioctl(&call, request, arg) : -EIO;
		remote_userptr_after(request, arg, ret);
		devnode_release(held);
		TRACE(TRACE_SHIM, "ioctl fd %d nr 0x%02x (server) -> %d", fd,
		      (unsigned)_IOC_NR(request), ret);
		return ioctl_result(ret);
	}
	call.file = devnode_acquire(fd, &held);
	if (call.file) {
		int ret = restarted_ioctl(&call, request, arg);
		devnode_release(held);
		TRACE(TRACE_SHIM, "ioctl fd %d nr 0x%02x -> %d", fd, (unsigned)_IOC_NR(request), ret);
		return ioctl_result(ret);
	}
	if (devnode_server() && server_fd_ioctl(fd, request)) {
		/* a sync_file, dma-buf or sw_sync timeline of the server's */
		call.server_fd = true;
		int ret = copied_ioctl(&call, request, arg);
		TRACE(TRACE_SHIM, "ioctl type '%c' nr %u on fd %d (server) -> %d",
		      (char)_IOC_TYPE(request), (unsigned)_IOC_NR(request), fd, ret);
		return ioctl_result(ret);
	}
	if (_IOC_TYPE(request) == SYNC_IOC_MAGIC && gtsim_is_sync_fd(fd)) {
		int ret = copied_ioctl(&call, request, arg);
		TRACE(TRACE_SHIM, "sync_file ioctl fd %d nr %u -> %d", fd,
		      (unsigned)_IOC_NR(request), ret);
		return ioctl_result(ret);
	}
	if (_IOC_TYPE(request) == 'W' && (call.timeline = debugfs_sw_timeline(fd))) {
		int ret = copied_ioctl(&call, request, arg);
		TRACE(TRACE_SHIM, "sw_sync ioctl fd %d nr %u -> %d", fd, (unsigned)_IOC_NR(request),
		      ret);
		return ioctl_result(ret);
	}
	if (_IOC_TYPE(request) == 'W' && !devnode_server() &&
	    (call.timeline_ioctl = timeline_by_inode(fd))) {
		int ret = copied_ioctl(&call, request, arg);
		TRACE(TRACE_SHIM, "sw_sync ioctl fd %d nr %u (by inode) -> %d", fd,
		      (unsigned)_IOC_NR(request), ret);
		return ioctl_result(ret);
	}
	if (_IOC_TYPE(request) == DMA_BUF_BASE && devnode_device() && shim_is_dmabuf(fd)) {
		call.dmabuf = true;
		int ret = copied_ioctl(&call, request, arg);
		TRACE(TRACE_SHIM, "dma-buf ioctl fd %d nr %u -> %d", fd,
		      (unsigned)_IOC_NR(request), ret);
		return ioctl_result(ret);
	}
	real_init();
	return real.ioctl ? real.ioctl(fd, request, arg)
			  : (int)syscall(SYS_ioctl, fd, request, arg);
}

static void *mmap_common(void *addr, size_t len, int prot, int flags, int fd, off_t off,
			 void *(*realfn)(void *, size_t, int, int, int, off_t))
{
	if (flags & MAP_FIXED) {
		gtsim_mm_invalidate(addr, len);
		gtsim_gtt_views_forget(addr, len);
	}
	struct node_open *held;
	int conn = devnode_remote_acquire(fd, &held);
	if (conn != -1) {
		void *p = MAP_FAILED;
		if (conn >= 0)
			p = gtsim_remote_mmap(conn, addr, len, prot, flags, (uint64_t)off);
		else
			errno = EIO;
		int err = errno;
		devnode_release(held);
		TRACE(TRACE_SHIM, "mmap fd %d offset 0x%llx len %zu (server) -> %p", fd,
		      (unsigned long long)off, len, p);
		errno = err;
		return p;
	}
	struct gtsim_file *file = devnode_acquire(fd, &held);
	if (file) {
		void *p = gtsim_mmap(file, addr, len, prot, flags, (uint64_t)off);
		devnode_release(held);
		TRACE(TRACE_SHIM, "mmap fd %d offset 0x%llx len %zu -> %p", fd,
		      (unsigned long long)off, len, p);
		return p;
	}
	if (!(flags & MAP_ANONYMOUS) && sysfs_is_bar0_fd(fd))
		return bar_mmio_map(addr, len, prot, flags, off);
	struct stat st;
	if (!(flags & MAP_ANONYMOUS) && devnode_device() && shim_is_dmabuf(fd) && !fstat(fd, &st)) {
		/* dma_buf_mmap_internal(): pages past the buffer are -EINVAL (an
		 * exported object's memfd is the object's size; the model's own
		 * mmap of it, with dev->lock held, also comes here). Only in a
		 * process with a device: the readlink stays off other mmaps. */
		uint64_t pages = (len + 4095) / 4096;
		if (off < 0 || (uint64_t)off / 4096 + pages > (uint64_t)st.st_size / 4096) {
			errno = EINVAL;
			return MAP_FAILED;
		}
	}
	if (flags & MAP_FIXED)
		bar_mmio_forget(addr, len);
	if (realfn)
		return realfn(addr, len, prot, flags, fd, off);
	return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	SIGDEFER_SCOPE;
	real_init();
	return mmap_common(addr, len, prot, flags, fd, off, real.mmap);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	SIGDEFER_SCOPE;
	real_init();
	return mmap_common(addr, len, prot, flags, fd, off, real.mmap64 ? real.mmap64 : real.mmap);
}

int munmap(void *addr, size_t len)
{
	SIGDEFER_SCOPE;
	real_init();
	gtsim_mm_invalidate(addr, len);
	gtsim_gtt_views_forget(addr, len);
	bar_mmio_forget(addr, len);
	return real.munmap ? real.munmap(addr, len) : (int)syscall(SYS_munmap, addr, len);
}

int mprotect(void *addr, size_t len, int prot)
{
	SIGDEFER_SCOPE;
	real_init();
	gtsim_mm_invalidate(addr, len);
	gtsim_gtt_views_forget(addr, len);
	int r = real.mprotect ? real.mprotect(addr, len, prot)
			      : (int)syscall(SYS_mprotect, addr, len, prot);
	if (r == 0)
		bar_mmio_keep_protected(addr, len);
	return r;
}

void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	SIGDEFER_SCOPE;
	void *new_addr = NULL;
	if (flags & MREMAP_FIXED) {
		va_list ap;
		va_start(ap, flags);
		new_addr = va_arg(ap, void *);
		va_end(ap);
		gtsim_mm_invalidate(new_addr, new_len);
		gtsim_gtt_views_forget(new_addr, new_len);
	}
	real_init();
	gtsim_mm_invalidate(old, old_len);
	gtsim_gtt_views_forget(old, old_len);
	if (real.mremap)
		return real.mremap(old, old_len, new_len, flags, new_addr);
	return (void *)syscall(SYS_mremap, old, old_len, new_len, flags, new_addr);
}

int madvise(void *addr, size_t len, int advice)
{
	SIGDEFER_SCOPE;
	/* The advice that drops pages (zap_page_range) fires the notifier. */
	if (advice == MADV_DONTNEED || advice == MADV_FREE || advice == MADV_REMOVE)
		gtsim_mm_invalidate(addr, len);
	real_init();
	return real.madvise ? real.madvise(addr, len, advice)
			    : (int)syscall(SYS_madvise, addr, len, advice);
}
