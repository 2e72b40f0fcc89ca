/* What the iris e2e programs share: a surfaceless EGL display (Mesa's
 * loader picks the DRM render node) with a configless GLES2 context made
 * current, an RGBA8 renderbuffer bound as the framebuffer, and its pixels
 * read back. */
#ifndef GTSIM_E2E_IRIS_GL_TARGET_H
#define GTSIM_E2E_IRIS_GL_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include "test.h"

struct gl_target {
	EGLDisplay dpy;
	EGLContext ctx;
	int w, h;
};

/* Display, context and a w x h RGBA8 framebuffer object; false (a failed
 * check, with the reason printed) when there is no current context. */
static inline bool gl_target_open(struct gl_target *t, int w, int h)
{
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_display)
		test_skip("libEGL has no eglGetPlatformDisplayEXT");
	t->w = w;
	t->h = h;
	t->ctx = EGL_NO_CONTEXT;
	t->dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLint major = 0, minor = 0;
	if (t->dpy == EGL_NO_DISPLAY || !eglInitialize(t->dpy, &major, &minor)) {
		printf("eglInitialize failed: 0x%x\n", eglGetError());
		CHECK(0);
		return false;
	}
	eglBindAPI(EGL_OPENGL_ES_API);
	static const EGLint attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	t->ctx = eglCreateContext(t->dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
	if (t->ctx == EGL_NO_CONTEXT ||
	    !eglMakeCurrent(t->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, t->ctx)) {
		printf("no current GLES2 context: 0x%x\n", eglGetError());
		CHECK(0);
		return false;
	}
	GLuint rb, fb;
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, w, h);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	CHECK_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glViewport(0, 0, w, h);
	return true;
}

/* A linked program from GLSL ES vertex and fragment shader sources, with
 * the attributes named in attribs (NULL-terminated) at locations 0, 1...;
 * a failed check (with the compiler's log) when it does not link. */
static inline GLuint gl_program(const char *vs, const char *fs, const char *const *attribs)
{
	GLuint p = glCreateProgram();
	const char *src[2] = { vs, fs };
	const GLenum type[2] = { GL_VERTEX_SHADER, GL_FRAGMENT_SHADER };
	for (int i = 0; i < 2; i++) {
		GLuint s = glCreateShader(type[i]);
		glShaderSource(s, 1, &src[i], NULL);
		glCompileShader(s);
		GLint ok = 0;
		glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
		if (!ok) {
			char log[512] = "";
			glGetShaderInfoLog(s, sizeof(log), NULL, log);
			printf("shader: %s\n", log);
		}
		glAttachShader(p, s);
	}
	for (GLuint i = 0; attribs && attribs[i]; i++)
		glBindAttribLocation(p, i, attribs[i]);
	glLinkProgram(p);
	GLint linked = 0;
	glGetProgramiv(p, GL_LINK_STATUS, &linked);
	CHECK(linked);
	return p;
}

/* The framebuffer's pixels, rows bottom-up, into px (w * h * 4 bytes).
 * The GPU is idle first: iris maps a busy renderbuffer through a BLORP
 * copy into a staging buffer, which samples with the sampler (gtsim does
 * not model it yet); an idle one it detiles on the CPU. */
static inline void gl_target_read(struct gl_target *t, uint8_t *px)
{
	glFinish();
	memset(px, 0xee, (size_t)t->w * (size_t)t->h * 4);
	glReadPixels(0, 0, t->w, t->h, GL_RGBA, GL_UNSIGNED_BYTE, px);
	glFinish();
	CHECK_EQ(glGetError(), GL_NO_ERROR);
}

/* 1 when pixel (x, y) differs from want by more than tol in a channel
 * (the first few are printed), else 0. */
static inline int gl_pixel_bad(int x, int y, const uint8_t *got, const uint8_t *want, int tol)
{
	static int printed;
	bool ok = true;
	for (int c = 0; c < 4; c++)
		ok = ok && got[c] - want[c] <= tol && want[c] - got[c] <= tol;
	if (ok)
		return 0;
	if (printed++ < 4)
		printf("pixel (%d,%d): %u %u %u %u, want %u %u %u %u\n", x, y, got[0], got[1],
		       got[2], got[3], want[0], want[1], want[2], want[3]);
	return 1;
}

/* Reports how many pixels are right; they are required unless the
 * program was run with --pixels=report (for a pipeline that cannot draw
 * them yet). */
static inline void gl_pixels_verdict(int bad, int total, int argc, char **argv)
{
	bool required = !(argc > 1 && !strcmp(argv[1], "--pixels=report"));
	printf("pixels: %d of %d right%s\n", total - bad, total,
	       required ? "" : " (reported, not required)");
	if (required)
		CHECK_EQ(bad, 0);
}

static inline void gl_target_close(struct gl_target *t)
{
	eglMakeCurrent(t->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	if (t->ctx != EGL_NO_CONTEXT)
		eglDestroyContext(t->dpy, t->ctx);
	eglTerminate(t->dpy);
}

#endif
