/* GEM contexts (i915_gem_context): a per-file id, a full 48-bit PPGTT of
 * its own (or one shared through I915_CONTEXT_PARAM_VM), scheduling and
 * reset parameters, and the counts GET_RESET_STATS reports. Id 0 of every
 * file is its default context, created at open. dev->lock protects all. */
#ifndef GTSIM_KERNEL_CONTEXT_H
#define GTSIM_KERNEL_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

struct gtsim_device;
struct gtsim_file;
struct gem_vm;

#define CTX_MAX_ENGINES 64   /* I915_EXEC_RING_MASK + 1 */

/* I915_PARAM_HAS_SCHEDULER (i915_drm.h I915_SCHEDULER_CAP_*), as i915's
 * set_scheduler_caps reports them (a cap only when every engine has it):
 * enabled, with priorities; SEMAPHORES (every engine has
 * I915_ENGINE_HAS_SEMAPHORES outside a vGPU: execbuf_sema.c);
 * PREEMPTION on gen9 (preempt.c; BDW's render engine cannot preempt, so
 * BDW has none). Not ENGINE_BUSY_STATS (no PMU). */
#define SCHEDULER_CAPS (I915_SCHEDULER_CAP_ENABLED | I915_SCHEDULER_CAP_PRIORITY | \
			I915_SCHEDULER_CAP_SEMAPHORES)
#define SCHEDULER_CAPS_OF(gen) \
	(SCHEDULER_CAPS | ((gen) >= 9 ? I915_SCHEDULER_CAP_PREEMPTION : 0))

struct gem_context {
	struct gtsim_device *dev;
	struct gtsim_file *file;  /* NULL once the file closed or ctx destroyed */
	uint32_t id;              /* in its file */
	uint32_t hw_id;           /* device-wide, for traces and error states */
	unsigned refcount;
	struct gem_vm *vm;        /* its PPGTT (a reference) */
	int priority;             /* I915_CONTEXT_MIN..MAX_USER_PRIORITY */
	bool bannable;            /* default true */
	bool recoverable;         /* default true */
	bool no_error_capture;
	bool single_timeline;     /* I915_CONTEXT_CREATE_FLAGS_SINGLE_TIMELINE */
	bool closed;              /* destroyed by userspace, may live on while active */
	/* I915_CONTEXT_PARAM_PERSISTENCE: default i915.enable_hangcheck. A
	 * context that is not (or any, with hangcheck off) has its requests
	 * cancelled when closed (ctx_close). */
	bool persistent;
	/* i915 (gen <= 12) finalizes a context created by CONTEXT_CREATE on its
	 * first use; until then SETPARAM may still replace its VM and engine
	 * map. ctx_lookup() finalizes. */
	bool finalized;
	/* I915_CONTEXT_PARAM_ENGINES: execbuf's engine selector indexes this
	 * map (entry: enum gt_engine_id, or -1 for an invalid slot). 0 entries:
	 * the legacy I915_EXEC_RENDER/BSD/BLT/VEBOX selection. */
	unsigned num_engines;
	int engines[CTX_MAX_ENGINES];

	/* --- owned by execbuf/hangcheck ---
	 * banned: execbufs fail with -EIO. guilty_count: hangs this context
	 * caused (GET_RESET_STATS batch_active); active_count: its requests
	 * lost to resets caused by others (batch_pending). hang_ns: the
	 * CLOCK_MONOTONIC times of its last two hangs (0: none), oldest first. */
	/* Render engine logical contexts (MI_SET_CONTEXT, ring_emit.c), one
	 * per engine map slot (or legacy engine): bit set once an image of
	 * it exists, so that later switches restore it. */
	uint64_t rcs_images;
	/* Register image slots (lrc.h), per engine map slot (or legacy
	 * engine): 0 until the first request there; the engine of each. */
	uint32_t lrc_slot[CTX_MAX_ENGINES];
	uint8_t lrc_engine[CTX_MAX_ENGINES];

	bool banned;
	int64_t hang_ns[2];
	unsigned guilty_count;
	unsigned active_count;
	void *exec_priv;          /* anything execbuf wants per context */
};

/* The Logical Context Address that names the render state of ctx's
 * engine map slot (or legacy engine) in MI_SET_CONTEXT: 4 KiB aligned,
 * never 0, distinct for the contexts alive at once (the engine keeps the
 * images on the host and never touches this GGTT page). */
static inline uint32_t ctx_logical_addr(const struct gem_context *ctx, unsigned slot)
{
	uint32_t n = ctx->hw_id * CTX_MAX_ENGINES + slot % CTX_MAX_ENGINES;
	return (n % 0xfffffu + 1u) << 12;
}

/* A context with a fresh PPGTT (or vm, referenced, when not NULL). */
struct gem_context *ctx_create(struct gtsim_device *dev, struct gem_vm *vm, int *err);
struct gem_context *ctx_get(struct gem_context *ctx);
/* The file closed the context (CONTEXT_DESTROY, file close): drops the
 * file's reference; a non-persistent context's requests, or any with
 * hangcheck off, are cancelled as i915's kill_context does (queued and
 * waiting ones skipped with -EIO, the executing one reset by the kernel
 * worker). dev->lock held. */
/* The engine's heartbeat was turned off: requests of closed contexts on it
 * are cancelled (context.c). */
struct rq_engine;
void engine_cancel_closed(struct rq_engine *e);
void ctx_close(struct gem_context *ctx);
void ctx_put(struct gem_context *ctx);
/* A new reference to the file's context id, or NULL (i915: -ENOENT).
 * Marks the context finalized (see above). */
struct gem_context *ctx_lookup(struct gtsim_file *file, uint32_t id);

struct drm_i915_gem_context_param;
/* Apply one SETPARAM (context_param.c); VM and ENGINES only while the
 * context is not finalized. 0 or i915's errno, nothing changed then. */
int ctx_set_param(struct gtsim_file *file, struct gem_context *ctx,
		  const struct drm_i915_gem_context_param *p);

#endif
