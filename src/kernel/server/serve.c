/* One client request on the device server (server.h): an ioctl runs on
 * the connection's DRM file with the client's struct copied here and its
 * pointers reached in the client's process (common/user_copy.h), so the
 * ioctl handlers are those of the in-process device, unchanged.
 *
 * Every ioctl of the kernel model is forwarded but one: GEM_MMAP, whose
 * result is an address in the caller (the client maps the object itself
 * after GTSIM_WIRE_MMAP), is -ENOTTY as an IOCTL message, with a "stub"
 * trace line. USERPTR makes an object over a shadow of the client's pages
 * (userptr_shadow.h). */
#include <drm.h>
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/drm_fd_args.h"
#include "common/sigdefer.h"
#include "common/trace.h"
#include "common/user_copy.h"
#include "gtsim/gtsim.h"
#include "kernel/file.h"
#include "kernel/server/server.h"

static bool is_ioctl(unsigned long request, unsigned long known)
{
	return _IOC_TYPE(request) == _IOC_TYPE(known) && _IOC_NR(request) == _IOC_NR(known);
}

/* The client hung up (it died, or closed its descriptor from another
 * thread): its wait ends as a killed process's would (sigdefer.h). Or a
 * message is waiting: the only one a client sends while it awaits a reply
 * is GTSIM_WIRE_CANCEL (a signal handler ran, remote.h): the wait ends as
 * a signal ends i915's. */
static bool client_interrupted(void *arg)
{
	struct pollfd p = { *(int *)arg, POLLIN | POLLRDHUP, 0 };
	return poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP | POLLRDHUP | POLLERR));
}

static int do_ioctl(struct server_conn *c, const struct gtsim_wire_req *req,
		    void *arg, int in_fd, int *out_fd)
{
	if (!c->sf)
		return -EBADF;
	if (is_ioctl(req->request, DRM_IOCTL_I915_GEM_MMAP)) {
		TRACE(TRACE_STUB, "shared device: GEM_MMAP as an ioctl message: -ENOTTY "
		      "(the client maps through GTSIM_WIRE_MMAP)");
		return -ENOTTY;
	}
	struct drm_fd_args fds = drm_fd_args(req->request, arg);
	if (fds.has_in)   /* the descriptor as this process numbers it */
		memcpy((char *)arg + fds.in_off, &in_fd, sizeof(in_fd));
	user_copy_set_remote(req->pid);
	sigdefer_set_abort(client_interrupted, &c->fd);
	int ret = gtsim_ioctl_flags(c->sf->file, req->request, arg,
				    req->op & GTSIM_WIRE_OP_NONBLOCK ? O_NONBLOCK : 0);
	sigdefer_set_abort(NULL, NULL);
	user_copy_set_remote(0);
	if (!ret && fds.has_out)
		memcpy(out_fd, (char *)arg + fds.out_off, sizeof(*out_fd));
	return ret;
}

/* An ioctl on a descriptor of the server's (fds[0]): a sw_sync timeline,
 * a sync_file, a dma-buf. fds[1]: the descriptor the struct carries in. */
static int do_fd_ioctl(struct server_conn *c, const struct gtsim_wire_req *req, void *arg,
		       const int *fds, int *out_fd)
{
	int fd = fds[0];
	if (fd < 0)
		return -EBADF;
	struct drm_fd_args a = drm_fd_args(req->request, arg);
	if (a.has_in)
		memcpy((char *)arg + a.in_off, &fds[1], sizeof(fds[1]));
	int ret = -ENOTTY;
	user_copy_set_remote(req->pid);
	if (_IOC_TYPE(req->request) == 'W')
		ret = server_timeline_ioctl(c->srv, fd, req->request, arg);
	else if (_IOC_TYPE(req->request) == DMA_BUF_BASE)
		ret = gtsim_dmabuf_ioctl(c->dev, fd, req->request, arg);
	else if (_IOC_TYPE(req->request) == SYNC_IOC_MAGIC)
		ret = gtsim_sync_file_ioctl(fd, req->request, arg);
	user_copy_set_remote(0);
	if (ret >= 0 && a.has_out)
		memcpy(out_fd, (char *)arg + a.out_off, sizeof(*out_fd));
	return ret;
}

static int do_mmap(struct server_conn *c, struct gtsim_wire_map *m, int *out_fd)
{
	if (!c->sf)
		return -EBADF;
	if (!m->handle)
		return gtsim_mmap_export(c->sf->file, (size_t)m->length, m->offset, out_fd,
					 &m->fd_off);
	struct drm_i915_gem_mmap args = { .handle = m->handle, .offset = m->offset,
					  .size = m->length, .flags = m->flags };
	return gtsim_gem_mmap_export(c->sf->file, &args, out_fd, &m->fd_off);
}

/* A debugfs file or module parameter of the server's device; a read's
 * text goes back in a memfd (any length). */
