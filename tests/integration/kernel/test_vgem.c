/* vgem beside i915 on one device (Linux 6.1's vgem and drm core, by hand):
 *  - VERSION names "vgem" 1.0 on the vgem file, "i915" on the i915 one;
 *  - MODE_CREATE_DUMB: pitch DIV_ROUND_UP(width * bpp, 8), size
 *    PAGE_ALIGN(pitch * height) (1024x1 at 32 bpp: 4096 and 4096; 3x5 at
 *    24 bpp: 9 and 4096); a zero dimension, bpp > U32_MAX - 8 and a
 *    stride * height past 32 bits are -EINVAL;
 *  - MAP_DUMB + mmap of the node: the bytes written there are what i915
 *    reads after PRIME export/import (the same object);
 *  - FENCE_ATTACH: bad flags or pad -EINVAL, a bad handle -ENOENT, a read
 *    fence beside a pending write fence -EBUSY; the ids count from 1;
 *    FENCE_SIGNAL of id 0 is -ENOENT (IGT's vgem_has_fences), a used id
 *    -ENOENT, a timed-out fence -ETIMEDOUT;
 *  - implicit sync: an i915 batch using the object waits for a write fence
 *    (its store lands only after FENCE_SIGNAL; GEM_WAIT with timeout 0 is
 *    -ETIME, dma-buf POLLIN not ready meanwhile); with a read fence a
 *    reading batch runs at once and a writing one waits; BUSY reports
 *    nothing for vgem's fences (i915 reports its own only);
 *  - a fence on an object whose last handle closed while its dma-buf is
 *    open stays in force: poll and a later import see it. */
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "eb_test.h"
#include "kernel/vgem/vgem_uapi.h"

#define TARGET_ADDR 0x200000ull

static struct gtsim_device *dev;
static struct gtsim_file *i915, *vgem;

static void sleep_ms(long ms)
{
	nanosleep(&(struct timespec){ .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000 }, NULL);
}

static int dumb(uint32_t w, uint32_t h, uint32_t bpp, struct drm_mode_create_dumb *out)
{
	*out = (struct drm_mode_create_dumb){ .width = w, .height = h, .bpp = bpp };
	return gtsim_ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, out);
}

static int attach(uint32_t handle, uint32_t flags, uint32_t pad, uint32_t *id)
{
	struct drm_vgem_fence_attach a = { .handle = handle, .flags = flags, .pad = pad };
	int ret = gtsim_ioctl(vgem, DRM_IOCTL_VGEM_FENCE_ATTACH, &a);
	*id = a.out_fence;
	return ret;
}

static int signal_fence(uint32_t id)
{
	struct drm_vgem_fence_signal s = { .fence = id };
	return gtsim_ioctl(vgem, DRM_IOCTL_VGEM_FENCE_SIGNAL, &s);
}

static void check_version(struct gtsim_file *f, const char *want, int minor)
{
	char name[16] = { 0 };
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_VERSION, &v), 0);
	CHECK(!strcmp(name, want));
	CHECK_EQ(v.version_minor, minor);
}

/* An i915 batch storing value into the target, with cork (the imported
 * vgem object) in its list, written when cork_write. */
