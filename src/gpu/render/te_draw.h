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

struct tess_draw {
	struct render_state *rs;
	const struct render_env *env;
	struct prim_stage input;     /* patches in (stage.h) */
	struct prim_stage *next;     /* the DS's primitives out: GS or back end */
	struct tess_kernel hs, ds;
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
/* Run a set-up thread to its end; fault (named `stage`) otherwise. */
int tess_thread_run(struct tess_draw *td, struct tess_kernel *k, const char *stage);

/* HS threads for one patch (all instances); DS threads for n <= 8 domain
 * points of a patch. */
int hs_run_patch(struct tess_draw *td, uint32_t patch, const uint32_t *icp, unsigned n);
int ds_run_points(struct tess_draw *td, uint32_t patch, const uint32_t *points,
		  const uint32_t *handles, unsigned n);

#endif
