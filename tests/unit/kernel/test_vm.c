/* Address spaces: placement in the GGTT's mappable aperture, LRU eviction
 * in a deliberately small GGTT, softpin at fixed offsets, PIN_ZONE_4G, and
 * the PPGTT's 4-level tables at a 48-bit address compared with the table
 * indices computed by hand from the PRM's bit fields. */
#include <errno.h>
#include <sys/mman.h>

#include "gpu/mem/mem.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/object.h"
#include "kernel/vm.h"
#include "kernel_test.h"

#define KB(x) ((uint64_t)(x) << 10)

static struct gem_object *new_obj(struct gtsim_device *dev, uint64_t size)
{
	int err = 0;
	struct gem_object *o = obj_create(dev, size, &err);
	CHECK(o != NULL);
	return o;
}

static uint64_t ggtt_pa(struct gtsim_device *dev, uint64_t va)
{
	uint64_t pa = 0;
	if (vm_translate(&dev->ggtt->gt, va, false, &pa))
		return 0;
	return pa;
}

static void test_ggtt(struct gtsim_device *dev)
{
	struct gem_vm *ggtt = dev->ggtt;
	CHECK_EQ(ggtt->total, KB(1024));
	CHECK_EQ(ggtt->mappable_end, KB(256));
	struct gem_object *o[16];
	struct gem_vma *v[16];
	for (int i = 0; i < 16; i++)
		o[i] = new_obj(dev, KB(64));

	/* Mappable objects go in the aperture, others above it. */
	CHECK_EQ(vma_bind(ggtt, o[0], PIN_MAPPABLE, 0, 0, &v[0]), 0);
	CHECK(v[0]->start + v[0]->size <= KB(256));
	CHECK_EQ(vma_bind(ggtt, o[1], 0, 0, 0, &v[1]), 0);
	CHECK(v[1]->start >= KB(256));
	CHECK_EQ(ggtt_pa(dev, v[1]->start + 4100), o[1]->pa + 4100);  /* PTEs written */

	/* Fill everything: 16 x 64 KiB = the whole 1 MiB. */
	for (int i = 2; i < 16; i++)
		CHECK_EQ(vma_bind(ggtt, o[i], 0, 0, 0, &v[i]), 0);
	CHECK_EQ(ggtt->bound_bytes, KB(1024));

	/* One more: the least recently used (o[0], then o[1]) is evicted. o[0]
	 * was touched again, so o[1] goes. */
	struct gem_object *extra = new_obj(dev, KB(64));
	struct gem_vma *ve;
	uint64_t o1_start = v[1]->start;
	vma_touch(v[0]);
	CHECK_EQ(vma_bind(ggtt, extra, 0, 0, 0, &ve), 0);
	CHECK(vma_lookup(ggtt, o[1]) == NULL);
	CHECK(vma_lookup(ggtt, o[0]) == v[0]);
	CHECK_EQ(ve->start, o1_start);
	CHECK_EQ(ggtt_pa(dev, o1_start), extra->pa);   /* the PTEs now map extra */

	/* Pinned and active bindings are never evicted. */
	for (int i = 0; i < 16; i++)
		if (i != 1)
			vma_pin(v[i]);
	obj_active_get(extra);
	CHECK_EQ(vma_bind(ggtt, o[1], 0, 0, 0, &v[1]), -ENOSPC);
	obj_active_put(extra);
	CHECK_EQ(vma_bind(ggtt, o[1], PIN_NOEVICT, 0, 0, &v[1]), -ENOSPC);
	CHECK_EQ(vma_bind(ggtt, o[1], 0, 0, 0, &v[1]), 0);   /* extra evicted now */
	CHECK(vma_lookup(ggtt, extra) == NULL);
	CHECK_EQ(vma_unbind(v[2]), -EBUSY);

	/* Mappable request with the aperture full of pinned objects. */
	for (int i = 0; i < 16; i++)
		if (i != 1)
			vma_unpin(v[i]);
	/* Softpin: the range of o[3] (unpinned) is taken over; misaligned or
	 * out-of-range offsets are -EINVAL; a pinned occupant is -ENOSPC. */
	uint64_t o3_start = v[3]->start;
	CHECK_EQ(vma_bind(ggtt, extra, PIN_OFFSET_FIXED, o3_start, 0, &ve), 0);
	CHECK_EQ(ve->start, o3_start);
	CHECK(vma_lookup(ggtt, o[3]) == NULL);
	vma_pin(ve);
	CHECK_EQ(vma_bind(ggtt, o[3], PIN_OFFSET_FIXED, o3_start, 0, &v[3]), -ENOSPC);
	CHECK_EQ(vma_bind(ggtt, o[3], PIN_OFFSET_FIXED, 100, 0, &v[3]), -EINVAL);
	CHECK_EQ(vma_bind(ggtt, o[3], PIN_OFFSET_FIXED, KB(1024) - KB(60), 0, &v[3]), -EINVAL);
	CHECK_EQ(vma_bind(ggtt, o[3], 0, 0, 3000, &v[3]), -EINVAL);   /* not a power of two */
	/* A pinned binding cannot move elsewhere. */
	CHECK_EQ(vma_bind(ggtt, extra, PIN_OFFSET_FIXED, o3_start + KB(64), 0, &ve), -ENOSPC);
	vma_unpin(ve);

	/* Larger than the address space. */
	struct gem_object *huge = new_obj(dev, KB(2048));
	struct gem_vma *vh;
	CHECK_EQ(vma_bind(ggtt, huge, 0, 0, 0, &vh), -ENOSPC);
	CHECK_EQ(vma_bind(ggtt, huge, PIN_MAPPABLE, 0, 0, &vh), -ENOSPC);
	obj_put(huge);

	/* Alignment: 256 KiB alignment lands on a multiple of it. */
	struct gem_object *al = new_obj(dev, KB(4));
	struct gem_vma *va;
	CHECK_EQ(vma_bind(ggtt, al, 0, 0, KB(256), &va), 0);
	CHECK_EQ(va->start % KB(256), 0);
	obj_put(al);

	for (int i = 0; i < 16; i++)
		obj_put(o[i]);   /* freeing unbinds */
	obj_put(extra);
	CHECK_EQ(ggtt->bound_bytes, 0);
	CHECK(list_empty(&ggtt->nodes));
}

