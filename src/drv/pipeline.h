/* libgtdrv helpers for the 3D front end: the commands every draw needs,
 * packed through emit.h. */
#ifndef GTSIM_DRV_PIPELINE_H
#define GTSIM_DRV_PIPELINE_H

#include "drv/emit.h"

/* PIPELINE_SELECT 3D, and STATE_BASE_ADDRESS with the instruction base at
 * instruction_bo (relocated) and the other bases at 0 with their full
 * upper bounds. */
int gtdrv_emit_3d_begin(struct gtdrv_batch *b, struct gtdrv_bo *instruction_bo,
			struct gtdrv_bo *dynamic_bo);

/* 3DSTATE_VS for a SIMD8 kernel at kernel_offset from the instruction
 * base: URB rows from 0, read_length 256-bit units into GRFs from
 * grf_start (after g0, g1 and push constants). */
struct gtdrv_vs {
	uint32_t kernel_offset;
	uint32_t grf_start, read_length;
	uint32_t output_length;   /* 256-bit units */
};
int gtdrv_emit_vs(struct gtdrv_batch *b, const struct gtdrv_vs *vs);

/* The other geometry stages off (3DSTATE_HS/TE/DS/GS/STREAMOUT zero). */
int gtdrv_emit_geometry_off(struct gtdrv_batch *b);

/* 3DSTATE_VF_TOPOLOGY and 3DPRIMITIVE. */
struct gtdrv_draw {
	uint32_t topology;        /* _3DPRIM_* */
	bool indexed;
	uint32_t vertex_count, start_vertex, instance_count, start_instance;
	int32_t base_vertex;
};
int gtdrv_emit_draw(struct gtdrv_batch *b, const struct gtdrv_draw *d);

/* MI_LOAD_REGISTER_IMM of one register, and MI_STORE_REGISTER_MEM of one
 * register into bo at offset (relocated). */
int gtdrv_emit_lri(struct gtdrv_batch *b, uint32_t reg, uint32_t value);
int gtdrv_emit_srm(struct gtdrv_batch *b, uint32_t reg, struct gtdrv_bo *bo, uint32_t offset);

/* Assemble EU code (Mesa syntax) and write it into bo at offset; the
 * number of bytes in *len. 0, -EINVAL (assembler error, printed) or the
 * pwrite's -errno. */
int gtdrv_upload_kernel(struct gtdrv *drv, struct gtdrv_bo *bo, uint32_t offset,
			const char *text, size_t *len);

#endif
