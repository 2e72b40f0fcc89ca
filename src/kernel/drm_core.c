/* DRM core ioctls as the drm core answers them for i915: VERSION (name
 * "i915", 1.6.0; on a vgem file vgem's "vgem", 1.0.0), SET_VERSION,
 * GET_CAP, SET_CLIENT_CAP and GET_UNIQUE. */
#include <drm.h>
#include <errno.h>
#include <string.h>

#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "common/user_copy.h"

#define DRIVER_NAME "i915"
#define DRIVER_DATE "20201103"
#define DRIVER_DESC "Intel Graphics"
#define DEVICE_UNIQUE "0000:00:02.0"   /* the integrated GPU's PCI address */

/* drm_copy_field: copy as much as fits, always report the full length. */
static int copy_field(uint64_t user, __kernel_size_t *len, const char *value)
{
	size_t n = strlen(value), want = *len;
	*len = n;
	if (!user || !want)
		return 0;
	return copy_to_user_ptr(user, value, want < n ? want : n);
}

int drm_version_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_version *v = arg;
	bool vgem = file->vgem;   /* drivers/gpu/drm/vgem/vgem_drv.c */
	v->version_major = 1;
	v->version_minor = vgem ? 0 : 6;
	v->version_patchlevel = 0;
	int ret = copy_field((uint64_t)(uintptr_t)v->name, &v->name_len,
			     vgem ? "vgem" : DRIVER_NAME);
	if (!ret)
		ret = copy_field((uint64_t)(uintptr_t)v->date, &v->date_len,
				 vgem ? "20120112" : DRIVER_DATE);
	if (!ret)
		ret = copy_field((uint64_t)(uintptr_t)v->desc, &v->desc_len,
				 vgem ? "Virtual GEM provider" : DRIVER_DESC);
	return ret;
}

/* drm_setversion (drm_ioctl.c, DRM_MASTER): interface 1.x with x <= 4
 * (DRM_IF_MAJOR/MINOR), a driver version no newer than the driver's, -1 for
 * "any"; the versions in force are written back either way. */
int drm_set_version_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_set_version *sv = arg;
	if (!file->is_master)
		return -EACCES;   /* drm_ioctl_permit: not the current master */
	int dd_major = 1, dd_minor = file->vgem ? 0 : 6, ret = 0;
	if (sv->drm_di_major != -1 &&
	    (sv->drm_di_major != 1 || sv->drm_di_minor < 0 || sv->drm_di_minor > 4))
		ret = -EINVAL;
	else if (sv->drm_dd_major != -1 &&
		 (sv->drm_dd_major != dd_major || sv->drm_dd_minor < 0 ||
		  sv->drm_dd_minor > dd_minor))
		ret = -EINVAL;
	sv->drm_di_major = 1;
	sv->drm_di_minor = 4;
	sv->drm_dd_major = dd_major;
	sv->drm_dd_minor = dd_minor;
	return ret;
}

int drm_get_unique_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_unique *u = arg;
	(void)file;
	return copy_field((uint64_t)(uintptr_t)u->unique, &u->unique_len, DEVICE_UNIQUE);
}

int drm_get_cap_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_get_cap *c = arg;
	(void)file;
	c->value = 0;
	switch (c->capability) {
	case DRM_CAP_TIMESTAMP_MONOTONIC: c->value = 1; return 0;
	case DRM_CAP_PRIME: c->value = DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT; return 0;
	case DRM_CAP_SYNCOBJ: c->value = 1; return 0;
	case DRM_CAP_SYNCOBJ_TIMELINE: c->value = 1; return 0;
	/* i915 is a KMS driver: the mode-setting caps are answered too. */
	case DRM_CAP_DUMB_BUFFER: c->value = 1; return 0;
	case DRM_CAP_VBLANK_HIGH_CRTC: c->value = 1; return 0;
	case DRM_CAP_DUMB_PREFERRED_DEPTH: c->value = 24; return 0;
	case DRM_CAP_DUMB_PREFER_SHADOW: c->value = 1; return 0;
	case DRM_CAP_ASYNC_PAGE_FLIP: c->value = 1; return 0;
	case DRM_CAP_PAGE_FLIP_TARGET: c->value = 0; return 0;
	case DRM_CAP_CURSOR_WIDTH: c->value = 256; return 0;
	case DRM_CAP_CURSOR_HEIGHT: c->value = 256; return 0;
	case DRM_CAP_ADDFB2_MODIFIERS: c->value = 1; return 0;
	case DRM_CAP_CRTC_IN_VBLANK_EVENT: c->value = 1; return 0;
	default: return -EINVAL;
	}
}

int drm_set_client_cap_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_set_client_cap *c = arg;
	switch (c->capability) {
	case DRM_CLIENT_CAP_STEREO_3D:
		if (c->value > 1)
			return -EINVAL;
		file->cap_stereo3d = c->value;
		return 0;
	case DRM_CLIENT_CAP_UNIVERSAL_PLANES:
		if (c->value > 1)
			return -EINVAL;
		file->cap_universal_planes = c->value;
		return 0;
	case DRM_CLIENT_CAP_ATOMIC:
		if (c->value > 2)
			return -EINVAL;
		file->cap_atomic = c->value;
		if (c->value)   /* atomic implies universal planes */
			file->cap_universal_planes = true;
		return 0;
	case DRM_CLIENT_CAP_ASPECT_RATIO:
		if (c->value > 1)
			return -EINVAL;
		file->cap_aspect_ratio = c->value;
		return 0;
	case DRM_CLIENT_CAP_WRITEBACK_CONNECTORS:
		if (!file->cap_atomic || c->value > 1)
			return -EINVAL;
		file->cap_writeback = c->value;
		return 0;
	default:
		return -EINVAL;
	}
}
