/* What the shim's e2e tests with several processes share: a child's exit
 * status, and a descriptor passed over a Unix socket (SCM_RIGHTS). */
#ifndef GTSIM_TESTS_SHIM_PROC_H
#define GTSIM_TESTS_SHIM_PROC_H

#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

/* The exit status of child pid after waitpid (128 + signal when killed),
 * -1 when it cannot be waited for. */
static inline int reap(pid_t pid)
{
	int st = -1;
	if (pid <= 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* fd over sock with one byte of data: 0 or -1. */
static inline int send_fd(int sock, int fd)
{
	union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(int))]; } ctl;
	memset(&ctl, 0, sizeof(ctl));
	char byte = 'f';
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
			      .msg_controllen = sizeof(ctl.b) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&msg);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

/* The descriptor send_fd passed, numbered here; -1 when none came. */
static inline int recv_fd(int sock)
{
	union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(int))]; } ctl;
	char byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
			      .msg_controllen = sizeof(ctl.b) };
	int fd = -1;
	if (recvmsg(sock, &msg, 0) == 1 && CMSG_FIRSTHDR(&msg))
		memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(fd));
	return fd;
}

#endif
