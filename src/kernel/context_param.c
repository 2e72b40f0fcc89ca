/* CONTEXT_GETPARAM / CONTEXT_SETPARAM with i915's rules and errnos:
 * scalar params require size 0; lowering BANNABLE needs CAP_SYS_ADMIN and
 * raising PRIORITY above default CAP_SYS_NICE (-EPERM); SSEU can be read
 * for the render engine but only set on gen11 (-ENODEV here); the VM and
 * the engine map can be set until the context's first use (i915 >= 5.15
 * finalizes gen <= 12 contexts lazily), -EINVAL afterwards. */
#include <errno.h>
#include <string.h>
#include <i915_drm.h>
#include <unistd.h>

#include "common/trace.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/params.h"
#include "common/user_copy.h"
#include "kernel/vm.h"

static bool capable_root(void)
{
	return user_caller_is_root();
}

static int set_priority(struct gem_context *ctx, int64_t prio)
{
	if (prio > I915_CONTEXT_MAX_USER_PRIORITY || prio < I915_CONTEXT_MIN_USER_PRIORITY)
		return -EINVAL;
	if (prio > I915_CONTEXT_DEFAULT_PRIORITY && !capable_root())
		return -EPERM;
	ctx->priority = (int)prio;
	return 0;
}

static int set_vm(struct gtsim_file *file, struct gem_context *ctx, uint64_t id)
{
	if (ctx->finalized)
		return -EINVAL;
	if (id > UINT32_MAX)
		return -ENOENT;
	struct gem_vm *vm = idr_find(&file->vms, (uint32_t)id);
	if (!vm)
		return -ENOENT;
	vm_get(vm);
	vm_put(ctx->vm);
	ctx->vm = vm;
	return 0;
}

/* uAPI engine class -> the engine that serves it (one of each on BDW). */
static int class_to_engine(uint16_t cls, uint16_t instance)
{
	if (instance != 0)
		return -1;
	switch (cls) {
	case I915_ENGINE_CLASS_RENDER: return ENGINE_RCS;
	case I915_ENGINE_CLASS_COPY: return ENGINE_BCS;
	case I915_ENGINE_CLASS_VIDEO: return ENGINE_VCS;
	case I915_ENGINE_CLASS_VIDEO_ENHANCE: return ENGINE_VECS;
	default: return -1;
	}
}

/* struct i915_context_param_engines: u64 extensions, then n class/instance
 * pairs; size 0 restores the legacy selection. An {INVALID, INVALID_NONE}
 * pair leaves a hole; an engine the GPU lacks is -ENOENT. */
static int set_engines(struct gem_context *ctx, const struct drm_i915_gem_context_param *p)
{
	if (ctx->finalized)
		return -EINVAL;
	if (p->size == 0) {
		ctx->num_engines = 0;
		return 0;
	}
	const size_t hdr = sizeof(uint64_t), each = sizeof(struct i915_engine_class_instance);
	if (p->size < hdr || (p->size - hdr) % each)
		return -EINVAL;
	size_t n = (p->size - hdr) / each;
	if (n > CTX_MAX_ENGINES)
		return -EINVAL;
	uint64_t extensions;
	struct i915_engine_class_instance ci[CTX_MAX_ENGINES];
	if (copy_from_user_ptr(&extensions, p->value, hdr) ||
	    copy_from_user_ptr(ci, p->value + hdr, n * each))
		return -EFAULT;
	if (extensions)   /* load balancing / bonding: nothing to balance on BDW */
		return -EINVAL;
	int map[CTX_MAX_ENGINES];
	for (size_t i = 0; i < n; i++) {
		if (ci[i].engine_class == (uint16_t)I915_ENGINE_CLASS_INVALID &&
		    ci[i].engine_instance == (uint16_t)I915_ENGINE_CLASS_INVALID_NONE) {
			map[i] = -1;
			continue;
		}
		map[i] = class_to_engine(ci[i].engine_class, ci[i].engine_instance);
		if (map[i] < 0)
			return -ENOENT;
	}
	memcpy(ctx->engines, map, n * sizeof(map[0]));
	ctx->num_engines = (unsigned)n;
	return 0;
}

