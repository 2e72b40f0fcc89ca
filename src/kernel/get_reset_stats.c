/* GET_RESET_STATS: the device's reset count (only for CAP_SYS_ADMIN, 0
 * otherwise), and for the context the hangs it caused (batch_active) and
 * the batches it lost to others' resets (batch_pending). */
#include <errno.h>
#include <i915_drm.h>
#include <unistd.h>

#include "common/user_copy.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"

int i915_get_reset_stats_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_reset_stats *args = arg;
	if (args->flags || args->pad)
		return -EINVAL;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	struct gem_context *ctx = ctx_lookup(file, args->ctx_id);
	if (ctx) {
		args->reset_count = user_caller_is_root() ? dev->reset_count : 0;
		args->batch_active = ctx->guilty_count;
		args->batch_pending = ctx->active_count;
		ctx_put(ctx);
	}
	pthread_mutex_unlock(&dev->lock);
	return ctx ? 0 : -ENOENT;
}
