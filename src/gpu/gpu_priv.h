/* Device-model internals shared by gpu.c and the engines. */
#ifndef GTSIM_GPU_PRIV_H
#define GTSIM_GPU_PRIV_H

#include <pthread.h>

#include "gpu/cs/regs.h"
#include "gpu/gpu.h"

/* Registers outside every engine's range (fault registers, GT config). */
struct gpu_globals {
	pthread_mutex_t lock;
	struct cs_regs regs;
};

/* The engine whose MMIO range holds the absolute offset reg, or
 * GT_NUM_ENGINES for a global register. */
enum gt_engine_id gpu_engine_of_reg(uint32_t reg);
uint32_t gpu_global_read(struct gt_gpu *gpu, uint32_t reg);
void gpu_global_write(struct gt_gpu *gpu, uint32_t reg, uint32_t val);

#endif
