/* An engine's scheduling properties, i915's intel_engine_cs.props as
 * sysfs shows them under /sys/class/drm/card0/engine/<name>/ (Linux 6.1,
 * sysfs_engines.c, defaults from Kconfig.profile):
 *   heartbeat_interval_ms   2500  the pulse interval (0: no heartbeat)
 *   preempt_timeout_ms       640  a preemption not acknowledged within it
 *                                 resets the engine (0: never)
 *   timeslice_duration_ms      1  equal-priority contexts take turns
 *   stop_timeout_ms          100  (accepted: no suspend in the model)
 *   max_busywait_duration_ns 8000 (accepted: waits do not busy-wait)
 * preempt_timeout_ms and timeslice_duration_ms exist only on engines that
 * can preempt (i915's can_preempt: every engine from gen9, not BDW's
 * render engine). Each has a read-only twin under .defaults/. */
#ifndef GTSIM_KERNEL_ENGINE_PROPS_H
#define GTSIM_KERNEL_ENGINE_PROPS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/devinfo.h"

struct engine_props {
	uint64_t heartbeat_interval_ms;
	uint64_t preempt_timeout_ms;
	uint64_t timeslice_duration_ms;
	uint64_t stop_timeout_ms;
	uint64_t max_busywait_duration_ns;
};

#define HEARTBEAT_INTERVAL_MS_DEFAULT 2500
#define PREEMPT_TIMEOUT_MS_DEFAULT 640
#define TIMESLICE_DURATION_MS_DEFAULT 1
#define STOP_TIMEOUT_MS_DEFAULT 100
#define MAX_BUSYWAIT_NS_DEFAULT 8000

/* i915's can_preempt() (intel_execlists_submission.c): gen9+ engines, and
 * on gen8 every engine but render ("GPGPU on bdw requires extra w/a"). */
static inline bool engine_can_preempt(int gen, enum gt_engine_id id)
{
	return gen > 8 || id != ENGINE_RCS;
}

void engine_props_init(struct engine_props *p);

/* Atomic reads of one property (the worker reads while sysfs writes). */
static inline uint64_t prop_get(const uint64_t *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

#endif
