/* Destroying a device whose last requests were never retired: a context
 * with work on the render engine and then on the blitter, its file
 * closed, so only its requests hold it. Device destruction retires the
 * render engine's requests, releases that engine's context-image pool,
 * then retires the blitter's, which frees the context: its render slot
 * must not go back to the released pool (it wrote through a NULL free
 * list: `gtsim bench nop --engine all` crashed at exit under ASan, one
 * run in four). Each round must end with the device gone, no crash. */
#include "eb_test.h"

static void nop_on(struct gtsim_file *f, uint32_t ctx, uint64_t engine)
{
	uint32_t bb = eb_create(f, 4096);
	uint32_t dw[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	CHECK_EQ(eb_write(f, bb, 0, dw, 8), 0);
	struct drm_i915_gem_exec_object2 o = { .handle = bb };
	CHECK_EQ(eb_exec(f, &o, 1, engine, ctx), 0);
}

int main(void)
{
	for (int round = 0; round < 8; round++) {
		struct gtsim_device *dev = eb_device(0, 0, 0);
		struct gtsim_file *f = gtsim_open(dev);
		uint32_t ctx = eb_context_create(f);
		for (int i = 0; i < 4; i++) {
			nop_on(f, ctx, I915_EXEC_RENDER);
			nop_on(f, ctx, I915_EXEC_BLT);
		}
		gtsim_close(f);
		gtsim_device_destroy(dev);
	}
	return test_exit();
}
