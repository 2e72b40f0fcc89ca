/* Polygon stipple (3DSTATE_WM Polygon Stipple Enable with
 * 3DSTATE_POLY_STIPPLE_PATTERN and _OFFSET), against GL's rule written
 * here: window pixel (x, y) of a polygon is drawn only when bit
 * 31 - (x + X Offset) mod 32 of Pattern Row (y + Y Offset) mod 32 is set
 * (OpenGL 1.x "Polygon Stipple": the pattern's first bit is its leftmost
 * pixel; the rows and offset are those a driver loads for a target whose
 * rows are not flipped). A 40 x 40 target makes the pattern wrap in both
 * directions; the pattern is irregular so that a transposed or mirrored
 * reading fails. Lines are not stippled: a horizontal line under the same
 * state is drawn whole. Polygon Stipple Enable with no pattern ever loaded
 * is a fault. */
#include "backend_fixture.h"
#include "gpu/render/topology.h"
#include "drv/seed_shaders.h"

#define W 40
#define H 40
#define FILL 0x11
#define XOFF 5
#define YOFF 29

static uint32_t row_of(unsigned i)
{
	uint32_t v = 0x9e3779b9u * (i + 1);
	return v ^ (v >> 13) ^ (1u << (i % 32));
}

static void setup(bool pattern)
{
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	REC("3DSTATE_WM", { "Polygon Stipple Enable", 1 });
	if (pattern) {
		uint32_t dw[33] = { 0 };
		const struct cmd_desc *d = cmd_find_name(fx_gen, "3DSTATE_POLY_STIPPLE_PATTERN");
		CHECK(d != NULL && d->length == 33);
		cmd_init(d, dw, 33);
		for (unsigned i = 0; i < 32; i++)
			dw[1 + i] = row_of(i);
		CHECK_EQ(cs_state_record(fx_cs, d, dw, 33), 0);
		REC("3DSTATE_POLY_STIPPLE_OFFSET", { "Polygon Stipple X Offset", XOFF },
		    { "Polygon Stipple Y Offset", YOFF });
	}
	memset(fx_mem + FX_RT, FILL, W * H * 4);
	static const float col[4] = { 1, 1, 1, 1 };
	fx_begin();
	fx_square(0.5f, col);
	/* 4, 5: a horizontal line through the centres of row 20 */
	fx_vertex(4, -1, (20.5f / H) * 2 - 1, 0.5f, 1, col);
	fx_vertex(5, 1, (20.5f / H) * 2 - 1, 0.5f, 1, col);
}

static bool drawn(int x, int y)
{
	return fx_px(W * 4, 4, x, y)[0] == 255;
}

int main(void)
{
	fx_init();
	setup(true);
	CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
	int bad = 0, lit = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			bool want = row_of((unsigned)(y + YOFF) % 32) >> (31 - (unsigned)(x + XOFF) % 32) & 1;
			lit += want;
			if (drawn(x, y) != want && bad++ < 5)
				fprintf(stderr, "pixel %d,%d: drawn %d, the pattern says %d\n", x, y,
					drawn(x, y), want);
		}
	CHECK_EQ(bad, 0);
	CHECK(lit > W * H / 4 && lit < W * H * 3 / 4);
	setup(true);
	CHECK_EQ(fx_draw(PRIM_LINELIST, (const unsigned[]){ 4, 5 }, 1, 2), 0);
	int line = 0;
	for (int x = 0; x < W; x++)
		line += drawn(x, 20);
	CHECK_EQ(line, W);
	setup(false);
	CHECK(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3) != 0);
	CHECK(strstr(fx_last_fault, "3DSTATE_POLY_STIPPLE_PATTERN") != NULL);
	fx_fini();
	return test_exit();
}
