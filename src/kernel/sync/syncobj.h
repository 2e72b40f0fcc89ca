/* drm_syncobj internals shared by syncobj.c (objects, tables, timelines)
 * and syncobj_ioctl.c (the DRM_IOCTL_SYNCOBJ_* handlers). A syncobj holds a
 * binary payload (one fence or none) and, once a timeline point was added,
 * a chain of points in the order they were added (the kernel's
 * dma_fence_chain). */
#ifndef GTSIM_SYNC_SYNCOBJ_H
#define GTSIM_SYNC_SYNCOBJ_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/sync/fence.h"

struct syncobj;

struct syncobj *syncobj_new(bool signaled);
struct syncobj *syncobj_ref(struct syncobj *so);
void syncobj_unref(struct syncobj *so);

/* A new handle (lowest free, from 1) holding a new reference to so. */
int syncobj_table_add(struct syncobj_table *t, struct syncobj *so, uint32_t *handle);
/* A new reference, or NULL. */
struct syncobj *syncobj_lookup(struct syncobj_table *t, uint32_t handle);
/* -EINVAL when there is no such handle (drm_syncobj_destroy). */
int syncobj_table_remove(struct syncobj_table *t, uint32_t handle);

/* Replace the payload (fence NULL: reset), dropping any timeline. */
void syncobj_replace_fence(struct syncobj *so, struct gt_fence *fence);
/* Room for one more timeline point, or -ENOMEM: what i915's ioctls get
 * from dma_fence_chain_alloc before they change anything. */
int syncobj_reserve_point(struct syncobj *so);
/* Add timeline point `point` (> 0) signaled by fence (without room, it
 * waits for the fence and keeps it as the payload). */
void syncobj_add_point(struct syncobj *so, uint64_t point, struct gt_fence *fence);
/* The fence for point (0: the whole payload): 0 and a new reference, or
 * -EINVAL when nothing was submitted for that point yet. A point that has
 * signaled and was collected gives a signaled fence. */
int syncobj_fence_at(struct syncobj *so, uint64_t point, struct gt_fence **out);
/* DRM_IOCTL_SYNCOBJ_QUERY: the last signaled point (last_submitted: the
 * newest point); 0 for a binary syncobj. */
uint64_t syncobj_query_point(struct syncobj *so, bool last_submitted);

/* A syncobj fd (HANDLE_TO_FD without flags) and back. */
int syncobj_export_fd(struct syncobj *so);
struct syncobj *syncobj_import_fd(int fd);

/* The DRM_IOCTL_SYNCOBJ_* handlers on a table (syncobj_ioctl.c); the
 * drm_syncobj_*_ioctl entry points of kernel/ioctl.h call these with the
 * file's table. */
#define SYNCOBJ_IOCTLS(X) X(create) X(destroy) X(handle_to_fd) X(fd_to_handle) \
	X(wait) X(reset) X(signal) X(timeline_wait) X(query) X(transfer) \
	X(timeline_signal)
#define DECLARE_SYNCOBJ_IOCTL(name) \
	int syncobj_##name##_ioctl(struct syncobj_table *t, void *arg);
SYNCOBJ_IOCTLS(DECLARE_SYNCOBJ_IOCTL)
#undef DECLARE_SYNCOBJ_IOCTL

/* How long WAIT_FOR_SUBMIT waits for a point inside TRANSFER
 * (DRM_SYNCOBJ_WAIT_FOR_SUBMIT_TIMEOUT in the kernel: 5 s). */
#define SYNCOBJ_SUBMIT_TIMEOUT_NS 5000000000ll

#endif
