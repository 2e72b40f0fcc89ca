/* Contexts through the ioctls: create (legacy and _EXT with SETPARAM
 * extensions), destroy, get/set params, VM create/destroy/share, reset
 * stats, each error path with i915's errno. */
#include <errno.h>
#include <unistd.h>

#include "kernel_test.h"

static int getp(struct gtsim_file *f, uint32_t ctx, uint64_t param, uint64_t *value)
{
	struct drm_i915_gem_context_param p = { .ctx_id = ctx, .param = param };
	int ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &p);
	*value = p.value;
	return ret;
}

static int setp(struct gtsim_file *f, uint32_t ctx, uint64_t param, uint64_t value)
{
	struct drm_i915_gem_context_param p = { .ctx_id = ctx, .param = param, .value = value };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &p);
}

int main(void)
{
	struct gtsim_device *dev = test_device(0, 0);
	struct gtsim_file *f = gtsim_open(dev), *g = gtsim_open(dev);
	uint64_t v;

	/* The default context 0 exists in every file. */
	CHECK_EQ(getp(f, 0, I915_CONTEXT_PARAM_GTT_SIZE, &v), 0);
	CHECK_EQ(v, 1ull << 48);
	CHECK_EQ(getp(f, 0, I915_CONTEXT_PARAM_BANNABLE, &v), 0);
	CHECK_EQ(v, 1);
	CHECK_EQ(getp(f, 0, I915_CONTEXT_PARAM_RECOVERABLE, &v), 0);
	CHECK_EQ(v, 1);
	CHECK_EQ(getp(f, 0, I915_CONTEXT_PARAM_PRIORITY, &v), 0);
	CHECK_EQ(v, 0);
	CHECK_EQ(getp(f, 0, I915_CONTEXT_PARAM_BAN_PERIOD, &v), -EINVAL);
	CHECK_EQ(getp(f, 0, 0x999, &v), -EINVAL);
	CHECK_EQ(getp(f, 5, I915_CONTEXT_PARAM_GTT_SIZE, &v), -ENOENT);

	struct drm_i915_gem_context_create c = { 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c), 0);
	CHECK_EQ(c.ctx_id, 1);
	CHECK_EQ(getp(g, c.ctx_id, I915_CONTEXT_PARAM_GTT_SIZE, &v), -ENOENT);   /* per file */
	c.pad = 0x80;   /* unknown create flag */
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c), -EINVAL);

	/* Set params. */
	CHECK_EQ(setp(f, 1, I915_CONTEXT_PARAM_RECOVERABLE, 0), 0);
	CHECK_EQ(getp(f, 1, I915_CONTEXT_PARAM_RECOVERABLE, &v), 0);
	CHECK_EQ(v, 0);
	CHECK_EQ(setp(f, 1, I915_CONTEXT_PARAM_NO_ERROR_CAPTURE, 1), 0);
	CHECK_EQ(getp(f, 1, I915_CONTEXT_PARAM_NO_ERROR_CAPTURE, &v), 0);
	CHECK_EQ(v, 1);
	CHECK_EQ(setp(f, 1, I915_CONTEXT_PARAM_PRIORITY, (uint64_t)-100), 0);
	CHECK_EQ(getp(f, 1, I915_CONTEXT_PARAM_PRIORITY, &v), 0);
	CHECK_EQ((int64_t)v, -100);
	CHECK_EQ(setp(f, 1, I915_CONTEXT_PARAM_PRIORITY, 2000), -EINVAL);
	CHECK_EQ(setp(f, 1, I915_CONTEXT_PARAM_PRIORITY, (uint64_t)-2000), -EINVAL);
	if (geteuid() != 0) {
		CHECK_EQ(setp(f, 1, I915_CONTEXT_PARAM_PRIORITY, 10), -EPERM);
		CHECK_EQ(setp(f, 1, I915_CONTEXT_PARAM_BANNABLE, 0), -EPERM);
	}
	CHECK_EQ(setp(f, 1, I915_CONTEXT_PARAM_GTT_SIZE, 0), -EINVAL);
	/* Removed from i915 in 5.15: set and get are -EINVAL. */
	CHECK_EQ(setp(f, 1, I915_CONTEXT_PARAM_NO_ZEROMAP, 1), -EINVAL);
	uint64_t zm;
	CHECK_EQ(getp(f, 1, I915_CONTEXT_PARAM_NO_ZEROMAP, &zm), -EINVAL);
	CHECK_EQ(setp(f, 1, I915_CONTEXT_PARAM_SSEU, 0), -ENODEV);
	CHECK_EQ(setp(f, 9, I915_CONTEXT_PARAM_RECOVERABLE, 0), -ENOENT);
	struct drm_i915_gem_context_param sized = { .ctx_id = 1, .param = I915_CONTEXT_PARAM_RECOVERABLE,
						    .size = 4 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &sized), -EINVAL);

	/* SSEU read for the render engine. */
	struct drm_i915_gem_context_param_sseu sseu = { 0 };
	struct drm_i915_gem_context_param sp = { .ctx_id = 0, .param = I915_CONTEXT_PARAM_SSEU,
						 .size = sizeof(sseu), .value = (uintptr_t)&sseu };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &sp), 0);
	CHECK_EQ(sseu.slice_mask, 1);
	CHECK_EQ(sseu.subslice_mask, 7);
	CHECK_EQ(sseu.max_eus_per_subslice, 8);
	sseu.engine.engine_class = I915_ENGINE_CLASS_COPY;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &sp), -EINVAL);

	/* VMs: create, share into a new context at create time, destroy. */
	struct drm_i915_gem_vm_control vmc = { 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_VM_CREATE, &vmc), 0);
	CHECK(vmc.vm_id >= 1);
	struct drm_i915_gem_context_create_ext_setparam ext = {
		.base.name = I915_CONTEXT_CREATE_EXT_SETPARAM,
		.param = { .param = I915_CONTEXT_PARAM_VM, .value = vmc.vm_id } };
	struct drm_i915_gem_context_create_ext ce = {
		.flags = I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS, .extensions = (uintptr_t)&ext };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, &ce), 0);
	CHECK_EQ(ce.ctx_id, 2);
	struct drm_i915_gem_context_param vp = { .ctx_id = ce.ctx_id, .param = I915_CONTEXT_PARAM_VM };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &vp), 0);
	CHECK(vp.value != 0);
	CHECK_EQ(setp(f, 2, I915_CONTEXT_PARAM_VM, vmc.vm_id), -EINVAL);   /* only at create */
	ext.param.value = 4242;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, &ce), -ENOENT);
	ext.param.value = vmc.vm_id;
	ext.param.ctx_id = 1;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, &ce), -EINVAL);
	ext.param.ctx_id = 0;
	ext.base.name = 1;   /* CLONE: removed from i915 */
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, &ce), -EINVAL);
	ce.extensions = 16;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, &ce), -EFAULT);
	/* Failed creations consumed no id. */
	c.pad = 0;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c), 0);
	CHECK_EQ(c.ctx_id, 3);

	/* Before its first use a context's VM and engines can still be set
	 * (i915 finalizes gen <= 12 contexts lazily); afterwards -EINVAL. */
	struct drm_i915_gem_context_create lazy = { 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &lazy), 0);
	CHECK_EQ(setp(f, lazy.ctx_id, I915_CONTEXT_PARAM_VM, vmc.vm_id), 0);
	CHECK_EQ(setp(f, lazy.ctx_id, I915_CONTEXT_PARAM_VM, 4242), -ENOENT);
	struct { uint64_t extensions; struct i915_engine_class_instance ci[3]; } eng = {
		0, { { I915_ENGINE_CLASS_COPY, 0 }, { I915_ENGINE_CLASS_INVALID, I915_ENGINE_CLASS_INVALID_NONE },
		     { I915_ENGINE_CLASS_RENDER, 0 } } };
	struct drm_i915_gem_context_param ep = { .ctx_id = lazy.ctx_id, .param = I915_CONTEXT_PARAM_ENGINES,
						 .size = 8 + sizeof(eng.ci), .value = (uintptr_t)&eng };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &ep), 0);
	eng.ci[2].engine_instance = 1;   /* no second render engine */
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &ep), -ENOENT);
	eng.ci[2].engine_instance = 0;
	ep.size = 8 + sizeof(eng.ci) - 2;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &ep), -EINVAL);
	ep.size = 8 + sizeof(eng.ci);
	eng.extensions = (uintptr_t)&ext;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &ep), -EINVAL);
	eng.extensions = 0;
	CHECK_EQ(getp(f, lazy.ctx_id, I915_CONTEXT_PARAM_GTT_SIZE, &v), 0);   /* first use */
	CHECK_EQ(setp(f, lazy.ctx_id, I915_CONTEXT_PARAM_VM, vmc.vm_id), -EINVAL);
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &ep), -EINVAL);
	CHECK_EQ(setp(f, 0, I915_CONTEXT_PARAM_VM, vmc.vm_id), -EINVAL);       /* default: in use */

	vmc.flags = 1;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_VM_CREATE, &vmc), -EINVAL);
	vmc.flags = 0;
	/* extensions: i915_user_extensions with no known name: an unreadable
	 * chain is -EFAULT, a readable one -EINVAL (IGT gem_vm_create
	 * invalid-create) */
	uint32_t keep = vmc.vm_id;
	vmc.extensions = ~0ull;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_VM_CREATE, &vmc), -EFAULT);
	struct i915_user_extension vm_ext = { .name = ~0u };
	vmc.extensions = (uintptr_t)&vm_ext;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_VM_CREATE, &vmc), -EINVAL);
	vmc.extensions = 0;
	vmc.vm_id = keep;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_VM_DESTROY, &vmc), 0);
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_VM_DESTROY, &vmc), -ENOENT);
	/* The context keeps its VM alive. */
	CHECK_EQ(getp(f, 2, I915_CONTEXT_PARAM_GTT_SIZE, &v), 0);

	/* Reset stats. */
	struct drm_i915_reset_stats rs = { .ctx_id = 2 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), 0);
	CHECK_EQ(rs.batch_active, 0);
	CHECK_EQ(rs.batch_pending, 0);
	rs.flags = 1;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), -EINVAL);
	rs.flags = 0;
	rs.ctx_id = 77;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, &rs), -ENOENT);

	/* Destroy. */
	struct drm_i915_gem_context_destroy d = { .ctx_id = 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &d), -ENOENT);
	d.ctx_id = 2;
	d.pad = 1;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &d), -EINVAL);
	d.pad = 0;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &d), 0);
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &d), -ENOENT);
	CHECK_EQ(getp(f, 2, I915_CONTEXT_PARAM_GTT_SIZE, &v), -ENOENT);

	gtsim_close(f);
	gtsim_close(g);
	gtsim_device_destroy(dev);
	return test_exit();
}
