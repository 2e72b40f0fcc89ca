/* The GS stage's threads (gs_dispatch.c: gathering, SIMD8 threads;
 * gs_simd4x2.c: the DUAL_OBJECT and DUAL_INSTANCE threads of a vec4 GS).
 * Internal to src/gpu/render. */
#ifndef GTSIM_RENDER_GS_STAGE_H
#define GTSIM_RENDER_GS_STAGE_H

#include "gpu/render/render_state.h"

#define GS_PART (URB_NUM_PARTS - 1)   /* VS, HS, DS, GS */

struct gs_stage {
	struct prim_stage in;          /* what the stage before calls */
	struct render_state *rs;
	const struct render_env *env;
	struct prim_stage *next;
	struct exec_prog *prog;
	struct eu_thread *thread;
	struct vue_prim prims[8];      /* waiting for a thread */
	unsigned nprims, per_thread;   /* primitives (or instances) per thread */
	unsigned per_slot_thread;      /* objects per SIMD4x2 thread: 2 (1 with one entry) */
	unsigned nverts;               /* vertices per input primitive */
	uint32_t next_entry;           /* ring of GS output entries */
	uint64_t invocations, out_prims, threads;
};


/* The Read Length x 2 rows from Read Offset x 2 of input VUE ref, or NULL
 * after a GPU fault naming why. */
const uint8_t *gs_input_rows(struct gs_stage *gs, uint32_t ref);

/* The next output entry of the GS partition's ring. */
uint32_t gs_alloc_entry(struct gs_stage *gs);

/* g0 DWords 3-5 of every GS thread: sampler state pointer | scratch
 * space, binding table pointer, scratch base | thread number. */
void gs_thread_header(struct gs_stage *gs, struct eu_thread *t);

/* Runs the thread set up in gs->thread, then cuts its n output entries
 * out[] (in slot order) into primitives for the next stage. */
int gs_thread_run(struct gs_stage *gs, uint64_t t0, const uint32_t *out, unsigned n);

/* One SIMD4x2 thread of up to two objects: obj[s] as instance inst[s]
 * (gs_simd4x2.c). */
int gs_run_simd4x2(struct gs_stage *gs, const struct vue_prim *const *obj, const uint32_t *inst,
		   unsigned n);

int gs_output_assemble(struct render_state *rs, uint32_t handle, struct prim_stage *next,
		       uint64_t *prims);

#endif
