/* Internals of the back end during one draw (not a contract: the front end
 * uses wm.h): the current primitive's setup, the pixels gathered for the
 * next PS thread, and what the render target write needs to find them. */
#ifndef GTSIM_RENDER_WM_DRAW_H
#define GTSIM_RENDER_WM_DRAW_H

#include "gpu/eu/exec.h"
#include "gpu/format/pack_fast.h"
#include "gpu/render/render_state.h"
#include "gpu/render/wm.h"

#define PS_MAX_PIXELS 32

/* One primitive after setup: what every pixel of it is computed from. */
struct wm_prim {
	struct win_vertex v[3];
	struct bary_setup bary;
	bool back_facing;
	uint8_t topology;          /* 3DPRIM_* the SF hands the WM (payload R0.0 4:0) */
	bool is_point;             /* point sprite coordinates apply */
	bool stippled;             /* a polygon under the polygon stipple */
	float point_size;
	float z_offset;            /* polygon offset added to every depth */
	uint32_t rt_array_index;   /* VUE header DWord 1 of the primitive */
	/* A piece of a clipped primitive: setup[] is the original primitive's
	 * and the payload's barycentrics are in it, computed from those b[] in
	 * the piece as sum_i b[i] bmap[linear][i][k] -- perspective ones with
	 * the clip-space weights of the piece's vertices, linear ones with
	 * their screen-space weights (3DSTATE_CLIP Non-Perspective Barycentric
	 * Enable: noperspective attributes stay linear in screen space across
	 * the original primitive, GL 4.6 section 13.5.1). */
	bool bary_mapped;
	float bmap[2][3][3];
	bool line_stippled;        /* a line under the line stipple */
	struct line_stipple ls;
	/* an antialiased line or smooth point (raster_aa.c): aa_alpha, its
	 * pixels' coverage multiplies their source alpha (rt_write.c); else
	 * (a smooth point under multisample rasterization) the samples
	 * outside its circle are not covered */
	struct raster_aa aa;
	bool aa_alpha;
	unsigned nattrs;
	/* last: a job copies the fields before it and setup[] up to nattrs */
	float setup[WM_MAX_SBE_ATTRS][4][4]; /* per attribute, component: a1-a0, a2-a0, 0, a0 */
};

/* The barycentrics of the payload (in the original primitive) from the
 * piece's b. */
static inline void wm_prim_bary(const struct wm_prim *p, bool linear, const float b[3], float out[3])
{
	if (!p->bary_mapped) {
		out[0] = b[0], out[1] = b[1], out[2] = b[2];
		return;
	}
	const float (*m)[3] = p->bmap[linear];
	for (int k = 0; k < 3; k++)
		out[k] = b[0] * m[0][k] + b[1] * m[1][k] + b[2] * m[2][k];
}

/* The pixels of one PS thread. */
struct ps_pixels {
	unsigned count;            /* pixels gathered (4 per quad) */
	int32_t x[PS_MAX_PIXELS], y[PS_MAX_PIXELS];
	uint32_t mask;             /* covered and passing the early tests */
	/* computed where the thread runs (ps_dispatch.c interpolate()) */
	float lin[3][PS_MAX_PIXELS], persp[3][PS_MAX_PIXELS];   /* weight, pixel */
	float z[PS_MAX_PIXELS], w[PS_MAX_PIXELS];
	/* multisampling: the samples each pixel writes (covered, past the
	 * early tests; per-sample dispatch: its one sample), the samples
	 * rasterization covered (the input coverage mask), the positions of
	 * the slot's sample and centroid (pixels from the upper left corner),
	 * and each subspan's sample (per-sample dispatch) */
	uint16_t cov[PS_MAX_PIXELS], in_cov[PS_MAX_PIXELS];
	float sx[PS_MAX_PIXELS], sy[PS_MAX_PIXELS], cx[PS_MAX_PIXELS], cy[PS_MAX_PIXELS];
	uint8_t sample_id[PS_MAX_PIXELS / 4];
};

/* The render target a PS thread's writes last used (binding table entry
 * bti's RENDER_SURFACE_STATE, read once per draw and thread slot: state
 * cannot change within a draw). */
