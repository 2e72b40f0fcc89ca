/* The compute figures of issue 12, gtsim beside llvmpipe in the same run:
 * the same OpenGL 4.3 core program (EGL surfaceless, no framebuffer) runs
 * as a child through iris on gtsim (`gtsim run --device=bdw` and
 * `--device=skl`) and on llvmpipe (LIBGL_ALWAYS_SOFTWARE=1) with one
 * thread (LP_NUM_THREADS=1) and with one per core:
 *  - saxpy: y = a * x + y over 1 M floats in SSBOs, local size 64;
 *  - reduce: a shared-memory tree reduction of 1 M uints in groups of 256
 *    with a barrier per level, atomicAdd of each group's sum.
 * Each figure is invocations per second over repeated dispatches after a
 * warm-up (at least 2 and 1 s), of wall time and of the process's CPU time
 * (every thread's: the driver's, gtsim's engine threads, llvmpipe's
 * threads), which holds on a loaded, shared machine where wall time does
 * not. Results are checked on the CPU (an element of y; the sum): a wrong
 * one prints "wrong result", a child that fails "failed". The ratio is
 * gtsim SKL / llvmpipe with one thread, per CPU-second. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_child.h"
#include "bench_gl43.h"

#define N (1u << 20)

static const char saxpy_src[] =
	"#version 430 core\n"
	"layout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) buffer X { float x[]; };\n"
	"layout(std430, binding = 1) buffer Y { float y[]; };\n"
	"uniform float a;\n"
	"void main() { uint i = gl_GlobalInvocationID.x; y[i] = a * x[i] + y[i]; }\n";

static const char reduce_src[] =
	"#version 430 core\n"
	"layout(local_size_x = 256) in;\n"
	"layout(std430, binding = 0) buffer V { uint v[]; };\n"
	"layout(std430, binding = 1) buffer S { uint sum; };\n"
	"shared uint part[256];\n"
	"void main() {\n"
	"  uint l = gl_LocalInvocationID.x;\n"
	"  part[l] = v[gl_GlobalInvocationID.x];\n"
	"  barrier();\n"
	"  for (uint s = 128u; s > 0u; s >>= 1) {\n"
	"    if (l < s) part[l] += part[l + s];\n"
	"    barrier();\n"
	"  }\n"
	"  if (l == 0u) atomicAdd(sum, part[0]);\n"
	"}\n";

static double clock_s(clockid_t id)
{
	struct timespec t;
	clock_gettime(id, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static GLuint compute_program(const char *src)
{
	GLuint p = glCreateProgram(), s = glCreateShader(GL_COMPUTE_SHADER);
	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	GLint ok = 0;
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[1024];
		glGetShaderInfoLog(s, sizeof(log), NULL, log);
		fprintf(stderr, "bench_compute: shader does not compile: %s\n", log);
		exit(1);
	}
	glAttachShader(p, s);
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		fprintf(stderr, "bench_compute: program does not link\n");
		exit(1);
	}
	glUseProgram(p);
	return p;
}

/* Dispatches of `groups` groups after one warm-up, until at least 2 and
 * 1 s: invocations per wall second, per CPU-second in *cpu; *runs counts
 * every dispatch (the warm-up too). */
static double measure(GLuint groups, GLuint local, GLuint sum_buf, int *runs, double *cpu)
{
	const GLuint zero = 0;
	int n = 0;
	double t0 = 0, c0 = 0, t;
	do {
		if (n == 1) {
			t0 = clock_s(CLOCK_MONOTONIC);
			c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
		}
		if (sum_buf) {
			glBindBuffer(GL_SHADER_STORAGE_BUFFER, sum_buf);
			glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, 4, &zero);
		}
		glDispatchCompute(groups, 1, 1);
		glFinish();
		n++;
		t = n > 1 ? clock_s(CLOCK_MONOTONIC) - t0 : 0;
	} while (n < 3 || t < 1.0);
	double inv = (double)(n - 1) * groups * local;
	*runs = n;
	*cpu = inv / (clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0);
	return inv / t;
}

