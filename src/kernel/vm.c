/* Address-space management: a drm_mm-like range allocator over each vm's
 * sorted vma list, binding and unbinding, and LRU eviction of unpinned,
 * inactive bindings when no hole fits (seed 002: the kernel moves buffers
 * around when they don't all fit in the GTT). */
#include "kernel/vm.h"

#include <errno.h>
#include <stdlib.h>

#include "common/trace.h"
#include "kernel/device.h"
#include "kernel/object.h"

/* PIN_ZONE_4G keeps the whole binding below 4 GiB minus a page, as i915
 * does for objects without EXEC_OBJECT_SUPPORTS_48B_ADDRESS. */
#define ZONE_4G_END ((1ull << 32) - GT_PAGE_SIZE)

struct gem_vm *vm_ggtt_create(struct gtsim_device *dev, uint64_t mappable_end)
{
	struct gem_vm *vm = calloc(1, sizeof(*vm));
	if (!vm)
		return NULL;
	vm->dev = dev;
	vm->is_ggtt = true;
	vm->total = dev->gpu->ggtt.size;
	vm->mappable_end = mappable_end;
	vm->refcount = 1;
	vm->gt.phys = dev->gpu->phys;
	vm->gt.ggtt = &dev->gpu->ggtt;
	list_init(&vm->nodes);
	list_init(&vm->lru);
	return vm;
}

struct gem_vm *vm_get(struct gem_vm *vm)
{
	vm->refcount++;
	return vm;
}

void vm_put(struct gem_vm *vm)
{
	if (!vm || --vm->refcount)
		return;
	while (!list_empty(&vm->nodes)) {
		struct gem_vma *vma = list_entry(vm->nodes.next, struct gem_vma, vm_link);
		vma->pin_count = 0;
		vma_unbind(vma);
	}
	if (!vm->is_ggtt)
		vm_ppgtt_free_tables(vm);
	free(vm);
}

struct gem_vma *vma_lookup(struct gem_vm *vm, struct gem_object *obj)
{
	struct list_node *n, *t;
	list_for_each_safe(n, t, &obj->vmas) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, obj_link);
		if (vma->vm == vm)
			return vma;
	}
	return NULL;
}

void vma_pin(struct gem_vma *vma) { vma->pin_count++; }
void vma_unpin(struct gem_vma *vma) { if (vma->pin_count) vma->pin_count--; }

void vma_touch(struct gem_vma *vma)
{
	list_del(&vma->lru_link);
	list_add_tail(&vma->vm->lru, &vma->lru_link);
}

int vma_unbind(struct gem_vma *vma)
{
	if (vma->pin_count)
		return -EBUSY;
	struct gem_vm *vm = vma->vm;
	vm_unmap_range(vm, vma->start, vma->obj->size);   /* a padded node maps only the object */
	list_del(&vma->vm_link);
	list_del(&vma->lru_link);
	list_del(&vma->obj_link);
	if (vm->hole_hint && vma->start <= vm->hole_hint->start)
		vm->hole_hint = NULL;   /* a gap may open in the run */
	vm->bound_bytes -= vma->size;
	TRACE(TRACE_GEM, "unbind %s: object %p from 0x%llx (%llu bytes)",
	      vm->is_ggtt ? "ggtt" : "ppgtt", (void *)vma->obj,
	      (unsigned long long)vma->start, (unsigned long long)vma->size);
	free(vma);
	return 0;
}

int obj_unbind_all(struct gem_object *obj)
{
	struct list_node *n, *t;
	list_for_each_safe(n, t, &obj->vmas)
		if (list_entry(n, struct gem_vma, obj_link)->pin_count)
			return -EBUSY;
	list_for_each_safe(n, t, &obj->vmas)
		vma_unbind(list_entry(n, struct gem_vma, obj_link));
	return 0;
}

/* The allowed [lo, hi) for a placement. */
struct range { uint64_t lo, hi; };

static struct range placement_range(const struct gem_vm *vm, unsigned flags, uint64_t offset)
{
	struct range r = { 0, vm->total };
	if ((flags & PIN_MAPPABLE) && vm->is_ggtt && vm->mappable_end < r.hi)
		r.hi = vm->mappable_end;
	if ((flags & PIN_ZONE_4G) && ZONE_4G_END < r.hi)
		r.hi = ZONE_4G_END;
	if (flags & PIN_OFFSET_BIAS)
		r.lo = offset;
	return r;
}

