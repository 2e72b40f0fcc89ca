/* gtsim bench nop: seed 004's gem_exec_nop through the kernel model and the
 * engines. An empty batch (MI_BATCH_BUFFER_END, MI_NOOP) is submitted over
 * and over with I915_EXEC_NO_RELOC | I915_EXEC_HANDLE_LUT; the figure is
 * microseconds per batch.
 *   async: the engines run on their own threads; batches are queued
 *          back to back and the last one is waited for at the end;
 *   sync:  GTSIM_SYNC (each batch runs inside execbuf) and a GEM_WAIT
 *          after each, so every batch completes before the next. */
#include <i915_drm.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gtsim/gtsim.h"
#include "command.h"
#include "engine_names.h"


static double clock_s(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

struct nop_figures {
	double us_per_batch;       /* wall time */
	double cpu_us_per_batch;   /* CPU time of every thread of the process */
	unsigned long count;
};

static int bench_engine(struct gtsim_file *f, uint32_t batch, uint64_t ring, bool sync,
			double seconds, struct nop_figures *fig)
{
	struct drm_i915_gem_exec_object2 obj = { .handle = batch };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)&obj, .buffer_count = 1,
		.flags = ring | I915_EXEC_NO_RELOC | I915_EXEC_HANDLE_LUT,
	};
	struct drm_i915_gem_wait wait = { .bo_handle = batch, .timeout_ns = -1 };
	/* Warm up: the first execbuf binds the batch. */
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb) ||
	    gtsim_ioctl(f, DRM_IOCTL_I915_GEM_WAIT, &wait))
		return -1;
	unsigned long n = 0;
	double cpu_start = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	double start = now_s(), end;
	do {
		for (int i = 0; i < 1024; i++) {
			if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb))
				return -1;
			if (sync && gtsim_ioctl(f, DRM_IOCTL_I915_GEM_WAIT, &wait))
				return -1;
		}
		n += 1024;
		end = now_s();
	} while (end - start < seconds);
	wait.timeout_ns = -1;
	if (gtsim_ioctl(f, DRM_IOCTL_I915_GEM_WAIT, &wait))
		return -1;
	end = now_s();
	fig->us_per_batch = (end - start) * 1e6 / (double)n;
	fig->cpu_us_per_batch = (clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu_start) * 1e6 / (double)n;
	fig->count = n;
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: gtsim bench nop [--engine rcs|bcs|vcs|vecs|all] [--sync] "
		"[--seconds S]\n");
	return 2;
}

static int cmd_bench(int argc, char **argv)
{
	const char *which = "all";
	bool sync = false;
	double seconds = 1.0;
	if (argc < 2 || strcmp(argv[1], "nop"))
		return usage();
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--engine") && i + 1 < argc)
			which = argv[++i];
		else if (!strcmp(argv[i], "--sync"))
			sync = true;
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atof(argv[++i]);
		else
			return usage();
	}
	struct gtsim_config cfg = { .sync = sync };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	struct gtsim_file *f = dev ? gtsim_open(dev) : NULL;
	if (!f) {
		fprintf(stderr, "gtsim bench: cannot create the device\n");
		return 1;
	}
	struct drm_i915_gem_create create = { .size = 4096 };
	const uint32_t nop[2] = { 0x0a << 23 /* MI_BATCH_BUFFER_END */, 0 /* MI_NOOP */ };
	int ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &create);
	struct drm_i915_gem_pwrite pw = { .handle = create.handle, .size = sizeof(nop),
					  .data_ptr = (uintptr_t)nop };
	if (!ret)
		ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_PWRITE, &pw);
	printf("gem_exec_nop (seed 004): empty batches, %s, %.1f s per engine\n",
	       sync ? "sync (GTSIM_SYNC, each batch waited for)" : "async (engine threads)",
	       seconds);
	bool found = false;
	for (unsigned i = 0; !ret && i < TOOL_NUM_ENGINES; i++) {
		if (strcmp(which, "all") && strcmp(which, tool_engines[i].name))
			continue;
		found = true;
		struct nop_figures fig;
		if (bench_engine(f, create.handle, tool_engines[i].flag, sync, seconds, &fig)) {
			fprintf(stderr, "gtsim bench: execbuf on %s failed\n", tool_engines[i].name);
			ret = 1;
			break;
		}
		printf("  %-4s %8.3f us per batch  (%lu batches, %s; %.3f us of CPU per batch, "
		       "all threads)\n", tool_engines[i].name, fig.us_per_batch, fig.count,
		       sync ? "sync" : "async", fig.cpu_us_per_batch);
	}
	if (!found && !ret)
		ret = usage();
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return ret ? 1 : 0;
}

const struct gtsim_command command_bench = {
	.name = "bench",
	.usage = "nop [--engine rcs|bcs|vcs|vecs|all] [--sync] [--seconds S]: "
		 "microseconds per empty batch (gem_exec_nop)",
	.run = cmd_bench,
};
