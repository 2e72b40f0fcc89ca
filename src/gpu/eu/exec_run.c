/* Program translation and the interpreter loop. */
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "gpu/eu/exec_internal.h"
#include "gpu/eu/isa.h"
#include "gpu/eu/jit/jit.h"

#define DEFAULT_BUDGET 100000000ull

/* The abort flag of the command streamer running on this host thread
 * (exec.h): per host thread, as each engine runs its commands on its own. */
static _Thread_local const uint32_t *abort_flag __attribute__((tls_model("initial-exec")));
static _Thread_local uint64_t *ended_count __attribute__((tls_model("initial-exec")));
void exec_watch_abort(const uint32_t *flag, uint64_t *ended)
{
	abort_flag = flag;
	ended_count = ended;
}

void exec_watched_abort(const uint32_t **flag, uint64_t **ended)
{
	*flag = abort_flag;
	*ended = ended_count;
}

bool exec_abort_requested(void)
{
	const uint32_t *f = abort_flag;
	return f && __atomic_load_n(f, __ATOMIC_RELAXED);
}

static void stop_for_abort(struct eu_thread *t)
{
	eu_thread_fault(t, "stopped by an engine reset after %llu instructions",
			(unsigned long long)t->instructions);
}

struct exec_prog *exec_prog_build(int gen, const struct eu_inst *insts,
				  const uint32_t *offsets, size_t count)
{
	trace_init_from_env();
	struct exec_prog *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->gen = gen;
	p->count = count;
	p->ops = calloc(count ? count : 1, sizeof(*p->ops));
	p->offsets = calloc(count ? count : 1, sizeof(*p->offsets));
	if (!p->ops || !p->offsets) {
		exec_prog_free(p);
		return NULL;
	}
	for (size_t i = 0; i < count; i++)
		p->offsets[i] = offsets ? offsets[i] : (uint32_t)(i * 16);
	p->end_offset = count ? p->offsets[count - 1] +
		(insts[count - 1].compacted ? 8 : 16) : 0;
	for (size_t i = 0; i < count; i++)
		exec_translate(gen, p, i, &insts[i]);
	p->jit = exec_jit_entry(gen, insts, p->offsets, count);
	return p;
}

void exec_prog_free(struct exec_prog *p)
{
	if (!p)
		return;
	free(p->ops);
	free(p->offsets);
	free(p);
}

size_t exec_prog_count(const struct exec_prog *p)
{
	return p ? p->count : 0;
}

/* One turn of the interpreter loop at *ipp: the checks that stop the
 * thread (end of program, budget), channels rejoining, the instruction
 * itself, and the jump of a write to ip. Leaves the next index in *ipp;
 * anything that ends the run changes t->state. */
static inline void step(struct eu_thread *t, const struct exec_prog *p,
			uint32_t *ipp, uint64_t stop, bool tracing)
{
	uint32_t ip = *ipp;
	if (ip >= p->count) {
		eu_thread_fault(t, "instruction pointer 0x%x past the end of the "
				"program (0x%x)", ip < p->count ? p->offsets[ip]
				: p->end_offset, p->end_offset);
		return;
	}
	if (t->instructions >= stop) {
		t->state = EU_THREAD_LIMIT;
		TRACE(TRACE_EU, "thread stopped after the budget of instructions");
		return;
	}
	if (ip == t->wake_at)
		exec_wake(t, ip);
	t->ip = ip;
	const struct exec_op *op = &p->ops[ip];
	uint32_t en = op->no_mask ? op->full
				  : ((t->active & t->live) >> op->group) & op->full;
	if (op->run & EXEC_RUN_PRED)
		en &= exec_pred_mask(t, op);
	uint32_t next = op->fn(t, op, en);
	t->instructions++;
	if (__builtin_expect(tracing, 0) && t->state != EU_THREAD_FAULT)
		exec_trace_op(t, op, en);
	if ((op->run & EXEC_RUN_IP) && t->state == EU_THREAD_READY) {
		uint32_t to;
		memcpy(&to, eu_arf(t, EU_ARF_IP), 4);
		long idx = exec_index_of(p, to);
		if (idx < 0) {
			eu_thread_fault(t, "ip 0x%x: write of 0x%x to ip is not an "
					"instruction address", op->offset, to);
			return;
		}
		next = (uint32_t)idx;
	}
	*ipp = next;
}