static uint64_t effective_alignment(uint64_t alignment)
{
	return alignment < GT_PAGE_SIZE ? GT_PAGE_SIZE : alignment;
}

bool vma_fits(const struct gem_vma *vma, unsigned flags, uint64_t offset, uint64_t alignment)
{
	struct range r = placement_range(vma->vm, flags, offset);
	if (vma->start < r.lo || vma->start + vma->size > r.hi)
		return false;
	if (vma->start & (effective_alignment(alignment) - 1))
		return false;
	return !(flags & PIN_OFFSET_FIXED) || vma->start == offset;
}

static bool overlaps(const struct gem_vma *vma, uint64_t start, uint64_t end)
{
	return vma->start < end && start < vma->start + vma->size;
}

/* Try to place size bytes in the gap [gap_lo, gap_hi) within r. */
static bool fit_in_gap(uint64_t gap_lo, uint64_t gap_hi, struct range r, uint64_t size,
		       uint64_t align, bool high, uint64_t *start)
{
	uint64_t lo = gap_lo > r.lo ? gap_lo : r.lo, hi = gap_hi < r.hi ? gap_hi : r.hi;
	if (lo >= hi || hi - lo < size)
		return false;
	uint64_t s = high ? (hi - size) & ~(align - 1) : (lo + align - 1) & ~(align - 1);
	if (s < lo || s > hi - size)
		return false;
	*start = s;
	return true;
}

/* Find a hole, treating scan-marked vmas as free when skip_marked. Lowest
 * address first, or highest with PIN_HIGH. */
static bool find_hole(struct gem_vm *vm, struct range r, uint64_t size, uint64_t align,
		      bool high, bool skip_marked, uint64_t *start)
{
	uint64_t gap_lo = 0;
	bool found = false;
	struct list_node *n = vm->nodes.next;
	/* First fit: below the end of the gap-free run from the first node
	 * only the gap before that node can hold it. */
	bool hinted = !high && !skip_marked;
	bool run = hinted;   /* still in the gap-free run from the first node */
	if (hinted && vm->hole_hint) {
		struct gem_vma *first = list_entry(n, struct gem_vma, vm_link);
		if (fit_in_gap(0, first->start, r, size, align, false, start))
			return true;
		n = vm->hole_hint->vm_link.next;
		gap_lo = vm->hole_hint->start + vm->hole_hint->size;
	}
	for (; n != &vm->nodes; n = n->next) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, vm_link);
		if (skip_marked && vma->scan_mark)
			continue;
		if (fit_in_gap(gap_lo, vma->start, r, size, align, high, start)) {
			found = true;
			if (!high)
				return true;
		}
		if (run && n != vm->nodes.next && gap_lo != vma->start)
			run = false;
		if (run)
			vm->hole_hint = vma;
		gap_lo = vma->start + vma->size;
	}
	return fit_in_gap(gap_lo, vm->total, r, size, align, high, start) || found;
}

static bool evictable(const struct gem_vma *vma)
{
	return !vma->pin_count && !obj_is_active(vma->obj);
}

static void evict(struct gem_vma *vma, const char *why)
{
	TRACE(TRACE_GEM, "evict (%s): object %p at 0x%llx", why, (void *)vma->obj,
	      (unsigned long long)vma->start);
	vma_unbind(vma);
}

/* Evict in LRU order until a hole for size appears; -ENOSPC if none can. */
static int evict_something(struct gem_vm *vm, struct range r, uint64_t size, uint64_t align,
			   bool high, uint64_t *start)
{
	struct list_node *n, *t;
	bool found = false;
	list_for_each_safe(n, t, &vm->lru) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, lru_link);
		vma->scan_mark = false;
	}
	list_for_each_safe(n, t, &vm->lru) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, lru_link);
		if (!evictable(vma) || !overlaps(vma, r.lo, r.hi))
			continue;
		vma->scan_mark = true;
		if (find_hole(vm, r, size, align, high, true, start)) {
			found = true;
			break;
		}
	}
	list_for_each_safe(n, t, &vm->lru) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, lru_link);
		bool victim = vma->scan_mark && found && overlaps(vma, *start, *start + size);
		vma->scan_mark = false;
		if (victim)
			evict(vma, "no hole");
	}
	return found ? 0 : -ENOSPC;
}

