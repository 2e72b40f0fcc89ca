/* Fill rate through Mesa, gtsim beside llvmpipe in the same run (issue 15):
 * a full-screen quad into a 1024x1024 RGBA8 framebuffer object (EGL
 * surfaceless, OpenGL ES 2) with
 *  - a trivial fragment shader: the interpolated colour written out (a
 *    constant colour would let llvmpipe fill tiles without shading);
 *  - a ~50-instruction one: 24 dependent vec4 operations on the
 *    interpolated colour with uniform operands (nothing folds), which iris
 *    compiles to about 50 EU instructions in SIMD16 and llvmpipe to as many
 *    vector operations;
 *  - a depth-tested scene: DEPTH_QUADS full-screen quads with the trivial
 *    shader, drawn front to back at decreasing depth with a LESS test into
 *    a 16-bit depth buffer cleared each frame, so the early depth test
 *    rejects all but the first quad's pixels (the figure counts every
 *    quad's pixels, as llvmpipe's does).
 * The same program runs as a child: through iris on gtsim
 * (`gtsim run --device=skl`) with one host thread (GTSIM_THREADS=1) and
 * with one per core, and on llvmpipe with one thread (LP_NUM_THREADS=1)
 * and with one per core. Each
 * figure is pixels per second over repeated draws after a warm-up (at
 * least 2 draws and 1 s), checked against the colour the shader computes
 * on the CPU at one pixel ("wrong result" when it differs). Two figures
 * per run: pixels per second of wall time, and pixels per second of the
 * process's CPU time (every thread's: the driver's, gtsim's engine
 * thread, llvmpipe's rasterizer threads), which holds on a loaded, shared
 * machine where wall time does not. The ratio columns are gtsim / llvmpipe
 * with one thread each and with one per core each: ratios, not absolute
 * figures, are the measure. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_child.h"
#include "bench_gles.h"

#define SIZE 1024
#define LONG_OPS 24
#define DEPTH_QUADS 4

static const char vs_src[] =
	"attribute vec2 pos;\n"
	"varying vec4 v;\n"
	"void main() { v = vec4(pos * 0.5 + 0.5, 0.25, 1.0); gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char fs_short[] =
	"precision highp float;\n"
	"varying vec4 v;\n"
	"void main() { gl_FragColor = v; }\n";
static const char vs_depth[] =
	"attribute vec3 pos;\n"
	"varying vec4 v;\n"
	"void main() { v = vec4(pos.xy * 0.5 + 0.5, 0.25, 1.0); gl_Position = vec4(pos, 1.0); }\n";
static const float u_val[4] = { 0.999f, 0.001f, 1.001f, -0.001f };

static double clock_s(clockid_t id)
{
	struct timespec t;
	clock_gettime(id, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* The long shader: a = a * u.x, a = a + u.y, ... alternately. */
static void long_src(char *s, size_t n)
{
	snprintf(s, n, "precision highp float;\nuniform vec4 u;\nvarying vec4 v;\n"
		 "void main() {\n  vec4 a = v;\n");
	for (int i = 0; i < LONG_OPS; i++)
		snprintf(s + strlen(s), n - strlen(s),
			 i % 2 ? "  a = a + u.%c;\n" : "  a = a * u.%c;\n", "xyzw"[i % 4]);
	snprintf(s + strlen(s), n - strlen(s), "  gl_FragColor = a;\n}\n");
}

/* What either shader writes at pixel (x, y), in 8-bit UNORM. */
static void expected(int ops, int x, int y, unsigned char out[4])
{
	float a[4] = { ((float)x + 0.5f) / SIZE, ((float)y + 0.5f) / SIZE, 0.25f, 1.0f };
	for (int i = 0; i < ops; i++)
		for (int c = 0; c < 4; c++)
			a[c] = i % 2 ? a[c] + u_val[i % 4] : a[c] * u_val[i % 4];
	for (int c = 0; c < 4; c++) {
		float f = a[c] < 0 ? 0 : a[c] > 1 ? 1 : a[c];
		out[c] = (unsigned char)lrintf(f * 255.0f);
	}
}

