/* GEM objects through the ioctl interface: create, close, handles per
 * file, pread/pwrite and their errnos, CPU mappings coherent with pread,
 * flink, prime, tiling, caching, madvise. Expected errnos are i915's. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel_test.h"

static void test_create_close(struct gtsim_file *f, struct gtsim_file *g)
{
	struct drm_i915_gem_create c = { .size = 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &c), -EINVAL);
	c.size = 100;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	CHECK_EQ(c.size, 4096);              /* rounded to a page */
	CHECK_EQ(c.handle, 1);               /* handles start at 1 */
	/* i915_gem_setup: larger than system memory (the host's RAM, as
	 * QUERY_MEMORY_REGIONS reports it, computed here) is -E2BIG. */
	struct drm_i915_gem_create big = {
		.size = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE) + 4096 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &big), -E2BIG);
	uint32_t h2 = test_create(f, 8192);
	CHECK_EQ(h2, 2);
	CHECK_EQ(test_create(g, 4096), 1);   /* per-file numbering */

	CHECK_EQ(test_close(f, 1), 0);
	CHECK_EQ(test_close(f, 1), -EINVAL); /* drm: unknown handle is -EINVAL */
	CHECK_EQ(test_close(f, 999), -EINVAL);
	CHECK_EQ(test_create(f, 4096), 1);   /* lowest free handle reused */

	struct drm_i915_gem_create_ext ce = { .size = 4096, .flags = 1 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE_EXT, &ce), -EINVAL);
	ce.flags = 0;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE_EXT, &ce), 0);
	struct i915_user_extension unknown = { .name = 0x77 };
	ce.extensions = (uintptr_t)&unknown;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE_EXT, &ce), -EINVAL);
	struct drm_i915_gem_memory_class_instance smem = { I915_MEMORY_CLASS_SYSTEM, 0 };
	struct drm_i915_gem_create_ext_memory_regions mr = {
		.base.name = I915_GEM_CREATE_EXT_MEMORY_REGIONS,
		.num_regions = 1, .regions = (uintptr_t)&smem };
	ce.extensions = (uintptr_t)&mr;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE_EXT, &ce), 0);
	/* Two placement lists in one chain: -EINVAL (i915's set_placements;
	 * IGT gem_create create-ext-placement-sanity-check). */
	struct drm_i915_gem_create_ext_memory_regions mr2 = mr;
	mr.base.next_extension = (uintptr_t)&mr2;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE_EXT, &ce), -EINVAL);
	mr.base.next_extension = 0;
	/* i915 rounds the size up first: -1ull wraps to 0 and is -EINVAL
	 * (IGT create-invalid-size), a huge size that does not wrap -E2BIG. */
	struct drm_i915_gem_create cr = { .size = ~0ull };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &cr), -EINVAL);
	cr.size = ~0ull << 32;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &cr), -E2BIG);
	struct drm_i915_gem_memory_class_instance lmem = { I915_MEMORY_CLASS_DEVICE, 0 };
	mr.regions = (uintptr_t)&lmem;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE_EXT, &ce), -EINVAL);
	ce.extensions = 16;   /* unmapped page */
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE_EXT, &ce), -EFAULT);
}

static void test_rw(struct gtsim_file *f, struct gtsim_file *g)
{
	uint32_t h = test_create(f, 8192);
	char buf[64], out[64] = { 0 };
	for (int i = 0; i < 64; i++)
		buf[i] = (char)(i * 3 + 1);
	CHECK_EQ(test_pwrite(f, h, 4090, buf, 64), 0);   /* across a page */
	CHECK_EQ(test_pread(f, h, 4090, out, 64), 0);
	CHECK(!memcmp(buf, out, 64));

	CHECK_EQ(test_pwrite(f, h, 8192 - 63, buf, 64), -EINVAL);  /* past the end */
	CHECK_EQ(test_pread(f, h, ~0ull - 10, out, 64), -EINVAL);  /* overflow */
	CHECK_EQ(test_pread(f, 12345, 0, out, 4), -ENOENT);
	CHECK_EQ(test_pread(g, h + 100, 0, out, 4), -ENOENT);      /* not g's handle */
	CHECK_EQ(test_pread(f, h, 0, out, 0), 0);                  /* size 0: nothing */
	CHECK_EQ(test_pread(f, h, 0, (void *)16, 4), -EFAULT);
	CHECK_EQ(test_pwrite(f, h, 0, (void *)16, 4), -EFAULT);
	/* A read-only destination is a fault too. */
	void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK_EQ(test_pread(f, h, 0, ro, 4), -EFAULT);
	munmap(ro, 4096);
	test_close(f, h);
}

