/* The registry behind sync_file and syncobj file descriptors. Each fd handed
 * to a client is the read end of a pipe: a real descriptor that survives
 * dup(), fork() and passing over a socket, that poll() reports readable once
 * a byte is written into it (and never writable, like a sync_file), and
 * whose pipe inode identifies it (fstat), so
 * any copy of the fd maps back to its object. The registry keeps the write
 * end; an entry goes away once no process holds the read end any more. */
#ifndef GTSIM_SYNC_SYNC_FD_H
#define GTSIM_SYNC_SYNC_FD_H

#include <stdbool.h>

enum sync_fd_kind { SYNC_FD_FILE, SYNC_FD_SYNCOBJ };

struct sync_fd_ops {
	void *(*get)(void *obj);     /* a new reference to obj */
	void (*put)(void *obj);      /* drops one */
};

struct sync_fd_entry;

/* A new O_CLOEXEC fd for obj (the registry takes over the caller's
 * reference) and, when entry_out is given, the entry for sync_fd_mark_ready
 * (valid while the caller holds a sync_fd_entry_get reference). -errno on
 * failure, obj's reference then dropped. */
int sync_fd_create(enum sync_fd_kind kind, void *obj, const struct sync_fd_ops *ops,
		   const char *name, struct sync_fd_entry **entry_out);
/* A new reference to the object behind fd if fd is one of ours of that kind,
 * else NULL. name_out (32 bytes) receives the entry's name when given. */
void *sync_fd_lookup(int fd, enum sync_fd_kind kind, char *name_out);
bool sync_fd_known(int fd);

struct sync_fd_entry *sync_fd_entry_get(struct sync_fd_entry *e);
void sync_fd_entry_put(struct sync_fd_entry *e);
/* Makes the fd readable (POLLIN), once. */
void sync_fd_mark_ready(struct sync_fd_entry *e);

/* Held across fork() (fence_fork_*). */
void sync_fd_fork_lock(void);
void sync_fd_fork_unlock(void);

#endif
