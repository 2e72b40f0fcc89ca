/* EU programs compiled to host code (docs/eu-jit.md).
 *
 * One compiled function per program (its instructions' bytes, so per
 * kernel and dispatch width), kept for the life of the process in a cache
 * keyed by those bytes: every exec_prog built from the same instructions
 * shares it. A program runs in the interpreter until it has run
 * `threshold` times (GTSIM_JIT) or, by default, interpreted as many
 * instructions as a compile costs, then in its compiled form (a thread
 * already running moves over at its next abort poll).
 *
 * The compiled function covers the common ALU shapes (the ones exec_fast.c
 * specialises) and hands every other instruction to the interpreter's
 * step (exec_step), so it computes exactly what the interpreter does: it
 * is the interpreter with those instructions inlined, their checks
 * (budget, channels rejoining, float mode) kept per instruction.
 *
 * GTSIM_JIT: unset = tiered (compile after the default count below),
 * 0 = off, N = after N runs, "always" = at the first run, "check" = at
 * the first run and every compiled stretch is replayed in the interpreter
 * and compared bit for bit (registers, flags, accumulators, channel state,
 * counters); a difference aborts the process with both states named. */
#ifndef GTSIM_EU_JIT_H
#define GTSIM_EU_JIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu/eu/exec_internal.h"

/* Default tiering: compile after max(64, 2M / instructions of the
 * program) runs, i.e. once the program has (roughly) interpreted as many
 * instructions as a compile costs: about 35 ms of CPU for 20 instructions
 * (bench_eu), some 2 million interpreted instructions. */
#define EXEC_JIT_DEFAULT_RUNS 64
#define EXEC_JIT_DEFAULT_WORK 2000000u

enum exec_jit_mode { EXEC_JIT_OFF, EXEC_JIT_TIERED, EXEC_JIT_CHECK };

/* The compiled form of a program: runs thread t from t->ip while compiled
 * instructions follow; with `stretch` nonzero it stops at the first
 * instruction it would hand to the interpreter (check mode), otherwise it
 * steps those itself and returns only when the thread stops running. */
typedef void (*exec_jit_fn)(struct eu_thread *t, const struct exec_prog *p,
			    uint64_t stop, uint32_t stretch);

/* The cache entry of the program made of these instructions (NULL when
 * the JIT is off or unavailable). Called by exec_prog_build. */
struct exec_jit_entry *exec_jit_entry(int gen, const struct eu_inst *insts,
				      const uint32_t *offsets, size_t count);
/* Run t in compiled code if its program is compiled (or due to be): from
 * t->ip, leaving t->ip where the interpreter continues. */
void exec_jit_run(struct eu_thread *t, const struct exec_prog *p,
		  uint64_t stop);

/* The interpreter ran n more instructions of p (a stretch between two
 * looks at the abort flag); true when p is compiled now, so the thread
 * goes on in compiled code from where it is (exec_run). In the default
 * tiering this work counts toward the compile: a program is due after
 * max(64, 2M / length) runs or 2M interpreted instructions, whichever
 * comes first. */
bool exec_jit_interpreted(const struct exec_prog *p, uint64_t n);

/* Settings, for tests and benchmarks (the environment sets them first):
 * mode and the number of runs before compiling (0: at once). */
void exec_jit_configure(enum exec_jit_mode mode, unsigned threshold);
/* Tiered, compiled after `runs` runs or `work` interpreted instructions
 * (the default's rule with other figures). */
void exec_jit_configure_work(unsigned runs, uint64_t work);
/* Check mode's deliberate fault injection: when set, the compiler emits a
 * wrong result for integer and float add (one more / next float), so a
 * test can see the comparison catch it. */
void exec_jit_set_corrupt(bool on);
/* Figures: programs compiled, their instructions, of which compiled
 * inline, and the time spent compiling: wall and CPU nanoseconds (the
 * first compile of a process includes setting LLVM up). */
struct exec_jit_stats {
	uint64_t programs, instructions, inlined;
	uint64_t compile_ns, compile_cpu_ns;
};
void exec_jit_stats(struct exec_jit_stats *out);
/* Whether this build has a code generator and it works here: LLVM's
 * library loads (jit_llvm_api.h; asking loads it, so the cache never asks
 * before its first compile). For tests and benchmarks. */
bool exec_jit_available(void);

/* Private to jit/: the code generator (jit_llvm.c, or jit_none.c without
 * LLVM) compiles program p; NULL when it cannot. *inlined: how many
 * instructions it compiled inline; *no_generator: NULL because there is
 * no code generator at all (no LLVM in the build or on the host). */
exec_jit_fn exec_jit_compile(const struct exec_prog *p, bool corrupt,
			     size_t *inlined, bool *no_generator);
/* The comparison of check mode (jit_check.c), also used by the eu_jit
 * fuzz target on whole runs: NULL when threads a (compiled) and b
 * (interpreted) are equal in everything check mode compares (registers,
 * wide accumulators, channel state, ip, state and fault text, counters),
 * else what differs, with *at the byte of regs[] for a register (-1
 * otherwise). print_difference writes that as one line's start. */
const char *exec_jit_difference(const struct eu_thread *a, const struct eu_thread *b,
				long *at);
void exec_jit_print_difference(FILE *f, const struct eu_thread *a,
			       const struct eu_thread *b, const char *what, long at);
/* jit_check.c: check mode's run (compare each compiled stretch). */
void exec_jit_run_checked(struct eu_thread *t, const struct exec_prog *p,
			  exec_jit_fn fn, uint64_t stop);
/* jit_step.c: what the compiled code calls for an instruction it leaves
 * to the interpreter; returns the next index, or EXEC_JIT_EXIT after
 * setting t->ip when the compiled function must return. */
#define EXEC_JIT_EXIT UINT32_MAX
uint32_t exec_jit_step(struct eu_thread *t, const struct exec_prog *p,
		       uint32_t ip, uint64_t stop, uint32_t stretch);

#endif
