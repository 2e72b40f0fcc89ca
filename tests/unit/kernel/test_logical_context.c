/* Logical contexts as iris uses them: one GEM context with an engine map
 * [render, render, copy] (I915_CONTEXT_PARAM_ENGINES; execbuf's ring bits
 * index the map, i915's eb_select_engine), where each render slot has its
 * own 3D state, as each i915 intel_context has its own context image;
 * another context starts from the power-on state. Also: the retire
 * worker running before any engine has a ring does not crash.
 * Batches are hand-encoded from the BDW PRM (vol. 2a). */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "gpu/cmd/cmd.h"
#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/engine.h"
#include "gpu/cs/state.h"
#include "kernel/device.h"
#include "kernel_test.h"

#define MI_BATCH_BUFFER_END (0x0au << 23)
#define DRAWING_RECTANGLE 0x79000002u       /* 3DSTATE_DRAWING_RECTANGLE, 4 dwords */

static struct gtsim_device *dev;
static struct gtsim_file *f;

/* A batch: 3DSTATE_DRAWING_RECTANGLE with X Min xmin (none when < 0),
 * then MI_BATCH_BUFFER_END; executed with the ring bits `ring`. */
static int exec(uint32_t ctx, unsigned ring, int xmin)
{
	uint32_t dw[8] = { 0 }, n = 0;
	if (xmin >= 0) {
		dw[n++] = DRAWING_RECTANGLE;
		dw[n++] = (uint32_t)xmin;
		dw[n++] = 0;
		dw[n++] = 0;
	}
	dw[n++] = MI_BATCH_BUFFER_END;
	uint32_t h = test_create(f, 4096);
	CHECK(h != 0);
	CHECK_EQ(test_pwrite(f, h, 0, dw, sizeof(dw)), 0);
	struct drm_i915_gem_exec_object2 obj = { .handle = h };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)&obj, .buffer_count = 1, .flags = ring, .rsvd1 = ctx,
	};
	int ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
	gtsim_device_idle(dev);
	test_close(f, h);
	return ret;
}

/* X Min of the render engine's current 3DSTATE_DRAWING_RECTANGLE, -1
 * when its logical context has none. */
static int render_xmin(void)
{
	const struct cmd_desc *d = cmd_find_id(8, CMD_ID_3DSTATE_DRAWING_RECTANGLE);
	uint32_t len;
	const uint32_t *dw = cs_state_get(engine_state(dev->gpu->engines[ENGINE_RCS]), d, &len);
	return dw ? (int)(dw[1] & 0xffff) : -1;
}

static void test_worker_before_rings(void)
{
	struct gtsim_config cfg = { .device = "bdw", .sync = 1, .hangcheck_ms = 2 };
	struct gtsim_device *d = gtsim_device_create(&cfg);
	CHECK(d != NULL);
	struct timespec ts = { 0, 30 * 1000000L };
	nanosleep(&ts, NULL);          /* several worker ticks, no execbuf yet */
	gtsim_device_destroy(d);
}

int main(void)
{
	test_worker_before_rings();

	dev = test_device(0, 0);
	f = gtsim_open(dev);
	struct drm_i915_gem_context_create cc = { 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &cc), 0);
	struct { uint64_t extensions; struct i915_engine_class_instance ci[4]; } map = {
		0, { { I915_ENGINE_CLASS_RENDER, 0 }, { I915_ENGINE_CLASS_RENDER, 0 },
		     { I915_ENGINE_CLASS_COPY, 0 },
		     { I915_ENGINE_CLASS_INVALID, I915_ENGINE_CLASS_INVALID_NONE } } };
	struct drm_i915_gem_context_param p = {
		.ctx_id = cc.ctx_id, .param = I915_CONTEXT_PARAM_ENGINES,
		.size = sizeof(map), .value = (uintptr_t)&map };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &p), 0);

	/* The ring bits index the map: slot 2 is the copy engine (legacy
	 * bits 2 would be BSD); a hole or an index past the map is -EINVAL. */
	uint64_t bcs_before = engine_commands(dev->gpu->engines[ENGINE_BCS]);
	CHECK_EQ(exec(cc.ctx_id, 2, -1), 0);
	CHECK(engine_commands(dev->gpu->engines[ENGINE_BCS]) > bcs_before);
	CHECK_EQ(exec(cc.ctx_id, 3, -1), -EINVAL);
	CHECK_EQ(exec(cc.ctx_id, 4, -1), -EINVAL);

	/* Each render slot keeps its own state. */
	CHECK_EQ(exec(cc.ctx_id, 0, 5), 0);
	CHECK_EQ(render_xmin(), 5);
	CHECK_EQ(exec(cc.ctx_id, 1, -1), 0);
	CHECK_EQ(render_xmin(), -1);          /* a new logical context */
	CHECK_EQ(exec(cc.ctx_id, 1, 7), 0);
	CHECK_EQ(exec(cc.ctx_id, 0, -1), 0);
	CHECK_EQ(render_xmin(), 5);
	CHECK_EQ(exec(cc.ctx_id, 1, -1), 0);
	CHECK_EQ(render_xmin(), 7);

	/* The default context (legacy selection) has its own; then back. */
	CHECK_EQ(exec(0, I915_EXEC_RENDER, -1), 0);
	CHECK_EQ(render_xmin(), -1);
	CHECK_EQ(exec(cc.ctx_id, 0, -1), 0);
	CHECK_EQ(render_xmin(), 5);

	/* A destroyed context's images go; the default context is intact. */
	struct drm_i915_gem_context_destroy cd = { .ctx_id = cc.ctx_id };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &cd), 0);
	CHECK_EQ(exec(0, I915_EXEC_RENDER, 9), 0);
	CHECK_EQ(render_xmin(), 9);

	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
