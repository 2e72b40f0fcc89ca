/* A GLES2 program of the kind Mesa's iris runs everywhere, meant to be run
 * under `gtsim run` (tests/e2e/iris/run_iris.py): a surfaceless EGL
 * display (Mesa's loader picks the DRM render node), a configless GLES2
 * context, a 32x32 RGBA8 renderbuffer in a framebuffer object cleared to
 * one colour, then a scissored clear of a 8x4 rectangle at (4, 20) to a
 * second colour, read back with glReadPixels.
 *
 * Oracles, all computed here: the EGL driver name "iris" and the renderer
 * string Mesa builds for PCI 0x1616 ("Mesa Intel(R) HD Graphics 5500 (BDW
 * GT2)") or, with GTSIM_DEVICE=skl, PCI 0x1912 ("Mesa Intel(R) HD Graphics
 * 530 (SKL GT2)"); GLES's UNORM8 conversion of the clear colours (round to nearest:
 * 0.25 -> 64, 0.5 -> 128, 0.75 -> 191; 0.2 -> 51, 0.6 -> 153); glReadPixels
 * returns rows bottom-up from (0, 0), so the scissor box (x 4..11, y
 * 20..23) is where the second colour must be. With --pixels=report the
 * pixels are printed but not required (for a pipeline that cannot draw
 * them yet); the default requires them. */
#include "gl_target.h"

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
			bad += gl_pixel_bad(x, y, px + 4 * (y * W + x), want, 0);
		}
	return bad;
}

int main(int argc, char **argv)
{
	struct gl_target t;
	if (!gl_target_open(&t, W, H))
		return test_exit();
	PFNEGLGETDISPLAYDRIVERNAMEPROC driver_name =
		(PFNEGLGETDISPLAYDRIVERNAMEPROC)eglGetProcAddress("eglGetDisplayDriverName");
	const char *drv = driver_name ? driver_name(t.dpy) : NULL;
	printf("EGL driver: %s\n", drv ? drv : "(unknown)");
	CHECK_STR(drv, "iris");
	const char *renderer = (const char *)glGetString(GL_RENDERER);
	printf("GL_RENDERER: %s\n", renderer ? renderer : "(null)");
	const char *dev = getenv("GTSIM_DEVICE");
	CHECK_STR(renderer, dev && !strcmp(dev, "skl") ? "Mesa Intel(R) HD Graphics 530 (SKL GT2)" :
		  "Mesa Intel(R) HD Graphics 5500 (BDW GT2)");

	glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_SCISSOR_TEST);
	glScissor(SX, SY, SW, SH);
	glClearColor(0.2f, 0.6f, 1.0f, 0.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	glDisable(GL_SCISSOR_TEST);

	static uint8_t px[W * H * 4];
	gl_target_read(&t, px);
	gl_pixels_verdict(count_bad_pixels(px), W * H, argc, argv);
	gl_target_close(&t);
	return test_exit();
}
