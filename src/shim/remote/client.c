/* The device server's client side (gtsim/remote.h): a connection per DRM
 * open, one request and its reply per ioctl. The struct goes by value; a
 * descriptor inside it (common/drm_fd_args.h) goes as SCM_RIGHTS and the
 * one coming back gets this process's number written into the struct. */
#include <drm.h>
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/drm_fd_args.h"
#include "common/fd_pass.h"
#include "common/sigdefer.h"
#include "gtsim/remote.h"


/* One request and its reply at a time per connection among this
 * process's threads (a lock per descriptor number, hashed). Two processes
 * sharing one connection (a fork child) are not serialized yet. Recursive:
 * a signal handler that runs while its thread awaits a reply may call the
 * device on another connection (gtsim_remote_busy) hashed to the same
 * lock. */
static pthread_mutex_t conn_lock[64] = {
	[0 ... 63] = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP
};

/* The connection this thread awaits an IOCTL reply on, -1 when none. */
static _Thread_local int awaiting = -1;

int gtsim_remote_busy(int conn)
{
	return conn >= 0 && conn == awaiting;
}

/* Waits until the reply of an IOCTL is there, with the client's signal
 * handlers let run at once (common/sigdefer.h), as in an interruptible
 * wait of i915; the first handler that runs, or one deferred since the
 * call began, sends GTSIM_WIRE_CANCEL (remote.h). */
static void await_reply(int fd, uint32_t pid)
{
	bool cancelled = false;
	for (;;) {
		bool interrupted = sigdefer_open();
		struct pollfd p = { fd, POLLIN, 0 };
		int r = interrupted && !cancelled ? 0 : poll(&p, 1, -1);
		interrupted |= r < 0 && errno == EINTR;
		interrupted |= sigdefer_close();
		if (interrupted && !cancelled) {
			struct gtsim_wire_req c = { GTSIM_WIRE_MAGIC, GTSIM_WIRE_CANCEL, 0,
						    (int32_t)pid, 0 };
			struct iovec iov = { &c, sizeof(c) };
			cancelled = true;
			if (fd_pass_send(fd, &iov, 1, -1) != (ssize_t)sizeof(c))
				continue;   /* the server is gone: the reply's recv says so */
		}
		if (r > 0)
			return;
	}
}

/* A program may set O_NONBLOCK on its DRM descriptor (IGT does, for
 * execbuf's -EAGAIN): the call still waits for its reply, or the next
 * one would read it. */
static void wait_ready(int fd, short events)
{
	struct pollfd p = { fd, events, 0 };
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
}

static int call_locked(int fd, uint32_t op, unsigned long request, void *arg, uint32_t size,
		       bool copy_back, const int *pass, unsigned npass, int *got_fd)
{
	struct gtsim_wire_req req = { GTSIM_WIRE_MAGIC, op, request, (int32_t)getpid(), size };
	unsigned char rep[sizeof(struct gtsim_wire_rep) + GTSIM_WIRE_MAX_ARG];
	struct gtsim_wire_rep r;
	struct iovec iov[2] = { { &req, sizeof(req) }, { arg, size } };
	*got_fd = -1;
	ssize_t n;
	while ((n = fd_pass_sendv(fd, iov, size ? 2 : 1, pass, npass)) == -EAGAIN)
		wait_ready(fd, POLLOUT);
	if (n < 0)
		return (int)n;
	if ((size_t)n != sizeof(req) + size)
		return -EIO;
	if ((op & 0xffu) == GTSIM_WIRE_IOCTL) {
		int outer = awaiting;
		awaiting = fd;
		await_reply(fd, req.pid);
		awaiting = outer;
	}
	while ((n = fd_pass_recv(fd, rep, sizeof(rep), got_fd)) == -EAGAIN)
		wait_ready(fd, POLLIN);
	if (n < 0)
		return (int)n;
	if ((size_t)n < sizeof(r))
		return -EIO;   /* the server went away */
	memcpy(&r, rep, sizeof(r));
	if ((size_t)n != sizeof(r) + r.size || (r.size && r.size != size)) {
		if (*got_fd >= 0)
			close(*got_fd);
		*got_fd = -1;
		return -EIO;
	}
	if (r.size && copy_back)
		memcpy(arg, rep + sizeof(r), r.size);
	return r.ret;
}

