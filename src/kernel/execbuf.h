/* EXECBUFFER2 internals shared by the execbuf*.c files: the state of one
 * execbuf call as it goes through i915's phases (i915_gem_execbuffer.c):
 * validation, lookup, reservation (binding), relocation, serialisation
 * (dependencies), construction and submission of the request. */
#ifndef GTSIM_KERNEL_EXECBUF_H
#define GTSIM_KERNEL_EXECBUF_H

#include <i915_drm.h>
#include <stdbool.h>
#include <stdint.h>

#include "gpu/gpu.h"

struct gtsim_file;
struct gtsim_device;
struct gem_object;
struct gem_vma;
struct gem_context;
struct gt_fence;
struct rq_engine;

/* Internal exec flag: the object was relocated against with a write
 * domain (i915 sets EXEC_OBJECT_WRITE the same way). */
#define EB_WRITE EXEC_OBJECT_WRITE

struct eb_object {
	struct gem_object *obj;    /* reference */
	struct gem_vma *vma;       /* pinned while the ioctl runs */
	uint32_t flags;            /* exec flags, plus writes found in relocs */
	bool moved;                /* its address differs from exec.offset */
};

struct eb_fence {
	uint32_t handle, flags;
	uint64_t point;
	struct gt_fence *fence;    /* to wait for (reference), or NULL */
};

#define EB_STACK 8

struct eb_user_range {
	uint64_t addr, size;
};

struct execbuf {
	struct gtsim_file *file;
	struct gtsim_device *dev;
	struct drm_i915_gem_execbuffer2 *args;
	struct drm_i915_gem_exec_object2 *exec;
	struct eb_object *eo;
	unsigned count, batch_idx, looked_up;
	bool throttled;            /* waited for ring space once (eb_locked) */
	struct ctx_ring *ring;     /* the context's ring on the engine, once it has one */
	struct gem_context *ctx;
	enum gt_engine_id engine;
	unsigned engine_slot;      /* the context's engine map index, or engine */
	uint64_t batch_start, batch_len;
	bool has_reloc;
	struct gt_fence *in_fence;
	struct eb_fence *fences;
	unsigned nfences;
	/* Relocation targets by handle (no HANDLE_LUT), sorted on first use
	 * when there are many objects: (handle << 32 | index). */
	uint64_t *handle_index;
	/* Userptr ranges whose pages are to be got without dev->lock
	 * (eb_lookup_objects, eb_userptr_fault_in), and whether that was
	 * done already for this call. */
	struct eb_user_range *fault_in;
	unsigned nfault_in;
	bool faulted_in;
	struct drm_i915_gem_exec_object2 exec_stack[EB_STACK];
	struct eb_object eo_stack[EB_STACK];
};

/* The 48-bit canonical form (bit 47 sign-extended) and back. */
static inline uint64_t gen8_canonical(uint64_t a) { return (uint64_t)((int64_t)(a << 16) >> 16); }
static inline uint64_t gen8_noncanonical(uint64_t a) { return a & ((1ull << 48) - 1); }

/* execbuf_check.c: checks on the ioctl arguments (i915_gem_check_execbuffer,
 * engine selection) and on each exec object (eb_validate_vma). */
int eb_check_args(struct drm_i915_gem_execbuffer2 *args);
int eb_select_engine(const struct drm_i915_gem_execbuffer2 *args, const struct gem_context *ctx,
		     enum gt_engine_id *out, unsigned *slot);
int eb_check_object(const struct drm_i915_gem_exec_object2 *entry);

/* execbuf_lookup.c: handles to objects, duplicates, the batch's range. */
int eb_lookup_objects(struct execbuf *eb);
/* Index of the exec object a relocation names (handle or LUT index), or -1. */
int eb_reloc_target(struct execbuf *eb, uint32_t target_handle);
void eb_release_objects(struct execbuf *eb);
/* eb_lookup_objects' answer when userptr objects need their pages first:
 * the caller drops dev->lock, calls eb_userptr_fault_in and starts again. */
#define EB_FAULT_IN 2
void eb_userptr_fault_in(struct execbuf *eb);

/* execbuf_bind.c: reservation in the context's address space. */
int eb_reserve(struct execbuf *eb);
void eb_unpin(struct execbuf *eb);

/* execbuf_reloc.c: relocation processing (seed 002). */
int eb_relocate(struct execbuf *eb);

/* execbuf_fence.c: in-fences, fence arrays, timeline fences, and signaling
 * after submission. */
int eb_parse_fences(struct execbuf *eb);
/* The out-fence's sync_file (I915_EXEC_FENCE_OUT), made before the request
 * is submitted so that failing to make it fails the execbuf with nothing
 * run (i915 creates it in eb_requests_create): its fd, -1 without
 * FENCE_OUT, or -errno. */
int eb_export_out_fence(struct execbuf *eb, struct gt_fence *done);
/* After submission: the syncobjs to signal get done; out_fd (>= 0) goes
 * to the upper half of rsvd2. */
void eb_signal_fences(struct execbuf *eb, struct gt_fence *done, int out_fd);
void eb_release_fences(struct execbuf *eb);

/* execbuf_submit.c: request construction, dependencies, active tracking. */
int eb_submit(struct execbuf *eb, struct rq_engine **kick);

/* execbuf_sema.c. The unsignaled request of the device whose fence is f
 * (a reference), or NULL. */
struct gem_request;
struct gem_request *eb_request_of_fence(struct gtsim_device *dev, struct gt_fence *f);
/* Should `to` wait for `from` (another engine's request) on the GPU? If
 * so, adds the semaphore to `to` and returns the fence of from's start to
 * hold `to` back for (a reference); NULL: wait for from's fence. */
struct gt_fence *eb_semaphore_await(struct gem_request *to, struct gem_request *from);

#endif
