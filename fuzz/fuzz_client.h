/* The start of a device-level target's input: the device of the model the
 * input picks (made on first use, with its victim, fuzz_victim.h) and a
 * fresh client file on it, driven by libgtdrv on the default context or,
 * when own_ctx, on a context of its own. */
#ifndef GTSIM_FUZZ_CLIENT_H
#define GTSIM_FUZZ_CLIENT_H

#include <stdbool.h>

#include "common/devinfo.h"
#include "drv/gtdrv.h"
#include "fuzz_dev.h"
#include "fuzz_victim.h"

struct fuzz_device_slot {
	struct gtsim_device *dev;
	struct victim victim;
};

static inline struct gtsim_file *fuzz_client(struct fuzz_device_slot *d, bool skl,
					     bool own_ctx, struct gtdrv *drv)
{
	if (!d->dev) {
		d->dev = fuzz_device(skl ? "skl" : "bdw");
		victim_init(&d->victim, d->dev);
	}
	struct gtsim_file *f = gtsim_open(d->dev);
	if (!f)
		abort();
	gtdrv_init(drv, f, devinfo_lookup(skl ? "skl" : "bdw"));
	if (own_ctx) {
		struct drm_i915_gem_context_create c = { 0 };
		if (!gtsim_ioctl(f, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &c))
			drv->ctx_id = c.ctx_id;
	}
	return f;
}

#endif
