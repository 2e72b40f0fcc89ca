/* Fork sharing (the default mode's, docs/shared-device.md "Fork
 * sharing"; GTSIM_FORK_SHARE=0 makes a private copy per child instead,
 * fork.c): a process with a device of its own that forks keeps one
 * device for itself and its children, its own. At the first such fork a
 * device server starts inside the process (gtsim/remote.h's
 * gtsim_server_start, on an abstract Unix socket), and each DRM file the
 * process has open gets an id there; the child, instead of a private copy
 * of the device, continues in shared mode against that server, reaching
 * each inherited file by ATTACH (devnode.c). The parent's own calls stay
 * in-process. */
#include "shim/shim.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/fd_pass.h"
#include "common/trace.h"
#include "gtsim/remote.h"

static struct gtsim_server *server;
static pid_t server_pid;        /* the process the server runs in */
static int listen_fd = -1;
static char path[64];

bool fork_share_wanted(void)
{
	const char *v = getenv("GTSIM_FORK_SHARE");
	return !v || strcmp(v, "0");
}

/* Two threads forking at once start one server. */
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *start_locked(struct gtsim_device *dev)
{
	if (server && server_pid == getpid())
		return path;
	/* a child's copy of its parent's server pointer is no server here */
	server = NULL;
	unsigned rnd = 0;
	if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd))
		rnd = (unsigned)getpid() * 2654435761u;
	snprintf(path, sizeof(path), "@gtsim-fork-%d-%08x", (int)getpid(), rnd);
	struct sockaddr_un a;
	socklen_t alen = fd_pass_addr(path, &a);
	int l = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (l < 0 || !alen || bind(l, (struct sockaddr *)&a, alen) || listen(l, 64) ||
	    !(server = gtsim_server_start(dev, l, debugfs_own_timeline_ioctl))) {
		TRACE(TRACE_SHIM, "fork sharing: no server at %s", path);
		if (l >= 0)
			real.close(l);
		return NULL;
	}
	listen_fd = l;
	server_pid = getpid();
	TRACE(TRACE_SHIM, "fork sharing: server of pid %d at %s", (int)getpid(), path);
	return path;
}

const char *fork_share_start(struct gtsim_device *dev)
{
	pthread_mutex_lock(&start_lock);
	const char *p = start_locked(dev);
	pthread_mutex_unlock(&start_lock);
	return p;
}

uint64_t fork_share_file(struct gtsim_file *file)
{
	return server && server_pid == getpid() ? gtsim_server_share_file(server, file) : 0;
}

bool fork_share_release(uint64_t id)
{
	if (!server || server_pid != getpid())
		return false;
	gtsim_server_release_file(server, id);
	return true;
}

int fork_share_timeline_ioctl(int fd, unsigned long request, void *arg)
{
	return server && server_pid == getpid()
		       ? gtsim_server_timeline_ioctl(server, fd, request, arg) : -ENOTTY;
}

void fork_share_child(void)
{
	if (listen_fd >= 0)
		real.close(listen_fd);   /* the parent's */
	listen_fd = -1;
	server = NULL;
	pthread_mutex_init(&start_lock, NULL);   /* another thread's, held at the fork */
}
