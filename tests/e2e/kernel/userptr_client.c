/* GEM_USERPTR seen by a client that knows nothing of gtsim, run under
 * `gtsim run`: the GPU's MI_STORE_DWORD_IMM lands in the client's
 * malloc'd memory (values by hand), and the mmu notifier follows the C
 * library's own calls (munmap, mremap, mmap MAP_FIXED) as i915's does:
 * the next execbuf is -EFAULT while the memory is gone and works again on
 * a new mapping. A block freed by free() (glibc's internal munmap, which
 * no interposer sees) under a GPU write does not crash the process.
 * Exits 0 when all holds. */
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int failures;
#define EXPECT(cond)                                                              \
	do {                                                                      \
		if (!(cond)) {                                                    \
			fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                               \
		}                                                                 \
	} while (0)

static int fd;

static int xioctl(unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static uint32_t userptr(void *p, uint64_t size, uint32_t flags, int *err)
{
	struct drm_i915_gem_userptr u = { .user_ptr = (uintptr_t)p, .user_size = size,
					  .flags = flags };
	*err = xioctl(DRM_IOCTL_I915_GEM_USERPTR, &u);
	return *err ? 0 : u.handle;
}

/* The batch: MI_STORE_DWORD_IMM (gen8: 0x20 << 23 | 2, address, value)
 * of value at gpu_addr, then MI_BATCH_BUFFER_END (0x0a << 23). */
static void write_batch(uint32_t *b, uint64_t gpu_addr, uint32_t value)
{
	b[0] = (0x20u << 23) | 2u;
	b[1] = (uint32_t)gpu_addr;
	b[2] = (uint32_t)(gpu_addr >> 32);
	b[3] = value;
	b[4] = 0x0au << 23;
	b[5] = 0;
}

static int exec_store(uint32_t target, uint32_t batch)
{
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = target, .offset = 0x400000,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = batch },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)obj, .buffer_count = 2 };
	int ret = xioctl(DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	if (!ret) {
		struct drm_i915_gem_wait w = { .bo_handle = batch, .timeout_ns = -1 };
		xioctl(DRM_IOCTL_I915_GEM_WAIT, &w);
	}
	return ret;
}

int main(void)
{
	fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("renderD128");
		return 1;
	}
	int err, probe = 0;
	struct drm_i915_getparam gp = { .param = I915_PARAM_HAS_USERPTR_PROBE, .value = &probe };
	EXPECT(xioctl(DRM_IOCTL_I915_GETPARAM, &gp) == 0 && probe == 1);

	uint32_t *batch = aligned_alloc(4096, 4096);
	uint32_t hb = userptr(batch, 4096, I915_USERPTR_READ_ONLY, &err);
	EXPECT(err == 0);

	/* 1. Into malloc'd memory. */
	uint32_t *buf = aligned_alloc(4096, 4096);
	memset(buf, 0, 4096);
	uint32_t hbuf = userptr(buf, 4096, 0, &err);
	EXPECT(err == 0);
	write_batch(batch, 0x400000 + 64, 0x600dcafe);
	EXPECT(exec_store(hbuf, hb) == 0);
	EXPECT(buf[16] == 0x600dcafe);
	EXPECT(buf[15] == 0 && buf[17] == 0);

	/* 2. munmap through the C library: the notifier fires. */
	uint32_t *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t hm = userptr(m, 4096, I915_USERPTR_PROBE, &err);
	EXPECT(err == 0);
	write_batch(batch, 0x400000, 0x11111111);
	EXPECT(exec_store(hm, hb) == 0);
	EXPECT(m[0] == 0x11111111);
	munmap(m, 4096);
	EXPECT(exec_store(hm, hb) == -EFAULT);
	/* A new mapping at the same address: used from then on. */
	EXPECT(mmap(m, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
		    0) == m);
	write_batch(batch, 0x400000, 0x22222222);
	EXPECT(exec_store(hm, hb) == 0);
	EXPECT(m[0] == 0x22222222);
	/* mprotect to read-only: a writable userptr cannot pin it. */
	EXPECT(mprotect(m, 4096, PROT_READ) == 0);
	EXPECT(exec_store(hm, hb) == -EFAULT);
	EXPECT(mprotect(m, 4096, PROT_READ | PROT_WRITE) == 0);
	EXPECT(exec_store(hm, hb) == 0);
	/* mremap moves the pages away. */
	void *moved = mremap(m, 4096, 8192, MREMAP_MAYMOVE);
	EXPECT(moved != MAP_FAILED);
	if (moved != (void *)m)
		EXPECT(exec_store(hm, hb) == -EFAULT);
	munmap(moved, 8192);

	/* 3. A large block freed by free(): glibc unmaps it internally. */
	size_t big = 1 << 20;
	uint32_t *blk = aligned_alloc(4096, big);
	memset(blk, 0, big);
	uint32_t hblk = userptr(blk, big, 0, &err);
	EXPECT(err == 0);
	write_batch(batch, 0x400000 + 4, 0x33333333);
	EXPECT(exec_store(hblk, hb) == 0);
	EXPECT(blk[1] == 0x33333333);
#if defined(__SANITIZE_ADDRESS__)
	/* ASan keeps a freed block mapped and poisoned (its quarantine): the
	 * GPU's write below would be this client's use after free, which ASan
	 * reports as it should. The case needs glibc's own free(). */
	free(blk);   /* and no GPU write after it */
	printf("userptr client: free() under a GPU write not run under ASan\n");
#else
	free(blk);
	exec_store(hblk, hb);   /* the GPU writes where no page is: no crash */
	EXPECT(exec_store(hblk, hb) == -EFAULT);
#endif

	printf("userptr client: %s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
