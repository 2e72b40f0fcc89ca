/* The device server's pieces (docs/shared-device.md): server.c accepts
 * connections, runs one thread per connection and keeps the DRM files
 * (several connections may reach one file: gtsim/remote.h's ATTACH);
 * serve.c turns one wire message into one operation on the connection's
 * file. */
#ifndef GTSIM_KERNEL_SERVER_SERVER_H
#define GTSIM_KERNEL_SERVER_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "common/fd_pass.h"
#include "gtsim/remote.h"

struct gtsim_device;
struct gtsim_file;
struct server;

/* A DRM file and the connections that reach it. */
struct server_file {
	struct gtsim_file *file;
	uint64_t id;
	unsigned refs;
	struct server_file *next;
};

struct server_conn {
	struct server *srv;
	struct gtsim_device *dev;
	struct server_file *sf;    /* after GTSIM_WIRE_OPEN or ATTACH */
	int fd;                    /* the connection */
};

/* Waits for the connections whose clients have hung up to close their
 * files (server.c), before an OPEN. */
void server_settle_closes(struct server *srv, int self_fd);
/* A new file of node minor (one reference), or NULL. */
struct server_file *server_file_open(struct server *srv, int minor);
/* A new reference to the file id, or NULL when it is closed. */
struct server_file *server_file_get(struct server *srv, uint64_t id);
/* Drops a reference; the last one closes the file (drm_release). */
void server_file_put(struct server *srv, struct server_file *sf);

/* The server's sw_sync timelines (timelines.c). */
struct server_timelines;
struct server_timelines *timelines_create(void);
void timelines_destroy(struct server_timelines *t);
/* A new timeline: *client_fd the descriptor for the client (the caller
 * passes it on and closes its copy). 0 or -errno. */
int timelines_open(struct server_timelines *t, int *client_fd);
/* An ioctl on the timeline fd names (-ENOTTY: none). */
int timelines_ioctl(struct server_timelines *t, int fd, unsigned long request, void *arg);
/* Destroys now the timelines whose last descriptor was closed (a client
 * closing one waits for this, as the close of a sw_sync file signals its
 * fences before close returns). */
void timelines_reap(struct server_timelines *t);
struct server_timelines *server_timelines(struct server *srv);
/* An ioctl on a sw_sync timeline a client passed: the server's own, else
 * (a server inside a process, gtsim_server_start) one of that process's
 * (0.. or -errno, -ENOTTY: neither). */
int server_timeline_ioctl(struct server *srv, int fd, unsigned long request, void *arg);

/* Serves one request (msg[0..len), in_fds the descriptors that came with
 * it, -1 where none; serve owns them). Fills rep (header + struct, *rep_len bytes) and
 * *out_fd (a descriptor to pass back, the caller closes it; -1 none);
 * *rep_len 0: the message has no reply (GTSIM_WIRE_CANCEL). */
void serve_request(struct server_conn *c, const void *msg, size_t len, const int *in_fds,
		   void *rep, size_t *rep_len, int *out_fd);

#endif
