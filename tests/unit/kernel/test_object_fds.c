/* No GEM object holds a host descriptor of its own (issue 14, "Scale";
 * object_store.h, common/map_file.h). Under a descriptor limit of 256 a
 * client makes many more objects than that of each kind that used to
 * cost one: small objects mapped by the CPU (legacy GEM_MMAP and
 * MMAP_OFFSET WB) and exported as dma-bufs (the dma-buf mapped, its fd
 * closed), large objects (above the 64 KiB slab limit) mapped WC, and
 * X-tiled objects mapped through the GTT (a detiling view each). Every
 * object's contents are checked through each path against values the
 * test wrote:
 *  - the CPU writes a through the mapping: PREAD reads a;
 *  - the GPU writes b (MI_STORE_DWORD_IMM, softpinned): the CPU mapping
 *    and the dma-buf mapping read b;
 *  - PWRITE writes c: both mappings read c;
 *  - a dma-buf exported again after its first fd was closed imports in
 *    a second device with the same bytes, and in the first device as the
 *    same handle;
 *  - through the GTT view of a tiled object (X tiling, stride 1024: two
 *    tiles of 512 bytes x 8 rows side by side), the dword at linear
 *    offset 512 (x = 512, y = 0) is at 4096 in the object (the second
 *    tile), by the tiling formula written here.
 * Afterwards the process holds only a few more descriptors than before
 * (the slabs') and, once everything is closed and unmapped, none. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "integration/kernel/eb_test.h"
#include "kernel/device.h"

#define LIMIT 256u
#define SMALL 1200u             /* 8 KiB objects: mapped and exported */
#define LARGE 600u              /* 128 KiB objects: mapped */
#define TILED 300u              /* 16 KiB X-tiled objects: GTT-mapped */
#define SMALL_SIZE 8192u
#define LARGE_SIZE (128u << 10)
#define TILED_SIZE 16384u
#define VA_BASE 0x1000000ull     /* softpinned objects, 256 KiB apart */
#define VA_STEP 0x40000ull
#define BATCH_VA 0x100000ull

struct tobj {
	uint32_t handle;
	uint64_t size;
	volatile uint32_t *cpu;    /* CPU mapping */
	volatile uint32_t *dmabuf; /* mapping of its dma-buf (small objects) */
};

static uint32_t val(unsigned i, unsigned kind)
{
	return (i + 1) * 2654435761u ^ (kind << 28);
}

static volatile uint32_t *map_offset(struct gtsim_file *f, uint32_t h, uint64_t size,
				     uint64_t type)
{
	struct drm_i915_gem_mmap_offset mo = { .handle = h, .flags = type };
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo))
		return NULL;
	void *p = gtsim_mmap(f, NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, mo.offset);
	return p == MAP_FAILED ? NULL : p;
}

static volatile uint32_t *map_legacy(struct gtsim_file *f, uint32_t h, uint64_t size)
{
	struct drm_i915_gem_mmap m = { .handle = h, .size = size };
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m))
		return NULL;
	return (volatile uint32_t *)(uintptr_t)m.addr_ptr;
}

static int export(struct gtsim_file *f, uint32_t h)
{
	struct drm_prime_handle ex = { .handle = h, .flags = DRM_CLOEXEC | DRM_RDWR };
	return gtsim_ioctl(f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex) ? -1 : ex.fd;
}

/* The GPU writes val(i, 'b') at offset 4 of objs[first, first + n). */
static int gpu_write(struct gtsim_file *f, uint32_t batch, struct tobj *objs, unsigned first,
		     unsigned n)
{
	static uint32_t dw[64 * 4 + 2];
	static struct drm_i915_gem_exec_object2 eo[65];
	unsigned k = 0;
	for (unsigned j = 0; j < n; j++) {
		uint64_t va = VA_BASE + (uint64_t)(first + j) * VA_STEP;
		k += emit_store(dw + k, va + 4, val(first + j, 'b'));
		eo[j] = (struct drm_i915_gem_exec_object2){
			.handle = objs[first + j].handle, .offset = va,
			.flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE };
	}
	dw[k++] = MI_BATCH_BUFFER_END;
	dw[k++] = MI_NOOP;
	if (eb_write(f, batch, 0, dw, k * 4))
		return -1;
	eo[n] = (struct drm_i915_gem_exec_object2){ .handle = batch, .offset = BATCH_VA,
						    .flags = EXEC_OBJECT_PINNED };
	if (eb_exec(f, eo, n + 1, 0, 0))
		return -1;
	return eb_wait(f, batch, 10ll * 1000000000);
}

