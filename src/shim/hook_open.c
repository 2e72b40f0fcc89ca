/* Interposed: the open family (with glibc's fortify variants), fopen and
 * fclose (whose close does not go through close()), opendir/scandir, close, close_range, dup, dup2, dup3 and fcntl's
 * F_DUPFD/F_DUPFD_CLOEXEC. Opens of /dev/dri/card0 and renderD128 become
 * gtsim files; paths of the served sysfs tree are rewritten (sysfs.c). */
#include "shim/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/sigdefer.h"
#include "common/trace.h"
#include "gtsim/remote.h"

static int open_path(int dirfd, const char *path, int flags, mode_t mode,
		     int (*realfn)(int, const char *, int, ...))
{
	char buf[PATH_MAX];
	int minor = devnode_minor_for_path(path);
	if (minor >= 0)
		return devnode_open(minor, flags);
	int dyn = debugfs_reopen(path, flags);
	if (dyn != DEBUGFS_NOT_OURS)
		return dyn;
	const char *p = sysfs_redirect(path, buf, sizeof(buf));
	if (p != path)
		TRACE(TRACE_SHIM, "open %s -> %s", path, p);
	int fd = p != path ? debugfs_open(p, flags)
			   : dirfd != AT_FDCWD ? debugfs_open_at(dirfd, path, flags) : DEBUGFS_NOT_OURS;
	if (fd != DEBUGFS_NOT_OURS)
		return fd;
	/* Before the C library's open is known (see real.c), the system call. */
	fd = realfn ? realfn(dirfd, p, flags, mode) : (int)syscall(SYS_openat, dirfd, p, flags, mode);
	if (dirfd == AT_FDCWD)
		procmem_note_open(fd, p);
	return fd;
}