static int child(void)
{
	int skip = bench_gl43_context();
	if (skip)
		return skip;
	GLuint bufs[2];
	glGenBuffers(2, bufs);
	uint32_t *data = malloc(4 * N);
	if (!data)
		return 1;
	float *f = (float *)(void *)data;
	for (unsigned i = 0; i < N; i++)
		f[i] = (float)(i & 255);
	for (int b = 0; b < 2; b++) {
		glBindBuffer(GL_SHADER_STORAGE_BUFFER, bufs[b]);
		glBufferData(GL_SHADER_STORAGE_BUFFER, 4 * N, data, GL_DYNAMIC_COPY);
		glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)b, bufs[b]);
	}
	GLuint sp = compute_program(saxpy_src);
	glUniform1f(glGetUniformLocation(sp, "a"), 2.0f);
	int runs = 0;
	double c_saxpy, w_saxpy = measure(N / 64, 64, 0, &runs, &c_saxpy);
	/* y starts as x; each run adds 2x: element 5 (x = 5) is 5 (1 + 2 runs) */
	float y5 = 0;
	glBindBuffer(GL_SHADER_STORAGE_BUFFER, bufs[1]);
	glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 20, 4, &y5);
	if (y5 != 5.0f * (float)(1 + 2 * runs))
		w_saxpy = c_saxpy = 0;

	uint64_t want = 0;
	for (unsigned i = 0; i < N; i++) {
		data[i] = i % 1000;
		want += data[i];
	}
	glBindBuffer(GL_SHADER_STORAGE_BUFFER, bufs[0]);
	glBufferData(GL_SHADER_STORAGE_BUFFER, 4 * N, data, GL_DYNAMIC_COPY);
	glBindBuffer(GL_SHADER_STORAGE_BUFFER, bufs[1]);
	glBufferData(GL_SHADER_STORAGE_BUFFER, 4, NULL, GL_DYNAMIC_COPY);
	glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, bufs[0]);
	glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, bufs[1]);
	compute_program(reduce_src);
	double c_reduce, w_reduce = measure(N / 256, 256, bufs[1], &runs, &c_reduce);
	GLuint got = 0;
	glBindBuffer(GL_SHADER_STORAGE_BUFFER, bufs[1]);
	glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, 4, &got);
	if (got != (GLuint)want)
		w_reduce = c_reduce = 0;
	free(data);
	printf("%.6g %.6g %.6g %.6g\n", w_saxpy, w_reduce, c_saxpy, c_reduce);
	return glGetError() == GL_NO_ERROR ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child();
	char self[PATH_MAX], gtsim[PATH_MAX + 32];
	if (bench_paths(self, gtsim))
		return 1;
	char cores[16];
	snprintf(cores, sizeof(cores), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	char *bdw_argv[] = { gtsim, "run", "--device=bdw", "--", self, "--child", NULL };
	char *skl_argv[] = { gtsim, "run", "--device=skl", "--", self, "--child", NULL };
	char *lp_argv[] = { self, "--child", NULL };
	char *const *argvs[4] = { bdw_argv, skl_argv, lp_argv, lp_argv };
	static const char *const gt_env[] = { "MESA_SHADER_CACHE_DISABLE", "true", NULL };
	const char *const lp_env[2][9] = {
		{ "MESA_SHADER_CACHE_DISABLE", "true", "LIBGL_ALWAYS_SOFTWARE", "1",
		  "MESA_LOADER_DRIVER_OVERRIDE", "llvmpipe", "LP_NUM_THREADS", "1", NULL },
		{ "MESA_SHADER_CACHE_DISABLE", "true", "LIBGL_ALWAYS_SOFTWARE", "1",
		  "MESA_LOADER_DRIVER_OVERRIDE", "llvmpipe", "LP_NUM_THREADS", cores, NULL },
	};
	const char *const *envs[4] = { gt_env, gt_env, lp_env[0], lp_env[1] };
	char line[4][256];
	double v[4][4] = { { 0 } };
	int rc[4], parsed[4];
	for (int i = 0; i < 4; i++) {
		rc[i] = bench_run_child(argvs[i], envs[i], line[i], sizeof(line[i]));
		parsed[i] = sscanf(line[i], "%lf %lf %lf %lf", &v[i][0], &v[i][1], &v[i][2],
				   &v[i][3]);
	}
	char head[32];
	snprintf(head, sizeof(head), "llvmpipe %s thr", cores);
	static const char *const names[2] = { "saxpy, 1 M invocations",
					      "reduce, 1 M, shared memory + barriers" };
	static const char *const units[2] = { "invocations/s (wall)", "invocations/CPU-s" };
	for (int u = 0; u < 2; u++) {
		printf("bench_compute: %-38s %11s %11s %14s %15s %9s\n", units[u], "gtsim BDW",
		       "gtsim SKL", "llvmpipe 1 thr", head, "ratio");
		for (int s = 0; s < 2; s++) {
			int k = 2 * u + s;
			char f[4][32], ratio[32] = "-";
			for (int i = 0; i < 4; i++)
				bench_figure(f[i], sizeof(f[i]), !rc[i] && parsed[i] == 4, v[i][k], 1,
					     "%.3g");
			if (!rc[1] && !rc[2] && parsed[1] == 4 && parsed[2] == 4 && v[1][k] > 0 &&
			    v[2][k] > 0)
				snprintf(ratio, sizeof(ratio), "%.4f", v[1][k] / v[2][k]);
			printf("bench_compute:   %-36s %11s %11s %14s %15s %9s\n", names[s], f[0],
			       f[1], f[2], f[3], ratio);
		}
	}
	return 0;
}
