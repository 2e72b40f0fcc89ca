/* The register file of an engine: every MMIO register the command streamer
 * or the kernel model reads and writes that has no dedicated behaviour
 * (MI_MATH GPRs, MI_PREDICATE_*, SO and pipeline statistics registers,
 * 3DPRIM_*, error registers...). A small open-addressing map from absolute
 * MMIO offset to 32-bit value; unwritten registers read 0. */
#ifndef GTSIM_CS_REGS_H
#define GTSIM_CS_REGS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "gpu/cmd/cmd_structs.h"

#define CS_REGS_CAP 2048u

struct cs_regs {
	uint32_t key[CS_REGS_CAP];   /* offset + 1; 0 marks an empty slot */
	uint32_t val[CS_REGS_CAP];
	uint32_t used;
};

uint32_t regs_get(const struct cs_regs *r, uint32_t reg);
/* False (and nothing stored) when the file is full. */
bool regs_set(struct cs_regs *r, uint32_t reg, uint32_t val);
uint64_t regs_get64(const struct cs_regs *r, uint32_t reg);
bool regs_set64(struct cs_regs *r, uint32_t reg, uint64_t val);

/* The registers outside every engine's range (fault registers, GT
 * config): one file that the GPU owns (gt_gpu.globals) and every engine
 * reaches, under its own lock. */
struct cs_global_regs {
	pthread_mutex_t lock;
	struct cs_regs regs;
};
uint32_t cs_global_read(struct cs_global_regs *g, uint32_t reg);
void cs_global_write(struct cs_global_regs *g, uint32_t reg, uint32_t val);

/* Register offsets are the description's (src/gpu/cmd/desc/gen8.cmds:
 * REG_* in the generated cmd_structs.h); these index the numbered ones. */
#define CS_GPR(base, n)            ((base) + REG_CS_GPR0 + (n) * 8)   /* 64-bit */
#define SO_NUM_PRIMS_WRITTEN(n)    (REG_SO_NUM_PRIMS_WRITTEN0 + (n) * 8)
#define SO_PRIM_STORAGE_NEEDED(n)  (REG_SO_PRIM_STORAGE_NEEDED0 + (n) * 8)
#define SO_WRITE_OFFSET(n)         (REG_SO_WRITE_OFFSET0 + (n) * 4)

#endif
