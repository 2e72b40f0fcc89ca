/* The device server's connections (gtsim/remote.h): an accept loop, one
 * thread per connection (a client's blocking ioctl, a GEM_WAIT, holds only
 * its own), and the end of the run once the last client has gone. A
 * connection's close is its DRM file's close, as a process's exit is in
 * i915 (its handles, contexts and requests go, drm_file release). */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/fd_pass.h"
#include "gtsim/gtsim.h"
#include "kernel/server/server.h"

struct server {
	struct gtsim_device *dev;
	pthread_mutex_t lock;
	pthread_cond_t idle;
	unsigned active, total;
	pthread_t *threads;
	unsigned nthreads, cap;
};

struct conn_start {
	struct server *srv;
	int fd;
};

#define MSG_MAX (sizeof(struct gtsim_wire_req) + GTSIM_WIRE_MAX_ARG)

static void *conn_main(void *p)
{
	struct conn_start start = *(struct conn_start *)p;
	free(p);
	struct server_conn c = { start.srv->dev, NULL, start.fd };
	unsigned char *msg = malloc(MSG_MAX + 1), *rep = malloc(MSG_MAX);
	for (;;) {
		int in_fd, out_fd;
		size_t rep_len;
		ssize_t n = msg && rep ? fd_pass_recv(c.fd, msg, MSG_MAX + 1, &in_fd) : -1;
		if (n <= 0)
			break;
		serve_request(&c, msg, (size_t)n, in_fd, rep, &rep_len, &out_fd);
		struct iovec iov = { rep, rep_len };
		bool sent = fd_pass_send(c.fd, &iov, 1, out_fd) == (ssize_t)rep_len;
		if (out_fd >= 0)
			close(out_fd);   /* the client has its own copy now */
		if (!sent)
			break;
	}
	free(msg);
	free(rep);
	gtsim_close(c.file);
	close(c.fd);
	pthread_mutex_lock(&start.srv->lock);
	start.srv->active--;
	pthread_cond_broadcast(&start.srv->idle);
	pthread_mutex_unlock(&start.srv->lock);
	return NULL;
}

static int start_conn(struct server *srv, int fd)
{
	struct conn_start *s = malloc(sizeof(*s));
	pthread_mutex_lock(&srv->lock);
	if (srv->nthreads == srv->cap) {
		unsigned cap = srv->cap ? 2 * srv->cap : 8;
		pthread_t *t = realloc(srv->threads, cap * sizeof(*t));
		if (t) {
			srv->threads = t;
			srv->cap = cap;
		}
	}
	int ret = -ENOMEM;
	if (s && srv->nthreads < srv->cap) {
		*s = (struct conn_start){ srv, fd };
		ret = -pthread_create(&srv->threads[srv->nthreads], NULL, conn_main, s);
	}
	if (!ret) {
		srv->nthreads++;
		srv->active++;
		srv->total++;
	}
	pthread_mutex_unlock(&srv->lock);
	if (ret)
		free(s);
	return ret;
}

struct accept_args {
	struct server *srv;
	int listen_fd;
};

static void *acceptor(void *p)
{
	struct accept_args *a = p;
	for (;;) {
		int fd = accept4(a->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			break;   /* shut down by gtsim_server_run, or broken */
		}
		if (start_conn(a->srv, fd))
			close(fd);
	}
	return NULL;
}

int gtsim_server_run(struct gtsim_device *dev, int listen_fd)
{
	if (!dev || listen_fd < 0)
		return -EINVAL;
	struct server srv = { .dev = dev };
	pthread_mutex_init(&srv.lock, NULL);
	pthread_cond_init(&srv.idle, NULL);
	struct accept_args a = { &srv, listen_fd };
	pthread_t acc;
	int ret = -pthread_create(&acc, NULL, acceptor, &a);
	if (!ret) {
		pthread_mutex_lock(&srv.lock);
		while (!srv.total || srv.active)
			pthread_cond_wait(&srv.idle, &srv.lock);
		pthread_mutex_unlock(&srv.lock);
		/* Wakes accept (Linux: a shut-down listening socket fails it). */
		shutdown(listen_fd, SHUT_RDWR);
		pthread_join(acc, NULL);
		for (unsigned i = 0; i < srv.nthreads; i++)
			pthread_join(srv.threads[i], NULL);
	}
	free(srv.threads);
	pthread_cond_destroy(&srv.idle);
	pthread_mutex_destroy(&srv.lock);
	return ret;
}