static GLuint program(const char *fs)
{
	return bench_program("bench_fill", vs_src, fs);
}

/* The depth-tested scene's pixels per second (and *cpu): DEPTH_QUADS
 * quads a frame, nearest first, after a depth clear. */
static double measure_depth(double *cpu)
{
	float quads[DEPTH_QUADS][4][3];
	static const float corner[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (int q = 0; q < DEPTH_QUADS; q++)
		for (int k = 0; k < 4; k++) {
			quads[q][k][0] = corner[k][0];
			quads[q][k][1] = corner[k][1];
			quads[q][k][2] = -0.5f + 0.25f * (float)q;
		}
	glUseProgram(bench_program("bench_fill", vs_depth, fs_short));
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, quads);
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_LESS);
	int draws = 0;
	double t0 = 0, c0 = 0, t = 0;
	for (int warm = 1; warm >= 0; warm--) {
		if (!warm) {
			t0 = now();
			c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
		}
		do {
			glClear(GL_DEPTH_BUFFER_BIT);
			for (int q = 0; q < DEPTH_QUADS; q++)
				glDrawArrays(GL_TRIANGLE_STRIP, 4 * q, 4);
			glFinish();
			draws += !warm;
			t = now() - t0;
		} while (!warm && (draws < 2 || t < 1.0));
	}
	glDisable(GL_DEPTH_TEST);
	double px_n = (double)draws * DEPTH_QUADS * SIZE * SIZE;
	*cpu = px_n / (clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0);
	unsigned char px[4], want[4];
	glReadPixels(300, 700, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	expected(0, 300, 700, want);
	for (int c = 0; c < 4; c++)
		if (abs((int)px[c] - (int)want[c]) > 1)
			return *cpu = 0;
	return px_n / t;
}

/* Pixels per second of full-screen quads after one warm-up draw, of wall
 * time and in *cpu of CPU time; 0 when the pixel checked differs from the
 * CPU's value by more than 1. */
