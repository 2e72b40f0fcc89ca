/* The EU executor: runs a decoded program on one hardware thread.
 *
 * A program is translated once (exec_prog_build) from an array of
 * struct eu_inst into exec_op records: every operand region becomes a list
 * of byte offsets into the thread's register array, every branch target an
 * instruction index, and every instruction gets the handler that executes
 * it (a specialised fast path where the operand shapes allow one). The
 * interpreter loop (exec_run) then only computes channel masks and calls
 * handlers; a later JIT can replace handlers op by op.
 *
 * Anything the hardware treats as an illegal instruction (undefined opcode,
 * illegal region, register access past the register file, branch into the
 * middle of nowhere) is found either here or at run time and becomes a
 * thread fault (EU_THREAD_FAULT with a message and an "eu" trace line),
 * never a host crash. */
#ifndef GTSIM_EU_EXEC_H
#define GTSIM_EU_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/eu/inst.h"
#include "gpu/eu/thread.h"

struct exec_prog;

/* Translate `count` decoded instructions; offsets[i] is the byte offset of
 * instruction i in the program (NULL: consecutive 16-byte instructions).
 * gen is 8 or 9. Never fails for bad instructions: those become ops that
 * fault when reached. Returns NULL only when out of memory. */
struct exec_prog *exec_prog_build(int gen, const struct eu_inst *insts,
				  const uint32_t *offsets, size_t count);
/* Decode raw instruction bytes (isa.h) and translate. NULL with *bad_offset
 * set when the bytes don't decode. */
struct exec_prog *exec_prog_from_bytes(int gen, const void *bytes, size_t len,
				       size_t *bad_offset);
void exec_prog_free(struct exec_prog *p);
size_t exec_prog_count(const struct exec_prog *p);

/* Run thread t from instruction index `start` (0 for a fresh dispatch)
 * until EOT, a fault, or `max_instructions` executed (0: no limit... a
 * default of 100 million). Returns the thread's final state. */
enum eu_thread_state exec_run(struct eu_thread *t, const struct exec_prog *p,
			      uint64_t max_instructions);

/* A reset reaches into a running command: the command streamer that runs
 * EU threads on this host thread names its abort flag (nonzero: a reset
 * or shutdown was requested; read atomically), and exec_run checks it
 * when a thread starts and every EXEC_ABORT_POLL instructions: once set,
 * the thread faults ("stopped by an engine reset") and the command that
 * dispatched it unwinds as from any thread fault. NULL: nothing watched. */
#define EXEC_ABORT_POLL 4096u
/* ended: a counter (atomic) bumped for every thread that ends (EOT), the
 * engine's progress for hangcheck: a long command whose threads keep
 * ending is not a hang (threads are where Gen8/9 preempt a draw), a
 * looping thread is. NULL: not counted. Each end is added when its thread
 * ends. */
void exec_watch_abort(const uint32_t *flag, uint64_t *ended);
/* Is the flag this host thread watches set? A command that loops without
 * EU threads (a draw of millions of vertices and no VS) polls it too. */
bool exec_abort_requested(void);
/* Host threads compiling an EU program to host code now (jit/, any
 * engine's): host work, not the GPU's, so the kernel's hangcheck counts
 * none of that time as an engine making no progress (a compile of a large
 * kernel can take seconds on a loaded host). */
unsigned exec_jit_compiling(void);
/* What exec_watch_abort last named on this host thread (for the host
 * threads a command hands its EU threads to: they watch the same). */
void exec_watched_abort(const uint32_t **flag, uint64_t **ended);

#endif
