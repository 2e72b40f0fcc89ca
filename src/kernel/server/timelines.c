/* The device server's sw_sync timelines (server.h). A client's timeline
 * descriptor is the write end of a pipe the server made: it survives dup,
 * fork and SCM_RIGHTS, its inode names the timeline when a client passes
 * it back with an ioctl, and the read end the server keeps polls HUP once
 * the last copy in any process is closed; then the timeline goes, its
 * pending fences signalled with -ENOENT as sw_sync_debugfs_release does. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/trace.h"
#include "gtsim/gtsim.h"
#include "kernel/server/server.h"

struct timeline {
	ino_t ino;
	int rd;            /* the read end */
	struct gtsim_sw_timeline *tl;
	struct timeline *next;
};

struct server_timelines {
	pthread_mutex_t lock;
	struct timeline *list;
	int wake;          /* eventfd: the list changed, or stop */
	bool stop;
	pthread_t watcher;
	bool started;
};

/* Destroys the timelines whose pfd polled HUP (t->lock held). */
static void reap_locked(struct server_timelines *t, const struct pollfd *pfd, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (!(pfd[i].revents & (POLLHUP | POLLERR)))
			continue;
		for (struct timeline **pe = &t->list; *pe; pe = &(*pe)->next)
			if ((*pe)->rd == pfd[i].fd) {
				struct timeline *e = *pe;
				*pe = e->next;
				gtsim_sw_sync_destroy(e->tl);
				close(e->rd);
				free(e);
				break;
			}
	}
}

void timelines_reap(struct server_timelines *t)
{
	pthread_mutex_lock(&t->lock);
	unsigned n = 0;
	for (struct timeline *e = t->list; e; e = e->next)
		n++;
	struct pollfd *pfd = n ? calloc(n, sizeof(*pfd)) : NULL;
	unsigned i = 0;
	for (struct timeline *e = t->list; pfd && e; e = e->next)
		pfd[i++] = (struct pollfd){ e->rd, 0, 0 };
	if (pfd && poll(pfd, n, 0) > 0)
		reap_locked(t, pfd, n);
	pthread_mutex_unlock(&t->lock);
	free(pfd);
}

static void *watch(void *p)
{
	struct server_timelines *t = p;
	for (;;) {
		pthread_mutex_lock(&t->lock);
		unsigned n = 1;
		for (struct timeline *e = t->list; e; e = e->next)
			n++;
		struct pollfd *pfd = calloc(n, sizeof(*pfd));
		bool stop = t->stop;
		if (pfd) {
			pfd[0] = (struct pollfd){ t->wake, POLLIN, 0 };
			unsigned i = 1;
			for (struct timeline *e = t->list; e; e = e->next)
				pfd[i++] = (struct pollfd){ e->rd, 0, 0 };   /* POLLHUP always */
		}
		pthread_mutex_unlock(&t->lock);
		if (stop || !pfd) {
			free(pfd);
			return NULL;
		}
		if (poll(pfd, n, -1) > 0) {
			uint64_t v;
			if (pfd[0].revents && read(t->wake, &v, sizeof(v)) < 0)
				(void)0;
			pthread_mutex_lock(&t->lock);
			reap_locked(t, pfd + 1, n - 1);
			pthread_mutex_unlock(&t->lock);
		}
		free(pfd);
	}
}

struct server_timelines *timelines_create(void)
{
	struct server_timelines *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	pthread_mutex_init(&t->lock, NULL);
	t->wake = eventfd(0, EFD_CLOEXEC);
	return t;
}

void timelines_destroy(struct server_timelines *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&t->lock);
	t->stop = true;
	pthread_mutex_unlock(&t->lock);
	uint64_t one = 1;
	if (write(t->wake, &one, sizeof(one)) < 0)
		(void)0;
	if (t->started)
		pthread_join(t->watcher, NULL);
	for (struct timeline *e = t->list, *next; e; e = next) {
		next = e->next;
		gtsim_sw_sync_destroy(e->tl);
		close(e->rd);
		free(e);
	}
	close(t->wake);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

int timelines_open(struct server_timelines *t, int *client_fd)
{
	int p[2];
	struct stat st;
	struct timeline *e = calloc(1, sizeof(*e));
	if (!e || pipe2(p, O_CLOEXEC)) {
		free(e);
		return e ? -errno : -ENOMEM;
	}
	if (fstat(p[0], &st) || !(e->tl = gtsim_sw_sync_create())) {
		close(p[0]);
		close(p[1]);
		free(e);
		return -ENOMEM;
	}
	e->ino = st.st_ino;
	e->rd = p[0];
	pthread_mutex_lock(&t->lock);
	int ret = 0;
	if (!t->started) {
		ret = -pthread_create(&t->watcher, NULL, watch, t);
		t->started = !ret;
	}
	if (!ret) {
		e->next = t->list;
		t->list = e;
	}
	pthread_mutex_unlock(&t->lock);
	if (ret) {
		gtsim_sw_sync_destroy(e->tl);
		close(p[0]);
		close(p[1]);
		free(e);
		return ret;
	}
	uint64_t one = 1;
	if (write(t->wake, &one, sizeof(one)) < 0)
		(void)0;
	*client_fd = p[1];
	TRACE(TRACE_GEM, "shared device: sw_sync timeline %p (pipe inode %lu)", (void *)e->tl,
	      (unsigned long)e->ino);
	return 0;
}

int timelines_ioctl(struct server_timelines *t, int fd, unsigned long request, void *arg)
{
	struct stat st;
	if (fstat(fd, &st) || !S_ISFIFO(st.st_mode))
		return -ENOTTY;
	pthread_mutex_lock(&t->lock);
	struct timeline *e = t->list;
	while (e && e->ino != st.st_ino)
		e = e->next;
	/* under the lock: the watcher cannot destroy it meanwhile (the caller
	 * holds a copy of the write end anyway) */
	int ret = e ? gtsim_sw_sync_ioctl(e->tl, request, arg) : -ENOTTY;
	pthread_mutex_unlock(&t->lock);
	return ret;
}
