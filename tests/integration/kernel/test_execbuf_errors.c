/* EXECBUFFER2 error paths: each bad argument gets i915's errno
 * (i915_gem_execbuffer.c) and nothing changes: the batch does not run (its
 * store never lands), no offsets are reported, nothing is busy. */
#include <sys/mman.h>

#include "eb_test.h"

static struct gtsim_file *f;
static uint32_t target, batch;

/* A valid execbuf: the batch stores 1 at target+0 (softpinned at 64 KiB). */
static void setup(struct drm_i915_gem_exec_object2 *obj, struct drm_i915_gem_execbuffer2 *eb)
{
	obj[0] = (struct drm_i915_gem_exec_object2){ .handle = target, .offset = 0x10000,
		.flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE };
	obj[1] = (struct drm_i915_gem_exec_object2){ .handle = batch, .offset = 0x7777000 };
	*eb = (struct drm_i915_gem_execbuffer2){ .buffers_ptr = (uintptr_t)obj, .buffer_count = 2,
		.flags = I915_EXEC_NO_RELOC };
}

static int exec(struct drm_i915_gem_execbuffer2 *eb)
{
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, eb);
}

/* Nothing ran and nothing was reported. */
static void check_unchanged(const struct drm_i915_gem_exec_object2 *obj, int line)
{
	gtsim_device_idle(NULL);
	if (eb_read32(f, target, 0) != 0 || eb_busy(f, batch) != 0 ||
	    obj[1].offset != 0x7777000)
		fprintf(stderr, "line %d: something changed\n", line);
	CHECK_EQ(eb_read32(f, target, 0), 0);
	CHECK_EQ(eb_busy(f, batch), 0);
	CHECK_EQ(obj[1].offset, 0x7777000);
}

#define EXPECT(expr_setup, err)                                               \
	do {                                                                  \
		struct drm_i915_gem_exec_object2 obj[3];                      \
		struct drm_i915_gem_execbuffer2 eb;                           \
		setup(obj, &eb);                                              \
		expr_setup;                                                   \
		CHECK_EQ(exec(&eb), err);                                     \
		check_unchanged(obj, __LINE__);                               \
	} while (0)

/* PAD_TO_SIZE (i915's node of pad_to_size bytes): object 0 softpinned at
 * 0x10000 and padded to 128 KiB takes [0x10000, 0x30000): the batch
 * softpinned at 0x20000 is in its way (-ENOSPC), at 0x30000 it is not;
 * the batch's store lands in object 0. */
static void pad_to_size(void)
{
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_execbuffer2 eb;
	setup(obj, &eb);
	obj[0].flags |= EXEC_OBJECT_PAD_TO_SIZE;
	obj[0].pad_to_size = 0x20000;
	obj[1].flags = EXEC_OBJECT_PINNED;
	obj[1].offset = 0x20000;
	CHECK_EQ(exec(&eb), -ENOSPC);
	obj[1].offset = 0x30000;
	CHECK_EQ(exec(&eb), 0);
	CHECK_EQ(obj[0].offset, 0x10000);
	CHECK_EQ(obj[1].offset, 0x30000);
	CHECK_EQ(eb_wait(f, batch, -1), 0);
	CHECK_EQ(eb_read32(f, target, 0), 1);
	/* a 64 TiB pad in the 48-bit PPGTT: placed, run, and unbound (at
	 * close) without walking the unmapped padding page by page */
	obj[0].flags |= EXEC_OBJECT_SUPPORTS_48B_ADDRESS;
	obj[0].pad_to_size = 1ull << 46;
	obj[1].flags |= EXEC_OBJECT_SUPPORTS_48B_ADDRESS;
	obj[1].offset = 0x10000 + (1ull << 46);
	CHECK_EQ(exec(&eb), 0);
	CHECK_EQ(eb_wait(f, batch, -1), 0);
}

