/* A GLES2 program of the kind Mesa's iris runs everywhere, meant to be run
 * under `gtsim run` (tests/e2e/iris/run_iris.py): a surfaceless EGL
 * display (Mesa's loader picks the DRM render node), a configless GLES2
 * context, a 32x32 RGBA8 renderbuffer in a framebuffer object cleared to
 * one colour, then a scissored clear of a 8x4 rectangle at (4, 20) to a
 * second colour, read back with glReadPixels.
 *
 * Oracles, all computed here: the EGL driver name "iris" and the renderer
 * string Mesa builds for PCI 0x1616 ("Mesa Intel(R) HD Graphics 5500 (BDW
 * GT2)"); GLES's UNORM8 conversion of the clear colours (round to nearest:
 * 0.25 -> 64, 0.5 -> 128, 0.75 -> 191; 0.2 -> 51, 0.6 -> 153); glReadPixels
 * returns rows bottom-up from (0, 0), so the scissor box (x 4..11, y
 * 20..23) is where the second colour must be. With --pixels=report the
 * pixels are printed but not required (for a pipeline that cannot draw
 * them yet); the default requires them. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include "test.h"

#define W 32
#define H 32
#define SX 4
#define SY 20
#define SW 8
#define SH 4

static const uint8_t bg[4] = { 64, 128, 191, 255 };   /* (0.25, 0.5, 0.75, 1) */
static const uint8_t fg[4] = { 51, 153, 255, 0 };     /* (0.2, 0.6, 1, 0) */

static bool in_scissor(int x, int y)
{
	return x >= SX && x < SX + SW && y >= SY && y < SY + SH;
}

/* Pixels that differ from the oracle; prints the first few. */
static int count_bad_pixels(const uint8_t *px)
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *want = in_scissor(x, y) ? fg : bg;
			const uint8_t *got = px + 4 * (y * W + x);
			if (!memcmp(got, want, 4))
				continue;
			if (bad++ < 4)
				printf("pixel (%d,%d): %u %u %u %u, want %u %u %u %u\n", x, y,
				       got[0], got[1], got[2], got[3],
				       want[0], want[1], want[2], want[3]);
		}
	return bad;
}

int main(int argc, char **argv)
{
	bool require_pixels = !(argc > 1 && !strcmp(argv[1], "--pixels=report"));
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	PFNEGLGETDISPLAYDRIVERNAMEPROC driver_name =
		(PFNEGLGETDISPLAYDRIVERNAMEPROC)eglGetProcAddress("eglGetDisplayDriverName");
	if (!get_display)
		test_skip("libEGL has no eglGetPlatformDisplayEXT");

	EGLDisplay dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLint major = 0, minor = 0;
	CHECK(dpy != EGL_NO_DISPLAY);
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
		printf("eglInitialize failed: 0x%x\n", eglGetError());
		CHECK(0);
		return test_exit();
	}
	const char *drv = driver_name ? driver_name(dpy) : NULL;
	printf("EGL %d.%d, driver %s\n", major, minor, drv ? drv : "(unknown)");
	CHECK_STR(drv, "iris");

	CHECK(eglBindAPI(EGL_OPENGL_ES_API));
	static const EGLint attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
	CHECK(ctx != EGL_NO_CONTEXT);
	if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
		printf("no current GLES2 context: 0x%x\n", eglGetError());
		CHECK(0);
		return test_exit();
	}

	const char *renderer = (const char *)glGetString(GL_RENDERER);
	printf("GL_RENDERER: %s\n", renderer ? renderer : "(null)");
	CHECK_STR(renderer, "Mesa Intel(R) HD Graphics 5500 (BDW GT2)");

	GLuint rb, fb;
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, W, H);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	CHECK_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	glViewport(0, 0, W, H);
	glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_SCISSOR_TEST);
	glScissor(SX, SY, SW, SH);
	glClearColor(0.2f, 0.6f, 1.0f, 0.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glDisable(GL_SCISSOR_TEST);

	static uint8_t px[W * H * 4];
	memset(px, 0xee, sizeof(px));
	glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
	glFinish();
	CHECK_EQ(glGetError(), GL_NO_ERROR);

	int bad = count_bad_pixels(px);
	printf("pixels: %d of %d as cleared%s\n", W * H - bad, W * H,
	       require_pixels ? "" : " (reported, not required)");
	if (require_pixels)
		CHECK_EQ(bad, 0);

	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglTerminate(dpy);
	return test_exit();
}
