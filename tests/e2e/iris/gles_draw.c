/* A GLES2 draw on Mesa's iris under `gtsim run`: iris compiles a vertex
 * and a fragment shader to GEN code that gtsim's EUs execute. Into a 32x32
 * RGBA8 renderbuffer cleared to grey: a quad over the left half drawn
 * with a uniform colour, and a triangle over the right half with one
 * colour per vertex, smoothly interpolated.
 *
 * Oracles computed here: the uniform (0.2, 0.4, 0.6, 1.0) as UNORM8 (51,
 * 102, 153, 255) on every left-half pixel; on the right half, the pixel
 * centres inside the triangle hold the barycentric mix of the vertex
 * colours (GLES's interpolation at pixel centres, within 2/255), pixels
 * clearly outside it keep the clear colour (0.5 -> 128).
 *
 * The clear colour is not 0 or 1: gen8 fast-clears only those, and
 * reading a fast-cleared surface back makes iris copy it with a BLORP
 * blit that samples with the sampler, which gtsim does not model yet. --pixels=report prints but does not
 * require the pixels. */
#include <math.h>
#include <stdlib.h>

#include "gl_target.h"

#define W 32
#define H 32

static const char vs_src[] =
	"attribute vec2 pos;\n"
	"attribute vec4 col;\n"
	"varying vec4 v_col;\n"
	"void main() { v_col = col; gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char fs_src[] =
	"precision mediump float;\n"
	"uniform vec4 u_col;\n"
	"uniform float u_use_uniform;\n"
	"varying vec4 v_col;\n"
	"void main() { gl_FragColor = mix(v_col, u_col, u_use_uniform); }\n";

/* Left half: a quad (two triangles) from x = -1 to 0 in NDC. */
static const float quad[6][2] = { { -1, -1 }, { 0, -1 }, { -1, 1 }, { -1, 1 }, { 0, -1 }, { 0, 1 } };
/* Right half: one triangle, window coordinates (16, 2), (30, 2), (23, 30). */
static const float tri_win[3][2] = { { 16, 2 }, { 30, 2 }, { 23, 30 } };
static const float tri_col[3][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 } };
static const uint8_t uniform_px[4] = { 51, 102, 153, 255 };

/* Barycentric coordinates of (px, py) in the window-space triangle. */
static void barycentric(double px, double py, double b[3])
{
	const float (*v)[2] = tri_win;
	double den = (v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) -
		     (v[2][0] - v[0][0]) * (v[1][1] - v[0][1]);
	b[1] = ((px - v[0][0]) * (v[2][1] - v[0][1]) - (v[2][0] - v[0][0]) * (py - v[0][1])) / den;
	b[2] = ((v[1][0] - v[0][0]) * (py - v[0][1]) - (px - v[0][0]) * (v[1][1] - v[0][1])) / den;
	b[0] = 1 - b[1] - b[2];
}

static int count_bad_pixels(const uint8_t *px)
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *got = px + 4 * (y * W + x);
			uint8_t want[4] = { 128, 128, 128, 128 };
			int tol = 0;
			if (x < W / 2) {
				memcpy(want, uniform_px, 4);
			} else {
				double b[3];
				barycentric(x + 0.5, y + 0.5, b);
				double m = fmin(b[0], fmin(b[1], b[2]));
				if (fabs(m) < 0.05)
					continue;        /* on an edge: either is right */
				if (m > 0) {
					for (int c = 0; c < 4; c++) {
						double v = 0;
						for (int k = 0; k < 3; k++)
							v += b[k] * tri_col[k][c];
						want[c] = (uint8_t)lrint(v * 255);
					}
					tol = 2;
				}
			}
			bad += gl_pixel_bad(x, y, got, want, tol);
		}
	return bad;
}

int main(int argc, char **argv)
{
	struct gl_target t;
	if (!gl_target_open(&t, W, H))
		return test_exit();
	printf("GL_RENDERER: %s\n", (const char *)glGetString(GL_RENDERER));
	glClearColor(0.5f, 0.5f, 0.5f, 0.5f);
	glClear(GL_COLOR_BUFFER_BIT);

	static const char *const attribs[] = { "pos", "col", NULL };
	GLuint prog = gl_program(vs_src, fs_src, attribs);
	glUseProgram(prog);
	glUniform4f(glGetUniformLocation(prog, "u_col"), 0.2f, 0.4f, 0.6f, 1.0f);
	GLint use_uniform = glGetUniformLocation(prog, "u_use_uniform");

	glEnableVertexAttribArray(0);
	glUniform1f(use_uniform, 1.0f);
	glVertexAttrib4f(1, 0, 0, 0, 0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glDrawArrays(GL_TRIANGLES, 0, 6);

	float tri_ndc[3][2];
	for (int i = 0; i < 3; i++) {
		tri_ndc[i][0] = tri_win[i][0] / W * 2 - 1;
		tri_ndc[i][1] = tri_win[i][1] / H * 2 - 1;
	}
	glUniform1f(use_uniform, 0.0f);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri_ndc);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, tri_col);
	glDrawArrays(GL_TRIANGLES, 0, 3);

	static uint8_t px[W * H * 4];
	gl_target_read(&t, px);
	gl_pixels_verdict(count_bad_pixels(px), W * H, argc, argv);

	gl_target_close(&t);
	return test_exit();
}
