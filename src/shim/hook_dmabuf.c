/* Interposed: lseek/lseek64, poll and ppoll, for the dma-buf descriptors
 * PRIME exports (the kernel model's object memfds, "/memfd:gtsim-gem");
 * their ioctls (DMA_BUF_IOCTL_SYNC) and mmap bounds are hook_io.c's.
 *  - lseek: dma_buf_llseek() finds the size only: SEEK_END or SEEK_SET
 *    with offset 0, anything else -EINVAL.
 *  - poll: dma_buf_poll() waits on the object's fences: POLLIN for the
 *    GPU's outstanding write, POLLOUT for every outstanding use
 *    (gtsim_dmabuf_poll; in shared mode the server's device answers,
 *    GTSIM_DMABUF_IOCTL_POLL). A poll set holding dma-bufs is polled in slices
 *    of at most 1 ms: the other descriptors through the system call, the
 *    dma-bufs through the model, until one is ready or the time is up. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/sigdefer.h"
#include "common/trace.h"
#include "gtsim/gtsim.h"
#include "gtsim/remote.h"
#include "shim.h"

#define DMABUF_LINK "/memfd:gtsim-gem"

bool shim_fd_links_to(int fd, const char *prefix)
{
	if (fd < 0)
		return false;
	char path[64], link[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	long n = syscall(SYS_readlink, path, link, sizeof(link) - 1);
	return n >= (long)strlen(prefix) && !memcmp(link, prefix, strlen(prefix));
}

bool shim_is_dmabuf(int fd)
{
	return shim_fd_links_to(fd, DMABUF_LINK);
}

static off_t dmabuf_lseek(int fd, off_t offset, int whence)
{
	if (shim_is_dmabuf(fd) && (offset != 0 || (whence != SEEK_END && whence != SEEK_SET))) {
		errno = EINVAL;
		return -1;
	}
	long r = syscall(SYS_lseek, fd, offset, whence);
	return (off_t)r;
}

off_t lseek(int fd, off_t offset, int whence)
{
	SIGDEFER_SCOPE;
	return dmabuf_lseek(fd, offset, whence);
}

off_t lseek64(int fd, off_t offset, int whence)
{
	SIGDEFER_SCOPE;
	return dmabuf_lseek(fd, offset, whence);
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int sys_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts,
		     const sigset_t *mask)
{
	return (int)syscall(SYS_ppoll, fds, n, ts, mask, mask ? _NSIG / 8 : 0);
}

/* timeout_ns < 0: forever. */
/* A dma-buf's readiness from the process's device, or from the server's
 * in shared mode (the descriptor travels with the question). */
static int dmabuf_revents(struct gtsim_device *dev, const char *server, int fd, short events)
{
	if (!server)
		return gtsim_dmabuf_poll(dev, fd, events);
	struct gtsim_dmabuf_poll p = { .events = events };
	int r = gtsim_remote_fd_ioctl(server, fd, GTSIM_DMABUF_IOCTL_POLL, &p);
	return r < 0 ? r : p.revents;
}

static int poll_common(struct pollfd *fds, nfds_t n, int64_t timeout_ns, const sigset_t *mask)
{
	bool *dmabuf = NULL;
	unsigned count = 0;
	struct gtsim_device *dev = NULL;
	for (nfds_t i = 0; i < n && fds; i++) {
		if (!shim_is_dmabuf(fds[i].fd))
			continue;
		if (!dmabuf && !(dmabuf = calloc(n, sizeof(*dmabuf))))
			break;
		dmabuf[i] = true;
		count++;
	}
	const char *server = count ? devnode_server() : NULL;
	if (count && !server)
		dev = devnode_device();
	if (!count || (!dev && !server)) {
		free(dmabuf);
		struct timespec ts = { timeout_ns / 1000000000, timeout_ns % 1000000000 };
		return sys_ppoll(fds, n, timeout_ns < 0 ? NULL : &ts, mask);
	}
	/* The others in a copy, the dma-bufs' slots disabled (fd -1). */
	struct pollfd *others = malloc(n * sizeof(*others));
	if (!others) {
		free(dmabuf);
		errno = ENOMEM;
		return -1;
	}
	int64_t deadline = timeout_ns < 0 ? -1 : now_ns() + timeout_ns;
	int ready;
	for (;;) {
		ready = 0;
		for (nfds_t i = 0; i < n; i++) {
			others[i] = fds[i];
			if (dmabuf[i]) {
				others[i].fd = -1;
				int r = dmabuf_revents(dev, server, fds[i].fd, fds[i].events);
				fds[i].revents = (short)(r < 0 ? POLLNVAL : r);
				ready += fds[i].revents != 0;
			}
		}
		int64_t left = deadline < 0 ? 1000000 : deadline - now_ns();
		if (ready || left <= 0)
			left = 0;
		if (left > 1000000)
			left = 1000000;
		struct timespec ts = { 0, left };
		/* a signal that came while the model was asked (deferred
		 * then) ends the poll as one inside ppoll does: EINTR */
		int r = -1;
		errno = EINTR;
		if (!sigdefer_open())
			r = sys_ppoll(others, n, &ts, mask);
		sigdefer_close();
		if (r < 0) {
			ready = -1;
			break;
		}
		for (nfds_t i = 0; i < n; i++)
			if (!dmabuf[i]) {
				fds[i].revents = others[i].revents;
				ready += others[i].revents != 0;
			}
		if (ready || (deadline >= 0 && now_ns() >= deadline))
			break;
	}
	free(others);
	free(dmabuf);
	return ready;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	SIGDEFER_SCOPE;
	return poll_common(fds, n, timeout < 0 ? -1 : (int64_t)timeout * 1000000, NULL);
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask)
{
	SIGDEFER_SCOPE;
	return poll_common(fds, n, ts ? (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec : -1, mask);
}
