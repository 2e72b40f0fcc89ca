/* The device server's pieces (docs/shared-device.md): server.c accepts
 * connections and runs one thread per connection; serve.c turns one wire
 * message into one ioctl on the connection's DRM file. */
#ifndef GTSIM_KERNEL_SERVER_SERVER_H
#define GTSIM_KERNEL_SERVER_SERVER_H

#include <stddef.h>

#include "gtsim/remote.h"

struct gtsim_device;
struct gtsim_file;

struct server_conn {
	struct gtsim_device *dev;
	struct gtsim_file *file;   /* after GTSIM_WIRE_OPEN */
	int fd;                    /* the connection */
};

/* Serves one request (msg[0..len), in_fd the descriptor that came with it
 * or -1; serve owns it). Fills rep (header + struct, *rep_len bytes) and
 * *out_fd (a descriptor to pass back, the caller closes it; -1 none). */
void serve_request(struct server_conn *c, const void *msg, size_t len, int in_fd,
		   void *rep, size_t *rep_len, int *out_fd);

#endif
