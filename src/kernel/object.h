/* GEM buffer objects (i915's drm_i915_gem_object).
 *
 * Backing store is a range of a memfd (object_store.h: a slab shared by
 * small objects, or a memfd of the object's own once the client maps or
 * exports it), mapped in the host and registered as one contiguous
 * physical range, so the CPU mappings handed to userspace (GEM_MMAP, mmap
 * of fake offsets, prime fds) and the GPU's page walks see the same bytes.
 *
 * Lifetime (seed 002): obj->refcount counts every holder: each handle in a
 * file, each flink name, and each "active" use by the GPU. The object is
 * freed (unbound from every address space, memory released) when the count
 * drops to zero, so an object stays alive while the GPU uses it even after
 * userspace closed its last handle. All under dev->lock. */
#ifndef GTSIM_KERNEL_OBJECT_H
#define GTSIM_KERNEL_OBJECT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gpu/gpu.h"
#include "kernel/list.h"

struct gtsim_device;
struct gtsim_file;
struct gem_request;    /* execbuf's (request.c) */
struct gtt_view;       /* gtt_fence.c */
struct store_slab;     /* object_store.c */

struct gt_fence;

struct gem_object {
	struct gtsim_device *dev;
	uint64_t size;             /* bytes, a multiple of 4096 */
	/* The file holding the pages, at memfd_offset: a slab's descriptor
	 * (the store's), or for a file of the object's own (own_file) -1: its
	 * mapping at map keeps it, store_open() opens it again when a
	 * descriptor must be handed out (object_store.h). */
	int memfd;
	uint64_t memfd_offset;
	bool own_file;             /* the pages are a file of their own (dma-buf identity) */
	ino_t ino;                 /* that file's inode and device, 0 in a slab: prime */
	dev_t ino_dev;             /* import lookup; set both with obj_ino_set() */
	struct gem_object *ino_next; /* dev->ino_index's chain (obj_ino.c) */
	void *map;                 /* host mapping of the object's pages */
	struct store_slab *slab;   /* object_store.c: the slab its map lies in, or NULL */
	uint64_t slab_offset;
	uint64_t pa;               /* GPU physical address of map */
	unsigned refcount;
	unsigned handle_count;     /* handles in all files; name dropped at 0 */
	/* Those handles, (file, handle) each: prime import gives back the
	 * importing file's existing handle without walking the file's table
	 * (i915 keeps a per-file dma-buf -> handle tree for it). */
	struct obj_handle_ref *handle_refs;
	uint32_t flink_name;       /* 0: none */
	struct list_node dev_link; /* dev->objects */
	struct list_node vmas;     /* struct gem_vma.obj_link: its bindings */

	uint32_t tiling;           /* I915_TILING_NONE/X/Y */
	uint32_t stride;           /* bytes; 0 when untiled */
	uint32_t caching;          /* I915_CACHING_NONE/CACHED/DISPLAY */
	uint32_t madv;             /* I915_MADV_WILLNEED/DONTNEED */
	bool purged;               /* DONTNEED object whose pages were dropped */
	/* i915's i915_gem_object_has_pages(): the kernel pinned the pages
	 * since the last shrink (binding, PREAD, SET_DOMAIN). PWRITE and CPU
	 * mappings go to the shmem file without them. MADVISE(DONTNEED) of
	 * an object without pages truncates it at once. */
	bool has_pages;
	/* PREAD/PWRITE copies in progress (gem_rw.c): they copy without the
	 * device lock, as i915 copies with the pages pinned and no lock held
	 * (a copy may wait on a userfault for ever); the shrinker leaves the
	 * object's pages alone meanwhile. */
	uint32_t cpu_copies;
	bool imported;             /* wraps a foreign memfd (prime import) */
	/* GEM_USERPTR (gem_userptr.c): map and pa are the client's own memory
	 * at user_ptr (no memfd: memfd is -1). userptr_stale: the client's
	 * mapping changed (the mmu notifier fired), validate again before the
	 * next GPU use; lost (user_mm_lost()): a GPU access found a page unmapped behind
	 * gtsim's back (the fault handler records it in the registry slot). */
	bool userptr;
	bool readonly;             /* I915_USERPTR_READ_ONLY: PTEs without RW */
	bool userptr_stale;
	bool userptr_lost_reported;
	int user_mm_slot;          /* its range in the registry (user_mm.h) */
	uint64_t user_ptr;
	/* A client of the device server's: map is a shadow of the client's
	 * range, synced with it (server/userptr_shadow.h); else NULL. */
	struct userptr_shadow *shadow;
	uint32_t mmap_node[4];     /* fake-offset node per I915_MMAP_OFFSET_* type */
	struct gtt_view *gtt_view; /* GTT mappings of the tiled object (gtt_fence.h) */

