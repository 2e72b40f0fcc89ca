/* DRM master and authentication as the DRM core of Linux 6.1 has them
 * (drm_auth.c, drm_ioctl.c's drm_ioctl_permit):
 *  - the first file opened on the primary node while the device has no
 *    master becomes master and is authenticated (drm_master_open); any
 *    other file is authenticated when its opener is privileged
 *    (drm_file_alloc: capable(CAP_SYS_ADMIN); here: effective uid 0);
 *  - SET_MASTER: 0 for the current master; -EBUSY while another file is
 *    master; else the file becomes master. Only a privileged opener or one
 *    that was master before may ask (drm_master_check_perm: -EACCES);
 *  - DROP_MASTER: -EINVAL unless the file is the current master;
 *  - GET_MAGIC gives the file a token (unique on the device, from 1);
 *    AUTH_MAGIC, for the master only, authenticates the file holding it
 *    (-EINVAL for an unknown token);
 *  - on the render node none of these is allowed (-EACCES: they lack
 *    DRM_RENDER_ALLOW), and render clients are never master;
 *  - ioctls flagged DRM_AUTH (GEM_FLINK, GEM_OPEN) need an authenticated
 *    file on the primary node (drm_auth_check).
 * Closing the master's file leaves the device without a master.
 * GET_CLIENT and GET_STATS are Linux's hollowed-out legacy ioctls
 * (drm_ioctl.c): GET_CLIENT answers index 0 only, with the caller's
 * authentication (what libva and IGT's core_auth ask it for), pid, the
 * overflow uid and nothing else; any other index is -EINVAL. GET_STATS
 * returns zeroed statistics. Neither is allowed on the render node. */
#include <drm.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common/user_copy.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"

static bool is_render(const struct gtsim_file *file)
{
	return file->minor >= 128;
}

static bool privileged(void)
{
	return user_caller_is_root();
}

static void set_master(struct gtsim_device *dev, struct gtsim_file *file)
{
	dev->master = file;
	file->is_master = file->was_master = true;
	file->authenticated = true;
}

void drm_master_open(struct gtsim_file *file)
{
	struct gtsim_device *dev = file->dev;
	file->authenticated = privileged();
	if (!is_render(file) && !dev->master)
		set_master(dev, file);
}

void drm_master_release(struct gtsim_file *file)
{
	if (file->dev->master == file)
		file->dev->master = NULL;
	file->is_master = false;
}

int drm_auth_check(struct gtsim_file *file)
{
	return is_render(file) || file->authenticated ? 0 : -EACCES;
}

/* drm_master_check_perm */
static int check_perm(struct gtsim_file *file)
{
	if (file->was_master && file->pid == (int)getpid())
		return 0;
	return privileged() ? 0 : -EACCES;
}

int drm_set_master_ioctl(struct gtsim_file *file, void *arg)
{
	(void)arg;
	struct gtsim_device *dev = file->dev;
	if (is_render(file))
		return -EACCES;
	pthread_mutex_lock(&dev->lock);
	int ret = check_perm(file);
	if (!ret && dev->master != file) {
		if (dev->master)
			ret = -EBUSY;
		else
			set_master(dev, file);
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int drm_drop_master_ioctl(struct gtsim_file *file, void *arg)
{
	(void)arg;
	struct gtsim_device *dev = file->dev;
	if (is_render(file))
		return -EACCES;
	pthread_mutex_lock(&dev->lock);
	int ret = check_perm(file);
	if (!ret && dev->master != file)
		ret = -EINVAL;
	if (!ret)
		drm_master_release(file);
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int drm_get_magic_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_auth *auth = arg;
	struct gtsim_device *dev = file->dev;
	if (is_render(file))
		return -EACCES;
	pthread_mutex_lock(&dev->lock);
	if (!file->magic)
		file->magic = ++dev->last_magic;
	auth->magic = file->magic;
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int drm_auth_magic_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_auth *auth = arg;
	struct gtsim_device *dev = file->dev;
	if (is_render(file))
		return -EACCES;
	pthread_mutex_lock(&dev->lock);
	/* drm_ioctl_permit: DRM_AUTH, then DRM_MASTER */
	int ret = file->authenticated ? 0 : -EACCES;
	if (!ret && dev->master != file)
		ret = -EACCES;
	if (!ret) {
		ret = -EINVAL;
		struct list_node *n, *t;
		list_for_each_safe(n, t, &dev->files) {
			struct gtsim_file *other = list_entry(n, struct gtsim_file, dev_link);
			if (auth->magic && other->magic == auth->magic && !other->magic_spent) {
				other->authenticated = true;
				other->magic_spent = true;  /* idr_replace(..., NULL) */
				ret = 0;
				break;
			}
		}
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int drm_get_client_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_client *client = arg;
	if (is_render(file))
		return -EACCES;
	if (client->idx != 0)
		return -EINVAL;
	pthread_mutex_lock(&file->dev->lock);
	client->auth = file->authenticated;
	pthread_mutex_unlock(&file->dev->lock);
	client->pid = (unsigned long)getpid();
	client->uid = 65534;       /* overflowuid */
	client->magic = 0;
	client->iocs = 0;
	return 0;
}

int drm_get_stats_ioctl(struct gtsim_file *file, void *arg)
{
	if (is_render(file))
		return -EACCES;
	memset(arg, 0, sizeof(struct drm_stats));
	return 0;
}
