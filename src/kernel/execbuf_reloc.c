/* Relocations (seed 002; i915's eb_relocate_entry): userspace wrote into
 * its objects the addresses it presumed, listed in relocation entries with
 * presumed_offset. Each entry is checked; only those whose target is not
 * where presumed are rewritten, with the target's address plus delta as a
 * 64-bit value on gen8, and the new presumed_offset is written back to the
 * entry. All entries are checked before any object is written, so a bad
 * entry changes nothing. Trace category reloc. */
#include "kernel/execbuf.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "common/user_copy.h"
#include "kernel/object.h"
#include "kernel/vm.h"

#define GPU_DOMAINS (I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER | \
		     I915_GEM_DOMAIN_COMMAND | I915_GEM_DOMAIN_INSTRUCTION | \
		     I915_GEM_DOMAIN_VERTEX)

struct eb_relocs {
	struct drm_i915_gem_relocation_entry *r;
	uint32_t n;
	int *target;               /* exec index per entry, -1: kept */
};

/* Copy and check one object's entries; mark those to rewrite. */
static int check_relocs(struct execbuf *eb, unsigned i, struct eb_relocs *rl, unsigned *todo)
{
	const struct drm_i915_gem_exec_object2 *entry = &eb->exec[i];
	struct gem_object *obj = eb->eo[i].obj;
	rl->n = entry->relocation_count;
	if (!rl->n)
		return 0;
	size_t bytes = (size_t)rl->n * sizeof(*rl->r);
	/* i915's check_relocations: every page of the array is readable (a
	 * byte of each) before anything is allocated for it; a fuzzed count
	 * near 2^32 otherwise allocated 128 GB. */
	char probe;
	for (size_t at = 0; at < bytes; at += GT_PAGE_SIZE)
		if (copy_from_user_ptr(&probe, entry->relocs_ptr + at, 1))
			return -EFAULT;
	if (copy_from_user_ptr(&probe, entry->relocs_ptr + bytes - 1, 1))
		return -EFAULT;
	rl->r = malloc(bytes);
	rl->target = malloc(rl->n * sizeof(int));
	if (!rl->r || !rl->target)
		return -ENOMEM;
	if (copy_from_user_ptr(rl->r, entry->relocs_ptr, bytes))
		return -EFAULT;
	for (uint32_t k = 0; k < rl->n; k++) {
		const struct drm_i915_gem_relocation_entry *r = &rl->r[k];
		int t = eb_reloc_target(eb, r->target_handle);
		rl->target[k] = -1;
		if (t < 0)
			return -ENOENT;
		if (r->write_domain & (r->write_domain - 1))
			return -EINVAL;    /* more than one write domain */
		if ((r->write_domain | r->read_domains) & ~GPU_DOMAINS)
			return -EINVAL;    /* CPU/GTT are not GPU domains */
		if (r->write_domain)
			eb->eo[t].flags |= EB_WRITE;
		uint64_t addr = gen8_canonical(eb->eo[t].vma->start);
		if (addr == r->presumed_offset) {
			TRACE(TRACE_RELOC, "object %u +0x%llx -> handle %u: presumed 0x%llx "
			      "correct, kept", i, (unsigned long long)r->offset, r->target_handle,
			      (unsigned long long)r->presumed_offset);
			continue;
		}
		/* 64-bit relocations on gen8: 8 bytes inside the object. */
		if (r->offset > obj->size - 8 || (r->offset & 3))
			return -EINVAL;
		rl->target[k] = t;
		(*todo)++;
	}
	return 0;
}

static void apply_relocs(struct execbuf *eb, unsigned i, struct eb_relocs *rl)
{
	const struct drm_i915_gem_exec_object2 *entry = &eb->exec[i];
	uint8_t *map = eb->eo[i].obj->map;
	uint64_t refused_page = ~0ull;   /* user page a write-back faulted on */
	for (uint32_t k = 0; k < rl->n; k++) {
		struct drm_i915_gem_relocation_entry *r = &rl->r[k];
		int t = rl->target[k];
		if (t < 0)
			continue;
		uint64_t start = eb->eo[t].vma->start;
		uint64_t value = gen8_canonical(start + (uint64_t)(int64_t)(int32_t)r->delta);
		uint32_t lo = (uint32_t)value, hi = (uint32_t)(value >> 32);
		if (eb->eo[i].obj->userptr) {
			/* The client's memory: it may vanish under us. */
			uint32_t both[2] = { lo, hi };
			(void)copy_to_user_ptr((uintptr_t)(map + r->offset), both, 8);
		} else {
			memcpy(map + r->offset, &lo, 4);
			memcpy(map + r->offset + 4, &hi, 4);
		}
		TRACE(TRACE_RELOC, "object %u +0x%llx -> handle %u: presumed 0x%llx, now at "
		      "0x%llx: rewritten to 0x%llx", i, (unsigned long long)r->offset,
		      r->target_handle, (unsigned long long)r->presumed_offset,
		      (unsigned long long)gen8_canonical(start), (unsigned long long)value);
		/* Tell userspace where the target is now (i915 does the same;
		 * a read-only array just loses the update). A page that
		 * refused one update refuses the next: do not fault on it
		 * again (a million entries in read-only pages were a million
		 * signals). */
		uint64_t presumed = gen8_canonical(start);
		uint64_t uptr = entry->relocs_ptr + (uint64_t)k * sizeof(*r) +
				offsetof(struct drm_i915_gem_relocation_entry, presumed_offset);
		uint64_t page = uptr / GT_PAGE_SIZE;
		bool one_page = page == (uptr + sizeof(presumed) - 1) / GT_PAGE_SIZE;
		if (!(one_page && page == refused_page) &&
		    copy_to_user_ptr(uptr, &presumed, sizeof(presumed)) && one_page)
			refused_page = page;
	}
}

int eb_relocate(struct execbuf *eb)
{
	struct eb_relocs stack[EB_STACK], *rl = stack;
	unsigned todo = 0;
	int err = 0;
	if (eb->count > EB_STACK && !(rl = calloc(eb->count, sizeof(*rl))))
		return -ENOMEM;
	if (rl == stack)
		memset(stack, 0, sizeof(stack));
	for (unsigned i = 0; i < eb->count && !err; i++)
		err = check_relocs(eb, i, &rl[i], &todo);
	if (!err && todo) {
		/* Objects the GPU still reads are waited for before their
		 * contents change, interruptibly as i915's reloc_kmap ->
		 * i915_gem_object_prepare_write: a signal ends the call with
		 * -ERESTARTSYS before any relocation is written. A wait drops
		 * dev->lock, so another client may have submitted a request
		 * reading an object already waited for (IGT gem_exec_reloc
		 * basic-concurrent0 under the shared device: its relocations
		 * were overwritten before its batch ran): again until one pass
		 * finds them all idle, which i915's object lock held from the
		 * wait to the submission gives. */
		bool waited = true;
		while (waited && !err) {
			waited = false;
			for (unsigned i = 0; i < eb->count && !err; i++)
				if (rl[i].n && obj_wait_needed(eb->eo[i].obj, true)) {
					err = obj_wait_rendering_interruptible(eb->eo[i].obj, true, -1);
					waited = true;
				}
		}
		for (unsigned i = 0; i < eb->count && !err; i++)
			apply_relocs(eb, i, &rl[i]);
	}
	for (unsigned i = 0; i < eb->count; i++) {
		free(rl[i].r);
		free(rl[i].target);
	}
	if (rl != stack)
		free(rl);
	return err;
}
