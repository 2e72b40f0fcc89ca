/* The files of the served debugfs (/sys/kernel/debug/dri/<minor>/NAME,
 * .../i915_params/NAME), of /sys/module/i915/parameters/ and card0's
 * sysfs `error` (the error state; a write clears it) whose
 * contents are the kernel model's (gtsim_debugfs_*, gtsim_param_*): they
 * exist in the temporary tree (sysfs.c) so that stat, access and readdir
 * see them, and an open of one gives a memfd instead of the tree's file:
 * filled with the text a read gives now when opened for reading, empty
 * when opened write-only. A write(2) of the program is applied at once, as
 * kernfs applies each write, and fails with the kernel model's error
 * (hook_write.c); what reached the file otherwise (stdio, whose writes
 * bypass the interposed write) is applied when the descriptor is closed
 * (close, fclose, close_range), as one write of the file: IGT writes such
 * a file with one open/write/close (igt_sysfs_*).
 * Opening a read-only file for writing fails with EACCES (kernfs).
 * sync/sw_sync is a software timeline per open (its ioctls reach the
 * kernel model through hook_io.c; closing it destroys the timeline). */
#include "shim/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/devinfo.h"
#include "common/trace.h"
#include "gtsim/gtsim.h"
#include "gtsim/remote.h"

enum dyn_kind { DYN_DEBUGFS, DYN_PARAM, DYN_SW_SYNC, DYN_ENGINE };

struct dyn_file {
	enum dyn_kind kind;
	struct gtsim_sw_timeline *timeline;   /* DYN_SW_SYNC */
	dev_t dev;              /* DYN_SW_SYNC: the memfd's, which names it */
	ino_t ino;              /* in every copy of the descriptor */
	bool writable;
	char name[64];          /* DYN_ENGINE: "<engine>/<file>" */
	char *initial;          /* the text it was filled with (O_RDWR) */
	bool applied;           /* a write(2) was applied (debugfs_write) */
};

#define MAX_FD 65536
#define SW_SYNC_MEMFD "gtsim-sw_sync"   /* an in-process timeline's memfd */
#define CARD0_ERROR "sys/devices/pci0000:00/0000:00:02.0/drm/card0/error"
static struct dyn_file *table[MAX_FD];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The simulated device's generation (sysfs.c builds the tree for it). */
static int device_gen(void)
{
	const struct gt_devinfo *info = devinfo_from_env();
	return info ? info->gen : 8;
}

/* "<engine>/<file>" -> the file's permission bits, or -1. */
static int engine_mode_of(const char *name)
{
	const char *slash = strchr(name, '/');
	if (!slash)
		return -1;
	const char *e, *f;
	unsigned mode;
	for (unsigned i = 0; (e = gtsim_engine_dir_name(i)); i++) {
		if (strncmp(e, name, (size_t)(slash - name)) || e[slash - name])
			continue;
		for (unsigned k = 0; (f = gtsim_engine_file_name(device_gen(), i, k, &mode)); k++)
			if (!strcmp(f, slash + 1))
				return (int)mode;
	}
	return -1;
}

/* name -> its permission bits, or -1 when not a file of that kind. */
static int mode_of(enum dyn_kind kind, const char *name)
{
	unsigned mode;
	const char *n;
	if (kind == DYN_ENGINE)
		return engine_mode_of(name);
	for (unsigned i = 0; (n = kind == DYN_DEBUGFS ? gtsim_debugfs_name(i, &mode)
						      : gtsim_param_name(i, &mode)); i++)
		if (!strcmp(n, name))
			return (int)mode;
	return -1;
}

/* rel (a path inside the tree) -> the kind and name of a dynamic file. */
static bool classify(const char *rel, enum dyn_kind *kind, const char **name)
{
	static const char params[] = "sys/module/i915/parameters/";
	static const char dri[] = "sys/kernel/debug/dri/";
	if (!strcmp(rel, CARD0_ERROR) || !strcmp(rel, "sys/class/drm/card0/error") ||
	    !strcmp(rel, "sys/dev/char/226:0/error")) {
		/* i915's sysfs error state: i915_error_state's twin */
		*kind = DYN_DEBUGFS;
		*name = "i915_error_state";
		return true;
	}
	if (!strcmp(rel, "sys/kernel/debug/sync/sw_sync")) {
		*kind = DYN_SW_SYNC;
		*name = "sw_sync";
		return true;
	}
	/* card0's engine directories, by any of the paths that lead there */
	static const char *const engine_dirs[] = {
		"sys/devices/pci0000:00/0000:00:02.0/drm/card0/engine/",
		"sys/class/drm/card0/engine/", "sys/dev/char/226:0/engine/",
	};
	for (unsigned i = 0; i < sizeof(engine_dirs) / sizeof(engine_dirs[0]); i++) {
		size_t n = strlen(engine_dirs[i]);
		if (!strncmp(rel, engine_dirs[i], n)) {
			*kind = DYN_ENGINE;
			*name = rel + n;
			return mode_of(*kind, *name) >= 0;
		}
	}
	if (!strncmp(rel, params, sizeof(params) - 1)) {
		*kind = DYN_PARAM;
		*name = rel + sizeof(params) - 1;
		return mode_of(*kind, *name) >= 0;
	}
	if (strncmp(rel, dri, sizeof(dri) - 1))
		return false;
	const char *p = strchr(rel + sizeof(dri) - 1, '/');
	if (!p)
		return false;
	p++;
	if (!strncmp(p, "i915_params/", 12)) {
		*kind = DYN_PARAM;
		*name = p + 12;
	} else {
		*kind = DYN_DEBUGFS;
		*name = p;
	}
	return mode_of(*kind, *name) >= 0;
}

