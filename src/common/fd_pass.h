/* One message over a Unix socket with file descriptors riding along
 * (SCM_RIGHTS; at most FD_PASS_MAX, fd_pass_send/recv: one): the device server's wire (gtsim/remote.h) and its
 * tests. Both retry on EINTR. */
#ifndef GTSIM_COMMON_FD_PASS_H
#define GTSIM_COMMON_FD_PASS_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

/* Sends iov[0..n) as one message, with fd when fd >= 0. The bytes sent or
 * -errno. */
ssize_t fd_pass_send(int sock, const struct iovec *iov, int n, int fd);
/* Receives one message into buf; *fd the descriptor that came with it (-1:
 * none; any further one is closed), O_CLOEXEC. The length (0 at the end),
 * size + 1 when the message or its descriptors did not fit, or -errno. */
ssize_t fd_pass_recv(int sock, void *buf, size_t size, int *fd);

/* The address of a Unix socket named path: a file, or when path starts
 * with '@' a name in the abstract namespace (nothing left on disk when
 * the owner is killed). Its length for bind/connect, 0 when too long. */
struct sockaddr_un;
socklen_t fd_pass_addr(const char *path, struct sockaddr_un *a);

#define FD_PASS_MAX 2
/* The same with the descriptors fds[0..nfds) that are >= 0 (at most
 * FD_PASS_MAX), in order; fd_pass_recvv fills fds[0..max) (-1: none). */
ssize_t fd_pass_sendv(int sock, const struct iovec *iov, int n, const int *fds, unsigned nfds);
ssize_t fd_pass_recvv(int sock, void *buf, size_t size, int *fds, unsigned max);

#endif
