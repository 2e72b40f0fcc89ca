/* Depth test, indexed draws and blending on Mesa's iris under `gtsim run`.
 * A 32x32 RGBA8 colour buffer with a 16-bit depth buffer, cleared to grey
 * and depth 1.0; with GL_LESS, three quads drawn with glDrawElements
 * (16-bit indices), each in one uniform colour:
 *   A  x in [-1, 0)    depth 0.75  red
 *   B  x in [-0.5, 1)  depth 0.25  green   (in front of A where they meet)
 *   C  everywhere      depth 0.95  blue    (behind A and B: never seen)
 * then, with the depth test off and blending SRC_ALPHA/ONE_MINUS_SRC_ALPHA,
 * white at alpha 0.5 over the top quarter (y >= 24).
 *
 * Oracle computed here: columns x < 8 red, x >= 8 green (window x of
 * NDC -0.5 is 8), alpha 1; the top rows mixed half and half with white:
 * colour (c + 255) / 2 and alpha 0.5 * 0.5 + 0.5 * 1 = 0.75 (191), within
 * 1 (blending in UNORM8 may round either way). --pixels=report prints but does not require the pixels. */
#include "gl_target.h"

#define W 32
#define H 32

static const char vs_src[] =
	"attribute vec3 pos;\n"
	"void main() { gl_Position = vec4(pos, 1.0); }\n";
static const char fs_src[] =
	"precision mediump float;\n"
	"uniform vec4 u_col;\n"
	"void main() { gl_FragColor = u_col; }\n";

/* An axis-aligned quad from x0 to x1, y0 to y1 at NDC depth z, drawn as two
 * indexed triangles in colour c. */
static void quad(GLint u_col, float x0, float x1, float y0, float y1, float z, const float c[4])
{
	const float v[4][3] = { { x0, y0, z }, { x1, y0, z }, { x0, y1, z }, { x1, y1, z } };
	static const GLushort idx[6] = { 0, 1, 2, 2, 1, 3 };
	glUniform4fv(u_col, 1, c);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, v);
	glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, idx);
}

static int count_bad_pixels(const uint8_t *px)
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint8_t want[4] = { 0, 0, 0, 255 };
			want[x < 8 ? 0 : 1] = 255;
			int tol = 0;
			if (y >= 24) {
				/* rgb: 0.5 * 1 + 0.5 * c; alpha: 0.5 * 0.5 + 0.5 * 1 */
				for (int c = 0; c < 3; c++)
					want[c] = (uint8_t)((want[c] + 255) / 2);
				want[3] = 191;
				tol = 1;
			}
			bad += gl_pixel_bad(x, y, px + 4 * (y * W + x), want, tol);
		}
	return bad;
}

int main(int argc, char **argv)
{
	struct gl_target t;
	if (!gl_target_open(&t, W, H))
		return test_exit();
	GLuint depth;
	glGenRenderbuffers(1, &depth);
	glBindRenderbuffer(GL_RENDERBUFFER, depth);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, W, H);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
	CHECK_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);

	glClearColor(0.5f, 0.5f, 0.5f, 0.5f);
	glClearDepthf(1.0f);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	static const char *const attribs[] = { "pos", NULL };
	GLuint p = gl_program(vs_src, fs_src, attribs);
	glUseProgram(p);
	GLint u_col = glGetUniformLocation(p, "u_col");
	glEnableVertexAttribArray(0);
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_LESS);
	static const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };
	static const float blue[4] = { 0, 0, 1, 1 }, white[4] = { 1, 1, 1, 0.5f };
	quad(u_col, -1.0f, 0.0f, -1, 1, 0.5f, red);     /* depth (z + 1) / 2 = 0.75 */
	quad(u_col, -0.5f, 1.0f, -1, 1, -0.5f, green);  /* 0.25 */
	quad(u_col, -1.0f, 1.0f, -1, 1, 0.9f, blue);    /* 0.95 */
	glDisable(GL_DEPTH_TEST);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	quad(u_col, -1.0f, 1.0f, 0.5f, 1, 0, white);    /* rows 24..31 */
	glDisable(GL_BLEND);

	static uint8_t px[W * H * 4];
	gl_target_read(&t, px);
	gl_pixels_verdict(count_bad_pixels(px), W * H, argc, argv);
	gl_target_close(&t);
	return test_exit();
}
