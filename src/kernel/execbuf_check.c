/* Argument checks of EXECBUFFER2 as i915 makes them (i915_gem_execbuffer.c:
 * i915_gem_check_execbuffer, eb_select_legacy_ring, eb_validate_vma). */
#include "kernel/execbuf.h"
#include "kernel/context.h"

#include <errno.h>

/* Flags i915 rejects outright: unknown bits, the gen4/5 constants modes,
 * the resource streamer, and the gen7-only SOL reset. */
#define EB_ILLEGAL_FLAGS (__I915_EXEC_UNKNOWN_FLAGS | I915_EXEC_CONSTANTS_MASK | \
			  I915_EXEC_RESOURCE_STREAMER | I915_EXEC_GEN7_SOL_RESET)

int eb_check_args(struct drm_i915_gem_execbuffer2 *args)
{
	if (args->flags & EB_ILLEGAL_FLAGS)
		return -EINVAL;
	/* Kernel clipping was a DRI1 feature: cliprects_ptr only carries the
	 * fence array or the extension chain. */
	if (!(args->flags & (I915_EXEC_FENCE_ARRAY | I915_EXEC_USE_EXTENSIONS)) &&
	    (args->num_cliprects || args->cliprects_ptr))
		return -EINVAL;
	if (args->DR4 == 0xffffffff)   /* old UXA garbage, fixed up by i915 */
		args->DR4 = 0;
	if (args->DR1 || args->DR4)
		return -EINVAL;
	/* The batch starts and ends on a qword. */
	if ((args->batch_start_offset | args->batch_len) & 7)
		return -EINVAL;
	return 0;
}

/* With an engine map (I915_CONTEXT_PARAM_ENGINES) the ring bits index it
 * (i915's eb_select_engine with user engines); otherwise the legacy
 * I915_EXEC_RENDER/BSD/BLT/VEBOX selection. *slot names the logical
 * context within ctx: the map index, or the engine. */
int eb_select_engine(const struct drm_i915_gem_execbuffer2 *args, const struct gem_context *ctx,
		     enum gt_engine_id *out, unsigned *slot)
{
	static const enum gt_engine_id ring_map[] = {
		[I915_EXEC_DEFAULT] = ENGINE_RCS, [I915_EXEC_RENDER] = ENGINE_RCS,
		[I915_EXEC_BSD] = ENGINE_VCS, [I915_EXEC_BLT] = ENGINE_BCS,
		[I915_EXEC_VEBOX] = ENGINE_VECS,
	};
	unsigned ring = args->flags & I915_EXEC_RING_MASK;
	if (ctx->num_engines) {
		if (ring >= ctx->num_engines || ctx->engines[ring] < 0)
			return -EINVAL;
		*out = (enum gt_engine_id)ctx->engines[ring];
		*slot = ring;
		return 0;
	}
	/* BSD ring selectors only with I915_EXEC_BSD; with one VCS (BDW GT2)
	 * they choose nothing. */
	if (ring != I915_EXEC_BSD && (args->flags & I915_EXEC_BSD_MASK))
		return -EINVAL;
	if (ring >= sizeof(ring_map) / sizeof(ring_map[0]))
		return -EINVAL;
	*out = ring_map[ring];
	*slot = (unsigned)*out;
	return 0;
}

int eb_check_object(const struct drm_i915_gem_exec_object2 *entry)
{
	/* Unknown flags; NEEDS_GTT under full PPGTT (every context has its
	 * own address space, so i915 rejects it). */
	if (entry->flags & (__EXEC_OBJECT_UNKNOWN_FLAGS | EXEC_OBJECT_NEEDS_GTT))
		return -EINVAL;
	if (entry->alignment & (entry->alignment - 1))
		return -EINVAL;
	/* A softpin offset is page aligned and canonical. */
	if ((entry->flags & EXEC_OBJECT_PINNED) &&
	    entry->offset != gen8_canonical(entry->offset & ~4095ull))
		return -EINVAL;
	if ((entry->flags & EXEC_OBJECT_PAD_TO_SIZE) && (entry->pad_to_size & 4095))
		return -EINVAL;
	return 0;
}
