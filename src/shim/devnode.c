/* The DRM nodes the shim presents: /dev/dri/card0 (minor 0) and
 * /dev/dri/renderD128 (minor 128), char devices of major 226, and, with
 * GTSIM_VGEM=1 (`gtsim run --vgem`: a machine with the vgem module loaded,
 * as IGT loads it), vgem's /dev/dri/card1 and renderD129 (minors 1 and
 * 129; the kernel model's files of those minors are vgem's).
 *
 * Each open creates a gtsim_file on the process's device (created on the
 * first open) and a real descriptor that stands for it: an eventfd, which
 * never polls readable (a DRM file with no pending events) and, being a
 * new open file each time, lets kcmp-style checks tell opens apart. dup()ed
 * descriptors share the entry; the gtsim_file closes with the last one.
 *
 * fork(): the child continues on the parent's device, in shared mode
 * against a server in the parent (fork_share.c). With GTSIM_FORK_SHARE=0
 * (or when the server cannot start) it continues on a private copy of the
 * device (fork.c); if making the copy fails, its first use of a node
 * creates a new device and each inherited open gets a new file on it (an
 * empty device: handles the parent created are unknown there).
 *
 * Shared mode (GTSIM_SERVER names a device server's socket, `gtsim run
 * --shared`; docs/shared-device.md): the process has no device. An open
 * is a new DRM file on the server and the descriptor is that connection
 * (a socket: dup, close and SCM_RIGHTS behave as for a DRM fd). The
 * thread that opened it talks over it; any other thread, and a fork
 * child, gets a connection of its own to the same file (ATTACH), so that
 * replies never cross and a blocking wait holds back only its thread.
 */
#include "shim/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/trace.h"
#include "gtsim/gtsim.h"
#include "gtsim/remote.h"

/* Shared mode: another thread's or process's connection to the file. */
struct thread_conn {
	pid_t pid, tid;
	int fd;
	struct thread_conn *next;
};

struct node_open {
	int fds;                    /* descriptors referring to it */
	int users;                  /* ioctls in flight + fds */
	int minor;
	unsigned generation;        /* fork generation the file belongs to */
	struct gtsim_file *file;    /* NULL in shared mode */
	/* shared mode: the file's id on the server, the thread whose
	 * connection the descriptor is, the others' connections */
	bool remote;
	uint64_t id;
	pid_t pid, tid;
	struct thread_conn *conns;
	/* fork sharing (fork_share.c), in the process whose file it is: the
	 * file's id on this process's server, which closes it (0: none) */
	uint64_t shared_id;
};

static char server_path[108];   /* GTSIM_SERVER; "" without the shared mode */

const char *devnode_server(void)
{
	return server_path[0] ? server_path : NULL;
}

#define MAX_FD 65536
static struct node_open *table[MAX_FD];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gtsim_device *device;
static unsigned generation;     /* bumped in each fork child */

/* The descriptor a /proc/self/fd/N, /proc/<our pid>/fd/N or /dev/fd/N path
 * names, or -1. Opening such a path opens the file's node anew (Linux: a
 * new open file of the same inode), which is how IGT's gem_reopen_driver
 * gets a second, clean DRM file. */
static int proc_fd_of_path(const char *path)
{
	const char *p;
	if (!strncmp(path, "/proc/self/fd/", 14)) {
		p = path + 14;
	} else if (!strncmp(path, "/dev/fd/", 8)) {
		p = path + 8;
	} else if (!strncmp(path, "/proc/", 6)) {
		char *end;
		long pid = strtol(path + 6, &end, 10);
		if (end == path + 6 || pid != (long)getpid() || strncmp(end, "/fd/", 4))
			return -1;
		p = end + 4;
	} else {
		return -1;
	}
	char *end;
	long fd = strtol(p, &end, 10);
	if (end == p || *end || fd < 0 || fd >= MAX_FD)
		return -1;
	return (int)fd;
}

