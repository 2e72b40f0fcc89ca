/* Tessellation in the 3D pipeline (PRM vol. 2 "Hull Shader", "Tessellation
 * Engine", "Domain Shader"; docs/tessellation.md): the state of 3DSTATE_HS,
 * 3DSTATE_TE, 3DSTATE_DS and their constants, and the draw's tessellation
 * stage. With tessellation on, each patch of PATCHLIST_n VUE handles goes to
 * tess_patch(): HS threads write the patch URB entry, the TE reads its
 * header's factors and tessellates (te_tessellator.h), DS threads shade
 * the domain points into VUEs of the DS partition, and the primitives go on
 * to the stage after (the next stage of the draw's chain, stage.h). */
#ifndef GTSIM_TE_STATE_H
#define GTSIM_TE_STATE_H

#include "gpu/render/stage.h"

#include <stdbool.h>
#include <stdint.h>

#include "gpu/cmd/cmd.h"

struct render_state;
struct render_env;

struct tess_consts {              /* 3DSTATE_CONSTANT_HS / _DS */
	uint32_t len[4];          /* 32-byte registers */
	uint64_t addr[4];
};

enum hs_dispatch_mode {           /* 3DSTATE_HS Dispatch Mode (gen9) */
	HS_DISPATCH_SINGLE_PATCH = 0, HS_DISPATCH_DUAL_PATCH = 1, HS_DISPATCH_8_PATCH = 2,
};

struct hs_state {
	bool enable, stats, vertex_handles, primitive_id;
	uint32_t instances;       /* Instance Count + 1 */
	uint32_t dispatch_mode;   /* gen9: enum hs_dispatch_mode; gen8 SINGLE_PATCH */
	uint64_t ksp;
	uint32_t read_offset, read_length, grf_start;
	uint32_t scratch_space;
	uint64_t scratch_base;
	struct tess_consts consts;
};

struct te_state {
	bool enable;
	uint32_t mode, domain, topology, partitioning;
	float max_odd, max_not_odd;
};

struct ds_state {
	bool enable, stats, compute_w;
	uint32_t dispatch_mode;   /* 0 SIMD4X2, 1 SIMD8_SINGLE_PATCH, 2 (gen9) dual */
	uint64_t ksp;
	uint32_t read_offset, read_length, grf_start;  /* patch URB data, 256-bit units */
	uint32_t scratch_space;
	uint64_t scratch_base;
	uint32_t cull_mask, clip_mask;
	struct tess_consts consts;
};

struct tess_state {
	struct hs_state hs;
	struct te_state te;
	struct ds_state ds;
};

/* state.c hands these commands here (3DSTATE_HS, _TE, _DS, CONSTANT_HS,
 * CONSTANT_DS); returns 1 for any other command. */
int tess_state_command(struct render_state *rs, const struct cmd_desc *d, const uint32_t *dw,
		       uint32_t len);

/* Whether the draw tessellates, and a fault for state the hardware would
 * hang on (an HS without a TE or DS, ...). */
bool tess_enabled(const struct render_state *rs);
/* The 3DPRIM_* topology of the primitives the DS emits (what a GS then
 * receives): POINTLIST, LINELIST or TRILIST from TE Output Topology. */
uint32_t tess_output_topology(const struct render_state *rs);

/* A draw's tessellation stage, a link of the draw's chain of stages
 * (stage.h): begin loads the kernels and makes a stage whose input
 * (tess_stage_input) takes the primitive assembler's patches and hands the
 * DS's primitives to `next`. A fault stops the stage's work and is
 * returned by tess_draw_end (-1, rs->fault set). */
struct tess_draw;
struct tess_counts {
	uint64_t hs_invocations;  /* patches the HS ran for */
	uint64_t ds_invocations;  /* domain points the DS shaded */
};
int tess_draw_begin(struct render_state *rs, const struct render_env *env,
		    struct prim_stage *next, struct tess_draw **out);
struct prim_stage *tess_stage_input(struct tess_draw *td);
int tess_draw_end(struct render_state *rs, struct tess_draw *td, struct tess_counts *c);
/* Each instance's patches count primitive IDs from 0 (td may be NULL). */
void tess_instance_begin(struct tess_draw *td);

#endif