static double measure(GLuint prog, int ops, double *cpu)
{
	static const float quad[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	glUseProgram(prog);
	GLint u = glGetUniformLocation(prog, "u");
	if (u >= 0)
		glUniform4fv(u, 1, u_val);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	glFinish();
	int draws = 0;
	double t0 = now(), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), t;
	do {
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
		glFinish();
		draws++;
		t = now() - t0;
	} while (draws < 2 || t < 1.0);
	*cpu = draws * (double)SIZE * SIZE / (clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0);
	unsigned char px[4], want[4];
	glReadPixels(300, 700, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	expected(ops, 300, 700, want);
	for (int c = 0; c < 4; c++)
		if (abs((int)px[c] - (int)want[c]) > 1)
			return *cpu = 0;
	return draws * (double)SIZE * SIZE / t;
}

static int child(void)
{
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	static const EGLint attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	EGLContext ctx = EGL_NO_CONTEXT;
	if (dpy != EGL_NO_DISPLAY && eglInitialize(dpy, NULL, NULL) && eglBindAPI(EGL_OPENGL_ES_API))
		ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
	if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
		return 77;
	GLuint rb, fb;
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, SIZE, SIZE);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	GLuint db;
	glGenRenderbuffers(1, &db);
	glBindRenderbuffer(GL_RENDERBUFFER, db);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, SIZE, SIZE);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, db);
	glViewport(0, 0, SIZE, SIZE);
	char fs_long[4096];
	long_src(fs_long, sizeof(fs_long));
	double ca, cb, cc;
	double a = measure(program(fs_short), 0, &ca);
	double b = measure(program(fs_long), LONG_OPS, &cb);
	double c = measure_depth(&cc);
	printf("%.6g %.6g %.6g %.6g %.6g %.6g\n", a, b, c, ca, cb, cc);
	return glGetError() == GL_NO_ERROR ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child();
	char self[PATH_MAX], gtsim[PATH_MAX + 32];
	if (bench_paths(self, gtsim))
		return 1;
	char *gt_argv[] = { gtsim, "run", "--device=skl", "--", self, "--child", NULL };
	char *lp_argv[] = { self, "--child", NULL };
	char cores[16];
	snprintf(cores, sizeof(cores), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	/* 0, 1: gtsim with one host thread and with one per core
	 * (GTSIM_THREADS); 2, 3: llvmpipe with one thread and one per core */
	char line[4][256];
	double v[4][6] = { { 0 } };
	int rc[4], parsed[4];
	const char *const gt_env[2][5] = {
		{ "MESA_SHADER_CACHE_DISABLE", "true", "GTSIM_THREADS", "1", NULL },
		{ "MESA_SHADER_CACHE_DISABLE", "true", "GTSIM_THREADS", cores, NULL },
	};
	const char *const lp_env[2][9] = {
		{ "MESA_SHADER_CACHE_DISABLE", "true", "LIBGL_ALWAYS_SOFTWARE", "1",
		  "MESA_LOADER_DRIVER_OVERRIDE", "llvmpipe", "LP_NUM_THREADS", "1", NULL },
		{ "MESA_SHADER_CACHE_DISABLE", "true", "LIBGL_ALWAYS_SOFTWARE", "1",
		  "MESA_LOADER_DRIVER_OVERRIDE", "llvmpipe", "LP_NUM_THREADS", cores, NULL },
	};
	for (int i = 0; i < 2; i++) {
		rc[i] = bench_run_child(gt_argv, gt_env[i], line[i], sizeof(line[i]));
		rc[2 + i] = bench_run_child(lp_argv, lp_env[i], line[2 + i], sizeof(line[2 + i]));
	}
	for (int i = 0; i < 4; i++)
		parsed[i] = sscanf(line[i], "%lf %lf %lf %lf %lf %lf", &v[i][0], &v[i][1], &v[i][2],
				   &v[i][3], &v[i][4], &v[i][5]);
	char head[2][32];
	snprintf(head[0], sizeof(head[0]), "gtsim %s thr", cores);
	snprintf(head[1], sizeof(head[1]), "llvmpipe %s thr", cores);
	static const char *const names[3] = { "trivial FS (colour out)", "~50-instruction FS",
					      "4 quads, depth LESS, front first" };
	static const char *const units[2] = { "Mpixels/s (wall)", "Mpixels/CPU-s" };
	for (int u = 0; u < 2; u++) {
		printf("bench_fill: 1024x1024 RGBA8 quad, %-16s %11s %11s %14s %15s %9s %9s\n",
		       units[u], "gtsim 1 thr", head[0], "llvmpipe 1 thr", head[1], "ratio 1",
		       "ratio N");
		for (int s = 0; s < 3; s++) {
			int k = 3 * u + s;
			char f[4][32], ratio[2][32];
			for (int i = 0; i < 4; i++)
				bench_figure(f[i], sizeof(f[i]), !rc[i] && parsed[i] == 6, v[i][k], 1e6,
					     "%.2f");
			/* gtsim / llvmpipe, each with one thread and with one per core */
			for (int i = 0; i < 2; i++) {
				snprintf(ratio[i], sizeof(ratio[i]), "-");
				if (!rc[i] && !rc[2 + i] && parsed[i] == 6 && parsed[2 + i] == 6 &&
				    v[i][k] > 0 && v[2 + i][k] > 0)
					snprintf(ratio[i], sizeof(ratio[i]), "%.4f",
						 v[i][k] / v[2 + i][k]);
			}
			printf("bench_fill:   %-39s %11s %11s %14s %15s %9s %9s\n", names[s], f[0],
			       f[1], f[2], f[3], ratio[0], ratio[1]);
		}
	}
	return 0;
}
