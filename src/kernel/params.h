/* The i915 module's parameters that the model honours (i915_params.h,
 * Linux 6.1), as /sys/module/i915/parameters/ and debugfs's i915_params/
 * show them. Process-wide, like a module's parameters:
 *   reset            0600 uint, 3: 0 disables resets (a hang wedges the
 *                    device), 1 allows only full-GPU resets, 2 and up
 *                    reset the hung engine (6.1 made it unsigned: IGT
 *                    restores it by writing "%u" of -1)
 *   enable_hangcheck 0600 bool, Y: N stops hangcheck from declaring hangs
 *   error_capture    0600 bool, Y: N records no error state on a hang
 *   enable_guc       0400 int, 0: i915 sanitizes -1 (auto) to 0 before
 *                    Gen12 (intel_uc.c uc_expand_default_options); no GuC
 *   request_timeout_ms 0600 uint, 20000 (CONFIG_DRM_I915_REQUEST_TIMEOUT):
 *                    a user request that has run this long is cancelled,
 *                    its fence -EINTR (i915's watchdog, preempt.c); 0: never.
 *                    Read while the request runs (i915 fixes it for a
 *                    context when the context is created) */
#ifndef GTSIM_KERNEL_PARAMS_H
#define GTSIM_KERNEL_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

struct i915_params {
	unsigned reset;
	bool enable_hangcheck;
	bool error_capture;
	int enable_guc;
	unsigned request_timeout_ms;
};

/* Read with __atomic loads where other threads may change them. */
extern struct i915_params i915_params;

static inline unsigned params_reset(void)
{
	return __atomic_load_n(&i915_params.reset, __ATOMIC_RELAXED);
}

/* i915.reset allows only full-GPU resets (intel_has_gpu_reset without
 * intel_has_reset_engine: reset is non-zero and below 2). */
static inline bool params_full_reset_only(void)
{
	unsigned r = params_reset();
	return r && r < 2;
}

static inline bool params_hangcheck(void)
{
	return __atomic_load_n(&i915_params.enable_hangcheck, __ATOMIC_RELAXED);
}

static inline unsigned params_request_timeout_ms(void)
{
	return __atomic_load_n(&i915_params.request_timeout_ms, __ATOMIC_RELAXED);
}

static inline bool params_error_capture(void)
{
	return __atomic_load_n(&i915_params.error_capture, __ATOMIC_RELAXED);
}

#endif
