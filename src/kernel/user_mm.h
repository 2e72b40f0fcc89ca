/* The client's address space as the kernel model must track it (the part
 * of Linux's mm that i915 relies on): the ranges of GEM_USERPTR objects,
 * which the mmu notifier watches, and the ranges mapped through fake mmap
 * offsets, which i915 maps VM_PFNMAP (so USERPTR's probe and get_pages
 * refuse them).
 *
 * One registry per process (the shim runs the model in the client's
 * process, so the client's pointers are ours). The shim calls
 * gtsim_mm_invalidate() (gtsim/gtsim.h) before munmap, mremap, mprotect,
 * madvise(DONTNEED...) and mmap(MAP_FIXED) change a range: the userptr
 * objects overlapping it wait for the GPU and are validated again before
 * their next use, as i915_gem_userptr_invalidate() does.
 *
 * Changes the C library makes without going through those symbols (free()
 * of a large block, brk) are not seen: a GPU access to such a page faults,
 * and the process's fault handler (common/sigfault.h) maps a zero page
 * there and marks the object lost, so the host survives; the next use of
 * the object is -EFAULT with an error state. */
#ifndef GTSIM_KERNEL_USER_MM_H
#define GTSIM_KERNEL_USER_MM_H

#include <stdbool.h>
#include <stdint.h>

struct gem_object;

/* Registers obj's range [obj->user_ptr, + obj->size): its slot, or -1
 * (-ENOMEM). Installs the fault fixup on first use. */
int user_mm_add_userptr(struct gem_object *obj);
void user_mm_remove(int slot);
/* Did a GPU access find a page of the slot's range unmapped. */
bool user_mm_lost(int slot);

/* A fake-offset mapping of obj at [addr, addr + len) with prot and flags
 * (gtsim_mmap; gtt: an MMAP_GTT / MMAP_OFFSET GTT mapping): 0, or -ENOMEM
 * when the registry cannot grow. */
int user_mm_add_io(uint64_t addr, uint64_t len, struct gem_object *obj, bool gtt, int prot,
		   int flags);
/* obj is freed: its mappings stay (they hold its memfd) but name no object. */
void user_mm_forget_io(struct gem_object *obj);
/* Calls fn(ctx, addr, len, prot, flags) for each fake-offset mapping of obj
 * (only the GTT ones with gtt_only), without any lock of the registry:
 * i915 revokes them when it purges the object (SIGBUS from then on) and
 * when a tiling change moves them to another fence. */
void user_mm_each_io(struct gem_object *obj, bool gtt_only,
		     void (*fn)(void *ctx, uint64_t addr, uint64_t len, int prot, int flags),
		     void *ctx);

/* The model's own mmap calls of client ranges (gtsim_mmap with MAP_FIXED)
 * while it holds dev->lock: the notifier must not run again for them (the
 * shim already called it). */
void user_mm_quiet(bool quiet);

/* Is [addr, addr + len) entirely mapped, with the protections in need,
 * and nowhere an IO (fake-offset) mapping? need 0 is i915's probe_range()
 * (mapped, no PFNMAP), USER_MM_READ [| USER_MM_WRITE] its
 * pin_user_pages(). 0 or -EFAULT. */
#define USER_MM_READ 1u
#define USER_MM_WRITE 2u
int user_mm_check_range(uint64_t addr, uint64_t len, unsigned need);

/* Slots in use and the table's size, for tests. */
void user_mm_stats(unsigned *used, unsigned *cap);

#endif
