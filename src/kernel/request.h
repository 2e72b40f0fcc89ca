/* Requests: one batch submitted to one engine (i915_request), and the
 * per-engine state that ring-buffer submission needs (seed 002, seed 004).
 *
 * Each context has a ring of its own on each engine (lrc.h struct
 * ctx_ring, i915's intel_context->ring on execlists), and each engine a
 * hardware status page, set up before the engine's first request (so a
 * device that never submits work keeps its whole GGTT); the engine runs
 * one context's ring at a time (ring_switch, request.c). A request gets
 * the engine's next seqno and emits into its context's ring: a PPGTT switch when the context changes (LRI of
 * RING_PDP0), MI_BATCH_BUFFER_START, then the breadcrumb: MI_STORE_DATA_INDEX
 * of the seqno into the status page and MI_USER_INTERRUPT. The interrupt
 * signals the fences of requests whose seqno the status page has passed;
 * retiring (with dev->lock) then drops the objects' active references.
 *
 * A request whose dependencies (in-fences, implicit cross-engine ordering)
 * have not signaled yet, or that finds the ring full, waits in the engine's
 * queue and is emitted later by the kernel worker thread (hangcheck.c), so
 * execbuf never blocks on them. Queued requests enter the ring in the
 * scheduler's order (scheduler.c: priority, same-engine dependencies,
 * inheritance) and get their seqno then, so requests leave the ring in
 * seqno order; the list holds the emitted ones first, then the queued.
 *
 * Locks: dev->lock, then an engine's lock. The engine lock guards the
 * request list, seqnos and its rings' write positions; the engine threads'
 * callbacks take only engine locks. */
#ifndef GTSIM_KERNEL_REQUEST_H
#define GTSIM_KERNEL_REQUEST_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "gpu/gpu.h"
#include "gtsim/gtsim.h"
#include "kernel/engine_props.h"
#include "kernel/list.h"
#include "kernel/lrc.h"

struct gtsim_device;
struct gem_object;
struct gem_context;
struct gt_fence;
struct gt_engine;

/* i915's I915_GEM_HWS_INDEX: the dword of the status page holding the
 * last completed seqno. */
#define HWS_SEQNO_INDEX 0x30
/* Longest emission of one request, in bytes (MI_ARB_CHECK, two context
 * image calls, SET_CONTEXT, LRI, MI_ARB_ON_OFF, a semaphore wait per other
 * engine, BB_START, breadcrumb with the timeline's store, MI_ARB_ON_OFF,
 * padded: 28 dwords and 4 per semaphore). */
#define REQUEST_MAX_BYTES (4 * (28 + 4 * (GT_NUM_ENGINES - 1)))
/* What the throttle counts for a request not emitted yet: the longest
 * emission without semaphores (most requests have none). */
#define REQUEST_RESERVE_BYTES (4 * 28)

/* A wait of a request on another engine's request, on the GPU (i915's
 * emit_semaphore_wait): MI_SEMAPHORE_WAIT in the waiter's ring, before its
 * batch, polling the signaler's timeline dword (GGTT) until it is at
 * least the signaler's timeline seqno. */
struct rq_semaphore {
	struct gt_fence *signal;     /* the signaler's fence (reference: inheritance) */
	uint64_t addr;               /* its timeline dword, GGTT */
	volatile uint32_t *host;     /* ... its host view */
	uint32_t value;              /* its timeline seqno */
	enum gt_engine_id engine;    /* its engine */
};

