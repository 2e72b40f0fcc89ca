/* Multisampled lines on Mesa's iris under `gtsim run`, pixel by pixel
 * against a CPU oracle of GL's rule (GL ES 3.2 section 13.7.4 / GL 4.6
 * core section 14.5.4 "Line Multisample Rasterization"): a line is the
 * rectangle of its width centred on the segment, its ends through the end
 * points and perpendicular to it; a sample is lit when its position lies
 * inside. Seven white lines (horizontal, vertical, diagonal both ways,
 * shallow and sloped; widths 1, 2.5, 3 and 4, which iris passes unrounded
 * under multisampling) on black, drawn into a 4x and an 8x MSAA
 * RGBA8 renderbuffer, resolved with glBlitFramebuffer and read back.
 *
 * Oracle: the standard 4x/8x positions (D3D's; Mesa's intel_sample_positions.h)
 * in 1/16 pixel from the pixel's corner, y = row (iris draws user
 * framebuffers unflipped); the resolved pixel is k / n for k of the n
 * samples lit, tolerance 1/255 (the resolve may round a tie either way).
 * The lines keep every sample 1/64 pixel from their edges (checked), so
 * the rasterizer's 1/256 pixel snapping decides none. Before gtsim drew
 * the rectangle, 256 pixels (4x) and 319 (8x) differed; Mesa's llvmpipe
 * (4x, LIBGL_ALWAYS_SOFTWARE=1) matches the oracle at every pixel. */
#include <math.h>
#include <stdio.h>

#include "gl_target.h"
#include <GLES3/gl3.h>

#define SIZE 64
#define MARGIN (1.0 / 64)

static const uint8_t pos4[4][2] = { { 6, 2 }, { 14, 6 }, { 2, 10 }, { 10, 14 } };
static const uint8_t pos8[8][2] = { { 9, 5 }, { 7, 11 }, { 13, 9 }, { 5, 3 },
				    { 3, 13 }, { 1, 7 }, { 11, 15 }, { 15, 1 } };

/* window coordinates (pixels, y = row) of the ends, and the width */
static const float lines[][5] = {
	{ 3.5f, 5.5f, 60.5f, 5.5f, 1 },          /* horizontal */
	{ 10.25f, 10.5f, 10.25f, 60.5f, 2.5f },  /* vertical */
	{ 14.9f, 12.4f, 59.8f, 57.3f, 4 },       /* diagonal, 45 degrees */
	{ 44.5f, 62.5f, 59.5f, 47.5f, 1 },       /* diagonal up-right */
	{ 1.9f, 20.0f, 62.5f, 30.1f, 1 },        /* shallow */
	{ 61.6f, 50.7f, 15.4f, 35.3f, 2.5f },    /* shallow, right to left */
	{ 31.1f, 3.1f, 58.4f, 21.3f, 3 },        /* sloped */
};
#define NLINES (sizeof(lines) / sizeof(lines[0]))

/* Whether (px, py) lies inside line l's rectangle; *near: within MARGIN
 * of one of its edges. */
static bool in_line(const float *l, double px, double py, bool *near)
{
	double dx = l[2] - l[0], dy = l[3] - l[1], len = hypot(dx, dy), h = l[4] / 2.0;
	double along = ((px - l[0]) * dx + (py - l[1]) * dy) / len;
	double across = fabs((px - l[0]) * dy - (py - l[1]) * dx) / len;
	*near = (along > -MARGIN && along < len + MARGIN && fabs(across - h) < MARGIN) ||
		(across < h + MARGIN && (fabs(along) < MARGIN || fabs(along - len) < MARGIN));
	return along > 0 && along < len && across < h;
}

static GLuint framebuffer(int samples)
{
	GLuint rb, fb;
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	if (samples)
		glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, SIZE, SIZE);
	else
		glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SIZE, SIZE);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	CHECK_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	return fb;
}

static void test_samples(GLuint prog, int n, const uint8_t (*pos)[2])
{
	GLuint ms = framebuffer(n), resolved = framebuffer(0);
	glBindFramebuffer(GL_FRAMEBUFFER, ms);
	GLint got = 0;
	glGetIntegerv(GL_SAMPLES, &got);
	CHECK_EQ(got, n);
	glViewport(0, 0, SIZE, SIZE);
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(prog);
	glEnableVertexAttribArray(0);
	for (unsigned i = 0; i < NLINES; i++) {
		const float *l = lines[i];
		float v[4] = { l[0] / (SIZE / 2.0f) - 1, l[1] / (SIZE / 2.0f) - 1,
			       l[2] / (SIZE / 2.0f) - 1, l[3] / (SIZE / 2.0f) - 1 };
		glLineWidth(l[4]);
		glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, v);
		glDrawArrays(GL_LINES, 0, 2);
	}
	glBindFramebuffer(GL_READ_FRAMEBUFFER, ms);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolved);
	glBlitFramebuffer(0, 0, SIZE, SIZE, 0, 0, SIZE, SIZE, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	glBindFramebuffer(GL_READ_FRAMEBUFFER, resolved);
	static uint8_t px[SIZE][SIZE][4];
	glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, px);
	CHECK_EQ(glGetError(), GL_NO_ERROR);

	int bad = 0, near = 0, lit = 0;
	for (int y = 0; y < SIZE; y++)
		for (int x = 0; x < SIZE; x++) {
			int k = 0;
			for (int s = 0; s < n; s++) {
				bool in = false;
				for (unsigned i = 0; i < NLINES; i++) {
					bool close;
					in |= in_line(lines[i], x + pos[s][0] / 16.0, y + pos[s][1] / 16.0,
						      &close);
					near += close;
				}
				k += in;
			}
			lit += k > 0;
			double want = 255.0 * k / n;
			if (fabs(px[y][x][0] - want) > 1 && bad++ < 8)
				printf("%dx: pixel (%d,%d) %u, want %.2f (%d of %d samples)\n", n, x, y,
				       px[y][x][0], want, k, n);
		}
	printf("%dx: %d lit pixels, %d differ from the oracle\n", n, lit, bad);
	CHECK_EQ(near, 0);
	CHECK(lit > 0);
	CHECK_EQ(bad, 0);
}

int main(void)
{
	struct gl_target t;
	if (!gl_target_open(&t, SIZE, SIZE))
		return test_exit();
	static const char *const attribs[] = { "p", NULL };
	GLuint prog = gl_program("#version 300 es\n"
				 "in vec2 p;\n"
				 "void main() { gl_Position = vec4(p, 0.0, 1.0); }\n",
				 "#version 300 es\n"
				 "precision mediump float;\n"
				 "out vec4 c;\n"
				 "void main() { c = vec4(1.0); }\n", attribs);
	GLfloat range[2] = { 0, 0 };
	glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, range);
	CHECK(range[1] >= 4);
	test_samples(prog, 4, pos4);
	test_samples(prog, 8, pos8);
	gl_target_close(&t);
	return test_exit();
}
