/* The geometry figures of issue 11, gtsim beside
 * llvmpipe in the same run: the same OpenGL 4.3 core program runs once
 * through iris on gtsim (`gtsim run --device=skl`) and once on llvmpipe
 * (LIBGL_ALWAYS_SOFTWARE=1), each in a child process, on a 256x256 RGBA8
 * framebuffer object (EGL surfaceless):
 *  - gs: 1024 points, each amplified by a geometry shader into a 64-vertex
 *    triangle strip (62 triangles of a few pixels): primitives per second;
 *  - tess: 256 quad patches tessellated at level 8 (128 triangles each):
 *    primitives per second.
 * The compute figures of issue 12 are bench_compute's. Each result is
 * checked (a pixel of the first strip and of the first patch): a wrong
 * one prints "wrong result", a child that fails prints "failed".
 * Each figure is the best of 3 timed repetitions after a warm-up, timed
 * around glFinish. */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_child.h"
#include "bench_gl43.h"

#define SIZE 256
#define GS_POINTS 1024
#define GS_VERTS 64
#define TESS_PATCHES 256
#define TESS_LEVEL 8

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static GLuint program(const GLenum *types, const char *const *srcs, int n)
{
	GLuint p = glCreateProgram();
	for (int i = 0; i < n; i++) {
		GLuint s = glCreateShader(types[i]);
		glShaderSource(s, 1, &srcs[i], NULL);
		glCompileShader(s);
		GLint ok = 0;
		glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
		if (!ok) {
			char log[1024];
			glGetShaderInfoLog(s, sizeof(log), NULL, log);
			fprintf(stderr, "bench_gl: shader %d does not compile: %s\n", i, log);
			exit(1);
		}
		glAttachShader(p, s);
	}
	glLinkProgram(p);
	GLint ok = 0;
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		fprintf(stderr, "bench_gl: program does not link\n");
		exit(1);
	}
	return p;
}

#define VS_PASS "#version 430 core\nlayout(location = 0) in vec2 pos;\n" \
	"void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"
#define FS_COLOR "#version 430 core\nout vec4 c;\nvoid main() { c = vec4(0.2, 0.5, 0.8, 1.0); }\n"

static const char gs_src[] =
	"#version 430 core\n"
	"layout(points) in;\n"
	"layout(triangle_strip, max_vertices = 64) out;\n"
	"void main() {\n"
	"  for (int i = 0; i < 64; i++) {\n"
	"    vec2 o = vec2(float(i >> 1) * 0.004, float(i & 1) * 0.02);\n"
	"    gl_Position = gl_in[0].gl_Position + vec4(o, 0.0, 0.0);\n"
	"    EmitVertex();\n"
	"  }\n"
	"}\n";

static const char tcs_src[] =
	"#version 430 core\n"
	"layout(vertices = 4) out;\n"
	"void main() {\n"
	"  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n"
	"  gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = 8.0;\n"
	"  gl_TessLevelOuter[2] = gl_TessLevelOuter[3] = 8.0;\n"
	"  gl_TessLevelInner[0] = gl_TessLevelInner[1] = 8.0;\n"
	"}\n";
static const char tes_src[] =
	"#version 430 core\n"
	"layout(quads, equal_spacing, ccw) in;\n"
	"void main() {\n"
	"  vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);\n"
	"  vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);\n"
	"  gl_Position = mix(a, b, gl_TessCoord.y);\n"
	"}\n";

typedef void (*workload)(void *ctx);

/* Best of 3 timed runs after one warm-up: seconds. */
static double best(workload fn, void *ctx)
{
	fn(ctx);
	glFinish();
	double t = 1e9;
	for (int r = 0; r < 3; r++) {
		double t0 = now();
		fn(ctx);
		glFinish();
		double dt = now() - t0;
		if (dt < t)
			t = dt;
	}
	return t;
}

/* Whether pixel (x, y) has FS_COLOR's colour. */
static int colored(int x, int y)
{
	unsigned char px[4] = { 0 };
	glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	return px[0] == 51 && px[1] == 128 && px[2] == 204;
}