static void test_mmap(struct gtsim_file *f)
{
	uint32_t h = test_create(f, 3 * 4096);
	/* A size of 0 is vm_mmap's -EINVAL (IGT gem_mmap bad-size). */
	struct drm_i915_gem_mmap zero = { .handle = h, .size = 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &zero), -EINVAL);
	struct drm_i915_gem_mmap m = { .handle = h, .offset = 4096, .size = 8192 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m), 0);
	uint32_t *cpu = (uint32_t *)(uintptr_t)m.addr_ptr;
	cpu[5] = 0xdeadbeef;   /* object offset 4096 + 20 */
	uint32_t v = 0;
	CHECK_EQ(test_pread(f, h, 4096 + 20, &v, 4), 0);
	CHECK_EQ(v, 0xdeadbeef);
	munmap(cpu, 8192);

	m.offset = 8192;
	m.size = 8192;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m), -EINVAL);
	m.offset = 0;
	m.size = 4096;
	m.flags = 2;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m), -EINVAL);
	m.flags = I915_MMAP_WC;
	m.handle = 777;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m), -ENOENT);

	/* MMAP_OFFSET (WB) and MMAP_GTT through the fake offset. */
	struct drm_i915_gem_mmap_offset mo = { .handle = h, .flags = I915_MMAP_OFFSET_WB };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	uint32_t *wb = gtsim_mmap(f, NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mo.offset);
	CHECK(wb != MAP_FAILED);
	if (wb != MAP_FAILED) {
		CHECK_EQ(wb[1024 + 5], 0xdeadbeef);
		wb[7] = 0x1234;
		munmap(wb, 3 * 4096);
	}
	CHECK_EQ(test_pread(f, h, 28, &v, 4), 0);
	CHECK_EQ(v, 0x1234);
	mo.flags = I915_MMAP_OFFSET_FIXED;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), -EINVAL);
	mo.flags = I915_MMAP_OFFSET_WC;
	/* i915_user_extensions: a bad pointer is -EFAULT, an unknown
	 * extension -EINVAL (IGT gem_mmap_offset bad-extensions). */
	mo.extensions = 1;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), -EFAULT);
	mo.extensions = ~0ull;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), -EFAULT);
	struct i915_user_extension bad_ext = { .name = ~0u };
	mo.extensions = (uintptr_t)&bad_ext;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), -EINVAL);
	mo.extensions = 0;

	/* The legacy 16-byte MMAP_GTT struct, zero-extended by the dispatcher. */
	struct drm_i915_gem_mmap_gtt mg = { .handle = h };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_GTT, &mg), 0);
	CHECK(mg.offset != 0 && mg.offset != mo.offset);
	uint32_t *gtt = gtsim_mmap(f, NULL, 2 * 4096, PROT_READ, MAP_SHARED, mg.offset);
	CHECK(gtt != MAP_FAILED);
	if (gtt != MAP_FAILED) {
		CHECK_EQ(gtt[1024 + 5], 0xdeadbeef);
		munmap(gtt, 2 * 4096);
	}
	/* drm_vma_offset_exact_lookup_locked(): a mapping must start at the
	 * fake offset itself; one page into the object is no node: -EINVAL. */
	errno = 0;
	CHECK(gtsim_mmap(f, NULL, 4096, PROT_READ, MAP_SHARED, mg.offset + 4096) == MAP_FAILED);
	CHECK_EQ(errno, EINVAL);
	errno = 0;
	CHECK(gtsim_mmap(f, NULL, 4 * 4096, PROT_READ, MAP_SHARED, mg.offset) == MAP_FAILED);
	CHECK_EQ(errno, EINVAL);
	CHECK(gtsim_mmap(f, NULL, 4096, PROT_READ, MAP_SHARED, 12345ull << 32) == MAP_FAILED);
	mg.handle = 999;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_GTT, &mg), -ENOENT);
	test_close(f, h);
}

