/* llvmpipe's pixel throughput, the figure issue 6 asks beside bench_ps:
 * Mesa's software rasterizer on this machine (EGL surfaceless,
 * LIBGL_ALWAYS_SOFTWARE=1) draws a full-screen quad into a 1024x1024 RGBA8
 * framebuffer object with a 1-instruction fragment shader (the
 * interpolated colour written out, as bench_ps's writes its payload; a
 * constant colour would let llvmpipe fill tiles without shading) and a
 * ~30-instruction one (29 dependent multiplies and adds on
 * an interpolated colour with uniform operands, so nothing folds), with
 * llvmpipe's default thread count and with one thread (LP_NUM_THREADS=1,
 * comparable with gtsim's single PS thread). Prints pixels per second. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include "bench_gles.h"

#define SIZE 1024
#define DRAWS 50

static const char vs_src[] =
	"attribute vec2 pos;\n"
	"varying vec4 v;\n"
	"void main() { v = vec4(pos * 0.5 + 0.5, 0.25, 1.0); gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char fs_1[] =
	"precision mediump float;\n"
	"varying vec4 v;\n"
	"void main() { gl_FragColor = v; }\n";

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static GLuint program(const char *fs)
{
	return bench_program("bench_llvmpipe", vs_src, fs);
}

/* Pixels per second of DRAWS full-screen quads after one warm-up draw. */
static double measure(GLuint prog)
{
	static const float quad[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	glUseProgram(prog);
	GLint u = glGetUniformLocation(prog, "u");
	if (u >= 0)
		glUniform4f(u, 0.999f, 0.001f, 1.001f, -0.001f);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	glFinish();
	double t0 = now();
	for (int i = 0; i < DRAWS; i++)
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	glFinish();
	return DRAWS * (double)SIZE * SIZE / (now() - t0);
}

static int run(const char *threads)
{
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	static const EGLint attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	EGLContext ctx = EGL_NO_CONTEXT;
	if (dpy != EGL_NO_DISPLAY && eglInitialize(dpy, NULL, NULL) && eglBindAPI(EGL_OPENGL_ES_API))
		ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
	if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
		printf("bench_llvmpipe: no surfaceless EGL/GLES2 context (0x%x); skipped\n",
		       eglGetError());
		return 0;
	}
	const char *renderer = (const char *)glGetString(GL_RENDERER);
	GLuint rb, fb;
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, SIZE, SIZE);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	glViewport(0, 0, SIZE, SIZE);

	/* 29 dependent operations, alternately a multiply and an add. */
	char fs_30[4096] = "precision highp float;\nuniform vec4 u;\nvarying vec4 v;\n"
			   "void main() {\n  vec4 a = v;\n";
	for (int i = 0; i < 29; i++)
		snprintf(fs_30 + strlen(fs_30), sizeof(fs_30) - strlen(fs_30),
			 i % 2 ? "  a = a + u.%c;\n" : "  a = a * u.%c;\n", "xyzw"[i % 4]);
	snprintf(fs_30 + strlen(fs_30), sizeof(fs_30) - strlen(fs_30), "  gl_FragColor = a;\n}\n");

	const struct { int instructions; const char *fs; } shaders[] = { { 1, fs_1 }, { 30, fs_30 } };
	for (int i = 0; i < 2; i++)
		printf("bench_llvmpipe: %2d-instruction FS, %s thread%s: %8.2f Mpixels/s "
		       "(1024x1024, %s)\n", shaders[i].instructions, threads,
		       strcmp(threads, "1") ? "s" : "", measure(program(shaders[i].fs)) / 1e6,
		       renderer ? renderer : "?");
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglTerminate(dpy);
	return 0;
}

int main(void)
{
	/* llvmpipe reads its thread count when the screen is created: one
	 * child process per setting. */
	char cores[16];
	snprintf(cores, sizeof(cores), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	const char *settings[2] = { cores, "1" };
	int status = 0;
	for (int i = 0; i < 2; i++) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
			setenv("MESA_LOADER_DRIVER_OVERRIDE", "llvmpipe", 1);
			setenv("LP_NUM_THREADS", settings[i], 1);
			setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
			int r = run(settings[i]);
			fflush(stdout);
			_exit(r);
		}
		int st = 1;
		if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			status = 1;
	}
	return status;
}
