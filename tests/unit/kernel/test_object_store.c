/* The objects' backing store (src/kernel/object_store.h), as a client of
 * i915 sees it:
 *  - many small objects cost neither a descriptor nor a host mapping each:
 *    100 000 objects of 4 KiB under a descriptor limit of 256, each with
 *    its own contents, and the mappings of object memory stay far below
 *    the kernel's vm.max_map_count (65530);
 *  - GEM_CREATE memory reads zeros, also where a freed object's pages were;
 *  - a purge (MADVISE DONTNEED + drop_caches) takes the object's pages
 *    only, never its neighbours';
 *  - a CPU mapping and a dma-buf see the object's bytes, written before
 *    and after; a dma-buf's size is the object's (lseek SEEK_END), and a
 *    second device imports the same bytes;
 *  - a mapping outlives the object's last handle with its contents, as an
 *    i915 mapping keeps the object's pages. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kernel/device.h"
#include "kernel/object.h"
#include "kernel_test.h"

#define OBJECTS 100000u

/* Mappings of the kernel model's memfds (the allocator's own, ASan's
 * among them, are no concern here). */
static unsigned count_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned n = 0;
	char line[512];
	while (f && fgets(line, sizeof(line), f))
		n += strstr(line, "/memfd:gtsim") != NULL;
	if (f)
		fclose(f);
	return n;
}

static void test_many_small_objects(struct gtsim_file *f)
{
	static uint32_t handles[OBJECTS];
	struct rlimit old, low = { .rlim_cur = 256 };
	getrlimit(RLIMIT_NOFILE, &old);
	low.rlim_max = old.rlim_max;
	CHECK_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
	unsigned fds = test_count_fds(), maps = count_maps();
	unsigned created = 0;
	for (unsigned i = 0; i < OBJECTS; i++) {
		handles[i] = test_create(f, 4096);
		if (!handles[i])
			break;
		uint32_t v = i * 2654435761u;
		if (test_pwrite(f, handles[i], 4092, &v, 4))
			break;
		created++;
	}
	CHECK_EQ(created, OBJECTS);
	/* 4 KiB objects, 16384 to a 64 MiB slab: 7 slabs, a descriptor and
	 * a mapping each */
	CHECK(test_count_fds() <= fds + 8);
	CHECK(count_maps() <= maps + 8);
	unsigned wrong = 0;
	for (unsigned i = 0; i < created; i++) {
		uint32_t v = 0, zero = 1;
		test_pread(f, handles[i], 4092, &v, 4);
		test_pread(f, handles[i], 0, &zero, 4);
		wrong += v != i * 2654435761u || zero != 0;
	}
	CHECK_EQ(wrong, 0);
	for (unsigned i = 0; i < created; i++)
		test_close(f, handles[i]);
	CHECK(test_count_fds() <= fds);
	CHECK(count_maps() <= maps);
	setrlimit(RLIMIT_NOFILE, &old);
}

/* New objects in freed pages read zeros; a purge spares the neighbours. */
static void test_zeroed_and_purge_local(struct gtsim_device *dev, struct gtsim_file *f)
{
	uint32_t a = test_create(f, 8192), b = test_create(f, 4096), c = test_create(f, 8192);
	uint8_t ones[8192], back[8192];
	memset(ones, 0xff, sizeof(ones));
	CHECK_EQ(test_pwrite(f, a, 0, ones, 8192), 0);
	CHECK_EQ(test_pwrite(f, b, 0, ones, 4096), 0);
	CHECK_EQ(test_pwrite(f, c, 0, ones, 8192), 0);
	/* b purged: a and c keep every byte */
	struct drm_i915_gem_madvise ma = { .handle = b, .madv = I915_MADV_DONTNEED };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MADVISE, &ma), 0);
	CHECK_EQ(gtsim_debugfs_write(dev, "i915_gem_drop_caches", "0x1f", 4) >= 0, 1);
	CHECK_EQ(test_pread(f, b, 0, back, 4), -EFAULT);
	CHECK_EQ(test_pread(f, a, 0, back, 8192), 0);
	CHECK(!memcmp(back, ones, 8192));
	CHECK_EQ(test_pread(f, c, 0, back, 8192), 0);
	CHECK(!memcmp(back, ones, 8192));
	/* a freed: objects made now (in its pages, or anywhere) read zeros */
	test_close(f, a);
	uint32_t d = test_create(f, 4096), e = test_create(f, 4096);
	static const uint8_t zeros[4096];
	CHECK_EQ(test_pread(f, d, 0, back, 4096), 0);
	CHECK(!memcmp(back, zeros, 4096));
	CHECK_EQ(test_pread(f, e, 0, back, 4096), 0);
	CHECK(!memcmp(back, zeros, 4096));
	test_close(f, b);
	test_close(f, c);
	test_close(f, d);
	test_close(f, e);
}

