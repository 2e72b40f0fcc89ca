/* Fake-offset mappings unmapped without the notifier (issue 16): a client
 * without the shim's munmap hook (the fuzzer, a program using libgtsim
 * directly) maps GEM objects through MMAP_OFFSET and unmaps them with a
 * plain munmap. i915's VMA is closed by that munmap; the kernel model,
 * which learns of unmaps only through gtsim_mm_invalidate, must find such
 * ranges gone rather than keep them for ever:
 *   - 3000 map/unmap rounds leave the registry's table bounded (its
 *     size follows what is mapped at once: 4 mappings here), whether the
 *     next mappings reuse the addresses (a new mapping replaces what the
 *     registry had there) or, every other round, a page kept mapped in
 *     between moves them on (a full table drops the ranges no longer in
 *     /proc/self/maps),
 *   - a USERPTR (with I915_USERPTR_PROBE) of anonymous memory later mapped at an address where such
 *     a mapping was succeeds (i915's probe_range sees an ordinary VMA
 *     there), while one over a live fake-offset mapping is still -EFAULT
 *     (VM_PFNMAP). */
#include <sys/mman.h>

#include "integration/kernel/eb_test.h"
#include "kernel/user_mm.h"

#define ROUNDS 3000

static void *map_object(struct gtsim_file *f, uint32_t handle)
{
	struct drm_i915_gem_mmap_offset mo = { .handle = handle, .flags = I915_MMAP_OFFSET_WB };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	void *p = gtsim_mmap(f, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mo.offset);
	CHECK(p != MAP_FAILED);
	return p;
}

static int userptr(struct gtsim_file *f, void *p)
{
	struct drm_i915_gem_userptr u = { .user_ptr = (uintptr_t)p, .user_size = 4096,
					  .flags = I915_USERPTR_PROBE };
	int ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_USERPTR, &u);
	if (!ret)
		eb_close(f, u.handle);
	return ret;
}

int main(void)
{
	struct gtsim_device *dev = eb_device(0, 0, 0);
	struct gtsim_file *f = gtsim_open(dev);
	uint32_t bo[4];
	for (int i = 0; i < 4; i++)
		bo[i] = eb_create(f, 4096);
	void *live = map_object(f, bo[3]);
	unsigned used = 0, cap = 0, max_cap = 0;
	static void *spacer[ROUNDS];
	for (unsigned r = 0; r < ROUNDS; r++) {
		spacer[r] = MAP_FAILED;
		if (r & 1)
			spacer[r] = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		void *p[3];
		for (int i = 0; i < 3; i++) {
			p[i] = map_object(f, bo[i]);
			*(volatile uint32_t *)p[i] = r;   /* the mapping works */
		}
		for (int i = 0; i < 3; i++)
			munmap(p[i], 4096);   /* no gtsim_mm_invalidate */
		user_mm_stats(&used, &cap);
		if (cap > max_cap)
			max_cap = cap;
	}
	printf("%u rounds of 3 mappings unmapped without the notifier: table of %u slots "
	       "(%u in use)\n", ROUNDS, max_cap, used);
	CHECK(max_cap <= 64);
	for (unsigned r = 0; r < ROUNDS; r++)
		if (spacer[r] != MAP_FAILED)
			munmap(spacer[r], 4096);

	/* anonymous memory where a fake-offset mapping was */
	void *p = map_object(f, bo[0]);
	munmap(p, 4096);
	void *anon = mmap(p, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
			  MAP_FIXED_NOREPLACE, -1, 0);
	if (anon == p)
		CHECK_EQ(userptr(f, anon), 0);
	else
		printf("address 0x%llx taken again before the test's mmap: not checked\n",
		       (unsigned long long)(uintptr_t)p);
	if (anon != MAP_FAILED)
		munmap(anon, 4096);
	/* a live one is VM_PFNMAP */
	CHECK_EQ(userptr(f, live), -EFAULT);
	munmap(live, 4096);

	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
