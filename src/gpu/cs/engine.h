/* An engine: a command streamer with its ring buffer, run by one host thread
 * (seed 004). The kernel model drives it only through MMIO registers, as
 * i915 drives the hardware in ring-buffer submission mode:
 *   RING_START (GGTT address of the ring), RING_CTL (size, enable),
 *   RING_HEAD, RING_TAIL, ACTHD, HWS_PGA (GGTT address of the hardware
 *   status page), RING_PDP0..3 (PPGTT root), TIMESTAMP, ...
 * Writing RING_TAIL makes the engine fetch and execute from HEAD to TAIL:
 * on its own thread, or before the write returns when the GPU is in sync
 * mode. */
#ifndef GTSIM_CS_ENGINE_H
#define GTSIM_CS_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/cmd/cmd_structs.h"
#include "gpu/gpu.h"

/* Register offsets relative to an engine's MMIO base: the description's
 * (src/gpu/cmd/desc/gen8.cmds, REG_* in the generated cmd_structs.h). */
#define RING_TAIL      REG_RING_TAIL
#define RING_HEAD      REG_RING_HEAD
#define RING_START     REG_RING_START
#define RING_CTL       REG_RING_CTL
#define RING_ACTHD_UDW REG_RING_ACTHD_UDW
#define RING_ACTHD     REG_RING_ACTHD
#define RING_HWS_PGA   REG_RING_HWS_PGA
#define RING_BBADDR    REG_RING_BBADDR
#define RING_BBADDR_UDW REG_RING_BBADDR_UDW
#define RING_TIMESTAMP REG_RING_TIMESTAMP
#define RING_TIMESTAMP_UDW (REG_RING_TIMESTAMP + 4)
#define RING_PDP_LDW(n) (REG_RING_PDP0 + (n) * 8)
#define RING_PDP_UDW(n) (REG_RING_PDP0 + 4 + (n) * 8)
/* Their bit fields: the description's too (cmd_RING_CTL_unpack(),
 * REG_RING_CTL_RING_BUFFER_ENABLE_MASK...). */

struct engine_callbacks {
	/* MI_USER_INTERRUPT executed (on the engine's thread). */
	void (*user_interrupt)(void *data, struct gt_engine *e);
	/* The engine stopped on a fault it cannot get past (unknown command,
	 * page fault, illegal EU instruction...). It stays stopped until
	 * engine_reset(). reason is a one-line description. */
	void (*fault)(void *data, struct gt_engine *e, const char *reason);
	void *data;
	/* The engine stopped at an arbitration point because a preemption
	 * was requested (engine_request_preemption); it stays stopped until
	 * engine_reset(). Optional. */
	void (*preempted)(void *data, struct gt_engine *e);
};

/* Preemption, as execlists submission drives it (a new ELSP write while
 * a context runs): with the request set, the engine stops at its next
 * arbitration point, an MI_ARB_CHECK executed while arbitration is
 * enabled (MI_ARB_ON_OFF; enabled after a reset), in the ring or in a
 * first-level batch (a second-level batch is not preempted: the model
 * keeps no return address across a reset). The point is where execution
 * resumes: the command after the MI_ARB_CHECK, in the ring (head) or in
 * the batch (batch_addr, its address space). */
struct engine_preempt_point {
	bool in_batch;
	bool ppgtt;
	uint64_t batch_addr;
	uint32_t head;
};
void engine_request_preemption(struct gt_engine *e, bool on);
/* True (and the point) when stopped for a preemption. */
bool engine_preempted(struct gt_engine *e, struct engine_preempt_point *pt);

/* engine_name(), engine_mmio_base(), engine_of_reg(): common/devinfo.h */
/* handlers: the engine's command handler table (CMD_ID_COUNT entries of
 * cs_handler indexed by enum cmd_id; src/gpu/engine_handlers.c). */
struct gt_engine *engine_create(struct gt_gpu *gpu, enum gt_engine_id id, const void *handlers);
void engine_destroy(struct gt_engine *e);
/* In a fork child, on the copy of an idle engine: a new thread runs it.
 * -1 when the thread cannot be made (the engine then has none). */
int engine_fork_child(struct gt_engine *e);
enum gt_engine_id engine_id(const struct gt_engine *e);
/* cb NULL: none. Returns once no callback set before runs any more (they
 * run on the engine's thread with its lock dropped), so that what the old
 * ones use may be freed then. Not from a callback. */
void engine_set_callbacks(struct gt_engine *e, const struct engine_callbacks *cb);

/* reg is relative to the engine's MMIO base. */
uint32_t engine_mmio_read(struct gt_engine *e, uint32_t reg);
void engine_mmio_write(struct gt_engine *e, uint32_t reg, uint32_t val);