static void exec_store(uint32_t cork, bool cork_write, uint32_t target, uint32_t value)
{
	uint32_t bb = eb_create(i915, 4096), dw[8];
	unsigned n = emit_store(dw, TARGET_ADDR, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	CHECK_EQ(eb_write(i915, bb, 0, dw, n * 4), 0);
	struct drm_i915_gem_exec_object2 o[3] = {
		{ .handle = cork, .flags = cork_write ? EXEC_OBJECT_WRITE : 0 },
		{ .handle = target, .offset = TARGET_ADDR,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb },
	};
	CHECK_EQ(eb_exec(i915, o, 3, 0, 0), 0);
	eb_close(i915, bb);
}

int main(void)
{
	eb_require_async("a corked batch needs asynchronous engines");
	setenv("GTSIM_VGEM_FENCE_TIMEOUT_MS", "3000", 1);
	dev = eb_device(0, 1000, 0);
	i915 = gtsim_open(dev);
	vgem = gtsim_open_vgem(dev);
	CHECK(vgem != NULL);
	check_version(vgem, "vgem", 0);
	check_version(i915, "i915", 6);

	struct drm_mode_create_dumb d;
	CHECK_EQ(dumb(3, 5, 24, &d), 0);
	CHECK_EQ(d.pitch, 9);
	CHECK_EQ(d.size, 4096);
	CHECK_EQ(dumb(0, 5, 32, &d), -EINVAL);
	CHECK_EQ(dumb(4, 0, 32, &d), -EINVAL);
	CHECK_EQ(dumb(4, 4, 0xfffffff8u, &d), -EINVAL);
	CHECK_EQ(dumb(65536, 65536, 32, &d), -EINVAL);
	CHECK_EQ(dumb(1024, 1, 32, &d), 0);
	CHECK_EQ(d.pitch, 4096);
	CHECK_EQ(d.size, 4096);
	uint32_t vh = d.handle;

	/* the bytes written through vgem's mapping are i915's object */
	struct drm_mode_map_dumb m = { .handle = vh };
	CHECK_EQ(gtsim_ioctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &m), 0);
	uint32_t *p = gtsim_mmap(vgem, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, m.offset);
	CHECK(p != MAP_FAILED);
	if (p == MAP_FAILED)
		return test_exit();
	for (int i = 0; i < 1024; i++)
		p[i] = 0x1000u + (uint32_t)i;
	struct drm_prime_handle ex = { .handle = vh, .flags = DRM_CLOEXEC | DRM_RDWR };
	CHECK_EQ(gtsim_ioctl(vgem, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex), 0);
	struct drm_prime_handle im = { .fd = ex.fd };
	CHECK_EQ(gtsim_ioctl(i915, DRM_IOCTL_PRIME_FD_TO_HANDLE, &im), 0);
	uint32_t cork = im.handle;
	CHECK_EQ(eb_read32(i915, cork, 4 * 777), 0x1000u + 777);

	/* fence arguments */
	uint32_t id, id2;
	CHECK_EQ(signal_fence(0), -ENOENT);
	CHECK_EQ(attach(vh, 2, 0, &id), -EINVAL);
	CHECK_EQ(attach(vh, VGEM_FENCE_WRITE, 1, &id), -EINVAL);
	CHECK_EQ(attach(vh + 100, VGEM_FENCE_WRITE, 0, &id), -ENOENT);

	/* a write fence corks i915's batch */
	uint32_t target = eb_create(i915, 4096);
	/* read through a CPU map: PREAD would wait for the corked batch */
	struct drm_i915_gem_mmap tm = { .handle = target, .size = 4096 };
	CHECK_EQ(gtsim_ioctl(i915, DRM_IOCTL_I915_GEM_MMAP, &tm), 0);
	volatile uint32_t *tp = (uint32_t *)(uintptr_t)tm.addr_ptr;
	CHECK_EQ(attach(vh, VGEM_FENCE_WRITE, 0, &id), 0);
	CHECK_EQ(id, 1);
	CHECK_EQ(attach(vh, 0, 0, &id2), -EBUSY);
	CHECK_EQ(eb_busy(i915, cork), 0);   /* vgem's fence: BUSY reports i915's only */
	exec_store(cork, false, target, 0xc0ffee);
	sleep_ms(100);
	CHECK_EQ(tp[0], 0);
	CHECK_EQ(eb_busy(i915, cork), 0x10000);   /* read by the corked render batch */
	CHECK(eb_busy(i915, target) != 0);
	struct drm_i915_gem_wait w = { .bo_handle = cork, .timeout_ns = 0 };
	CHECK_EQ(gtsim_ioctl(i915, DRM_IOCTL_I915_GEM_WAIT, &w), -ETIME);
	CHECK_EQ(gtsim_dmabuf_poll(dev, ex.fd, POLLIN), 0);
	CHECK_EQ(signal_fence(id), 0);
	CHECK_EQ(eb_wait(i915, target, 2000000000ll), 0);
	CHECK_EQ(eb_read32(i915, target, 0), 0xc0ffee);
	CHECK_EQ(gtsim_dmabuf_poll(dev, ex.fd, POLLIN), POLLIN);
	CHECK_EQ(signal_fence(id), -ENOENT);             /* used up */

	/* a read fence: readers go on, a writer waits */
	CHECK_EQ(attach(vh, 0, 0, &id), 0);
	CHECK_EQ(id, 2);
	exec_store(cork, false, target, 0x1111);
	CHECK_EQ(eb_wait(i915, target, 2000000000ll), 0);
	CHECK_EQ(eb_read32(i915, target, 0), 0x1111);
	exec_store(cork, true, target, 0x2222);
	sleep_ms(100);
	CHECK_EQ(tp[0], 0x1111);
	CHECK(eb_busy(i915, target) != 0);
	CHECK_EQ(signal_fence(id), 0);
	CHECK_EQ(eb_wait(i915, target, 2000000000ll), 0);
	CHECK_EQ(eb_read32(i915, target, 0), 0x2222);

	/* a fence nobody signals times out (3 s here, 10 s by default) */
	CHECK_EQ(attach(vh, VGEM_FENCE_WRITE, 0, &id), 0);
	exec_store(cork, false, target, 0x3333);
	sleep_ms(100);
	CHECK_EQ(tp[0], 0x2222);   /* corked */
	CHECK_EQ(eb_wait(i915, target, 20000000000ll), 0);
	CHECK_EQ(eb_read32(i915, target, 0), 0x3333);
	CHECK_EQ(signal_fence(id), -ETIMEDOUT);

	/* the reservation outlives the object's last handle while a dma-buf
	 * of it is open (Linux: the dma-buf holds the GEM object) */
	struct drm_mode_create_dumb d2;
	CHECK_EQ(dumb(1024, 1, 32, &d2), 0);
	struct drm_prime_handle ex2 = { .handle = d2.handle, .flags = DRM_CLOEXEC | DRM_RDWR };
	CHECK_EQ(gtsim_ioctl(vgem, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex2), 0);
	CHECK_EQ(attach(d2.handle, VGEM_FENCE_WRITE, 0, &id), 0);
	struct drm_gem_close gc = { .handle = d2.handle };
	CHECK_EQ(gtsim_ioctl(vgem, DRM_IOCTL_GEM_CLOSE, &gc), 0);   /* the object goes */
	CHECK_EQ(gtsim_dmabuf_poll(dev, ex2.fd, POLLIN), 0);        /* still fenced */
	struct drm_prime_handle im2 = { .fd = ex2.fd };
	CHECK_EQ(gtsim_ioctl(i915, DRM_IOCTL_PRIME_FD_TO_HANDLE, &im2), 0);
	exec_store(im2.handle, false, target, 0x4444);
	sleep_ms(100);
	CHECK_EQ(tp[0], 0x3333);   /* corked by the dma-buf's fence */
	CHECK_EQ(signal_fence(id), 0);
	CHECK_EQ(eb_wait(i915, target, 2000000000ll), 0);
	CHECK_EQ(tp[0], 0x4444);
	CHECK_EQ(gtsim_dmabuf_poll(dev, ex2.fd, POLLIN), POLLIN);
	close(ex2.fd);

	munmap(p, 4096);
	munmap((void *)tp, 4096);
	close(ex.fd);
	gtsim_close(vgem);
	gtsim_close(i915);
	gtsim_device_destroy(dev);
	return test_exit();
}
