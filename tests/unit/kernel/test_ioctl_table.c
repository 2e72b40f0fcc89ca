/* The ioctl table (src/kernel/ioctl.c) against the uAPI headers: every
 * DRM core and i915 ioctl the model implements is routed to a handler (a
 * NULL argument gets -EFAULT from the dispatcher, not -ENOTTY), the i915
 * ioctls it lists as not implemented answer -ENOTTY and are reported once
 * by name under trace category "stub", and a number that is no DRM/i915
 * ioctl answers -ENOTTY, reported as unknown. Older, shorter structs that
 * share a number (GEM_MMAP without flags, MMAP_GTT, CONTEXT_CREATE) reach
 * the handler zero-extended. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/trace.h"
#include "kernel_test.h"

static const unsigned long implemented[] = {
	DRM_IOCTL_VERSION, DRM_IOCTL_GET_UNIQUE, DRM_IOCTL_GEM_CLOSE, DRM_IOCTL_GEM_FLINK,
	DRM_IOCTL_GEM_OPEN, DRM_IOCTL_GET_CAP, DRM_IOCTL_SET_CLIENT_CAP,
	DRM_IOCTL_PRIME_HANDLE_TO_FD, DRM_IOCTL_PRIME_FD_TO_HANDLE,
	DRM_IOCTL_SYNCOBJ_CREATE, DRM_IOCTL_SYNCOBJ_DESTROY, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD,
	DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, DRM_IOCTL_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_RESET,
	DRM_IOCTL_SYNCOBJ_SIGNAL, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, DRM_IOCTL_SYNCOBJ_QUERY,
	DRM_IOCTL_SYNCOBJ_TRANSFER, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
	DRM_IOCTL_I915_GETPARAM, DRM_IOCTL_I915_SETPARAM, DRM_IOCTL_I915_GEM_EXECBUFFER2,
	DRM_IOCTL_I915_GEM_BUSY, DRM_IOCTL_I915_GEM_CREATE, DRM_IOCTL_I915_GEM_PREAD,
	DRM_IOCTL_I915_GEM_PWRITE, DRM_IOCTL_I915_GEM_MMAP, DRM_IOCTL_I915_GEM_SET_DOMAIN,
	DRM_IOCTL_I915_GEM_SW_FINISH, DRM_IOCTL_I915_GEM_SET_TILING,
	DRM_IOCTL_I915_GEM_GET_TILING, DRM_IOCTL_I915_GEM_GET_APERTURE,
	DRM_IOCTL_I915_GEM_MMAP_GTT, DRM_IOCTL_I915_GEM_MMAP_OFFSET, DRM_IOCTL_I915_GEM_MADVISE,
	DRM_IOCTL_I915_GEM_WAIT, DRM_IOCTL_I915_GEM_CONTEXT_CREATE,
	DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY,
	DRM_IOCTL_I915_GEM_SET_CACHING, DRM_IOCTL_I915_GEM_GET_CACHING, DRM_IOCTL_I915_REG_READ,
	DRM_IOCTL_I915_GET_RESET_STATS, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM,
	DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, DRM_IOCTL_I915_QUERY, DRM_IOCTL_I915_GEM_VM_CREATE,
	DRM_IOCTL_I915_GEM_VM_DESTROY, DRM_IOCTL_I915_GEM_CREATE_EXT, DRM_IOCTL_I915_GEM_USERPTR,
};

/* Every i915 ioctl of the table has a handler now (GEM_USERPTR was the
 * last listed without one); unknown numbers are still reported. */

static int count(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

int main(void)
{
	char path[] = "/tmp/gtsim-test-ioctl-tableXXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		test_skip("mkstemp failed");
	setenv("GTSIM_TRACE", "stub", 1);
	setenv("GTSIM_TRACE_FILE", path, 1);
	struct gtsim_device *dev = test_device(0, 0);
	struct gtsim_file *f = gtsim_open(dev);
	CHECK(f != NULL);

	for (size_t i = 0; i < sizeof(implemented) / sizeof(implemented[0]); i++)
		if (gtsim_ioctl(f, implemented[i], NULL) != -EFAULT) {
			fprintf(stderr, "ioctl nr 0x%x: not routed to a handler\n",
				(unsigned)_IOC_NR(implemented[i]));
			CHECK(0);
		}
	/* THROTTLE takes no argument: an idle device's file has nothing to
	 * wait for (i915_gem_throttle_ioctl returns 0). */
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_THROTTLE, NULL), 0);
	/* 0x3f above DRM_COMMAND_BASE (i915's last is 0x3c) and 0x20 of the
	 * core (a legacy DRI1 number): no ioctl of the model. */
	struct drm_i915_getparam gp = { 0 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOWR(DRM_COMMAND_BASE + 0x3f, struct drm_i915_getparam), &gp),
		 -ENOTTY);   /* twice, reported once */
	CHECK_EQ(gtsim_ioctl(f, DRM_IOWR(DRM_COMMAND_BASE + 0x3f, struct drm_i915_getparam), &gp),
		 -ENOTTY);
	CHECK_EQ(gtsim_ioctl(f, DRM_IOWR(0x20, struct drm_i915_getparam), &gp), -ENOTTY);

	/* A GEM_MMAP struct without its flags (the old 40-byte layout) is
	 * zero-extended: a CPU map of the object. */
	struct drm_i915_gem_create c = { .size = 4096 };
	CHECK_EQ(gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &c), 0);
	struct drm_i915_gem_mmap old = { .handle = c.handle, .size = 4096, .flags = ~0ull };
	unsigned long old_request = DRM_IOWR(DRM_COMMAND_BASE + DRM_I915_GEM_MMAP,
					     char[offsetof(struct drm_i915_gem_mmap, flags)]);
	CHECK_EQ(gtsim_ioctl(f, old_request, &old), 0);
	CHECK(old.addr_ptr != 0);
	CHECK_EQ(old.flags, ~0ull);   /* beyond the caller's struct: untouched */

	/* Any struct shorter than the handler's is zero-extended, a request of
	 * size 0 with no argument too (drm_ioctl; fuzz/fuzz_ioctl.c found a
	 * handler given NULL): GET_RESET_STATS of context 0, flags 0 works,
	 * a GETPARAM whose value pointer was cut off writes to NULL: -EFAULT.
	 * The short struct is a heap block of exactly its size. */
	CHECK_EQ(gtsim_ioctl(f, DRM_IO(DRM_COMMAND_BASE + DRM_I915_GET_RESET_STATS), NULL), 0);
	int *param_only = malloc(sizeof(int));
	*param_only = I915_PARAM_CHIPSET_ID;
	CHECK_EQ(gtsim_ioctl(f, DRM_IOWR(DRM_COMMAND_BASE + DRM_I915_GETPARAM, int), param_only),
		 -EFAULT);
	free(param_only);

	gtsim_close(f);
	gtsim_device_destroy(dev);
	fflush(trace_stream());
	char log[16384] = { 0 };
	ssize_t n = pread(fd, log, sizeof(log) - 1, 0);
	close(fd);
	unlink(path);
	CHECK(n > 0);
	CHECK_EQ(count(log, "[stub] unknown ioctl nr 0x7f: -ENOTTY"), 1);
	CHECK_EQ(count(log, "[stub] unknown ioctl nr 0x20: -ENOTTY"), 1);
	return test_exit();
}
