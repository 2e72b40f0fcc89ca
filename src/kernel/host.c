/* The kernel model's entry points for a host integration (gtsim.h, second
 * part): sync_file descriptors, MMIO through the PCI BAR, fork. The shim
 * reaches the model only through these and the ioctls. */
#include <stdbool.h>

#include "gtsim/gtsim.h"
#include "kernel/device.h"
#include "kernel/object.h"
#include "kernel/request.h"
#include "kernel/sync/fence.h"

int gtsim_is_sync_fd(int fd)
{
	return sync_fd_is_ours(fd);
}

int gtsim_sync_file_ioctl(int fd, unsigned long request, void *arg)
{
	return sync_file_ioctl(fd, request, arg);
}

uint32_t gtsim_mmio_read(struct gtsim_device *dev, uint32_t reg)
{
	return gpu_mmio_read(dev->gpu, reg);
}

void gtsim_mmio_write(struct gtsim_device *dev, uint32_t reg, uint32_t val)
{
	gpu_mmio_write(dev->gpu, reg, val);
}

/* Lock order: the caller's own locks, then the fences' (fence.h). */
void gtsim_fork_prepare(void)
{
	fence_fork_prepare();
}

void gtsim_fork_parent(void)
{
	fence_fork_parent();
}

void gtsim_fork_child(void)
{
	fence_fork_child();
}

bool gtsim_device_owns_inode(struct gtsim_device *dev, ino_t ino)
{
	/* no lock: the fork child's only thread (the parent's worker was
	 * parked and its runnable requests finished before the fork) */
	return obj_ino_find_any_dev(dev, ino) != NULL;
}

/* fork copied only the calling thread: the child's copy of the (idle)
 * device gets engine threads and a kernel worker (retire, hangcheck) of
 * its own, so that an execbuf returns at once there as in the parent (a
 * spinning batch submitted by a fork child used to run inside its execbuf,
 * which never returned: IGT gem_sync's forked children). Without threads
 * the engines run inside execbuf (sync mode). */
void gtsim_device_fork_child(struct gtsim_device *dev)
{
	if (!dev->sync && !gpu_fork_child(dev->gpu) && !worker_fork_child(dev))
		return;
	dev->sync = true;
	gpu_set_sync(dev->gpu, true);
}
