/* The batch builder of batch.h. */
#include "drv/batch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MI_BATCH_BUFFER_END (0x0a << 23)
#define MI_NOOP 0

static void fail(struct gtdrv_batch *b, int err)
{
	if (!b->error)
		b->error = err;
}

int gtdrv_batch_init(struct gtdrv_batch *b, struct gtdrv *drv)
{
	memset(b, 0, sizeof(*b));
	b->drv = drv;
	b->cap = 1024;
	b->dw = malloc(b->cap * sizeof(uint32_t));
	return b->dw ? 0 : -ENOMEM;
}

void gtdrv_batch_fini(struct gtdrv_batch *b)
{
	free(b->dw);
	free(b->relocs.r);
	for (uint32_t i = 0; i < GTDRV_MAX_BOS; i++)
		free(b->bo_relocs[i].r);
	memset(b, 0, sizeof(*b));
}

void gtdrv_batch_reset(struct gtdrv_batch *b)
{
	b->used = b->relocs.n = 0;
	for (uint32_t i = 0; i < b->nbos; i++)
		b->bo_relocs[i].n = 0;
	b->nbos = 0;
	b->begin_n = 0;
	b->error = 0;
	b->fence_out = NULL;
}

static bool room(struct gtdrv_batch *b, uint32_t n)
{
	if (b->used + n <= b->cap)
		return true;
	uint32_t cap = b->cap;
	while (cap < b->used + n)
		cap *= 2;
	uint32_t *dw = realloc(b->dw, cap * sizeof(uint32_t));
	if (!dw) {
		fail(b, -ENOMEM);
		return false;
	}
	b->dw = dw;
	b->cap = cap;
	return true;
}

void gtdrv_batch_begin(struct gtdrv_batch *b, uint32_t n)
{
	if (b->begin_n)
		fail(b, -EINVAL);      /* BEGIN_BATCH inside BEGIN_BATCH */
	room(b, n);
	b->begin_at = b->used;
	b->begin_n = n;
}

void gtdrv_batch_out(struct gtdrv_batch *b, uint32_t dw)
{
	if (b->begin_n && b->used >= b->begin_at + b->begin_n)
		fail(b, -EINVAL);      /* more than BEGIN_BATCH reserved */
	if (room(b, 1))
		b->dw[b->used++] = dw;
}

void gtdrv_batch_advance(struct gtdrv_batch *b)
{
	if (!b->begin_n || b->used != b->begin_at + b->begin_n)
		fail(b, -EINVAL);      /* fewer (or more) than reserved */
	b->begin_n = 0;
}

static void push_reloc(struct gtdrv_batch *b, struct gtdrv_reloc_list *l,
		       const struct drm_i915_gem_relocation_entry *r)
{
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 32;
		void *n = realloc(l->r, cap * sizeof(*l->r));
		if (!n) {
			fail(b, -ENOMEM);
			return;
		}
		l->r = n;
		l->cap = cap;
	}
	l->r[l->n++] = *r;
}

/* bo's index in the exec list (added once), or -1. */
static int exec_index(struct gtdrv_batch *b, struct gtdrv_bo *bo)
{
	for (uint32_t i = 0; i < b->nbos; i++)
		if (b->bos[i] == bo)
			return (int)i;
	if (b->nbos == GTDRV_MAX_BOS) {
		fail(b, -E2BIG);
		return -1;
	}
	b->bos[b->nbos] = bo;
	return (int)b->nbos++;
}

void gtdrv_batch_add_reloc(struct gtdrv_batch *b, uint32_t at, struct gtdrv_bo *bo,
			   uint32_t read_domains, uint32_t write_domain, uint64_t delta)
{
	push_reloc(b, &b->relocs, &(struct drm_i915_gem_relocation_entry){
		.target_handle = bo->handle, .delta = (uint32_t)delta,
		.offset = at * 4ull, .presumed_offset = bo->offset,
		.read_domains = read_domains, .write_domain = write_domain,
	});
	exec_index(b, bo);
}