struct rt_cache {
	struct surface_layout layout;
	int bti;                   /* -1: none */
	bool null;
	fmt_pack_fn pack;          /* its format's specialised packer, or NULL */
	fmt_pack8_fn pack8;        /* and its eight-element form */
	uint32_t view_slice;       /* single-sampled: the slice `view` is of (UINT32_MAX: none) */
	struct surface_view view;
};

/* One PS thread of a draw: its pixels and a copy of its primitive; what
 * it changes in the draw (faults, counters) is merged back when it ends
 * (the draw's own job, or a band's: wm_band.c). */
struct ps_job {
	struct wm_draw *d;
	struct eu_thread *t;       /* the slot's EU thread */
	uint64_t seq;              /* the draw's PS thread number */
	unsigned hw_thread;        /* the slot: which per-thread scratch space it owns */
	bool fresh;                /* t not yet run in this draw: cleared whole */
	uint64_t prim_serial;      /* which of the draw's primitives prim holds */
	struct ps_pixels px;
	struct wm_prim prim;       /* setup[] valid up to prim.nattrs */
	struct rt_cache rc;
	struct render_units units; /* the draw's, with pi at this job */
	struct pi_unit pi;
	uint64_t depth_passed;     /* REG_PS_DEPTH_COUNT from its RT writes */
	uint64_t fast_subspans;    /* its RT writes' span-path subspans */
	struct surface_view rt0;   /* its first render target, for GTSIM_DUMP_RT */
	bool have_rt0;
	bool faulted;              /* fault: the draw's, given at retirement */
	char fault[200];
};

struct ps_kernel {
	struct exec_prog *prog;
	uint64_t addr;
};

struct wm_draw {
	struct render_state *rs;
	const struct render_env *env;
	struct wm_state st;
	struct pixel_rect clip;    /* drawing rectangle, scissor */
	uint32_t vp_index;         /* the viewport st.vp, st.clip.gb, clip hold */
	int fault;                 /* a fault happened: skip the rest */
	unsigned simd;             /* dispatch width chosen: 8, 16 or 32 */
	struct ps_kernel kernel;
	unsigned grf_start;
	bool early_depth;          /* depth/stencil before the PS */
	bool dispatch;             /* PS threads run at all */
	struct ps_job *job;        /* the inline job (no pool) */
	uint64_t prim_serial;      /* bumped at each primitive's end */
	uint32_t line_stipple_s;   /* the stipple counter at the next line's start */
	struct wm_prim prim;
	struct ps_pixels *px;      /* where the next thread's pixels gather: its job's */
	uint64_t ps_threads, ps_pixels;
	/* pipeline statistics of the draw (added to the registers at its end) */
	uint64_t cl_in, cl_out;    /* primitives into and out of the clipper */
	uint64_t depth_passed;     /* pixels past the depth and stencil tests */
	uint64_t fast_subspans;    /* the jobs' fast_subspans, added up at the end */
	struct render_units units; /* what the PS threads' sends reach */
	struct sampler_unit sampler; /* the PS threads' sampler */
	struct dp_unit dp;         /* the PS threads' data ports */
	struct surface_view rt0;   /* the first render target written, for GTSIM_DUMP_RT */
	bool have_rt0;
	/* fast clear pass: the clear colour packed in the target's format and
	 * the block of the surface each pixel of the rectangle clears */
	uint8_t fc_packed[16];
	uint32_t fc_block_w, fc_block_h;
	/* bands (wm_band.c): the primitives waiting to be rasterized by
	 * bands of rows on the host threads (NULL: each rasterized at once);
	 * in a band's copy of the draw, the band's own record (NULL in the
	 * draw itself) */
	struct wm_batch *batch;
	struct wm_band *band;
	const struct wm_batch *batch_of;   /* a band's copy: the batch it rasterizes */
};

/* wm_band.c: a draw's triangles and rectangles rasterized on GTSIM_THREADS
 * host threads (default: the number of cores), each owning bands of
 * BAND_ROWS pixel rows of the target. */
enum wm_prim_kind { WM_PRIM_TRIANGLE, WM_PRIM_RECT };
/* The host threads there are (GTSIM_THREADS, read at each draw). */
unsigned wm_band_threads(void);
/* Batches rasterized on more than one host thread so far. */
uint64_t wm_band_split_runs(void);
/* At the draw's start: d->batch when the draw can use bands. */
void wm_band_begin(struct wm_draw *d);
/* The primitive set up in d->prim, of the given kind: kept for the bands
 * (0), or -1 when d has no batch (the caller rasterizes it now). */
