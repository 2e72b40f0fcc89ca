/* A program a fork child execs reaches its parent's device
 * (docs/shared-device.md "Fork sharing"): on i915 every process of the
 * machine has the one device, so a flink name the parent made opens the
 * same object in any program. The parent opens card0, creates an object
 * holding VALUE and flinks it; a fork child execs this program with the
 * name, which opens card0 anew, GEM_OPENs the name and reads VALUE
 * (PREAD). Oracle: flink names are per device (drm_gem_flink_ioctl), the
 * value the one written. */
#include <drm.h>
#include <errno.h>
#include <fcntl.h>
#include <i915_drm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shim_gem.h"
#include "test.h"

#define CARD "/dev/dri/card0"
#define VALUE 0xe1ec0de5u

static int io(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

/* The exec'd program: exit status 0 when name opens an object holding VALUE. */
static int read_by_name(uint32_t name)
{
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 1;
	struct drm_gem_open o = { .name = name };
	if (io(fd, DRM_IOCTL_GEM_OPEN, &o))
		return 2;
	uint32_t v = 0;
	struct drm_i915_gem_pread pr = { .handle = o.handle, .size = 4, .data_ptr = (uintptr_t)&v };
	if (io(fd, DRM_IOCTL_I915_GEM_PREAD, &pr))
		return 3;
	return v == VALUE ? 0 : 4;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "read"))
		return read_by_name((uint32_t)strtoul(argv[2], NULL, 0));
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		test_skip("no card0");
	uint32_t h = shim_gem_create(fd, 4096);
	CHECK(h != 0);
	uint32_t v = VALUE;
	struct drm_i915_gem_pwrite pw = { .handle = h, .size = 4, .data_ptr = (uintptr_t)&v };
	CHECK_EQ(io(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), 0);
	struct drm_gem_flink fl = { .handle = h };
	CHECK_EQ(io(fd, DRM_IOCTL_GEM_FLINK, &fl), 0);
	char name[16];
	snprintf(name, sizeof(name), "%u", fl.name);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "read", name, (char *)NULL);
		_exit(100);
	}
	int st = -1;
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 0);
	close(fd);
	return test_exit();
}
