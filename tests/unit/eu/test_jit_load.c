/* The EU JIT finds LLVM at run time (src/gpu/eu/jit/jit_llvm_api.h):
 * - a process whose programs never reach the tier's count never maps
 *   libLLVM (/proc/self/maps), and the first compile does;
 * - with the library absent, or a library without LLVM's functions
 *   (libm), programs run in the interpreter with the right results
 *   (computed here on the CPU), nothing is compiled, nothing crashes, and
 *   the failure is traced once under `jit` however many programs are due.
 * Each case is a child process: loading happens once per process. Built
 * only when LLVM 15's headers are (meson: llvm_dep). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/trace.h"
#include "gpu/eu/jit/jit.h"
#include "test_exec_util.h"

static bool llvm_mapped(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	bool found = false;
	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, "libLLVM") != NULL;
	if (f)
		fclose(f);
	return found;
}

/* SIMD8: g10 = g2 + k, g11 = g2 * 3 (D); each k a program of its own */
static void run_add(struct eu_thread *t, int32_t k)
{
	struct eu_inst p[3] = {
		i2(EU_OP_ADD, 8, gd(10, EU_TYPE_D), g(2, EU_TYPE_D), immd(k)),
		i2(EU_OP_MUL, 8, gd(11, EU_TYPE_D), g(2, EU_TYPE_D), immd(3)),
		eot_send(),
	};
	eu_thread_init(t, 8, 0xff);
	for (unsigned i = 0; i < 8; i++)
		setud(t, 2, i, 10 * i);
	struct exec_prog *prog = exec_prog_build(8, p, NULL, 3);
	exec_run(t, prog, 0);
	exec_prog_free(prog);
	CHECK(ran_to_end(t));
	for (unsigned i = 0; i < 8; i++) {
		CHECK_EQ(rud(t, 10, i), 10 * i + (uint32_t)k);
		CHECK_EQ(rud(t, 11, i), 30 * i);
	}
}

static uint64_t compiled(void)
{
	struct exec_jit_stats s;
	exec_jit_stats(&s);
	return s.programs;
}

/* Default tiering: a program run a few times is not compiled, and LLVM
 * stays out of the process; forcing a compile loads it. */
static void lazy(void)
{
	static struct eu_thread t;
	for (int i = 0; i < 10; i++)
		run_add(&t, 1);
	CHECK_EQ(compiled(), 0);
	CHECK(!llvm_mapped());
	exec_jit_configure(EXEC_JIT_TIERED, 0);
	run_add(&t, 2);
	CHECK_EQ(compiled(), 1);
	CHECK(llvm_mapped());
}

/* GTSIM_JIT_LIBLLVM names a library that is absent or not LLVM: every
 * program is due at its first run (GTSIM_JIT=always), each still runs
 * right in the interpreter. */
static void missing(const char *trace_file)
{
	static struct eu_thread t;
	for (int k = 0; k < 5; k++)
		run_add(&t, k);
	CHECK_EQ(compiled(), 0);
	CHECK(!exec_jit_available());
	fflush(trace_stream());
	FILE *f = fopen(trace_file, "r");
	CHECK(f != NULL);
	char line[512];
	int told = 0;
	while (f && fgets(line, sizeof(line), f))
		told += strstr(line, "[jit]") && strstr(line, "stay in the interpreter");
	if (f)
		fclose(f);
	CHECK_EQ(told, 1);
}

static void in_child(const char *what, void (*fn)(const char *), const char *lib,
		     const char *jit_env)
{
	char trace_file[] = "/tmp/gtsim-test-jit-load-XXXXXX";
	int fd = mkstemp(trace_file);
	CHECK(fd >= 0);
	close(fd);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		if (lib)
			setenv("GTSIM_JIT_LIBLLVM", lib, 1);
		if (jit_env)
			setenv("GTSIM_JIT", jit_env, 1);
		else
			unsetenv("GTSIM_JIT");
		setenv("GTSIM_TRACE", "jit", 1);
		setenv("GTSIM_TRACE_FILE", trace_file, 1);
		trace_init_from_env();
		fn(trace_file);
		_exit(test_exit());
	}
	int status = -1;
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fprintf(stderr, "%s: child failed (status 0x%x)\n", what, status);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	unlink(trace_file);
}

static void lazy_case(const char *trace_file)
{
	(void)trace_file;
	lazy();
}

int main(void)
{
	in_child("lazy load", lazy_case, NULL, NULL);
	in_child("absent library", missing, "libgtsim-no-such-llvm.so.1", "always");
	in_child("library without LLVM", missing, "libm.so.6", "always");
	return test_exit();
}
