/* GEM_USERPTR against i915 (Linux 6.1, i915_gem_userptr.c and the ioctls
 * that refuse proxy objects): the errno of every refusal, the GPU reading
 * and writing the client's own memory (values computed by hand), the mmu
 * notifier (gtsim_mm_invalidate, which the shim calls from munmap...), and
 * a page unmapped behind the model's back: no crash, the object is lost
 * (-EFAULT) and an error state says so. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "eb_test.h"

static int userptr(struct gtsim_file *f, void *p, uint64_t size, uint32_t flags, uint32_t *h)
{
	struct drm_i915_gem_userptr u = { .user_ptr = (uintptr_t)p, .user_size = size,
					  .flags = flags };
	int ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_USERPTR, &u);
	if (h)
		*h = ret ? 0 : u.handle;
	return ret;
}

static void *map_pages(unsigned n, int prot)
{
	void *p = mmap(NULL, n * 4096ul, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED);
	return p;
}

/* i915_gem_userptr_ioctl()'s checks, in its order. */
static void errno_table(struct gtsim_file *f)
{
	char *p = map_pages(2, PROT_READ | PROT_WRITE);
	CHECK_EQ(userptr(f, p, 4096, 0x4, NULL), -EINVAL);             /* unknown flag */
	CHECK_EQ(userptr(f, p, 1ull << 43, 0, NULL), -E2BIG);          /* > INT_MAX pages */
	CHECK_EQ(userptr(f, p, 0, 0, NULL), -EINVAL);                  /* no size */
	CHECK_EQ(userptr(f, p + 8, 4096, 0, NULL), -EINVAL);           /* pointer not aligned */
	CHECK_EQ(userptr(f, p, 4000, 0, NULL), -EINVAL);               /* size not aligned */
	CHECK_EQ(userptr(f, (void *)(uintptr_t)0x7ffffffff000ull, 8192, 0, NULL), -EFAULT);
	CHECK_EQ(userptr(f, p, 4096, I915_USERPTR_UNSYNCHRONIZED, NULL), -ENODEV);
	/* READ_ONLY: the gen8 PPGTT has read-only PTEs. */
	uint32_t h;
	CHECK_EQ(userptr(f, p, 4096, I915_USERPTR_READ_ONLY, &h), 0);
	CHECK_EQ(eb_close(f, h), 0);
	/* PROBE: mapped -> 0; a hole -> -EFAULT (probe_range). */
	CHECK_EQ(userptr(f, p, 8192, I915_USERPTR_PROBE, &h), 0);
	CHECK_EQ(eb_close(f, h), 0);
	CHECK_EQ(munmap(p + 4096, 4096), 0);
	CHECK_EQ(userptr(f, p, 8192, I915_USERPTR_PROBE, NULL), -EFAULT);
	/* Without PROBE the hole is found at first use (get_pages). */
	CHECK_EQ(userptr(f, p, 8192, 0, &h), 0);
	struct drm_i915_gem_set_domain sd = { .handle = h, .read_domains = I915_GEM_DOMAIN_CPU };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd), -EFAULT);
	CHECK_EQ(eb_close(f, h), 0);
	munmap(p, 4096);
	/* Address 0 passes access_ok(): accepted, and the first use fails
	 * (IGT gem_userptr_blits invalid-null-pointer); with PROBE it is a
	 * hole, -EFAULT. */
	CHECK_EQ(userptr(f, NULL, 4096, 0, &h), 0);
	sd.handle = h;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd), -EFAULT);
	struct drm_i915_gem_exec_object2 nul = { .handle = h };
	CHECK_EQ(eb_exec(f, &nul, 1, 0, 0), -EFAULT);
	CHECK_EQ(eb_close(f, h), 0);
	CHECK_EQ(userptr(f, NULL, 4096, I915_USERPTR_PROBE, NULL), -EFAULT);
	/* Write-only memory: i915 gets the pages with FOLL_WRITE, which
	 * needs VM_WRITE only (mm/gup.c check_vma_flags); a read-only
	 * object of it needs VM_READ: -EFAULT (IGT huge-split's mapping). */
	char *wo = map_pages(1, PROT_WRITE);
	CHECK_EQ(userptr(f, wo, 4096, 0, &h), 0);
	sd.handle = h;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd), 0);
	CHECK_EQ(eb_close(f, h), 0);
	CHECK_EQ(userptr(f, wo, 4096, I915_USERPTR_READ_ONLY, &h), 0);
	sd.handle = h;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd), -EFAULT);
	CHECK_EQ(eb_close(f, h), 0);
	munmap(wo, 4096);

	/* PROBE over a GTT mmap of another object: i915 maps it VM_PFNMAP. */
	uint32_t bo = eb_create(f, 4096);
	struct drm_i915_gem_mmap_gtt mg = { .handle = bo };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_GTT, &mg), 0);
	void *gtt = gtsim_mmap(f, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mg.offset);
	CHECK(gtt != MAP_FAILED);
	CHECK_EQ(userptr(f, gtt, 4096, I915_USERPTR_PROBE, NULL), -EFAULT);
	gtsim_mm_invalidate(gtt, 4096);   /* what the shim's munmap does */
	munmap(gtt, 4096);
	eb_close(f, bo);
}

