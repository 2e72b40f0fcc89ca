/* vgem, the virtual GEM driver (Linux drivers/gpu/drm/vgem): a second DRM
 * device beside i915 whose buffers are plain memory, shared with i915 by
 * PRIME, and whose fences userspace signals itself. IGT "corks" i915's
 * queues with them (igt_cork's IGT_CORK_HANDLE, prime_vgem). A vgem file
 * lives on the same gtsim_device as the i915 files, so an object it
 * exports is the very object i915 imports. */
#ifndef GTSIM_KERNEL_VGEM_H
#define GTSIM_KERNEL_VGEM_H

struct gtsim_device;
struct gtsim_file;

/* A file of vgem's node minor (GTSIM_VGEM_MINOR: card1, the first opener
 * master; + 128: renderD129). */
struct gtsim_file *vgem_open_node(struct gtsim_device *dev, int minor);
/* A vgem file's ioctl (gtsim_ioctl routes it here). */
int vgem_ioctl(struct gtsim_file *file, unsigned long request, void *arg);
/* gtsim_close() of a vgem file: handles and unsignalled fences go (an
 * unsignalled fence stays in the reservations until its timeout). */
void vgem_file_close(struct gtsim_file *file);

#endif