struct gem_request {
	int refcount;                /* atomic */
	struct rq_engine *engine;
	struct ctx_ring *ring;       /* its context's ring on the engine (lrc.h) */
	uint32_t seqno;
	struct gem_context *ctx;     /* reference, dropped at retire */
	uint64_t pml4;               /* the context's PPGTT root */
	unsigned ctx_slot;           /* logical context within ctx (execbuf.h) */
	/* RCS: the first request of that logical context, so its
	 * MI_SET_CONTEXT inhibits the restore (decided under dev->lock at
	 * submission, which guards ctx->rcs_images). */
	bool ctx_first_use;
	/* The context's register image slot on this engine (lrc.h: GGTT
	 * address, 0 for a kernel request) and whether this is the slot's
	 * first request (restore from the default image). */
	uint64_t lrc_img;
	bool lrc_first;
	struct gt_fence *fence;      /* signaled when the seqno passed */
	/* Its context's timeline on this engine (lrc.h; none for a kernel
	 * request): the seqno its breadcrumb stores at tl_addr (GGTT). */
	uint32_t tl_seqno;
	uint64_t tl_addr;
	volatile uint32_t *tl_host;
	/* Waits, itself or through a request it waits for, for a fence no
	 * request of the device signals (i915's I915_SCHED_HAS_EXTERNAL_CHAIN:
	 * no semaphore then, so that the fence's error is not bypassed). */
	bool external_chain;
	/* Semaphore waits it emits (at most one per signaling engine) and
	 * the ring offset of the first (valid once emitted). */
	struct rq_semaphore sema[GT_NUM_ENGINES];
	unsigned nsema;
	uint32_t sema_pos;
	int error;                   /* fence error: -EIO when reset/skipped */

	/* Batch: GPU address (PPGTT), object and offset, for the error state. */
	uint64_t batch_addr;
	struct gem_object *batch_obj;
	uint64_t batch_offset, batch_len;

	/* Objects the GPU uses (one active reference each) and those to
	 * capture in an error state. */
	struct gem_object **objs;    /* objs_inline when few */
	bool *objs_write;            /* does it write objs[i] (objs_write_inline when few) */
	unsigned nobjs;
	struct gem_object *objs_inline[4];
	bool objs_write_inline[4];
	int priority;                /* the context's at submission (scheduling) */
	/* Preemption (preempt.c): where a preempted batch resumes (0: at
	 * batch_addr), and the engine's context state (e->last_*) before and
	 * after this request's emission, restored when it is unwound. */
	uint64_t resume_addr;
	uint64_t pre_lrc, pre_pml4, post_lrc, post_pml4;
	uint32_t pre_ctx_addr, post_ctx_addr;
	bool pulse;                  /* a heartbeat pulse (heartbeat.c): no context, no batch */
	uint64_t run_ns;             /* GPU time it has run (the watchdog, preempt.c) */
	uint64_t emission;           /* e->serial at its emission: which one runs (preempt.c;
				      * an unwound request emitted again gets a new one, while
				      * its seqno goes to whatever is emitted first) */
	struct gem_object **capture;
	uint64_t *capture_addr;      /* their addresses in the context's PPGTT */
	unsigned ncapture;

	/* Fences to wait for before emission (references). */
	struct gt_fence **deps;
	unsigned ndeps;

	/* Ring offsets: start of its commands, its MI_BATCH_BUFFER_START,
	 * end (the TAIL after it). Valid once emitted. */
	uint32_t head, bb_pos, tail;
	bool emitted, signaled, skip;
	bool throttled;              /* a client waits for it (request_throttle) */
	uint64_t submit_ns;
	int64_t queued_ns;           /* fence_now_ns() at request_submit (THROTTLE) */
	struct list_node link;       /* engine->requests, then engine->done */
};

struct rq_engine {
	struct gtsim_device *dev;
	enum gt_engine_id id;
	struct gt_engine *hw;
	pthread_mutex_t lock;
	uint32_t throttle_seq;       /* bumped (futex) when a throttled client's request completed */

	struct gem_object *hws_obj;
	uint64_t hws_ggtt;
	volatile uint32_t *hws;      /* host view of the status page */
	/* The ring the engine has loaded (execlists: the ring of the context
	 * it runs; lrc.h struct ctx_ring), NULL before the engine's setup.
	 * Only its requests are emitted and not completed: another
	 * context's ring is loaded once the engine is idle (ring_switch in
	 * request.c). */
	struct ctx_ring *cur;
	uint64_t last_pml4;          /* PPGTT root loaded by the last emission */
	uint32_t last_ctx_addr;      /* RCS: MI_SET_CONTEXT of the last emission */
	/* Context register images (lrc.h): the slots (dev->lock), the
	 * default image, and the image whose registers the engine holds
	 * after the last emission (engine lock). */
	struct lrc_pool lrc;
	uint64_t lrc_default;
	uint64_t last_lrc;
	uint32_t next_seqno;
	unsigned queued;             /* requests not emitted yet */
	unsigned unretired;          /* submitted, not retired (dev->lock) */
	struct list_node requests;   /* not signaled yet, seqno order */
	struct list_node done;       /* signaled, waiting to be retired */