/* The ioctls that refuse a userptr (proxy, never-mmap) object. */
static void refusals(struct gtsim_file *f)
{
	uint32_t *p = map_pages(1, PROT_READ | PROT_WRITE), h, buf[4];
	CHECK_EQ(userptr(f, p, 4096, 0, &h), 0);
	CHECK_EQ(test_pread(f, h, 0, buf, 16), -EINVAL);    /* "no longer allowed" */
	CHECK_EQ(test_pwrite(f, h, 0, buf, 16), -EINVAL);
	struct drm_i915_gem_mmap m = { .handle = h, .size = 4096 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m), -ENXIO);   /* no filp */
	for (unsigned type = I915_MMAP_OFFSET_GTT; type <= I915_MMAP_OFFSET_UC; type++) {
		struct drm_i915_gem_mmap_offset mo = { .handle = h, .flags = type };
		CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), -ENODEV);
	}
	struct drm_i915_gem_set_tiling st = { .handle = h, .tiling_mode = I915_TILING_X,
					      .stride = 512 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_TILING, &st), -ENXIO);
	struct drm_i915_gem_get_tiling gt = { .handle = h };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_GET_TILING, &gt), 0);
	CHECK_EQ(gt.tiling_mode, I915_TILING_NONE);
	struct drm_i915_gem_caching c = { .handle = h, .caching = I915_CACHING_CACHED };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_CACHING, &c), 0);
	c.caching = I915_CACHING_NONE;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_CACHING, &c), -ENXIO);
	struct drm_prime_handle ph = { .handle = h, .flags = DRM_CLOEXEC };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), -EINVAL);
	/* madvise works (userptr has no truncate: never purged). */
	struct drm_i915_gem_madvise ma = { .handle = h, .madv = I915_MADV_DONTNEED };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MADVISE, &ma), 0);
	CHECK_EQ(ma.retained, 1);
	CHECK_EQ(eb_close(f, h), 0);
	munmap(p, 4096);
}

/* A batch in the client's memory (written by the CPU, read by the GPU)
 * stores into another userptr buffer; the client reads the values. */