static void test_ppgtt(struct gtsim_device *dev, struct gtsim_file *file)
{
	struct drm_i915_gem_context_create cc = { 0 };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &cc), 0);
	pthread_mutex_lock(&dev->lock);
	struct gem_context *ctx = ctx_lookup(file, 0);
	CHECK(ctx != NULL);
	struct gem_vm *vm = ctx->vm;
	CHECK(!vm->is_ggtt);
	CHECK_EQ(vm->total, 1ull << 48);
	struct gem_object *o = new_obj(dev, KB(8));
	struct gem_vma *v;

	/* va = 0x7f12_3456_7000: PML4 0xfe, PDP 0x48, PD 0x1a2, PT 0x167. */
	const uint64_t va = 0x00007f1234567000ull;
	CHECK_EQ(vma_bind(vm, o, PIN_OFFSET_FIXED, va, 0, &v), 0);
	uint64_t *pml4 = phys_lookup(dev->gpu->phys, vm->gt.pml4, NULL);
	CHECK(pml4 == vm->pml4);
	uint64_t e = pml4[0xfe];
	CHECK_EQ(e & 3, 3);   /* present + RW */
	uint64_t *pdp = phys_lookup(dev->gpu->phys, e & GT_PTE_ADDR_MASK, NULL);
	CHECK(pdp && (pdp[0x48] & 1));
	uint64_t *pd = phys_lookup(dev->gpu->phys, pdp[0x48] & GT_PTE_ADDR_MASK, NULL);
	CHECK(pd && (pd[0x1a2] & 1));
	uint64_t *pt = phys_lookup(dev->gpu->phys, pd[0x1a2] & GT_PTE_ADDR_MASK, NULL);
	CHECK(pt != NULL);
	if (pt) {
		CHECK_EQ(pt[0x167], o->pa | 3);
		CHECK_EQ(pt[0x168], (o->pa + 4096) | 3);
		CHECK_EQ(pt[0x169], 0);
	}
	/* The GPU's view of it: a write through the PPGTT lands in the object. */
	uint32_t val = 0x5eed;
	CHECK_EQ(vm_write(&vm->gt, va + 4096 + 8, &val, 4), 0);
	CHECK_EQ(((uint32_t *)o->map)[1024 + 2], 0x5eed);
	((uint32_t *)o->map)[3] = 0xf00d;
	CHECK_EQ(vm_read(&vm->gt, va + 12, &val, 4), 0);
	CHECK_EQ(val, 0xf00d);

	/* Top of the 48-bit space, and below 4 GiB - 4 KiB with ZONE_4G. */
	struct gem_object *hi = new_obj(dev, KB(4)), *lo = new_obj(dev, KB(4));
	struct gem_vma *vhi, *vlo;
	CHECK_EQ(vma_bind(vm, hi, PIN_HIGH, 0, 0, &vhi), 0);
	CHECK_EQ(vhi->start, (1ull << 48) - KB(4));
	CHECK_EQ(vma_bind(vm, lo, PIN_HIGH | PIN_ZONE_4G, 0, 0, &vlo), 0);
	CHECK_EQ(vlo->start, (1ull << 32) - 2 * KB(4));
	uint64_t pa;
	CHECK_EQ(vm_translate(&vm->gt, vhi->start, true, &pa), 0);
	CHECK_EQ(pa, hi->pa);
	/* Re-binding with a constraint the old placement breaks moves it. */
	CHECK_EQ(vma_bind(vm, hi, PIN_ZONE_4G, 0, 0, &vhi), 0);
	CHECK(vhi->start + KB(4) <= (1ull << 32) - KB(4));
	CHECK_EQ(vm_translate(&vm->gt, (1ull << 48) - KB(4), false, &pa), -EFAULT);

	/* Unbinding clears the PTEs. */
	CHECK_EQ(vma_unbind(v), 0);
	CHECK_EQ(vm_translate(&vm->gt, va, false, &pa), -EFAULT);
	if (pt)
		CHECK_EQ(pt[0x167], 0);

	/* Two contexts: separate address spaces. */
	struct gem_context *ctx2 = ctx_lookup(file, cc.ctx_id);
	CHECK(ctx2 && ctx2->vm != vm && ctx2->vm->gt.pml4 != vm->gt.pml4);
	CHECK_EQ(vm_translate(&ctx2->vm->gt, vlo->start, false, &pa), -EFAULT);
	ctx_put(ctx2);
	obj_put(o);
	obj_put(hi);
	obj_put(lo);
	ctx_put(ctx);
	pthread_mutex_unlock(&dev->lock);
}

