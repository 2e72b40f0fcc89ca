/* The tessellation stage of one draw, shared by its parts: te_stage.c (the
 * patch path and the TE), hs_dispatch.c and ds_dispatch.c (the threads). */
#ifndef GTSIM_TE_DRAW_H
#define GTSIM_TE_DRAW_H

#include "gpu/eu/exec.h"
#include "gpu/render/render_state.h"
#include "gpu/render/te_tessellator.h"

struct tess_kernel {
	struct exec_prog *prog;
	struct eu_thread *thread;
	struct sampler_unit sampler;
	struct dp_unit dp;
	struct render_units units;
	const struct sfid_table *sfids;  /* the stage's column of render_sfids */
};

/* A patch waiting for its HS thread (8_PATCH collects up to 8). */
struct hs_patch {
	uint32_t handle;             /* its entry in the HS partition */
	uint32_t prim_id;
	uint32_t icp[VUE_PRIM_MAX];  /* the input control points' VUE handles */
};

#define HS_MAX_INSTANCES 32      /* 3DSTATE_HS Instance Count: 5 bits */

struct tess_draw {
	struct render_state *rs;
	const struct render_env *env;
	struct prim_stage input;     /* patches in (stage.h) */
	struct prim_stage *next;     /* the DS's primitives out: GS or back end */
	struct tess_kernel hs, ds;
	struct eu_thread *hs_thread[HS_MAX_INSTANCES];  /* one per instance */
	struct gateway_group hs_gateway;  /* the instances' barrier */
	uint32_t hs_barrier_id;           /* counts patch sets, for g0.2 and traces */
	struct hs_patch pending[8];       /* 8_PATCH: patches collected */
	unsigned npending, pending_n;     /* how many; their control points */
	struct te_output *te;
	uint32_t *stamp;             /* per domain point: chunk that shaded it */
	uint32_t *handle;            /* per domain point: its DS VUE */
	uint32_t chunk;
	uint32_t hs_next, ds_next;   /* ring positions in the HS and DS partitions */
	uint32_t primitive_id;
	uint64_t patches, hs_threads, ds_threads, ds_points, prims;
	bool failed;
};

/* Load a stage's kernel at Instruction Base Address + ksp; fault on error. */
int tess_kernel_load(struct tess_draw *td, struct tess_kernel *k, uint64_t ksp, const char *stage,
		     enum render_stage st);
void tess_kernel_free(struct tess_kernel *k);

/* The common part of a 3D thread's g0 (sampler state, binding table,
 * scratch) and the push constants from g[grf_start]; *next is the first
 * register after them. */
int tess_thread_setup(struct tess_draw *td, struct eu_thread *t, enum render_stage st,
		      const struct tess_consts *c, uint32_t grf_start, uint32_t scratch_space,
		      uint64_t scratch_base, unsigned *next, const char *stage);
/* Connect a set-up thread of the stage to its shared functions (and count
 * it among the draw's threads). */
void tess_thread_wire(struct tess_draw *td, struct tess_kernel *k, struct eu_thread *t);
/* Run a set-up thread to its end; fault (named `stage`) otherwise. */
int tess_thread_run(struct tess_draw *td, struct tess_kernel *k, const char *stage);

/* HS threads for one patch (SINGLE_PATCH) or np <= 8 patches of n control
 * points (8_PATCH), all instances; DS threads for n <= 8 domain points of a
 * patch (SIMD8) or n <= 2 (SIMD4X2). */
int hs_run_patch(struct tess_draw *td, uint32_t patch, const uint32_t *icp, unsigned n);
int hs_run_8_patch(struct tess_draw *td, const struct hs_patch *p, unsigned np, unsigned n);
int ds_run_points(struct tess_draw *td, uint32_t patch, const uint32_t *points,
		  const uint32_t *handles, unsigned n);
int ds_run_points_simd4x2(struct tess_draw *td, uint32_t patch, const uint32_t *points,
			  const uint32_t *handles, unsigned n);

#endif
