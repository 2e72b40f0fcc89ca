/* The render state the front end keeps between commands (not a contract:
 * other units use render.h). Values are decoded from the command tables
 * once per state command so a draw reads plain fields. */
#ifndef GTSIM_RENDER_STATE_H
#define GTSIM_RENDER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/cs/base_address.h"
#include "gpu/dataport/dataport.h"
#include "gpu/eu/send.h"
#include "gpu/format/format.h"
#include "gpu/render/render.h"
#include "gpu/sfid/gateway.h"
#include "gpu/sfid/pi.h"
#include "gpu/render/stage.h"
#include "gpu/render/te_state.h"
#include "gpu/render/so.h"
#include "gpu/sfid/sampler.h"
#include "gpu/sfid/urb.h"

#define RENDER_MAX_VB 33          /* VERTEX_BUFFER_STATE index 0..32 */
#define RENDER_MAX_VE 34          /* 3DSTATE_VERTEX_ELEMENTS: up to 34 */
#define RENDER_MAX_DRAW_VUES 4096 /* handles kept for render_last_vues() */

enum render_stage { RS_VS, RS_HS, RS_DS, RS_GS, RS_PS, RS_NUM_STAGES };

/* VERTEX_ELEMENT_STATE component controls (PRM vol. 2d). */
enum ve_control {
	VFCOMP_NOSTORE = 0, VFCOMP_STORE_SRC = 1, VFCOMP_STORE_0 = 2,
	VFCOMP_STORE_1_FP = 3, VFCOMP_STORE_1_INT = 4, VFCOMP_STORE_PID = 7,
};

/* The units a thread's send messages reach, as one draw sets them up: the
 * context every handler of render_sfids receives (eu_thread.sfid_units). */
struct render_units {
	struct urb_space *urb;
	struct sampler_unit *sampler;  /* the stage's samplers and surfaces */
	struct wm_draw *rt;            /* render-target writes: the PS's draw */
	struct dp_unit *dp;            /* the data ports: the stage's surfaces, scratch */
	struct pi_unit *pi;            /* the pixel interpolator: the PS's pixels */
	struct gateway_group *gateway; /* barriers: the HS instances of a patch */
};

/* SFID -> unit, per stage (sfid_wiring.c): the one place that says which
 * shared functions a thread of each stage reaches. */
extern const struct sfid_table render_sfids[RS_NUM_STAGES];
/* A stage's data ports (sfid_wiring.c): its binding table and scratch
 * space (the stage state's Scratch Space Base Pointer and Per-Thread
 * Scratch Space). */
void render_dp_unit(struct render_state *rs, const struct render_env *env, struct dp_unit *u,
		    enum render_stage st, uint64_t scratch_base, uint32_t scratch_space);

struct vb_state {
	bool valid, null;
	uint64_t addr;
	uint32_t pitch, size;
	/* a one-page translation cache for the vertex fetcher, per draw */
	uint64_t tlb_page;
	const uint8_t *tlb_host;
};

struct ve_state {
	bool valid, edge_flag;
	uint8_t vb;
	uint16_t offset, format;
	uint8_t comp[4];          /* enum ve_control */
	bool instancing;          /* 3DSTATE_VF_INSTANCING */
	uint32_t step_rate;
	/* set by vf_prepare() for a draw */
	const struct fmt_info *fi;
	bool reads;               /* some component is STORE_SRC */
};

struct urb_partition {
	uint32_t entries, size;   /* size in 64-byte units (field + 1) */
	uint32_t start;           /* 8 KB chunks */
};

struct vs_state {
	bool enable, simd8, stats, cache_disable;
	uint64_t ksp;             /* offset from Instruction Base Address */
	uint32_t read_offset, read_length; /* 256-bit units (2 VUE rows) */
	uint32_t grf_start;       /* dispatch GRF start for URB data */
	uint32_t binding_table_entries, sampler_count, scratch_space;
	uint64_t scratch_base;
	uint32_t max_threads;
};

/* 3DSTATE_GS (PRM vol. 2a; every field iris and anv set). */
/* Dispatch Mode: 1 DUAL_INSTANCE, 2 DUAL_OBJECT (SIMD4x2, the vec4 GS),
 * 3 SIMD8; 0 is not a Gen8/9 mode (Gen7's SINGLE) */
