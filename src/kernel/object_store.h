/* The objects' backing store: where a GEM object's pages live (i915's
 * shmem files).
 *
 * A memfd per object costs one descriptor and one host mapping per
 * object, so a client with a million small objects would run into the
 * descriptor limit and into the kernel's limit on mappings
 * (vm.max_map_count, 65530 by default). So objects of at most
 * STORE_SLAB_MAX_OBJECT bytes share slabs: memfds of STORE_SLAB_BYTES
 * mapped once, handed out in pages. Larger objects, and any object the
 * client maps with the CPU or exports as a dma-buf, have a memfd of their
 * own: store_own() moves a slab object's pages into one ("promotion"),
 * keeping its host address, so the GPU's physical range and every kernel
 * pointer to it stay valid. Objects larger than STORE_SLAB_MAX_OBJECT get
 * an own memfd at once.
 *
 * No object holds a descriptor of its own: an own memfd is closed once
 * mapped (the mapping keeps its pages) and opened again from the mapping
 * (common/map_file.h) only when a descriptor is handed out: a dma-buf, a
 * client's CPU mapping, the shared device's MMAP message. Only the slabs
 * keep theirs (one per 64 MiB). Where the process may not reopen a
 * mapping's file (no CAP_CHECKPOINT_RESTORE), own memfds keep their
 * descriptor as before.
 *
 * An object's memory is obj->map (host), its file obj->memfd at
 * obj->memfd_offset (-1 for an own file). All under dev->lock. */
#ifndef GTSIM_KERNEL_OBJECT_STORE_H
#define GTSIM_KERNEL_OBJECT_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/list.h"

#define STORE_SLAB_BYTES (64ull << 20)
#define STORE_SLAB_MAX_OBJECT (64ull << 10)

struct gem_object;

/* The device's slabs (struct store_slab.link) and their count. */
struct obj_store {
	struct list_node slabs;
	unsigned nslabs;
};

void store_init(struct obj_store *store);
/* Frees the empty slabs (device destruction; objects still alive keep
 * theirs). */
void store_fini(struct obj_store *store);

/* Memory for obj->size bytes: fills obj->memfd, memfd_offset, map, ino
 * (0 for a slab object: no file stands for it alone). 0 or -ENOMEM. */
int store_attach(struct obj_store *store, struct gem_object *obj);
/* Gives the memory back (the object is being freed). */
void store_detach(struct obj_store *store, struct gem_object *obj);
/* Drops the object's pages, keeping its mappings valid (they read
 * zeros): the shrinker's truncate. */
void store_punch(struct gem_object *obj);
/* Gives a slab object a memfd of its own holding its bytes (nothing to
 * do for the others). The caller makes sure the GPU is done with it.
 * 0 or -ENOMEM (the object is unchanged). */
int store_own(struct gem_object *obj);
/* A new descriptor of the file holding obj's pages (a slab's: the object
 * at obj->memfd_offset; an own file: flags' access mode, O_CLOEXEC), for
 * the caller to close; -errno. */
int store_open(const struct gem_object *obj, int flags);
/* Whether obj's pages are in a slab (shared file, no memfd of its own). */
bool store_in_slab(const struct gem_object *obj);

#endif
