/* The compute pipeline's state and its parts (gpgpu.h), shared by the
 * files of gpu/gpgpu. */
#ifndef GTSIM_GPGPU_INTERNAL_H
#define GTSIM_GPGPU_INTERNAL_H

#include "gpu/cmd/cmd_structs.h"
#include "gpu/cs/base_address.h"
#include "gpu/dataport/dataport.h"
#include "gpu/eu/exec.h"
#include "gpu/gpgpu/gpgpu.h"
#include "gpu/sfid/gateway.h"
#include "gpu/sfid/sampler.h"

#define GPGPU_MAX_IDS 64          /* interface descriptors (6-bit offset) */
#define GPGPU_MAX_CURBE (64 * 1024)   /* 17-bit CURBE Total Data Length */

enum { PIPE_3D = 0, PIPE_MEDIA = 1, PIPE_GPGPU = 2 };

struct gpgpu_state {
	const struct gt_devinfo *info;
	int gen;
	int pipeline;                 /* PIPELINE_SELECT */
	/* STATE_BASE_ADDRESS */
	struct cs_base_address sba;
	/* MEDIA_VFE_STATE */
	bool vfe_valid;
	uint32_t max_threads;         /* Maximum Number of Threads + 1 */
	uint32_t curbe_alloc;         /* CURBE Allocation Size, 256-bit units */
	uint32_t scratch_space;       /* Per Thread Scratch Space (encoded) */
	uint32_t scratch_per_thread;  /* bytes, 0: none */
	uint64_t scratch_base;        /* from General State Base */
	/* MEDIA_CURBE_LOAD: the data as loaded */
	uint8_t *curbe;
	uint32_t curbe_len;
	/* MEDIA_INTERFACE_DESCRIPTOR_LOAD: the descriptors as loaded */
	uint32_t idd[GPGPU_MAX_IDS][8];
	uint32_t idd_count;
	/* statistics for traces */
	uint64_t walkers, groups, threads;
	gpgpu_thread_hook hook;
	void *hook_ctx;
	char fault[320];
};

int gpgpu_set_fault(struct gpgpu_state *gs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* State commands (state.c): 0 or -1 with a fault. */
int gpgpu_state_command(struct gpgpu_state *gs, const struct gpgpu_env *env,
			const struct cmd_desc *d, const uint32_t *dw, uint32_t len);

/* One walker's fixed part, shared by its groups (walker.c); a
 * MEDIA_OBJECT is a walk of one group of one thread (media_object.c). */
struct gpgpu_walk {
	const char *cmd;              /* the command, for faults */
	/* the payload of a thread: gpgpu_payload, or media_payload for a
	 * MEDIA_OBJECT (media_object.c) */
	void (*payload)(const struct gpgpu_state *gs, const struct gpgpu_walk *w,
			struct eu_thread *t, const uint32_t group[3], unsigned index,
			uint32_t barrier_id);
	const uint32_t *inline_data;  /* MEDIA_OBJECT: its inline dwords */
	unsigned inline_dw;
	uint32_t indirect_len;        /* bytes of indirect data */
	struct cmd_INTERFACE_DESCRIPTOR_DATA id;
	struct exec_prog *prog;
	unsigned simd;                /* 8, 16, 32 */
	unsigned threads;             /* per group */
	unsigned width, height;       /* thread counters (depth = the rest) */
	uint32_t right_mask, bottom_mask;
	unsigned cross_regs, per_regs; /* CURBE registers for all / per thread */
	const uint8_t *data;          /* the constant data: the CURBE or indirect */
	uint8_t *indirect;            /* the walker's indirect data (owned) */
	uint32_t slm_size;            /* bytes */
	uint64_t invocations;         /* enabled channels dispatched */
};

/* The units a compute thread reaches by send (sfid_wiring.c). */
struct gpgpu_units {
	struct sampler_unit sampler;
	struct dp_unit dp;
	struct gateway_group gateway;
};
extern const struct sfid_table gpgpu_sfids;

/* The execution mask of thread `index` of a group (payload.c). */
uint32_t gpgpu_thread_mask(const struct gpgpu_walk *w, unsigned index);
/* R0.3 sampler state pointer | scratch space, R0.4 binding table pointer,
 * R0.5 scratch pointer | FFTID: the part of R0 compute and media threads
 * share (payload.c). */
void gpgpu_payload_r0_state(const struct gpgpu_state *gs, const struct gpgpu_walk *w,
			    struct eu_thread *t, unsigned index);
/* Fill thread t's payload registers: R0, then the CURBE data (payload.c;
 * the walker checked that they fit). */
void gpgpu_payload(const struct gpgpu_state *gs, const struct gpgpu_walk *w, struct eu_thread *t,
		   const uint32_t group[3], unsigned index, uint32_t barrier_id);

/* Run one thread group to its end (group.c): 0, or -1 with a fault. */
int gpgpu_run_group(struct gpgpu_state *gs, const struct gpgpu_env *env,
		    struct gpgpu_walk *w, const uint32_t group[3], struct gpgpu_units *u,
		    struct eu_thread **threads);

/* Run the groups start..end (exclusive) of a set-up walk with its
 * kernel loaded: the units, SLM and thread storage around
 * gpgpu_run_group (walker.c). */
int gpgpu_walk_run(struct gpgpu_state *gs, const struct gpgpu_env *env, struct gpgpu_walk *w,
		   const uint32_t start[3], const uint32_t end[3]);

/* GPGPU_WALKER (walker.c). */
int gpgpu_walker(struct gpgpu_state *gs, const struct gpgpu_env *env,
		 const uint32_t *dw, uint32_t len);
/* MEDIA_OBJECT (media_object.c). */
int gpgpu_media_object(struct gpgpu_state *gs, const struct gpgpu_env *env,
		       const uint32_t *dw, uint32_t len);

#endif
