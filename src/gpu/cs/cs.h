/* Internals of a command streamer (not a contract: the kernel model uses
 * engine.h). One struct gt_engine per engine; its mutex guards every field
 * below. The executing thread (the engine's own thread, or in sync mode the
 * thread that wrote RING_TAIL) holds the lock while it runs one command and
 * drops it between commands and while it waits (MI_SEMAPHORE_WAIT). */
#ifndef GTSIM_CS_CS_H
#define GTSIM_CS_CS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "gpu/cmd/cmd.h"
#include "gpu/cs/engine.h"
#include "gpu/cs/regs.h"

/* posted_tail holds a TAIL value (bits 20:3) with this bit set. */
#define CS_TAIL_POSTED (1u << 31)

/* Longest command the fetcher accepts: a 16-bit DWord Length plus bias. */
#define CS_MAX_CMD_DWORDS (0xffff + 2)

/* Dwords of the ring the fetcher reads at once. */
#define CS_RING_PREFETCH 64

/* Batch nesting: the ring (level 0), first-level and second-level batches. */
enum cs_level { CS_RING, CS_BATCH1, CS_BATCH2 };

struct cs_state;
/* A logical context's saved state, keyed by its GGTT address. */
struct cs_context_image {
	uint32_t key;
	struct cs_state *state;
};

struct cs_batch {
	uint64_t start;     /* address the MI_BATCH_BUFFER_START named */
	uint64_t addr;      /* address of the next command (ACTHD) */
	bool ppgtt;         /* Address Space Indicator: PPGTT */
	bool privileged;    /* commands marked privileged may run */
};

/* Result of executing one command. */
enum cs_result {
	CS_NEXT,        /* go on with the following command */
	CS_JUMPED,      /* the command moved HEAD/ACTHD itself */
	CS_ABORTED,     /* a reset or shutdown interrupted the command */
	CS_FAULT,       /* cs_fault() was called; the engine stops */
};

struct gt_engine;
/* Code that executes one command (dw holds its len dwords). */
typedef enum cs_result (*cs_handler)(struct gt_engine *e, const struct cmd_desc *d,
				     const uint32_t *dw, uint32_t len);

/* RING_FORCE_TO_NONPRIV (REG_RING_FORCE_TO_NONPRIV): twelve slots (i915's
 * RING_MAX_NONPRIV_SLOTS), each the offset of one register, bits 25:2. */
#define CS_NONPRIV_SLOTS 12
#define CS_NONPRIV_ADDRESS_MASK 0x03fffffcu

struct gt_engine {
	struct gt_gpu *gpu;
	enum gt_engine_id id;
	uint32_t base;               /* MMIO base */
	const char *name;
	/* What executes each command (enum cmd_id -> cs_handler, NULL: not
	 * implemented); gpu.c wires it from src/gpu/engine_handlers.c. */
	const cs_handler *handlers;

	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;         /* work, reset or shutdown for the thread */
	pthread_cond_t idle;         /* runner left (idle, stopped or reset), or the last callback returned */
	bool quit;
	int waiters;                 /* threads waiting for the lock (atomic) */
	/* Async TAIL writes without the lock (engine.c): the newest value
	 * with CS_TAIL_POSTED set, taken over by the next lock holder; and
	 * whether the engine thread sleeps on wake (then the writer signals
	 * it). Both atomic. */
	uint32_t posted_tail;
	int sleeping;
	bool running;                /* a thread is inside cs_run() */
	bool reset_req;
	/* A reset or shutdown asks the running command to stop now (atomic,
	 * set before the lock is taken, cleared by engine_reset): EU threads
	 * poll it (exec_watch_abort), the command unwinds as from a thread
	 * fault and cs_run leaves without a fault. */
	uint32_t abort;
	/* ACTHD | 1 while a command executes, else 0 (atomic): ACTHD reads
	 * (hangcheck) do not wait for a long command to end. */
	uint64_t busy_acthd;
	/* RING_HEAD as read at the start of that command (atomic; valid
	 * while busy_acthd is set): the kernel's ring-space checks do not
	 * wait for it either */
	uint32_t busy_head;
	bool stopped;                /* on a fault, until engine_reset() */
	bool stop_ring;              /* MI_MODE Stop Ring: no command runs */
	bool instpm_disables;        /* an INSTPM instruction disable is set */
	char fault_reason[256];

	struct engine_callbacks cb;
	/* Callbacks running now (cs_callback_begin/end), which
	 * engine_set_callbacks waits for. */
	unsigned cb_running;

	/* Ring registers. head/tail are byte offsets into the ring. */
	uint32_t ring_start, ring_ctl, head, tail, head_wraps, hws_pga;
	uint64_t pdp[4];
	/* Gen9 RING_FORCE_TO_NONPRIV slots: registers the kernel lets
	 * non-privileged batches write (engine state, not context state) */
	uint32_t force_nonpriv[CS_NONPRIV_SLOTS];

