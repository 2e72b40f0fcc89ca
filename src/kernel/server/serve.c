/* One client request on the device server (server.h): the ioctl runs on
 * the connection's DRM file with the client's struct copied here and its
 * pointers reached in the client's process (common/user_copy.h), so the
 * ioctl handlers are those of the in-process device, unchanged.
 *
 * Forwarded are the ioctls the shared mode has been tested with
 * (tests/integration/shared/); any other is refused with -ENOTTY and
 * reported under trace "stub", never run half-right: GEM_MMAP's address
 * would be the server's, a GTT or MMAP_OFFSET map needs the object's memfd
 * in the client (next steps, docs/shared-device.md). USERPTR is -ENODEV,
 * i915's answer without the feature: the object would be the server's
 * memory at the client's address. */
#include <drm.h>
#include <errno.h>
#include <i915_drm.h>
#include <string.h>
#include <unistd.h>

#include "common/drm_fd_args.h"
#include "common/trace.h"
#include "common/user_copy.h"
#include "gtsim/gtsim.h"
#include "kernel/file.h"
#include "kernel/server/server.h"

static bool forwarded(unsigned long request)
{
	switch (_IOC_NR(request)) {
	case _IOC_NR(DRM_IOCTL_VERSION):
	case _IOC_NR(DRM_IOCTL_GET_CAP):
	case _IOC_NR(DRM_IOCTL_GET_MAGIC):
	case _IOC_NR(DRM_IOCTL_AUTH_MAGIC):
	case _IOC_NR(DRM_IOCTL_GEM_CLOSE):
	case _IOC_NR(DRM_IOCTL_GEM_FLINK):
	case _IOC_NR(DRM_IOCTL_GEM_OPEN):
	case _IOC_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD):
	case _IOC_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE):
	case _IOC_NR(DRM_IOCTL_I915_GETPARAM):
	case _IOC_NR(DRM_IOCTL_I915_GEM_CREATE):
	case _IOC_NR(DRM_IOCTL_I915_GEM_PREAD):
	case _IOC_NR(DRM_IOCTL_I915_GEM_PWRITE):
	case _IOC_NR(DRM_IOCTL_I915_GEM_EXECBUFFER2):
	case _IOC_NR(DRM_IOCTL_I915_GEM_WAIT):
		return true;
	}
	return false;
}

static int do_ioctl(struct server_conn *c, const struct gtsim_wire_req *req,
		    void *arg, int in_fd, int *out_fd)
{
	if (!c->file)
		return -EBADF;
	if (_IOC_NR(req->request) == _IOC_NR(DRM_IOCTL_I915_GEM_USERPTR))
		return -ENODEV;   /* as i915 without userptr support (docs/shared-device.md) */
	if (!forwarded(req->request)) {
		TRACE(TRACE_STUB, "shared device: ioctl nr 0x%x not forwarded: -ENOTTY",
		      (unsigned)_IOC_NR(req->request));
		return -ENOTTY;
	}
	struct drm_fd_args fds = drm_fd_args(req->request, arg);
	if (fds.has_in)   /* the descriptor as this process numbers it */
		memcpy((char *)arg + fds.in_off, &in_fd, sizeof(in_fd));
	user_copy_set_remote(req->pid);
	int ret = gtsim_ioctl(c->file, req->request, arg);
	user_copy_set_remote(0);
	if (!ret && fds.has_out)
		memcpy(out_fd, (char *)arg + fds.out_off, sizeof(*out_fd));
	return ret;
}

void serve_request(struct server_conn *c, const void *msg, size_t len, int in_fd,
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
	if (req.op == GTSIM_WIRE_OPEN) {
		if (c->file) {
			r.ret = -EBUSY;
		} else if (!(c->file = gtsim_open_node(c->dev, (int)req.request))) {
			r.ret = -ENODEV;
		} else {
			c->file->pid = req.pid;   /* the opener, as the clients list shows it */
			r.ret = 0;
		}
	} else if (req.op == GTSIM_WIRE_IOCTL && req.size == _IOC_SIZE(req.request)) {
		r.ret = do_ioctl(c, &req, arg, in_fd, out_fd);
		r.size = req.size;
	}
out:
	if (in_fd >= 0)
		close(in_fd);
	memcpy(rep, &r, sizeof(r));
	memcpy((char *)rep + sizeof(r), arg, r.size);
	*rep_len = sizeof(r) + r.size;
}