/* Softpin: clear exactly [start, start + size). */
static int evict_for_range(struct gem_vm *vm, uint64_t start, uint64_t size, bool noevict)
{
	struct list_node *n, *t;
	list_for_each_safe(n, t, &vm->nodes) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, vm_link);
		if (vma->start >= start + size)
			break;   /* sorted: nothing further overlaps */
		if (overlaps(vma, start, start + size) && (noevict || !evictable(vma)))
			return -ENOSPC;
	}
	list_for_each_safe(n, t, &vm->nodes) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, vm_link);
		if (overlaps(vma, start, start + size))
			evict(vma, "fixed offset");
	}
	return 0;
}

/* Waits for one object the GPU still uses among the unpinned vmas of vm
 * overlapping [lo, hi): i915 evicts busy vmas too (after the idle ones),
 * and unbinding one waits for the GPU, interruptibly (i915_vma_sync ->
 * i915_active_wait, TASK_INTERRUPTIBLE: -ERESTARTSYS). dev->lock is
 * dropped meanwhile, so 1 (it waited) tells the caller to look at the
 * address space again; 0: nothing busy there; or the wait's error. */
static int wait_for_busy(struct gem_vm *vm, uint64_t lo, uint64_t hi)
{
	struct list_node *n, *t;
	list_for_each_safe(n, t, &vm->nodes) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, vm_link);
		if (vma->pin_count || !obj_is_active(vma->obj) || !overlaps(vma, lo, hi))
			continue;
		struct gem_object *obj = obj_get(vma->obj);
		TRACE(TRACE_GEM, "evict: waiting for busy object %p at 0x%llx", (void *)obj,
		      (unsigned long long)vma->start);
		int err = obj_wait_gpu_interruptible(obj);
		requests_retire(vm->dev);
		obj_put(obj);
		return err ? err : 1;
	}
	return 0;
}

static bool range_has_node(struct gem_vm *vm, uint64_t start, uint64_t size)
{
	struct list_node *n, *t;
	list_for_each_safe(n, t, &vm->nodes) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, vm_link);
		if (vma->start >= start + size)
			break;   /* sorted: nothing further overlaps */
		if (overlaps(vma, start, start + size))
			return true;
	}
	return false;
}

static int choose_start(struct gem_vm *vm, uint64_t size, unsigned flags,
			uint64_t offset, uint64_t align, uint64_t *start)
{
	struct range r = placement_range(vm, flags, offset);
	if (flags & PIN_OFFSET_FIXED) {
		if (offset & (align - 1) || offset < r.lo || offset > r.hi || size > r.hi - offset)
			return -EINVAL;
		*start = offset;
		if (!range_has_node(vm, offset, size))
			return 0;
		requests_retire(vm->dev);
		return evict_for_range(vm, offset, size, flags & PIN_NOEVICT);
	}
	if (r.lo >= r.hi || size > r.hi - r.lo)
		return -ENOSPC;   /* larger than the allowed range (i915: -ENOSPC) */
	bool high = flags & PIN_HIGH;
	/* Keep the GGTT's aperture for what needs it. */
	if (vm->is_ggtt && !(flags & PIN_MAPPABLE) && r.lo < vm->mappable_end) {
		struct range upper = { vm->mappable_end, r.hi };
		if (find_hole(vm, upper, size, align, high, false, start))
			return 0;
	}
	if (find_hole(vm, r, size, align, high, false, start))
		return 0;
	if (flags & PIN_NOEVICT)
		return -ENOSPC;
	requests_retire(vm->dev);
	return evict_something(vm, r, size, align, high, start);
}

/* From the end: a new node most often goes last (first fit after a
 * gap-free run, or an address above the others). */
