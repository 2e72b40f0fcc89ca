/* Interposed: the stat family (stat, lstat, fstat, fstatat, their 64-bit
 * names, glibc's older __xstat entry points, statx), access/faccessat/
 * eaccess, readlink/readlinkat and realpath. /dev/dri/card0 and renderD128
 * (and descriptors opened from them) are char devices 226:0 and 226:128;
 * paths of the served sysfs tree are rewritten (sysfs.c). */
#include "shim/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/sigdefer.h"

_Static_assert(sizeof(struct stat) == sizeof(struct stat64),
	       "stat and stat64 share one layout on this ABI");

#define REDIRECT(path) sysfs_redirect(path, redirect_buf, sizeof(redirect_buf))

static int stat_path(const char *path, struct stat *st, bool follow)
{
	char redirect_buf[PATH_MAX];
	SHIM_MAYBE_NULL(path);
	int minor = devnode_minor_for_path(path);
	if (minor >= 0) {
		devnode_fill_stat(minor, st);
		return 0;
	}
	real_init();
	const char *p = REDIRECT(path);
	if (follow && real.stat)
		return real.stat(p, st);
	if (!follow && real.lstat)
		return real.lstat(p, st);
	return (int)syscall(SYS_newfstatat, AT_FDCWD, p, st, follow ? 0 : AT_SYMLINK_NOFOLLOW);
}

static int stat_fd(int fd, struct stat *st)
{
	int minor = devnode_fd_minor(fd);
	if (minor >= 0) {
		devnode_fill_stat(minor, st);
		return 0;
	}
	real_init();
	return real.fstat ? real.fstat(fd, st) : (int)syscall(SYS_fstat, fd, st);
}

/* With AT_EMPTY_PATH an empty (or, since Linux 6.11, NULL) path names
 * dirfd itself. */
static int stat_at(int dirfd, const char *path, struct stat *st, int flags)
{
	char redirect_buf[PATH_MAX];
	SHIM_MAYBE_NULL(path);
	if ((!path || !path[0]) && (flags & AT_EMPTY_PATH))
		return stat_fd(dirfd, st);
	if (path && path[0] == '/') {
		int minor = devnode_minor_for_path(path);
		if (minor >= 0) {
			devnode_fill_stat(minor, st);
			return 0;
		}
		path = REDIRECT(path);
	}
	real_init();
	return real.fstatat ? real.fstatat(dirfd, path, st, flags)
			    : (int)syscall(SYS_newfstatat, dirfd, path, st, flags);
}

int stat(const char *path, struct stat *st) { return stat_path(path, st, true); }
int stat64(const char *path, struct stat64 *st) { return stat_path(path, (struct stat *)st, true); }
int lstat(const char *path, struct stat *st) { return stat_path(path, st, false); }
int lstat64(const char *path, struct stat64 *st) { return stat_path(path, (struct stat *)st, false); }
int fstat(int fd, struct stat *st) { return stat_fd(fd, st); }
int fstat64(int fd, struct stat64 *st) { return stat_fd(fd, (struct stat *)st); }
int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	SIGDEFER_SCOPE;
	return stat_at(dirfd, path, st, flags);
}
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	SIGDEFER_SCOPE;
	return stat_at(dirfd, path, (struct stat *)st, flags);
}

/* glibc < 2.33 compiled programs call these (the version argument is
 * _STAT_VER, one layout on x86-64). */
int __xstat(int ver, const char *path, struct stat *st) { (void)ver; return stat_path(path, st, true); }
int __xstat64(int ver, const char *path, struct stat64 *st) { (void)ver; return stat_path(path, (struct stat *)st, true); }
int __lxstat(int ver, const char *path, struct stat *st) { (void)ver; return stat_path(path, st, false); }
int __lxstat64(int ver, const char *path, struct stat64 *st) { (void)ver; return stat_path(path, (struct stat *)st, false); }
int __fxstat(int ver, int fd, struct stat *st) { (void)ver; return stat_fd(fd, st); }
int __fxstat64(int ver, int fd, struct stat64 *st) { (void)ver; return stat_fd(fd, (struct stat *)st); }
int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags)
{
	SIGDEFER_SCOPE;
	(void)ver;
	return stat_at(dirfd, path, st, flags);
}
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags)
{
	SIGDEFER_SCOPE;
	(void)ver;
	return stat_at(dirfd, path, (struct stat *)st, flags);
}

