/* The device server's connections (gtsim/remote.h): an accept loop, one
 * thread per connection (a client's blocking ioctl, a GEM_WAIT, holds only
 * its own), the DRM files the connections reach (a client's threads and
 * fork children reach one file by connections of their own), and the end
 * of the run. A file's last connection closing is the file's close, as a
 * process's exit is in i915 (its handles, contexts and requests go,
 * drm_file release). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/fd_pass.h"
#include "gtsim/gtsim.h"
#include "kernel/server/server.h"

/* A live connection, for server_settle_closes (under srv->lock). */
struct conn_entry {
	struct conn_entry *next;
	int fd;
	uint64_t id;
};

struct server {
	struct gtsim_device *dev;
	struct conn_entry *conns;  /* live connections, under lock */
	uint64_t next_conn;
	pthread_mutex_t lock;
	pthread_cond_t idle;
	unsigned active, total;
	bool ended;                /* end_fd polled readable */
	pthread_t *threads;
	unsigned nthreads, cap;
	struct server_file *files; /* under lock */
	uint64_t next_id;
	struct server_timelines *timelines;
	bool background;           /* gtsim_server_start: threads detached */
	gtsim_own_timeline_ioctl_fn *own_timeline_ioctl;   /* gtsim_server_start's */
};

/* gtsim_server_start's: a server running in the background. */
struct gtsim_server {
	struct server srv;
};

struct server_timelines *server_timelines(struct server *srv)
{
	return srv->timelines;
}

int server_timeline_ioctl(struct server *srv, int fd, unsigned long request, void *arg)
{
	int ret = timelines_ioctl(srv->timelines, fd, request, arg);
	if (ret == -ENOTTY && srv->own_timeline_ioctl)
		ret = srv->own_timeline_ioctl(fd, request, arg);
	return ret;
}

int gtsim_server_timeline_ioctl(struct gtsim_server *gs, int fd, unsigned long request,
				void *arg)
{
	return timelines_ioctl(gs->srv.timelines, fd, request, arg);
}

struct server_file *server_file_open(struct server *srv, int minor)
{
	struct server_file *sf = calloc(1, sizeof(*sf));
	if (!sf || !(sf->file = gtsim_open_node(srv->dev, minor))) {
		free(sf);
		return NULL;
	}
	sf->refs = 1;
	pthread_mutex_lock(&srv->lock);
	sf->id = ++srv->next_id;
	sf->next = srv->files;
	srv->files = sf;
	pthread_mutex_unlock(&srv->lock);
	return sf;
}

struct server_file *server_file_get(struct server *srv, uint64_t id)
{
	pthread_mutex_lock(&srv->lock);
	struct server_file *sf = srv->files;
	while (sf && sf->id != id)
		sf = sf->next;
	if (sf)
		sf->refs++;
	pthread_mutex_unlock(&srv->lock);
	return sf;
}

void server_file_put(struct server *srv, struct server_file *sf)
{
	if (!sf)
		return;
	pthread_mutex_lock(&srv->lock);
	bool last = --sf->refs == 0;
	if (last)
		for (struct server_file **p = &srv->files; *p; p = &(*p)->next)
			if (*p == sf) {
				*p = sf->next;
				break;
			}
	pthread_mutex_unlock(&srv->lock);
	if (last) {
		gtsim_close(sf->file);
		free(sf);
	}
}

uint64_t gtsim_server_share_file(struct gtsim_server *gs, struct gtsim_file *file)
{
	struct server *srv = &gs->srv;
	struct server_file *sf = calloc(1, sizeof(*sf));
	if (!sf)
		return 0;
	*sf = (struct server_file){ .file = file, .refs = 1 };
	pthread_mutex_lock(&srv->lock);
	sf->id = ++srv->next_id;
	sf->next = srv->files;
	srv->files = sf;
	pthread_mutex_unlock(&srv->lock);
	return sf->id;
}

void gtsim_server_release_file(struct gtsim_server *gs, uint64_t id)
{
	struct server *srv = &gs->srv;
	pthread_mutex_lock(&srv->lock);
	struct server_file *sf = srv->files;
	while (sf && sf->id != id)
		sf = sf->next;
	pthread_mutex_unlock(&srv->lock);
	/* the caller's reference keeps sf listed until this put */
	server_file_put(srv, sf);
}

