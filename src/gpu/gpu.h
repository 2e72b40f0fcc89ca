/* The device model: the GPU as the kernel driver sees it through MMIO. */
#ifndef GTSIM_GPU_H
#define GTSIM_GPU_H

#include <stdbool.h>
#include <stdint.h>

#include "common/devinfo.h"
#include "gpu/mem/mem.h"

struct gt_engine;
struct cs_global_regs;

struct gt_gpu {
	const struct gt_devinfo *info;
	struct gt_phys *phys;
	struct gt_ggtt ggtt;
	struct gt_engine *engines[GT_NUM_ENGINES];
	bool sync;                /* GTSIM_SYNC: engines run inside TAIL writes */
	struct cs_global_regs *globals; /* registers outside every engine's range */
};

/* Creates phys memory, a GGTT of ggtt_size bytes (all PTEs not present) and
 * the four engines with their threads. NULL on failure. */
struct gt_gpu *gpu_create(const struct gt_devinfo *info, uint64_t ggtt_size, bool sync);
void gpu_destroy(struct gt_gpu *gpu);
/* sync: from now on every engine runs inside the TAIL write that gives it
 * work; the engines must be idle. */
void gpu_set_sync(struct gt_gpu *gpu, bool sync);
/* In a fork child, on the copy of an idle GPU: the engines get threads of
 * their own again (fork copied only the calling thread). -1 if one could
 * not be made: the GPU is then in sync mode. */
int gpu_fork_child(struct gt_gpu *gpu);
/* The GPU's TLBs forget every translation (what i915 asks for after it
 * unbinds or rewrites PTEs): the kernel model calls it after it clears or
 * changes PTEs or frees page tables of any address space of this GPU. */
void gpu_invalidate_tlbs(struct gt_gpu *gpu);

/* Every engine held between two commands (engine_pause), then let go: no
 * command touches memory in between. */
void gpu_pause(struct gt_gpu *gpu);
void gpu_unpause(struct gt_gpu *gpu);

/* MMIO at absolute register offsets (e.g. 0x2030 RCS RING_TAIL), routed to
 * the engine whose range holds the offset (RCS 0x2000, BCS 0x22000, VCS
 * 0x12000, VECS 0x1a000, 4 KiB each; the render unit's 0x4000-0x408f,
 * 0x5xxx, 0x7xxx, 0xbxxx and 0xexxx registers belong to RCS); others to a
 * global register file. Unwritten registers read 0. */
uint32_t gpu_mmio_read(struct gt_gpu *gpu, uint32_t reg);
void gpu_mmio_write(struct gt_gpu *gpu, uint32_t reg, uint32_t val);

#endif
