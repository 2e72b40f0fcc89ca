/* A DRM file: one open of the device node (struct drm_file + i915's
 * drm_i915_file_private). It owns the GEM handles, contexts, VMs and
 * syncobjs userspace sees; all lookups are per file. Tables are protected by
 * dev->lock (the syncobj table by its own lock, src/kernel/sync/). */
#ifndef GTSIM_KERNEL_FILE_H
#define GTSIM_KERNEL_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/idr.h"

struct gtsim_device;
struct syncobj_table;

struct gtsim_file {
	struct gtsim_device *dev;
	struct idr objects;        /* handle (from 1) -> struct gem_object * (one ref each) */
	struct idr contexts;       /* id (0 = default) -> struct gem_context * */
	struct idr vms;            /* VM_CREATE id (from 1) -> struct gem_vm * */
	struct syncobj_table *syncobjs;
	/* DRM_SET_CLIENT_CAP values */
	bool cap_stereo3d, cap_universal_planes, cap_atomic, cap_aspect_ratio,
	     cap_writeback;
	unsigned reset_count_seen; /* for GET_RESET_STATS */
};

/* The file's syncobj handle table (src/kernel/sync/). */
struct syncobj_table *file_syncobjs(struct gtsim_file *file);
struct gtsim_device *file_device(struct gtsim_file *file);

#endif