int main(void)
{
	struct gtsim_device *dev = eb_device(1, 0, 0);
	f = gtsim_open(dev);
	target = eb_create(f, 4096);
	batch = eb_create(f, 8192);
	uint32_t dw[8];
	unsigned n = emit_store(dw, 0x10000, 1);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	CHECK_EQ(eb_write(f, batch, 0, dw, n * 4), 0);

	/* buffer_count */
	EXPECT(eb.buffer_count = 0, -EINVAL);
	EXPECT(eb.buffer_count = 0x80000000u, -EINVAL);
	/* a list kvmalloc cannot hold ((count + 2) * 68 bytes > INT_MAX,
	 * i915's element: the object, a vma pointer, flags): -ENOMEM */
	EXPECT(eb.buffer_count = 0x7fffffffu, -ENOMEM);
	EXPECT(eb.buffer_count = (unsigned)(0x7fffffffu / 68 - 1), -ENOMEM);
	/* flags: unknown bits, constants mode, resource streamer, SOL reset,
	 * bad rings, BSD selectors on a non-BSD ring, FENCE_IN with SUBMIT */
	EXPECT(eb.flags |= 1ull << 22, -EINVAL);
	EXPECT(eb.flags |= 1ull << 40, -EINVAL);
	EXPECT(eb.flags |= I915_EXEC_CONSTANTS_ABSOLUTE, -EINVAL);
	EXPECT(eb.flags |= I915_EXEC_RESOURCE_STREAMER, -EINVAL);
	EXPECT(eb.flags |= I915_EXEC_GEN7_SOL_RESET, -EINVAL);
	EXPECT(eb.flags |= 5, -EINVAL);
	EXPECT(eb.flags |= 0x3f, -EINVAL);
	EXPECT(eb.flags |= I915_EXEC_BLT | I915_EXEC_BSD_RING1, -EINVAL);
	EXPECT(eb.flags |= I915_EXEC_SECURE, -EPERM);
	EXPECT((eb.flags |= I915_EXEC_FENCE_IN | I915_EXEC_FENCE_SUBMIT), -EINVAL);
	EXPECT((eb.flags |= I915_EXEC_FENCE_IN, eb.rsvd2 = 0), -EINVAL);   /* fd 0: not a sync_file */
	/* cliprects without a fence array, DR1/DR4 */
	EXPECT(eb.num_cliprects = 1, -EINVAL);
	EXPECT(eb.cliprects_ptr = 0x1000, -EINVAL);
	EXPECT(eb.DR1 = 1, -EINVAL);
	EXPECT(eb.DR4 = 2, -EINVAL);
	/* batch start/length: 8-byte rule, inside the object */
	EXPECT(eb.batch_start_offset = 4, -EINVAL);
	EXPECT(eb.batch_len = 12, -EINVAL);
	EXPECT(eb.batch_start_offset = 8192, -EINVAL);
	EXPECT((eb.batch_start_offset = 4096, eb.batch_len = 8192), -EINVAL);
	/* user pointers */
	EXPECT(eb.buffers_ptr = 0, -EFAULT);
	void *hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT(eb.buffers_ptr = (uintptr_t)hole, -EFAULT);
	/* contexts */
	EXPECT(eb.rsvd1 = 7, -ENOENT);
	/* handles, duplicates, exec object flags */
	EXPECT(obj[0].handle = 999, -ENOENT);
	EXPECT(obj[1].handle = 0, -ENOENT);
	EXPECT(obj[0].handle = batch, -EINVAL);
	EXPECT(obj[0].flags |= 1u << 20, -EINVAL);
	EXPECT(obj[0].flags |= EXEC_OBJECT_NEEDS_GTT, -EINVAL);
	EXPECT(obj[0].alignment = 3 * 4096, -EINVAL);
	EXPECT(obj[1].flags |= EXEC_OBJECT_WRITE, -EINVAL);   /* self-modifying batch */
	/* softpin: misaligned, non-canonical, overlapping, above 4 GiB
	 * without 48-bit support */
	EXPECT(obj[0].offset = 0x10100, -EINVAL);
	EXPECT(obj[0].offset = 1ull << 47, -EINVAL);
	{
		/* two softpinned objects overlapping */
		struct drm_i915_gem_exec_object2 obj[2];
		struct drm_i915_gem_execbuffer2 eb;
		setup(obj, &eb);
		obj[1].flags = EXEC_OBJECT_PINNED;
		obj[1].offset = 0x10000;
		CHECK_EQ(exec(&eb), -ENOSPC);         /* Linux 6.1: a pinned node in the way */
		CHECK_EQ(obj[1].offset, 0x10000);
		CHECK_EQ(eb_read32(f, target, 0), 0);
		/* PAD_TO_SIZE: object 0 (softpinned at 0x10000) takes 128 KiB
		 * of address space: object 1 at 0x20000 is in its way (IGT
		 * gem_softpin full; pad_to_size below) */
		obj[0].flags |= EXEC_OBJECT_PAD_TO_SIZE;
		obj[0].pad_to_size = 0x20000;
		obj[1].offset = 0x20000;
		CHECK_EQ(exec(&eb), -ENOSPC);
		CHECK_EQ(eb_read32(f, target, 0), 0);
	}
	EXPECT(obj[0].offset = 1ull << 33, -EINVAL);
	/* relocations: bad target, offsets, domains, pointer */
	struct drm_i915_gem_relocation_entry r = { .target_handle = target, .offset = 4,
		.presumed_offset = 0, .read_domains = I915_GEM_DOMAIN_RENDER };
	EXPECT((eb.flags = 0, obj[1].relocation_count = 1, obj[1].relocs_ptr = (uintptr_t)&r,
		r.target_handle = 4242), -ENOENT);
	r.target_handle = target;
	EXPECT((eb.flags = 0, obj[1].relocation_count = 1, obj[1].relocs_ptr = (uintptr_t)&r,
		r.offset = 8190), -EINVAL);
	EXPECT((eb.flags = 0, obj[1].relocation_count = 1, obj[1].relocs_ptr = (uintptr_t)&r,
		r.offset = 6), -EINVAL);
	r.offset = 4;
	EXPECT((eb.flags = 0, obj[1].relocation_count = 1, obj[1].relocs_ptr = (uintptr_t)&r,
		r.write_domain = I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER), -EINVAL);
	EXPECT((eb.flags = 0, obj[1].relocation_count = 1, obj[1].relocs_ptr = (uintptr_t)&r,
		r.write_domain = 0, r.read_domains = I915_GEM_DOMAIN_CPU), -EINVAL);
	EXPECT((eb.flags = 0, obj[1].relocation_count = 1, obj[1].relocs_ptr = (uintptr_t)&r,
		r.read_domains = I915_GEM_DOMAIN_GTT), -EINVAL);
	EXPECT((eb.flags = 0, obj[1].relocation_count = 1, obj[1].relocs_ptr = (uintptr_t)hole),
	       -EFAULT);
	/* a count past the readable array: -EFAULT (i915 reads a byte of
	 * each page first), nothing allocated for 2^32 - 1 entries */
	EXPECT((eb.flags = 0, obj[1].relocation_count = 0xffffffffu,
		obj[1].relocs_ptr = (uintptr_t)&r), -EFAULT);
	EXPECT((eb.flags = I915_EXEC_HANDLE_LUT, obj[1].relocation_count = 1,
		obj[1].relocs_ptr = (uintptr_t)&r, r.read_domains = I915_GEM_DOMAIN_RENDER,
		r.target_handle = 2), -ENOENT);
	/* fence arrays: bad syncobj, unknown flags, wait on an empty one */
	struct drm_i915_gem_exec_fence fe = { .handle = 77, .flags = I915_EXEC_FENCE_WAIT };
	EXPECT((eb.flags |= I915_EXEC_FENCE_ARRAY, eb.cliprects_ptr = (uintptr_t)&fe,
		eb.num_cliprects = 1), -ENOENT);
	struct drm_syncobj_create sc = { 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_SYNCOBJ_CREATE, &sc), 0);
	fe.handle = sc.handle;
	EXPECT((eb.flags |= I915_EXEC_FENCE_ARRAY, eb.cliprects_ptr = (uintptr_t)&fe,
		eb.num_cliprects = 1), -EINVAL);
	fe.flags = 4;
	EXPECT((eb.flags |= I915_EXEC_FENCE_ARRAY, eb.cliprects_ptr = (uintptr_t)&fe,
		eb.num_cliprects = 1), -EINVAL);
	EXPECT((eb.flags |= I915_EXEC_FENCE_ARRAY | I915_EXEC_USE_EXTENSIONS,
		eb.cliprects_ptr = (uintptr_t)&fe), -EINVAL);

	/* And the valid one runs. */
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_execbuffer2 eb;
	setup(obj, &eb);
	CHECK_EQ(exec(&eb), 0);
	CHECK_EQ(eb_wait(f, target, -1), 0);
	CHECK_EQ(eb_read32(f, target, 0), 1);
	CHECK(obj[1].offset != 0x7777000 || 1);

	munmap(hole, 4096);
	pad_to_size();
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
