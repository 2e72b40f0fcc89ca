/* Context objects: creation with a PPGTT of their own, reference counts,
 * per-file lookup. The ioctls are in context_ioctl.c and context_param.c. */
#include "kernel/context.h"

#include <errno.h>
#include <i915_drm.h>
#include <stdlib.h>

#include "common/trace.h"
#include "gpu/cs/engine.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/request.h"
#include "kernel/vm.h"

struct gem_context *ctx_create(struct gtsim_device *dev, struct gem_vm *vm, int *err)
{
	struct gem_context *ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		*err = -ENOMEM;
		return NULL;
	}
	ctx->vm = vm ? vm_get(vm) : vm_ppgtt_create(dev);
	if (!ctx->vm) {
		free(ctx);
		*err = -ENOMEM;
		return NULL;
	}
	ctx->dev = dev;
	ctx->refcount = 1;
	ctx->hw_id = dev->next_ctx_hw_id++;
	ctx->priority = I915_CONTEXT_DEFAULT_PRIORITY;
	ctx->bannable = true;
	ctx->recoverable = true;
	TRACE(TRACE_GEM, "context hw id %u created, PML4 at phys 0x%llx", ctx->hw_id,
	      (unsigned long long)ctx->vm->gt.pml4);
	return ctx;
}

struct gem_context *ctx_get(struct gem_context *ctx)
{
	ctx->refcount++;
	return ctx;
}

void ctx_put(struct gem_context *ctx)
{
	if (!ctx || --ctx->refcount)
		return;
	TRACE(TRACE_GEM, "context hw id %u freed", ctx->hw_id);
	/* Its requests retired (they held references): the render engine
	 * may drop the logical context image. */
	for (unsigned slot = 0; slot < CTX_MAX_ENGINES && ctx->dev->gpu; slot++)
		if (ctx->rcs_images >> slot & 1)
			engine_forget_context(ctx->dev->gpu->engines[ENGINE_RCS],
					      ctx_logical_addr(ctx, slot));
	for (unsigned slot = 0; slot < CTX_MAX_ENGINES; slot++)
		if (ctx->lrc_slot[slot])
			lrc_slot_free(&ctx->dev->requests->engine[ctx->lrc_engine[slot]],
				      ctx->lrc_slot[slot]);
	vm_put(ctx->vm);
	free(ctx);
}

struct gem_context *ctx_lookup(struct gtsim_file *file, uint32_t id)
{
	struct gem_context *ctx = idr_find(&file->contexts, id);
	if (!ctx)
		return NULL;
	ctx->finalized = true;
	return ctx_get(ctx);
}