int devnode_minor_for_path(const char *path)
{
	if (!path)
		return -1;
	int fd = proc_fd_of_path(path);
	if (fd >= 0)
		return devnode_fd_minor(fd);
	if (strncmp(path, "/dev/dri/", 9))
		return -1;
	const char *name = path + 9;
	while (*name == '/')
		name++;
	if (!strcmp(name, "card0"))
		return 0;
	if (!strcmp(name, "renderD128"))
		return 128;
	if (!strcmp(name, "card1") && shim_vgem_loaded())
		return 1;
	if (!strcmp(name, "renderD129") && shim_vgem_loaded())
		return 129;
	return -1;
}

bool shim_vgem_loaded(void)
{
	static int loaded = -1;   /* racing first calls compute the same */
	if (loaded < 0) {
		const char *v = getenv("GTSIM_VGEM");
		loaded = v && !strcmp(v, "1");
	}
	return loaded;
}

const char *devnode_path(int minor)
{
	return minor == 128 ? "/dev/dri/renderD128" : minor == 1 ? "/dev/dri/card1"
	       : minor == 129 ? "/dev/dri/renderD129" : "/dev/dri/card0";
}

/* Caller holds table_lock. */
static struct gtsim_device *device_locked(void)
{
	if (!device) {
		__atomic_store_n(&device, gtsim_device_create(NULL), __ATOMIC_RELEASE);
		TRACE(TRACE_SHIM, "device created for pid %d: %s", (int)getpid(),
		      device ? "ok" : "FAILED (GTSIM_DEVICE?)");
	}
	return device;
}

struct gtsim_device *devnode_device(void)
{
	if (server_path[0])
		return NULL;   /* the device is the server's */
	struct gtsim_device *dev = __atomic_load_n(&device, __ATOMIC_ACQUIRE);
	if (dev)
		return dev;
	pthread_mutex_lock(&table_lock);
	dev = device_locked();
	pthread_mutex_unlock(&table_lock);
	return dev;
}

/* A file of the current generation for n (after a fork: a new one). */
static struct gtsim_file *file_locked(struct node_open *n)
{
	if (n->generation != generation) {
		/* The parent's file is left alone: its device's locks and
		 * threads belong to the parent. */
		struct gtsim_device *dev = device_locked();
		n->file = dev ? gtsim_open_node(dev, n->minor) : NULL;
		n->generation = generation;
		TRACE(TRACE_SHIM, "fork child %d: fresh file for minor %d", (int)getpid(),
		      n->minor);
	}
	return n->file;
}

/* Shared mode: a new file on the server, the connection its descriptor. */
static int open_remote(int minor, int flags)
{
	struct node_open *n = calloc(1, sizeof(*n));
	if (!n) {
		errno = ENOMEM;
		return -1;
	}
	int fd = gtsim_remote_open_id(server_path, minor, &n->id);
	if (fd < 0 || fd >= MAX_FD) {
		int err = fd < 0 ? -fd : EMFILE;
		if (fd >= 0)
			real.close(fd);
		free(n);
		TRACE(TRACE_SHIM, "open %s on server %s failed: %s", devnode_path(minor),
		      server_path, strerror(err));
		errno = err == ENOENT || err == ECONNREFUSED ? ENODEV : err;
		return -1;
	}
	if (!(flags & O_CLOEXEC))
		real.fcntl(fd, F_SETFD, 0);
	n->fds = n->users = 1;
	n->minor = minor;
	n->generation = generation;
	n->remote = true;
	n->pid = getpid();
	n->tid = gettid();
	pthread_mutex_lock(&table_lock);
	table[fd] = n;
	pthread_mutex_unlock(&table_lock);
	TRACE(TRACE_SHIM, "open %s -> fd %d (server file %llu)", devnode_path(minor), fd,
	      (unsigned long long)n->id);
	return fd;
}