struct conn_start {
	struct server *srv;
	int fd;
	uint64_t id;
};

static bool conn_live(struct server *srv, uint64_t id)
{
	for (struct conn_entry *e = srv->conns; e; e = e->next)
		if (e->id == id)
			return true;
	return false;
}

/* A client's close() of its DRM descriptor is over before its next open()
 * starts (program order), but the connection's thread may not have closed
 * the file yet: wait (at most 2 s) for every connection whose peer has
 * hung up to finish, so that the new open sees the device as i915 would
 * (the old file's master role gone; IGT opens card0 again at once). */
void server_settle_closes(struct server *srv, int self_fd)
{
	pthread_mutex_lock(&srv->lock);
	unsigned n = 0;
	for (struct conn_entry *e = srv->conns; e; e = e->next)
		n++;
	struct pollfd *pfd = n ? calloc(n, sizeof(*pfd)) : NULL;
	uint64_t *ids = n ? calloc(n, sizeof(*ids)) : NULL;
	unsigned k = 0;
	for (struct conn_entry *e = srv->conns; e && pfd && ids; e = e->next)
		if (e->fd != self_fd) {
			pfd[k] = (struct pollfd){ e->fd, POLLRDHUP, 0 };
			ids[k++] = e->id;
		}
	unsigned hung = 0;
	if (k && poll(pfd, k, 0) > 0)
		for (unsigned i = 0; i < k; i++)
			if (pfd[i].revents & (POLLRDHUP | POLLHUP | POLLERR))
				ids[hung++] = ids[i];
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	for (unsigned i = 0; i < hung; i++)
		while (conn_live(srv, ids[i]) &&
		       pthread_cond_timedwait(&srv->idle, &srv->lock, &until) == 0)
			;
	pthread_mutex_unlock(&srv->lock);
	free(pfd);
	free(ids);
}

#define MSG_MAX (sizeof(struct gtsim_wire_req) + GTSIM_WIRE_MAX_ARG)

static void *conn_main(void *p)
{
	struct conn_start start = *(struct conn_start *)p;
	free(p);
	struct server_conn c = { start.srv, start.srv->dev, NULL, start.fd };
	unsigned char *msg = malloc(MSG_MAX + 1), *rep = malloc(MSG_MAX);
	for (;;) {
		int in_fds[FD_PASS_MAX], out_fd;
		size_t rep_len;
		ssize_t n = msg && rep ? fd_pass_recvv(c.fd, msg, MSG_MAX + 1, in_fds, FD_PASS_MAX)
				       : -1;
		if (n <= 0)
			break;
		serve_request(&c, msg, (size_t)n, in_fds, rep, &rep_len, &out_fd);
		if (!rep_len)
			continue;   /* a message without a reply (GTSIM_WIRE_CANCEL) */
		struct iovec iov = { rep, rep_len };
		bool sent = fd_pass_send(c.fd, &iov, 1, out_fd) == (ssize_t)rep_len;
		if (out_fd >= 0)
			close(out_fd);   /* the client has its own copy now */
		if (!sent)
			break;
	}
	free(msg);
	free(rep);
	server_file_put(start.srv, c.sf);
	pthread_mutex_lock(&start.srv->lock);
	for (struct conn_entry **p = &start.srv->conns; *p; p = &(*p)->next)
		if ((*p)->id == start.id) {
			struct conn_entry *e = *p;
			*p = e->next;
			free(e);
			break;
		}
	close(c.fd);   /* under the lock: settle polls only live descriptors */
	start.srv->active--;
	pthread_cond_broadcast(&start.srv->idle);
	pthread_mutex_unlock(&start.srv->lock);
	return NULL;
}

