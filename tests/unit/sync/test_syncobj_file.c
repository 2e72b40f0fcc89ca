/* DRM_IOCTL_SYNCOBJ_* through gtsim_ioctl on real files of a device: the
 * dispatcher reaches the sync unit, handles are per file, a syncobj fd
 * carries the object from one file to another, a sync_file from one file
 * is imported into another, and closing a file drops its handles. */
#include <errno.h>
#include <poll.h>
#include <unistd.h>
#include <drm.h>

#include "gtsim/gtsim.h"
#include "test.h"

int main(void)
{
	struct gtsim_device *dev = gtsim_device_create(&(struct gtsim_config){ .device = "bdw" });
	if (!dev)
		test_skip("no device");
	struct gtsim_file *a = gtsim_open(dev), *b = gtsim_open(dev);
	CHECK(a && b);

	struct drm_syncobj_create c = { 0 };
	CHECK_EQ(gtsim_ioctl(a, DRM_IOCTL_SYNCOBJ_CREATE, &c), 0);
	CHECK_EQ(c.handle, 1);
	uint32_t h = c.handle;

	/* Handles are per file: b has none. */
	struct drm_syncobj_array arr = { .handles = (uintptr_t)&h, .count_handles = 1 };
	CHECK_EQ(gtsim_ioctl(b, DRM_IOCTL_SYNCOBJ_SIGNAL, &arr), -ENOENT);

	/* a's syncobj, shared with b through a syncobj fd. */
	struct drm_syncobj_handle exp = { .handle = h };
	CHECK_EQ(gtsim_ioctl(a, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &exp), 0);
	struct drm_syncobj_handle imp = { .fd = exp.fd };
	CHECK_EQ(gtsim_ioctl(b, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &imp), 0);
	close(exp.fd);
	uint32_t hb = imp.handle;
	struct drm_syncobj_wait w = { .handles = (uintptr_t)&h, .count_handles = 1 };
	CHECK_EQ(gtsim_ioctl(a, DRM_IOCTL_SYNCOBJ_WAIT, &w), -EINVAL);   /* no fence yet */
	struct drm_syncobj_array arrb = { .handles = (uintptr_t)&hb, .count_handles = 1 };
	CHECK_EQ(gtsim_ioctl(b, DRM_IOCTL_SYNCOBJ_SIGNAL, &arrb), 0);
	CHECK_EQ(gtsim_ioctl(a, DRM_IOCTL_SYNCOBJ_WAIT, &w), 0);       /* seen from a */

	/* A sync_file exported by a, imported into a new syncobj of b. */
	struct drm_syncobj_handle sf = { .handle = h,
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE };
	CHECK_EQ(gtsim_ioctl(a, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &sf), 0);
	struct pollfd p = { .fd = sf.fd, .events = POLLIN };
	CHECK_EQ(poll(&p, 1, 1000), 1);
	struct drm_syncobj_create c2 = { 0 };
	CHECK_EQ(gtsim_ioctl(b, DRM_IOCTL_SYNCOBJ_CREATE, &c2), 0);
	struct drm_syncobj_handle sfi = { .handle = c2.handle, .fd = sf.fd,
		.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE };
	CHECK_EQ(gtsim_ioctl(b, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &sfi), 0);
	uint32_t h2 = c2.handle;
	struct drm_syncobj_wait w2 = { .handles = (uintptr_t)&h2, .count_handles = 1 };
	CHECK_EQ(gtsim_ioctl(b, DRM_IOCTL_SYNCOBJ_WAIT, &w2), 0);
	close(sf.fd);

	/* Timeline ioctls are wired too. */
	uint64_t point = 5;
	struct drm_syncobj_timeline_array ts = { .handles = (uintptr_t)&h,
		.points = (uintptr_t)&point, .count_handles = 1 };
	CHECK_EQ(gtsim_ioctl(a, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &ts), 0);
	point = 0;
	ts.flags = DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED;
	CHECK_EQ(gtsim_ioctl(a, DRM_IOCTL_SYNCOBJ_QUERY, &ts), 0);
	CHECK_EQ(point, 5);

	/* Closing a drops its handles; b's reference keeps the object. */
	gtsim_close(a);
	CHECK_EQ(gtsim_ioctl(b, DRM_IOCTL_SYNCOBJ_WAIT, &(struct drm_syncobj_wait){
		.handles = (uintptr_t)&hb, .count_handles = 1 }), 0);
	struct drm_syncobj_destroy d = { .handle = hb };
	CHECK_EQ(gtsim_ioctl(b, DRM_IOCTL_SYNCOBJ_DESTROY, &d), 0);
	gtsim_close(b);
	gtsim_device_destroy(dev);
	return test_exit();
}
