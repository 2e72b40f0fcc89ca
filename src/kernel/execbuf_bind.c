/* Reservation (i915's eb_validate_vmas / eb_reserve): every exec object
 * bound into the context's PPGTT and pinned while the ioctl runs.
 * Objects keep their current place when it still satisfies the request;
 * an unbound object first tries the address userspace presumed
 * (exec.offset), then any hole (evicting idle objects when needed).
 * Softpinned objects (EXEC_OBJECT_PINNED) go exactly where asked; without
 * EXEC_OBJECT_SUPPORTS_48B_ADDRESS an object stays below 4 GiB; a batch
 * with relocations stays above 256 KiB (i915's BATCH_OFFSET_BIAS). */
#include "kernel/execbuf.h"

#include <errno.h>

#include "common/trace.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/object.h"
#include "kernel/vm.h"

#define BATCH_OFFSET_BIAS (256 * 1024)

static unsigned pin_flags(const struct execbuf *eb, unsigned i, uint64_t *offset)
{
	const struct drm_i915_gem_exec_object2 *entry = &eb->exec[i];
	unsigned flags = PIN_PIN | PIN_WAIT;
	*offset = 0;
	if (!(entry->flags & EXEC_OBJECT_SUPPORTS_48B_ADDRESS))
		flags |= PIN_ZONE_4G;
	if (entry->flags & EXEC_OBJECT_PINNED) {
		flags |= PIN_OFFSET_FIXED;
		*offset = gen8_noncanonical(entry->offset);
	} else if (i == eb->batch_idx && entry->relocation_count) {
		flags |= PIN_OFFSET_BIAS;
		*offset = BATCH_OFFSET_BIAS;
	}
	return flags;
}

static int bind_one(struct execbuf *eb, struct gem_vm *vm, unsigned i)
{
	struct eb_object *eo = &eb->eo[i];
	const struct drm_i915_gem_exec_object2 *entry = &eb->exec[i];
	uint64_t offset, align = entry->alignment;
	unsigned flags = pin_flags(eb, i, &offset);
	struct gem_vma *vma = vma_lookup(vm, eo->obj);
	int err;

	/* PAD_TO_SIZE: the object's node in the VM is at least that large */
	uint64_t pad = entry->flags & EXEC_OBJECT_PAD_TO_SIZE ? entry->pad_to_size : 0;
	if (!vma && !(flags & PIN_OFFSET_FIXED)) {
		/* Try where userspace presumed it (its relocations then hold). */
		uint64_t want = gen8_noncanonical(entry->offset);
		if (!(want & 4095) && (!(flags & PIN_OFFSET_BIAS) || want >= offset) &&
		    vma_bind_padded(vm, eo->obj, pad,
				    (flags & ~PIN_OFFSET_BIAS) | PIN_OFFSET_FIXED | PIN_NOEVICT,
				    want, align, &eo->vma) == 0)
			goto bound;
	}
	err = vma_bind_padded(vm, eo->obj, pad, flags, offset, align, &eo->vma);
	if (err == -ENOSPC && (flags & PIN_OFFSET_FIXED)) {
		/* Busy objects in the way are retired or waited for. Two of
		 * this execbuf's softpinned objects that overlap stay -ENOSPC,
		 * as Linux 6.1's i915_gem_evict_for_node answers for any pinned
		 * node in the way (older kernels said -EINVAL for softpins;
		 * IGT's gem_softpin accepts both). */
		requests_retire(eb->dev);
		err = vma_bind_padded(vm, eo->obj, pad, flags, offset, align, &eo->vma);
	}
	if (err) {
		eo->vma = NULL;
		return err;
	}
bound:
	eo->moved = eo->vma->start != gen8_noncanonical(entry->offset);
	if (eo->moved)
		eb->has_reloc = true;
	return 0;
}

int eb_reserve(struct execbuf *eb)
{
	struct gem_vm *vm = eb->ctx->vm;
	/* First what has a fixed place or already sits where it may stay, so
	 * that binding the others cannot evict them; then, as i915's
	 * eb_reserve orders its unbound list, the objects confined below
	 * 4 GiB (no EXEC_OBJECT_SUPPORTS_48B_ADDRESS) before the others, which
	 * would otherwise fill that zone first (gem_exec_capture many-4K:
	 * 1.5 million 48-bit objects, then a batch without the flag). */
	for (unsigned pass = 0; pass < 3; pass++) {
		for (unsigned i = 0; i < eb->count; i++) {
			struct eb_object *eo = &eb->eo[i];
			if (eo->vma)
				continue;
			if (pass == 1 && (eb->exec[i].flags & EXEC_OBJECT_SUPPORTS_48B_ADDRESS))
				continue;
			if (pass == 0) {
				uint64_t offset;
				unsigned flags = pin_flags(eb, i, &offset);
				struct gem_vma *cur = vma_lookup(vm, eo->obj);
				if (!(flags & PIN_OFFSET_FIXED) &&
				    !(cur && vma_fits(cur, flags, offset, eb->exec[i].alignment)))
					continue;
			}
			int err = bind_one(eb, vm, i);
			if (err) {
				TRACE(TRACE_GEM, "execbuf: binding object %u (handle %u) failed: %d",
				      i, eb->exec[i].handle, err);
				return err;
			}
		}
	}
	return 0;
}

void eb_unpin(struct execbuf *eb)
{
	for (unsigned i = 0; i < eb->looked_up; i++) {
		if (eb->eo[i].vma) {
			vma_unpin(eb->eo[i].vma);
			eb->eo[i].vma = NULL;
		}
	}
}
