/* Relocations inside state buffers (seed 002: each buffer of an execbuf
 * has its own relocation list): libgtdrv writes the target's presumed
 * address into the holder (as a SURFACE_STATE's base address would be)
 * and records the relocation in the holder's list. Through execbuf: the
 * holder ends up with the target's real address + delta whether the
 * presumed offset was right or stale (the target "moved"), the kernel's
 * placement comes back as the next presumed offset, and the entry's
 * presumed_offset is written back. */
#include <errno.h>
#include <string.h>

#include "drv/pipeline.h"
#include "test.h"

static uint64_t read_qword(struct gtdrv *drv, struct gtdrv_bo *bo, uint64_t off)
{
	uint64_t v = 0;
	CHECK_EQ(gtdrv_bo_read(drv, bo, off, &v, 8), 0);
	return v;
}

int main(void)
{
	struct gtsim_config cfg = { .device = "bdw", .sync = 1 };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	CHECK(dev != NULL);
	if (!dev)
		return test_exit();
	struct gtsim_file *file = gtsim_open(dev);
	struct gtdrv drv;
	gtdrv_init(&drv, file, devinfo_lookup("bdw"));
	struct gtdrv_bo holder, target;
	struct gtdrv_batch b;
	CHECK_EQ(gtdrv_bo_alloc(&drv, &holder, 4096), 0);
	CHECK_EQ(gtdrv_bo_alloc(&drv, &target, 8192), 0);

	/* first submission: whatever the kernel picks, the holder gets it */
	CHECK_EQ(gtdrv_batch_init(&b, &drv), 0);
	gtdrv_batch_state_reloc(&b, &holder, 64, &target, I915_GEM_DOMAIN_RENDER,
				I915_GEM_DOMAIN_RENDER, 0x40);
	CHECK_EQ(b.nbos, 2);
	CHECK_EQ(b.bos[0] == &holder && b.bos[1] == &target, 1);
	CHECK_EQ(b.bo_relocs[0].n, 1);
	CHECK_EQ(b.bo_relocs[1].n, 0);
	CHECK_EQ(b.relocs.n, 0);
	CHECK_EQ(b.bo_relocs[0].r[0].offset, 64);
	CHECK_EQ(b.bo_relocs[0].r[0].delta, 0x40);
	CHECK_EQ(b.bo_relocs[0].r[0].target_handle, target.handle);
	CHECK_EQ(b.bo_relocs[0].r[0].presumed_offset, target.offset);
	CHECK_EQ(gtdrv_batch_submit(&b), 0);
	uint64_t placed = target.offset;
	CHECK_EQ(read_qword(&drv, &holder, 64), placed + 0x40);

	/* second submission with a stale presumed offset: the target stays
	 * where it is, so the kernel must rewrite the holder's qword */
	target.offset = placed + 0x100000;
	struct drm_i915_gem_relocation_entry *entry;
	gtdrv_batch_state_reloc(&b, &holder, 128, &target, I915_GEM_DOMAIN_RENDER,
				I915_GEM_DOMAIN_RENDER, 0x80);
	CHECK_EQ(read_qword(&drv, &holder, 128), placed + 0x100000 + 0x80);
	entry = &b.bo_relocs[0].r[0];
	CHECK_EQ(gtdrv_batch_submit(&b), 0);
	CHECK_EQ(read_qword(&drv, &holder, 128), placed + 0x80);
	CHECK_EQ(target.offset, placed);
	CHECK_EQ(entry->presumed_offset, placed);   /* written back by the kernel */
	CHECK_EQ(read_qword(&drv, &holder, 64), placed + 0x40);

	/* a qword that does not fit in the holder fails the batch */
	gtdrv_batch_state_reloc(&b, &holder, 4092, &target, I915_GEM_DOMAIN_RENDER, 0, 0);
	CHECK_EQ(gtdrv_batch_submit(&b), -EINVAL);

	gtdrv_batch_fini(&b);
	gtdrv_bo_free(&drv, &holder);
	gtdrv_bo_free(&drv, &target);
	gtsim_close(file);
	gtsim_device_destroy(dev);
	return test_exit();
}
