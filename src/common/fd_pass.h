/* One message over a Unix socket with at most one file descriptor riding
 * along (SCM_RIGHTS): the device server's wire (gtsim/remote.h) and its
 * tests. Both retry on EINTR. */
#ifndef GTSIM_COMMON_FD_PASS_H
#define GTSIM_COMMON_FD_PASS_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>

/* Sends iov[0..n) as one message, with fd when fd >= 0. The bytes sent or
 * -errno. */
ssize_t fd_pass_send(int sock, const struct iovec *iov, int n, int fd);
/* Receives one message into buf; *fd the descriptor that came with it (-1:
 * none; any further one is closed), O_CLOEXEC. The length (0 at the end),
 * size + 1 when the message or its descriptors did not fit, or -errno. */
ssize_t fd_pass_recv(int sock, void *buf, size_t size, int *fd);

#endif