static void draw_points(void *ctx) { (void)ctx; glDrawArrays(GL_POINTS, 0, GS_POINTS); }
static void draw_patches(void *ctx) { (void)ctx; glDrawArrays(GL_PATCHES, 0, 4 * TESS_PATCHES); }
static int child(void)
{
	int skip = bench_gl43_context();
	if (skip)
		return skip;
	GLuint fbo, rb, vao, vb;
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SIZE, SIZE);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	glViewport(0, 0, SIZE, SIZE);
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(1, &vb);
	glBindBuffer(GL_ARRAY_BUFFER, vb);
	float *pts = malloc(sizeof(float) * 2 * 4 * TESS_PATCHES);
	if (!pts)
		return 1;
	/* points on a 32x32 grid; patches as 16x16 quads of the viewport */
	for (int i = 0; i < GS_POINTS; i++) {
		pts[2 * i] = -0.95f + 1.8f * (float)(i % 32) / 32.0f;
		pts[2 * i + 1] = -0.95f + 1.8f * (float)(i / 32) / 32.0f;
	}
	glBufferData(GL_ARRAY_BUFFER, sizeof(float) * 2 * GS_POINTS, pts, GL_STATIC_DRAW);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);

	const char *gs[] = { VS_PASS, gs_src, FS_COLOR };
	const GLenum gs_t[] = { GL_VERTEX_SHADER, GL_GEOMETRY_SHADER, GL_FRAGMENT_SHADER };
	glUseProgram(program(gs_t, gs, 3));
	glClear(GL_COLOR_BUFFER_BIT);
	double t_gs = best(draw_points, NULL);
	/* the first strip spans pixels x 6.4-22.3, y 6.4-9.0 */
	int ok_gs = colored(10, 7);

	GLuint pb;
	glGenBuffers(1, &pb);
	glBindBuffer(GL_ARRAY_BUFFER, pb);
	for (int p = 0; p < TESS_PATCHES; p++) {
		float x0 = -1.0f + 2.0f * (float)(p % 16) / 16.0f, y0 = -1.0f + 2.0f * (float)(p / 16) / 16.0f;
		float q[8] = { x0, y0, x0 + 0.125f, y0, x0 + 0.125f, y0 + 0.125f, x0, y0 + 0.125f };
		memcpy(pts + 8 * p, q, sizeof(q));
	}
	glBufferData(GL_ARRAY_BUFFER, sizeof(float) * 8 * TESS_PATCHES, pts, GL_STATIC_DRAW);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
	glPatchParameteri(GL_PATCH_VERTICES, 4);
	const char *ts[] = { VS_PASS, tcs_src, tes_src, FS_COLOR };
	const GLenum ts_t[] = { GL_VERTEX_SHADER, GL_TESS_CONTROL_SHADER, GL_TESS_EVALUATION_SHADER,
				GL_FRAGMENT_SHADER };
	glUseProgram(program(ts_t, ts, 4));
	glClear(GL_COLOR_BUFFER_BIT);
	double t_tess = best(draw_patches, NULL);
	/* the first patch covers pixels 0-15 in x and y */
	int ok_tess = colored(8, 8);
	free(pts);

	/* a figure of 0: the result was wrong */
	printf("%.4g %.4g\n", ok_gs ? (double)GS_POINTS * (GS_VERTS - 2) / t_gs : 0,
	       ok_tess ? (double)TESS_PATCHES * 2 * TESS_LEVEL * TESS_LEVEL / t_tess : 0);
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
	char gt[256], lp[256];
	static const char *const gt_env[] = { "PIGLIT_PLATFORM", "surfaceless_egl", NULL };
	static const char *const lp_env[] = { "PIGLIT_PLATFORM", "surfaceless_egl",
					      "LIBGL_ALWAYS_SOFTWARE", "1", NULL };
	int rg = bench_run_child(gt_argv, gt_env, gt, sizeof(gt));
	int rl = bench_run_child(lp_argv, lp_env, lp, sizeof(lp));
	double g[2] = { 0 }, l[2] = { 0 };
	int ng = sscanf(gt, "%lf %lf", &g[0], &g[1]);
	int nl = sscanf(lp, "%lf %lf", &l[0], &l[1]);
	static const char *const names[2] = {
		"gs: 1024 points -> 64-vertex strips (prims/s)",
		"tess: 256 quad patches at level 8 (prims/s)",
	};
	printf("%-52s %14s %14s\n", "", "gtsim (SKL)", "llvmpipe");
	for (int i = 0; i < 2; i++) {
		char a[32] = "failed", b[32] = "failed";
		if (ng == 2 && rg == 0)
			snprintf(a, sizeof(a), g[i] > 0 ? "%.3g" : "wrong result", g[i]);
		if (nl == 2 && rl == 0)
			snprintf(b, sizeof(b), l[i] > 0 ? "%.3g" : "wrong result", l[i]);
		printf("%-52s %14s %14s\n", names[i], a, b);
	}
	return 0;
}