	/* --- owned by execbuf (request.c, execbuf*.c, wait.c, busy) ---
	 * Every request using the object not yet retired (readers, in no
	 * particular order: obj_readers.c) and the last one that wrote it
	 * (each holds its own reference on the request; NULL when none or
	 * retired). active_count: outstanding requests using the
	 * object; while > 0 the object holds one extra refcount (taken with
	 * obj_active_get()) and is never evicted. Domains as i915 tracks them. */
	struct gem_request **readers;
	unsigned nreaders, readers_cap;
	struct gem_request *last_write;
	unsigned active_count;
	uint32_t read_domains, write_domain;
	/* Did userspace ask for a capture of this object in error states. */
	bool capture;
	/* Fences of other drivers in the object's reservation (vgem's
	 * FENCE_ATTACH: dma_resv usage WRITE or READ), one reference each;
	 * obj_resv.c. */
	struct obj_ext_fence *ext;
	unsigned n_ext, ext_cap;
};

struct obj_handle_ref {
	struct gtsim_file *file;
	uint32_t handle;
	struct obj_handle_ref *next;
};

struct obj_ext_fence {
	struct gt_fence *fence;
	bool write;
};

/* A new object of size bytes (rounded up to pages; 0 -> NULL) with
 * refcount 1 and no handle. NULL with *err = -EINVAL/-ENOMEM/-E2BIG. Also
 * used for kernel-owned objects (rings, status pages). dev->lock held. */
struct gem_object *obj_create(struct gtsim_device *dev, uint64_t size, int *err);
/* An object around a foreign memfd (prime import). Dups fd. */
struct gem_object *obj_import_memfd(struct gtsim_device *dev, int fd, int *err);
/* An object whose pages are the client's memory [user, user + size), both
 * page aligned (GEM_USERPTR; the caller checked the range). */
struct gem_object *obj_create_user(struct gtsim_device *dev, void *user, uint64_t size, int *err);
/* Before the client maps obj's memfd or gets it as a dma-buf: a slab
 * object's pages move to a memfd of their own (object_store.h), the GPU
 * held between two commands meanwhile. 0 or -ENOMEM. dev->lock held. */
int obj_own_memfd(struct gem_object *obj);
struct gem_object *obj_get(struct gem_object *obj);
void obj_put(struct gem_object *obj);
/* The GPU starts / stops using obj (execbuf): counts active_count and holds
 * a reference while it is > 0. */
void obj_active_get(struct gem_object *obj);
void obj_active_put(struct gem_object *obj);
static inline bool obj_is_active(const struct gem_object *obj) { return obj->active_count > 0; }

/* GEM_USERPTR objects (gem_userptr.c). userptr_validate() is i915's
 * get_pages for them (pin_user_pages): the whole range mapped by the
 * client, writable unless read-only, not an IO mapping: 0 or -EFAULT.
 * Called before every GPU use (execbuf, SET_DOMAIN). userptr_release()
 * forgets the range (obj_free). dev->lock held. */
int userptr_validate(struct gem_object *obj);
void userptr_release(struct gem_object *obj);

/* Handles (per file). obj_lookup() returns a new reference or NULL
 * (-ENOENT); the caller puts it. */
struct gem_object *obj_lookup(struct gtsim_file *file, uint32_t handle);
/* Adds a handle for obj (takes its own reference): 0 or -ENOMEM. */
int obj_handle_create(struct gtsim_file *file, struct gem_object *obj, uint32_t *handle);
/* 0 or -ENOENT. */
int obj_handle_delete(struct gtsim_file *file, uint32_t handle);
/* The file's existing handle for obj, or 0. */
uint32_t obj_find_handle(struct gtsim_file *file, struct gem_object *obj);

/* Fake mmap offsets (gem_mmap.c): one node per object and mapping type
 * (I915_MMAP_OFFSET_GTT/WC/WB/UC); gtsim_mmap() maps them for the files
 * allowed on the node: mmap_node_offset() allows file (NULL: none),
 * mmap_nodes_revoke() forgets it when it closes a handle of obj (as
 * i915_gem_close_object() revokes its vma nodes). */
