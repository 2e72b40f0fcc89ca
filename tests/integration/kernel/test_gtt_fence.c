/* GTT mappings of tiled objects through a fence, as i915 gives them on
 * gen8/9 (MMAP_GTT of an X/Y-tiled object; swizzle NONE): the CPU sees the
 * surface's rows linearly while the object's pages (pread/pwrite, the GPU)
 * hold the tiled layout. Oracle: the PRM's tile address maps, written
 * independently in tests/tiling_ref.h. The mapping is coherent at i915's
 * synchronisation points: SET_DOMAIN, pread/pwrite, SET_TILING, execbuf,
 * and a new CPU map (GEM_MMAP, MMAP_OFFSET). A GTT map made while the
 * object was linear goes through the fence once the object is tiled, and
 * back (IGT gem_set_tiling_vs_gtt, gem_tiling_max_stride). */
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "eb_test.h"
#include "tiling_ref.h"

#define SIZE (32u * 1024u)

static int set_tiling(struct gtsim_file *f, uint32_t h, uint32_t mode, uint32_t stride)
{
	struct drm_i915_gem_set_tiling st = { .handle = h, .tiling_mode = mode, .stride = stride };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_TILING, &st);
}

static uint8_t *map_gtt(struct gtsim_file *f, uint32_t h, int prot)
{
	struct drm_i915_gem_mmap_gtt mg = { .handle = h };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_GTT, &mg), 0);
	uint8_t *p = gtsim_mmap(f, NULL, SIZE, prot, MAP_SHARED, mg.offset);
	CHECK(p != MAP_FAILED);
	return p;
}

static void unmap(void *p)
{
	gtsim_gtt_views_forget(p, SIZE);   /* what the shim's munmap does */
	munmap(p, SIZE);
}

static int set_domain_gtt(struct gtsim_file *f, uint32_t h)
{
	struct drm_i915_gem_set_domain sd = { .handle = h, .read_domains = I915_GEM_DOMAIN_GTT,
					      .write_domain = I915_GEM_DOMAIN_GTT };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd);
}

static uint8_t pattern(uint64_t linear, unsigned salt)
{
	return (uint8_t)(linear * 7 + (linear >> 9) + salt);
}

/* A new object tiled (mode, stride), every byte l of its GTT view written
 * with pattern(l, salt), the map gone again. */
static uint32_t filled_through_fence(struct gtsim_file *f, uint32_t mode, uint32_t stride,
				     unsigned salt)
{
	uint32_t h = eb_create(f, SIZE);
	CHECK_EQ(set_tiling(f, h, mode, stride), 0);
	uint8_t *gtt = map_gtt(f, h, PROT_READ | PROT_WRITE);
	CHECK_EQ(set_domain_gtt(f, h), 0);
	for (uint64_t l = 0; l < SIZE; l++)
		gtt[l] = pattern(l, salt);
	unmap(gtt);
	return h;
}

/* Writes through the GTT land detiled: byte (x, y) of the view at the
 * PRM's tiled address of the object. */
static void write_through_fence(struct gtsim_file *f, uint32_t mode, enum ref_tiling ref,
				uint32_t stride)
{
	uint32_t h = filled_through_fence(f, mode, stride, 1);
	uint8_t *raw = malloc(SIZE);
	CHECK_EQ(eb_read(f, h, 0, raw, SIZE), 0);
	unsigned bad = 0;
	for (uint64_t l = 0; l < SIZE; l++) {
		/* a partial last row of tiles lies past the object */
		uint64_t t = ref_tiled_offset(ref, l % stride, l / stride, stride);
		bad += t < SIZE && raw[t] != pattern(l, 1);
	}
	CHECK_EQ(bad, 0u);
	free(raw);
	eb_close(f, h);
}

/* Reads detile what pwrite put in the pages; pwrite after a read is seen
 * by the next read (pwrite is a synchronisation point); a read-only map
 * reads too; SET_TILING(NONE) makes the view the pages themselves. */
static void read_through_fence(struct gtsim_file *f, uint32_t mode, enum ref_tiling ref,
			       uint32_t stride)
{
	uint32_t h = eb_create(f, SIZE);
	CHECK_EQ(set_tiling(f, h, mode, stride), 0);
	uint8_t *raw = malloc(SIZE);
	for (uint64_t l = 0; l < SIZE; l++)
		raw[ref_tiled_offset(ref, l % stride, l / stride, stride)] = pattern(l, 2);
	CHECK_EQ(eb_write(f, h, 0, raw, SIZE), 0);
	uint8_t *gtt = map_gtt(f, h, PROT_READ);
	unsigned bad = 0;
	for (uint64_t l = 0; l < SIZE; l++)
		bad += gtt[l] != pattern(l, 2);
	CHECK_EQ(bad, 0u);

	/* (x, y) = (stride - 1, 3): one byte changed in the pages */
	uint64_t l = 3 * stride + stride - 1;
	uint8_t v = 0xa5;
	CHECK_EQ(eb_write(f, h, ref_tiled_offset(ref, stride - 1, 3, stride), &v, 1), 0);
	CHECK_EQ(gtt[l], 0xa5);

	/* Untiled: byte l of the view is byte l of the pages. */
	CHECK_EQ(set_tiling(f, h, I915_TILING_NONE, 0), 0);
	CHECK_EQ(gtt[100], raw[100]);
	CHECK_EQ(gtt[SIZE - 1], raw[SIZE - 1]);
	unmap(gtt);
	free(raw);
	eb_close(f, h);
}

/* The GPU sees what the CPU wrote through the fence (execbuf is a
 * synchronisation point): the batch itself is written through a GTT map
 * of a Y-tiled object, each byte at the view position whose tiled address
 * is the byte's place in the batch. It stores 0xc0ffee into another
 * object. */