enum gs_dispatch_mode {
	GS_DISPATCH_DUAL_INSTANCE = 1, GS_DISPATCH_DUAL_OBJECT = 2, GS_DISPATCH_SIMD8 = 3,
};
struct gs_state {
	bool enable, stats, discard_adjacency, include_vertex_handles, include_primitive_id;
	bool reorder_trailing;    /* Reorder Mode TRAILING: odd strip triangles (1, 0, 2) */
	bool static_output, control_data_sid; /* Control Data Format: 0 cut bits, 1 stream IDs */
	uint64_t ksp;
	uint32_t dispatch_mode;   /* enum gs_dispatch_mode (1 is reserved) */
	uint32_t expected_vertex_count, instances; /* Instance Control + 1 */
	uint32_t control_header;  /* Control Data Header Size, 256-bit units */
	uint32_t vertex_size;     /* Output Vertex Size + 1, 128-bit units */
	uint32_t output_topology, default_stream, static_vertex_count;
	uint32_t read_offset, read_length; /* 256-bit units, per input vertex */
	uint32_t grf_start;       /* dispatch GRF start for URB data (gen9: 6 bits) */
	uint32_t binding_table_entries, sampler_count, scratch_space, max_threads;
	uint64_t scratch_base;
	uint32_t invocations_increment;
	uint32_t output_read_offset, output_length; /* for the SBE: 256-bit units */
	uint32_t clip_cull_mask;  /* user clip distance clip | cull enables */
};

/* 3DSTATE_CONSTANT_<stage>: up to four push constant buffers. */
struct push_constants {
	uint32_t len[4];          /* 256-bit units (registers) */
	uint64_t addr[4];
};

/* The counts of the last draw, for the pipeline statistics (PRM vol. 2
 * "Statistics"): counted whether or not a stage's Statistics Enable is set;
 * the registers are only advanced when it is. */
struct draw_counts {
	uint64_t ia_vertices, ia_primitives, vs_invocations;
	uint64_t gs_invocations;  /* GS instances run: input primitives x instances */
	uint64_t gs_primitives;   /* primitives the GS output (strips assembled) */
	uint64_t hs_invocations;  /* patches the HS ran for */
	uint64_t ds_invocations;  /* domain points the DS shaded */
};

struct render_state {
	const struct gt_devinfo *info;
	char fault[200];

	uint32_t pipeline;        /* PIPELINE_SELECT: 0 3D, 1 media, 2 GPGPU */
	struct cs_base_address sba;  /* STATE_BASE_ADDRESS */

	struct vb_state vb[RENDER_MAX_VB];
	struct ve_state ve[RENDER_MAX_VE];
	uint32_t num_ve;

	bool cut_enable;          /* 3DSTATE_VF */
	bool seq_cut_enable;      /* gen9: Sequential Draw Cut Index Enable */
	bool component_packing;   /* gen9: Component Packing Enable */
	uint32_t cut_index;
	bool vf_stats;
	uint32_t topology;        /* 3DSTATE_VF_TOPOLOGY, _3DPRIM_* */
	bool vid_enable, iid_enable; /* 3DSTATE_VF_SGVS */
	uint8_t vid_elem, vid_comp, iid_elem, iid_comp;

	uint32_t ib_format;       /* 0 byte, 1 word, 2 dword */
	uint64_t ib_addr;
	uint32_t ib_size;

	struct urb_partition urb[4];  /* VS, HS, DS, GS */
	uint32_t push_offset[RS_NUM_STAGES], push_size[RS_NUM_STAGES]; /* KB */
	uint32_t vs_const_len[4];     /* 3DSTATE_CONSTANT_VS, 32-byte units */
	uint64_t vs_const_addr[4];
	uint32_t binding_table[RS_NUM_STAGES], sampler_state[RS_NUM_STAGES];

	struct vs_state vs;
	struct gs_state gs;
	struct push_constants gs_const;
	bool hs_enable, ds_enable, te_enable, so_enable;
	struct tess_state tess;       /* HS, TE, DS (te_state.c) */
	struct so_buffer so_buf[SO_BUFFERS]; /* 3DSTATE_SO_BUFFER by index */
	struct so_draw *so;           /* the draw's stream output (so.h), or NULL */

	/* The URB memory, its partitions as the last draw set them, and the
	 * VS's ring of entries. */
	struct urb_space urb_space;
	uint32_t vs_next_entry;
	struct render_units vs_units; /* what the VS threads' sends reach */
	struct sampler_unit vs_sampler; /* the VS threads' sampler, set per draw */
	struct dp_unit vs_dp;         /* the VS threads' data ports, set per draw */
	struct dp_unit gs_dp;         /* the GS threads' data ports, set per draw */

	/* The last draw, for render_last_vues(). */
	uint32_t last_vues[RENDER_MAX_DRAW_VUES];
	uint32_t num_last_vues;

	struct render_units gs_units; /* what the GS threads' sends reach */
	struct sampler_unit gs_sampler;
	struct draw_counts counts;    /* the last draw's */