static int start_conn(struct server *srv, int fd)
{
	struct conn_start *s = malloc(sizeof(*s));
	struct conn_entry *e = malloc(sizeof(*e));
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
	if (s && e && srv->nthreads < srv->cap) {
		*s = (struct conn_start){ srv, fd, ++srv->next_conn };
		*e = (struct conn_entry){ srv->conns, fd, s->id };
		srv->conns = e;
		ret = -pthread_create(&srv->threads[srv->nthreads], NULL, conn_main, s);
		if (ret)
			srv->conns = e->next;   /* freed below */
		else
			e = NULL;               /* the list's now */
	}
	free(e);
	if (!ret && srv->background)     /* never joined: ends on its own */
		pthread_detach(srv->threads[srv->nthreads]);
	if (!ret) {
		srv->nthreads += !srv->background;
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

/* The lock, the idle condition and the timelines of a new server. */
static int server_init(struct server *srv, struct gtsim_device *dev)
{
	*srv = (struct server){ .dev = dev, .timelines = timelines_create() };
	if (!srv->timelines)
		return -ENOMEM;
	pthread_mutex_init(&srv->lock, NULL);
	pthread_cond_init(&srv->idle, NULL);
	return 0;
}

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

struct end_args {
	struct server *srv;
	int end_fd;
};

/* Waits for end_fd (the run's program has exited). */
static void *end_watch(void *p)
{
	struct end_args *e = p;
	struct pollfd pfd = { e->end_fd, POLLIN, 0 };
	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
	pthread_mutex_lock(&e->srv->lock);
	e->srv->ended = true;
	pthread_cond_broadcast(&e->srv->idle);
	pthread_mutex_unlock(&e->srv->lock);
	return NULL;
}

int gtsim_server_run_until(struct gtsim_device *dev, int listen_fd, int end_fd)
{
	if (!dev || listen_fd < 0)
		return -EINVAL;
	struct server srv;
	int err = server_init(&srv, dev);
	if (err)
		return err;
	struct accept_args a = { &srv, listen_fd };
	struct end_args e = { &srv, end_fd };
	pthread_t acc, watch;
	int ret = end_fd >= 0 ? -pthread_create(&watch, NULL, end_watch, &e) : 0;
	if (!ret && (ret = -pthread_create(&acc, NULL, acceptor, &a)) && end_fd >= 0) {
		pthread_cancel(watch);
		pthread_join(watch, NULL);
	}
	if (!ret) {
		pthread_mutex_lock(&srv.lock);
		while (end_fd >= 0 ? !srv.ended || srv.active : !srv.total || srv.active)
			pthread_cond_wait(&srv.idle, &srv.lock);
		pthread_mutex_unlock(&srv.lock);
		/* Wakes accept (Linux: a shut-down listening socket fails it). */
		shutdown(listen_fd, SHUT_RDWR);
		pthread_join(acc, NULL);
		if (end_fd >= 0)
			pthread_join(watch, NULL);
		for (unsigned i = 0; i < srv.nthreads; i++)
			pthread_join(srv.threads[i], NULL);
	}
	free(srv.threads);
	timelines_destroy(srv.timelines);
	pthread_cond_destroy(&srv.idle);
	pthread_mutex_destroy(&srv.lock);
	return ret;
}

int gtsim_server_run(struct gtsim_device *dev, int listen_fd)
{
	return gtsim_server_run_until(dev, listen_fd, -1);
}

/* A server inside a program's own process: its threads take none of the
 * program's signals (they would run the program's handlers on threads
 * the program never made) and live as long as the process. */
struct gtsim_server *gtsim_server_start(struct gtsim_device *dev, int listen_fd,
					gtsim_own_timeline_ioctl_fn *own_timeline_ioctl)
{
	struct gtsim_server *gs = malloc(sizeof(*gs));
	struct server *srv = gs ? &gs->srv : NULL;
	struct accept_args *a = malloc(sizeof(*a));
	if (!dev || listen_fd < 0 || !gs || !a || server_init(srv, dev)) {
		free(gs);
		free(a);
		return NULL;
	}
	srv->background = true;
	srv->own_timeline_ioctl = own_timeline_ioctl;
	*a = (struct accept_args){ srv, listen_fd };
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);   /* inherited by the connections' */
	pthread_t acc;
	int ret = pthread_create(&acc, NULL, acceptor, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		timelines_destroy(srv->timelines);
		free(gs);
		free(a);
		return NULL;
	}
	pthread_detach(acc);
	return gs;
}