static unsigned check_objects(struct gtsim_file *f, struct tobj *objs, unsigned first, unsigned n)
{
	unsigned wrong = 0;
	for (unsigned i = first; i < first + n; i++) {
		uint32_t a = 0, c = val(i, 'c');
		test_pread(f, objs[i].handle, 0, &a, 4);
		wrong += a != val(i, 'a');
		wrong += objs[i].cpu[1] != val(i, 'b');
		wrong += objs[i].dmabuf && objs[i].dmabuf[1] != val(i, 'b');
		test_pwrite(f, objs[i].handle, 8, &c, 4);
		wrong += objs[i].cpu[2] != c;
		wrong += objs[i].dmabuf && objs[i].dmabuf[2] != c;
		/* the last page too: all of the object is in one place */
		uint32_t last = 0, v = val(i, 'l');
		objs[i].cpu[objs[i].size / 4 - 1] = v;
		test_pread(f, objs[i].handle, objs[i].size - 4, &last, 4);
		wrong += last != v;
	}
	return wrong;
}

static void test_many_mapped_exported(struct gtsim_device *dev, struct gtsim_file *f)
{
	static struct tobj objs[SMALL + LARGE];
	unsigned fds = test_count_fds();
	unsigned made = 0;

	for (unsigned i = 0; i < SMALL + LARGE; i++) {
		bool small = i < SMALL;
		struct tobj *o = &objs[i];
		o->size = small ? SMALL_SIZE : LARGE_SIZE;
		o->handle = test_create(f, o->size);
		if (!o->handle)
			break;
		o->cpu = !small ? map_offset(f, o->handle, o->size, I915_MMAP_OFFSET_WC)
			 : i % 2 ? map_legacy(f, o->handle, o->size)
				 : map_offset(f, o->handle, o->size, I915_MMAP_OFFSET_WB);
		if (!o->cpu)
			break;
		o->cpu[0] = val(i, 'a');
		if (small) {
			int fd = export(f, o->handle);
			if (fd < 0)
				break;
			void *p = mmap(NULL, o->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			close(fd);   /* the mapping keeps the dma-buf */
			if (p == MAP_FAILED)
				break;
			o->dmabuf = p;
		}
		made++;
	}
	CHECK_EQ(made, SMALL + LARGE);
	/* the slabs' descriptors only: 1200 x 8 KiB objects fit one 64 MiB slab */
	unsigned held = test_count_fds() - fds;
	CHECK(held <= 4);
	printf("%u mapped and exported objects, %u large mapped ones: %u descriptors more\n",
	       SMALL, LARGE, held);

	uint32_t batch = test_create(f, 4096);
	for (unsigned i = 0; i < made; i += 64) {
		unsigned n = made - i < 64 ? made - i : 64;
		CHECK_EQ(gpu_write(f, batch, objs, i, n), 0);
	}
	test_close(f, batch);
	CHECK_EQ(check_objects(f, objs, 0, made), 0);

	/* export again after the first dma-buf's fd was closed: the same
	 * file (the first dma-buf's mapping sees a write through the new
	 * one), imported by a second device with the object's bytes */
	struct gtsim_device *dev2 = test_device(0, 0);
	struct gtsim_file *f2 = gtsim_open(dev2);
	unsigned wrong = 0;
	for (unsigned i = 0; i < SMALL; i += 37) {
		int fd = export(f, objs[i].handle);
		CHECK(fd >= 0);
		if (fd < 0)
			continue;
		struct drm_prime_handle self = { .fd = fd }, other = { .fd = fd };
		CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &self), 0);
		wrong += self.handle != objs[i].handle;
		CHECK_EQ(gtsim_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &other), 0);
		close(fd);
		uint32_t a = 0, v = val(i, 'd');
		test_pread(f2, other.handle, 0, &a, 4);
		wrong += a != val(i, 'a');
		test_pwrite(f2, other.handle, 12, &v, 4);
		wrong += objs[i].dmabuf[3] != v || objs[i].cpu[3] != v;
		test_close(f2, other.handle);
	}
	CHECK_EQ(wrong, 0);
	gtsim_close(f2);
	gtsim_device_destroy(dev2);

	for (unsigned i = 0; i < made; i++) {
		munmap((void *)objs[i].cpu, objs[i].size);
		if (objs[i].dmabuf)
			munmap((void *)objs[i].dmabuf, objs[i].size);
		test_close(f, objs[i].handle);
	}
	gtsim_device_idle(dev);

	CHECK(test_count_fds() <= fds);
}

