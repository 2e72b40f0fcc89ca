/* MADVISE and the shrinker: I915_MADV_DONTNEED objects are purged when the
 * objects' resident bytes pass the memory limit (GTSIM_MEM_LIMIT_MB) or on
 * an explicit gem_shrink(); afterwards, as i915 answers: MADVISE reports
 * retained = 0 whatever is asked, pread/pwrite are -EFAULT (pin_pages of a
 * purged object), execbuf with it is -EFAULT, a new fake-offset mapping
 * raises SIGBUS on access, and the memory is gone (an older GEM_MMAP
 * mapping reads zeros, an older fake-offset one raises SIGBUS). WILLNEED,
 * pinned and busy objects are never purged. As i915_gem_madvise_ioctl():
 * DONTNEED of an object without pages (never bound, read by PREAD or moved
 * to a domain; PWRITE and CPU mappings go to shmem without them) truncates
 * it at once, and a full shrink (drop_caches) drops the pages of idle
 * WILLNEED objects (contents kept). */
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/device.h"
#include "kernel/object.h"
#include "kernel/vm.h"
#include "kernel_test.h"

#define KB(x) ((uint64_t)(x) << 10)

static int madvise_obj(struct gtsim_file *f, uint32_t h, uint32_t madv, uint32_t *retained)
{
	struct drm_i915_gem_madvise ma = { .handle = h, .madv = madv };
	int ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MADVISE, &ma);
	*retained = ma.retained;
	return ret;
}

static int exec_with(struct gtsim_file *f, uint32_t obj, uint32_t batch)
{
	struct drm_i915_gem_exec_object2 ex[2] = { { .handle = obj }, { .handle = batch } };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)ex, .buffer_count = 2 };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
}

/* Does reading the first byte of p end the process with SIGBUS? */
static int read_gets_sigbus(const volatile uint8_t *p)
{
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGBUS, SIG_DFL);
		(void)p[0];
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS;
}

static void test_limit_purges_oldest_dontneed(struct gtsim_device *dev, struct gtsim_file *f)
{
	uint32_t a = test_create(f, KB(256)), b = test_create(f, KB(512)), r;
	uint32_t pattern = 0xa5a5f00d, v = 0;
	CHECK_EQ(test_pwrite(f, a, 4096, &pattern, 4), 0);
	struct drm_i915_gem_mmap m = { .handle = a, .size = KB(256) };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP, &m), 0);
	volatile uint32_t *cpu = (uint32_t *)(uintptr_t)m.addr_ptr;
	CHECK_EQ(cpu[1024], pattern);
	/* PREAD pins the pages (i915's shmem pread): DONTNEED keeps them. */
	CHECK_EQ(test_pread(f, a, 0, &v, 4), 0);
	CHECK_EQ(test_pread(f, b, 0, &v, 4), 0);

	CHECK_EQ(madvise_obj(f, a, I915_MADV_DONTNEED, &r), 0);
	CHECK_EQ(r, 1);
	CHECK_EQ(madvise_obj(f, b, I915_MADV_DONTNEED, &r), 0);
	CHECK_EQ(madvise_obj(f, b, I915_MADV_WILLNEED, &r), 0);   /* b wanted again */
	CHECK_EQ(r, 1);
	/* 768 KiB resident, under the 1 MiB limit: nothing purged yet. */
	CHECK_EQ(madvise_obj(f, a, I915_MADV_DONTNEED, &r), 0);
	CHECK_EQ(r, 1);
	CHECK_EQ(dev->purged_bytes, 0);

	/* 1280 KiB > 1 MiB: 256 KiB must go, and a is the only candidate. */
	uint32_t c = test_create(f, KB(512));
	CHECK(c != 0);
	CHECK_EQ(dev->purged_bytes, KB(256));
	CHECK_EQ(madvise_obj(f, a, I915_MADV_WILLNEED, &r), 0);
	CHECK_EQ(r, 0);                       /* purged stays purged */
	CHECK_EQ(madvise_obj(f, a, I915_MADV_DONTNEED, &r), 0);
	CHECK_EQ(r, 0);
	CHECK_EQ(cpu[1024], 0);               /* the pages are gone */
	CHECK_EQ(test_pread(f, a, 0, &v, 4), -EFAULT);
	CHECK_EQ(test_pwrite(f, a, 0, &pattern, 4), -EFAULT);
	struct drm_i915_gem_set_domain sd = { .handle = a, .read_domains = I915_GEM_DOMAIN_CPU };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd), -EFAULT);
	sd.handle = b;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd), 0);
	CHECK_EQ(test_pread(f, b, 0, &v, 4), 0);   /* WILLNEED b untouched */
	CHECK_EQ(madvise_obj(f, b, I915_MADV_WILLNEED, &r), 0);
	CHECK_EQ(r, 1);
	munmap((void *)cpu, KB(256));

	/* execbuf: binding a purged object is -EFAULT; without it the batch runs. */
	uint32_t batch = test_create(f, 4096);
	uint32_t bbe[2] = { 0x05000000, 0 };   /* MI_BATCH_BUFFER_END, MI_NOOP */
	test_pwrite(f, batch, 0, bbe, sizeof(bbe));
	CHECK_EQ(exec_with(f, a, batch), -EFAULT);
	CHECK_EQ(exec_with(f, b, batch), 0);

	/* A fake-offset mapping of a purged object faults with SIGBUS. */
	struct drm_i915_gem_mmap_offset mo = { .handle = a, .flags = I915_MMAP_OFFSET_WB };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	uint8_t *p = gtsim_mmap(f, NULL, 4096, PROT_READ, MAP_SHARED, mo.offset);
	CHECK(p != MAP_FAILED);
	if (p != MAP_FAILED) {
		CHECK(read_gets_sigbus(p));
		munmap(p, 4096);
	}
	/* Freeing a purged object takes it out of the accounting. */
	test_close(f, a);
	CHECK_EQ(dev->purged_bytes, 0);
	test_close(f, b);
	test_close(f, c);
	test_close(f, batch);
}