int ctx_set_param(struct gtsim_file *file, struct gem_context *ctx,
		  const struct drm_i915_gem_context_param *p)
{
	bool scalar = p->param != I915_CONTEXT_PARAM_SSEU && p->param != I915_CONTEXT_PARAM_ENGINES;
	if (scalar && p->size)
		return -EINVAL;
	switch (p->param) {
	/* NO_ZEROMAP is gone from i915 (Linux 5.15 on): -EINVAL like any
	 * unknown param (IGT gem_ctx_param invalid-set-no-zeromap). */
	case I915_CONTEXT_PARAM_NO_ERROR_CAPTURE:
		ctx->no_error_capture = p->value != 0;
		return 0;
	case I915_CONTEXT_PARAM_BANNABLE:
		if (!p->value && !capable_root())
			return -EPERM;
		ctx->bannable = p->value != 0;
		return 0;
	case I915_CONTEXT_PARAM_RECOVERABLE:
		ctx->recoverable = p->value != 0;
		return 0;
	case I915_CONTEXT_PARAM_PRIORITY:
		return set_priority(ctx, (int64_t)p->value);
	case I915_CONTEXT_PARAM_SSEU:
		return -ENODEV;   /* only gen11 allows reconfiguring */
	case I915_CONTEXT_PARAM_PERSISTENCE:
		/* i915_gem_context.c __context_set_persistence: persistence
		 * needs hangcheck (-EINVAL), cancelling at close needs
		 * preempt-to-idle (-ENODEV without I915_SCHEDULER_CAP_PREEMPTION:
		 * i915 lacks it on BDW, whose render engine cannot preempt;
		 * SKL's i915 has it; SCHEDULER_CAPS_OF). gtsim cancels by
		 * resetting the engine, as i915 does when its pulse cannot
		 * preempt. Asking for the state it has always succeeds. */
		if ((p->value != 0) == ctx->persistent)
			return 0;
		if (p->value && !params_hangcheck())
			return -EINVAL;
		if (!p->value && file->dev->info->gen < 9)
			return -ENODEV;
		ctx->persistent = p->value != 0;
		return 0;
	case I915_CONTEXT_PARAM_VM:
		return set_vm(file, ctx, p->value);
	case I915_CONTEXT_PARAM_ENGINES:
		return set_engines(ctx, p);
	default:   /* BAN_PERIOD, GTT_SIZE, RINGSIZE... */
		return -EINVAL;
	}
}

/* SSEU of the render engine: what the device has. */
static int get_sseu(struct gem_context *ctx, struct drm_i915_gem_context_param *p)
{
	struct drm_i915_gem_context_param_sseu s;
	if (p->size == 0) {
		p->size = sizeof(s);
		return 0;
	}
	if (p->size < sizeof(s))
		return -EINVAL;
	if (copy_from_user_ptr(&s, p->value, sizeof(s)))
		return -EFAULT;
	if (s.flags || s.rsvd)
		return -EINVAL;
	if (s.engine.engine_class != I915_ENGINE_CLASS_RENDER || s.engine.engine_instance)
		return -EINVAL;
	const struct gt_devinfo *info = ctx->dev->info;
	int eus_per_subslice = info->num_eus / info->num_subslices;
	s.slice_mask = (1u << info->num_slices) - 1;
	s.subslice_mask = (1u << (info->num_subslices / info->num_slices)) - 1;
	s.min_eus_per_subslice = (uint16_t)eus_per_subslice;
	s.max_eus_per_subslice = (uint16_t)eus_per_subslice;
	if (copy_to_user_ptr(p->value, &s, sizeof(s)))
		return -EFAULT;
	p->size = sizeof(s);
	return 0;
}

/* A new VM id in the file for the context's address space. */
static int get_vm(struct gtsim_file *file, struct gem_context *ctx,
		  struct drm_i915_gem_context_param *p)
{
	uint32_t id;
	int ret = idr_alloc(&file->vms, ctx->vm, &id);
	if (ret)
		return ret;
	vm_get(ctx->vm);
	p->value = id;
	p->size = 0;
	return 0;
}

static int get_param(struct gtsim_file *file, struct gem_context *ctx,
		     struct drm_i915_gem_context_param *p)
{
	switch (p->param) {
	case I915_CONTEXT_PARAM_GTT_SIZE:
		p->value = ctx->vm->total;
		break;
	case I915_CONTEXT_PARAM_NO_ERROR_CAPTURE:
		p->value = ctx->no_error_capture;
		break;
	case I915_CONTEXT_PARAM_BANNABLE:
		p->value = ctx->bannable;
		break;
	case I915_CONTEXT_PARAM_RECOVERABLE:
		p->value = ctx->recoverable;
		break;
	case I915_CONTEXT_PARAM_PRIORITY:
		p->value = (uint64_t)(int64_t)ctx->priority;
		break;
	case I915_CONTEXT_PARAM_PERSISTENCE:
		p->value = ctx->persistent;
		break;
	case I915_CONTEXT_PARAM_SSEU:
		return get_sseu(ctx, p);
	case I915_CONTEXT_PARAM_VM:
		return get_vm(file, ctx, p);
	default:
		return -EINVAL;
	}
	p->size = 0;
	return 0;
}

int i915_gem_context_getparam_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_context_param *p = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_context *ctx = ctx_lookup(file, p->ctx_id);
	int ret = ctx ? get_param(file, ctx, p) : -ENOENT;
	ctx_put(ctx);
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int i915_gem_context_setparam_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_context_param *p = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	/* Not ctx_lookup(): setting a parameter does not finalize. */
	struct gem_context *ctx = idr_find(&file->contexts, p->ctx_id);
	int ret = ctx ? ctx_set_param(file, ctx, p) : -ENOENT;
	pthread_mutex_unlock(&dev->lock);
	TRACE(TRACE_GEM, "context %u setparam 0x%llx = 0x%llx -> %d", p->ctx_id,
	      (unsigned long long)p->param, (unsigned long long)p->value, ret);
	return ret;
}
