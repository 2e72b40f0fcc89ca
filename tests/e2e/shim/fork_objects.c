/* A fork child continues with every GEM object of its parent, however
 * many there are (src/shim/fork.c): 1100 objects of 128 KiB (each in a
 * memfd of its own, above the slab limit), each holding its index; the
 * child reads every index back and runs a batch in the last object. IGT's
 * gem_softpin evict-single-offset forks with 1025 such objects; the copy
 * table once held 1024 and the child got a fresh device (-ENOENT).
 * The child's device has engine threads of its own: a batch it submits
 * that waits (MI_SEMAPHORE_WAIT on a dword the child sets afterwards
 * through its CPU map) does not hold its execbuf, which returns at once
 * as in any process (i915); the child then releases it and waits. The
 * child's engines once ran inside execbuf, which never returned here
 * (IGT gem_sync's forked spinners).
 * An object closed while its CPU mapping lives on is no object of the
 * device any more: its memory stays shared with the child (one memory, as
 * on i915): the parent sees what the child writes there (IGT gem_mmap_gtt
 * ptrace); a live object's mapping is the child's own copy. */
#include "test.h"
#include "shim_gem.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define COUNT 1100
#define SIZE (128u << 10)

static int child(int fd, const uint32_t *handles)
{
	for (unsigned i = 0; i < COUNT; i++) {
		uint32_t v = ~0u;
		struct drm_i915_gem_pread r = { .handle = handles[i], .offset = 0, .size = 4,
						.data_ptr = (uintptr_t)&v };
		if (ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &r) || v != i)
			return 10;
	}
	struct drm_i915_gem_exec_object2 obj = { .handle = handles[COUNT - 1] };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&obj, .buffer_count = 1,
					       .batch_start_offset = 64 };
	if (ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb))
		return 11;

	uint32_t sema = shim_gem_create(fd, 4096), bb = shim_gem_create(fd, 4096);
	uint32_t *sema_map = shim_gem_cpu_map(fd, sema), *bb_map = shim_gem_cpu_map(fd, bb);
	if (!sema || !bb || !sema_map || !bb_map)
		return 12;
	shim_sema_batch(bb_map, 0x200000, 0x200004, 0x2a);
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = sema, .offset = 0x200000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 wait_eb = { .buffers_ptr = (uintptr_t)objs,
						    .buffer_count = 2 };
	if (ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &wait_eb))
		return 13;
	struct drm_i915_gem_busy busy = { .handle = bb };
	if (ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &busy) || !busy.busy)
		return 14;    /* still waiting on its semaphore */
	__atomic_store_n(&sema_map[0], 1, __ATOMIC_SEQ_CST);
	struct drm_i915_gem_wait w = { .bo_handle = bb, .timeout_ns = 5000000000ll };
	if (ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w))
		return 15;
	return __atomic_load_n(&sema_map[1], __ATOMIC_SEQ_CST) == 0x2a ? 0 : 16;
}

int main(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	uint32_t *handles = calloc(COUNT, sizeof(*handles));
	for (unsigned i = 0; i < COUNT; i++) {
		handles[i] = shim_gem_create(fd, SIZE);
		uint32_t v = i;
		struct drm_i915_gem_pwrite w = { .handle = handles[i], .offset = 0, .size = 4,
						 .data_ptr = (uintptr_t)&v };
		CHECK(handles[i] && !ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &w));
	}
	uint32_t bbe[2] = { MI_BATCH_BUFFER_END, 0 };
	struct drm_i915_gem_pwrite w = { .handle = handles[COUNT - 1], .offset = 64, .size = 8,
					 .data_ptr = (uintptr_t)bbe };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &w), 0);

	uint32_t closed = shim_gem_create(fd, 4096), live = shim_gem_create(fd, 4096);
	uint32_t *closed_map = shim_gem_cpu_map(fd, closed), *live_map = shim_gem_cpu_map(fd, live);
	CHECK(closed_map && live_map);
	struct drm_gem_close gc = { .handle = closed };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc), 0);
	closed_map[0] = 1;
	live_map[0] = 1;

	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		closed_map[0] = 2;
		live_map[0] = 2;
		_exit(child(fd, handles));
	}
	int status = -1;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	CHECK_EQ(closed_map[0], 2);   /* shared: the child's write */
	CHECK_EQ(live_map[0], 1);     /* private to each side */
	free(handles);
	return test_exit();
}
