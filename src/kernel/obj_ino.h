/* The device's objects by the inode of the file holding their pages (a
 * file of their own: obj->ino, obj->ino_dev; 0 for objects in a slab), so
 * that importing a dma-buf finds its object without walking every object
 * (i915 finds it through the dma-buf's own pointer to its GEM object). A
 * hash of chains through obj->ino_next; all under dev->lock. */
#ifndef GTSIM_KERNEL_OBJ_INO_H
#define GTSIM_KERNEL_OBJ_INO_H

#include <stdint.h>
#include <sys/types.h>

struct gtsim_device;
struct gem_object;

#define OBJ_INO_FIRST_BUCKETS 64
struct obj_ino_index {
	struct gem_object **buckets;   /* first, or a larger table once grown */
	uint32_t nbuckets;             /* a power of two */
	uint32_t count;
	/* the table before it grows: indexing never fails for want of memory
	 * (a failed growth only leaves longer chains) */
	struct gem_object *first[OBJ_INO_FIRST_BUCKETS];
};

void obj_ino_index_init(struct obj_ino_index *index);
/* obj's pages are now file (ino, ino_dev): sets obj->ino, obj->ino_dev and
 * indexes obj (replacing an earlier entry of its own). ino 0: unindexed. */
void obj_ino_set(struct gem_object *obj, ino_t ino, dev_t ino_dev);
/* The object whose pages are that file, or NULL. */
struct gem_object *obj_ino_find(struct gtsim_device *dev, ino_t ino, dev_t ino_dev);
/* Any object whose file has inode ino, on whatever device (the fork
 * child's question, gtsim_device_owns_inode). */
struct gem_object *obj_ino_find_any_dev(struct gtsim_device *dev, ino_t ino);
void obj_ino_index_fini(struct obj_ino_index *index);

#endif
