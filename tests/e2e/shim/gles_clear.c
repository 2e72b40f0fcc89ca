/* A GLES2 program on Mesa's iris, run under `gtsim run`: a surfaceless EGL
 * context, GL_RENDERER, a 16x16 framebuffer cleared to a colour and read
 * back. Oracles: the renderer string Mesa builds for PCI 0x1616 ("Mesa
 * Intel(R) HD Graphics 5500 (BDW GT2)") and the clear colour (0.25, 0.5,
 * 0.75, 1.0) as UNORM8 bytes 64, 128, 191, 255 (round to nearest). Pixels
 * are reported but not required until the 3D pipeline exists. EGL and GLES
 * are opened with dlopen, so the test builds without their -dev packages. */
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include "test.h"

#define SYM(lib, name) __typeof__(&name) p_##name = (__typeof__(&name))dlsym(lib, #name)

int main(void)
{
	void *egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
	void *gles = dlopen("libGLESv2.so.2", RTLD_NOW | RTLD_GLOBAL);
	if (!egl || !gles)
		test_skip("libEGL.so.1 / libGLESv2.so.2 not installed");

	SYM(egl, eglGetProcAddress);
	SYM(egl, eglInitialize);
	SYM(egl, eglBindAPI);
	SYM(egl, eglCreateContext);
	SYM(egl, eglMakeCurrent);
	SYM(egl, eglDestroyContext);
	SYM(egl, eglTerminate);
	SYM(gles, glGetString);
	SYM(gles, glGetError);
	SYM(gles, glGenRenderbuffers);
	SYM(gles, glBindRenderbuffer);
	SYM(gles, glRenderbufferStorage);
	SYM(gles, glGenFramebuffers);
	SYM(gles, glBindFramebuffer);
	SYM(gles, glFramebufferRenderbuffer);
	SYM(gles, glCheckFramebufferStatus);
	SYM(gles, glViewport);
	SYM(gles, glClearColor);
	SYM(gles, glClear);
	SYM(gles, glReadPixels);
	SYM(gles, glFinish);
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)p_eglGetProcAddress("eglGetPlatformDisplayEXT");
	CHECK(get_display != NULL);
	if (!get_display)
		return test_exit();

	EGLDisplay dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLint major = 0, minor = 0;
	CHECK(dpy != EGL_NO_DISPLAY);
	CHECK(p_eglInitialize(dpy, &major, &minor));
	CHECK(p_eglBindAPI(EGL_OPENGL_ES_API));
	static const EGLint attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	EGLContext ctx = p_eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
	CHECK(ctx != EGL_NO_CONTEXT);
	if (ctx == EGL_NO_CONTEXT)
		return test_exit();
	CHECK(p_eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));

	const char *renderer = (const char *)p_glGetString(GL_RENDERER);
	printf("GL_RENDERER: %s\n", renderer ? renderer : "(null)");
	CHECK_STR(renderer, "Mesa Intel(R) HD Graphics 5500 (BDW GT2)");

	GLuint rb, fb;
	p_glGenRenderbuffers(1, &rb);
	p_glBindRenderbuffer(GL_RENDERBUFFER, rb);
	p_glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, 16, 16);
	p_glGenFramebuffers(1, &fb);
	p_glBindFramebuffer(GL_FRAMEBUFFER, fb);
	p_glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	CHECK_EQ(p_glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	p_glViewport(0, 0, 16, 16);
	p_glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
	p_glClear(GL_COLOR_BUFFER_BIT);
	uint8_t px[16 * 16 * 4];
	memset(px, 0, sizeof(px));
	p_glReadPixels(0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, px);
	p_glFinish();
	CHECK_EQ(p_glGetError(), GL_NO_ERROR);
	int good = 0;
	for (int i = 0; i < 16 * 16; i++)
		good += px[4 * i] == 64 && px[4 * i + 1] == 128 && px[4 * i + 2] == 191 &&
			px[4 * i + 3] == 255;
	printf("pixels with the clear colour: %d of 256 (not required until the 3D "
	       "pipeline exists)\n", good);

	p_eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	p_eglDestroyContext(dpy, ctx);
	p_eglTerminate(dpy);
	return test_exit();
}
