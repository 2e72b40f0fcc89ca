/* Shared-device mode (docs/shared-device.md): one device server process
 * owns the gtsim_device; client processes reach it over a Unix socket, one
 * connection per DRM open, one message per ioctl.
 *
 * The wire (SOCK_SEQPACKET, so a message is one record):
 *   request  struct gtsim_wire_req, then `size` bytes of the ioctl's struct
 *            (size = _IOC_SIZE(request)); an fd the struct carries in
 *            (common/drm_fd_args.h) travels as SCM_RIGHTS;
 *   reply    struct gtsim_wire_rep, then the struct as the handler left it;
 *            an fd it carries out travels as SCM_RIGHTS and the client
 *            writes its own number for it into the struct.
 * The first request of a connection is GTSIM_WIRE_OPEN (request = the node
 * minor: 0 card0, 128 renderD128), which makes the connection's DRM file.
 * Pointers inside the struct stay the client's: the server reads and
 * writes them in process `pid` (process_vm_readv/writev), -EFAULT when
 * they are bad, as i915's copy_from_user. */
#ifndef GTSIM_REMOTE_H
#define GTSIM_REMOTE_H

#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gtsim_device;

#define GTSIM_WIRE_MAGIC 0x67747331u   /* "gts1" */
enum gtsim_wire_op { GTSIM_WIRE_OPEN = 1, GTSIM_WIRE_IOCTL = 2 };

struct gtsim_wire_req {
	uint32_t magic;
	uint32_t op;          /* enum gtsim_wire_op */
	uint64_t request;     /* OPEN: the minor; IOCTL: the ioctl number */
	int32_t pid;          /* the calling process (its memory for pointers) */
	uint32_t size;        /* bytes of struct that follow */
};

struct gtsim_wire_rep {
	int32_t ret;          /* 0 or -errno */
	uint32_t size;        /* bytes of struct that follow */
};

/* The largest struct: _IOC_SIZE's 14 bits. */
#define GTSIM_WIRE_MAX_ARG 16383u

/* Server (kernel/server/): serves every connection accepted on listen_fd
 * (a listening SOCK_SEQPACKET Unix socket) on a thread of its own against
 * dev, until the last client has gone (at least one came). 0 or -errno. */
int gtsim_server_run(struct gtsim_device *dev, int listen_fd);

/* Client (shim/remote/): a new DRM file of node minor on the server
 * listening at path; the connection's descriptor or -errno. */
int gtsim_remote_open(const char *path, int minor);
/* An ioctl on that file, as gtsim_ioctl: 0 or -errno. */
int gtsim_remote_ioctl(int fd, unsigned long request, void *arg);

#ifdef __cplusplus
}
#endif

#endif
