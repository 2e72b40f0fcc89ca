/* Host memory per GEM object (issue 14's scale figure): a million 4 KiB
 * objects created through GEM_CREATE, one dword written into each
 * (PWRITE: the page becomes resident), then the process's resident
 * memory, descriptors and mappings. The target is the object's size plus
 * 2 KiB of bookkeeping; i915 itself, the peer, keeps a struct
 * drm_i915_gem_object and its shmem page per object.
 * Then the descriptors and mappings of M objects (second argument, 10000
 * by default) of two kinds that used to cost a descriptor each: 4 KiB
 * objects mapped by the CPU (MMAP_OFFSET WB) and exported as a dma-buf
 * whose fd is closed, and 1 MiB objects (above the slabs' 64 KiB) with a
 * dword written. i915 holds no descriptor for either. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
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

/* A new object of size bytes with v written at its start (the page
 * becomes resident): its handle, 0 on failure. */
static uint32_t create_written(struct gtsim_file *f, uint64_t size, uint32_t v)
{
	struct drm_i915_gem_create c = { .size = size };
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &c))
		return 0;
	struct drm_i915_gem_pwrite w = { .handle = c.handle, .size = 4, .data_ptr = (uintptr_t)&v };
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_PWRITE, &w)) {
		struct drm_gem_close cl = { .handle = c.handle };
		gtsim_ioctl(f, DRM_IOCTL_GEM_CLOSE, &cl);
		return 0;
	}
	return c.handle;
}

/* M objects of size bytes, a dword written into each; mapped: mapped
 * WB and exported (the dma-buf's fd closed). The descriptors and
 * mappings they cost, printed; 0 when all were made. */
static int descriptors_for(struct gtsim_file *f, unsigned m, uint64_t size, bool mapped)
{
	uint32_t *handles = calloc(m, sizeof(*handles));
	void **maps = calloc(m, sizeof(*maps));
	if (!handles || !maps)
		return 1;
	unsigned fds0 = count_fds(), maps0 = count_lines("/proc/self/maps"), made = 0;
	for (; made < m; made++) {
		uint32_t h = create_written(f, size, made);
		if (!(handles[made] = h))
			break;
		if (!mapped)
			continue;
		struct drm_i915_gem_mmap_offset mo = { .handle = h, .flags = I915_MMAP_OFFSET_WB };
		struct drm_prime_handle ex = { .handle = h, .flags = DRM_CLOEXEC };
		if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo) ||
		    (maps[made] = gtsim_mmap(f, NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
					     mo.offset)) == MAP_FAILED ||
		    gtsim_ioctl(f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ex)) {
			maps[made] = NULL;
			break;
		}
		close(ex.fd);
	}
	unsigned fds1 = count_fds(), maps1 = count_lines("/proc/self/maps");
	printf("objects: %u of %u %s: %u descriptors and %u mappings more for them\n", made, m,
	       mapped ? "4 KiB objects mapped (MMAP_OFFSET WB) and exported (dma-buf fd closed)"
		      : "1 MiB objects",
	       fds1 - fds0, maps1 - maps0);
	for (unsigned i = 0; i < m && handles[i]; i++) {
		if (maps[i])
			munmap(maps[i], size);
		struct drm_gem_close cl = { .handle = handles[i] };
		gtsim_ioctl(f, DRM_IOCTL_GEM_CLOSE, &cl);
	}
	free(handles);
	free(maps);
	return made == m ? 0 : 1;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 1000000;
	unsigned m = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 10000;
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
	for (; made < n; made++)
		if (!(handles[made] = create_written(f, 4096, made)))
			break;
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
	int mapped_failed = descriptors_for(f, m, 4096, true);
	int large_failed = descriptors_for(f, m, 1 << 20, false);
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return made == n && !mapped_failed && !large_failed ? 0 : 1;
}