static void gpu_sees_fenced_writes(struct gtsim_file *f)
{
	uint32_t batch = eb_create(f, SIZE), target = eb_create(f, 4096);
	CHECK_EQ(set_tiling(f, batch, I915_TILING_Y, 128), 0);
	uint8_t *gtt = map_gtt(f, batch, PROT_READ | PROT_WRITE);
	uint32_t dw[8];
	unsigned n = emit_store(dw, 0, 0xc0ffee);
	dw[n++] = MI_BATCH_BUFFER_END;
	for (unsigned i = 0; i < n; i++)
		for (unsigned b = 0; b < 4; b++) {
			uint64_t want = 4 * i + b;
			for (uint64_t l = 0; l < 4096; l++)
				if (ref_tile_y_offset(l % 128, l / 128, 128) == want) {
					gtt[l] = (uint8_t)(dw[i] >> (8 * b));
					break;
				}
		}
	struct drm_i915_gem_relocation_entry rel = {
		.target_handle = target, .offset = 4, .delta = 0,
		.read_domains = I915_GEM_DOMAIN_RENDER, .write_domain = I915_GEM_DOMAIN_RENDER,
		.presumed_offset = ~0ull,
	};
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = target },
		{ .handle = batch, .relocation_count = 1, .relocs_ptr = (uintptr_t)&rel },
	};
	/* The relocation is written into the pages by execbuf: it must not
	 * be overwritten by the view's stale copy later. */
	CHECK_EQ(eb_exec(f, objs, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, target, -1), 0);
	CHECK_EQ(eb_read32(f, target, 0), 0xc0ffeeu);
	unmap(gtt);
	eb_close(f, batch);
	eb_close(f, target);
}

/* Closing the object while mapped leaves plain memory behind (i915 keeps
 * the object alive through the mapping; gtsim keeps the last view). */
static void close_while_mapped(struct gtsim_file *f)
{
	uint32_t h = eb_create(f, SIZE);
	CHECK_EQ(set_tiling(f, h, I915_TILING_X, 512), 0);
	uint8_t *gtt = map_gtt(f, h, PROT_READ | PROT_WRITE);
	gtt[0] = 1;
	eb_close(f, h);
	gtt[1] = 2;
	CHECK_EQ(gtt[0], 1);
	unmap(gtt);
}

/* Mapped linear, then tiled X: the same mapping now detiles (byte l of
 * the view is the PRM's tiled address of (l % stride, l / stride) in the
 * pages, which still hold what was written linearly); written through the
 * fence, then untiled again: the mapping shows the pages themselves, with
 * the bytes where the fence put them. */
static void retile_existing_map(struct gtsim_file *f)
{
	enum { STRIDE = 1024 };   /* two X tiles a row (one would be the identity) */
	uint32_t h = eb_create(f, SIZE);
	uint8_t *gtt = map_gtt(f, h, PROT_READ | PROT_WRITE);
	for (uint64_t l = 0; l < SIZE; l++)
		gtt[l] = pattern(l, 3);
	CHECK_EQ(set_tiling(f, h, I915_TILING_X, STRIDE), 0);
	unsigned bad = 0;
	for (uint64_t l = 0; l < SIZE; l++)
		bad += gtt[l] != pattern(ref_tiled_offset(REF_TILE_X, l % STRIDE, l / STRIDE,
							   STRIDE), 3);
	CHECK_EQ(bad, 0u);
	for (uint64_t l = 0; l < SIZE; l++)
		gtt[l] = pattern(l, 4);
	CHECK_EQ(set_tiling(f, h, I915_TILING_NONE, 0), 0);
	bad = 0;
	for (uint64_t l = 0; l < SIZE; l++) {
		uint64_t t = ref_tiled_offset(REF_TILE_X, l % STRIDE, l / STRIDE, STRIDE);
		bad += gtt[t] != pattern(l, 4);
	}
	CHECK_EQ(bad, 0u);
	unmap(gtt);
	eb_close(f, h);
}

/* Written through the fence, unmapped, then read through a new CPU map
 * (GEM_MMAP, as IGT gem_tiled_wc does): the map shows the tiled bytes. */
static void cpu_map_after_gtt_writes(struct gtsim_file *f)
{
	enum { STRIDE = 1024 };
	uint32_t h = filled_through_fence(f, I915_TILING_X, STRIDE, 5);
	struct drm_i915_gem_mmap mm = { .handle = h, .size = SIZE, .flags = I915_MMAP_WC };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &mm), 0);
	const uint8_t *cpu = (const uint8_t *)(uintptr_t)mm.addr_ptr;
	unsigned bad = 0;
	for (uint64_t l = 0; l < SIZE; l++)
		bad += cpu[ref_tiled_offset(REF_TILE_X, l % STRIDE, l / STRIDE, STRIDE)] !=
		       pattern(l, 5);
	CHECK_EQ(bad, 0u);
	munmap((void *)(uintptr_t)mm.addr_ptr, SIZE);
	eb_close(f, h);
}

int main(void)
{
	struct gtsim_device *dev = eb_device(0, 0, 0);
	struct gtsim_file *f = gtsim_open(dev);
	write_through_fence(f, I915_TILING_X, REF_TILE_X, 1024);
	write_through_fence(f, I915_TILING_Y, REF_TILE_Y, 512);
	write_through_fence(f, I915_TILING_Y, REF_TILE_Y, 384);   /* 3 tiles a row */
	read_through_fence(f, I915_TILING_X, REF_TILE_X, 2048);
	read_through_fence(f, I915_TILING_Y, REF_TILE_Y, 256);
	gpu_sees_fenced_writes(f);
	close_while_mapped(f);
	retile_existing_map(f);
	cpu_map_after_gtt_writes(f);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