static void insert_sorted(struct gem_vm *vm, struct gem_vma *vma)
{
	struct list_node *pos = vm->nodes.prev;
	while (pos != &vm->nodes && list_entry(pos, struct gem_vma, vm_link)->start > vma->start)
		pos = pos->prev;
	if (pos == &vm->nodes)
		vm->hole_hint = NULL;   /* a new first node: the run starts again */
	list_insert_after(pos, &vma->vm_link);
}

int vma_bind(struct gem_vm *vm, struct gem_object *obj, unsigned flags,
	     uint64_t offset, uint64_t alignment, struct gem_vma **out)
{
	return vma_bind_padded(vm, obj, 0, flags, offset, alignment, out);
}

int vma_bind_padded(struct gem_vm *vm, struct gem_object *obj, uint64_t pad, unsigned flags,
		    uint64_t offset, uint64_t alignment, struct gem_vma **out)
{
	if (alignment & (alignment - 1))
		return -EINVAL;
	if (obj->purged)
		return -EFAULT;   /* i915: no pages to pin for a purged object */
	uint64_t align = effective_alignment(alignment);
	uint64_t size = pad > obj->size ? pad : obj->size;   /* the node's size */
	struct gem_vma *vma = vma_lookup(vm, obj);
	if (vma && vma_fits(vma, flags, offset, alignment) && vma->size >= size) {
		vma->closed = false;      /* used again: reopened (i915_vma_reopen) */
		vma_touch(vma);
		goto done;
	}
	if (vma) {
		if (vma->pin_count)
			return -ENOSPC;
		if (obj_is_active(obj) && (flags & PIN_WAIT)) {
			/* moved while the GPU uses it: unbinding waits
			 * (interruptibly, as wait_for_busy) */
			int err = obj_wait_gpu_interruptible(obj);
			requests_retire(vm->dev);
			if (err)
				return err;
			return vma_bind_padded(vm, obj, pad, flags, offset, alignment, out);
		}
		evict(vma, "misplaced");
	}
	uint64_t start;
	int ret;
	/* With PIN_WAIT, what only busy objects block is waited for */
	struct range wanted = placement_range(vm, flags, offset);
	if (flags & PIN_OFFSET_FIXED)
		wanted = (struct range){ offset, offset + size };
	while ((ret = choose_start(vm, size, flags, offset, align, &start)) == -ENOSPC &&
	       (flags & PIN_WAIT) && !(flags & PIN_NOEVICT)) {
		int waited = wait_for_busy(vm, wanted.lo, wanted.hi);
		if (waited <= 0) {
			ret = waited < 0 ? waited : ret;
			break;
		}
	}
	if (ret)
		return ret;
	vma = calloc(1, sizeof(*vma));
	if (!vma)
		return -ENOMEM;
	vma->vm = vm;
	vma->obj = obj;
	vma->start = start;
	vma->size = size;   /* the padding past the object stays unmapped */
	ret = vm_map_range(vm, start, obj->pa, obj->size, obj->readonly);
	if (ret) {
		free(vma);
		return ret;
	}
	insert_sorted(vm, vma);
	obj->has_pages = true;
	list_add_tail(&vm->lru, &vma->lru_link);
	list_add_tail(&obj->vmas, &vma->obj_link);
	vm->bound_bytes += vma->size;
	TRACE(TRACE_GEM, "bind %s: object %p at 0x%llx (%llu bytes%s)%s",
	      vm->is_ggtt ? "ggtt" : "ppgtt", (void *)obj, (unsigned long long)start,
	      (unsigned long long)obj->size, size > obj->size ? ", padded" : "",
	      (flags & PIN_MAPPABLE) ? " mappable" : "");
done:
	if (flags & PIN_PIN)
		vma_pin(vma);
	*out = vma;
	return 0;
}

void vma_close(struct gem_vma *vma)
{
	if (obj_is_active(vma->obj) || vma->pin_count)
		vma->closed = true;
	else
		vma_unbind(vma);
}

void vma_reap_closed(struct gem_object *obj)
{
	struct list_node *n, *t;
	list_for_each_safe(n, t, &obj->vmas) {
		struct gem_vma *vma = list_entry(n, struct gem_vma, obj_link);
		if (vma->closed && !vma->pin_count)
			vma_unbind(vma);
	}
}