/* seed 002: an object the GPU still uses outlives its last handle. */
static void test_lifetime(struct gtsim_device *dev, struct gtsim_file *file)
{
	uint32_t h = test_create(file, KB(4));
	pthread_mutex_lock(&dev->lock);
	uint64_t before = dev->object_count;
	struct gem_object *obj = obj_lookup(file, h);
	obj_active_get(obj);
	obj_put(obj);
	pthread_mutex_unlock(&dev->lock);
	CHECK_EQ(test_close(file, h), 0);
	pthread_mutex_lock(&dev->lock);
	CHECK_EQ(dev->object_count, before);     /* still alive: the GPU holds it */
	obj_active_put(obj);                     /* retired */
	CHECK_EQ(dev->object_count, before - 1);
	pthread_mutex_unlock(&dev->lock);
}

/* CPU writes through a GEM_MMAP mapping are what the GPU reads through
 * the GGTT and a context's PPGTT, and GPU writes are what PREAD returns. */
static void test_coherence(struct gtsim_device *dev, struct gtsim_file *file)
{
	uint32_t h = test_create(file, KB(8));
	struct drm_i915_gem_mmap m = { .handle = h, .size = KB(8) };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_MMAP, &m), 0);
	uint32_t *cpu = (uint32_t *)(uintptr_t)m.addr_ptr;
	cpu[1024 + 1] = 0xabcd0123;

	pthread_mutex_lock(&dev->lock);
	struct gem_object *obj = obj_lookup(file, h);
	struct gem_context *ctx = ctx_lookup(file, 0);
	struct gem_vma *gv, *pv;
	CHECK_EQ(vma_bind(dev->ggtt, obj, PIN_MAPPABLE, 0, 0, &gv), 0);
	CHECK_EQ(vma_bind(ctx->vm, obj, PIN_OFFSET_FIXED, 0x0000123456780000ull, 0, &pv), 0);
	uint32_t v = 0;
	CHECK_EQ(vm_read(&dev->ggtt->gt, gv->start + 4096 + 4, &v, 4), 0);
	CHECK_EQ(v, 0xabcd0123);
	v = 0;
	CHECK_EQ(vm_read(&ctx->vm->gt, pv->start + 4096 + 4, &v, 4), 0);
	CHECK_EQ(v, 0xabcd0123);
	v = 0x77665544;
	CHECK_EQ(vm_write(&ctx->vm->gt, pv->start + 16, &v, 4), 0);
	ctx_put(ctx);
	obj_put(obj);
	pthread_mutex_unlock(&dev->lock);

	CHECK_EQ(cpu[4], 0x77665544);
	v = 0;
	CHECK_EQ(test_pread(file, h, 16, &v, 4), 0);
	CHECK_EQ(v, 0x77665544);
	munmap(cpu, KB(8));
	test_close(file, h);
}

