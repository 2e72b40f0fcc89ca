/* An OpenGL 4.3 core context on EGL's surfaceless platform, current, for
 * the benches that run GL programs (bench_gl, bench_compute). */
#ifndef GTSIM_BENCH_GL43_H
#define GTSIM_BENCH_GL43_H

#include <EGL/egl.h>
#include <EGL/eglext.h>

/* 0, or 77 (the child's skip status) when there is no such context. */
static inline int bench_gl43_context(void)
{
	EGLDisplay d = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (!d || !eglInitialize(d, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API))
		return 77;
	const EGLint cattr[] = { EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
				 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
				 EGL_NONE };
	EGLContext c = eglCreateContext(d, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, cattr);
	if (c == EGL_NO_CONTEXT || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c))
		return 77;
	return 0;
}

#endif