/* A fake offset may be mapped only by the files that asked for it and still
 * hold a handle (drm_vma_node_allow/_revoke); i915_gem_mmap() answers
 * -EACCES to any other file, -EINVAL to an offset that names no object. */
static void test_mmap_offset_access(struct gtsim_file *f, struct gtsim_file *g)
{
	uint32_t h = test_create(f, 4096);
	uint32_t magic = 0x5157;
	test_pwrite(f, h, 0, &magic, 4);
	struct drm_i915_gem_mmap_offset mo = { .handle = h, .flags = I915_MMAP_OFFSET_WB };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	errno = 0;
	CHECK(gtsim_mmap(g, NULL, 4096, PROT_READ, MAP_SHARED, mo.offset) == MAP_FAILED);
	CHECK_EQ(errno, EACCES);

	/* g gets its own handle by flink name and asks for the offset: allowed. */
	struct drm_gem_flink fl = { .handle = h };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_GEM_FLINK, &fl), 0);
	struct drm_gem_open op = { .name = fl.name };
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_GEM_OPEN, &op), 0);
	errno = 0;
	CHECK(gtsim_mmap(g, NULL, 4096, PROT_READ, MAP_SHARED, mo.offset) == MAP_FAILED);
	CHECK_EQ(errno, EACCES);   /* a handle alone is not enough */
	struct drm_i915_gem_mmap_offset mo_g = { .handle = op.handle, .flags = I915_MMAP_OFFSET_WB };
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo_g), 0);
	CHECK_EQ(mo_g.offset, mo.offset);   /* one node per object and type */
	uint32_t *p = gtsim_mmap(g, NULL, 4096, PROT_READ, MAP_SHARED, mo.offset);
	CHECK(p != MAP_FAILED);
	if (p != MAP_FAILED) {
		CHECK_EQ(p[0], 0x5157);
		munmap(p, 4096);
	}
	/* Closing its handle revokes g; f (still holding one) keeps access. */
	CHECK_EQ(test_close(g, op.handle), 0);
	errno = 0;
	CHECK(gtsim_mmap(g, NULL, 4096, PROT_READ, MAP_SHARED, mo.offset) == MAP_FAILED);
	CHECK_EQ(errno, EACCES);
	p = gtsim_mmap(f, NULL, 4096, PROT_READ, MAP_SHARED, mo.offset);
	CHECK(p != MAP_FAILED);
	if (p != MAP_FAILED)
		munmap(p, 4096);
	/* Once the object is gone the offset names nothing: -EINVAL. */
	test_close(f, h);
	errno = 0;
	CHECK(gtsim_mmap(f, NULL, 4096, PROT_READ, MAP_SHARED, mo.offset) == MAP_FAILED);
	CHECK_EQ(errno, EINVAL);
}

