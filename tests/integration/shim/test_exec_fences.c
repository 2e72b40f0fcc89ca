/* Explicit fences across execbuf and the sync unit, through the interposer
 * (libgtsim-shim.so linked in, as under LD_PRELOAD): a batch held on an
 * MI_SEMAPHORE_WAIT gives an out-fence (sync_file) that is not signaled
 * until the CPU writes the semaphore; a batch on another engine that takes
 * it as in-fence does not run before; syncobjs from I915_EXEC_FENCE_ARRAY
 * and timeline points from the TIMELINE_FENCES extension signal after.
 * Oracles: i915 uAPI semantics (i915_drm.h, drm.h), the MI_SEMAPHORE_WAIT
 * and MI_STORE_DWORD_IMM layouts of the Broadwell PRM (genxml gen8:
 * opcodes 0x1c and 0x20, 4 dwords each). */
#include <errno.h>
#include <fcntl.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <i915_drm.h>

#include "test.h"

#define SEM_ADDR    0x100000ull
#define BATCH_A     0x200000ull
#define BATCH_B     0x300000ull
#define TARGET_ADDR 0x400000ull
#define BATCH_C     0x500000ull

#define MI_BATCH_BUFFER_END (0x0au << 23)
/* MI_SEMAPHORE_WAIT, polling mode, SAD == SDD, PPGTT address. */
#define MI_SEMAPHORE_WAIT_POLL_EQ ((0x1cu << 23) | (1u << 15) | (4u << 12) | 2)
#define MI_STORE_DWORD_IMM_GEN8 ((0x20u << 23) | 2)

static int fd;

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint32_t gem_create(void)
{
	struct drm_i915_gem_create c = { .size = 4096 };
	return ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c) ? 0 : c.handle;
}

static void gem_write(uint32_t handle, const void *data, uint64_t size)
{
	struct drm_i915_gem_pwrite pw = { .handle = handle, .size = size,
					  .data_ptr = (uintptr_t)data };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), 0);
}

static uint32_t read_u32(uint32_t handle)
{
	uint32_t v = 0xdeadbeef;
	struct drm_i915_gem_pread pr = { .handle = handle, .size = 4, .data_ptr = (uintptr_t)&v };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), 0);
	return v;
}

static uint32_t syncobj_create(void)
{
	struct drm_syncobj_create c = { 0 };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c), 0);
	return c.handle;
}

static int syncobj_wait(uint32_t handle, int64_t timeout_ns)
{
	struct drm_syncobj_wait w = { .handles = (uintptr_t)&handle, .count_handles = 1,
				      .timeout_nsec = now_ns() + timeout_ns };
	return ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w) ? -errno : 0;
}

static volatile uint32_t *map_wb(uint32_t handle)
{
	struct drm_i915_gem_mmap_offset mo = { .handle = handle, .flags = I915_MMAP_OFFSET_WB };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), 0);
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, mo.offset);
	CHECK(p != MAP_FAILED);
	return p == MAP_FAILED ? NULL : p;
}

