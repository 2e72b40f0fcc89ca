/* EU executor speed: an ALU-heavy SIMD16 loop (float mad/mul/add and
 * integer add/and per iteration, a counter, cmp and while), run on one
 * thread, first in the interpreter, then compiled (src/gpu/eu/jit/, when
 * built with LLVM). Prints instructions per second and channel operations
 * (enabled channels of ALU instructions) per second of CPU time, per core,
 * for both, and the compile time of the kernel. Targets: >= 1e9
 * channel-ops/s interpreted, >= 1e10 compiled (issue 15). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gpu/eu/exec.h"
#include "gpu/eu/jit/jit.h"
#include "gpu/eu/inst.h"
#include "gpu/eu/thread.h"

static struct eu_operand reg(unsigned nr, unsigned type, unsigned vs, unsigned w,
			     unsigned hs)
{
	struct eu_operand o;
	memset(&o, 0, sizeof(o));
	o.file = EU_FILE_GRF;
	o.nr = (uint8_t)nr;
	o.type = (uint8_t)type;
	o.vstride = (uint8_t)vs;
	o.width = (uint8_t)w;
	o.hstride = (uint8_t)hs;
	for (int i = 0; i < 4; i++)
		o.swizzle[i] = (uint8_t)i;
	o.writemask = 0xf;
	return o;
}
static struct eu_operand v16(unsigned nr, unsigned type) { return reg(nr, type, 16, 16, 1); }
static struct eu_operand dst(unsigned nr, unsigned type) { return reg(nr, type, 0, 1, 1); }
static struct eu_operand immv(unsigned type, uint32_t bits)
{
	struct eu_operand o;
	memset(&o, 0, sizeof(o));
	o.file = EU_FILE_IMM;
	o.type = (uint8_t)type;
	o.imm = bits;
	return o;
}

static struct eu_inst alu(unsigned opc, struct eu_operand d, unsigned n,
			  struct eu_operand a, struct eu_operand b, struct eu_operand c)
{
	struct eu_inst in;
	memset(&in, 0, sizeof(in));
	in.opcode = (uint8_t)opc;
	in.exec_size = 16;
	in.dst = d;
	in.num_srcs = (uint8_t)n;
	in.src[0] = a;
	in.src[1] = b;
	in.src[2] = c;
	return in;
}

/* Five runs of the loop; the best channel-ops/s (millions) of CPU time,
 * or -1 when a run stops early. */
static double measure(const char *how, const struct exec_prog *prog, size_t n, int iter)
{
	static struct eu_thread t;
	double best = 0;
	for (int run = 0; run < 5; run++) {
		eu_thread_init(&t, 16, 0xffff);
		for (unsigned i = 0; i < 16; i++) {
			float a = 1.0f + (float)i * 0.001f, b = 0.999f;
			memcpy(t.regs + 30 * 32 + 4 * i, &a, 4);
			memcpy(t.regs + 32 * 32 + 4 * i, &b, 4);
			uint32_t d = i;
			memcpy(t.regs + 34 * 32 + 4 * i, &d, 4);
		}
		struct timespec t0, t1, c0, c1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
		enum eu_thread_state st = exec_run(&t, prog, (uint64_t)iter * n + 100);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
		/* the program ends by running off its end after the loop */
		if (st != EU_THREAD_FAULT || t.instructions < (uint64_t)iter * (n - 1)) {
			printf("  %s run %d stopped early\n", how, run);
			return -1;
		}
		/* CPU time of this process is the "one core" figure when the
		 * machine is shared; wall time is printed too (the first
		 * compiled run includes the compile) */
		double cops = (double)t.channel_ops / cpu * 1e-6;
		printf("  %s run %d: wall %.3f s, cpu %.3f s: %.1f M instructions/s, "
		       "%.1f M channel-ops/s\n", how, run, sec, cpu,
		       (double)t.instructions / cpu * 1e-6, cops);
		if (cops > best)
			best = cops;
	}
	printf("  %s best: %.1f M channel-ops/s per core\n", how, best);
	return best;
}