	/* TAIL writes (engine.h): serialised, always the newest tail. */
	pthread_mutex_t kick_lock;
	uint32_t emitted_tail;       /* atomic */
	uint32_t kicked_tail;

	/* Hangcheck (hangcheck.c). */
	uint64_t hc_acthd;
	uint32_t hc_seqno;
	uint64_t hc_arb;           /* engine_progress_marks() at the last sample */
	uint64_t hc_since_ns;
	uint64_t hc_gpu_ns;          /* GPU time since hc_since_ns (hangcheck.c) */
	uint64_t hc_tick_ns;         /* the last sample's time */
	uint64_t hc_cpu_ns, hc_runq_ns; /* engine_host_times() at the last sample */
	bool hc_moving;              /* ACTHD moved since hc_since_ns */
	/* A closed context's executing request to reset, by its emission
	 * (rq->emission; atomic): an unwind may hand its seqno to another. */
	uint64_t kill_emission;
	bool fault;                  /* fault callback seen (atomic) */
	unsigned reset_count;

	/* sysfs properties (engine_props.h). */
	struct engine_props props;
	uint64_t serial;             /* emissions so far (i915's engine->serial; engine lock) */
	/* Preemption (preempt.c; worker, engine lock for the request list). */
	bool preempted;              /* the engine's preempted callback ran (atomic) */
	bool preempt_pending;        /* engine_request_preemption asked */
	bool preempt_timeslice;      /* ... for a timeslice, not a priority */
	uint32_t preempt_seqno;      /* the request running when asked */
	uint64_t preempt_arb;        /* engine_arb_checks() when the window started */
	uint64_t preempt_gpu_ns;     /* GPU time in the preempt timeout's window */
	struct gpu_clock { uint64_t tick_ns, cpu_ns, runq_ns; } preempt_clock, wd_clock;
	/* The timeslice: the emission it counts for (rq->emission), and since
	 * when the engine executes it (0: not begun yet). */
	uint64_t ts_emission;
	uint64_t ts_since_ns;
	/* The watchdog (preempt.c): the running request when last looked at. */
	const struct gem_request *wd_rq;
	/* Heartbeat (heartbeat.c; worker only). */
	struct gem_request *pulse;   /* reference, until completed */
	uint64_t pulse_ns;           /* emitted or last bumped */
	uint64_t hb_last_ns;         /* the last heartbeat */
	uint64_t hb_serial;          /* e->serial after the last pulse's emission */
	uint64_t hb_arb;             /* engine_arb_checks() at the pulse's last raise */
};

struct gem_requests {
	struct rq_engine engine[GT_NUM_ENGINES];
	/* The kernel worker: deferred emission, hangcheck, periodic retire. */
	pthread_t worker;
	bool worker_started;
	pthread_mutex_t worker_lock;
	pthread_cond_t worker_cond;
	bool quit, kick;
	bool fork_hold, parked;    /* worker_fork_hold: parked outside every lock */
	/* Last error state (error_state.c), under worker_lock. */
	char *error_state;
};

static inline struct gem_requests *dev_requests(struct gtsim_device *dev);

struct gem_request *request_get(struct gem_request *rq);
/* Lock-free: frees memory and the fence reference only. */
void request_put(struct gem_request *rq);
bool request_completed(const struct gem_request *rq);
/* i915's i915_seqno_passed: wrap-safe seqno compare. */
static inline bool seqno_passed(uint32_t a, uint32_t b) { return (int32_t)(a - b) >= 0; }
/* 0 until the engine's ring and status page exist (the worker may retire
 * before the first execbuf sets them up). */
