/* The kernel model's device: what i915's struct drm_i915_private holds for
 * GEM. One per gtsim_device_create(); files, objects, contexts and address
 * spaces all hang off it.
 *
 * Locking: dev->lock (like i915's old struct_mutex) protects every kernel
 * model structure: file tables, objects' bindings and flags, address spaces,
 * contexts, flink names, mmap offsets. Ioctl handlers take it; obj_put(),
 * ctx_put(), vm_put() and everything in vm.h must be called with it held.
 * Anything that waits for the GPU must drop it while waiting (the engine
 * threads' completion callbacks may need it). */
#ifndef GTSIM_KERNEL_DEVICE_H
#define GTSIM_KERNEL_DEVICE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/devinfo.h"
#include "gpu/gpu.h"
#include "kernel/idr.h"
#include "kernel/list.h"
#include "kernel/obj_ino.h"
#include "kernel/object_store.h"

struct gem_vm;
struct gem_requests;   /* execbuf's per-device state (request.c) */

struct gtsim_device {
	const struct gt_devinfo *info;
	struct gt_gpu *gpu;
	bool sync;                 /* GTSIM_SYNC=1 */
	unsigned hangcheck_ms;
	pthread_mutex_t lock;

	struct gem_vm *ggtt;       /* the global GTT; [0, mappable_end) is the aperture */

	struct idr flink_names;    /* name -> struct gem_object * (names start at 1) */
	struct idr mmap_nodes;     /* fake mmap offset >> MMAP_NODE_SHIFT -> struct mmap_node * */
	struct list_node objects;  /* every live gem_object (dev_link) */
	struct obj_ino_index ino_index; /* those with a file of their own, by inode: prime import */
	struct obj_store store;    /* their pages (object_store.h) */
	struct pt_pool *pt_pool;   /* pages for PPGTT page tables (vm_ppgtt.c) */
	uint32_t next_ctx_hw_id;
	uint64_t object_count, object_bytes;
	uint64_t purged_bytes;     /* of object_bytes, in purged objects (no pages) */
	uint64_t mem_limit;        /* resident object bytes before the shrinker runs; 0: none */
	unsigned reset_count;      /* full-GPU resets so far (i915_reset_count; reset.c) */
	/* i915's wedged GT (atomic): execbuf and THROTTLE fail with -EIO until
	 * a reset (i915_wedged, reset.c gt_handle_error) unwedges it. */
	bool wedged;
	/* Open files (gtsim_file.dev_link), newest last; the DRM master (a
	 * primary client) and the last GET_MAGIC token. dev->lock. */
	struct list_node files;
	struct gtsim_file *master;
	/* Other drivers' fences of exported objects freed while pending: the
	 * dma-buf keeps the reservation (obj_resv.c). dev->lock. */
	struct list_node orphan_resv;
	struct gtsim_file *vgem_master;  /* vgem's card1 master (vgem/vgem.c), dev->lock */
	uint32_t last_magic;

	/* Owned by execbuf (request.c): engines' rings, status pages, request
	 * lists, hangcheck. Created by requests_init(), NULL until then. */
	struct gem_requests *requests;
};

/* execbuf's engines, rings and requests (request.c). Called with
 * dev->lock NOT held: init after the GPU and GGTT exist, fini before they go away, idle
 * from gtsim_device_idle(). */
int requests_init(struct gtsim_device *dev);
void requests_fini(struct gtsim_device *dev);
void requests_idle(struct gtsim_device *dev);
/* Wait until no engine executes a request and none could be emitted: what
 * is left waits for a fence that has not signaled (gtsim_device_quiesce). */
void requests_quiesce(struct gtsim_device *dev);
/* Retire completed requests (drop their active references). Called with
 * dev->lock held, e.g. before eviction looks for inactive objects. */
void requests_retire(struct gtsim_device *dev);

/* The shrinker (gem_shrink.c): purges idle, unpinned I915_MADV_DONTNEED
 * objects, oldest first, until target bytes are freed; returns the bytes
 * freed. gem_shrink_if_needed() shrinks down to dev->mem_limit. dev->lock
 * held. */
uint64_t gem_shrink(struct gtsim_device *dev, uint64_t target);
void gem_shrink_if_needed(struct gtsim_device *dev);
/* drop_caches: gem_shrink() of everything, then the idle, unpinned
 * objects lose their pages (i915 swaps them out; the contents stay). */
void gem_shrink_all(struct gtsim_device *dev);
/* Purge obj now (unbind, pages gone, fake-offset mappings revoked); false
 * when a pinned binding keeps it. gem_truncatable(): an object i915 can
 * truncate (not yet purged, not userptr, not a foreign import). */
struct gem_object;
bool gem_purge(struct gem_object *obj);
bool gem_truncatable(const struct gem_object *obj);

#endif