int main(void)
{
	enum { ITER = 1000000 };
	struct eu_inst p[32];
	size_t n = 0;
	struct eu_operand none;
	memset(&none, 0, sizeof(none));
	float one = 1.0f, half = 0.5f;
	uint32_t onebits, halfbits;
	memcpy(&onebits, &one, 4);
	memcpy(&halfbits, &half, 4);
	p[n++] = alu(EU_OP_MOV, dst(2, EU_TYPE_D), 1, immv(EU_TYPE_D, 0), none, none);
	size_t loop = n;
	for (int k = 0; k < 4; k++) {
		/* 3-source mad is align16 on gen8 */
		struct eu_inst m = alu(EU_OP_MAD, dst(20 + 2 * k, EU_TYPE_F), 3,
				       reg(20 + 2 * k, EU_TYPE_F, 4, 4, 1),
				       reg(30, EU_TYPE_F, 4, 4, 1), reg(32, EU_TYPE_F, 4, 4, 1));
		m.access_mode = EU_ALIGN16;
		p[n++] = m;
		p[n++] = alu(EU_OP_MUL, dst(40 + 2 * k, EU_TYPE_F), 2, v16(20 + 2 * k, EU_TYPE_F),
			     immv(EU_TYPE_F, halfbits), none);
		p[n++] = alu(EU_OP_ADD, dst(50 + 2 * k, EU_TYPE_F), 2, v16(40 + 2 * k, EU_TYPE_F),
			     v16(30, EU_TYPE_F), none);
		p[n++] = alu(EU_OP_ADD, dst(60 + 2 * k, EU_TYPE_D), 2, v16(60 + 2 * k, EU_TYPE_D),
			     v16(34, EU_TYPE_D), none);
	}
	p[n++] = alu(EU_OP_ADD, dst(2, EU_TYPE_D), 2, v16(2, EU_TYPE_D), immv(EU_TYPE_D, 1), none);
	struct eu_inst c = alu(EU_OP_CMP, dst(0, EU_TYPE_D), 2, v16(2, EU_TYPE_D),
			       immv(EU_TYPE_D, ITER), none);
	c.dst.file = EU_FILE_ARF;
	c.dst.nr = EU_ARF_NULL;
	c.cond = EU_COND_L;
	p[n++] = c;
	struct eu_inst w = alu(EU_OP_WHILE, dst(0, EU_TYPE_D), 0, none, none, none);
	w.dst.file = EU_FILE_ARF;
	w.pred = EU_PRED_NORMAL;
	w.jip = (int32_t)((int)loop - (int)n) * 16;
	p[n++] = w;

	/* built with the JIT on but never due, so the same program runs
	 * interpreted first, then compiled */
	exec_jit_configure(EXEC_JIT_TIERED, ~0u);
	struct exec_prog *prog = exec_prog_build(8, p, NULL, n);
	printf("bench_eu: SIMD16 ALU loop, %zu instructions per iteration, %d iterations, "
	       "5 runs each\n", n - 1, ITER);
	double interp = measure("interpreter", prog, n, ITER);
	if (interp < 0)
		return 1;
	if (!exec_jit_available()) {
		printf("  compiled: not built (no LLVM 15)\n");
		exec_prog_free(prog);
		return 0;
	}
	exec_jit_configure(EXEC_JIT_TIERED, 0);
	double comp = measure("compiled", prog, n, ITER);
	if (comp < 0)
		return 1;
	struct exec_jit_stats js, js2;
	exec_jit_stats(&js);
	printf("  compile: %llu kernel of %llu instructions (%llu inline): %.2f ms wall, "
	       "%.2f ms CPU (the first compile of the process: LLVM set up included)\n",
	       (unsigned long long)js.programs, (unsigned long long)js.instructions,
	       (unsigned long long)js.inlined, (double)js.compile_ns * 1e-6,
	       (double)js.compile_cpu_ns * 1e-6);
	/* the same loop with other constants: a second kernel, compiled
	 * with LLVM already set up */
	for (size_t i = 0; i < n; i++)
		if (p[i].opcode == EU_OP_MUL)
			p[i].src[1].imm ^= 1;
	struct exec_prog *other = exec_prog_build(8, p, NULL, n);
	static struct eu_thread t2;
	eu_thread_init(&t2, 16, 0xffff);
	exec_run(&t2, other, 1000);
	exec_prog_free(other);
	exec_jit_stats(&js2);
	printf("  compile of a second kernel of %zu instructions: %.2f ms wall, %.2f ms CPU\n",
	       n, (double)(js2.compile_ns - js.compile_ns) * 1e-6,
	       (double)(js2.compile_cpu_ns - js.compile_cpu_ns) * 1e-6);
	printf("  channel-ops/s per core: interpreter %.1f M, compiled %.1f M (x%.1f; "
	       "target 10000 M)\n", interp, comp, comp / interp);
	exec_prog_free(prog);
	return 0;
}
