/* The engines' sysfs properties (engine_props.h): names, defaults,
 * reading and writing as i915's sysfs_engines.c does (Linux 6.1). */
#include "kernel/engine_props.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtsim/gtsim.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/request.h"

void engine_props_init(struct engine_props *p)
{
	*p = (struct engine_props){
		.heartbeat_interval_ms = HEARTBEAT_INTERVAL_MS_DEFAULT,
		.preempt_timeout_ms = PREEMPT_TIMEOUT_MS_DEFAULT,
		.timeslice_duration_ms = TIMESLICE_DURATION_MS_DEFAULT,
		.stop_timeout_ms = STOP_TIMEOUT_MS_DEFAULT,
		.max_busywait_duration_ns = MAX_BUSYWAIT_NS_DEFAULT,
	};
}

/* jiffies_to_msecs(MAX_SCHEDULE_TIMEOUT) with HZ=250 as an unsigned int:
 * the largest millisecond value the stores accept. */
#define MAX_MS 0xfffffffcull
/* jiffies_to_nsecs(2): the busywait limit (2 jiffies at HZ=250). */
#define MAX_BUSYWAIT_NS 8000000ull

enum prop_kind { PK_INFO, PK_PROP };

struct prop_desc {
	const char *name;
	size_t offset;          /* in struct engine_props (PK_PROP) */
	uint64_t max;
	bool needs_preemption;
	uint64_t def;
};

#define PROP(n, field, m, pre, d) { n, __builtin_offsetof(struct engine_props, field), m, pre, d }
static const struct prop_desc props[] = {
	PROP("heartbeat_interval_ms", heartbeat_interval_ms, MAX_MS, false,
	     HEARTBEAT_INTERVAL_MS_DEFAULT),
	PROP("preempt_timeout_ms", preempt_timeout_ms, MAX_MS, true, PREEMPT_TIMEOUT_MS_DEFAULT),
	PROP("timeslice_duration_ms", timeslice_duration_ms, MAX_MS, true,
	     TIMESLICE_DURATION_MS_DEFAULT),
	PROP("stop_timeout_ms", stop_timeout_ms, MAX_MS, false, STOP_TIMEOUT_MS_DEFAULT),
	PROP("max_busywait_duration_ns", max_busywait_duration_ns, MAX_BUSYWAIT_NS, false,
	     MAX_BUSYWAIT_NS_DEFAULT),
};
#define NPROPS (sizeof(props) / sizeof(props[0]))
static const char *const infos[] = { "name", "class", "instance", "mmio_base" };
#define NINFOS (sizeof(infos) / sizeof(infos[0]))

const char *gtsim_engine_dir_name(unsigned i)
{
	return i < GT_NUM_ENGINES ? engine_name((enum gt_engine_id)i) : NULL;
}

/* The files of one engine directory: the info files, the properties, and
 * .defaults/<property>. */
const char *gtsim_engine_file_name(int gen, unsigned engine, unsigned i, unsigned *mode)
{
	static char defaults[NPROPS][48];
	static bool init;
	if (!init) {
		for (unsigned k = 0; k < NPROPS; k++)
			snprintf(defaults[k], sizeof(defaults[k]), ".defaults/%s", props[k].name);
		init = true;
	}
	bool preempt = engine_can_preempt(gen, (enum gt_engine_id)engine);
	for (unsigned k = 0; k < NINFOS; k++, i--)
		if (i == 0) {
			*mode = 0444;
			return infos[k];
		}
	for (int pass = 0; pass < 2; pass++)
		for (unsigned k = 0; k < NPROPS; k++) {
			if (props[k].needs_preemption && !preempt)
				continue;
			if (i-- == 0) {
				*mode = pass ? 0444 : 0644;
				return pass ? defaults[k] : props[k].name;
			}
		}
	return NULL;
}

static const struct prop_desc *find_prop(const char *name, bool *is_default)
{
	*is_default = !strncmp(name, ".defaults/", 10);
	if (*is_default)
		name += 10;
	for (unsigned k = 0; k < NPROPS; k++)
		if (!strcmp(props[k].name, name))
			return &props[k];
	return NULL;
}

static struct rq_engine *engine_by_name(struct gtsim_device *dev, const char *name)
{
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		if (!strcmp(engine_name((enum gt_engine_id)i), name))
			return dev->requests ? &dev->requests->engine[i] : NULL;
	return NULL;
}

/* uabi class numbers (I915_ENGINE_CLASS_*): render 0, copy 1, video 2,
 * video enhance 3. */
static const int engine_class[GT_NUM_ENGINES] = { 0, 1, 2, 3 };

char *gtsim_engine_file_read(struct gtsim_device *dev, const char *engine, const char *file)
{
	struct rq_engine *e = engine_by_name(dev, engine);
	if (!e)
		return NULL;
	char buf[64];
	bool def;
	const struct prop_desc *p = find_prop(file, &def);
	if (p) {
		if (p->needs_preemption && !engine_can_preempt(dev->info->gen, e->id))
			return NULL;
		uint64_t v = def ? p->def : prop_get((const uint64_t *)((const char *)&e->props +
								      p->offset));
		snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	} else if (!strcmp(file, "name")) {
		snprintf(buf, sizeof(buf), "%s\n", engine);
	} else if (!strcmp(file, "class")) {
		snprintf(buf, sizeof(buf), "%d\n", engine_class[e->id]);
	} else if (!strcmp(file, "instance")) {
		snprintf(buf, sizeof(buf), "0\n");
	} else if (!strcmp(file, "mmio_base")) {
		snprintf(buf, sizeof(buf), "0x%x\n", engine_mmio_base(e->id));
	} else {
		return NULL;
	}
	return strdup(buf);
}

/* The stores: kstrtoull (base 0), then the range check; heartbeat 0 on
 * an engine without preemption is -ENODEV (intel_engine_set_heartbeat:
 * without preempt-reset the heartbeat is the only way to recover). */
int gtsim_engine_file_write(struct gtsim_device *dev, const char *engine, const char *file,
			    const char *buf, size_t len)
{
	struct rq_engine *e = engine_by_name(dev, engine);
	bool def;
	const struct prop_desc *p = find_prop(file, &def);
	if (!e)
		return -ENOENT;
	if (!p || def)
		return -EACCES;
	if (p->needs_preemption && !engine_can_preempt(dev->info->gen, e->id))
		return -ENOENT;
	char s[32];
	if (len >= sizeof(s))
		return -EINVAL;
	memcpy(s, buf, len);
	s[len] = 0;
	if (len && s[len - 1] == '\n')
		s[len - 1] = 0;
	char *end;
	errno = 0;
	if (!s[0] || s[0] == '-')
		return -EINVAL;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	if (v > p->max)
		return -EINVAL;
	if (!strcmp(p->name, "heartbeat_interval_ms") && v == 0 &&
	    !engine_can_preempt(dev->info->gen, e->id))
		return -ENODEV;
	__atomic_store_n((uint64_t *)((char *)&e->props + p->offset), (uint64_t)v,
			 __ATOMIC_RELAXED);
	if (!strcmp(p->name, "heartbeat_interval_ms") && v == 0)
		engine_cancel_closed(e);   /* no heartbeat: closed contexts go */
	worker_wake(dev);   /* new intervals take effect at once */
	return 0;
}