int wm_band_add(struct wm_draw *d, enum wm_prim_kind kind);
/* Rasterizes every primitive kept, in order; their faults and counters
 * merged into d. Before anything else touches pixels or faults. */
void wm_band_flush(struct wm_draw *d);
/* At the draw's end (after the last flush). */
void wm_band_end(struct wm_draw *d);
/* A fault met in a band's copy of a draw: kept there (true), or false
 * when d is the draw itself. */
bool wm_band_fault(struct wm_draw *d, const char *text);
/* The fault text kept in a band's copy of a draw. */
const char *wm_band_fault_text(const struct wm_draw *d);
/* wm_draw.c: rasterizes d->prim, of the given kind, within clip. */
void wm_raster_prim(struct wm_draw *d, enum wm_prim_kind kind, const struct pixel_rect *clip);

/* attr_setup.c: the SBE attributes of a primitive from the VUE rows of
 * its three setup vertices (rows[i][r] is row r of vertex i) and of the
 * provoking vertex (pv_rows), whose values flat attributes take. For points, sprite texture coordinates then
 * vary across the square p->v[] spans. */
void attr_setup(struct wm_prim *p, const struct sbe_state *sbe,
		const float (*const rows[3])[4], const float (*pv_rows)[4], unsigned nrows,
		uint32_t prim_id);

/* ps_dispatch.c */
int ps_kernel_load(struct wm_draw *d, uint64_t ksp);
void ps_kernel_release(struct wm_draw *d);
int ps_flush(struct wm_draw *d);          /* runs the gathered pixels */
/* The pixel interpolator's view of a draw: the callbacks below with ctx,
 * the sample count and the pattern's positions from the centre. */
void ps_pi_init(struct pi_unit *pi, const struct wm_state *st, void *ctx);
/* The end of a primitive: its last thread flushed. */
int ps_prim_end(struct wm_draw *d);
/* Readies job j (its slot's EU thread allocated) for draw d. */
void ps_job_init(struct wm_draw *d, struct ps_job *j);
/* Runs job j on this host thread (its payload, the EU thread). */
void ps_job_run(struct ps_job *j);
/* Merges what job j changed into its draw (in dispatch order). */
int ps_job_retire(struct wm_draw *d, struct ps_job *j);
/* The job running on this host thread, or NULL. */
struct ps_job *ps_running_job(void);
/* pi_unit.weights and .centroid: the running thread's pixel `slot` (ctx a
 * ps_job). */
int ps_pi_weights(void *ctx, unsigned slot, float dx, float dy, bool linear, float b[2]);
int ps_pi_centroid(void *ctx, unsigned slot, float *dx, float *dy);
/* A quad and its coverage (raster_cov_fn's: 16 bits a pixel): the early
 * depth/stencil tests at each covered sample, then its subspans (one per
 * sample under per-sample dispatch) gathered into threads. */
int ps_add_quad(struct wm_draw *d, int32_t x, int32_t y, uint64_t cov);
/* n quads of a row at (x + 2k, y), each with coverage cov (every sample):
 * ps_add_quad's work for each, in order. */
int ps_add_run(struct wm_draw *d, int32_t x, int32_t y, unsigned n, uint64_t cov);

/* Depth of the primitive at window position (x, y). */
/* The plane equation from vertex 0 (PRM vol. 2 "Depth Offset"/"WM":
 * Z = Z0 + Cx dx + Cy dy): a primitive of one depth is that depth at every
 * sample, exactly (the weighted sum of the three z's is not: a depth
 * EQUAL test against a clear to the same value failed at some pixels). */
static inline float wm_prim_z(const struct wm_prim *p, double x, double y)
{
	float lin[3];
	bary_lin_at(&p->bary, x, y, lin);
	double z0 = p->v[0].z;
	return (float)(z0 + lin[1] * ((double)p->v[1].z - z0) + lin[2] * ((double)p->v[2].z - z0)) +
	       p->z_offset;
}

/* wm_prim_z at the four pixel centres of the quad at (x, y): the same
 * bits, four at a time. */
static inline void wm_prim_z_quad(const struct wm_prim *p, int32_t x, int32_t y, float z[4])
{
	const float vz[3] = { p->v[0].z, p->v[1].z, p->v[2].z };
	bary_z_quad(&p->bary, vz, x, y, z);
	for (unsigned i = 0; i < 4; i++)
		z[i] += p->z_offset;
}

