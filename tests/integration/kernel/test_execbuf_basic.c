/* First execbuf: a batch of MI_STORE_DWORD_IMM writes a value into a
 * softpinned object; the value is read back after GEM_WAIT. Run both with
 * the engine threads (async) and with GTSIM_SYNC semantics. */
#include "eb_test.h"

static void store_value(int sync)
{
	struct gtsim_device *dev = eb_device(sync, 0, 0);
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t target = eb_create(f, 4096), batch = eb_create(f, 4096);
	uint32_t dw[16];
	unsigned n = emit_store(dw, 0x10000 + 8, 0xdeadbeef);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, batch, 0, dw, n * 4), 0);

	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = target, .offset = 0x10000,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = batch },
	};
	CHECK_EQ(eb_exec(f, obj, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, target, -1), 0);
	CHECK_EQ(eb_read32(f, target, 8), 0xdeadbeef);
	CHECK_EQ(eb_read32(f, target, 4), 0);
	CHECK_EQ(eb_busy(f, target), 0);
	/* The softpinned object stays where it was asked to be. */
	CHECK_EQ(obj[0].offset, 0x10000);

	/* A second batch, same objects: another value. */
	n = emit_store(dw, 0x10000 + 12, 0x12345678);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, batch, 0, dw, n * 4), 0);
	CHECK_EQ(eb_exec(f, obj, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, target, -1), 0);
	CHECK_EQ(eb_read32(f, target, 12), 0x12345678);
	CHECK_EQ(eb_read32(f, target, 8), 0xdeadbeef);

	gtsim_close(f);
	gtsim_device_destroy(dev);
}

/* i915's eb_reserve binds the objects confined below 4 GiB (no
 * EXEC_OBJECT_SUPPORTS_48B_ADDRESS) before the 48-bit ones: a 4 GiB
 * 48-bit object listed first does not take the zone the batch (listed
 * last, without the flag) needs. Expected: success, the batch below
 * 4 GiB, the big object above it (gem_exec_capture many-4K had -ENOSPC). */
static void low_zone_first(void)
{
	struct gtsim_device *dev = eb_device(0, 0, 0);
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t big = eb_create(f, 4ull << 30), batch = eb_create(f, 4096);
	uint32_t dw[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	CHECK_EQ(eb_write(f, batch, 0, dw, sizeof(dw)), 0);
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = big, .flags = EXEC_OBJECT_SUPPORTS_48B_ADDRESS },
		{ .handle = batch },
	};
	CHECK_EQ(eb_exec(f, obj, 2, 0, 0), 0);
	CHECK(obj[1].offset + 4096 <= 1ull << 32);
	CHECK(obj[0].offset >= obj[1].offset + 4096);
	CHECK_EQ(eb_wait(f, batch, -1), 0);
	gtsim_close(f);
	gtsim_device_destroy(dev);
}

int main(void)
{
	low_zone_first();
	store_value(0);
	store_value(1);
	return test_exit();
}
