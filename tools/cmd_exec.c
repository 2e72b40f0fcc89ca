/* gtsim exec FILE.bin: replay a raw batch (little-endian dwords, as `gtsim
 * decode` reads them) through the kernel model, like Mesa's
 * intel_hang_replay: the batch goes into a GEM object pinned at --addr in a
 * fresh context's address space, is submitted to the engine with execbuf,
 * waited for, and the outcome printed: "completed" (exit 0) or "GPU hang:
 * <reason>" and the error state's path (exit 1). The reason is the error
 * state's: for a GPU fault it names the command, its header dword and its
 * address. Exit 2: bad arguments or a failed submission. */
#include <errno.h>
#include <i915_drm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "engine_names.h"
#include "common/trace.h"
#include "gtsim/gtsim.h"


static int usage(void)
{
	fprintf(stderr, "usage: gtsim exec FILE.bin [--gen 8|9] [--engine rcs|bcs|vcs|vecs] "
		"[--addr ADDRESS] [--trace=CATS]\n");
	return 2;
}

/* The whole file, padded with zeros to whole pages; NULL on error. */
static void *load(const char *path, size_t *size)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "gtsim exec: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, n = 0, got;
	char *buf = calloc(1, cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			memset(nb + cap, 0, cap);
			buf = nb;
			cap *= 2;
		}
	}
	if (f != stdin)
		fclose(f);
	if (!buf || !n || n % 4) {
		fprintf(stderr, "gtsim exec: %s: %s\n", path,
			!buf ? "out of memory" : "not a whole number of dwords");
		free(buf);
		return NULL;
	}
	*size = (n + 4095) & ~(size_t)4095;
	return buf;
}

/* The reason in the error state's first line ("GPU HANG: ecode ..., in
 * PROG [PID], REASON on ENGINE"). */
static void print_reason(const char *text)
{
	const char *eol = strchr(text, '\n');
	size_t len = eol ? (size_t)(eol - text) : strlen(text);
	char *line = strndup(text, len);
	const char *start = line ? strstr(line, "], ") : NULL;
	char *end = line ? strstr(line, " on ") : NULL;
	for (char *p = end; p; p = strstr(p + 1, " on "))
		end = p;
	if (start && end && end > start) {
		*end = 0;
		start += 3;
		if (!strncmp(start, "GPU fault: ", 11))
			start += 11;
		printf("GPU hang: %s\n", start);
	} else {
		printf("GPU hang: %s\n", line ? line : "(no error state)");
	}
	free(line);
}

static int replay(struct gtsim_file *f, const void *batch, size_t size, uint64_t addr,
		  uint64_t ring, struct drm_i915_reset_stats *rs)
{
	struct drm_i915_gem_create create = { .size = size };
	struct drm_i915_gem_context_create cc = { 0 };
	int ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CREATE, &create);
	if (ret)
		return ret;
	struct drm_i915_gem_pwrite pw = { .handle = create.handle, .size = size,
					  .data_ptr = (uintptr_t)batch };
	if ((ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_PWRITE, &pw)) ||
	    (ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &cc)))
		return ret;
	struct drm_i915_gem_exec_object2 obj = { .handle = create.handle, .offset = addr,
						 .flags = EXEC_OBJECT_PINNED |
							  EXEC_OBJECT_SUPPORTS_48B_ADDRESS };
	struct drm_i915_gem_execbuffer2 eb = { .buffers_ptr = (uintptr_t)&obj,
		.buffer_count = 1, .flags = ring, .rsvd1 = cc.ctx_id };
	if ((ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb)))
		return ret;
	struct drm_i915_gem_wait wait = { .bo_handle = create.handle, .timeout_ns = -1 };
	if ((ret = gtsim_ioctl(f, DRM_IOCTL_I915_GEM_WAIT, &wait)))
		return ret;
	rs->ctx_id = cc.ctx_id;
	return gtsim_ioctl(f, DRM_IOCTL_I915_GET_RESET_STATS, rs);
}

static int cmd_exec(int argc, char **argv)
{
	const char *path = NULL, *device = NULL;
	uint64_t ring = I915_EXEC_RENDER, addr = 0x100000;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--gen") && i + 1 < argc) {
			const char *g = argv[++i];
			device = !strcmp(g, "8") ? "bdw" : !strcmp(g, "9") ? "skl" : NULL;
			if (!device)
				return usage();
		} else if (!strcmp(a, "--engine") && i + 1 < argc) {
			const char *name = argv[++i];
			const struct tool_engine *eng = tool_engine_by_name(name);
			if (!eng)
				return usage();
			ring = eng->flag;
		} else if (!strcmp(a, "--addr") && i + 1 < argc) {
			addr = strtoull(argv[++i], NULL, 0);
			if (addr & 0xfff)
				return usage();
		} else if (!strncmp(a, "--trace=", 8)) {
			if (trace_set(a + 8))
				return 2;
		} else if (a[0] == '-' && a[1]) {
			return usage();
		} else if (!path) {
			path = a;
		} else {
			return usage();
		}
	}
	if (!path)
		return usage();
	size_t size;
	void *batch = load(path, &size);
	if (!batch)
		return 2;
	struct gtsim_config cfg = { .device = device };
	struct gtsim_device *dev = gtsim_device_create(&cfg);
	struct gtsim_file *f = dev ? gtsim_open(dev) : NULL;
	if (!f) {
		fprintf(stderr, "gtsim exec: cannot create the device\n");
		free(batch);
		return 2;
	}
	struct drm_i915_reset_stats rs = { 0 };
	int ret = replay(f, batch, size, addr, ring, &rs);
	free(batch);
	int status = 2;
	if (ret) {
		fprintf(stderr, "gtsim exec: submission failed: %s\n", strerror(-ret));
	} else if (!rs.batch_active) {
		printf("completed\n");
		status = 0;
	} else {
		/* the reset has finished, and with it the error state */
		gtsim_device_idle(dev);
		char *text = gtsim_error_state(dev);
		print_reason(text ? text : "");
		free(text);
		char path[512];
		gtsim_error_state_path(path, sizeof(path), NULL);
		printf("error state: %s\n", path);
		status = 1;
	}
	gtsim_close(f);
	gtsim_device_destroy(dev);
	return status;
}

const struct gtsim_command command_exec = {
	.name = "exec",
	.usage = "FILE.bin [--gen 8|9] [--engine rcs|bcs|vcs|vecs] [--addr A] "
		 "[--trace=CATS]: run a raw batch, print completed or GPU hang: reason",
	.run = cmd_exec,
};
