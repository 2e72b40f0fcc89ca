/* The register file of an engine: every MMIO register the command streamer
 * or the kernel model reads and writes that has no dedicated behaviour
 * (MI_MATH GPRs, MI_PREDICATE_*, SO and pipeline statistics registers,
 * 3DPRIM_*, error registers...). A small open-addressing map from absolute
 * MMIO offset to 32-bit value; unwritten registers read 0. */
#ifndef GTSIM_CS_REGS_H
#define GTSIM_CS_REGS_H

#include <stdbool.h>
#include <stdint.h>

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

/* Absolute offsets of registers the command streamer gives meaning to
 * (BDW/SKL PRM vol. 2c "Registers"; Mesa's and i915's names). */
#define CS_GPR(base, n)            ((base) + 0x600 + (n) * 8)   /* 64-bit */
#define MI_PREDICATE_SRC0          0x2400                       /* 64-bit */
#define MI_PREDICATE_SRC1          0x2408                       /* 64-bit */
#define MI_PREDICATE_DATA          0x2410                       /* 64-bit */
#define MI_PREDICATE_RESULT        0x2418
#define MI_PREDICATE_RESULT_1      0x241c
#define MI_PREDICATE_RESULT_2      0x2214
#define SO_NUM_PRIMS_WRITTEN(n)    (0x5200 + (n) * 8)
#define SO_PRIM_STORAGE_NEEDED(n)  (0x5240 + (n) * 8)
#define SO_WRITE_OFFSET(n)         (0x5280 + (n) * 4)
#define HS_INVOCATION_COUNT        0x2300
#define DS_INVOCATION_COUNT        0x2308
#define IA_VERTICES_COUNT          0x2310
#define IA_PRIMITIVES_COUNT        0x2318
#define VS_INVOCATION_COUNT        0x2320
#define GS_INVOCATION_COUNT        0x2328
#define GS_PRIMITIVES_COUNT        0x2330
#define CL_INVOCATION_COUNT        0x2338
#define CL_PRIMITIVES_COUNT        0x2340
#define PS_INVOCATION_COUNT        0x2348
#define PS_DEPTH_COUNT             0x2350
#define CS_INVOCATION_COUNT        0x2290
#define GPR_3DPRIM_END_OFFSET      0x2420
#define GPR_3DPRIM_START_VERTEX    0x2430
#define GPR_3DPRIM_VERTEX_COUNT    0x2434
#define GPR_3DPRIM_INSTANCE_COUNT  0x2438
#define GPR_3DPRIM_START_INSTANCE  0x243c
#define GPR_3DPRIM_BASE_VERTEX     0x2440

/* Engine-relative error-state registers (i915's RING_* names). */
#define RING_DMA_FADD_UDW 0x060
#define RING_IPEIR        0x064
#define RING_IPEHR        0x068
#define RING_INSTDONE     0x06c
#define RING_INSTPS       0x070
#define RING_DMA_FADD     0x078
#define RING_NOPID        0x094
#define RING_MI_MODE      0x09c
#define RING_EIR          0x0b0
#define RING_EMR          0x0b4
#define RING_ESR          0x0b8
#define RING_INSTPM       0x0c0
#define RING_BBSTATE      0x110
#define RING_BB_OFFSET    0x158
#define RING_PREDICATE_RESULT 0x3b8

#endif
