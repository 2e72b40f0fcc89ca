/* Synchronisation (seed 002) and batch rules (seed 004), with batches held
 * on the GPU by MI_SEMAPHORE_WAIT until the test writes the semaphore
 * through a CPU mapping:
 *  - an object closed while busy stays alive until its request retires;
 *  - BUSY reports the reading/writing engine classes (uAPI encoding);
 *  - a BCS batch reading what RCS still writes waits for it; WAIT with a
 *    timeout gives -ETIME and 0 ns left; SET_DOMAIN for reading does not
 *    wait for GPU reads;
 *  - fences: FENCE_OUT / FENCE_IN, syncobj fence arrays, timeline points;
 *  - a privileged register write in a user batch is dropped;
 *  - a chained batch runs. */
#include <poll.h>
#include <unistd.h>

#include "eb_test.h"
#include "kernel/device.h"

static struct gtsim_file *f;
static uint32_t *sema_map;

#define SEMA_ADDR 0x700000ull

static uint32_t *cpu_map(uint32_t handle)
{
	return eb_cpu_map(f, handle);
}

/* Batch: wait until *SEMA_ADDR == 1, then store value at addr. */
static unsigned blocked_store(uint32_t *dw, uint64_t addr, uint32_t value)
{
	unsigned n = emit_semaphore_wait(dw, SEMA_ADDR, 1);
	n += emit_store(dw + n, addr, value);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	return n;
}

static int set_domain(uint32_t h, uint32_t read, uint32_t write)
{
	struct drm_i915_gem_set_domain sd = { .handle = h, .read_domains = read,
					      .write_domain = write };
	return gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd);
}

static bool fd_signaled(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, timeout_ms) == 1;
}