/* X tiling (BDW PRM vol. 5, "Tiling": an X tile is 512 bytes by 8 rows,
 * row-major inside, tiles row-major across the surface): with a stride of
 * two tiles, byte (x, y) of the surface is at
 * ((y / 8) * 2 + x / 512) * 4096 + (y % 8) * 512 + x % 512. */
static uint64_t x_tiled(uint64_t x, uint64_t y)
{
	return ((y / 8) * 2 + x / 512) * 4096 + (y % 8) * 512 + x % 512;
}

static void test_many_gtt_views(struct gtsim_file *f)
{
	static uint32_t handles[TILED];
	static volatile uint32_t *maps[TILED];
	unsigned fds = test_count_fds(), made = 0, wrong = 0;
	for (unsigned i = 0; i < TILED; i++) {
		handles[i] = test_create(f, TILED_SIZE);
		struct drm_i915_gem_set_tiling st = { .handle = handles[i],
						      .tiling_mode = I915_TILING_X, .stride = 1024 };
		if (!handles[i] || gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_TILING, &st) ||
		    st.swizzle_mode != I915_BIT_6_SWIZZLE_NONE)
			break;
		maps[i] = map_offset(f, handles[i], TILED_SIZE, I915_MMAP_OFFSET_GTT);
		if (!maps[i])
			break;
		maps[i][512 / 4] = val(i, 't');        /* x = 512, y = 0 */
		maps[i][(3 * 1024 + 8) / 4] = val(i, 'u');   /* x = 8, y = 3 */
		made++;
	}
	CHECK_EQ(made, TILED);
	CHECK(test_count_fds() - fds <= 4);
	for (unsigned i = 0; i < made; i++) {
		uint32_t t = 0, u = 0;
		test_pread(f, handles[i], x_tiled(512, 0), &t, 4);
		test_pread(f, handles[i], x_tiled(8, 3), &u, 4);
		wrong += t != val(i, 't') || u != val(i, 'u');
	}
	CHECK_EQ(x_tiled(512, 0), 4096);
	CHECK_EQ(wrong, 0);
	for (unsigned i = 0; i < made; i++) {
		munmap((void *)maps[i], TILED_SIZE);
		test_close(f, handles[i]);
	}
	CHECK(test_count_fds() <= fds);
}

int main(void)
{
	struct rlimit old, low = { .rlim_cur = LIMIT };
	getrlimit(RLIMIT_NOFILE, &old);
	low.rlim_max = old.rlim_max;
	CHECK_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
	struct gtsim_device *dev = eb_device(0, 0, 0);
	struct gtsim_file *f = gtsim_open(dev);
	CHECK(f != NULL);
	/* the context's objects (made at the first execbuf, kept till the
	 * file closes) are there before the counts start */
	uint32_t batch = test_create(f, 4096);
	const uint32_t end[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	struct drm_i915_gem_exec_object2 eo = { .handle = batch };
	CHECK_EQ(eb_write(f, batch, 0, end, sizeof(end)), 0);
	CHECK_EQ(eb_exec(f, &eo, 1, 0, 0), 0);
	CHECK_EQ(eb_wait(f, batch, 10ll * 1000000000), 0);
	test_close(f, batch);
	test_many_mapped_exported(dev, f);
	test_many_gtt_views(f);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	setrlimit(RLIMIT_NOFILE, &old);
	return test_exit();
}
