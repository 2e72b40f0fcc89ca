/* The ioctl round trip of a trivial ioctl (I915_GETPARAM CHIPSET_ID)
 * through the device interposer: open /dev/dri/renderD128 and ioctl() it
 * as any client does. Linked against libgtsim-shim.so, so the program's
 * open/ioctl are the interposer's (as under LD_PRELOAD); a direct
 * gtsim_ioctl() call on a file of the same device is measured alongside. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <i915_drm.h>

#include "gtsim/gtsim.h"

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("bench_shim: open /dev/dri/renderD128 through the shim");
		return 1;
	}
	int value = 0;
	struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID, .value = &value };
	const int n = 1000000;

	for (int i = 0; i < 1000; i++)
		ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
	double t0 = now_us();
	for (int i = 0; i < n; i++)
		if (ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp)) {
			perror("bench_shim: GETPARAM");
			return 1;
		}
	double shim_us = (now_us() - t0) / n;

	struct gtsim_device *dev = gtsim_device_create(NULL);
	struct gtsim_file *file = dev ? gtsim_open(dev) : NULL;
	double direct_us = 0;
	if (file) {
		t0 = now_us();
		for (int i = 0; i < n; i++)
			gtsim_ioctl(file, DRM_IOCTL_I915_GETPARAM, &gp);
		direct_us = (now_us() - t0) / n;
		gtsim_close(file);
		gtsim_device_destroy(dev);
	}
	close(fd);
	printf("GETPARAM through the interposer: %.3f us per ioctl (chipset 0x%04x)\n",
	       shim_us, value);
	printf("GETPARAM by direct gtsim_ioctl:  %.3f us per call\n", direct_us);
	return 0;
}
