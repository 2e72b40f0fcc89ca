/* A DRM file: one open of the device node (struct drm_file + i915's
 * drm_i915_file_private). It owns the GEM handles, contexts, VMs and
 * syncobjs userspace sees; all lookups are per file. Tables are protected by
 * dev->lock (the syncobj table by its own lock, src/kernel/sync/). */
#ifndef GTSIM_KERNEL_FILE_H
#define GTSIM_KERNEL_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/idr.h"
#include "kernel/list.h"

struct gtsim_device;
struct syncobj_table;
struct vgem_file;

struct gtsim_file {
	struct gtsim_device *dev;
	struct idr objects;        /* handle (from 1) -> struct gem_object * (one ref each) */
	struct idr contexts;       /* id (0 = default) -> struct gem_context * */
	struct idr vms;            /* VM_CREATE id (from 1) -> struct gem_vm * */
	struct syncobj_table *syncobjs;
	/* DRM_SET_CLIENT_CAP values */
	bool cap_stereo3d, cap_universal_planes, cap_atomic, cap_aspect_ratio,
	     cap_writeback;
	/* The node it was opened on (0 primary, 128 render) and the DRM
	 * master state of a primary client (drm_auth.c), under dev->lock. */
	int minor;
	bool is_master;            /* the device's current master */
	bool was_master;           /* has been master: may SET_MASTER again */
	bool authenticated;
	uint32_t magic;            /* GET_MAGIC's token, 0 before */
	bool magic_spent;          /* AUTH_MAGIC used it */
	int pid;                   /* the opener (the clients file) */
	struct list_node dev_link; /* dev->files */
	/* i915's client ban (reset.c): score from its contexts' hangs and the
	 * time of its last hang; at CLIENT_SCORE_BANNED no CONTEXT_CREATE. */
	unsigned ban_score;
	int64_t hang_ns;
	/* A file of the vgem node (vgem/vgem.c): its fences; NULL for i915's. */
	struct vgem_file *vgem;
};

/* The file's syncobj handle table (src/kernel/sync/). */
#define CLIENT_SCORE_BANNED 9

/* drm_auth.c: the master state of a new file (the first primary opener
 * becomes master) and its release at close. dev->lock held. */
void drm_master_open(struct gtsim_file *file);
void drm_master_release(struct gtsim_file *file);

struct syncobj_table *file_syncobjs(struct gtsim_file *file);
struct gtsim_device *file_device(struct gtsim_file *file);

#endif