static inline uint32_t engine_hws_seqno(const struct rq_engine *e)
{
	volatile uint32_t *hws = __atomic_load_n(&e->hws, __ATOMIC_ACQUIRE);
	return hws ? __atomic_load_n(&hws[HWS_SEQNO_INDEX], __ATOMIC_ACQUIRE) : 0;
}

/* The engine's ring and status page, created (bound pinned in the GGTT,
 * programmed through MMIO) before its first request. dev->lock held. */
int request_engine_setup(struct rq_engine *e);
/* Dependencies (fences) all signaled? Drops them once they are. */
bool request_deps_ready(struct gem_request *rq);
/* Is the request held by one of its semaphores now (a signaler's
 * timeline below its value)? */
bool request_sema_blocked(const struct gem_request *rq);
/* A new request on engine for ctx (reference taken), with its fence.
 * dev->lock held. */
struct gem_request *request_create(struct rq_engine *e, struct gem_context *ctx);
/* Queue the prepared request (seqno assigned, added to the list); emit at
 * once when nothing is ahead of it and its dependencies are signaled.
 * Returns true when the engine needs a TAIL kick (request_kick, without
 * dev->lock). dev->lock held. */
bool request_submit(struct gem_request *rq);
/* Before a request is created: wait while the context's ring on the
 * engine is nearly full (i915's eb_throttle and eb_pin_timeline on
 * ce->ring), with no lock held. 0, -EINTR when a signal handler ran
 * meanwhile, -EWOULDBLOCK for a file opened O_NONBLOCK. */
int request_throttle(struct rq_engine *e, struct ctx_ring *ring, bool nonblock);
/* Would request_throttle wait now? Any lock but the engine's held. */
bool request_throttle_needed(struct rq_engine *e, struct ctx_ring *ring);
/* Write the engine's newest TAIL (runs the work in sync mode). */
void request_kick(struct rq_engine *e);
/* Emit whatever queued requests are ready (worker). Returns true when
 * some remain queued. */
bool requests_emit_ready(struct rq_engine *e);
/* Signal fences of completed requests (interrupt path, engine lock only). */
void requests_signal_completed(struct rq_engine *e);
/* Drop a request's objects' active references and trackers, and its
 * context. dev->lock held. */
void request_retire(struct gem_request *rq);
/* Retire one engine's completed requests. dev->lock held. */
void requests_retire_engine(struct rq_engine *e);
/* Bytes of the ring free for emission. Engine lock held. */
uint32_t ring_space(struct rq_engine *e, struct ctx_ring *ring);
/* Write the request's commands at its ring's emit (ring_emit.c), the
 * engine's loaded ring. Engine lock held. */
void ring_emit_request(struct rq_engine *e, struct gem_request *rq);
/* Write kernel commands (padded to a qword) into the engine's loaded
 * ring. Engine lock or dev->lock before the engine's first request. */
void ring_emit_raw(struct rq_engine *e, const uint32_t *dw, unsigned n);
/* Overwrite the request's MI_BATCH_BUFFER_START with MI_NOOPs. */
void ring_skip_batch(struct rq_engine *e, struct gem_request *rq);
/* The same and its semaphore waits too, for a reset that restarts the
 * engine before its batch (reset.c): the request runs its context switch
 * and breadcrumb, nothing else. */
void ring_skip_waits_and_batch(struct rq_engine *e, struct gem_request *rq);

/* Emit whatever queued requests are ready, in the scheduler's order.
 * Engine lock held; true when something was emitted. */
bool requests_emit_ready_locked(struct rq_engine *e);
/* The first emitted request not signaled yet (executing, or next to),
 * or NULL. Engine lock held. */
struct gem_request *engine_running_request(struct rq_engine *e);
/* A kernel request with no context and no batch (a heartbeat pulse):
 * only the breadcrumb. */
struct gem_request *request_create_kernel(struct rq_engine *e, int priority);

/* Preemption and timeslicing (preempt.c) and the heartbeat
 * (heartbeat.c), run by the worker for each engine, no lock held; each
 * returns when it next needs to run (fence_now_ns time, 0: not before
 * something happens). */