int devnode_open(int minor, int flags)
{
	if (server_path[0])
		return open_remote(minor, flags);
	int efd_flags = (flags & O_CLOEXEC ? EFD_CLOEXEC : 0) |
			(flags & O_NONBLOCK ? EFD_NONBLOCK : 0);
	struct node_open *n = calloc(1, sizeof(*n));
	if (!n) {
		errno = ENOMEM;
		return -1;
	}
	pthread_mutex_lock(&table_lock);
	struct gtsim_device *dev = device_locked();
	n->file = dev ? gtsim_open_node(dev, minor) : NULL;
	pthread_mutex_unlock(&table_lock);
	if (!n->file) {
		free(n);
		errno = ENODEV;
		return -1;
	}
	int fd = eventfd(0, efd_flags);
	if (fd < 0 || fd >= MAX_FD) {
		int err = fd < 0 ? errno : EMFILE;
		if (fd >= 0)
			real.close(fd);
		gtsim_close(n->file);
		free(n);
		errno = err;
		return -1;
	}
	n->fds = n->users = 1;
	n->minor = minor;
	n->generation = generation;
	pthread_mutex_lock(&table_lock);
	table[fd] = n;
	pthread_mutex_unlock(&table_lock);
	TRACE(TRACE_SHIM, "open %s -> fd %d (file %p)", devnode_path(minor), fd, (void *)n->file);
	return fd;
}

static void release_locked(struct node_open *n)
{
	if (--n->users == 0) {
		if (n->generation == generation && n->file &&
		    !(n->shared_id && fork_share_release(n->shared_id)))
			gtsim_close(n->file);
		for (struct thread_conn *c = n->conns, *next; c; c = next) {
			next = c->next;
			real.close(c->fd);
			free(c);
		}
		free(n);
	}
}

/* Connections of this thread made for a signal handler's call while the
 * thread awaits a reply on its own (gtsim_remote_busy): closed by the
 * matching devnode_release, innermost first. */
struct nested_conn {
	struct node_open *n;
	int fd;
};
static _Thread_local struct nested_conn nested[8];
static _Thread_local unsigned nnested;

int devnode_remote_acquire(int fd, struct node_open **held)
{
	*held = NULL;
	if (fd < 0 || fd >= MAX_FD || !__atomic_load_n(&table[fd], __ATOMIC_RELAXED))
		return -1;
	pid_t pid = getpid(), tid = gettid();
	pthread_mutex_lock(&table_lock);
	struct node_open *n = table[fd];
	int conn = -1;
	if (n && n->remote) {
		if (n->pid == pid && n->tid == tid)
			conn = fd;   /* a dup of the descriptor is the same connection */
		for (struct thread_conn *c = n->conns; c && conn < 0; c = c->next)
			if (c->pid == pid && c->tid == tid)
				conn = c->fd;
		struct thread_conn *c = conn < 0 ? calloc(1, sizeof(*c)) : NULL;
		if (c && (c->fd = gtsim_remote_attach(server_path, n->id)) >= 0) {
			*c = (struct thread_conn){ pid, tid, c->fd, n->conns };
			n->conns = c;
			conn = c->fd;
			TRACE(TRACE_SHIM, "fd %d: connection %d for thread %d of %d", fd, conn,
			      (int)tid, (int)pid);
		} else if (c) {
			TRACE(TRACE_SHIM, "fd %d: no connection for thread %d: %s", fd, (int)tid,
			      strerror(-c->fd));
			free(c);
		}
		if (conn >= 0 && gtsim_remote_busy(conn) && nnested < 8) {
			int extra = gtsim_remote_attach(server_path, n->id);
			conn = extra >= 0 ? extra : -2;
			if (extra >= 0)
				nested[nnested++] = (struct nested_conn){ n, extra };
		}
		if (conn >= 0) {
			n->users++;
			*held = n;
		} else {
			conn = -2;
		}
	}
	pthread_mutex_unlock(&table_lock);
	return conn;
}

struct gtsim_file *devnode_acquire(int fd, struct node_open **held)
{
	*held = NULL;
	if (fd < 0 || fd >= MAX_FD)
		return NULL;
	/* Unlocked peek: most descriptors are not ours. */
	if (!__atomic_load_n(&table[fd], __ATOMIC_RELAXED))
		return NULL;
	pthread_mutex_lock(&table_lock);
	struct node_open *n = table[fd];
	struct gtsim_file *file = n ? file_locked(n) : NULL;
	if (file) {
		n->users++;       /* a close meanwhile leaves the file open */
		*held = n;
	}
	pthread_mutex_unlock(&table_lock);
	return file;
}

void devnode_release(struct node_open *held)
{
	if (!held)
		return;
	if (nnested && nested[nnested - 1].n == held)
		real.close(nested[--nnested].fd);
	pthread_mutex_lock(&table_lock);
	release_locked(held);
	pthread_mutex_unlock(&table_lock);
}