int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *stx)
{
	SIGDEFER_SCOPE;
	char redirect_buf[PATH_MAX];
	SHIM_MAYBE_NULL(path);
	int minor = -1;
	if ((!path || !path[0]) && (flags & AT_EMPTY_PATH))
		minor = devnode_fd_minor(dirfd);
	else if (path && path[0] == '/' && (minor = devnode_minor_for_path(path)) < 0)
		path = REDIRECT(path);
	if (minor >= 0) {
		devnode_fill_statx(minor, stx);
		return 0;
	}
	real_init();
	return real.statx ? real.statx(dirfd, path, flags, mask, stx)
			  : (int)syscall(SYS_statx, dirfd, path, flags, mask, stx);
}

int access(const char *path, int mode)
{
	SIGDEFER_SCOPE;
	char redirect_buf[PATH_MAX];
	if (devnode_minor_for_path(path) >= 0)
		return (mode & X_OK) ? (errno = EACCES, -1) : 0;
	real_init();
	return real.access ? real.access(REDIRECT(path), mode)
			   : (int)syscall(SYS_faccessat, AT_FDCWD, REDIRECT(path), mode);
}

int eaccess(const char *path, int mode)
{
	SIGDEFER_SCOPE;
	char redirect_buf[PATH_MAX];
	if (devnode_minor_for_path(path) >= 0)
		return (mode & X_OK) ? (errno = EACCES, -1) : 0;
	real_init();
	return real.eaccess ? real.eaccess(REDIRECT(path), mode) : access(path, mode);
}

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	SIGDEFER_SCOPE;
	char redirect_buf[PATH_MAX];
	SHIM_MAYBE_NULL(path);
	if (path && path[0] == '/') {
		if (devnode_minor_for_path(path) >= 0)
			return (mode & X_OK) ? (errno = EACCES, -1) : 0;
		path = REDIRECT(path);
	}
	real_init();
	return real.faccessat ? real.faccessat(dirfd, path, mode, flags)
			      : (int)syscall(SYS_faccessat, dirfd, path, mode);
}

ssize_t readlink(const char *path, char *buf, size_t size)
{
	SIGDEFER_SCOPE;
	char redirect_buf[PATH_MAX];
	real_init();
	if (!real.readlink) {
		errno = ENOSYS;
		return -1;
	}
	/* /proc/self/fd/N of a node links to the node's path. */
	SHIM_MAYBE_NULL(path);
	int minor = path && strncmp(path, "/dev/dri/", 9) ? devnode_minor_for_path(path) : -1;
	if (minor >= 0) {
		const char *target = devnode_path(minor);
		size_t n = strlen(target) < size ? strlen(target) : size;
		memcpy(buf, target, n);
		return (ssize_t)n;
	}
	return real.readlink(REDIRECT(path), buf, size);
}

ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size)
{
	SIGDEFER_SCOPE;
	char redirect_buf[PATH_MAX];
	SHIM_MAYBE_NULL(path);
	real_init();
	if (!real.readlinkat) {
		errno = ENOSYS;
		return -1;
	}
	if (path && path[0] == '/')
		path = REDIRECT(path);
	return real.readlinkat(dirfd, path, buf, size);
}

/* realpath of a served path resolves inside the temporary tree; the
 * result is given back as the /sys path a client expects. */
char *realpath(const char *path, char *resolved)
{
	SIGDEFER_SCOPE;
	char redirect_buf[PATH_MAX];
	real_init();
	if (!real.realpath) {
		errno = ENOSYS;
		return NULL;
	}
	int minor = devnode_minor_for_path(path);
	if (minor >= 0) {
		char *out = resolved ? resolved : malloc(PATH_MAX);
		if (out)
			snprintf(out, PATH_MAX, "%s", devnode_path(minor));
		return out;
	}
	const char *p = REDIRECT(path);
	if (p == path)
		return real.realpath(path, resolved);
	char *r = real.realpath(p, NULL);
	if (!r)
		return NULL;
	sysfs_unredirect(r);
	if (!resolved)
		return r;
	snprintf(resolved, PATH_MAX, "%s", r);
	free(r);
	return resolved;
}

char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen)
{
	SIGDEFER_SCOPE;
	(void)resolvedlen;
	return realpath(path, resolved);
}

char *canonicalize_file_name(const char *path)
{
	SIGDEFER_SCOPE;
	return realpath(path, NULL);
}