int main(void)
{
	eb_require_async("batches held by MI_SEMAPHORE_WAIT need asynchronous engines "
			  "(GTSIM_SYNC runs each batch inside execbuf)");
	struct gtsim_device *dev = eb_device(0, 5000, 0);
	f = gtsim_open(dev);
	uint32_t sema = eb_create(f, 4096), x = eb_create(f, 4096), y = eb_create(f, 4096);
	uint32_t z = eb_create(f, 4096), rbb = eb_create(f, 4096), bbb = eb_create(f, 4096);
	uint32_t w = eb_create(f, 4096), wbb = eb_create(f, 4096);
	sema_map = cpu_map(sema);
	CHECK(sema_map != NULL);
	if (!sema_map)
		return test_exit();
	uint32_t dw[32];

	/* RCS: blocked, then writes x; reads z; the semaphore object too. */
	unsigned n = blocked_store(dw, 0x100000, 0xaaaa);
	eb_write(f, rbb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 ro[4] = {
		{ .handle = sema, .offset = SEMA_ADDR, .flags = EXEC_OBJECT_PINNED },
		{ .handle = x, .offset = 0x100000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = z, .offset = 0x180000, .flags = EXEC_OBJECT_PINNED },
		{ .handle = rbb, .offset = 0x200000, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 reb = { .buffers_ptr = (uintptr_t)ro, .buffer_count = 4,
		.flags = I915_EXEC_RENDER | I915_EXEC_FENCE_OUT };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &reb), 0);
	int out_fd = (int)(reb.rsvd2 >> 32);
	CHECK(out_fd > 2);

	/* BCS: reads x (RCS writes it) and writes y: must wait for RCS. */
	n = emit_store(dw, 0x110000, 0xbbbb);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, bbb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 bo[3] = {
		{ .handle = x, .offset = 0x100000, .flags = EXEC_OBJECT_PINNED },
		{ .handle = y, .offset = 0x110000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bbb, .offset = 0x210000, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, bo, 3, I915_EXEC_BLT, 0), 0);

	/* VCS: waits for RCS's out-fence (FENCE_IN), writes w. */
	n = emit_store(dw, 0x120000, 0xcccc);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, wbb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 vo[2] = {
		{ .handle = w, .offset = 0x120000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = wbb, .offset = 0x220000, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 veb = { .buffers_ptr = (uintptr_t)vo, .buffer_count = 2,
		.flags = I915_EXEC_BSD | I915_EXEC_FENCE_IN, .rsvd2 = (uint32_t)out_fd };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &veb), 0);

	usleep(50 * 1000);
	/* Everything waits on the semaphore (read through CPU maps: PREAD
	 * would wait for the GPU's writes). */
	uint32_t *xm = cpu_map(x), *ym = cpu_map(y), *wm = cpu_map(w);
	CHECK(xm && ym && wm);
	if (!xm || !ym || !wm)
		return test_exit();
	CHECK_EQ(xm[0], 0);
	CHECK_EQ(ym[0], 0);
	CHECK_EQ(wm[0], 0);
	CHECK(!fd_signaled(out_fd, 0));
	/* BUSY: x written by RCS (class 0: low word 1) and read by RCS and BCS
	 * (class 1); y written by BCS (2 | bit 17); z read by RCS only. */
	CHECK_EQ(eb_busy(f, x), 0x00030001);
	CHECK_EQ(eb_busy(f, y), 0x00020002);
	CHECK_EQ(eb_busy(f, z), 0x00010000);
	CHECK_EQ(eb_busy(f, w), 0x00040003);
	/* WAIT: timeout, time left 0; bad arguments. */
	struct drm_i915_gem_wait wt = { .bo_handle = x, .timeout_ns = 10 * 1000 * 1000 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_WAIT, &wt), -ETIME);
	CHECK_EQ(wt.timeout_ns, 0);
	CHECK_EQ(eb_wait(f, z, 0), -ETIME);
	wt = (struct drm_i915_gem_wait){ .bo_handle = x, .flags = 1 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_WAIT, &wt), -EINVAL);
	CHECK_EQ(eb_wait(f, 999, 0), -ENOENT);
	/* SET_DOMAIN: reading z waits only for GPU writes: none, so at once. */
	CHECK_EQ(set_domain(z, I915_GEM_DOMAIN_CPU, 0), 0);
	CHECK_EQ(set_domain(z, I915_GEM_DOMAIN_RENDER, 0), -EINVAL);
	CHECK_EQ(set_domain(z, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_GTT), -EINVAL);
	CHECK_EQ(set_domain(999, I915_GEM_DOMAIN_CPU, 0), -ENOENT);
	struct drm_i915_gem_sw_finish sf = { .handle = 999 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_SW_FINISH, &sf), -ENOENT);

	/* Lifetime: close x while busy; it lives on until retired. */
	uint64_t objects = dev->object_count;
	CHECK_EQ(eb_close(f, x), 0);
	CHECK_EQ(dev->object_count, objects);

	/* Release the GPU. */
	__atomic_store_n(&sema_map[0], 1, __ATOMIC_SEQ_CST);
	CHECK_EQ(eb_wait(f, y, 5ll * 1000000000), 0);
	CHECK_EQ(eb_wait(f, w, 5ll * 1000000000), 0);
	CHECK_EQ(eb_read32(f, y, 0), 0xbbbb);
	CHECK_EQ(eb_read32(f, w, 0), 0xcccc);
	CHECK(fd_signaled(out_fd, 2000));
	close(out_fd);
	/* SET_DOMAIN for writing waits for every use; then nothing is busy. */
	CHECK_EQ(set_domain(z, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU), 0);
	CHECK_EQ(eb_busy(f, z), 0);
	gtsim_device_idle(dev);
	CHECK_EQ(dev->object_count, objects - 1);

	/* Syncobj fence array: signal, then wait; timeline point 5. */
	struct drm_syncobj_create sc = { 0 }, tc = { 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_SYNCOBJ_CREATE, &sc), 0);
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_SYNCOBJ_CREATE, &tc), 0);
	struct drm_i915_gem_exec_fence fe = { .handle = sc.handle, .flags = I915_EXEC_FENCE_SIGNAL };
	struct drm_i915_gem_execbuffer2 feb = { .buffers_ptr = (uintptr_t)&vo[1], .buffer_count = 1,
		.flags = I915_EXEC_FENCE_ARRAY, .cliprects_ptr = (uintptr_t)&fe, .num_cliprects = 1 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &feb), 0);
	fe.flags = I915_EXEC_FENCE_WAIT;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &feb), 0);
	uint32_t handles[1] = { sc.handle };
	struct drm_syncobj_wait sw = { .handles = (uintptr_t)handles, .count_handles = 1,
				       .timeout_nsec = INT64_MAX };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_SYNCOBJ_WAIT, &sw), 0);
	uint64_t point = 5;
	struct drm_i915_gem_exec_fence tfe = { .handle = tc.handle, .flags = I915_EXEC_FENCE_SIGNAL };
	struct drm_i915_gem_execbuffer_ext_timeline_fences tl = {
		.base = { .name = DRM_I915_GEM_EXECBUFFER_EXT_TIMELINE_FENCES },
		.fence_count = 1, .handles_ptr = (uintptr_t)&tfe, .values_ptr = (uintptr_t)&point,
	};
	struct drm_i915_gem_execbuffer2 teb = { .buffers_ptr = (uintptr_t)&vo[1], .buffer_count = 1,
		.flags = I915_EXEC_USE_EXTENSIONS, .cliprects_ptr = (uintptr_t)&tl };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &teb), 0);
	uint32_t th[1] = { tc.handle };
	uint64_t points[1] = { 5 };
	struct drm_syncobj_timeline_wait tw = { .handles = (uintptr_t)th, .points = (uintptr_t)points,
		.count_handles = 1, .timeout_nsec = INT64_MAX };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw), 0);
	/* Waiting on a point never submitted: -EINVAL. */
	tfe.flags = I915_EXEC_FENCE_WAIT;
	point = 9;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &teb), -EINVAL);

	/* Seed 004: a privileged register (RCS NOPID, 0x2094) loaded from a
	 * user batch is dropped; the store after it still runs. */
	n = 0;
	dw[n++] = MI_LOAD_REGISTER_IMM1;
	dw[n++] = 0x2094;
	dw[n++] = 0x1234;
	dw[n++] = (0x24u << 23) | 2u;    /* MI_STORE_REGISTER_MEM */
	dw[n++] = 0x2094;
	dw[n++] = 0x130000;
	dw[n++] = 0;
	n += emit_store(dw + n, 0x130004, 0x5a5a);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	uint32_t pbb = eb_create(f, 4096), p = eb_create(f, 4096);
	eb_write(f, pbb, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 po[2] = {
		{ .handle = p, .offset = 0x130000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = pbb, .offset = 0x230000, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, po, 2, 0, 0), 0);
	CHECK_EQ(eb_wait(f, p, -1), 0);
	CHECK_EQ(eb_read32(f, p, 0), 0);
	CHECK_EQ(eb_read32(f, p, 4), 0x5a5a);

	/* A chained batch: A jumps (first level) to B, B stores and ends. */
	uint32_t a = eb_create(f, 4096), b = eb_create(f, 4096), c = eb_create(f, 4096);
	const uint32_t chain[4] = { MI_BATCH_BUFFER_START_GEN8 | MI_BB_START_PPGTT, 0x260000, 0,
				    MI_NOOP };
	eb_write(f, a, 0, chain, sizeof(chain));
	n = emit_store(dw, 0x140000, 0xc4a1);
	dw[n++] = MI_BATCH_BUFFER_END;
	dw[n++] = MI_NOOP;
	eb_write(f, b, 0, dw, n * 4);
	struct drm_i915_gem_exec_object2 co[3] = {
		{ .handle = c, .offset = 0x140000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = b, .offset = 0x260000, .flags = EXEC_OBJECT_PINNED },
		{ .handle = a, .offset = 0x250000, .flags = EXEC_OBJECT_PINNED },
	};
	CHECK_EQ(eb_exec(f, co, 3, 0, 0), 0);
	CHECK_EQ(eb_wait(f, c, -1), 0);
	CHECK_EQ(eb_read32(f, c, 0), 0xc4a1);

	gtsim_close(f);
	gtsim_device_destroy(dev);
	return test_exit();
}
