/* The device's debugfs files (dri/<minor>/NAME) with the contents and the
 * effects of Linux 6.1's i915_debugfs.c, gt/intel_gt_debugfs.c and
 * drm_debugfs.c, as far as the model has the state behind them:
 *   i915_gem_drop_caches  read: DROP_ALL as "0x%08llx\n"; write: the DROP_*
 *       flags: RESET_ACTIVE (engines not idle within 200 ms are reset),
 *       RETIRE, ACTIVE/IDLE (wait for idle), BOUND/UNBOUND/SHRINK_ALL (the
 *       shrinker purges every idle DONTNEED object); FREED, RCU, RESET_SEQNO
 *       have nothing to do here
 *   i915_wedged  read "%llu\n": 1 when wedged; write an engine mask:
 *       intel_gt_handle_error on those engines (reset.c gt_handle_error)
 *   i915_error_state, i915_gpu_info  the last error state, or "No error
 *       state collected\n"; a write to i915_error_state clears it
 *   i915_capabilities, i915_engine_info, i915_gem_objects, clients
 *       summaries in the kernel's layout (values from the model)
 *   i915_wa_registers  each engine's context workaround list ("%s:
 *       Workarounds applied: %u" and its registers); i915 prints nothing
 *       for an engine whose list is empty, and the model applies no
 *       context workarounds (its registers have no hardware defects to
 *       work around), so the file is empty: IGT gem_workarounds skips. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/devinfo.h"
#include "gpu/cs/engine.h"
#include "gtsim/gtsim.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/params.h"
#include "kernel/request.h"

/* i915_debugfs.c */
#define DROP_UNBOUND (1u << 0)
#define DROP_BOUND (1u << 1)
#define DROP_RETIRE (1u << 2)
#define DROP_ACTIVE (1u << 3)
#define DROP_FREED (1u << 4)
#define DROP_SHRINK_ALL (1u << 5)
#define DROP_IDLE (1u << 6)
#define DROP_RESET_ACTIVE (1u << 7)
#define DROP_RESET_SEQNO (1u << 8)
#define DROP_RCU (1u << 9)
#define DROP_ALL 0x3ffu
#define IDLE_ENGINES_TIMEOUT_NS (200ll * 1000000)   /* I915_IDLE_ENGINES_TIMEOUT */
#define ALL_ENGINES (~0ull)

static const struct { const char *name; unsigned mode; } files[] = {
	{ "clients", 0444 },
	{ "i915_capabilities", 0444 },
	{ "i915_engine_info", 0444 },
	{ "i915_error_state", 0600 },
	{ "i915_gem_drop_caches", 0600 },
	{ "i915_gem_objects", 0444 },
	{ "i915_gpu_info", 0444 },
	{ "i915_wa_registers", 0444 },
	{ "i915_wedged", 0644 },
};
#define NUM_FILES (sizeof(files) / sizeof(files[0]))

const char *gtsim_debugfs_name(unsigned i, unsigned *mode)
{
	if (i >= NUM_FILES)
		return NULL;
	if (mode)
		*mode = files[i].mode;
	return files[i].name;
}

static int find(const char *name)
{
	for (unsigned i = 0; name && i < NUM_FILES; i++)
		if (!strcmp(files[i].name, name))
			return (int)i;
	return -1;
}

static const char *platform_name(const struct gt_devinfo *info)
{
	return info->gen == 9 ? "SKYLAKE" : "BROADWELL";
}

static void capabilities(FILE *f, struct gtsim_device *dev)
{
	const struct gt_devinfo *info = dev->info;
	fprintf(f, "pch: 0\n");
	fprintf(f, "platform: %s\n", platform_name(info));
	fprintf(f, "graphics version: %d\n", info->gen);
	fprintf(f, "media version: %d\n", info->gen);
	fprintf(f, "display version: %d\n", info->gen);
	fprintf(f, "gt: %d\n", info->gt);
	fprintf(f, "ppgtt-size: %d\n", info->ppgtt_bits);
	fprintf(f, "ppgtt-type: 2\n");   /* INTEL_PPGTT_FULL */
	fprintf(f, "has_llc: yes\n");
	fprintf(f, "has_logical_ring_contexts: no\n");   /* ring submission */
	fprintf(f, "iommu: disabled\n");
	fprintf(f, "available engines: ");
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		fprintf(f, "%s%s", i ? ", " : "", engine_name((enum gt_engine_id)i));
	fprintf(f, "\nslice total: %d\nsubslice total: %d\nEU total: %d\n", info->num_slices,
		info->num_subslices, info->num_eus);
	fprintf(f, "Has logical contexts? no\nscheduler: 0x0\n");
	fprintf(f, "i915.reset=%u\ni915.enable_hangcheck=%s\ni915.enable_guc=%d\n", params_reset(),
		params_hangcheck() ? "yes" : "no", i915_params.enable_guc);
}