void gtdrv_batch_state_reloc(struct gtdrv_batch *b, struct gtdrv_bo *holder, uint64_t offset,
			     struct gtdrv_bo *target, uint32_t read_domains,
			     uint32_t write_domain, uint64_t delta)
{
	uint64_t addr = target->offset + delta;
	if ((offset & 3) || offset + 8 > holder->size) {
		fail(b, -EINVAL);
		return;
	}
	int r = gtdrv_bo_write(b->drv, holder, offset, &addr, sizeof(addr));
	if (r) {
		fail(b, r);
		return;
	}
	int h = exec_index(b, holder);
	if (h < 0)
		return;
	push_reloc(b, &b->bo_relocs[h], &(struct drm_i915_gem_relocation_entry){
		.target_handle = target->handle, .delta = (uint32_t)delta,
		.offset = offset, .presumed_offset = target->offset,
		.read_domains = read_domains, .write_domain = write_domain,
	});
	exec_index(b, target);
}

void gtdrv_batch_reloc64(struct gtdrv_batch *b, struct gtdrv_bo *bo, uint32_t read_domains,
			 uint32_t write_domain, uint64_t delta)
{
	uint64_t addr = bo->offset + delta;
	uint32_t at = b->used;
	gtdrv_batch_out(b, (uint32_t)addr);
	gtdrv_batch_out(b, (uint32_t)(addr >> 32));
	gtdrv_batch_add_reloc(b, at, bo, read_domains, write_domain, delta);
}

int gtdrv_batch_submit(struct gtdrv_batch *b)
{
	struct gtdrv *drv = b->drv;
	struct gtdrv_bo batch_bo;
	struct drm_i915_gem_exec_object2 obj[GTDRV_MAX_BOS + 1];
	int r;

	if (b->fence_out)
		*b->fence_out = -1;
	if (b->begin_n)
		fail(b, -EINVAL);
	gtdrv_batch_out(b, MI_BATCH_BUFFER_END);
	if (b->used & 1)
		gtdrv_batch_out(b, MI_NOOP);
	if (b->error) {
		r = b->error;
		gtdrv_batch_reset(b);
		return r;
	}
	r = gtdrv_bo_alloc(drv, &batch_bo, (b->used * 4ull + 4095) & ~4095ull);
	if (r)
		goto out;
	r = gtdrv_bo_write(drv, &batch_bo, 0, b->dw, b->used * 4ull);
	if (r)
		goto out_bo;
	memset(obj, 0, sizeof(obj));
	for (uint32_t i = 0; i < b->nbos; i++)
		obj[i] = (struct drm_i915_gem_exec_object2){
			.handle = b->bos[i]->handle, .offset = b->bos[i]->offset,
			.relocation_count = b->bo_relocs[i].n,
			.relocs_ptr = (uintptr_t)b->bo_relocs[i].r };
	obj[b->nbos] = (struct drm_i915_gem_exec_object2){
		.handle = batch_bo.handle, .relocation_count = b->relocs.n,
		.relocs_ptr = (uintptr_t)b->relocs.r };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)obj, .buffer_count = b->nbos + 1,
		.batch_len = b->used * 4, .flags = I915_EXEC_RENDER,
		.rsvd1 = drv->ctx_id,
	};
	if (b->fence_out)
		eb.flags |= I915_EXEC_FENCE_OUT;
	r = gtdrv_ioctl(drv, b->fence_out ? DRM_IOCTL_I915_GEM_EXECBUFFER2_WR :
			DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	if (r)
		goto out_bo;
	if (b->fence_out)
		*b->fence_out = (int)(eb.rsvd2 >> 32);
	/* the kernel's placement is the next batch's presumed offset */
	for (uint32_t i = 0; i < b->nbos; i++)
		b->bos[i]->offset = obj[i].offset;
	r = gtdrv_bo_wait(drv, &batch_bo);
out_bo:
	gtdrv_bo_free(drv, &batch_bo);
out:
	gtdrv_batch_reset(b);
	return r;
}
