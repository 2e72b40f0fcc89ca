/* fork() while a request waits for a fence nobody has signaled yet (IGT's
 * corks: gem_exec_schedule pi-ringfull forks with a ring full of requests
 * held by a vgem fence only the parent releases). Linux forks at once; the
 * shim used to wait for the device to go idle first, so fork waited for
 * the cork (here: forever). Now fork waits only for work that can run
 * (gtsim_device_quiesce): the batch held by a sw_sync fence (IGT's
 * lib/sw_sync.c interface) stays queued across the fork, runs once the
 * parent signals the timeline, and its store lands. An alarm turns the
 * old hang into a failure. */
#include "test.h"
#include "shim_gem.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct sw_fence_data {
	uint32_t value;
	char name[32];
	int32_t fence;
};
#define SW_CREATE_FENCE _IOWR('W', 0, struct sw_fence_data)
#define SW_INC _IOW('W', 1, uint32_t)

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
	alarm(60);
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	int tl = open("/sys/kernel/debug/sync/sw_sync", O_RDWR);
	CHECK(fd >= 0 && tl >= 0);
	struct sw_fence_data d = { .value = 1 };
	CHECK_EQ(ioctl(tl, SW_CREATE_FENCE, &d), 0);

	uint32_t target = shim_gem_create(fd, 4096), bb = shim_gem_create(fd, 4096);
	uint32_t *bb_map = shim_gem_cpu_map(fd, bb), *target_map = shim_gem_cpu_map(fd, target);
	CHECK(bb_map && target_map);
	if (!bb_map || !target_map)
		return test_exit();
	const uint32_t dw[] = { MI_STORE_DWORD_IMM_GEN8, 0x200000, 0, 0x2a, MI_BATCH_BUFFER_END };
	for (unsigned i = 0; i < sizeof(dw) / sizeof(dw[0]); i++)
		bb_map[i] = dw[i];
	struct drm_i915_gem_exec_object2 objs[2] = {
		{ .handle = target, .offset = 0x200000, .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = bb, .offset = 0x300000, .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)objs, .buffer_count = 2,
					       .flags = I915_EXEC_FENCE_IN, .rsvd2 = (uint32_t)d.fence };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb), 0);

	double t0 = now_s();
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	double took = now_s() - t0;
	fprintf(stderr, "fork with a corked request took %.3f s\n", took);
	CHECK(pid > 0);
	CHECK(took < 5.0);
	int status = -1;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK_EQ(status, 0);
	CHECK_EQ(__atomic_load_n(&target_map[0], __ATOMIC_SEQ_CST), 0);   /* still held */

	uint32_t one = 1;
	CHECK_EQ(ioctl(tl, SW_INC, &one), 0);
	struct drm_i915_gem_wait w = { .bo_handle = target, .timeout_ns = 10000000000ll };
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), 0);
	CHECK_EQ(target_map[0], 0x2a);
	close(d.fence);
	close(tl);
	close(fd);
	return test_exit();
}