static void test_flink_prime(struct gtsim_file *f, struct gtsim_file *g)
{
	uint32_t h = test_create(f, 4096);
	uint32_t magic = 0xcafe;
	test_pwrite(f, h, 0, &magic, 4);

	struct drm_gem_flink fl = { .handle = h };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_GEM_FLINK, &fl), 0);
	CHECK(fl.name > 0);
	uint32_t name = fl.name;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_GEM_FLINK, &fl), 0);
	CHECK_EQ(fl.name, name);   /* same name again */
	fl.handle = 555;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_GEM_FLINK, &fl), -ENOENT);

	struct drm_gem_open op = { .name = name };
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_GEM_OPEN, &op), 0);
	CHECK_EQ(op.size, 4096);
	uint32_t g_first = op.handle;
	uint32_t v = 0;
	CHECK_EQ(test_pread(g, op.handle, 0, &v, 4), 0);
	CHECK_EQ(v, 0xcafe);
	op.name = 9999;
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_GEM_OPEN, &op), -ENOENT);

	struct drm_prime_handle ph = { .handle = h, .flags = DRM_CLOEXEC | DRM_RDWR };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), 0);
	int fd = ph.fd;
	CHECK(fd >= 0);
	uint32_t *map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(map != MAP_FAILED);
	if (map != MAP_FAILED) {
		CHECK_EQ(map[0], 0xcafe);
		map[1] = 0xbeef;
		munmap(map, 4096);
	}
	ph.flags = 0x4;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), -EINVAL);

	/* Import into the same file: the existing handle. Into g: g's handle
	 * from the flink open is found too (same object). */
	struct drm_prime_handle imp = { .fd = fd };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), 0);
	CHECK_EQ(imp.handle, h);
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), 0);
	CHECK_EQ(imp.handle, op.handle);
	CHECK_EQ(test_pread(g, imp.handle, 4, &v, 4), 0);
	CHECK_EQ(v, 0xbeef);
	imp.fd = 1000;   /* not open */
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), -EBADF);
	int pipefd[2];
	CHECK_EQ(pipe(pipefd), 0);
	imp.fd = pipefd[0];
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), -EINVAL);
	close(pipefd[0]);
	close(pipefd[1]);

	/* A foreign memfd becomes a new object. */
	int mfd = memfd_create("foreign", MFD_ALLOW_SEALING);
	CHECK_EQ(ftruncate(mfd, 8192), 0);
	CHECK_EQ(pwrite(mfd, &magic, 4, 4096), 4);
	imp.fd = mfd;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), 0);
	CHECK(imp.handle != h);
	CHECK_EQ(test_pread(f, imp.handle, 4096, &v, 4), 0);
	CHECK_EQ(v, 0xcafe);
	close(mfd);
	close(fd);

	/* The name lives while any handle does. */
	test_close(f, h);
	op.name = name;
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_GEM_OPEN, &op), 0);
	CHECK_EQ(test_close(g, op.handle), 0);
	CHECK_EQ(test_close(g, g_first), 0);   /* the object's last handle */
	op.name = name;
	CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_GEM_OPEN, &op), -ENOENT);
}

static void test_tiling_caching_madvise(struct gtsim_file *f)
{
	uint32_t h = test_create(f, 65536);
	struct drm_i915_gem_set_tiling st = { .handle = h, .tiling_mode = I915_TILING_X, .stride = 512 * 3 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_TILING, &st), 0);
	CHECK_EQ(st.swizzle_mode, I915_BIT_6_SWIZZLE_NONE);
	CHECK_EQ(st.stride, 1536);
	struct drm_i915_gem_get_tiling gt = { .handle = h };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_GET_TILING, &gt), 0);
	CHECK_EQ(gt.tiling_mode, I915_TILING_X);
	CHECK_EQ(gt.swizzle_mode, I915_BIT_6_SWIZZLE_NONE);

	struct { uint32_t mode, stride; int ret; } cases[] = {
		{ I915_TILING_X, 256, -EINVAL },         /* X needs 512 B multiples */
		{ I915_TILING_X, 0, -EINVAL },
		{ I915_TILING_Y, 128, 0 },               /* Y: 128 B multiples */
		{ I915_TILING_Y, 192, -EINVAL },
		{ I915_TILING_Y, 128 * 2048, 0 },        /* stride/128 == 2048: the limit */
		{ I915_TILING_Y, 128 * 2049, -EINVAL },
		{ 3, 512, -EINVAL },                     /* no such mode */
		{ I915_TILING_NONE, 12345, 0 },          /* linear: stride ignored */
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		st = (struct drm_i915_gem_set_tiling){ .handle = h, .tiling_mode = cases[i].mode,
						       .stride = cases[i].stride };
		CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_TILING, &st), cases[i].ret);
	}
	CHECK_EQ(st.stride, 0);
	gt.handle = h;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_GET_TILING, &gt), 0);
	CHECK_EQ(gt.tiling_mode, I915_TILING_NONE);
	st.handle = 4242;
	st.tiling_mode = I915_TILING_X;
	st.stride = 512;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_TILING, &st), -ENOENT);
	gt.handle = 4242;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_GET_TILING, &gt), -ENOENT);

	struct drm_i915_gem_caching ca = { .handle = h };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_GET_CACHING, &ca), 0);
	CHECK_EQ(ca.caching, I915_CACHING_CACHED);   /* LLC default */
	ca.caching = I915_CACHING_NONE;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_CACHING, &ca), 0);
	ca.caching = 99;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_GET_CACHING, &ca), 0);
	CHECK_EQ(ca.caching, I915_CACHING_NONE);
	ca.caching = 7;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_CACHING, &ca), -EINVAL);
	ca.caching = I915_CACHING_CACHED;
	ca.handle = 4242;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_CACHING, &ca), -ENOENT);

	/* An object with pages (SET_DOMAIN pins them) is retained; i915
	 * truncates one without pages at once (test_shrink). */
	struct drm_i915_gem_set_domain sd = { .handle = h, .read_domains = I915_GEM_DOMAIN_CPU };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd), 0);
	struct drm_i915_gem_madvise ma = { .handle = h, .madv = I915_MADV_DONTNEED };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MADVISE, &ma), 0);
	CHECK_EQ(ma.retained, 1);
	ma.madv = 5;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MADVISE, &ma), -EINVAL);
	ma.madv = I915_MADV_WILLNEED;
	ma.handle = 4242;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MADVISE, &ma), -ENOENT);
	test_close(f, h);
}

