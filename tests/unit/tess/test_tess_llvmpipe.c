/* The tessellator against an independent implementation: Mesa's llvmpipe
 * (its draw module's tessellator, a port of the D3D11 reference that GL
 * tessellation is defined to match) tessellates one patch per case, with a
 * tessellation evaluation shader whose gl_TessCoord is captured by
 * transform feedback; te_tessellate() must give the same primitives with
 * the same domain coordinates, in the same order.
 *
 * Every domain (triangles, quads, isolines) x spacing (equal,
 * fractional_odd, fractional_even) x output (cw, ccw, point_mode) on a grid
 * of inner/outer levels (integers, fractions, values past the clamps,
 * all-ones, and culling levels <= 0). GL's levels are the TE's factors in
 * the same order (struct te_factors); GL's ccw is the TE's TRI_CW (the
 * hardware's winding is backwards from GL's: Mesa's brw_compile_tes maps
 * ccw to BRW_TESS_OUTPUT_TOPOLOGY_TRI_CW), point_mode is POINT and
 * isolines are LINE.
 *
 * Runs llvmpipe through EGL surfaceless (LIBGL_ALWAYS_SOFTWARE=1); skips
 * when no GL 4 core context is available. */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu/render/te_tessellator.h"
#include "test.h"

#define MAX_FLOATS (3 * TE_MAX_INDICES * 3)

static const char vs_src[] = "#version 400 core\nvoid main() { gl_Position = vec4(0.0); }\n";
static const char tcs_src[] =
	"#version 400 core\n"
	"layout(vertices = 1) out;\n"
	"uniform float outer[4];\n"
	"uniform float inner[2];\n"
	"void main() {\n"
	"  for (int i = 0; i < 4; i++) gl_TessLevelOuter[i] = outer[i];\n"
	"  gl_TessLevelInner[0] = inner[0]; gl_TessLevelInner[1] = inner[1];\n"
	"  gl_out[gl_InvocationID].gl_Position = vec4(0.0);\n"
	"}\n";

static GLuint shader(GLenum type, const char *src)
{
	GLuint s = glCreateShader(type);
	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	GLint ok = 0;
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[1024];
		glGetShaderInfoLog(s, sizeof(log), NULL, log);
		fprintf(stderr, "shader does not compile: %s\n%s\n", log, src);
		exit(1);
	}
	return s;
}

static const char *const domain_gl[] = { "quads", "triangles", "isolines" };
static const char *const spacing_gl[] = { "equal_spacing", "fractional_odd_spacing",
					  "fractional_even_spacing" };

/* The program for one domain, spacing and output (0 cw, 1 ccw, 2 points). */
static GLuint program(enum te_domain d, enum te_partitioning p, int out)
{
	char tes[512];
	snprintf(tes, sizeof(tes),
		 "#version 400 core\n"
		 "layout(%s, %s%s%s) in;\n"
		 "out vec3 tc;\n"
		 "void main() { tc = gl_TessCoord; gl_Position = vec4(0.0); }\n",
		 domain_gl[d], spacing_gl[p],
		 d == TE_DOMAIN_ISOLINE ? "" : out == 0 ? ", cw" : out == 1 ? ", ccw" : "",
		 out == 2 ? ", point_mode" : "");
	GLuint prog = glCreateProgram();
	glAttachShader(prog, shader(GL_VERTEX_SHADER, vs_src));
	glAttachShader(prog, shader(GL_TESS_CONTROL_SHADER, tcs_src));
	glAttachShader(prog, shader(GL_TESS_EVALUATION_SHADER, tes));
	const char *varyings[] = { "tc" };
	glTransformFeedbackVaryings(prog, 1, varyings, GL_INTERLEAVED_ATTRIBS);
	glLinkProgram(prog);
	GLint ok = 0;
	glGetProgramiv(prog, GL_LINK_STATUS, &ok);
	if (!ok) {
		fprintf(stderr, "program does not link:\n%s\n", tes);
		exit(1);
	}
	return prog;
}

static float captured[MAX_FLOATS];
static struct te_output te;
static int cases, mismatched_cases;
static unsigned long vertices;

/* One patch on llvmpipe: returns the vertices captured (3 floats each). */
static unsigned llvmpipe_patch(GLuint prog, GLenum xfb_mode, const struct te_factors *f)
{
	glUseProgram(prog);
	glUniform1fv(glGetUniformLocation(prog, "outer"), 4, f->outer);
	glUniform1fv(glGetUniformLocation(prog, "inner"), 2, f->inner);
	GLuint q;
	glGenQueries(1, &q);
	glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q);
	glBeginTransformFeedback(xfb_mode);
	glDrawArrays(GL_PATCHES, 0, 1);
	glEndTransformFeedback();
	glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
	GLuint prims = 0;
	GLenum err = glGetError();
	if (err != GL_NO_ERROR)
		fprintf(stderr, "GL error 0x%x\n", err);
	glGetQueryObjectuiv(q, GL_QUERY_RESULT, &prims);
	glDeleteQueries(1, &q);
	unsigned per = xfb_mode == GL_POINTS ? 1 : xfb_mode == GL_LINES ? 2 : 3;
	unsigned n = prims * per;
	if (n * 3 > MAX_FLOATS)
		n = MAX_FLOATS / 3;
	glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, n * 3 * sizeof(float), captured);
	return n;
}

static bool same(float a, float b) { return fabsf(a - b) <= 1e-6f; }

