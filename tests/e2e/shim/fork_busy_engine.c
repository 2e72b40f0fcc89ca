/* fork right after a batch: the child's engines run. A request is done
 * at its user interrupt, while the engine's thread still runs the ring's
 * last commands (the breadcrumb's tail); the fork's quiesce once let the
 * fork happen then, and the child's copy of the engine was marked
 * running with no thread to run it: the child's batches never ran and
 * its reset waited forever (IGT gem_exec_fence syncobj-channel hung about
 * one run in 12 under load). Here the parent forks ROUNDS times right
 * after submitting a batch; each child stores a dword with a batch of its
 * own and waits for it (5 s at most), the parent checks every child's
 * status. Oracle: i915 (a fork child's batch always runs). */
#include "test.h"
#include "shim_gem.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 60

static int child(int fd, uint32_t target, uint32_t bb)
{
	uint32_t *map = shim_gem_cpu_map(fd, bb);
	if (!map)
		return 10;
	const uint32_t dw[] = { MI_STORE_DWORD_IMM_GEN8, 0x400000, 0, 0x600d, MI_BATCH_BUFFER_END, 0 };
	for (unsigned i = 0; i < 6; i++)
		map[i] = dw[i];
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = target, .offset = 0x400000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = 0x500000, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)objs, .buffer_count = 2 };
	if (ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb))
		return 11;
	struct drm_i915_gem_wait w = { .bo_handle = target, .timeout_ns = 5000000000ll };
	if (ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w))
		return 12;   /* the child's engine never ran the batch */
	uint32_t v = 0;
	struct drm_i915_gem_pread r = { .handle = target, .size = 4, .data_ptr = (uintptr_t)&v };
	if (ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &r))
		return 13;
	return v == 0x600d ? 0 : 14;
}

int main(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	uint32_t bb = shim_gem_create(fd, 4096), target = shim_gem_create(fd, 4096);
	uint32_t child_bb = shim_gem_create(fd, 4096);
	CHECK(bb && target && child_bb);
	uint32_t bbe[2] = { MI_BATCH_BUFFER_END, 0 };
	struct drm_i915_gem_pwrite pw = { .handle = bb, .size = 8, .data_ptr = (uintptr_t)bbe };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), 0);
	struct drm_i915_gem_exec_object2 obj = { .handle = bb };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&obj, .buffer_count = 1 };
	unsigned bad = 0;
	for (int round = 0; round < ROUNDS; round++) {
		CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);
		pid_t pid = fork();
		CHECK(pid >= 0);
		if (pid == 0)
			_exit(child(fd, target, child_bb));
		int status = -1;
		CHECK_EQ(waitpid(pid, &status, 0), pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			bad++;
			fprintf(stderr, "round %d: child status 0x%x\n", round, status);
		}
	}
	CHECK_EQ(bad, 0);
	return test_exit();
}
