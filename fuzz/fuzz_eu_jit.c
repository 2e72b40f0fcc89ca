/* Target eu_jit: EU programs compiled to host code (src/gpu/eu/jit,
 * docs/eu-jit.md) against the interpreter. Input as target eu's
 * (fuzz_eu.h); what decodes (up to the first undecodable byte, at most
 * EU_JIT_MAX_INSTS instructions) runs twice from the same start, once
 * interpreted and once compiled (GTSIM_JIT=always's path: the compiled
 * function runs the whole thread, stepping the interpreter for what it
 * does not inline), with the same budget. The two must end equal in
 * everything GTSIM_JIT=check compares (exec_jit_difference: every GRF and
 * ARF, flags, accumulators and their wide values, channel state, ip, end
 * state and fault text, counters) and must have sent the same messages
 * (SFID, descriptors, lengths, payload; the stand-in shared function
 * answers both alike). A difference is printed, the compiled run is
 * replayed in check mode (which names the first stretch that differs, if
 * a stretch does), and the target aborts. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_eu.h"
#include "fuzz_target.h"
#include "gpu/eu/isa.h"
#include "gpu/eu/jit/jit.h"

/* Compile cost grows with the program (docs/fuzzing.md, eu_jit). */
#define EU_JIT_MAX_INSTS 64

/* g8 and up, which the input does not set: values that exercise the
 * compiled float and integer paths (small floats, specials: zeros,
 * infinities, NaNs, denormals, extremes; raw bits), from a hash of the
 * payload so both runs see the same. */
static void fill_grfs(struct eu_thread *t, const struct eu_case *c)
{
	static const uint32_t special[16] = {
		0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
		0x00000001, 0x807fffff, 0x7f7fffff, 0x3f800000, 0xbf800000, 0x00800000,
		0x7fffffff, 0x80000001, 0xffffffff, 0x4b000000,
	};
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < sizeof(c->payload); i++)
		h = (h ^ c->payload[i]) * 16777619u;
	for (unsigned r = 8; r < EU_GRF_COUNT; r++)
		for (unsigned d = 0; d < 8; d++) {
			h ^= h << 13;
			h ^= h >> 17;
			h ^= h << 5;
			uint32_t v;
			switch (h & 7) {
			case 0: case 1: case 2: case 3: {
				float f = (float)(int8_t)(h >> 8) / 4.0f;
				memcpy(&v, &f, 4);
				break;
			}
			case 4:
				v = special[(h >> 8) & 15];
				break;
			default:
				v = h;
			}
			memcpy(eu_grf(t, r) + d * 4, &v, 4);
		}
}

static void run(struct eu_thread *t, const struct eu_case *c, const struct exec_prog *p,
		struct eu_msg_log *log)
{
	log->len = 0;
	log->count = 0;
	eu_case_start(t, c, log);
	fill_grfs(t, c);
	exec_run(t, p, EU_BUDGET);
}

static void differ(const struct eu_thread *jit, const struct eu_thread *ref,
		   const struct eu_msg_log *jl, const struct eu_msg_log *rl,
		   const struct eu_case *c, const struct exec_prog *p)
{
	long at;
	const char *what = exec_jit_difference(jit, ref, &at);
	if (what) {
		exec_jit_print_difference(stderr, jit, ref, what, at);
		fprintf(stderr, " at the end of the run (compiled: state %d ip %u after %llu "
			"instructions%s%s; interpreter: state %d ip %u after %llu%s%s)\n",
			jit->state, jit->ip, (unsigned long long)jit->instructions,
			*jit->fault ? ": " : "", jit->fault, ref->state, ref->ip,
			(unsigned long long)ref->instructions, *ref->fault ? ": " : "",
			ref->fault);
	} else {
		size_t n = jl->len < rl->len ? jl->len : rl->len, i = 0;
		while (i < n && jl->b[i] == rl->b[i])
			i++;
		fprintf(stderr, "eu_jit: the compiled run sent %u messages (%zu bytes), the "
			"interpreter %u (%zu bytes); first difference at byte %zu\n",
			jl->count, jl->len, rl->count, rl->len, i);
	}
	/* the compiled run again in check mode: aborts at the first stretch
	 * of compiled code that differs from the interpreter, if one does */
	static struct eu_thread chk;
	struct eu_msg_log log = { 0 };
	exec_jit_configure(EXEC_JIT_CHECK, 0);
	run(&chk, c, p, &log);
	fprintf(stderr, "eu_jit: check mode found no stretch that differs\n");
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct eu_thread ref, jit;   /* 64-byte aligned (thread.h) */
	static struct eu_msg_log ref_log, jit_log;
	static bool have_jit, once;
	if (!once) {
		exec_jit_configure(EXEC_JIT_TIERED, 0);   /* GTSIM_JIT=always */
		have_jit = exec_jit_available();
		if (!have_jit)
			fprintf(stderr, "eu_jit: no code generator (LLVM 15) in this build or "
				"host: programs only run interpreted\n");
		once = true;
	}
	struct eu_case c;
	eu_case_read(&c, data, size);
	if (!c.bytes)
		return 0;
	struct eu_program prog;
	memset(&prog, 0, sizeof(prog));
	size_t bad = 0;
	eu_program_decode(c.gen, c.bytes, c.len, &prog, &bad);
	size_t count = prog.count < EU_JIT_MAX_INSTS ? prog.count : EU_JIT_MAX_INSTS;
	if (count) {
		/* the interpreter's program has no compiled form (p->jit NULL) */
		exec_jit_configure(EXEC_JIT_OFF, 0);
		struct exec_prog *pi = exec_prog_build(c.gen, prog.insts, prog.offsets, count);
		exec_jit_configure(have_jit ? EXEC_JIT_TIERED : EXEC_JIT_OFF, 0);
		struct exec_prog *pj = exec_prog_build(c.gen, prog.insts, prog.offsets, count);
		if (pi && pj) {
			run(&ref, &c, pi, &ref_log);
			run(&jit, &c, pj, &jit_log);
			long at;
			if (exec_jit_difference(&jit, &ref, &at) || jit_log.len != ref_log.len ||
			    (jit_log.len && memcmp(jit_log.b, ref_log.b, jit_log.len)))
				differ(&jit, &ref, &jit_log, &ref_log, &c, pj);
		}
		exec_prog_free(pi);
		exec_prog_free(pj);
	}
	eu_program_free(&prog);
	free(c.bytes);
	return 0;
}