/* Many exported objects (the device's inode index grows several times):
 * each import in the other file finds its own object; a second handle of
 * an object in the importing file: the lowest is given back, the other
 * once the lowest is closed; an object freed while its dma-buf stays open:
 * importing that dma-buf makes a new object around the same memory (the
 * freed object left the index). Values written before export are the
 * oracle. */
#define MANY 700
static void test_prime_many(struct gtsim_file *f, struct gtsim_file *g)
{
	static uint32_t hf[MANY], hg[MANY];
	static int kept_fd[MANY];
	for (unsigned i = 0; i < MANY; i++) {
		hf[i] = test_create(f, 4096);
		uint32_t v = 0x5000 + i;
		test_pwrite(f, hf[i], 0, &v, 4);
	}
	for (unsigned i = 0; i < MANY; i++) {
		struct drm_prime_handle ph = { .handle = hf[i], .flags = DRM_CLOEXEC };
		CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), 0);
		struct drm_prime_handle imp = { .fd = ph.fd };
		CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), 0);
		hg[i] = imp.handle;
		uint32_t v = 0;
		CHECK_EQ(test_pread(g, hg[i], 0, &v, 4), 0);
		CHECK_EQ(v, 0x5000 + i);
		/* into the exporting file: its own handle */
		CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), 0);
		CHECK_EQ(imp.handle, hf[i]);
		kept_fd[i] = -1;
		if (i % 7 == 0)
			kept_fd[i] = ph.fd;
		else
			close(ph.fd);
	}
	for (unsigned i = 1; i < MANY; i++)
		CHECK(hg[i] != hg[i - 1]);
	/* object 7: a second handle in f through flink */
	struct drm_gem_flink fl = { .handle = hf[7] };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_GEM_FLINK, &fl), 0);
	struct drm_gem_open op = { .name = fl.name };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_GEM_OPEN, &op), 0);
	CHECK(op.handle > hf[7]);
	struct drm_prime_handle imp = { .fd = kept_fd[7] };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), 0);
	CHECK_EQ(imp.handle, hf[7]);
	CHECK_EQ(test_close(f, hf[7]), 0);
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), 0);
	CHECK_EQ(imp.handle, op.handle);
	hf[7] = op.handle;
	/* every object's last handle closed: freed, dma-bufs still open */
	for (unsigned i = 0; i < MANY; i++) {
		CHECK_EQ(test_close(f, hf[i]), 0);
		CHECK_EQ(test_close(g, hg[i]), 0);
	}
	for (unsigned i = 0; i < MANY; i += 7) {
		struct drm_prime_handle again = { .fd = kept_fd[i] };
		CHECK_EQ(gtsim_ioctl(g, DRM_IOCTL_PRIME_FD_TO_HANDLE, &again), 0);
		uint32_t v = 0;
		CHECK_EQ(test_pread(g, again.handle, 0, &v, 4), 0);
		CHECK_EQ(v, 0x5000 + i);
		CHECK_EQ(test_close(g, again.handle), 0);
		close(kept_fd[i]);
	}
}

int main(void)
{
	struct gtsim_device *dev = test_device(0, 0);
	struct gtsim_file *f = gtsim_open(dev), *g = gtsim_open(dev);
	CHECK(f && g);
	test_create_close(f, g);
	test_rw(f, g);
	test_mmap(f);
	test_mmap_offset_access(f, g);
	test_flink_prime(f, g);
	test_prime_many(f, g);
	test_tiling_caching_madvise(f);
	gtsim_close(f);
	gtsim_close(g);
	gtsim_device_destroy(dev);
	return test_exit();
}
