/* Check mode (GTSIM_JIT=check): every stretch of compiled code runs on a
 * copy of the thread, the interpreter runs the same number of
 * instructions on the thread itself, and the two must agree bit for bit:
 * registers (GRFs, ARFs: flags, accumulators' 32-bit views, a0, cr0...),
 * the accumulators' wide values, channel state, counters, state and
 * fault text. Messages and memory go through the interpreter's send in
 * both (the compiled code leaves sends to it), so equal registers before
 * a send mean equal messages. A difference aborts: it is a bug of the
 * compiler, never of the program. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu/eu/jit/jit.h"

#define SAME(f) (a->f == b->f)

const char *exec_jit_difference(const struct eu_thread *a, const struct eu_thread *b,
				long *at)
{
	*at = -1;
	for (long i = 0; i < EU_REGS_BYTES; i++)
		if (a->regs[i] != b->regs[i]) {
			*at = i;
			return "a register";
		}
	if (memcmp(a->acc_wide, b->acc_wide, sizeof(a->acc_wide)))
		return "the wide accumulator";
	if (!SAME(active) || !SAME(live) || !SAME(wake_at) || !SAME(dispatch_mask) ||
	    memcmp(a->pcip, b->pcip, sizeof(a->pcip)))
		return "the channel state";
	if (!SAME(ip))
		return "the instruction pointer";
	if (!SAME(state) || strcmp(a->fault, b->fault))
		return "the thread state";
	if (!SAME(instructions) || !SAME(channel_ops))
		return "the instruction or channel counters";
	return NULL;
}

void exec_jit_print_difference(FILE *f, const struct eu_thread *a,
			       const struct eu_thread *b, const char *what, long at)
{
	fprintf(f, "gtsim jit check: compiled code and interpreter differ in %s", what);
	if (at >= 0 && at < EU_GRF_BYTES)
		fprintf(f, " (g%ld byte %ld: compiled 0x%02x, interpreter 0x%02x)",
			at / EU_REG_SIZE, at % EU_REG_SIZE, a->regs[at], b->regs[at]);
	else if (at >= 0)
		fprintf(f, " (ARF slot %ld byte %ld: compiled 0x%02x, interpreter 0x%02x)",
			(at - EU_ARF_BASE) / EU_REG_SIZE, at % EU_REG_SIZE, a->regs[at],
			b->regs[at]);
}

/* a: the compiled run, b: the interpreter's */
static void compare(const struct eu_thread *a, const struct eu_thread *b,
		    const struct exec_prog *p, uint32_t from)
{
	long at;
	const char *what = exec_jit_difference(a, b, &at);
	if (!what)
		return;
	exec_jit_print_difference(stderr, a, b, what, at);
	fprintf(stderr, " after running from instruction %u (offset 0x%x) to %u\n", from,
		from < p->count ? p->offsets[from] : p->end_offset, b->ip);
	abort();
}

void exec_jit_run_checked(struct eu_thread *t, const struct exec_prog *p,
			  exec_jit_fn fn, uint64_t stop)
{
	struct eu_thread *c = aligned_alloc(64, sizeof(*c));
	if (!c)
		return;
	while (t->state == EU_THREAD_READY) {
		uint32_t ip = t->ip, from = ip;
		memcpy(c, t, sizeof(*c));
		fn(c, p, stop, 1);
		uint64_t n = c->instructions - t->instructions;
		for (uint64_t k = 0; k < n && t->state == EU_THREAD_READY; k++)
			exec_step(t, p, &ip, stop);
		t->ip = ip;
		compare(c, t, p, from);
		if (n == 0 && t->state == EU_THREAD_READY) {
			/* an instruction the compiled code leaves to the interpreter */
			exec_step(t, p, &ip, stop);
			t->ip = ip;
		}
	}
	free(c);
}