uint64_t preempt_service(struct rq_engine *e, uint64_t now);
uint64_t heartbeat_service(struct rq_engine *e, uint64_t now);
/* The engine's preempted callback (engine thread). */
void on_preempted(void *data, struct gt_engine *hw);

/* The kernel worker (hangcheck.c). */
int worker_start(struct gtsim_device *dev);
/* In a fork child: the worker of the device's copy, started anew. */
int worker_fork_child(struct gtsim_device *dev);
/* Around fork in the parent: the worker parked at its wait, holding no
 * lock the child would inherit taken; then let go. */
void worker_fork_hold(struct gtsim_device *dev);
void worker_fork_release(struct gtsim_device *dev);
void worker_stop(struct gtsim_device *dev);
void worker_wake(struct gtsim_device *dev);
/* Hang handling for one engine (reset.c). Called by the worker, no lock. */
void engine_hang(struct rq_engine *e, const char *why);
/* Hangcheck's reset: only if the engine still shows the ACTHD and seqno
 * hangcheck sampled (reset.c). */
struct hang_sample {
	uint64_t acthd;
	uint32_t seqno;
	uint64_t arb;        /* engine_progress_marks() */
	bool moving;         /* ACTHD moved: only seqno and arb points count */
	uint64_t only_emission; /* not 0: reset only while this emission (rq->emission) executes */
	bool capture;        /* with only_emission: a hang all the same (error state) */
	/* A preempt timeout: none when the engine has stopped at the
	 * arbitration point meanwhile (preempt.c; the worker learns it from
	 * the engine's callback, which may come after it looked). */
	bool unless_preempted;
};
void engine_hang_if_unchanged(struct rq_engine *e, const char *why,
			      const struct hang_sample *seen);
/* intel_gt_handle_error (i915_wedged writes, DROP_RESET_ACTIVE): each
 * engine of engine_mask (bit = enum gt_engine_id) that has a request
 * executing is reset as after a hang, its request guilty. With resets
 * enabled the device is then unwedged; with i915.reset=0 it is wedged.
 * No lock held. */
void gt_handle_error(struct gtsim_device *dev, uint64_t engine_mask, const char *why);
/* Wait up to timeout_ns (-1: forever) for every engine to go idle, then
 * retire; true when idle. No lock held. */
bool requests_wait_idle(struct gtsim_device *dev, int64_t timeout_ns);
/* Capture an error state for the hung engine (error_state.c). Engine lock
 * and dev->lock held. Returns the text (malloc'ed). */
char *error_state_capture(struct rq_engine *e, struct gem_request *guilty, const char *why);
/* Store the text as the device's last error state and write it to
 * $GTSIM_ERROR_STATE or $TMPDIR/gtsim-error-<pid> ($TMPDIR unset: /tmp).
 * Takes ownership. Bounded so that hanging clients cannot fill the disk:
 * a state longer than ERROR_STATE_MAX_BYTES is cut at a line
 * (error_state_bound), and before a gtsim-error-<pid> file is written the oldest such files beyond
 * the newest ERROR_STATE_MAX_FILES - 1 are removed (error_state_prune). */
void error_state_store(struct gtsim_device *dev, char *text);
#define ERROR_STATE_MAX_BYTES (8u << 20)
#define ERROR_STATE_MAX_FILES 16
/* Cuts text (in place) to at most cap bytes at a line end, with a line
 * saying so; returns its length. */
size_t error_state_bound(char *text, size_t cap);
/* Removes the oldest (by mtime) files named gtsim-error-* in dir until at
 * most keep remain; returns how many it removed. */
unsigned error_state_prune(const char *dir, unsigned keep);
/* gtsim_error_state() (gtsim/gtsim.h) gives a copy of the last one. */

#include "kernel/device.h"
static inline struct gem_requests *dev_requests(struct gtsim_device *dev)
{
	return dev->requests;
}

/* i915's RING_FORCE_TO_NONPRIV whitelist, written at engine setup
 * (whitelist.c). */
void engine_apply_whitelist(struct rq_engine *e);

#endif
