/* Two-sided stencil on Mesa's iris under `gtsim run`: a 32x32 RGBA8 colour
 * buffer with an 8-bit stencil buffer (GL_STENCIL_INDEX8), cleared to
 * black and stencil 0, colour writes off while the stencil is set:
 *   1. a front-facing (counter-clockwise) quad over the left half, stencil
 *      ALWAYS with reference 1, REPLACE;
 *   2. a back-facing (clockwise) quad over the bottom half, the back face's
 *      own ALWAYS with reference 2, REPLACE;
 * then colour writes on:
 *   3. a front-facing full-screen red quad, front stencil EQUAL 1;
 *   4. a back-facing full-screen green quad, back stencil EQUAL 2.
 * The back face's reference is its own state (glStencilFuncSeparate), so
 * this tests both reference values (on gen9 they live in
 * 3DSTATE_WM_DEPTH_STENCIL, on gen8 in COLOR_CALC_STATE).
 *
 * Oracle computed here (glReadPixels rows bottom-up): y < 16 green, else
 * x < 16 red, else black; alpha 255. --pixels=report prints but does not
 * require the pixels. */
#include "gl_target.h"

#define W 32
#define H 32

static const char vs_src[] =
	"attribute vec2 pos;\n"
	"void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char fs_src[] =
	"precision mediump float;\n"
	"uniform vec4 u_col;\n"
	"void main() { gl_FragColor = u_col; }\n";

/* A quad from x0 to x1, y0 to y1 as a strip: counter-clockwise (front
 * facing) unless cw. */
static void quad(float x0, float x1, float y0, float y1, bool cw)
{
	float v[4][2] = { { x0, y0 }, { x1, y0 }, { x0, y1 }, { x1, y1 } };
	if (cw) {
		v[1][0] = x0;
		v[1][1] = y1;
		v[2][0] = x1;
		v[2][1] = y0;
	}
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, v);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

static int count_bad_pixels(const uint8_t *px)
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint8_t want[4] = { 0, 0, 0, 255 };
			if (y < H / 2)
				want[1] = 255;
			else if (x < W / 2)
				want[0] = 255;
			bad += gl_pixel_bad(x, y, px + 4 * (y * W + x), want, 0);
		}
	return bad;
}

int main(int argc, char **argv)
{
	struct gl_target t;
	if (!gl_target_open(&t, W, H))
		return test_exit();
	GLuint sb;
	glGenRenderbuffers(1, &sb);
	glBindRenderbuffer(GL_RENDERBUFFER, sb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_STENCIL_INDEX8, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, sb);
	CHECK_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);

	static const char *const attribs[] = { "pos", NULL };
	GLuint prog = gl_program(vs_src, fs_src, attribs);
	glUseProgram(prog);
	GLint u_col = glGetUniformLocation(prog, "u_col");
	glEnableVertexAttribArray(0);
	glClearColor(0, 0, 0, 1);
	glClearStencil(0);
	glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);

	glEnable(GL_STENCIL_TEST);
	glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
	glStencilFuncSeparate(GL_FRONT, GL_ALWAYS, 1, 0xff);
	glStencilFuncSeparate(GL_BACK, GL_ALWAYS, 2, 0xff);
	glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
	quad(-1, 0, -1, 1, false);            /* left half: 1 */
	quad(-1, 1, -1, 0, true);             /* bottom half: 2 */

	glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
	glStencilFuncSeparate(GL_FRONT, GL_EQUAL, 1, 0xff);
	glStencilFuncSeparate(GL_BACK, GL_EQUAL, 2, 0xff);
	glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
	static const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };
	glUniform4fv(u_col, 1, red);
	quad(-1, 1, -1, 1, false);
	glUniform4fv(u_col, 1, green);
	quad(-1, 1, -1, 1, true);
	glDisable(GL_STENCIL_TEST);
	CHECK_EQ(glGetError(), GL_NO_ERROR);

	static uint8_t px[W * H * 4];
	gl_target_read(&t, px);
	gl_pixels_verdict(count_bad_pixels(px), W * H, argc, argv);
	gl_target_close(&t);
	return test_exit();
}
