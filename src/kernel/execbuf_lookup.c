/* Exec objects: handles to objects (i915's eb_lookup_vmas), each checked
 * (eb_validate_vma), duplicates refused, the batch chosen (last, or first
 * with I915_EXEC_BATCH_FIRST) and its range checked. dev->lock held. */
#include "kernel/gtt_fence.h"
#include "kernel/execbuf.h"

#include <errno.h>
#include <stdlib.h>

#include "common/user_copy.h"
#include "kernel/object.h"

/* Is obj already among the first n exec objects? Small lists are scanned;
 * larger ones sorted by pointer once (see eb_lookup_objects). */
static bool seen(const struct execbuf *eb, unsigned n, const struct gem_object *obj)
{
	for (unsigned i = 0; i < n; i++)
		if (eb->eo[i].obj == obj)
			return true;
	return false;
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
	return x < y ? -1 : x > y;
}

static bool has_duplicates(const struct execbuf *eb)
{
	if (eb->count <= 32) {
		for (unsigned i = 1; i < eb->count; i++)
			if (seen(eb, i, eb->eo[i].obj))
				return true;
		return false;
	}
	void **v = malloc(eb->count * sizeof(*v));
	if (!v)
		return false;
	for (unsigned i = 0; i < eb->count; i++)
		v[i] = eb->eo[i].obj;
	qsort(v, eb->count, sizeof(*v), cmp_ptr);
	bool dup = false;
	for (unsigned i = 1; i < eb->count && !dup; i++)
		dup = v[i] == v[i - 1];
	free(v);
	return dup;
}

static int note_fault_in(struct execbuf *eb, const struct gem_object *obj)
{
	struct eb_user_range *r = realloc(eb->fault_in, (eb->nfault_in + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	eb->fault_in = r;
	r[eb->nfault_in++] = (struct eb_user_range){ .addr = obj->user_ptr, .size = obj->size };
	return 0;
}

/* pin_user_pages() of each noted range: one access per page faults it in
 * (or finds it unmapped: the second pass's userptr_validate says -EFAULT).
 * A read, because a write would race with the client's own; a missing
 * page is a fault either way. dev->lock is not held. */
void eb_userptr_fault_in(struct execbuf *eb)
{
	for (unsigned i = 0; i < eb->nfault_in; i++) {
		const struct eb_user_range *r = &eb->fault_in[i];
		for (uint64_t off = 0; off < r->size; off += GT_PAGE_SIZE) {
			uint8_t byte;
			if (copy_from_user_ptr(&byte, r->addr + off, 1))
				break;
		}
	}
	free(eb->fault_in);
	eb->fault_in = NULL;
	eb->nfault_in = 0;
	eb->faulted_in = true;
}

int eb_lookup_objects(struct execbuf *eb)
{
	eb->batch_idx = (eb->args->flags & I915_EXEC_BATCH_FIRST) ? 0 : eb->count - 1;
	for (unsigned i = 0; i < eb->count; i++) {
		struct drm_i915_gem_exec_object2 *entry = &eb->exec[i];
		struct gem_object *obj = obj_lookup(eb->file, entry->handle);
		if (!obj)
			return -ENOENT;
		eb->eo[i] = (struct eb_object){ .obj = obj, .flags = (uint32_t)entry->flags };
		eb->looked_up = i + 1;
		int err = eb_check_object(entry);
		/* i915's eb_lookup_vmas(): a userptr object gets its pages
		 * (i915_gem_object_userptr_submit_init) or fails -EFAULT.
		 * Getting them faults them in, which may sleep as long as the
		 * client likes (a userfaultfd handler: gem_exec_schedule
		 * pi-userfault), and i915 holds no lock meanwhile: so the
		 * first pass only notes the ranges, the caller faults them in
		 * without dev->lock, and the second pass checks them. */
		if (!err && obj->userptr && obj->userptr_stale && !eb->faulted_in)
			err = note_fault_in(eb, obj);
		else if (!err)
			err = userptr_validate(obj);
		/* the CPU's writes through a GTT view reach the pages the GPU
		 * reads; its later reads see what the GPU wrote */
		if (!err)
			gtt_fence_sync(obj);
		if (err)
			return err;
	}
	if (eb->nfault_in)
		return EB_FAULT_IN;
	/* An object appears once (i915: "appears more than once in object
	 * list"). */
	if (has_duplicates(eb))
		return -EINVAL;

	struct eb_object *batch = &eb->eo[eb->batch_idx];
	/* No self-modifying batches. */
	if (batch->flags & EXEC_OBJECT_WRITE)
		return -EINVAL;
	uint64_t size = batch->obj->size;
	if (eb->batch_start > size || eb->batch_len > size - eb->batch_start)
		return -EINVAL;
	if (!eb->batch_len)
		eb->batch_len = size - eb->batch_start;
	if (!eb->batch_len)
		return -EINVAL;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int eb_reloc_target(struct execbuf *eb, uint32_t target_handle)
{
	if (eb->args->flags & I915_EXEC_HANDLE_LUT)
		return target_handle < eb->count ? (int)target_handle : -1;
	/* Only objects of this execbuf can be targets: a scan for a few, a
	 * binary search in (handle, index) pairs for many. */
	if (eb->count > 32 && !eb->handle_index) {
		eb->handle_index = malloc(eb->count * sizeof(uint64_t));
		if (eb->handle_index) {
			for (unsigned i = 0; i < eb->count; i++)
				eb->handle_index[i] = (uint64_t)eb->exec[i].handle << 32 | i;
			qsort(eb->handle_index, eb->count, sizeof(uint64_t), cmp_u64);
		}
	}
	if (eb->handle_index) {
		size_t lo = 0, hi = eb->count;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			uint32_t h = (uint32_t)(eb->handle_index[mid] >> 32);
			if (h == target_handle)
				return (int)(uint32_t)eb->handle_index[mid];
			if (h < target_handle)
				lo = mid + 1;
			else
				hi = mid;
		}
		return -1;
	}
	for (unsigned i = 0; i < eb->count; i++)
		if (eb->exec[i].handle == target_handle)
			return (int)i;
	return -1;
}

void eb_release_objects(struct execbuf *eb)
{
	for (unsigned i = 0; i < eb->looked_up; i++)
		obj_put(eb->eo[i].obj);
	eb->looked_up = 0;
}