/* Full 64-bit ACTHD (batch or ring address of the current command). */
uint64_t engine_acthd(struct gt_engine *e);
/* RING_HEAD, without waiting for a command that runs long: then the head
 * at its start (behind the real one, so free ring space is never
 * overestimated). i915 reads RING_HEAD whatever the engine does. */
uint32_t engine_ring_head(struct gt_engine *e);
/* Execlists' context restore of the ring registers: when the engine is
 * idle (HEAD == TAIL, no command executing, not stopped), load RING_START,
 * RING_CTL, RING_HEAD and RING_TAIL at once (the values a context image
 * holds) and run from there; false, nothing changed, when not idle. */
bool engine_load_ring(struct gt_engine *e, uint32_t start, uint32_t ctl, uint32_t head,
		      uint32_t tail);
/* True when HEAD == TAIL and no command is executing. */
bool engine_is_idle(struct gt_engine *e);
/* Stop whatever the engine does (a command running EU threads at once:
 * engine_abort_command; others at their end), leave any batch, set HEAD to restart_head and go on
 * fetching up to TAIL. Returns once the old work is abandoned. */
void engine_reset(struct gt_engine *e, uint32_t restart_head);
/* A full-GPU reset of an engine that did not hang: stop it as
 * engine_reset() does and, when it was executing the ring's commands in
 * [from, to) (a request's), restart at from so the request runs again from
 * its start (true; *started when it had gone past from); else restart
 * where it was (false). */
bool engine_reset_replay(struct gt_engine *e, uint32_t from, uint32_t to, bool *started);
/* The first half of a reset, for a caller that reads the hung engine's
 * registers before resetting it (an error state): the command executing
 * stops now (EU threads poll for it) instead of at its end, and nothing
 * runs until engine_reset(), which the caller must call next. */
void engine_abort_command(struct gt_engine *e);

/* Callbacks run on the thread that executes the engine (its own thread, or
 * in sync mode the thread that wrote RING_TAIL) with no engine lock held;
 * they must not call engine_reset() of their own engine.
 *
 * Additions for the kernel model and tests: */
/* True when stopped on a fault (until engine_reset()); the reason into
 * reason[size] when given. */
bool engine_is_stopped(struct gt_engine *e, char *reason, size_t size);
/* Wait until idle (true), stopped on a fault or without work it can do
 * (false), or timeout_ns passed (false). */
bool engine_wait_idle(struct gt_engine *e, uint64_t timeout_ns);
/* Hold the engine between two commands (no command runs, so nothing
 * touches memory) until engine_unpause(): for the kernel model moving an
 * object's pages (object_store.c). A command in progress ends first. */
void engine_pause(struct gt_engine *e);
void engine_unpause(struct gt_engine *e);
/* Number of commands executed so far. */
uint64_t engine_commands(struct gt_engine *e);
/* Number of arbitration points passed so far (MI_ARB_CHECKs executed, EU
 * threads ended: where a long draw or walker could be preempted); lock-free. */
uint64_t engine_arb_checks(struct gt_engine *e);
/* The hangcheck's progress marks: arbitration points and the MI_ARB_CHECKs
 * passed with arbitration off (an IGT spinner on BDW's render engine loops
 * through them: it runs, it is not hung); lock-free. */
uint64_t engine_progress_marks(struct gt_engine *e);
/* The engine's host thread as the host scheduler sees it: its time on a
 * host CPU, its time runnable but waiting for one (other host processes
 * had it: host load, no GPU time), and whether it is runnable now. False
 * when the host does not say. Hangcheck counts GPU time with them. */
struct engine_host_times {
	uint64_t on_cpu_ns, runq_ns;
	bool runnable;
};
bool engine_host_times(struct gt_engine *e, struct engine_host_times *t);
/* Whether a host thread is compiling an EU program to host code now
 * (exec_jit_compiling): host time, which hangcheck does not count. */
bool engine_host_compiling(void);
/* The 3D/media state recorded from state commands (cs/state.h); read it
 * from the engine's thread (command handlers). */
struct cs_state;
const struct cs_state *engine_state(struct gt_engine *e);

/* The render engine keeps each logical context's 3D/media state, keyed by
 * the Logical Context Address of MI_SET_CONTEXT (cs/mi_context.c); the
 * kernel calls this when it destroys the context that used addr. */
void engine_forget_context(struct gt_engine *e, uint32_t addr);

/* Error-state registers, relative to the engine's MMIO base (i915 names):
 * IPEIR 0x64, IPEHR 0x68 (header of the faulting command), INSTDONE 0x6c,
 * EIR 0xb0 (bit 0 set on a fault), BBADDR 0x140/0x168, BBSTATE 0x110,
 * plus ACTHD, HEAD, TAIL, CTL, START and HWS_PGA above. See cs/regs.h. */

#endif