	uint64_t threads;             /* VS threads dispatched, for benches */
	bool profiling;
	struct render_profile prof;
	/* The back end (wm_draw.c): one primitive, its vertices as VUE
	 * references (VUE_REF), each VUE sink_vue_bytes long. */
	void (*prim_sink)(void *ctx, uint32_t topology, const uint32_t *handles,
			  unsigned n);      /* the later stages; NULL: none yet */
	void *prim_ctx;
	uint32_t sink_vue_bytes;
	/* the primitive handed to prim_sink is an odd strip triangle given as
	 * (v0, v2, v1) of its window (prim.c): provoking vertex selects and
	 * stream output's reorder mode refer to the window's order */
	bool prim_reordered;
	/* its edges that are no polygon boundary (stage.h vue_prim) */
	uint8_t prim_hidden_edges;
	bool prim_first;           /* vue_prim.first of the primitive */
	/* The VF's edge flags (VERTEX_ELEMENT_STATE Edge Flag Enable): bit h
	 * set when the vertex in VS URB handle h has its flag off; used when
	 * vf_edge_flags (an edge-flag element, the VS's VUEs reaching the
	 * back end: no GS, no tessellation) */
	bool vf_edge_flags;
	uint8_t vf_edge_off[65536 / 8];
	/* its primitive ID (stage.h vue_prim.prim_id: per instance, or the
	 * patch's under tessellation): the PS's primitive ID through
	 * 3DSTATE_SBE's attribute override when no GS replaces it */
	uint32_t prim_id;
};

/* One 3DPRIMITIVE's parameters (direct or from the 3DPRIM_* registers). */
struct draw_params {
	bool indexed;
	uint32_t topology, vertex_count, start_vertex, instance_count, start_instance;
	int32_t base_vertex;
};

int render_draw(struct render_state *rs, const struct render_env *env,
		const struct draw_params *p);

/* Vertex fetch (vf.c): checks the elements of a draw, and then the VUE
 * input rows of one vertex, written into the
 * entry at handle. vertex_index indexes the buffers (base vertex applied),
 * vertex_id is the SGVS VertexID (without Start Vertex Location or Base
 * Vertex Location), instance is the instance number. */
int vf_prepare(struct render_state *rs);
int vf_fetch(struct render_state *rs, const struct render_env *env, uint32_t handle,
	     uint32_t vertex_index, uint32_t vertex_id, uint32_t instance,
	     uint32_t start_instance);

/* VS threads (vs.c). */
struct vs_kernel;
struct vs_kernel *vs_kernel_load(struct render_state *rs, const struct render_env *env);
void vs_kernel_free(struct vs_kernel *k);
int vs_dispatch(struct render_state *rs, const struct render_env *env,
		const struct vs_kernel *k, const uint32_t *handles, unsigned n);

/* GS threads (gs_dispatch.c): the GS stage of a draw, before `next`; NULL
 * after a fault. gs_stage_end frees it and adds its counts to rs->counts. */
struct gs_stage;
struct gs_stage *gs_stage_begin(struct render_state *rs, const struct render_env *env,
				struct prim_stage *next);
struct prim_stage *gs_stage_input(struct gs_stage *gs);
void gs_stage_end(struct gs_stage *gs);
/* 3DSTATE_GS into rs, and the recorded 3DSTATE_CONSTANT_GS at a draw
 * (gs_state.c). */
void gs_state_decode(struct render_state *rs, const uint32_t *dw, uint32_t len);
void gs_constants_load(struct render_state *rs, const struct render_env *env);
/* Bytes of a GS output entry before its first vertex (gs_state.c). */
uint32_t gs_output_header_bytes(const struct gs_state *gs);
/* Checks a draw's GS state against the URB and the topology (gs_state.c). */
int gs_state_check(struct render_state *rs, uint32_t topology); /* the topology feeding the GS */
/* Push constants of a stage into its thread from grf (gs_dispatch.c); the
 * first register after them in *next_grf. */
int render_push_constants(struct render_state *rs, const struct render_env *env,
			  struct eu_thread *t, const struct push_constants *pc, unsigned grf,
			  const char *stage, unsigned *next_grf);

/* The back end's draw hooks (wm.h); weak defaults in draw.c do nothing
 * until the back end links its own. */
int wm_draw_begin(struct render_state *rs, const struct render_env *env,
		  const struct cs_state *state);
int wm_draw_end(struct render_state *rs);

/* Pipeline statistics (PRM vol. 2 "Statistics"; draw.c): adds n to the
 * 64-bit register reg (REG_IA_*, REG_VS/HS/DS/GS_INVOCATION_COUNT,
 * REG_GS_PRIMITIVES_COUNT, REG_CL_*, REG_PS_*, REG_CS_INVOCATION_COUNT).
 * Each stage adds its counts once its work is done, only when its state's
 * Statistics Enable is set (3DSTATE_VF_STATISTICS for IA_*, 3DSTATE_VS/HS/
 * DS/GS, 3DSTATE_CLIP, 3DSTATE_WM). */
void render_stat_add(const struct render_env *env, uint32_t reg, uint64_t n);

/* Traces (vue_trace.c). */
void vue_trace(struct render_state *rs, uint32_t handle, uint32_t vertex);
int render_format_row(char *buf, size_t size, const uint32_t dw[4]);

/* Monotonic clock in ns when profiling, else 0 (render.c). */
uint64_t render_clock(const struct render_state *rs);

/* Record a GPU fault; returns -1. */
int render_set_fault(struct render_state *rs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* state.c: 1 when d is not a state command the front end keeps. */
int render_state_command(struct render_state *rs, const struct cmd_desc *d,
			 const uint32_t *dw, uint32_t len);

#endif
