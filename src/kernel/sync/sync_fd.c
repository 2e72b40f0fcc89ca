/* sync_file and syncobj fds: the read end of a pipe per object (see
 * sync_fd.h). A pipe's read end polls like a sync_file: POLLIN once the
 * "ready" byte is in, never POLLOUT; each pipe has an inode of its own to
 * recognise copies of the fd; and the write end, which the registry keeps,
 * reports POLLERR once every copy of the read end is closed. The byte is
 * written with SIGPIPE blocked, so a client that closed its end meanwhile
 * costs nothing. */
#include "kernel/sync/sync_fd.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

struct sync_fd_entry {
	int refcount;               /* atomic */
	int ready;                  /* atomic: the byte was sent */
	int our_fd;                 /* the end the registry keeps */
	dev_t dev;
	ino_t ino;                  /* of the client's end */
	enum sync_fd_kind kind;
	void *obj;
	const struct sync_fd_ops *ops;
	char name[32];
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sync_fd_entry **entries;
static unsigned num_entries, cap_entries;

struct sync_fd_entry *sync_fd_entry_get(struct sync_fd_entry *e)
{
	if (e)
		__atomic_add_fetch(&e->refcount, 1, __ATOMIC_RELAXED);
	return e;
}

void sync_fd_entry_put(struct sync_fd_entry *e)
{
	if (!e || __atomic_sub_fetch(&e->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	close(e->our_fd);
	e->ops->put(e->obj);
	free(e);
}

void sync_fd_mark_ready(struct sync_fd_entry *e)
{
	if (e && !__atomic_exchange_n(&e->ready, 1, __ATOMIC_ACQ_REL)) {
		char byte = 1;
		sigset_t pipe_only, old;
		sigemptyset(&pipe_only);
		sigaddset(&pipe_only, SIGPIPE);
		pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
		if (write(e->our_fd, &byte, 1) < 0 && errno == EPIPE) {
			/* Nobody reads any more: take back the SIGPIPE this
			 * thread just got, unless one was pending before. */
			if (!sigismember(&old, SIGPIPE)) {
				struct timespec zero = { 0, 0 };
				sigtimedwait(&pipe_only, NULL, &zero);
			}
		}
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
}

/* Drops entries whose read end is closed everywhere (our write end polls
 * POLLERR). Caller holds registry_lock. */
static void collect_closed_locked(void)
{
	if (!num_entries)
		return;
	struct pollfd *pfds = calloc(num_entries, sizeof(*pfds));
	if (!pfds)
		return;
	for (unsigned i = 0; i < num_entries; i++)
		pfds[i].fd = entries[i]->our_fd;
	if (poll(pfds, num_entries, 0) > 0) {
		unsigned kept = 0;
		for (unsigned i = 0; i < num_entries; i++) {
			if (pfds[i].revents & (POLLHUP | POLLERR | POLLNVAL))
				sync_fd_entry_put(entries[i]);
			else
				entries[kept++] = entries[i];
		}
		num_entries = kept;
	}
	free(pfds);
}

int sync_fd_create(enum sync_fd_kind kind, void *obj, const struct sync_fd_ops *ops,
		   const char *name, struct sync_fd_entry **entry_out)
{
	int sv[2];
	struct stat st;
	struct sync_fd_entry *e = calloc(1, sizeof(*e));

	if (!e) {
		ops->put(obj);
		return -ENOMEM;
	}
	if (pipe2(sv, O_CLOEXEC) < 0) {
		int err = -errno;
		free(e);
		ops->put(obj);
		return err;
	}
	if (fstat(sv[0], &st) < 0 || fcntl(sv[1], F_SETFL, O_NONBLOCK) < 0) {
		int err = -errno;
		close(sv[0]);
		close(sv[1]);
		free(e);
		ops->put(obj);
		return err;
	}
	e->refcount = 1;
	e->our_fd = sv[1];
	e->dev = st.st_dev;
	e->ino = st.st_ino;
	e->kind = kind;
	e->obj = obj;
	e->ops = ops;
	if (name)
		strncpy(e->name, name, sizeof(e->name) - 1);

	pthread_mutex_lock(&registry_lock);
	collect_closed_locked();
	if (num_entries == cap_entries) {
		unsigned cap = cap_entries ? cap_entries * 2 : 16;
		void *grown = realloc(entries, cap * sizeof(*entries));
		if (!grown) {
			pthread_mutex_unlock(&registry_lock);
			close(sv[0]);
			sync_fd_entry_put(e);
			return -ENOMEM;
		}
		entries = grown;
		cap_entries = cap;
	}
	entries[num_entries++] = e;
	if (entry_out)
		*entry_out = sync_fd_entry_get(e);
	pthread_mutex_unlock(&registry_lock);
	return sv[0];
}

static struct sync_fd_entry *find_locked(int fd)
{
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode))
		return NULL;
	for (unsigned i = 0; i < num_entries; i++)
		if (entries[i]->ino == st.st_ino && entries[i]->dev == st.st_dev)
			return entries[i];
	return NULL;
}

void *sync_fd_lookup(int fd, enum sync_fd_kind kind, char *name_out)
{
	void *obj = NULL;
	pthread_mutex_lock(&registry_lock);
	struct sync_fd_entry *e = find_locked(fd);
	if (e && e->kind == kind) {
		obj = e->ops->get(e->obj);
		if (name_out)
			memcpy(name_out, e->name, sizeof(e->name));
	}
	pthread_mutex_unlock(&registry_lock);
	return obj;
}

bool sync_fd_known(int fd)
{
	pthread_mutex_lock(&registry_lock);
	bool known = find_locked(fd) != NULL;
	pthread_mutex_unlock(&registry_lock);
	return known;
}

void sync_fd_fork_lock(void)
{
	pthread_mutex_lock(&registry_lock);
}

void sync_fd_fork_unlock(void)
{
	pthread_mutex_unlock(&registry_lock);
}