static bool needs_mode(int flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

#define MODE_ARG(flags, mode)                       \
	mode_t mode = 0;                            \
	if (needs_mode(flags)) {                    \
		va_list ap;                         \
		va_start(ap, flags);                \
		mode = va_arg(ap, int);             \
		va_end(ap);                         \
	}

int open(const char *path, int flags, ...)
{
	SIGDEFER_SCOPE;
	MODE_ARG(flags, mode);
	real_init();
	return open_path(AT_FDCWD, path, flags, mode, real.openat);
}

int open64(const char *path, int flags, ...)
{
	SIGDEFER_SCOPE;
	MODE_ARG(flags, mode);
	real_init();
	return open_path(AT_FDCWD, path, flags, mode, real.openat64);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	SIGDEFER_SCOPE;
	MODE_ARG(flags, mode);
	real_init();
	return open_path(dirfd, path, flags, mode, real.openat);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	SIGDEFER_SCOPE;
	MODE_ARG(flags, mode);
	real_init();
	return open_path(dirfd, path, flags, mode, real.openat64);
}

/* _FORTIFY_SOURCE variants: open without a mode argument. */
int __open_2(const char *path, int flags) { return open(path, flags); }
int __open64_2(const char *path, int flags) { return open64(path, flags); }
int __openat_2(int dirfd, const char *path, int flags) { return openat(dirfd, path, flags); }
int __openat64_2(int dirfd, const char *path, int flags) { return openat64(dirfd, path, flags); }

static FILE *fopen_common(const char *path, const char *mode,
			  FILE *(*realfn)(const char *, const char *))
{
	SIGDEFER_SCOPE;
	char buf[PATH_MAX];
	int minor = devnode_minor_for_path(path);
	if (minor >= 0) {
		int fd = devnode_open(minor, O_RDWR | O_CLOEXEC);
		return fd < 0 ? NULL : fdopen(fd, mode);
	}
	if (!realfn) {
		errno = ENOSYS;
		return NULL;
	}
	const char *p = sysfs_redirect(path, buf, sizeof(buf));
	if (p != path && mode) {
		int flags = mode[0] == 'r' ? (strchr(mode, '+') ? O_RDWR : O_RDONLY)
					   : (strchr(mode, '+') ? O_RDWR : O_WRONLY);
		if (strchr(mode, 'e'))
			flags |= O_CLOEXEC;
		int fd = debugfs_open(p, flags);
		if (fd != DEBUGFS_NOT_OURS)
			return fd < 0 ? NULL : fdopen(fd, mode);
	}
	return realfn(p, mode);
}

FILE *fopen(const char *path, const char *mode)
{
	SIGDEFER_SCOPE;
	real_init();
	return fopen_common(path, mode, real.fopen);
}

FILE *fopen64(const char *path, const char *mode)
{
	SIGDEFER_SCOPE;
	real_init();
	return fopen_common(path, mode, real.fopen64);
}

int fclose(FILE *f)
{
	SIGDEFER_SCOPE;
	int fd = f ? fileno(f) : -1;
	if (fd >= 0 && debugfs_is_ours(fd)) {
		fflush(f);
		debugfs_forget(fd);
	}
	if (fd >= 0)
		devnode_forget(fd);
	real_init();
	if (!real.fclose) {
		errno = ENOSYS;
		return EOF;
	}
	return real.fclose(f);
}

DIR *opendir(const char *path)
{
	SIGDEFER_SCOPE;
	char buf[PATH_MAX];
	real_init();
	if (!real.opendir) {
		errno = ENOSYS;
		return NULL;
	}
	return real.opendir(sysfs_redirect(path, buf, sizeof(buf)));
}

int scandir(const char *path, struct dirent ***list, int (*filter)(const struct dirent *),
	    int (*compar)(const struct dirent **, const struct dirent **))
{
	SIGDEFER_SCOPE;
	char buf[PATH_MAX];
	real_init();
	if (!real.scandir) {
		errno = ENOSYS;
		return -1;
	}
	return real.scandir(sysfs_redirect(path, buf, sizeof(buf)), list, filter, compar);
}

int close(int fd)
{
	SIGDEFER_SCOPE;
	bool timeline = devnode_server() && debugfs_is_server_timeline(fd);
	debugfs_forget(fd);
	devnode_forget(fd);
	real_init();
	int r = real.close ? real.close(fd) : (int)syscall(SYS_close, fd);
	if (timeline) {
		/* sw_sync_debugfs_release signals the fences before close
		 * returns: the server's timeline goes now if that was the last */
		int err = errno;
		gtsim_remote_sw_sync_reap(devnode_server());
		errno = err;
	}
	return r;
}

int close_range(unsigned first, unsigned last, int flags)
{
	SIGDEFER_SCOPE;
	if (!(flags & CLOSE_RANGE_CLOEXEC))
		for (unsigned fd = first; fd <= last && fd < 65536; fd++) {
			debugfs_forget((int)fd);
			devnode_forget((int)fd);
		}
	return (int)syscall(SYS_close_range, first, last, flags);
}

int dup(int fd)
{
	SIGDEFER_SCOPE;
	real_init();
	int r = real.dup ? real.dup(fd) : (int)syscall(SYS_dup, fd);
	if (r >= 0)
		devnode_dup(fd, r);
	return r;
}

int dup2(int oldfd, int newfd)
{
	SIGDEFER_SCOPE;
	real_init();
	int r = real.dup2 ? real.dup2(oldfd, newfd) : (int)syscall(SYS_dup2, oldfd, newfd);
	if (r >= 0)
		devnode_dup(oldfd, newfd);
	return r;
}

int dup3(int oldfd, int newfd, int flags)
{
	SIGDEFER_SCOPE;
	real_init();
	int r = real.dup3 ? real.dup3(oldfd, newfd, flags)
			  : (int)syscall(SYS_dup3, oldfd, newfd, flags);
	if (r >= 0)
		devnode_dup(oldfd, newfd);
	return r;
}

/* fcntl's third argument is an int or a pointer; passing it on as a long
 * preserves either (x86-64 calling convention). */
static int fcntl_common(int fd, int cmd, long arg, int (*realfn)(int, int, ...))
{
	int r = realfn ? realfn(fd, cmd, arg) : (int)syscall(SYS_fcntl, fd, cmd, arg);
	if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC))
		devnode_dup(fd, r);
	return r;
}

int fcntl(int fd, int cmd, ...)
{
	SIGDEFER_SCOPE;
	va_list ap;
	va_start(ap, cmd);
	long arg = va_arg(ap, long);
	va_end(ap);
	real_init();
	return fcntl_common(fd, cmd, arg, real.fcntl);
}

int fcntl64(int fd, int cmd, ...)
{
	SIGDEFER_SCOPE;
	va_list ap;
	va_start(ap, cmd);
	long arg = va_arg(ap, long);
	va_end(ap);
	real_init();
	return fcntl_common(fd, cmd, arg, real.fcntl64 ? real.fcntl64 : real.fcntl);
}