static void gpu_access(struct gtsim_device *dev, struct gtsim_file *f)
{
	uint32_t *batch = aligned_alloc(4096, 4096), *target = aligned_alloc(4096, 8192);
	CHECK(batch && target);
	memset(target, 0x55, 8192);
	uint32_t hb, ht;
	CHECK_EQ(userptr(f, batch, 4096, I915_USERPTR_READ_ONLY, &hb), 0);
	CHECK_EQ(userptr(f, target, 8192, 0, &ht), 0);
	unsigned n = emit_store(batch, 0x200000 + 4, 0xdeadbeef);
	n += emit_store(batch + n, 0x200000 + 4096 + 8, 0x01234567);
	batch[n++] = MI_BATCH_BUFFER_END;
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = ht, .offset = 0x200000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = hb },
	};
	CHECK_EQ(eb_exec(f, obj, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, ht, -1), 0);
	CHECK_EQ(target[1], 0xdeadbeef);
	CHECK_EQ(target[1024 + 2], 0x01234567);
	CHECK_EQ(target[0], 0x55555555);
	CHECK_EQ(target[1024 + 3], 0x55555555);

	/* A writable userptr of read-only memory: pin_user_pages(FOLL_WRITE)
	 * fails at execbuf (-EFAULT); READ_ONLY accepts it. */
	uint32_t *ro = map_pages(1, PROT_READ), hr;
	CHECK_EQ(userptr(f, ro, 4096, 0, &hr), 0);
	struct drm_i915_gem_exec_object2 o2[2] = { { .handle = hr }, { .handle = hb } };
	CHECK_EQ(eb_exec(f, o2, 2, 0, 0), -EFAULT);
	CHECK_EQ(eb_close(f, hr), 0);
	CHECK_EQ(userptr(f, ro, 4096, I915_USERPTR_READ_ONLY, &hr), 0);
	CHECK_EQ(eb_exec(f, o2, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, hr, -1), 0);
	eb_close(f, hr);
	munmap(ro, 4096);

	/* The mmu notifier: unmapped -> -EFAULT; mapped again at the same
	 * address -> the new pages are used (i915 gets them again). */
	uint32_t *m = map_pages(1, PROT_READ | PROT_WRITE), hm;
	CHECK_EQ(userptr(f, m, 4096, 0, &hm), 0);
	n = emit_store(batch, 0x300000, 0xcafe0001);
	batch[n++] = MI_BATCH_BUFFER_END;
	struct drm_i915_gem_exec_object2 o3[2] = {
		{ .handle = hm, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = hb },
	};
	CHECK_EQ(eb_exec(f, o3, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, hm, -1), 0);
	CHECK_EQ(m[0], 0xcafe0001);
	gtsim_mm_invalidate(m, 4096);
	CHECK_EQ(munmap(m, 4096), 0);
	CHECK_EQ(eb_exec(f, o3, 2, 0, 0), -EFAULT);
	CHECK(mmap(m, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
		   0) == m);
	CHECK_EQ(m[0], 0);
	CHECK_EQ(eb_exec(f, o3, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, hm, -1), 0);
	CHECK_EQ(m[0], 0xcafe0001);

	/* Unmapped without the notifier knowing (as glibc's free() of a
	 * large block does): the GPU's store finds no page. The host
	 * survives, the object is lost: -EFAULT and an error state. */
	CHECK_EQ(munmap(m, 4096), 0);
	CHECK_EQ(eb_exec(f, o3, 2, 0, 0), 0);   /* validated earlier: not rechecked */
	CHECK_EQ(eb_wait(f, hm, -1), 0);
	CHECK_EQ(eb_exec(f, o3, 2, 0, 0), -EFAULT);
	char *es = gtsim_error_state(dev);
	CHECK(es && strstr(es, "userptr") != NULL);
	free(es);
	eb_close(f, hm);

	CHECK_EQ(eb_close(f, ht), 0);
	CHECK_EQ(eb_close(f, hb), 0);
	free(batch);
	free(target);
}

int main(void)
{
	for (int sync = 0; sync < 2; sync++) {
		struct gtsim_device *dev = eb_device(sync, 0, 0);
		struct gtsim_file *f = gtsim_open(dev);
		int probe = 0;
		CHECK_EQ(test_getparam(f, I915_PARAM_HAS_USERPTR_PROBE, &probe), 0);
		CHECK_EQ(probe, 1);
		errno_table(f);
		refusals(f);
		gpu_access(dev, f);
		gtsim_close(f);
		gtsim_device_destroy(dev);
	}
	return test_exit();
}
