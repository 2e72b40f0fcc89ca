/* vgem's uAPI (Linux include/uapi/drm/vgem_drm.h), which libdrm does not
 * ship: the two driver ioctls at DRM_COMMAND_BASE + 1 and + 2. */
#ifndef GTSIM_KERNEL_VGEM_UAPI_H
#define GTSIM_KERNEL_VGEM_UAPI_H

#include <drm.h>
#include <stdint.h>

#define DRM_VGEM_FENCE_ATTACH 0x1
#define DRM_VGEM_FENCE_SIGNAL 0x2

struct drm_vgem_fence_attach {
	uint32_t handle;
	uint32_t flags;
#define VGEM_FENCE_WRITE 0x1
	uint32_t out_fence;
	uint32_t pad;
};

struct drm_vgem_fence_signal {
	uint32_t fence;
	uint32_t flags;
};

#define DRM_IOCTL_VGEM_FENCE_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VGEM_FENCE_ATTACH, struct drm_vgem_fence_attach)
#define DRM_IOCTL_VGEM_FENCE_SIGNAL \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VGEM_FENCE_SIGNAL, struct drm_vgem_fence_signal)

#endif
