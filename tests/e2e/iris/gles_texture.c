/* A textured GLES2 draw on Mesa's iris under `gtsim run`: an 8x8 RGBA8
 * texture uploaded with glTexImage2D (GL_NEAREST, GL_CLAMP_TO_EDGE), a
 * quad over the whole 32x32 renderbuffer with texture coordinates (0, 0)
 * at the bottom left and (1, 1) at the top right; iris's fragment shader
 * samples it with a sampler message (SFID 2).
 *
 * Oracle computed here: pixel (x, y) (rows bottom-up, as glReadPixels
 * returns them) has its centre at texture coordinate ((x + 0.5) / 32,
 * (y + 0.5) / 32), so nearest filtering picks texel (x / 4, y / 4), whose
 * bytes (a function of the texel position) the pixel must hold exactly.
 *
 * The pixels are read twice: right after the draw, while the renderbuffer
 * is still busy (iris then copies it with a BLORP blit, which reads it
 * through the sampler), and again after glFinish (iris maps it).
 *
 * Levels 1-3 are uploaded with glTexImage2D before the first draw (level
 * 1 its own values, levels 2 and 3 a flat colour). Then the same texture
 * mapping is drawn into a 4x4 viewport with GL_NEAREST_MIPMAP_NEAREST:
 * a pixel spans 2 texels of level 0, so the LOD is 1 and pixel (x, y) is texel (x, y) of level 1
 * (iris lays the levels out with isl; the sampler finds them with the
 * PRM's layout rules). glGenerateMipmap would make these levels with
 * BLORP blits through the sampler, but their render target writes to a
 * LOD > 0 are not modelled yet. */
#include <stdlib.h>

#include "gl_target.h"

#define W 32
#define H 32
#define TW 8

static const char vs_src[] =
	"attribute vec2 pos;\n"
	"attribute vec2 uv;\n"
	"varying vec2 v_uv;\n"
	"void main() { v_uv = uv; gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char fs_src[] =
	"precision mediump float;\n"
	"uniform sampler2D tex;\n"
	"varying vec2 v_uv;\n"
	"void main() { gl_FragColor = texture2D(tex, v_uv); }\n";

/* Level 1 texel (bx, by): every channel of level 0's block, plus 1. */
static uint8_t level1(int bx, int by, int c)
{
	const int v[4] = { 60 * bx + 8, 60 * by + 12, 200 - 20 * (bx + by), 129 + 30 * bx };
	return (uint8_t)v[c];
}

static uint8_t texel(int x, int y, int c)
{
	return (uint8_t)(level1(x / 2, y / 2, c) - 1 + 2 * ((x ^ y) & 1));
}

/* The 4x4 viewport's pixels (the first 4 of each of the first 4 rows of
 * px, which is W wide). */
static int count_bad_level1(const uint8_t *px)
{
	int bad = 0;
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 4; x++) {
			uint8_t want[4];
			for (int c = 0; c < 4; c++)
				want[c] = level1(x, y, c);
			bad += gl_pixel_bad(x, y, px + 4 * (y * W + x), want, 0);
		}
	return bad;
}

static int count_bad_pixels(const uint8_t *px)
{
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint8_t want[4];
			for (int c = 0; c < 4; c++)
				want[c] = texel(x / 4, y / 4, c);
			bad += gl_pixel_bad(x, y, px + 4 * (y * W + x), want, 0);
		}
	return bad;
}

int main(int argc, char **argv)
{
	struct gl_target t;
	if (!gl_target_open(&t, W, H))
		return test_exit();

	uint8_t img[TW * TW * 4];
	for (int y = 0; y < TW; y++)
		for (int x = 0; x < TW; x++)
			for (int c = 0; c < 4; c++)
				img[4 * (y * TW + x) + c] = texel(x, y, c);
	GLuint tex;
	glGenTextures(1, &tex);
	glActiveTexture(GL_TEXTURE0);
	glBindTexture(GL_TEXTURE_2D, tex);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	/* a mipmap filter first: Mesa then allocates the whole chain with
	 * level 0 and fills the other levels in place */
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, TW, TW, 0, GL_RGBA, GL_UNSIGNED_BYTE, img);
	uint8_t lvl[4 * 4 * 4];
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 4; x++)
			for (int c = 0; c < 4; c++)
				lvl[4 * (y * 4 + x) + c] = level1(x, y, c);
	glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, lvl);
	memset(lvl, 50, sizeof(lvl));
	glTexImage2D(GL_TEXTURE_2D, 2, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, lvl);
	glTexImage2D(GL_TEXTURE_2D, 3, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, lvl);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);

	static const char *const attribs[] = { "pos", "uv", NULL };
	GLuint prog = gl_program(vs_src, fs_src, attribs);
	glUseProgram(prog);
	glUniform1i(glGetUniformLocation(prog, "tex"), 0);
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	static const float uv[4][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } };
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
	glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, uv);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	glClearColor(0.5f, 0.5f, 0.5f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	CHECK_EQ(glGetError(), GL_NO_ERROR);

	uint8_t *px = malloc(W * H * 4);
	/* busy: read back through a BLORP copy */
	memset(px, 0xee, W * H * 4);
	glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
	int bad = count_bad_pixels(px);
	printf("busy read: %d of %d pixels right\n", W * H - bad, W * H);
	/* idle: mapped */
	gl_target_read(&t, px);
	bad += count_bad_pixels(px);

	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
	glClearColor(0.25f, 0.25f, 0.25f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	/* one triangle over the whole scissored 4x4 viewport, so that every
	 * 2x2 subspan is covered (the derivatives do not rely on helper
	 * pixels, which gtsim's PS dispatch does not run) */
	glViewport(0, 0, 4, 4);
	glScissor(0, 0, 4, 4);
	glEnable(GL_SCISSOR_TEST);
	static const float big_pos[3][2] = { { -1, -1 }, { 3, -1 }, { -1, 3 } };
	static const float big_uv[3][2] = { { 0, 0 }, { 2, 0 }, { 0, 2 } };
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, big_pos);
	glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, big_uv);
	glDrawArrays(GL_TRIANGLES, 0, 3);
	CHECK_EQ(glGetError(), GL_NO_ERROR);
	gl_target_read(&t, px);
	int bad1 = count_bad_level1(px);
	printf("mipmap level 1: %d of 16 pixels right\n", 16 - bad1);
	bad += bad1;
	gl_pixels_verdict(bad, 2 * W * H + 16, argc, argv);
	free(px);
	gl_target_close(&t);
	return test_exit();
}
