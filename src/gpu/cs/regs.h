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

/* Offsets of registers the command streamer gives meaning to: the
 * description's (src/gpu/cmd/desc/gen8.cmds, REG_* in the generated
 * cmd_structs.h), under the names the code has always used. */
#define CS_GPR(base, n)            ((base) + REG_CS_GPR0 + (n) * 8)   /* 64-bit */
#define MI_PREDICATE_SRC0          REG_MI_PREDICATE_SRC0
#define MI_PREDICATE_SRC1          REG_MI_PREDICATE_SRC1
#define MI_PREDICATE_DATA          REG_MI_PREDICATE_DATA
#define MI_PREDICATE_RESULT        REG_MI_PREDICATE_RESULT
#define MI_PREDICATE_RESULT_1      REG_MI_PREDICATE_RESULT_1
#define MI_PREDICATE_RESULT_2      REG_MI_PREDICATE_RESULT_2
#define SO_NUM_PRIMS_WRITTEN(n)    (REG_SO_NUM_PRIMS_WRITTEN0 + (n) * 8)
#define SO_PRIM_STORAGE_NEEDED(n)  (REG_SO_PRIM_STORAGE_NEEDED0 + (n) * 8)
#define SO_WRITE_OFFSET(n)         (REG_SO_WRITE_OFFSET0 + (n) * 4)
#define HS_INVOCATION_COUNT        REG_HS_INVOCATION_COUNT
#define DS_INVOCATION_COUNT        REG_DS_INVOCATION_COUNT
#define IA_VERTICES_COUNT          REG_IA_VERTICES_COUNT
#define IA_PRIMITIVES_COUNT        REG_IA_PRIMITIVES_COUNT
#define VS_INVOCATION_COUNT        REG_VS_INVOCATION_COUNT
#define GS_INVOCATION_COUNT        REG_GS_INVOCATION_COUNT
#define GS_PRIMITIVES_COUNT        REG_GS_PRIMITIVES_COUNT
#define CL_INVOCATION_COUNT        REG_CL_INVOCATION_COUNT
#define CL_PRIMITIVES_COUNT        REG_CL_PRIMITIVES_COUNT
#define PS_INVOCATION_COUNT        REG_PS_INVOCATION_COUNT
#define PS_DEPTH_COUNT             REG_PS_DEPTH_COUNT
#define CS_INVOCATION_COUNT        REG_CS_INVOCATION_COUNT
#define GPR_3DPRIM_END_OFFSET      REG_GPR_3DPRIM_END_OFFSET
#define GPR_3DPRIM_START_VERTEX    REG_GPR_3DPRIM_START_VERTEX
#define GPR_3DPRIM_VERTEX_COUNT    REG_GPR_3DPRIM_VERTEX_COUNT
#define GPR_3DPRIM_INSTANCE_COUNT  REG_GPR_3DPRIM_INSTANCE_COUNT
#define GPR_3DPRIM_START_INSTANCE  REG_GPR_3DPRIM_START_INSTANCE
#define GPR_3DPRIM_BASE_VERTEX     REG_GPR_3DPRIM_BASE_VERTEX

/* Engine-relative error-state registers (i915's RING_* names). */
#define RING_DMA_FADD_UDW REG_RING_DMA_FADD_UDW
#define RING_IPEIR        REG_RING_IPEIR
#define RING_IPEHR        REG_RING_IPEHR
#define RING_INSTDONE     REG_RING_INSTDONE
#define RING_INSTPS       REG_RING_INSTPS
#define RING_DMA_FADD     REG_RING_DMA_FADD
#define RING_NOPID        REG_RING_NOPID
#define RING_MI_MODE      REG_RING_MI_MODE
#define RING_EIR          REG_RING_EIR
#define RING_EMR          REG_RING_EMR
#define RING_ESR          REG_RING_ESR
#define RING_INSTPM       REG_RING_INSTPM
#define RING_BBSTATE      REG_RING_BBSTATE
#define RING_BB_OFFSET    REG_RING_BB_OFFSET
#define RING_PREDICATE_RESULT REG_RING_PREDICATE_RESULT

#endif
