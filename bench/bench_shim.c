/* The ioctl round trip of a trivial ioctl (I915_GETPARAM CHIPSET_ID)
 * through the device interposer: open /dev/dri/renderD128 and ioctl() it
 * as any client does. Linked against libgtsim-shim.so, so the program's
 * open/ioctl are the interposer's (as under LD_PRELOAD); a direct
 * gtsim_ioctl() call on a file of the same device is measured alongside.
 * Then a register read through the PCI BAR mapping (IGT's MMIO path:
 * fault, decode, gpu_mmio_read, return). Then, when intel-gpu-tools is installed, IGT's gem_exec_nop benchmark
 * under `gtsim run` (µs per batch as it prints them). */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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

/* `gtsim run -- gem_exec_nop ARGS`, the gtsim next to this program in the
 * build tree; prints the figure gem_exec_nop reports (its last line). */
static void igt_exec_nop(const char *args)
{
	static const char nop[] = "/usr/libexec/igt-gpu-tools/benchmarks/gem_exec_nop";
	char exe[PATH_MAX], cmd[PATH_MAX * 2], line[256], last[256] = "";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || access(nop, X_OK))
		return;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(cmd, sizeof(cmd), "%s/../tools/gtsim run -- %s %s 2>/dev/null", exe, nop, args);
	FILE *p = popen(cmd, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p))
		memcpy(last, line, sizeof(last));
	int status = pclose(p);
	last[strcspn(last, "\n")] = '\0';
	printf("IGT gem_exec_nop %-10s under gtsim run: %s us per batch\n", args,
	       status == 0 ? last : "(failed)");
}

/* RCS TIMESTAMP read with a CPU load from resource0, as gem_latency does. */
static void bar_read(void)
{
	int fd = open("/sys/bus/pci/devices/0000:00:02.0/resource0", O_RDWR);
	volatile unsigned char *bar = fd < 0 ? MAP_FAILED :
		mmap(NULL, 2 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd >= 0)
		close(fd);
	if (bar == MAP_FAILED) {
		printf("register read through the PCI BAR: not available\n");
		return;
	}
	const int n = 100000;
	unsigned sum = 0;
	double t0 = now_us();
	for (int i = 0; i < n; i++)
		sum += *(volatile unsigned *)(bar + 0x2358);
	double us = (now_us() - t0) / n;
	munmap((void *)bar, 2 << 20);
	(void)sum;
	printf("register read through the PCI BAR:  %.3f us per load\n", us);
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
	bar_read();
	fflush(stdout);
	igt_exec_nop("-e rcs");
	igt_exec_nop("-e rcs -s");
	igt_exec_nop("-e all");
	igt_exec_nop("-e all -s");
	return 0;
}
