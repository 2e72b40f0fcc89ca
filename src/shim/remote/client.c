/* The device server's client side (gtsim/remote.h): a connection per DRM
 * open, one request and its reply per ioctl. The struct goes by value; a
 * descriptor inside it (common/drm_fd_args.h) goes as SCM_RIGHTS and the
 * one coming back gets this process's number written into the struct. */
#include <errno.h>
#include <fcntl.h>
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
#include "gtsim/remote.h"


/* One request and its reply at a time per connection among this
 * process's threads (a lock per descriptor number, hashed). Two processes
 * sharing one connection (a fork child) are not serialized yet. */
static pthread_mutex_t conn_lock[64] = { [0 ... 63] = PTHREAD_MUTEX_INITIALIZER };

static int call_locked(int fd, uint32_t op, unsigned long request, void *arg, uint32_t size,
		int pass_fd, int *got_fd)
{
	struct gtsim_wire_req req = { GTSIM_WIRE_MAGIC, op, request, (int32_t)getpid(), size };
	unsigned char rep[sizeof(struct gtsim_wire_rep) + GTSIM_WIRE_MAX_ARG];
	struct gtsim_wire_rep r;
	struct iovec iov[2] = { { &req, sizeof(req) }, { arg, size } };
	ssize_t n = fd_pass_send(fd, iov, size ? 2 : 1, pass_fd);
	if (n < 0)
		return (int)n;
	if ((size_t)n != sizeof(req) + size)
		return -EIO;
	n = fd_pass_recv(fd, rep, sizeof(rep), got_fd);
	if (n < 0)
		return (int)n;
	if ((size_t)n < sizeof(r))
		return -EIO;   /* the server went away */
	memcpy(&r, rep, sizeof(r));
	if ((size_t)n != sizeof(r) + r.size || (r.size && r.size != size))
		return -EIO;
	if (r.size && (_IOC_DIR(request) & _IOC_READ))
		memcpy(arg, rep + sizeof(r), r.size);
	return r.ret;
}

static int call(int fd, uint32_t op, unsigned long request, void *arg, uint32_t size,
		int pass_fd, int *got_fd)
{
	pthread_mutex_t *l = &conn_lock[(unsigned)fd % 64];
	pthread_mutex_lock(l);
	int ret = call_locked(fd, op, request, arg, size, pass_fd, got_fd);
	pthread_mutex_unlock(l);
	return ret;
}

int gtsim_remote_open(const char *path, int minor)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	if (!path || strlen(path) >= sizeof(a.sun_path))
		return -EINVAL;
	strcpy(a.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
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
	int got_fd;
	int ret = call(fd, GTSIM_WIRE_OPEN, (unsigned long)minor, NULL, 0, -1, &got_fd);
	if (got_fd >= 0)
		close(got_fd);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

int gtsim_remote_ioctl(int fd, unsigned long request, void *arg)
{
	uint32_t size = _IOC_SIZE(request);
	if (size && !arg)
		return -EFAULT;
	struct drm_fd_args fds = drm_fd_args(request, arg);
	int pass_fd = -1, got_fd = -1;
	if (fds.has_in) {
		memcpy(&pass_fd, (char *)arg + fds.in_off, sizeof(pass_fd));
		if (pass_fd >= 0 && fcntl(pass_fd, F_GETFD) < 0)
			pass_fd = -1;   /* not open: the server sees -1 and says why */
	}
	int ret = call(fd, GTSIM_WIRE_IOCTL, request, arg, size, pass_fd, &got_fd);
	if (got_fd >= 0 && ret == 0 && fds.has_out && (_IOC_DIR(request) & _IOC_READ))
		memcpy((char *)arg + fds.out_off, &got_fd, sizeof(got_fd));
	else if (got_fd >= 0)
		close(got_fd);
	return ret;
}
