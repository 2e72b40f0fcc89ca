/* A fork child's privileges are its own, on its parent's DRM file
 * (docs/shared-device.md "Fork sharing"): the kernel's capable() checks
 * the calling task, not the file's opener. A root parent opens card0 and
 * creates a context; a child that dropped root (IGT's igt_drop_root:
 * setgid, setuid) is refused a priority above the default on it
 * (CONTEXT_SETPARAM PRIORITY: -EPERM without CAP_SYS_NICE, i915's
 * set_priority), and reads a reset count of 0 (GET_RESET_STATS: the count
 * only for CAP_SYS_ADMIN); the parent, still root, may raise it. Oracle:
 * those i915 rules (i915_gem_context.c, i915_gem_context_reset_stats_ioctl). */
#include <drm.h>
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

#define CARD "/dev/dri/card0"

static int io(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static int set_priority(int fd, uint32_t ctx, int64_t prio)
{
	struct drm_i915_gem_context_param p = { .ctx_id = ctx,
						.param = I915_CONTEXT_PARAM_PRIORITY,
						.value = (uint64_t)prio };
	return io(fd, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &p);
}

/* Exit status 0: refused as a non-root caller. */
static int unprivileged_child(int fd, uint32_t ctx)
{
	if (setgid(65534) || setuid(65534))
		return 1;
	if (set_priority(fd, ctx, 1) != -EPERM)
		return 2;
	if (set_priority(fd, ctx, -1))
		return 3;   /* lowering needs no privilege */
	struct drm_i915_reset_stats rs = { .ctx_id = ctx };
	if (io(fd, DRM_IOCTL_I915_GET_RESET_STATS, &rs) || rs.reset_count != 0)
		return 4;
	return 0;
}

int main(void)
{
	if (geteuid() != 0)
		test_skip("needs root to drop it");
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		test_skip("no card0");
	struct drm_i915_gem_context_create cc = { 0 };
	CHECK_EQ(io(fd, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &cc), 0);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		_exit(unprivileged_child(fd, cc.ctx_id));
	int st = -1;
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 0);
	CHECK_EQ(set_priority(fd, cc.ctx_id, 1), 0);   /* root */
	close(fd);
	return test_exit();
}