	/* Batch state: level 0 is the ring, bb[1] and bb[2] the batches. */
	enum cs_level level;
	struct cs_batch bb[3];

	/* Ring dwords read ahead (run.c): rbuf_len dwords from ring byte
	 * offset rbuf_off, read while they lay between HEAD and TAIL (which
	 * the kernel does not rewrite, except while resetting the engine),
	 * in HEAD's lap rbuf_wraps. */
	uint32_t rbuf[CS_RING_PREFETCH];
	uint32_t rbuf_off, rbuf_len, rbuf_wraps;

	/* The command being executed. */
	uint64_t cmd_addr;           /* its address (ACTHD) */
	uint32_t cmd_len;            /* its length in dwords */
	uint32_t next_head;          /* HEAD after it, when it is in the ring */
	uint32_t *cmd;               /* CS_MAX_CMD_DWORDS dwords */

	struct cs_regs regs;         /* everything else, see regs.h */
	uint64_t timestamp_t0_ns;
	/* RING_CTX_TIMESTAMP (ctx_timestamp.c): the value last loaded, the
	 * host time the engine has executed since (ns), and since when it
	 * executes now (0: idle, stopped or preempted), when the ring last
	 * ran empty. */
	uint32_t ctx_ts_loaded;
	uint64_t ctx_run_ns;
	uint64_t ctx_run_since_ns;
	uint64_t ctx_empty_ns;
	uint64_t commands;           /* executed, for tests and benches */
	/* The blitter's clip rectangle (BR24/BR25, set by XY_SETUP_CLIP_BLT;
	 * src/gpu/blt/blt_setup_clip.c): X1/Y1 and X2/Y2 as the command's
	 * dwords 1 and 2 hold them. */
	uint32_t blt_clip_top_left, blt_clip_bottom_right;
	/* The blitter's setup state (BR01, BR05-BR07, BR09..., as the last
	 * XY_SETUP_BLT or XY_SETUP_MONO_PATTERN_SL_BLT loaded them; blt_setup.c):
	 * that command's id (0: none since the engine was created) and dwords,
	 * which XY_SCANLINES_BLT and XY_PIXEL_BLT unpack. */
	uint32_t blt_setup_id;
	uint32_t blt_setup[10];
	/* MI_SEMAPHORE_SIGNALs received from any engine (atomic) and the
	 * Target Context ID of the last (mi_flow.c). */
	uint32_t semaphore_signals;
	uint32_t semaphore_signal_ctx;
	/* Preemption (mi_arb.c): the kernel's request (atomic), MI_ARB_ON_OFF's
	 * state (arbitration enabled), and where the engine stopped for it
	 * (until engine_reset). */
	uint32_t preempt_req;
	bool arb_disabled;
	bool preempted;
	struct engine_preempt_point preempt_pt;
	uint64_t arb_checks;         /* MI_ARB_CHECKs executed and EU threads ended
				      * (atomic): arbitration points */
	uint64_t arb_passes_off;     /* MI_ARB_CHECKs executed with arbitration off
				      * (atomic): progress for the hangcheck only */
	int host_tid;                /* the engine thread's Linux thread id (atomic;
				      * 0 until it runs): engine_host_times() */
	int run_tid;                 /* the thread running the ring now (atomic; 0:
				      * none): a client's in sync mode */

	/* 3D/media state recorded for the pipeline (see state.h): the
	 * current logical context's. */
	struct cs_state *state;
	/* Logical contexts (MI_SET_CONTEXT, mi_context.c): the current one
	 * (ctx_valid: one was set) and the saved images of the others. */
	bool ctx_valid;
	uint32_t ctx_key;
	struct cs_context_image *images;
	uint32_t num_images, cap_images;
};

uint32_t cs_ring_size(const struct gt_engine *e);
/* Current command address: in the batch, or RING_START + HEAD. */
uint64_t cs_acthd(const struct gt_engine *e);

/* Register access at an absolute MMIO offset, with the lock held: ring
 * registers, TIMESTAMP, the engine's register file, or the GPU's global
 * registers for offsets outside the engine's ranges. */
uint32_t cs_reg_read(struct gt_engine *e, uint32_t reg);
void cs_reg_write(struct gt_engine *e, uint32_t reg, uint32_t val);
uint64_t cs_reg_read64(struct gt_engine *e, uint32_t reg);
void cs_reg_write64(struct gt_engine *e, uint32_t reg, uint64_t val);
/* True when reg is one of the description's registers (reg_known.c). */
bool cs_reg_known(const struct gt_engine *e, uint32_t reg);
/* True when a command may read reg (MI_STORE_REGISTER_MEM, the source of
 * MI_LOAD_REGISTER_REG): a known register, or another engine's TIMESTAMP.
 * Any other read is a fault naming the register, never a stored or zero
 * value the model does not compute. */