void exec_step(struct eu_thread *t, const struct exec_prog *p, uint32_t *ip,
	       uint64_t stop)
{
	step(t, p, ip, stop, false);
}

enum eu_thread_state exec_run(struct eu_thread *t, const struct exec_prog *p,
			      uint64_t max_instructions)
{
	uint64_t budget = max_instructions ? max_instructions : DEFAULT_BUDGET;
	uint64_t stop = t->instructions + budget;
	uint32_t ip = t->ip;
	bool tracing = trace_on(TRACE_EU);
	if (t->state != EU_THREAD_READY)
		return t->state;
	if (exec_abort_requested()) {
		stop_for_abort(t);
		return t->state;
	}
	exec_fp_enter(t);
	/* compiled code (jit/jit.h) runs while it can, in stretches of
	 * EXEC_ABORT_POLL * 16 instructions between two looks at the abort
	 * flag; it leaves the thread where the interpreter goes on (traces
	 * need the interpreter) */
	bool to_jit = p->jit && !tracing;
	while (to_jit) {
		while (t->state == EU_THREAD_READY) {
			uint64_t poll = t->instructions + EXEC_ABORT_POLL * 16ull;
			uint64_t at = t->instructions;
			exec_jit_run(t, p, poll < stop ? poll : stop);
			ip = t->ip;
			if (t->instructions == at)
				break;   /* not compiled (yet): the interpreter runs it */
			if (t->state == EU_THREAD_LIMIT && t->instructions < stop)
				t->state = EU_THREAD_READY;   /* only its stretch is over */
			if (t->state == EU_THREAD_READY && exec_abort_requested())
				stop_for_abort(t);
		}
		/* the interpreter's stretches count toward the compile; once
		 * compiled, the thread goes back to compiled code */
		to_jit = false;
		while (t->state == EU_THREAD_READY && !to_jit) {
			uint64_t at = t->instructions, poll = at + EXEC_ABORT_POLL;
			while (t->state == EU_THREAD_READY && t->instructions < poll)
				step(t, p, &ip, stop, tracing);
			if (t->state == EU_THREAD_READY && exec_abort_requested())
				stop_for_abort(t);
			if (t->state == EU_THREAD_READY && exec_jit_interpreted(p, t->instructions - at))
				to_jit = true;
		}
		t->ip = ip;
	}
	while (t->state == EU_THREAD_READY) {
		uint64_t poll = t->instructions + EXEC_ABORT_POLL;
		while (t->state == EU_THREAD_READY && t->instructions < poll)
			step(t, p, &ip, stop, tracing);
		if (t->state == EU_THREAD_READY && exec_abort_requested())
			stop_for_abort(t);
	}
	t->ip = ip;
	exec_fp_leave(t);
	/* each end at once: adding them in batches of 32 at the host thread's
	 * next polls was measured 10-20% slower per pixel on this host
	 * (docs/speed.md, 29 Nov, branch h-pix3) */
	if (t->state == EU_THREAD_DONE && ended_count)
		__atomic_add_fetch(ended_count, 1, __ATOMIC_RELAXED);
	return t->state;
}

struct exec_prog *exec_prog_from_bytes(int gen, const void *bytes, size_t len,
				       size_t *bad_offset)
{
	struct eu_program dp;
	memset(&dp, 0, sizeof(dp));
	if (eu_program_decode(gen, bytes, len, &dp, bad_offset)) {
		eu_program_free(&dp);
		return NULL;
	}
	struct exec_prog *p = exec_prog_build(gen, dp.insts, dp.offsets, dp.count);
	if (p)
		p->end_offset = (uint32_t)dp.size;
	eu_program_free(&dp);
	return p;
}