static void test_explicit_shrink_spares_pinned(struct gtsim_device *dev, struct gtsim_file *f)
{
	uint32_t keep = test_create(f, KB(64)), pinned = test_create(f, KB(64));
	uint32_t gone = test_create(f, KB(64)), r, v;
	CHECK_EQ(test_pread(f, pinned, 0, &v, 4), 0);   /* pages: not truncated at once */
	CHECK_EQ(test_pread(f, gone, 0, &v, 4), 0);
	CHECK_EQ(madvise_obj(f, pinned, I915_MADV_DONTNEED, &r), 0);
	CHECK_EQ(madvise_obj(f, gone, I915_MADV_DONTNEED, &r), 0);

	pthread_mutex_lock(&dev->lock);
	struct gem_object *po = obj_lookup(f, pinned);
	struct gem_vma *vma = NULL;
	CHECK_EQ(vma_bind(dev->ggtt, po, PIN_PIN, 0, 0, &vma), 0);
	CHECK_EQ(gem_shrink(dev, ~0ull), KB(64));   /* only "gone" */
	vma_unpin(vma);
	CHECK_EQ(gem_shrink(dev, ~0ull), KB(64));   /* now "pinned" too */
	CHECK_EQ(vma_bind(dev->ggtt, po, 0, 0, 0, &vma), -EFAULT);
	obj_put(po);
	pthread_mutex_unlock(&dev->lock);

	CHECK_EQ(madvise_obj(f, keep, I915_MADV_WILLNEED, &r), 0);
	CHECK_EQ(r, 1);
	CHECK_EQ(madvise_obj(f, pinned, I915_MADV_WILLNEED, &r), 0);
	CHECK_EQ(r, 0);
	CHECK_EQ(madvise_obj(f, gone, I915_MADV_WILLNEED, &r), 0);
	CHECK_EQ(r, 0);
	test_close(f, keep);
	test_close(f, pinned);
	test_close(f, gone);
}

static uint8_t *map_type(struct gtsim_file *f, uint32_t h, unsigned type)
{
	struct drm_i915_gem_mmap_offset mo = { .handle = h, .flags = type };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	uint8_t *p = gtsim_mmap(f, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mo.offset);
	CHECK(p != MAP_FAILED);
	return p;
}