/* Position of sample s of the draw's pattern, in pixels from the upper
 * left corner of its pixel. */
static inline double wm_sample_x(const struct wm_state *st, unsigned s)
{
	return (double)st->ms.pos.x[s] / RASTER_ONE;
}
static inline double wm_sample_y(const struct wm_state *st, unsigned s)
{
	return (double)st->ms.pos.y[s] / RASTER_ONE;
}

/* depth_test.c: the depth and stencil tests of sample s of one pixel at
 * depth z; true when it passes (buffers updated as the state says). */
/* sref: the stencil reference the PS computed (0..255), or -1 for the
 * state's (DEPTH_STENCIL_STATE / 3DSTATE_WM_DEPTH_STENCIL). */
/* The early test of a single-sampled quad's covered pixels `in` (bit i:
 * pixel i) at depths z: the mask that passes, or -1 when the quad needs
 * depth_stencil_sample pixel by pixel (stencil, samples, pages). */
int depth_test_quad(struct wm_draw *d, int32_t x, int32_t y, const float z[4], unsigned in);
/* The whole-run early depth test: n (<= DEPTH_RUN_MAX) wholly covered
 * single-sampled quads of a row at (x + 2k, y), pixel i of quad k at depth
 * z[4k + i] (the primitive's depth at its centre, wm_prim_z_quad's value),
 * read, compared and written in one pass over the depth buffer; pass[k]
 * the pixels of quad k that pass (bit i: pixel i). 0, or -1 with nothing
 * done when the run needs the quad-by-quad path (ps_add_quad): stencil,
 * samples, pages. */
#define DEPTH_RUN_MAX 32
int depth_test_run(struct wm_draw *d, int32_t x, int32_t y, unsigned n, const float *z,
		   uint8_t *pass);
/* Quads depth_test_run has tested since the process started. */
uint64_t depth_test_run_quads(void);
bool depth_stencil_sample(struct wm_draw *d, int32_t x, int32_t y, unsigned s, float z,
			  bool back, int sref);
bool depth_test_enabled(const struct wm_state *st);

/* rt_write.c: the render cache's sfid handler (ctx: struct wm_draw). */
int rt_write_handler(void *ctx, struct eu_thread *t, const struct eu_send *msg);
/* Subspans render target writes stored through one offset computation
 * each (rt_write.c's fast path), since the process started. */
uint64_t rt_write_fast_subspans(void);
/* Adds a draw's count to it (once a draw: no atomic per message). */
void rt_write_add_fast_subspans(uint64_t n);

/* rt_fast_clear.c: a fast clear pass's clear colour and block size for
 * the render target l (cpp set) of format fi; then each pixel (x, y) of
 * the scaled-down rectangle writes its block of the view s. */
struct fmt_info;
int rt_fast_clear_setup(struct wm_draw *d, struct eu_thread *t, const struct surface_layout *l,
			const struct fmt_info *fi);
/* views[s]: sample s's slice (one for a single-sampled target), `slice`
 * the layer's (the MCS's). */
int rt_fast_clear_block(struct wm_draw *d, const struct surface_view *views, unsigned nviews,
			uint32_t slice, int32_t x, int32_t y);
/* The clear colour of l packed in its format into d->fc_packed. */
int rt_clear_colour_pack(struct wm_draw *d, struct eu_thread *t, const struct surface_layout *l,
			 const struct fmt_info *fi);
/* Before samples of pixel (x, y) of a target with an MCS are written: a
 * fast-cleared pixel (MCS all ones) first gets the clear colour in every
 * sample, then the MCS says every sample is in its own plane. */
int rt_mcs_prepare(struct wm_draw *d, const struct surface_view *views, uint32_t slice,
		   int32_t x, int32_t y);

/* Fault during a draw: records it once (render_set_fault) and returns -1;
 * inside a PS job, the job's (given to the draw when it retires). */
int wm_fault(struct wm_draw *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The fault text wm_fault recorded (the running job's, else the draw's). */
const char *wm_fault_text(const struct wm_draw *d);
/* Whether wm_fault was called (in the running job, else in the draw). */
bool wm_faulted(const struct wm_draw *d);


#endif