static int call_fds(int fd, uint32_t op, unsigned long request, void *arg, uint32_t size,
		    bool copy_back, const int *pass, unsigned npass, int *got_fd)
{
	pthread_mutex_t *l = &conn_lock[(unsigned)fd % 64];
	pthread_mutex_lock(l);
	int ret = call_locked(fd, op, request, arg, size, copy_back, pass, npass, got_fd);
	pthread_mutex_unlock(l);
	return ret;
}

static int call(int fd, uint32_t op, unsigned long request, void *arg, uint32_t size,
		bool copy_back, int pass_fd, int *got_fd)
{
	return call_fds(fd, op, request, arg, size, copy_back, &pass_fd, 1, got_fd);
}

static int connect_to(const char *path)
{
	struct sockaddr_un a;
	socklen_t alen = fd_pass_addr(path, &a);
	if (!alen)
		return -EINVAL;
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&a, alen)) {
		int err = -errno;
		close(fd);
		return err;
	}
	/* The server reads and writes this process's memory for the pointers
	 * inside ioctl arguments (process_vm_readv): under Yama's ptrace
	 * scope 1 only a process we name may (no-op without Yama). */
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (!getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		prctl(PR_SET_PTRACER, (unsigned long)cred.pid, 0, 0, 0);
	return fd;
}

/* A new connection and its first request (OPEN or ATTACH). */
static int connect_file(const char *path, uint32_t op, uint64_t request, uint64_t *id)
{
	int fd = connect_to(path);
	if (fd < 0)
		return fd;
	uint64_t got = 0;
	int got_fd;
	int ret = call(fd, op, request, &got, sizeof(got), true, -1, &got_fd);
	if (got_fd >= 0)
		close(got_fd);
	if (ret) {
		close(fd);
		return ret;
	}
	if (id)
		*id = got;
	return fd;
}

int gtsim_remote_open_id(const char *path, int minor, uint64_t *id)
{
	return connect_file(path, GTSIM_WIRE_OPEN, (uint64_t)minor, id);
}

int gtsim_remote_open(const char *path, int minor)
{
	return gtsim_remote_open_id(path, minor, NULL);
}

int gtsim_remote_attach(const char *path, uint64_t id)
{
	return connect_file(path, GTSIM_WIRE_ATTACH, id, NULL);
}

/* The descriptor the server passes for m, mapped here. */
static void *map_remote(int fd, struct gtsim_wire_map *m, void *addr, int prot, int flags)
{
	int mfd;
	int ret = call(fd, GTSIM_WIRE_MMAP, 0, m, sizeof(*m), true, -1, &mfd);
	if (!ret && mfd < 0)
		ret = -EIO;
	if (ret) {
		if (mfd >= 0)
			close(mfd);
		errno = -ret;
		return MAP_FAILED;
	}
	void *p = mmap(addr, (size_t)m->length, prot, flags, mfd, (off_t)m->fd_off);
	int err = errno;
	close(mfd);
	errno = err;
	return p;
}

void *gtsim_remote_mmap(int fd, void *addr, size_t length, int prot, int flags, uint64_t offset)
{
	struct gtsim_wire_map m = { .offset = offset, .length = length };
	return map_remote(fd, &m, addr, prot, flags);
}

/* GEM_MMAP: i915 maps the shmem file into the caller (vm_mmap). */
static int gem_mmap(int fd, struct drm_i915_gem_mmap *args)
{
	struct gtsim_wire_map m = { .offset = args->offset, .length = args->size,
				    .flags = args->flags, .handle = args->handle };
	if (!args->handle)
		return -ENOENT;   /* no object has handle 0 */
	void *p = map_remote(fd, &m, NULL, PROT_READ | PROT_WRITE, MAP_SHARED);
	if (p == MAP_FAILED)
		return -errno;
	args->addr_ptr = (uint64_t)(uintptr_t)p;
	return 0;
}