/* GTT mmaps bind into the 256 KiB aperture; once it is full the least
 * recently used mapping's binding is evicted. */
static void test_aperture_eviction(struct gtsim_device *dev, struct gtsim_file *file)
{
	uint32_t h[5];
	for (int i = 0; i < 5; i++) {
		h[i] = test_create(file, KB(64));
		struct drm_i915_gem_mmap_gtt mg = { .handle = h[i] };
		CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_MMAP_GTT, &mg), 0);
		void *p = gtsim_mmap(file, NULL, KB(64), PROT_READ, MAP_SHARED, mg.offset);
		CHECK(p != MAP_FAILED);
		if (p != MAP_FAILED)
			munmap(p, KB(64));
	}
	pthread_mutex_lock(&dev->lock);
	struct gem_object *first = obj_lookup(file, h[0]), *last = obj_lookup(file, h[4]);
	CHECK(vma_lookup(dev->ggtt, first) == NULL);   /* evicted */
	struct gem_vma *v = vma_lookup(dev->ggtt, last);
	CHECK(v && v->start + v->size <= KB(256));
	obj_put(first);
	obj_put(last);
	pthread_mutex_unlock(&dev->lock);

	/* Larger than the aperture: still mappable (i915 >= GTT mmap version 1
	 * uses partial views), the bytes are the object's. */
	uint32_t big = test_create(file, KB(512)), magic = 0x600d;
	CHECK_EQ(test_pwrite(file, big, KB(400), &magic, 4), 0);
	struct drm_i915_gem_mmap_gtt mg = { .handle = big };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_MMAP_GTT, &mg), 0);
	uint32_t *p = gtsim_mmap(file, NULL, KB(512), PROT_READ, MAP_SHARED, mg.offset);
	CHECK(p != MAP_FAILED);
	if (p != MAP_FAILED) {
		CHECK_EQ(p[KB(400) / 4], 0x600d);
		munmap(p, KB(512));
	}
	test_close(file, big);
	for (int i = 0; i < 5; i++)
		test_close(file, h[i]);
}

/* Where the i-th of a run of 4 KiB binds must land: right after the
 * (i-1)-th, the first one anywhere (the lowest place the VM allows). */
static uint64_t vm_first_start(struct gem_object **o, unsigned i)
{
	if (!i)
		return list_entry(o[0]->vmas.next, struct gem_vma, obj_link)->start;
	return list_entry(o[i - 1]->vmas.next, struct gem_vma, obj_link)->start + KB(4);
}

