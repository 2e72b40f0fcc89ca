/* GEM_USERPTR on the device server (docs/shared-device.md "USERPTR"):
 * the client's pages are in another process, so the object the GPU uses
 * is a shadow of them in the server, kept coherent with the client's
 * memory by process_vm_readv/writev at each point where i915's GPU and
 * CPU meet: when a batch using it is submitted (execbuf, SET_DOMAIN: the
 * GPU sees the client's current memory) and when a request using it
 * completes, before its fence signals (what the GPU wrote is in the
 * client's memory when a wait returns); and, while the GPU uses it,
 * every millisecond (a batch polling the client's memory sees the
 * client's write, as a spinner IGT ends by writing into its userptr
 * batch).
 *
 * A sync is a three-way merge against the contents both sides agreed on
 * at the last sync: bytes the client changed since go to the shadow,
 * bytes the GPU changed go to the client (a read-only object's never), so
 * neither side's writes are lost as long as they do not race for the
 * same bytes (which i915 leaves undefined too). */
#ifndef GTSIM_KERNEL_SERVER_USERPTR_SHADOW_H
#define GTSIM_KERNEL_SERVER_USERPTR_SHADOW_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct gtsim_device;
struct gem_object;

/* A userptr object of size bytes over [ptr, ptr + size) in process pid
 * (the checks of the ioctl done): NULL with *err. dev->lock held. */
struct gem_object *userptr_shadow_create(struct gtsim_device *dev, pid_t pid, uint64_t ptr,
					 uint64_t size, int *err);
/* i915's get_pages for it: the client's range mapped with the access the
 * object needs, then a sync. 0 or -EFAULT. dev->lock held. */
int userptr_shadow_validate(struct gem_object *obj);
/* The merge above; -EFAULT when the client's range is not all readable
 * (nothing is copied then). Any thread, no lock needed. */
int userptr_shadow_sync(struct gem_object *obj);
/* obj_free: the shadow goes. */
void userptr_shadow_release(struct gem_object *obj);

#endif