int devnode_fd_minor(int fd)
{
	if (fd < 0 || fd >= MAX_FD || !__atomic_load_n(&table[fd], __ATOMIC_RELAXED))
		return -1;
	pthread_mutex_lock(&table_lock);
	int minor = table[fd] ? table[fd]->minor : -1;
	pthread_mutex_unlock(&table_lock);
	return minor;
}

void devnode_forget(int fd)
{
	if (fd < 0 || fd >= MAX_FD || !__atomic_load_n(&table[fd], __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&table_lock);
	struct node_open *n = table[fd];
	table[fd] = NULL;
	if (n) {
		n->fds--;
		TRACE(TRACE_SHIM, "close fd %d%s", fd, n->fds ? "" : " (last)");
		release_locked(n);
	}
	pthread_mutex_unlock(&table_lock);
}

void devnode_dup(int oldfd, int newfd)
{
	if (oldfd < 0 || oldfd >= MAX_FD || newfd < 0 || newfd >= MAX_FD || oldfd == newfd)
		return;
	devnode_forget(newfd);
	pthread_mutex_lock(&table_lock);
	struct node_open *n = table[oldfd];
	if (n) {
		n->fds++;
		n->users++;
		table[newfd] = n;
		TRACE(TRACE_SHIM, "dup fd %d -> %d", oldfd, newfd);
	}
	pthread_mutex_unlock(&table_lock);
}

void devnode_fill_stat(int minor, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = makedev(0, 5);              /* devtmpfs */
	st->st_ino = 1000 + minor;
	st->st_mode = S_IFCHR | 0666;
	st->st_nlink = 1;
	st->st_rdev = makedev(DRM_MAJOR, minor);
	st->st_blksize = 4096;
}

void devnode_fill_statx(int minor, struct statx *stx)
{
	memset(stx, 0, sizeof(*stx));
	stx->stx_mask = STATX_BASIC_STATS;
	stx->stx_blksize = 4096;
	stx->stx_nlink = 1;
	stx->stx_mode = S_IFCHR | 0666;
	stx->stx_ino = 1000 + minor;
	stx->stx_rdev_major = DRM_MAJOR;
	stx->stx_rdev_minor = minor;
	stx->stx_dev_major = 0;
	stx->stx_dev_minor = 5;
}

/* Fork sharing: the server's path for the child ("" when this fork makes
 * a private copy), set by atfork_prepare. */
static char fork_share_path[108];

/* Fork sharing, under table_lock: gives every open file of this process's
 * device an id on the server; false when one could not have one. */
static bool share_files_locked(void)
{
	for (int fd = 0; fd < MAX_FD; fd++) {
		struct node_open *n = table[fd];
		if (n && n->file && !n->remote && n->generation == generation && !n->shared_id &&
		    !(n->shared_id = fork_share_file(n->file)))
			return false;
	}
	return true;
}

/* Fork sharing: the server's path when every open file of dev has an id
 * there, else NULL (the child then makes its private copy). */
static const char *share_for_fork(struct gtsim_device *dev)
{
	const char *share = fork_share_start(dev);
	pthread_mutex_lock(&table_lock);
	bool all = share && share_files_locked();
	pthread_mutex_unlock(&table_lock);
	return all ? share : NULL;
}

/* fork: the device is quiesced first (no batch in flight, engine threads
 * outside their locks; requests waiting for a fence nobody signaled yet
 * stay queued, in the child's copy too, where nothing signals them), then the table and the sync unit's locks are held
 * across the fork (lock order: table, then the kernel model's).
 *
 * With fork sharing the device is not idled: the child never uses its
 * copy, and a spinning batch would hold the fork back until hangcheck
 * (IGT gem_exec_fence basic-await forks behind a spinner). A file opened
 * by another thread between the two passes gets its id in the second (if
 * that fails, the child's calls on it fail with EIO). */
static void atfork_prepare(void)
{
	struct gtsim_device *dev = __atomic_load_n(&device, __ATOMIC_ACQUIRE);
	bool sharing = !server_path[0] && fork_share_wanted();
	/* a process with sw_sync timelines but no DRM file yet: its children
	 * reach those timelines through a server too, on a device made now */
	if (!dev && sharing && debugfs_has_timelines())
		dev = devnode_device();
	const char *share = dev && sharing ? share_for_fork(dev) : NULL;
	if (dev && !share) {
		gtsim_device_quiesce(dev);
		gtsim_device_fork_hold(dev);
	}
	pthread_mutex_lock(&table_lock);
	fork_share_path[0] = '\0';
	if (share) {
		share_files_locked();
		snprintf(fork_share_path, sizeof(fork_share_path), "%s", share);
	}
	gtsim_fork_prepare();
}

static void atfork_parent(void)
{
	gtsim_device_fork_parent(__atomic_load_n(&device, __ATOMIC_ACQUIRE));
	gtsim_fork_parent();
	pthread_mutex_unlock(&table_lock);
}

/* Shared mode, in a fork child: the parent's threads' connections are the
 * parent's (the child attaches its own on first use). */
static void drop_parent_conns(void)
{
	pid_t pid = getpid();
	for (int fd = 0; fd < MAX_FD; fd++) {
		struct node_open *n = table[fd];
		if (!n || !n->remote)
			continue;
		for (struct thread_conn **p = &n->conns; *p;) {
			struct thread_conn *c = *p;
			if (c->pid != pid) {
				*p = c->next;
				real.close(c->fd);
				free(c);
			} else {
				p = &c->next;
			}
		}
	}
}

/* environ gets GTSIM_SERVER=path without setenv: in a fork child another
 * thread of the parent may have held the environment's lock at the fork,
 * and setenv would wait for it forever. The child has one thread: the
 * array is changed in place, or replaced by a copy one longer. */
static void child_export_server(const char *path)
{
	static char entry[sizeof("GTSIM_SERVER=") + sizeof(server_path)];
	snprintf(entry, sizeof(entry), "GTSIM_SERVER=%s", path);
	size_t n = 0;
	for (; environ && environ[n]; n++)
		if (!strncmp(environ[n], "GTSIM_SERVER=", 13)) {
			environ[n] = entry;
			return;
		}
	char **env = malloc((n + 2) * sizeof(*env));
	if (!env)
		return;     /* an exec'd program then has a device of its own */
	if (n)
		memcpy(env, environ, n * sizeof(*env));
	env[n] = entry;
	env[n + 1] = NULL;
	environ = env;
}

/* Fork sharing, in the child: each inherited file of the parent's device
 * becomes a node of the parent's server, reached by ATTACH on first use
 * (the descriptor stays the eventfd: no thread's connection); the
 * parent's device, its copy here, is never touched; the inherited sw_sync
 * timelines are the server's to resolve; GTSIM_SERVER names the server. */
static void switch_to_parent_server(void)
{
	snprintf(server_path, sizeof(server_path), "%s", fork_share_path);
	pid_t parent = getppid();
	for (int fd = 0; fd < MAX_FD; fd++) {
		struct node_open *n = table[fd];
		if (!n || n->remote || !n->file)
			continue;
		n->remote = true;
		n->id = n->shared_id;
		n->shared_id = 0;
		n->file = NULL;
		n->pid = parent;
		n->tid = 0;
	}
	device = NULL;
	debugfs_fork_share_child();
	/* a program the child execs attaches to the same server, as under
	 * --shared (the descriptors it inherits are unknown to it there) */
	child_export_server(server_path);
	TRACE(TRACE_SHIM, "fork child %d: the device of %d, served at %s", (int)getpid(),
	      (int)parent, server_path);
}

static void atfork_child(void)
{
	gtsim_fork_child();
	pthread_mutex_init(&table_lock, NULL);
	fork_share_child();
	if (fork_share_path[0]) {
		switch_to_parent_server();
		return;
	}
	if (server_path[0])
		drop_parent_conns();
	if (!fork_child_device(device)) {
		device = NULL;     /* the parent's stays allocated: never touched */
		generation++;
	}
}

__attribute__((constructor(102))) static void devnode_init(void)
{
	trace_init_from_env();
	const char *server = getenv("GTSIM_SERVER");
	if (server && *server)
		snprintf(server_path, sizeof(server_path), "%s", server);
	sysfs_register_cleanup();
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}
