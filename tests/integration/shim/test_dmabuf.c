/* PRIME dma-bufs through the interposer (libgtsim-shim.so linked in, as
 * under LD_PRELOAD), against Linux 6.1's dma-buf semantics:
 *  - dma_buf_llseek(): SEEK_END and SEEK_SET with offset 0 only (the size,
 *    0), everything else -EINVAL;
 *  - dma_buf_poll(): POLLIN waits for the exclusive (GPU write) fence,
 *    POLLOUT for every fence: a batch held on MI_SEMAPHORE_WAIT (BDW PRM,
 *    opcode 0x1c, 4 dwords) that writes object W and reads object R leaves
 *    W's dma-buf busy both ways, R's busy for POLLOUT only, until the CPU
 *    releases the semaphore; poll with a timeout then returns once idle;
 *  - a dma-buf keeps the object's memory: imported after the last GEM
 *    handle closed (even exported without DRM_RDWR), it reads what was
 *    written. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <i915_drm.h>

#include "test.h"

#define SIZE 8192
#define SEM_ADDR 0x100000ull
#define W_ADDR   0x200000ull
#define R_ADDR   0x300000ull
#define BB_ADDR  0x400000ull
#define MI_BATCH_BUFFER_END (0x0au << 23)
#define MI_SEMAPHORE_WAIT_POLL_EQ ((0x1cu << 23) | (1u << 15) | (4u << 12) | 2)

static int fd;

static uint32_t gem_create(void)
{
	struct drm_i915_gem_create c = { .size = SIZE };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	return c.handle;
}

static void gem_write(uint32_t handle, const void *data, uint64_t size)
{
	struct drm_i915_gem_pwrite pw = { .handle = handle, .size = size,
					  .data_ptr = (uintptr_t)data };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), 0);
}

static int export(uint32_t handle, uint32_t flags)
{
	struct drm_prime_handle p = { .handle = handle, .flags = DRM_CLOEXEC | flags };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p), 0);
	return p.fd;
}

static short polled(int dmabuf, short events, int timeout_ms)
{
	struct pollfd p = { .fd = dmabuf, .events = events };
	return poll(&p, 1, timeout_ms) == 1 ? p.revents : 0;
}

static void llseek(void)
{
	uint32_t h = gem_create();
	int d = export(h, 0);
	CHECK_EQ(lseek(d, 0, SEEK_END), SIZE);
	CHECK_EQ(lseek(d, 0, SEEK_SET), 0);
	errno = 0;
	CHECK_EQ(lseek(d, -1, SEEK_END), -1);
	CHECK_EQ(errno, EINVAL);
	errno = 0;
	CHECK_EQ(lseek(d, 1, SEEK_SET), -1);
	CHECK_EQ(errno, EINVAL);
	errno = 0;
	CHECK_EQ(lseek(d, 0, SEEK_CUR), -1);
	CHECK_EQ(errno, EINVAL);
	close(d);
	struct drm_gem_close c = { .handle = h };
	ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static void keeps_memory(void)
{
	uint32_t h = gem_create(), v = 0x5eed, got = 0;
	gem_write(h, &v, 4);
	int d = export(h, 0);   /* read-only dma-buf */
	struct drm_gem_close c = { .handle = h };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c), 0);
	struct drm_prime_handle imp = { .fd = d };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp), 0);
	struct drm_i915_gem_pread pr = { .handle = imp.handle, .size = 4,
					 .data_ptr = (uintptr_t)&got };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
	CHECK_EQ(got, 0x5eed);
	close(d);
}

static void busy_poll(void)
{
	uint32_t sem = gem_create(), w = gem_create(), r = gem_create(), bb = gem_create();
	uint32_t zero = 0;
	gem_write(sem, &zero, 4);
	const uint32_t batch[] = { MI_SEMAPHORE_WAIT_POLL_EQ, 1, (uint32_t)SEM_ADDR,
				   (uint32_t)(SEM_ADDR >> 32), MI_BATCH_BUFFER_END, 0 };
	gem_write(bb, batch, sizeof(batch));
	int dw = export(w, 0), dr = export(r, 0);
	CHECK_EQ(polled(dw, POLLIN | POLLOUT, 0), POLLIN | POLLOUT);   /* idle */
	struct drm_i915_gem_exec_object2 objs[] = {
		{ .handle = sem, .offset = SEM_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = w, .offset = W_ADDR, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = r, .offset = R_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = bb, .offset = BB_ADDR, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)objs, .buffer_count = 4, .batch_len = sizeof(batch),
		.flags = I915_EXEC_RENDER | I915_EXEC_NO_RELOC,
	};
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
	usleep(20000);
	CHECK_EQ(polled(dw, POLLIN, 0), 0);
	CHECK_EQ(polled(dw, POLLOUT, 0), 0);
	CHECK_EQ(polled(dr, POLLIN, 0), POLLIN);    /* only read: no exclusive fence */
	CHECK_EQ(polled(dr, POLLOUT, 10), 0);       /* a timeout: still busy */
	struct drm_i915_gem_mmap_offset mo = { .handle = sem, .flags = I915_MMAP_OFFSET_WB };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	volatile uint32_t *s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, mo.offset);
	CHECK(s != MAP_FAILED);
	if (s == MAP_FAILED)
		return;
	s[0] = 1;
	CHECK_EQ(polled(dw, POLLOUT, 5000), POLLOUT);   /* waits until idle */
	CHECK_EQ(polled(dw, POLLIN, 0), POLLIN);
	CHECK_EQ(polled(dr, POLLOUT, 0), POLLOUT);
	munmap((void *)s, 4096);
	close(dw);
	close(dr);
}

int main(void)
{
	fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	if (fd < 0)
		return test_exit();
	llseek();
	keeps_memory();
	busy_poll();
	close(fd);
	return test_exit();
}