static int debugfs_call(const char *path, struct gtsim_wire_debugfs *d, const char *buf,
			size_t len, int *got_fd)
{
	if (len > GTSIM_WIRE_MAX_ARG - sizeof(*d))
		return -EFBIG;
	unsigned char msg[GTSIM_WIRE_MAX_ARG];
	memcpy(msg, d, sizeof(*d));
	if (len)
		memcpy(msg + sizeof(*d), buf, len);
	int fd = connect_to(path);
	if (fd < 0)
		return fd;
	int ret = call(fd, GTSIM_WIRE_DEBUGFS, 0, msg, (uint32_t)(sizeof(*d) + len), false, -1,
		       got_fd);
	close(fd);
	return ret;
}

char *gtsim_remote_debugfs_read(const char *path, enum gtsim_wire_debugfs_kind kind,
				const char *name, int *err)
{
	struct gtsim_wire_debugfs d = { .kind = kind };
	snprintf(d.name, sizeof(d.name), "%s", name);
	int mfd;
	*err = debugfs_call(path, &d, NULL, 0, &mfd);
	char *text = NULL;
	struct stat st;
	if (!*err && (mfd < 0 || fstat(mfd, &st)))
		*err = -EIO;
	if (!*err && !(text = malloc((size_t)st.st_size + 1)))
		*err = -ENOMEM;
	if (!*err && pread(mfd, text, (size_t)st.st_size, 0) != st.st_size)
		*err = -EIO;
	if (!*err)
		text[st.st_size] = '\0';
	if (mfd >= 0)
		close(mfd);
	if (*err) {
		free(text);
		return NULL;
	}
	return text;
}

int gtsim_remote_debugfs_write(const char *path, enum gtsim_wire_debugfs_kind kind,
			       const char *name, const char *buf, size_t len)
{
	struct gtsim_wire_debugfs d = { .kind = kind, .write = 1 };
	snprintf(d.name, sizeof(d.name), "%s", name);
	int mfd;
	int ret = debugfs_call(path, &d, buf, len, &mfd);
	if (mfd >= 0)
		close(mfd);
	return ret;
}

/* An ioctl message on connection conn with subject (-1: none) passed
 * first, then the descriptor the struct carries in; the one it carries
 * out gets this process's number. */
static int ioctl_fds(int conn, uint32_t op, int subject, unsigned long request, void *arg)
{
	uint32_t size = _IOC_SIZE(request);
	if (size && !arg)
		return -EFAULT;
	struct drm_fd_args fds = drm_fd_args(request, arg);
	int pass[2] = { subject, -1 }, got_fd = -1;
	if (fds.has_in) {
		memcpy(&pass[1], (char *)arg + fds.in_off, sizeof(pass[1]));
		if (pass[1] >= 0 && fcntl(pass[1], F_GETFD) < 0)
			pass[1] = -1;   /* not open: the server sees -1 and says why */
	}
	int ret = call_fds(conn, op, request, arg, size, _IOC_DIR(request) & _IOC_READ, pass, 2,
			   &got_fd);
	if (got_fd >= 0 && ret == 0 && fds.has_out && (_IOC_DIR(request) & _IOC_READ)) {
		memcpy((char *)arg + fds.out_off, &got_fd, sizeof(got_fd));
		/* received close-on-exec; PRIME's export says (the others are
		 * O_CLOEXEC in the kernel too) */
		if (request == DRM_IOCTL_PRIME_HANDLE_TO_FD &&
		    !(((struct drm_prime_handle *)arg)->flags & DRM_CLOEXEC))
			fcntl(got_fd, F_SETFD, 0);
	} else if (got_fd >= 0) {
		close(got_fd);
	}
	return ret;
}

