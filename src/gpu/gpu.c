/* The device model as the kernel model sees it (gpu.h): physical memory,
 * the GGTT, four engines and MMIO routed to them by offset. The top of the
 * gpu layer: it creates the engines (cs/) and hands them the machine. */
#include "gpu/gpu.h"

#include <stdlib.h>

#include "gpu/cs/engine.h"
#include "gpu/cs/regs.h"
#include "gpu/engine_handlers.h"

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
		gpu->engines[i] = engine_create(gpu, (enum gt_engine_id)i,
					       gpu_engine_handlers((enum gt_engine_id)i));
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

int gpu_fork_child(struct gt_gpu *gpu)
{
	if (gpu->sync)
		return 0;
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		if (gpu->engines[i] && engine_fork_child(gpu->engines[i])) {
			gpu->sync = true;   /* the engines made run their work inline */
			return -1;
		}
	return 0;
}

void gpu_pause(struct gt_gpu *gpu)
{
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		if (gpu->engines[i])
			engine_pause(gpu->engines[i]);
}

void gpu_unpause(struct gt_gpu *gpu)
{
	for (int i = GT_NUM_ENGINES - 1; i >= 0; i--)
		if (gpu->engines[i])
			engine_unpause(gpu->engines[i]);
}

void gpu_invalidate_tlbs(struct gt_gpu *gpu)
{
	phys_tlb_invalidate(gpu->phys);
}

uint32_t gpu_mmio_read(struct gt_gpu *gpu, uint32_t reg)
{
	reg &= ~3u;
	enum gt_engine_id id = engine_of_reg(reg);
	if (id == GT_NUM_ENGINES)
		return cs_global_read(gpu->globals, reg);
	return engine_mmio_read(gpu->engines[id], reg - engine_mmio_base(id));
}

void gpu_mmio_write(struct gt_gpu *gpu, uint32_t reg, uint32_t val)
{
	reg &= ~3u;
	enum gt_engine_id id = engine_of_reg(reg);
	if (id == GT_NUM_ENGINES)
		cs_global_write(gpu->globals, reg, val);
	else
		engine_mmio_write(gpu->engines[id], reg - engine_mmio_base(id), val);
}