/* First fit in a PPGTT stays first fit with the gap-free-run hint, and
 * binding many objects one after another is linear: 200,000 binds of
 * 4 KiB (before the hint and the insertion from the end, each bind walked
 * every node twice: about 4 * 10^10 steps, past the test's timeout).
 * Expected addresses by hand: A (the lowest place), then A + i * 4 KiB. */
#define MANY 200000
static void test_first_fit_many(struct gtsim_device *dev, struct gtsim_file *file)
{
	struct drm_i915_gem_context_create cc = { 0 };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &cc), 0);
	pthread_mutex_lock(&dev->lock);
	struct gem_context *ctx = ctx_lookup(file, cc.ctx_id);
	CHECK(ctx != NULL);
	if (!ctx) {
		pthread_mutex_unlock(&dev->lock);
		return;
	}
	struct gem_vm *vm = ctx->vm;
	struct gem_object **o = calloc(MANY, sizeof(*o));
	struct gem_vma *v, *probe;
	unsigned bad = 0;
	for (unsigned i = 0; i < MANY; i++) {
		o[i] = new_obj(dev, KB(4));
		CHECK_EQ(vma_bind(vm, o[i], 0, 0, 0, &v), 0);
		if (v->start != vm_first_start(o, i))
			bad++;
	}
	CHECK_EQ(bad, 0);
	uint64_t a = vma_lookup(vm, o[0])->start;
	/* holes: one of 4 KiB at 10, one of 8 KiB at 100..101 */
	vma_unbind(vma_lookup(vm, o[10]));
	vma_unbind(vma_lookup(vm, o[100]));
	vma_unbind(vma_lookup(vm, o[101]));
	struct gem_object *x = new_obj(dev, KB(8)), *y = new_obj(dev, KB(4)),
			  *z = new_obj(dev, KB(8)), *w = new_obj(dev, KB(4));
	CHECK_EQ(vma_bind(vm, x, 0, 0, 0, &probe), 0);
	CHECK_EQ(probe->start, a + KB(4) * 100);        /* the first hole of 8 KiB */
	CHECK_EQ(vma_bind(vm, y, 0, 0, 0, &probe), 0);
	CHECK_EQ(probe->start, a + KB(4) * 10);         /* the first of 4 KiB */
	CHECK_EQ(vma_bind(vm, z, 0, 0, 0, &probe), 0);
	CHECK_EQ(probe->start, a + KB(4) * MANY);       /* none left below the end */
	/* a node below the first one, then a hole between them */
	vma_unbind(vma_lookup(vm, o[0]));
	vma_unbind(vma_lookup(vm, o[1]));
	CHECK_EQ(vma_bind(vm, w, PIN_OFFSET_FIXED, a, 0, &probe), 0);
	CHECK_EQ(vma_bind(vm, o[1], 0, 0, 0, &probe), 0);
	CHECK_EQ(probe->start, a + KB(4));
	CHECK_EQ(vma_bind(vm, o[0], 0, 0, 0, &probe), 0);
	CHECK_EQ(probe->start, a + KB(4) * (MANY + 2));
	for (unsigned i = 0; i < MANY; i++)
		obj_put(o[i]);
	obj_put(x);
	obj_put(y);
	obj_put(z);
	obj_put(w);
	free(o);
	ctx_put(ctx);
	pthread_mutex_unlock(&dev->lock);
}

int main(void)
{
	struct gtsim_device *dev = test_device(KB(1024), KB(256));
	struct gtsim_file *file = gtsim_open(dev);
	CHECK(file != NULL);
	pthread_mutex_lock(&dev->lock);
	test_ggtt(dev);
	pthread_mutex_unlock(&dev->lock);
	test_ppgtt(dev, file);
	test_lifetime(dev, file);
	test_coherence(dev, file);
	test_aperture_eviction(dev, file);
	test_first_fit_many(dev, file);
	gtsim_close(file);
	gtsim_device_destroy(dev);
	return test_exit();
}