int gtsim_remote_ioctl_flags(int fd, unsigned long request, void *arg, int f_flags)
{
	if (_IOC_NR(request) == _IOC_NR(DRM_IOCTL_I915_GEM_MMAP) && _IOC_TYPE(request) == DRM_IOCTL_BASE)
		return gem_mmap(fd, arg);
	uint32_t op = GTSIM_WIRE_IOCTL | (f_flags & O_NONBLOCK ? GTSIM_WIRE_OP_NONBLOCK : 0);
	return ioctl_fds(fd, op, -1, request, arg);
}

int gtsim_remote_ioctl(int fd, unsigned long request, void *arg)
{
	return gtsim_remote_ioctl_flags(fd, request, arg, 0);
}

/* This thread's connection without a DRM file (a fork child's thread
 * makes its own: the parent's stays the parent's). */
static _Thread_local int control_fd = -1;
static _Thread_local pid_t control_pid;

static int control(const char *path)
{
	if (control_fd >= 0 && control_pid == getpid())
		return control_fd;
	if (control_fd >= 0)
		close(control_fd);
	control_fd = connect_to(path);
	control_pid = getpid();
	return control_fd;
}

int gtsim_remote_fd_ioctl(const char *path, int fd, unsigned long request, void *arg)
{
	int conn = control(path);
	return conn < 0 ? conn : ioctl_fds(conn, GTSIM_WIRE_FDIOCTL, fd, request, arg);
}

int gtsim_remote_sw_sync_open(const char *path)
{
	int conn = control(path), fd = -1;
	int ret = conn < 0 ? conn : call(conn, GTSIM_WIRE_SWSYNC_OPEN, 0, NULL, 0, false, -1, &fd);
	if (!ret && fd < 0)
		ret = -EIO;
	if (ret && fd >= 0)
		close(fd);
	return ret ? ret : fd;
}

void gtsim_remote_sw_sync_reap(const char *path)
{
	int conn = control(path), fd = -1;
	if (conn >= 0 && !call(conn, GTSIM_WIRE_SWSYNC_REAP, 0, NULL, 0, false, -1, &fd) && fd >= 0)
		close(fd);
}

/* The fault handler's connection: a thread of its own per thread, never
 * the control one, whose lock the interrupted code may hold. */
static _Thread_local int mmio_fd = -1;
static _Thread_local pid_t mmio_pid;

int gtsim_remote_mmio(const char *path, uint32_t reg, int write, uint32_t *value)
{
	if (mmio_fd < 0 || mmio_pid != getpid()) {
		if (mmio_fd >= 0)
			close(mmio_fd);
		mmio_fd = connect_to(path);
		mmio_pid = getpid();
		if (mmio_fd < 0)
			return mmio_fd;
	}
	/* small buffers only: this may run on a signal stack */
	struct gtsim_wire_mmio m = { reg, write ? 1u : 0u, *value };
	struct gtsim_wire_req req = { GTSIM_WIRE_MAGIC, GTSIM_WIRE_MMIO, 0, (int32_t)getpid(),
				      sizeof(m) };
	struct iovec iov[2] = { { &req, sizeof(req) }, { &m, sizeof(m) } };
	unsigned char rep[sizeof(struct gtsim_wire_rep) + sizeof(m)];
	int got_fd = -1;
	if (fd_pass_sendv(mmio_fd, iov, 2, NULL, 0) != (ssize_t)(sizeof(req) + sizeof(m)) ||
	    fd_pass_recv(mmio_fd, rep, sizeof(rep), &got_fd) != (ssize_t)sizeof(rep)) {
		if (got_fd >= 0)
			close(got_fd);
		return -EIO;
	}
	struct gtsim_wire_rep r;
	memcpy(&r, rep, sizeof(r));
	memcpy(&m, rep + sizeof(r), sizeof(m));
	if (!r.ret && !write)
		*value = (uint32_t)m.value;
	return r.ret;
}
