/* CONTEXT_CREATE(_EXT), CONTEXT_DESTROY, VM_CREATE, VM_DESTROY.
 * CREATE_EXT's only extension is SETPARAM (the params of context_param.c,
 * applied before the context becomes visible); CLONE was removed from
 * i915, and any unknown extension or flag is -EINVAL. */
#include <errno.h>
#include <i915_drm.h>
#include <string.h>

#include "common/trace.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "common/user_copy.h"
#include "kernel/vm.h"

#define CREATE_FLAGS_KNOWN (I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS | \
			    I915_CONTEXT_CREATE_FLAGS_SINGLE_TIMELINE)
#define MAX_EXTENSIONS 64   /* a loop in the chain is -E2BIG, as i915 */

/* Walk the extension chain; every entry must be a SETPARAM with ctx_id 0. */
static int apply_extensions(struct gtsim_file *file, struct gem_context *ctx, uint64_t ext_ptr)
{
	for (unsigned n = 0; ext_ptr; n++) {
		if (n >= MAX_EXTENSIONS)
			return -E2BIG;
		struct drm_i915_gem_context_create_ext_setparam ext;
		if (copy_from_user_ptr(&ext, ext_ptr, sizeof(ext)))
			return -EFAULT;
		if (ext.base.name != I915_CONTEXT_CREATE_EXT_SETPARAM)
			return -EINVAL;
		if (ext.param.ctx_id)
			return -EINVAL;
		int ret = ctx_set_param(file, ctx, &ext.param);
		if (ret)
			return ret;
		ext_ptr = ext.base.next_extension;
	}
	return 0;
}

static int context_create(struct gtsim_file *file, struct drm_i915_gem_context_create_ext *args)
{
	struct gtsim_device *dev = file->dev;
	if (args->flags & ~CREATE_FLAGS_KNOWN)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	int err = 0;
	if (file->ban_score >= CLIENT_SCORE_BANNED) {
		/* i915_gem_context_create_ioctl: client_is_banned -> -EIO */
		err = -EIO;
		goto out;
	}
	uint32_t id;
	struct gem_context *ctx = ctx_create(dev, NULL, &err);
	if (!ctx)
		goto out;
	ctx->single_timeline = args->flags & I915_CONTEXT_CREATE_FLAGS_SINGLE_TIMELINE;
	if (args->flags & I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS)
		err = apply_extensions(file, ctx, args->extensions);
	if (!err)
		err = idr_alloc(&file->contexts, ctx, &id);
	if (err) {
		ctx_put(ctx);
		goto out;
	}
	ctx->file = file;
	ctx->id = id;
	args->ctx_id = id;
	TRACE(TRACE_GEM, "context %u created (hw id %u)", id, ctx->hw_id);
out:
	pthread_mutex_unlock(&dev->lock);
	return err;
}

int i915_gem_context_create_ioctl(struct gtsim_file *file, void *arg)
{
	/* The legacy struct's pad is the _EXT struct's flags; the dispatcher
	 * zero-extends the legacy struct, so extensions read as 0. */
	return context_create(file, arg);
}

int i915_gem_context_create_ext_ioctl(struct gtsim_file *file, void *arg)
{
	return context_create(file, arg);
}

int i915_gem_context_destroy_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_context_destroy *args = arg;
	if (args->pad)
		return -EINVAL;
	if (args->ctx_id == 0)   /* the default context cannot be destroyed */
		return -ENOENT;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_context *ctx = idr_remove(&file->contexts, args->ctx_id);
	if (ctx) {
		TRACE(TRACE_GEM, "context %u destroyed (hw id %u, %s)", args->ctx_id, ctx->hw_id,
		      ctx->persistent ? "persistent" : "not persistent");
		ctx_close(ctx);
	}
	pthread_mutex_unlock(&dev->lock);
	return ctx ? 0 : -ENOENT;
}

int i915_gem_vm_create_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_vm_control *args = arg;
	if (args->flags)
		return -EINVAL;
	if (args->extensions) {
		/* i915_user_extensions with an empty table: the header is read
		 * (-EFAULT), and any name is unknown (-EINVAL) */
		struct i915_user_extension ext;
		if (copy_from_user_ptr(&ext, args->extensions, sizeof(ext)))
			return -EFAULT;
		return -EINVAL;
	}
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	int err = -ENOMEM;
	uint32_t id;
	struct gem_vm *vm = vm_ppgtt_create(dev);
	if (vm && !(err = idr_alloc(&file->vms, vm, &id))) {
		vm->file_id = id;
		args->vm_id = id;
	} else if (vm) {
		vm_put(vm);
	}
	pthread_mutex_unlock(&dev->lock);
	return err;
}

int i915_gem_vm_destroy_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_vm_control *args = arg;
	if (args->flags || args->extensions)
		return -EINVAL;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_vm *vm = idr_remove(&file->vms, args->vm_id);
	if (vm)
		vm_put(vm);
	pthread_mutex_unlock(&dev->lock);
	return vm ? 0 : -ENOENT;
}