static int do_debugfs(struct server_conn *c, const void *arg, size_t size, int *out_fd)
{
	struct gtsim_wire_debugfs d;
	if (size < sizeof(d))
		return -EINVAL;
	memcpy(&d, arg, sizeof(d));
	d.name[sizeof(d.name) - 1] = '\0';
	const char *buf = (const char *)arg + sizeof(d);
	size_t len = size - sizeof(d);
	char engine[16] = "";
	const char *file = d.name;
	if (d.kind == GTSIM_DEBUGFS_ENGINE) {
		const char *slash = strchr(d.name, '/');
		if (!slash || slash - d.name >= (long)sizeof(engine))
			return -ENOENT;
		memcpy(engine, d.name, (size_t)(slash - d.name));
		file = slash + 1;
	} else if (d.kind != GTSIM_DEBUGFS_FILE && d.kind != GTSIM_DEBUGFS_PARAM) {
		return -EINVAL;
	}
	if (d.write)
		return d.kind == GTSIM_DEBUGFS_PARAM ? gtsim_param_write(d.name, buf, len)
		       : d.kind == GTSIM_DEBUGFS_ENGINE
			       ? gtsim_engine_file_write(c->dev, engine, file, buf, len)
			       : gtsim_debugfs_write(c->dev, d.name, buf, len);
	char *text = d.kind == GTSIM_DEBUGFS_PARAM ? gtsim_param_read(d.name)
		     : d.kind == GTSIM_DEBUGFS_ENGINE ? gtsim_engine_file_read(c->dev, engine, file)
						      : gtsim_debugfs_read(c->dev, d.name);
	if (!text)
		return -ENOENT;
	int fd = memfd_create("gtsim-debugfs", MFD_CLOEXEC);
	size_t n = strlen(text);
	int ret = fd < 0 ? -errno : write(fd, text, n) == (ssize_t)n ? 0 : -EIO;
	free(text);
	if (ret && fd >= 0)
		close(fd);
	if (!ret)
		*out_fd = fd;
	return ret;
}

/* OPEN (a new file) or ATTACH (another way to an open one); the reply
 * carries the file's id. */
static int do_open(struct server_conn *c, const struct gtsim_wire_req *req, void *arg)
{
	if (c->sf)
		return -EBUSY;
	if (req->size != sizeof(uint64_t))
		return -EINVAL;
	if (req->op == GTSIM_WIRE_OPEN) {
		server_settle_closes(c->srv, c->fd);
		user_copy_set_remote(req->pid);   /* the opener's privilege (drm_auth.c) */
		c->sf = server_file_open(c->srv, (int)req->request);
		user_copy_set_remote(0);
		if (!c->sf)
			return -ENODEV;
		c->sf->file->pid = req->pid;   /* the opener, as the clients list shows it */
	} else if (!(c->sf = server_file_get(c->srv, req->request))) {
		return -ENOENT;
	}
	memcpy(arg, &c->sf->id, sizeof(c->sf->id));
	return 0;
}

void serve_request(struct server_conn *c, const void *msg, size_t len, const int *in_fds,
		   void *rep, size_t *rep_len, int *out_fd)
{
	struct gtsim_wire_req req;
	struct gtsim_wire_rep r = { -EINVAL, 0 };
	_Alignas(8) unsigned char arg[GTSIM_WIRE_MAX_ARG];

	*out_fd = -1;
	if (len < sizeof(req))
		goto out;
	memcpy(&req, msg, sizeof(req));
	if (req.magic != GTSIM_WIRE_MAGIC || req.size > sizeof(arg) ||
	    len != sizeof(req) + req.size || req.pid <= 0)
		goto out;
	memcpy(arg, (const char *)msg + sizeof(req), req.size);
	switch (req.op) {
	case GTSIM_WIRE_CANCEL:   /* came after its call's reply: nothing to end */
		r.size = UINT32_MAX;
		break;
	case GTSIM_WIRE_OPEN:
	case GTSIM_WIRE_ATTACH:
		r.ret = do_open(c, &req, arg);
		r.size = r.ret ? 0 : req.size;
		break;
	case GTSIM_WIRE_IOCTL:
	case GTSIM_WIRE_IOCTL | GTSIM_WIRE_OP_NONBLOCK:
		if (req.size == _IOC_SIZE(req.request)) {
			/* the struct's descriptor, numbered here */
			r.ret = do_ioctl(c, &req, arg, in_fds[0] >= 0 ? in_fds[0] : in_fds[1],
					 out_fd);
			r.size = req.size;
		}
		break;
	case GTSIM_WIRE_MMAP:
		if (req.size == sizeof(struct gtsim_wire_map)) {
			r.ret = do_mmap(c, (struct gtsim_wire_map *)arg, out_fd);
			r.size = req.size;
		}
		break;
	case GTSIM_WIRE_DEBUGFS:
		r.ret = do_debugfs(c, arg, req.size, out_fd);
		break;
	case GTSIM_WIRE_FDIOCTL:
		if (req.size == _IOC_SIZE(req.request)) {
			r.ret = do_fd_ioctl(c, &req, arg, in_fds, out_fd);
			r.size = req.size;
		}
		break;
	case GTSIM_WIRE_SWSYNC_OPEN:
		r.ret = timelines_open(server_timelines(c->srv), out_fd);
		break;
	case GTSIM_WIRE_MMIO:
		if (req.size == sizeof(struct gtsim_wire_mmio)) {
			struct gtsim_wire_mmio *m = (struct gtsim_wire_mmio *)arg;
			if (m->write)
				gtsim_mmio_write(c->dev, m->reg, (uint32_t)m->value);
			else
				m->value = gtsim_mmio_read(c->dev, m->reg);
			r.ret = 0;
			r.size = req.size;
		}
		break;
	case GTSIM_WIRE_SWSYNC_REAP:
		timelines_reap(server_timelines(c->srv));
		r.ret = 0;
		break;
	}
out:
	for (unsigned i = 0; i < FD_PASS_MAX; i++)
		if (in_fds[i] >= 0)
			close(in_fds[i]);
	if (r.size == UINT32_MAX) {   /* no reply */
		*rep_len = 0;
		return;
	}
	memcpy(rep, &r, sizeof(r));
	memcpy((char *)rep + sizeof(r), arg, r.size);
	*rep_len = sizeof(r) + r.size;
}
