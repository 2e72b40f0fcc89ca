/* Messages with descriptors over a Unix socket (fd_pass.h). */
#include "common/fd_pass.h"

#include <errno.h>
#include <string.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

ssize_t fd_pass_sendv(int sock, const struct iovec *iov, int n, const int *fds, unsigned nfds)
{
	union { struct cmsghdr h; char b[CMSG_SPACE(FD_PASS_MAX * sizeof(int))]; } ctl;
	struct msghdr m = { .msg_iov = (struct iovec *)iov, .msg_iovlen = (size_t)n };
	unsigned k = 0;
	int pass[FD_PASS_MAX];
	for (unsigned i = 0; i < nfds && k < FD_PASS_MAX; i++)
		if (fds[i] >= 0)
			pass[k++] = fds[i];
	if (k) {
		memset(&ctl, 0, sizeof(ctl));
		m.msg_control = ctl.b;
		m.msg_controllen = CMSG_SPACE(k * sizeof(int));
		struct cmsghdr *h = CMSG_FIRSTHDR(&m);
		h->cmsg_level = SOL_SOCKET;
		h->cmsg_type = SCM_RIGHTS;
		h->cmsg_len = CMSG_LEN(k * sizeof(int));
		memcpy(CMSG_DATA(h), pass, k * sizeof(int));
	}
	ssize_t r;
	do
		r = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

ssize_t fd_pass_send(int sock, const struct iovec *iov, int n, int fd)
{
	return fd_pass_sendv(sock, iov, n, &fd, 1);
}

ssize_t fd_pass_recvv(int sock, void *buf, size_t size, int *fds, unsigned max)
{
	union { struct cmsghdr h; char b[CMSG_SPACE(4 * sizeof(int))]; } ctl;
	struct iovec iov = { buf, size };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = ctl.b, .msg_controllen = sizeof(ctl.b) };
	ssize_t r;
	do
		r = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	while (r < 0 && errno == EINTR);
	unsigned got = 0;
	for (unsigned i = 0; i < max; i++)
		fds[i] = -1;
	if (r < 0)
		return -errno;
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
		if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
			continue;
		size_t nfd = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < nfd; i++) {
			int f;
			memcpy(&f, CMSG_DATA(h) + i * sizeof(int), sizeof(f));
			if (got < max)
				fds[got++] = f;
			else
				close(f);
		}
	}
	if (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC))
		return (ssize_t)size + 1;
	return r;
}

ssize_t fd_pass_recv(int sock, void *buf, size_t size, int *fd)
{
	return fd_pass_recvv(sock, buf, size, fd, 1);
}

socklen_t fd_pass_addr(const char *path, struct sockaddr_un *a)
{
	size_t n = path ? strlen(path) : sizeof(a->sun_path);
	if (n >= sizeof(a->sun_path))
		return 0;
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	memcpy(a->sun_path, path, n);
	if (path[0] == '@')
		a->sun_path[0] = '\0';   /* abstract: the length bounds the name */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (path[0] != '@'));
}