/* IGT's gem_madvise subtests, i915's answers. */
static void test_truncate_without_pages(struct gtsim_device *dev, struct gtsim_file *f)
{
	uint32_t r, v = 0x600d, bbe[2] = { 0x05000000, 0 };
	/* dontneed-before-pwrite: a new object has no pages. */
	uint32_t h = test_create(f, 4096);
	CHECK_EQ(madvise_obj(f, h, I915_MADV_DONTNEED, &r), 0);
	CHECK_EQ(r, 0);
	CHECK_EQ(test_pwrite(f, h, 0, &v, 4), -EFAULT);
	test_close(f, h);
	/* dontneed-before-exec: PWRITE leaves it without pages. */
	h = test_create(f, 4096);
	CHECK_EQ(test_pwrite(f, h, 0, bbe, 8), 0);
	CHECK_EQ(madvise_obj(f, h, I915_MADV_DONTNEED, &r), 0);
	CHECK_EQ(r, 0);
	struct drm_i915_gem_exec_object2 ex = { .handle = h };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&ex, .buffer_count = 1,
					       .batch_len = 8 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), -EFAULT);
	test_close(f, h);
	/* dontneed-after-mmap: a mapping never touched gives no pages (a GTT
	 * one neither: i915 binds at the first fault); the truncation revokes
	 * it. */
	uint8_t *p;
	for (unsigned type = I915_MMAP_OFFSET_GTT; type <= I915_MMAP_OFFSET_UC; type++) {
		h = test_create(f, 4096);
		p = map_type(f, h, type);
		CHECK_EQ(madvise_obj(f, h, I915_MADV_DONTNEED, &r), 0);
		CHECK_EQ(r, 0);
		CHECK(read_gets_sigbus(p));
		munmap(p, 4096);
		test_close(f, h);
	}
	/* dontneed-before-mmap. */
	h = test_create(f, 4096);
	CHECK_EQ(madvise_obj(f, h, I915_MADV_DONTNEED, &r), 0);
	p = map_type(f, h, I915_MMAP_OFFSET_WB);
	CHECK(read_gets_sigbus(p));
	munmap(p, 4096);
	test_close(f, h);

	/* Executed once (bound: pages), DONTNEED keeps it until drop_caches,
	 * which purges it and revokes its mapping. */
	h = test_create(f, 4096);
	CHECK_EQ(test_pwrite(f, h, 0, bbe, 8), 0);
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &(struct drm_i915_gem_execbuffer2){
		.buffers_ptr = (uintptr_t)&(struct drm_i915_gem_exec_object2){ .handle = h },
		.buffer_count = 1, .batch_len = 8 }), 0);
	gtsim_device_idle(dev);
	p = map_type(f, h, I915_MMAP_OFFSET_WB);
	CHECK_EQ(p[0], 0x00);   /* MI_BATCH_BUFFER_END's low byte */
	CHECK_EQ(madvise_obj(f, h, I915_MADV_DONTNEED, &r), 0);
	CHECK_EQ(r, 1);
	CHECK_EQ(gtsim_debugfs_write(dev, "i915_gem_drop_caches", "0x1f", 4) >= 0, 1);
	CHECK_EQ(madvise_obj(f, h, I915_MADV_WILLNEED, &r), 0);
	CHECK_EQ(r, 0);
	CHECK(read_gets_sigbus(p));
	munmap(p, 4096);
	test_close(f, h);

	/* drop_caches swaps a WILLNEED object out (contents kept); a later
	 * DONTNEED finds no pages and truncates at once. */
	h = test_create(f, 4096);
	CHECK_EQ(test_pwrite(f, h, 0, &v, 4), 0);
	CHECK_EQ(test_pread(f, h, 0, &r, 4), 0);
	CHECK_EQ(gtsim_debugfs_write(dev, "i915_gem_drop_caches", "0x1f", 4) >= 0, 1);
	uint32_t back = 0;
	CHECK_EQ(test_pread(f, h, 0, &back, 4), 0);   /* pins the pages again */
	CHECK_EQ(back, v);
	CHECK_EQ(gtsim_debugfs_write(dev, "i915_gem_drop_caches", "0x1f", 4) >= 0, 1);
	CHECK_EQ(test_pwrite(f, h, 4, &v, 4), 0);     /* shmem directly: still none */
	CHECK_EQ(madvise_obj(f, h, I915_MADV_DONTNEED, &r), 0);
	CHECK_EQ(r, 0);
	CHECK_EQ(test_pread(f, h, 0, &back, 4), -EFAULT);
	test_close(f, h);
}

int main(void)
{
	setenv("GTSIM_MEM_LIMIT_MB", "1", 1);
	struct gtsim_device *dev = test_device(0, 0);
	struct gtsim_file *f = gtsim_open(dev);
	CHECK(f != NULL);
	CHECK_EQ(dev->mem_limit, 1 << 20);
	test_limit_purges_oldest_dontneed(dev, f);
	test_explicit_shrink_spares_pinned(dev, f);
	test_truncate_without_pages(dev, f);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
