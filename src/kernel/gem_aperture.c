/* GET_APERTURE: i915 reports the whole GGTT as the "aperture" and, as
 * available, what is not taken by pinned bindings. */
#include <i915_drm.h>

#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/ioctl.h"
#include "kernel/vm.h"

int i915_gem_get_aperture_ioctl(struct gtsim_file *file, void *arg)
{
	struct drm_i915_gem_get_aperture *args = arg;
	struct gtsim_device *dev = file->dev;
	pthread_mutex_lock(&dev->lock);
	uint64_t pinned = 0;
	struct list_node *n, *t;
	list_for_each_safe(n, t, &dev->ggtt->nodes) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, vm_link);
		if (vma->pin_count)
			pinned += vma->size;
	}
	args->aper_size = dev->ggtt->total;
	args->aper_available_size = dev->ggtt->total - pinned;
	pthread_mutex_unlock(&dev->lock);
	return 0;
}