/* Shared mode: the server's device has the files. */
static enum gtsim_wire_debugfs_kind remote_kind(enum dyn_kind kind)
{
	return kind == DYN_PARAM ? GTSIM_DEBUGFS_PARAM
	       : kind == DYN_ENGINE ? GTSIM_DEBUGFS_ENGINE : GTSIM_DEBUGFS_FILE;
}

static char *read_now(enum dyn_kind kind, const char *name)
{
	if (devnode_server()) {
		int err;
		char *text = gtsim_remote_debugfs_read(devnode_server(), remote_kind(kind), name, &err);
		if (!text)
			TRACE(TRACE_SHIM, "debugfs %s from the server: %d", name, err);
		return text;
	}
	if (kind == DYN_PARAM)
		return gtsim_param_read(name);
	struct gtsim_device *dev = devnode_device();
	if (dev && kind == DYN_ENGINE) {
		char engine[16];
		const char *slash = strchr(name, '/');
		snprintf(engine, sizeof(engine), "%.*s", (int)(slash - name), name);
		return gtsim_engine_file_read(dev, engine, slash + 1);
	}
	return dev ? gtsim_debugfs_read(dev, name) : NULL;
}

/* Registers d for fd (a new descriptor): fd, or -1 with errno. */
static int install(int fd, struct dyn_file *d)
{
	if (fd < 0 || fd >= MAX_FD) {
		int err = fd < 0 ? errno : EMFILE;
		if (fd >= 0)
			real.close(fd);
		errno = err;
		return -1;
	}
	pthread_mutex_lock(&lock);
	table[fd] = d;
	pthread_mutex_unlock(&lock);
	return fd;
}

/* sync/sw_sync: each open is a new timeline. */
static int open_timeline(int flags)
{
	if (devnode_server()) {
		/* the server's: its fences are the device's (server.h) */
		int fd = gtsim_remote_sw_sync_open(devnode_server());
		if (fd >= 0 && !(flags & O_CLOEXEC))
			real.fcntl(fd, F_SETFD, 0);
		TRACE(TRACE_SHIM, "open sw_sync timeline on the server -> fd %d", fd);
		if (fd < 0) {
			errno = -fd;
			return -1;
		}
		struct dyn_file *r = calloc(1, sizeof(*r));
		if (r) {   /* its close waits for the server (debugfs_forget) */
			r->kind = DYN_SW_SYNC;
			snprintf(r->name, sizeof(r->name), "sw_sync");
		}
		return r ? install(fd, r) : fd;
	}
	struct dyn_file *d = calloc(1, sizeof(*d));
	if (d)
		d->timeline = gtsim_sw_sync_create();
	if (!d || !d->timeline) {
		free(d);
		errno = ENOMEM;
		return -1;
	}
	d->kind = DYN_SW_SYNC;
	snprintf(d->name, sizeof(d->name), "sw_sync");
	int mfd = memfd_create(SW_SYNC_MEMFD, flags & O_CLOEXEC ? MFD_CLOEXEC : 0);
	struct stat st;
	if (mfd >= 0 && !real.fstat(mfd, &st)) {
		d->dev = st.st_dev;
		d->ino = st.st_ino;
	}
	int fd = install(mfd, d);
	if (fd < 0) {
		int err = errno;
		gtsim_sw_sync_destroy(d->timeline);
		free(d);
		errno = err;
	}
	TRACE(TRACE_SHIM, "open sw_sync timeline -> fd %d", fd);
	return fd;
}

bool debugfs_is_process_timeline(int fd)
{
	return shim_fd_links_to(fd, "/memfd:" SW_SYNC_MEMFD);
}