bool cs_reg_readable(const struct gt_engine *e, uint32_t reg);
/* True when reg is a masked register of the description (bit n+16 of a
 * write enables the write of bit n). */
bool cs_reg_masked(const struct gt_engine *e, uint32_t reg);
/* True when a non-privileged batch may not write reg (seed 004). */
bool cs_reg_is_privileged(const struct gt_engine *e, uint32_t reg);

/* Address spaces the engine reads and writes through. */
struct gt_vm cs_ggtt(const struct gt_engine *e);
struct gt_vm cs_ppgtt(const struct gt_engine *e);
/* The address space a command's memory access uses: GGTT when ggtt is set
 * (Use Global GTT), else the PPGTT (or the GGTT when no PPGTT is loaded). */
struct gt_vm cs_vm_for(const struct gt_engine *e, bool ggtt);

/* Stop the engine on a GPU fault (trace cs, callback later). Returns
 * CS_FAULT so handlers can `return cs_fault(...)`. */
enum cs_result cs_fault(struct gt_engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* With e->lock held: apply a TAIL written without the lock (engine.c),
 * so that the register state is the newest. */
void cs_take_posted_tail(struct gt_engine *e);

/* Forget the ring read ahead (HEAD, ring or engine reset). */
static inline void cs_ring_prefetch_drop(struct gt_engine *e)
{
	e->rbuf_len = 0;
}

/* The engine stopped at an arbitration point for a preemption: tell the
 * kernel (its callback), lock dropped meanwhile (mi_arb.c). */
void cs_notify_preempted(struct gt_engine *e);

/* A callback runs with e->lock dropped (the kernel's locks come before
 * the engine's): cs_callback_begin, lock held, returns the callbacks
 * set now and drops the lock; cs_callback_end takes it again. Until
 * then the callback counts as running, and engine_set_callbacks waits
 * for it, so that the kernel can free what the callback uses once
 * engine_set_callbacks(NULL) returned (engine.c). */
struct engine_callbacks cs_callback_begin(struct gt_engine *e);
void cs_callback_end(struct gt_engine *e);

/* Run commands until idle, stopped, reset or quit. Called with e->lock
 * held and e->running set by the caller. */
void cs_run(struct gt_engine *e);

/* Commands from the current position, after fetch: execute one. */
enum cs_result cs_execute(struct gt_engine *e, const struct cmd_desc *desc,
			  const uint32_t *dw, uint32_t len);

/* Fault on a command (or, with what, one of its modes: "with LRI post-sync")
 * that gtsim does not implement: the reason names it, its header, address
 * and first dwords, and says "not implemented in gtsim". Returns CS_FAULT. */
enum cs_result cs_not_implemented(struct gt_engine *e, const struct cmd_desc *d,
				  const uint32_t *dw, uint32_t len, const char *what);

/* True when the current batch may execute privileged commands. */
/* RING_HEAD's value: the head offset and its wrap count (engine lock). */
static inline uint32_t cs_ring_head_reg(const struct gt_engine *e)
{
	return e->head | e->head_wraps << REG_RING_HEAD_WRAP_COUNT_SHIFT;
}

static inline bool cs_privileged(const struct gt_engine *e)
{
	return e->level == CS_RING || e->bb[e->level].privileged;
}

/* Batch control flow (batch.c). */
enum cs_result cs_batch_start(struct gt_engine *e, const struct cmd_desc *d,
			      const uint32_t *dw, uint32_t len);
enum cs_result cs_batch_end(struct gt_engine *e);
/* Logical contexts (mi_context.c), with the lock held: drop the image at
 * addr; free every image (engine destruction). */
void cs_context_forget(struct gt_engine *e, uint32_t addr);
void cs_context_images_free(struct gt_engine *e);
/* Host monotonic time in ns. */
uint64_t cs_now_ns(void);
/* ns of host time in the GPU's TIMESTAMP ticks (its CS timestamp
 * frequency, devinfo timestamp_hz). */
uint64_t cs_ticks(const struct gt_engine *e, uint64_t ns);
/* RING_CTX_TIMESTAMP (ctx_timestamp.c), lock held: the engine starts
 * executing commands (cs_run), ran its ring empty, or stops (idle, fault,
 * preemption, reset; idle: the count ends where the ring ran empty);
 * the register's value; a load (LRI/LRM, the context restore). */
void cs_ctx_time_run(struct gt_engine *e);
void cs_ctx_time_ring_empty(struct gt_engine *e);
void cs_ctx_time_stop(struct gt_engine *e);
uint32_t cs_ctx_timestamp(const struct gt_engine *e);
void cs_ctx_timestamp_load(struct gt_engine *e, uint32_t val);
/* Wait a little with the lock dropped (polling commands). Returns false
 * when a reset or shutdown asks the command to stop. */
bool cs_poll_pause(struct gt_engine *e);

#endif