static int fd_signaled(int sync_fd)
{
	struct pollfd p = { .fd = sync_fd, .events = POLLIN };
	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static struct drm_i915_gem_exec_object2 pinned(uint32_t handle, uint64_t addr, bool write)
{
	return (struct drm_i915_gem_exec_object2){ .handle = handle, .offset = addr,
		.flags = EXEC_OBJECT_PINNED | (write ? EXEC_OBJECT_WRITE : 0) };
}

int main(void)
{
	fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	if (fd < 0)
		return test_exit();

	uint32_t sem = gem_create(), batch_a = gem_create(), batch_b = gem_create();
	uint32_t target = gem_create(), batch_c = gem_create();
	uint32_t zero = 0;
	gem_write(sem, &zero, 4);
	gem_write(target, &zero, 4);

	/* Batch A waits until the semaphore dword is 1. */
	const uint32_t a[] = { MI_SEMAPHORE_WAIT_POLL_EQ, 1, (uint32_t)SEM_ADDR,
			       (uint32_t)(SEM_ADDR >> 32), MI_BATCH_BUFFER_END, 0 };
	gem_write(batch_a, a, sizeof(a));
	struct drm_i915_gem_exec_object2 objs_a[] = { pinned(sem, SEM_ADDR, false),
						      pinned(batch_a, BATCH_A, false) };
	struct drm_i915_gem_execbuffer2 eb_a = {
		.buffers_ptr = (uintptr_t)objs_a, .buffer_count = 2, .batch_len = sizeof(a),
		.flags = I915_EXEC_RENDER | I915_EXEC_NO_RELOC | I915_EXEC_FENCE_OUT,
	};
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb_a), 0);
	int fence_a = (int)(eb_a.rsvd2 >> 32);
	CHECK(fence_a >= 0);
	usleep(20000);
	CHECK(!fd_signaled(fence_a));

	/* The same fence in a syncobj (IMPORT_SYNC_FILE): a wait times out. */
	uint32_t s_a = syncobj_create();
	struct drm_syncobj_handle imp = { .handle = s_a, .fd = fence_a,
		.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &imp), 0);
	CHECK_EQ(syncobj_wait(s_a, 10000000), -ETIME);

	/* Batch B, on the blitter, stores 0xb0b once A's fence signals, and
	 * signals syncobj s_b (FENCE_ARRAY). */
	const uint32_t b[] = { MI_STORE_DWORD_IMM_GEN8, (uint32_t)TARGET_ADDR,
			       (uint32_t)(TARGET_ADDR >> 32), 0xb0b, MI_BATCH_BUFFER_END, 0 };
	gem_write(batch_b, b, sizeof(b));
	uint32_t s_b = syncobj_create();
	struct drm_i915_gem_exec_fence signal_b = { .handle = s_b, .flags = I915_EXEC_FENCE_SIGNAL };
	struct drm_i915_gem_exec_object2 objs_b[] = { pinned(target, TARGET_ADDR, true),
						      pinned(batch_b, BATCH_B, false) };
	struct drm_i915_gem_execbuffer2 eb_b = {
		.buffers_ptr = (uintptr_t)objs_b, .buffer_count = 2, .batch_len = sizeof(b),
		.cliprects_ptr = (uintptr_t)&signal_b, .num_cliprects = 1,
		.flags = I915_EXEC_BLT | I915_EXEC_NO_RELOC | I915_EXEC_FENCE_IN |
			 I915_EXEC_FENCE_ARRAY,
		.rsvd2 = (uint32_t)fence_a,
	};
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb_b), 0);
	usleep(20000);
	CHECK_EQ(syncobj_wait(s_b, 0), -ETIME);

	/* B has not run: look through a CPU mapping (PREAD would wait for B,
	 * which waits for A, which waits for us, as on i915). Then release A
	 * through a CPU mapping of the semaphore (PWRITE would wait for A). */
	volatile uint32_t *target_map = map_wb(target);
	volatile uint32_t *sem_map = map_wb(sem);
	if (!target_map || !sem_map)
		return test_exit();
	CHECK_EQ(target_map[0], 0);
	sem_map[0] = 1;
	CHECK_EQ(syncobj_wait(s_b, 2000000000), 0);
	CHECK_EQ(read_u32(target), 0xb0b);
	CHECK(fd_signaled(fence_a));
	CHECK_EQ(syncobj_wait(s_a, 0), 0);
	struct sync_file_info info = { 0 };
	CHECK_EQ(ioctl(fence_a, SYNC_IOC_FILE_INFO, &info), 0);
	CHECK_EQ(info.status, 1);

	/* The same order many times, without pauses: B waits for A on the
	 * GPU (a semaphore on A's timeline), and its completion implies A's,
	 * so A's sync file polls readable once s_b signaled (on i915 a
	 * fence reads as signaled once its seqno is in memory); the engines'
	 * interrupts come in either order (failed about one run in 18 under
	 * load when A's fence was signaled only by its own engine). */
	for (uint32_t k = 2; k < 34; k++) {
		uint32_t wait_k[] = { MI_SEMAPHORE_WAIT_POLL_EQ, k, (uint32_t)SEM_ADDR,
				      (uint32_t)(SEM_ADDR >> 32), MI_BATCH_BUFFER_END, 0 };
		gem_write(batch_a, wait_k, sizeof(wait_k));
		eb_a.rsvd2 = 0;
		CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb_a), 0);
		int fence_k = (int)(eb_a.rsvd2 >> 32);
		eb_b.rsvd2 = (uint32_t)fence_k;
		CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb_b), 0);
		sem_map[0] = k;
		CHECK_EQ(syncobj_wait(s_b, 2000000000), 0);
		CHECK(fd_signaled(fence_k));
		close(fence_k);
	}
	munmap((void *)sem_map, 4096);
	munmap((void *)target_map, 4096);

	/* Timeline point 7 signaled by batch C (TIMELINE_FENCES extension). */
	const uint32_t c[] = { MI_BATCH_BUFFER_END, 0 };
	gem_write(batch_c, c, sizeof(c));
	uint32_t tl = syncobj_create();
	uint64_t point = 7;
	struct drm_i915_gem_exec_fence signal_tl = { .handle = tl, .flags = I915_EXEC_FENCE_SIGNAL };
	struct drm_i915_gem_execbuffer_ext_timeline_fences ext = {
		.base = { .name = DRM_I915_GEM_EXECBUFFER_EXT_TIMELINE_FENCES },
		.fence_count = 1, .handles_ptr = (uintptr_t)&signal_tl,
		.values_ptr = (uintptr_t)&point,
	};
	struct drm_i915_gem_exec_object2 objs_c[] = { pinned(batch_c, BATCH_C, false) };
	struct drm_i915_gem_execbuffer2 eb_c = {
		.buffers_ptr = (uintptr_t)objs_c, .buffer_count = 1, .batch_len = sizeof(c),
		.cliprects_ptr = (uintptr_t)&ext,
		.flags = I915_EXEC_RENDER | I915_EXEC_NO_RELOC | I915_EXEC_USE_EXTENSIONS,
	};
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb_c), 0);
	struct drm_syncobj_timeline_wait tw = { .handles = (uintptr_t)&tl,
		.points = (uintptr_t)&point, .count_handles = 1,
		.timeout_nsec = now_ns() + 2000000000 };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw), 0);
	uint64_t queried = 0;
	struct drm_syncobj_timeline_array q = { .handles = (uintptr_t)&tl,
		.points = (uintptr_t)&queried, .count_handles = 1 };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &q), 0);
	CHECK_EQ(queried, 7);

	/* Waiting on a syncobj that holds no fence: -EINVAL; on an unknown
	 * handle: -ENOENT (i915's errnos). */
	uint32_t empty = syncobj_create();
	struct drm_i915_gem_exec_fence wait_empty = { .handle = empty, .flags = I915_EXEC_FENCE_WAIT };
	eb_c.flags = I915_EXEC_RENDER | I915_EXEC_NO_RELOC | I915_EXEC_FENCE_ARRAY;
	eb_c.cliprects_ptr = (uintptr_t)&wait_empty;
	eb_c.num_cliprects = 1;
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb_c), -1);
	CHECK_EQ(errno, EINVAL);
	wait_empty.handle = 999;
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb_c), -1);
	CHECK_EQ(errno, ENOENT);

	close(fence_a);
	close(fd);
	return test_exit();
}