int mmap_node_offset(struct gem_object *obj, unsigned type, struct gtsim_file *file,
		     uint64_t *offset);
void mmap_nodes_revoke(struct gem_object *obj, struct gtsim_file *file);
void mmap_nodes_release(struct gem_object *obj);
/* The fake-offset mappings of obj raise SIGBUS from now on (a purge: i915
 * revokes them and its fault handler cannot get pages). */
void mmap_revoke(struct gem_object *obj);
/* obj's tiling changed between none and X/Y: each of its GTT mappings is
 * moved to the fenced view or to the plain memory (i915 zaps them and the
 * next fault maps through the new fence; gem_mmap.c). dev->lock held. */
void mmap_gtt_retile(struct gem_object *obj);

/* Wait for the GPU to finish with obj: every use (write) or only its
 * outstanding writes (!write), other drivers' fences included (the whole
 * reservation, as i915_gem_object_wait). timeout_ns < 0: forever. 0,
 * -ETIME, -EIO.
 * Called with dev->lock held; drops it while waiting. In wait.c. */
int obj_wait_rendering(struct gem_object *obj, bool write, int64_t timeout_ns);
/* The same where i915 waits with I915_WAIT_INTERRUPTIBLE (GEM_WAIT,
 * SET_DOMAIN, PREAD/PWRITE, execbuf's eviction and relocation waits):
 * -GTSIM_ERESTARTSYS once a client's signal
 * handler ran (include/gtsim/gtsim.h). */
int obj_wait_rendering_interruptible(struct gem_object *obj, bool write, int64_t timeout_ns);
/* Only i915's own requests, interruptibly (i915_vma_sync before an unbind:
 * eviction does not wait for other drivers' fences). */
int obj_wait_gpu_interruptible(struct gem_object *obj);
/* Whether a wait for write (or read) access would wait, i.e. whether the
 * reservation is busy for that access (dma-buf poll, vgem's FENCE_ATTACH
 * conflict check, the relocation loop): a request using
 * obj has not completed (completed ones may still count as active until
 * they are retired) or another driver's fence is pending. dev->lock held. */
bool obj_wait_needed(struct gem_object *obj, bool write);

/* The readers list (obj_readers.c), dev->lock held. add: rq takes a
 * reference there (-ENOMEM); drop: rq leaves it (nothing if absent);
 * pending: how many have not completed, the first max of them in out (no
 * reference). */
int obj_add_reader(struct gem_object *obj, struct gem_request *rq);
void obj_drop_reader(struct gem_object *obj, struct gem_request *rq);
unsigned obj_pending_readers(struct gem_object *obj, struct gem_request **out, unsigned max);
/* obj_resv.c: the other drivers' fences of the object's reservation.
 * obj_ext_fence_add() adds one (a reference); obj_ext_fences() drops the
 * signalled ones and gives the others a reader or writer must wait for
 * (write access: all; read access: the write ones), with a reference
 * each, at most max of them, returning how many there are; obj_ext_release()
 * drops them all (the object is freed). dev->lock held. */
int obj_ext_fence_add(struct gem_object *obj, struct gt_fence *f, bool write);
unsigned obj_ext_fences(struct gem_object *obj, bool write, struct gt_fence **out, unsigned max);
void obj_ext_release(struct gem_object *obj);
/* Linux keeps a GEM object and its reservation while a dma-buf of it is
 * open; gtsim frees the object with its last handle and keeps only the
 * memfd. So an exported object freed with other drivers' fences pending
 * leaves them to its file (by inode): obj_ext_release() does,
 * obj_resv_adopt() gives them to an object importing that file again,
 * obj_resv_orphan_pending() answers dma-buf poll for it (write: every
 * fence, else the write ones). dev->lock held. */
void obj_resv_adopt(struct gem_object *obj, const struct stat *st);
bool obj_resv_orphan_pending(struct gtsim_device *dev, const struct stat *st, bool write);
void obj_resv_orphans_free(struct gtsim_device *dev);

/* CPU range checks shared by pread/pwrite/mmap: offset + len within the
 * object, without overflow. */
static inline bool obj_range_ok(const struct gem_object *obj, uint64_t offset, uint64_t len)
{
	return offset <= obj->size && len <= obj->size - offset;
}

#endif