static void engine_info(FILE *f, struct gtsim_device *dev)
{
	struct gem_requests *r = dev->requests;
	bool awake = r && !requests_wait_idle(dev, 0);
	fprintf(f, "GT awake? %s [0], 0ms\n", awake ? "yes" : "no");
	fprintf(f, "CS timestamp frequency: %" PRIu64 " Hz, %u ns\n", dev->info->timestamp_hz,
		(unsigned)(1000000000ull / dev->info->timestamp_hz));
	for (int i = 0; r && i < GT_NUM_ENGINES; i++) {
		struct rq_engine *e = &r->engine[i];
		fprintf(f, "%s\n", engine_name(e->id));
		fprintf(f, "\tReset count: %u\n", e->reset_count);
		fprintf(f, "\tRequests: next seqno %u, completed %u\n", e->next_seqno + 1,
			engine_hws_seqno(e));
		if (e->hw)
			fprintf(f, "\tACTHD: 0x%08" PRIx64 "\n", engine_acthd(e->hw));
	}
}

/* drm_debugfs.c drm_clients_info */
static void clients(FILE *f, struct gtsim_device *dev)
{
	fprintf(f, "%20s %5s %3s master a %5s %10s\n", "command", "tgid", "dev", "uid", "magic");
	pthread_mutex_lock(&dev->lock);
	struct list_node *n, *t;
	list_for_each_safe(n, t, &dev->files) {
		struct gtsim_file *file = list_entry(n, struct gtsim_file, dev_link);
		fprintf(f, "%20s %5d %3d   %c    %c %5d %10u\n", program_invocation_short_name,
			file->pid, file->minor, dev->master == file ? 'y' : 'n',
			file->authenticated ? 'y' : 'n', (int)geteuid(), file->magic);
	}
	pthread_mutex_unlock(&dev->lock);
}

char *gtsim_debugfs_read(struct gtsim_device *dev, const char *name)
{
	int i = find(name);
	if (!dev || i < 0)
		return NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	if (!strcmp(name, "i915_gem_drop_caches")) {
		fprintf(f, "0x%08llx\n", (unsigned long long)DROP_ALL);
	} else if (!strcmp(name, "i915_wedged")) {
		fprintf(f, "%llu\n", __atomic_load_n(&dev->wedged, __ATOMIC_ACQUIRE) ? 1ull : 0ull);
	} else if (!strcmp(name, "i915_error_state") || !strcmp(name, "i915_gpu_info")) {
		char *state = gtsim_error_state(dev);
		fputs(state ? state : "No error state collected\n", f);
		free(state);
	} else if (!strcmp(name, "i915_capabilities")) {
		capabilities(f, dev);
	} else if (!strcmp(name, "i915_engine_info")) {
		engine_info(f, dev);
	} else if (!strcmp(name, "i915_gem_objects")) {
		pthread_mutex_lock(&dev->lock);
		fprintf(f, "%llu shrinkable [0 free] objects, %llu bytes\n",
			(unsigned long long)dev->object_count, (unsigned long long)dev->object_bytes);
		pthread_mutex_unlock(&dev->lock);
	} else if (!strcmp(name, "i915_wa_registers")) {
		/* no engine has a context workaround list: nothing printed */
	} else {
		clients(f, dev);
	}
	fclose(f);
	return text;
}

/* simple_attr_write's kstrtoull (base 0, a trailing newline allowed): a
 * sign is -EINVAL (IGT writes -1 as "%llu", 18446744073709551615). */
static int parse_u64(const char *buf, size_t len, uint64_t *out)
{
	char s[32];
	if (!len || len >= sizeof(s))
		return -EINVAL;
	memcpy(s, buf, len);
	s[len] = 0;
	if (s[0] == '-')
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (end == s || errno)
		return -EINVAL;
	if (*end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

static void drop_caches(struct gtsim_device *dev, uint64_t val)
{
	if ((val & DROP_RESET_ACTIVE) && !requests_wait_idle(dev, IDLE_ENGINES_TIMEOUT_NS))
		gt_handle_error(dev, ALL_ENGINES, "DROP_RESET_ACTIVE: engines not idle");
	if (val & (DROP_IDLE | DROP_ACTIVE))
		requests_wait_idle(dev, -1);
	pthread_mutex_lock(&dev->lock);
	if (val & DROP_RETIRE)
		requests_retire(dev);
	if (val & (DROP_BOUND | DROP_UNBOUND | DROP_SHRINK_ALL)) {
		requests_retire(dev);
		gem_shrink_all(dev);
	}
	pthread_mutex_unlock(&dev->lock);
}

static void clear_error_state(struct gtsim_device *dev)
{
	struct gem_requests *r = dev->requests;
	if (!r)
		return;
	pthread_mutex_lock(&r->worker_lock);
	free(r->error_state);
	r->error_state = NULL;
	pthread_mutex_unlock(&r->worker_lock);
}

int gtsim_debugfs_write(struct gtsim_device *dev, const char *name, const char *buf, size_t len)
{
	int i = find(name);
	if (!dev || i < 0)
		return -ENOENT;
	if (!(files[i].mode & 0200))
		return -EACCES;
	uint64_t val;
	if (!strcmp(name, "i915_error_state")) {
		clear_error_state(dev);
		return 0;
	}
	int err = parse_u64(buf, len, &val);
	if (err)
		return err;
	if (!strcmp(name, "i915_gem_drop_caches"))
		drop_caches(dev, val);
	else if (!strcmp(name, "i915_wedged"))
		gt_handle_error(dev, val, "Manually reset engine mask");
	return 0;
}
