/* libgtdrv: a small userspace driver in the style of i965, for gtsim's own
 * demos, tests and benchmarks. It talks to the kernel model only through
 * the public uAPI (gtsim_ioctl with <i915_drm.h> structs), like any other
 * client: buffer objects, a batch builder with relocations (seed 002),
 * state emitters built on the command tables, the URB partition of
 * seed 003 and the vertex-elements loop of seed 000. */
#ifndef GTSIM_DRV_GTDRV_H
#define GTSIM_DRV_GTDRV_H

#include <stddef.h>
#include <stdint.h>

#include "common/devinfo.h"
#include "gtsim/gtsim.h"

struct gtdrv {
	struct gtsim_file *file;
	const struct gt_devinfo *info;
	int gen;
	uint32_t ctx_id;          /* 0: the file's default context */
};

struct gtdrv_bo {
	uint32_t handle;
	uint64_t size;
	uint64_t offset;          /* presumed GPU address, updated by execbuf */
};

/* info: the device the file belongs to (its gen picks the command table). */
void gtdrv_init(struct gtdrv *drv, struct gtsim_file *file, const struct gt_devinfo *info);

/* gtsim_ioctl_retry on the driver's file (as libdrm's drmIoctl: again
 * while a signal interrupted the call). */
int gtdrv_ioctl(struct gtdrv *drv, unsigned long request, void *arg);

/* Buffer objects: 0 or -errno from the kernel model. */
int gtdrv_bo_alloc(struct gtdrv *drv, struct gtdrv_bo *bo, uint64_t size);
int gtdrv_bo_write(struct gtdrv *drv, const struct gtdrv_bo *bo, uint64_t offset,
		   const void *data, size_t len);
int gtdrv_bo_read(struct gtdrv *drv, const struct gtdrv_bo *bo, uint64_t offset,
		  void *data, size_t len);
/* Wait until the GPU is done with bo (GEM_WAIT, no timeout). */
int gtdrv_bo_wait(struct gtdrv *drv, const struct gtdrv_bo *bo);
void gtdrv_bo_free(struct gtdrv *drv, struct gtdrv_bo *bo);

#endif