static void check_case(enum te_domain d, enum te_partitioning p, int out, GLuint prog,
		       const struct te_factors *f)
{
	static const enum te_topology topo_of[3] = { TE_TOPO_TRI_CCW, TE_TOPO_TRI_CW, TE_TOPO_POINT };
	enum te_topology topo = d == TE_DOMAIN_ISOLINE && out != 2 ? TE_TOPO_LINE : topo_of[out];
	GLenum mode = out == 2 ? GL_POINTS : d == TE_DOMAIN_ISOLINE ? GL_LINES : GL_TRIANGLES;
	unsigned n = llvmpipe_patch(prog, mode, f);
	te_tessellate(d, p, topo, f, &te);
	unsigned want = te.npoints ? te.nindices : 0;
	if (topo == TE_TOPO_POINT)
		want = te.npoints;
	cases++;
	vertices += n;
	bool ok = n == want;
	unsigned bad = 0;
	for (unsigned i = 0; ok && i < n; i++) {
		unsigned k = topo == TE_TOPO_POINT ? i : te.index[i];
		if (!same(captured[3 * i], te.u[k]) || !same(captured[3 * i + 1], te.v[k])) {
			ok = false;
			bad = i;
		}
	}
	if (!ok) {
		mismatched_cases++;
		if (mismatched_cases <= 12) {
			fprintf(stderr,
				"%s %s %s outer (%g %g %g %g) inner (%g %g): llvmpipe %u vertices, "
				"te %u", domain_gl[d], spacing_gl[p],
				out == 2 ? "points" : out ? "ccw" : "cw", f->outer[0], f->outer[1],
				f->outer[2], f->outer[3], f->inner[0], f->inner[1], n, want);
			if (n == want) {
				unsigned k = topo == TE_TOPO_POINT ? bad : te.index[bad];
				fprintf(stderr, "; vertex %u: llvmpipe (%.7g, %.7g), te (%.7g, %.7g)",
					bad, captured[3 * bad], captured[3 * bad + 1], te.u[k], te.v[k]);
			}
			fprintf(stderr, "\n");
		}
	}
}

/* Levels: a spread of integers and fractions, values past the clamps, and
 * 1 (the all-ones and picture-frame rules). Culling levels are separate. */
static const float levels[] = { 1.0f, 1.3f, 2.0f, 2.5f, 3.0f, 4.7f, 5.0f, 6.2f, 8.0f, 13.9f, 31.5f, 64.0f, 70.0f };
#define NLEVELS (sizeof(levels) / sizeof(levels[0]))

static float pick(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return levels[(*seed >> 16) % NLEVELS];
}

int main(void)
{
	setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
	setenv("GALLIUM_DRIVER", "llvmpipe", 1);
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API))
		test_skip("no surfaceless EGL display");
	const EGLint attr[] = { EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 0,
				EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
				EGL_NONE };
	EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attr);
	if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
		test_skip("no OpenGL 4.0 core context on llvmpipe");
	const char *renderer = (const char *)glGetString(GL_RENDERER);
	printf("oracle: %s\n", renderer ? renderer : "?");
	if (!renderer || !strstr(renderer, "llvmpipe"))
		test_skip("the software GL driver is not llvmpipe");

	/* a framebuffer to draw into (surfaceless EGL has none), though
	 * rasterization is discarded */
	GLuint fbo, rb;
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	GLuint vao, buf;
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(1, &buf);
	glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
	glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, sizeof(captured), NULL, GL_STREAM_READ);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf);
	glEnable(GL_RASTERIZER_DISCARD);
	glPatchParameteri(GL_PATCH_VERTICES, 1);

	for (int d = TE_DOMAIN_QUAD; d <= TE_DOMAIN_ISOLINE; d++) {
		for (int p = TE_PART_INTEGER; p <= TE_PART_EVEN_FRACTIONAL; p++) {
			for (int out = 0; out < 3; out++) {
				if (d == TE_DOMAIN_ISOLINE && out == 1)
					continue; /* no winding for lines */
				GLuint prog = program(d, p, out);
				unsigned seed = 1u + (unsigned)(d * 9 + p * 3 + out);
				/* the same level everywhere, for each level */
				for (unsigned i = 0; i < NLEVELS; i++) {
					float l = levels[i];
					struct te_factors f = { { l, l, l, l }, { l, l } };
					check_case(d, p, out, prog, &f);
				}
				/* mixed levels */
				for (int i = 0; i < 40; i++) {
					struct te_factors f;
					for (int k = 0; k < 4; k++)
						f.outer[k] = pick(&seed);
					f.inner[0] = pick(&seed);
					f.inner[1] = pick(&seed);
					check_case(d, p, out, prog, &f);
				}
				/* inner 1 with larger outer levels; culling */
				struct te_factors frame = { { 4, 3, 5, 2 }, { 1, 1 } };
				check_case(d, p, out, prog, &frame);
				struct te_factors cull = { { 3, 0, 3, 3 }, { 3, 3 } };
				check_case(d, p, out, prog, &cull);
				struct te_factors neg = { { 3, 3, 3, -1 }, { 3, 3 } };
				check_case(d, p, out, prog, &neg);
				glDeleteProgram(prog);
			}
		}
	}
	printf("%d patches (%lu vertices), %d differ from llvmpipe\n", cases, vertices,
	       mismatched_cases);
	CHECK(vertices > 100000);  /* the oracle really drew */
	CHECK_EQ(mismatched_cases, 0);
	CHECK(glGetError() == GL_NO_ERROR);
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglTerminate(dpy);
	return test_exit();
}
