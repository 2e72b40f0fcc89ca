/* Host memory per GEM object (issue 14's scale figure): a million 4 KiB
 * objects created through GEM_CREATE, one dword written into each
 * (PWRITE: the page becomes resident), then the process's resident
 * memory, descriptors and mappings. The target is the object's size plus
 * 2 KiB of bookkeeping; i915 itself, the peer, keeps a struct
 * drm_i915_gem_object and its shmem page per object. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <i915_drm.h>

#include "gtsim/gtsim.h"

static long resident_bytes(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "re");
	if (f && fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = 0;
	if (f)
		fclose(f);
	return resident * sysconf(_SC_PAGESIZE);
}

static unsigned count_lines(const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned n = 0;
	for (int c; f && (c = fgetc(f)) != EOF;)
		n += c == '\n';
	if (f)
		fclose(f);
	return n;
}

static unsigned count_fds(void)
{
	unsigned n = 0;
	for (int fd = 0; fd < 65536; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 1000000;
	struct rlimit lim;
	getrlimit(RLIMIT_NOFILE, &lim);
	struct gtsim_config cfg = { .device = "bdw", .sync = 1 };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	struct gtsim_file *f = dev ? gtsim_open(dev) : NULL;
	uint32_t *handles = calloc(n, sizeof(*handles));
	if (!f || !handles) {
		fprintf(stderr, "bench_objects: no device\n");
		return 1;
	}
	long rss0 = resident_bytes();
	unsigned fds0 = count_fds(), maps0 = count_lines("/proc/self/maps");
	double t0 = now();
	unsigned made = 0;
	for (; made < n; made++) {
		struct drm_i915_gem_create c = { .size = 4096 };
		if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &c))
			break;
		handles[made] = c.handle;
		uint32_t v = made;
		struct drm_i915_gem_pwrite w = { .handle = c.handle, .size = 4,
						 .data_ptr = (uintptr_t)&v };
		if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_PWRITE, &w))
			break;
	}
	double t1 = now();
	long rss1 = resident_bytes();
	unsigned fds1 = count_fds(), maps1 = count_lines("/proc/self/maps");
	/* the handle array is the benchmark's, not gtsim's */
	double per = made ? (double)(rss1 - rss0 - (long)(made * sizeof(*handles))) / made : 0;
	printf("objects: %u of %u 4 KiB objects created and written (descriptor limit %llu)\n",
	       made, n, (unsigned long long)lim.rlim_cur);
	printf("objects: host memory per object %.0f bytes (target: at most 4096 + 2048 = 6144)\n",
	       per);
	printf("objects: %u descriptors and %u mappings more for them; %.2f us per create+pwrite\n",
	       fds1 - fds0, maps1 - maps0, made ? (t1 - t0) * 1e6 / made : 0);
	double t2 = now();
	for (unsigned i = 0; i < made; i++) {
		struct drm_gem_close cl = { .handle = handles[i] };
		gtsim_ioctl(f, DRM_IOCTL_GEM_CLOSE, &cl);
	}
	printf("objects: %.2f us per close\n", made ? (now() - t2) * 1e6 / made : 0);
	free(handles);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return made == n ? 0 : 1;
}
