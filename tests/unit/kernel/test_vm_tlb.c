/* The kernel model keeps the GPU's translation cache (gpu/mem's TLB)
 * coherent through gpu_invalidate_tlbs: in a context's PPGTT and in the
 * GGTT, an object the GPU has read is unbound and the GPU's next access
 * faults; another object bound at the same address is what the GPU then
 * reads (the remap is seen). Oracle: the objects' host mappings, written
 * directly. */
#include <errno.h>

#include "gpu/mem/mem.h"
#include "kernel/context.h"
#include "kernel/device.h"
#include "kernel/file.h"
#include "kernel/object.h"
#include "kernel/vm.h"
#include "kernel_test.h"

static void unbind_and_remap(struct gtsim_device *dev, struct gem_vm *vm, uint64_t va)
{
	int err = 0;
	struct gem_object *a = obj_create(dev, 8192, &err), *b = obj_create(dev, 8192, &err);
	CHECK(a && b);
	if (!a || !b)
		return;
	((uint32_t *)a->map)[1024 + 1] = 0xaaaa;
	((uint32_t *)b->map)[1024 + 1] = 0xbbbb;
	struct gem_vma *v;
	uint32_t val = 0;
	CHECK_EQ(vma_bind(vm, a, PIN_OFFSET_FIXED, va, 0, &v), 0);
	CHECK_EQ(vm_read(&vm->gt, va + 4096 + 4, &val, 4), 0);
	CHECK_EQ(val, 0xaaaa);
	CHECK_EQ(vma_unbind(v), 0);
	CHECK_EQ(vm_read(&vm->gt, va + 4096 + 4, &val, 4), -EFAULT);
	uint64_t avail;
	CHECK(vm_map(&vm->gt, va + 4096, false, &avail) == NULL);
	CHECK_EQ(vma_bind(vm, b, PIN_OFFSET_FIXED, va, 0, &v), 0);
	val = 0;
	CHECK_EQ(vm_read(&vm->gt, va + 4096 + 4, &val, 4), 0);
	CHECK_EQ(val, 0xbbbb);
	val = 0x5eed;
	CHECK_EQ(vm_write(&vm->gt, va + 8, &val, 4), 0);
	CHECK_EQ(((uint32_t *)b->map)[2], 0x5eed);
	CHECK_EQ(((uint32_t *)a->map)[2], 0);
	CHECK_EQ(vma_unbind(v), 0);
	obj_put(a);
	obj_put(b);
}

/* An object spanning page tables (the PPGTT's level-0 tables cover 2 MiB;
 * vm_map_range fills one table at a time): bound at 2 MiB - 8 KiB, each
 * of its 1028 pages reads its own dword 0, and after the unbind every one
 * faults. Oracle: the object's host mapping, each page marked with its
 * number. */
static void bind_across_tables(struct gtsim_device *dev, struct gem_vm *vm)
{
	const uint64_t size = (2u << 20) + 8192, va = (2u << 20) - 8192;
	int err = 0;
	struct gem_object *o = obj_create(dev, size, &err);
	CHECK(o != NULL);
	if (!o)
		return;
	for (uint64_t p = 0; p < size / 4096; p++)
		((uint32_t *)o->map)[p * 1024] = 0xc0de0000u + (uint32_t)p;
	struct gem_vma *v;
	CHECK_EQ(vma_bind(vm, o, PIN_OFFSET_FIXED, va, 0, &v), 0);
	unsigned wrong = 0, mapped = 0;
	for (uint64_t p = 0; p < size / 4096; p++) {
		uint32_t val = 0;
		if (vm_read(&vm->gt, va + p * 4096, &val, 4) || val != 0xc0de0000u + p)
			wrong++;
	}
	CHECK_EQ(wrong, 0);
	CHECK_EQ(vma_unbind(v), 0);
	for (uint64_t p = 0; p < size / 4096; p++) {
		uint32_t val;
		if (vm_read(&vm->gt, va + p * 4096, &val, 4) != -EFAULT)
			mapped++;
	}
	CHECK_EQ(mapped, 0);
	obj_put(o);
}

int main(void)
{
	struct gtsim_device *dev = test_device(1u << 20, 1u << 18);
	struct gtsim_file *file = gtsim_open(dev);
	CHECK(file != NULL);
	struct drm_i915_gem_context_create cc = { 0 };
	CHECK_EQ(gtsim_ioctl(file, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &cc), 0);
	pthread_mutex_lock(&dev->lock);
	struct gem_context *ctx = ctx_lookup(file, cc.ctx_id);
	CHECK(ctx != NULL && !ctx->vm->is_ggtt);
	if (ctx) {
		unbind_and_remap(dev, ctx->vm, 0x00007f1234567000ull);
		bind_across_tables(dev, ctx->vm);
		ctx_put(ctx);   /* ctx_lookup's reference */
	}
	unbind_and_remap(dev, dev->ggtt, 0x40000);
	pthread_mutex_unlock(&dev->lock);
	gtsim_close(file);
	gtsim_device_destroy(dev);
	return test_exit();
}