static void test_map_and_export(struct gtsim_device *dev, struct gtsim_file *f)
{
	uint32_t h = test_create(f, 8192), other = test_create(f, 4096);
	uint32_t before = 0x12345678, after = 0x9abcdef0, v = 0;
	CHECK_EQ(test_pwrite(f, h, 4096, &before, 4), 0);
	CHECK_EQ(test_pwrite(f, other, 0, &before, 4), 0);
	struct drm_i915_gem_mmap m = { .handle = h, .offset = 4096, .size = 4096 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m), 0);
	volatile uint32_t *p = (volatile uint32_t *)(uintptr_t)m.addr_ptr;
	CHECK_EQ(p[0], before);                 /* written before the mapping */
	p[1] = after;                           /* through the mapping */
	CHECK_EQ(test_pread(f, h, 4100, &v, 4), 0);
	CHECK_EQ(v, after);
	CHECK_EQ(test_pwrite(f, h, 4104, &after, 4), 0);   /* after it */
	CHECK_EQ(p[2], after);
	CHECK_EQ(test_pread(f, other, 0, &v, 4), 0);       /* the neighbour as it was */
	CHECK_EQ(v, before);

	struct drm_prime_handle ex = { .handle = h, .flags = DRM_CLOEXEC | DRM_RDWR };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex), 0);
	CHECK_EQ((long)syscall(SYS_lseek, ex.fd, 0, SEEK_END), 8192);
	struct gtsim_device *dev2 = test_device(0, 0);
	struct gtsim_file *f2 = gtsim_open(dev2);
	struct drm_prime_handle im = { .fd = ex.fd };
	CHECK_EQ(gtsim_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &im), 0);
	CHECK_EQ(test_pread(f2, im.handle, 4096, &v, 4), 0);
	CHECK_EQ(v, before);
	CHECK_EQ(test_pread(f2, im.handle, 4104, &v, 4), 0);
	CHECK_EQ(v, after);
	/* the same device imports its own object: the same handle */
	struct drm_prime_handle self = { .fd = ex.fd };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &self), 0);
	CHECK_EQ(self.handle, h);
	close(ex.fd);
	gtsim_close(f2);
	gtsim_device_destroy(dev2);

	/* the mapping keeps the pages after the last handle goes, also when
	 * new objects are made and written */
	test_close(f, h);
	uint32_t n[8];
	uint8_t ones[4096];
	memset(ones, 0xff, sizeof(ones));
	for (unsigned i = 0; i < 8; i++) {
		n[i] = test_create(f, 8192);
		test_pwrite(f, n[i], 0, ones, 4096);
		test_pwrite(f, n[i], 4096, ones, 4096);
	}
	CHECK_EQ(p[0], before);
	CHECK_EQ(p[1], after);
	munmap((void *)p, 4096);
	for (unsigned i = 0; i < 8; i++)
		test_close(f, n[i]);
	test_close(f, other);
	(void)dev;
}

static void test_huge_object_maps(struct gtsim_device *dev, struct gtsim_file *f)
{
	const uint64_t size = (4ull << 30) + 4096;
	uint32_t h = test_create(f, size);
	CHECK(h != 0);
	for (uint64_t type = I915_MMAP_OFFSET_GTT; type <= I915_MMAP_OFFSET_WB; type++) {
		struct drm_i915_gem_mmap_offset mo = { .handle = h, .flags = type };
		CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
		uint8_t *p = gtsim_mmap(f, NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, mo.offset);
		CHECK(p != MAP_FAILED);
		if (p == MAP_FAILED)
			continue;
		uint32_t v = 0xc0ffee00u + (uint32_t)type, back = 0;
		memcpy(p + size - 4, &v, 4);            /* the last dword, past 4 GiB */
		CHECK_EQ(test_pread(f, h, size - 4, &back, 4), 0);
		CHECK_EQ(back, v);
		munmap(p, size);
	}
	test_close(f, h);
	(void)dev;
}

int main(void)
{
	struct gtsim_device *dev = test_device(0, 0);
	struct gtsim_file *f = gtsim_open(dev);
	CHECK(f != NULL);
	test_zeroed_and_purge_local(dev, f);
	test_map_and_export(dev, f);
	test_huge_object_maps(dev, f);
	test_many_small_objects(f);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
