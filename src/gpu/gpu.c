/* The device model as the kernel model sees it (gpu.h): physical memory,
 * the GGTT, four engines and MMIO routed to them by offset. */
#include "gpu/gpu.h"

#include <stdlib.h>

#include "gpu/cs/engine.h"
#include "gpu/gpu_priv.h"

struct gt_gpu *gpu_create(const struct gt_devinfo *info, uint64_t ggtt_size, bool sync)
{
	if (!info || !ggtt_size || ggtt_size % GT_PAGE_SIZE)
		return NULL;
	struct gt_gpu *gpu = calloc(1, sizeof(*gpu));
	if (!gpu)
		return NULL;
	gpu->info = info;
	gpu->sync = sync;
	gpu->ggtt.size = ggtt_size;
	gpu->ggtt.ptes = calloc(ggtt_size / GT_PAGE_SIZE, sizeof(uint64_t));
	gpu->phys = phys_create();
	gpu->globals = calloc(1, sizeof(*gpu->globals));
	if (!gpu->ggtt.ptes || !gpu->phys || !gpu->globals)
		goto fail;
	pthread_mutex_init(&gpu->globals->lock, NULL);
	for (int i = 0; i < GT_NUM_ENGINES; i++) {
		gpu->engines[i] = engine_create(gpu, (enum gt_engine_id)i);
		if (!gpu->engines[i])
			goto fail;
	}
	return gpu;
fail:
	gpu_destroy(gpu);
	return NULL;
}

void gpu_destroy(struct gt_gpu *gpu)
{
	if (!gpu)
		return;
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		engine_destroy(gpu->engines[i]);
	if (gpu->globals)
		pthread_mutex_destroy(&gpu->globals->lock);
	free(gpu->globals);
	if (gpu->phys)
		phys_destroy(gpu->phys);
	free(gpu->ggtt.ptes);
	free(gpu);
}

void gpu_set_sync(struct gt_gpu *gpu, bool sync)
{
	gpu->sync = sync;
}

uint32_t gpu_global_read(struct gt_gpu *gpu, uint32_t reg)
{
	pthread_mutex_lock(&gpu->globals->lock);
	uint32_t v = regs_get(&gpu->globals->regs, reg);
	pthread_mutex_unlock(&gpu->globals->lock);
	return v;
}

void gpu_global_write(struct gt_gpu *gpu, uint32_t reg, uint32_t val)
{
	pthread_mutex_lock(&gpu->globals->lock);
	regs_set(&gpu->globals->regs, reg, val);
	pthread_mutex_unlock(&gpu->globals->lock);
}

uint32_t gpu_mmio_read(struct gt_gpu *gpu, uint32_t reg)
{
	enum gt_engine_id id = gpu_engine_of_reg(reg & ~3u);
	if (id == GT_NUM_ENGINES)
		return gpu_global_read(gpu, reg & ~3u);
	struct gt_engine *e = gpu->engines[id];
	return engine_mmio_read(e, (reg & ~3u) - engine_mmio_base(id));
}

void gpu_mmio_write(struct gt_gpu *gpu, uint32_t reg, uint32_t val)
{
	enum gt_engine_id id = gpu_engine_of_reg(reg & ~3u);
	if (id == GT_NUM_ENGINES) {
		gpu_global_write(gpu, reg & ~3u, val);
		return;
	}
	engine_mmio_write(gpu->engines[id], (reg & ~3u) - engine_mmio_base(id), val);
}