bool debugfs_has_timelines(void)
{
	pthread_mutex_lock(&lock);
	bool any = false;
	for (int fd = 0; fd < MAX_FD && !any; fd++)
		any = table[fd] && table[fd]->kind == DYN_SW_SYNC && table[fd]->timeline;
	pthread_mutex_unlock(&lock);
	return any;
}

int debugfs_own_timeline_ioctl(int fd, unsigned long request, void *arg)
{
	struct stat st;
	real_init();
	if (real.fstat(fd, &st))
		return -EBADF;
	int ret = -ENOTTY;
	/* held throughout: a close meanwhile (debugfs_forget) destroys it */
	pthread_mutex_lock(&lock);
	for (int i = 0; i < MAX_FD && ret == -ENOTTY; i++) {
		struct dyn_file *d = table[i];
		if (d && d->kind == DYN_SW_SYNC && d->timeline && d->ino == st.st_ino &&
		    d->dev == st.st_dev)
			ret = gtsim_sw_sync_ioctl(d->timeline, request, arg);
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

void debugfs_fork_share_child(void)
{
	for (int fd = 0; fd < MAX_FD; fd++)
		if (table[fd] && table[fd]->kind == DYN_SW_SYNC)
			table[fd]->timeline = NULL;   /* the parent's; this copy is never used */
}

struct gtsim_sw_timeline *debugfs_sw_timeline(int fd)
{
	if (!debugfs_is_ours(fd))
		return NULL;
	pthread_mutex_lock(&lock);
	struct gtsim_sw_timeline *tl = table[fd] ? table[fd]->timeline : NULL;
	pthread_mutex_unlock(&lock);
	return tl;
}

/* fill: start with the text a read gives now (not for a write-only open,
 * nor for a read-write reopen, which IGT makes only to write). */
static int open_dynamic_fill(enum dyn_kind kind, const char *name, int flags, bool fill);

static int open_dynamic(enum dyn_kind kind, const char *name, int flags)
{
	return open_dynamic_fill(kind, name, flags, (flags & O_ACCMODE) != O_WRONLY);
}

static int open_dynamic_fill(enum dyn_kind kind, const char *name, int flags, bool fill)
{
	int acc = flags & O_ACCMODE;
	if (kind == DYN_SW_SYNC)
		return open_timeline(flags);
	if (acc != O_RDONLY && !(mode_of(kind, name) & 0200)) {
		errno = EACCES;
		return -1;
	}
	struct dyn_file *d = calloc(1, sizeof(*d));
	if (!d) {
		errno = ENOMEM;
		return -1;
	}
	d->kind = kind;
	d->writable = acc != O_RDONLY;
	snprintf(d->name, sizeof(d->name), "%s", name);
	char *text = fill ? read_now(kind, name) : NULL;
	int fd = memfd_create("gtsim-debugfs", flags & O_CLOEXEC ? MFD_CLOEXEC : 0);
	if (fd < 0 || fd >= MAX_FD) {
		int err = fd < 0 ? errno : EMFILE;
		if (fd >= 0)
			real.close(fd);
		free(text);
		free(d);
		errno = err;
		return -1;
	}
	if (text) {
		size_t len = strlen(text);
		if (pwrite(fd, text, len, 0) != (ssize_t)len)
			TRACE(TRACE_SHIM, "debugfs %s: could not fill", name);
	}
	if (acc == O_RDWR)
		d->initial = text;
	else
		free(text);
	pthread_mutex_lock(&lock);
	table[fd] = d;
	pthread_mutex_unlock(&lock);
	TRACE(TRACE_SHIM, "open %s %s -> fd %d", kind == DYN_PARAM ? "param" : "debugfs", name,
	      fd);
	return fd;
}

int debugfs_open(const char *real_path, int flags)
{
	const char *rel = sysfs_tree_relative(real_path);
	enum dyn_kind kind;
	const char *name;
	if (!rel || !classify(rel, &kind, &name))
		return DEBUGFS_NOT_OURS;
	return open_dynamic(kind, name, flags);
}

int debugfs_open_at(int dirfd, const char *path, int flags)
{
	char link[64], dir[PATH_MAX], full[PATH_MAX];
	if (!path || path[0] == '/' || dirfd < 0 || !sysfs_tree_exists())
		return DEBUGFS_NOT_OURS;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
	ssize_t n = real.readlink ? real.readlink(link, dir, sizeof(dir) - 1) : -1;
	if (n <= 0)
		return DEBUGFS_NOT_OURS;
	dir[n] = 0;
	if ((size_t)snprintf(full, sizeof(full), "%s/%s", dir, path) >= sizeof(full))
		return DEBUGFS_NOT_OURS;
	return debugfs_open(full, flags);
}

/* /proc/self/fd/N or /dev/fd/N of one of these files (IGT's
 * gem_engine_property_printf reopens the file read-write that way): a new
 * open of the same file. */
int debugfs_reopen(const char *path, int flags)
{
	const char *p = !strncmp(path, "/proc/self/fd/", 14) ? path + 14
			: !strncmp(path, "/dev/fd/", 8) ? path + 8 : NULL;
	if (!p)
		return DEBUGFS_NOT_OURS;
	char *end;
	long fd = strtol(p, &end, 10);
	if (end == p || *end || !debugfs_is_ours((int)fd))
		return DEBUGFS_NOT_OURS;
	pthread_mutex_lock(&lock);
	struct dyn_file *d = table[fd];
	enum dyn_kind kind = d ? d->kind : DYN_DEBUGFS;
	char name[sizeof(d->name)];
	if (d)
		memcpy(name, d->name, sizeof(name));
	pthread_mutex_unlock(&lock);
	if (!d || kind == DYN_SW_SYNC)
		return DEBUGFS_NOT_OURS;
	/* IGT reopens read-write to write (fprintf at offset 0): start
	 * empty, so that what it writes is the whole store, as sysfs has it */
	return open_dynamic_fill(kind, name, flags, (flags & O_ACCMODE) == O_RDONLY);
}

bool debugfs_is_server_timeline(int fd)
{
	if (!debugfs_is_ours(fd))
		return false;
	pthread_mutex_lock(&lock);
	bool yes = table[fd] && table[fd]->kind == DYN_SW_SYNC && !table[fd]->timeline;
	pthread_mutex_unlock(&lock);
	return yes;
}

bool debugfs_is_ours(int fd)
{
	return fd >= 0 && fd < MAX_FD && __atomic_load_n(&table[fd], __ATOMIC_RELAXED);
}

static int write_engine_file(const char *name, const char *buf, size_t len)
{
	struct gtsim_device *dev = devnode_device();
	const char *slash = strchr(name, '/');
	char engine[16];
	if (!dev || !slash)
		return -ENODEV;
	snprintf(engine, sizeof(engine), "%.*s", (int)(slash - name), name);
	return gtsim_engine_file_write(dev, engine, slash + 1, buf, len);
}

/* The model's store of what was written to d: 0 or -errno. */
static int apply(struct dyn_file *d, const char *buf, size_t len)
{
	int ret = devnode_server()
		  ? gtsim_remote_debugfs_write(devnode_server(), remote_kind(d->kind), d->name,
					       buf, len)
		  : d->kind == DYN_PARAM ? gtsim_param_write(d->name, buf, len)
		  : d->kind == DYN_ENGINE ? write_engine_file(d->name, buf, len)
		  : (devnode_device() ? gtsim_debugfs_write(devnode_device(), d->name, buf, len)
				      : -ENODEV);
	TRACE(TRACE_SHIM, "write %s %s: %.*s -> %d", d->kind == DYN_PARAM ? "param" : "debugfs",
	      d->name, (int)(len > 40 ? 40 : len), buf, ret);
	return ret;
}

ssize_t debugfs_write(int fd, const void *buf, size_t n, bool *handled)
{
	*handled = false;
	char text[4096];
	/* held throughout: a close on another thread (debugfs_forget) frees d */
	pthread_mutex_lock(&lock);
	struct dyn_file *d = table[fd];
	ssize_t ret = 0;
	if (d && d->writable && d->kind != DYN_SW_SYNC) {
		*handled = true;
		if (n >= sizeof(text)) {
			ret = -EINVAL;   /* kernfs: a store is at most a page */
		} else {
			memcpy(text, buf, n);
			text[n] = 0;
			ret = apply(d, text, n);
			if (ret >= 0) {
				d->applied = true;
				/* the file shows what was written, as after a store */
				ret = pwrite(fd, text, n, 0) < 0 ? -errno : (ssize_t)n;
			}
		}
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

void debugfs_forget(int fd)
{
	if (!debugfs_is_ours(fd))
		return;
	pthread_mutex_lock(&lock);
	struct dyn_file *d = table[fd];
	table[fd] = NULL;
	pthread_mutex_unlock(&lock);
	if (!d)
		return;
	if (d->kind == DYN_SW_SYNC) {
		if (d->timeline)
			gtsim_sw_sync_destroy(d->timeline);
		free(d);
		return;
	}
	char buf[4096];
	ssize_t len = d->writable && !d->applied ? pread(fd, buf, sizeof(buf), 0) : -1;
	bool changed = len > 0 && (!d->initial || strlen(d->initial) != (size_t)len ||
				   memcmp(d->initial, buf, (size_t)len));
	if (changed)
		apply(d, buf, (size_t)len);
	free(d->initial);
	free(d);
}
