/* 1D arrays with mips, read with ld, against layouts worked out here: a
 * 10-texel R8G8B8A8_UNORM 1D array of 2 layers and 3 levels (10, 5, 2
 * texels), HALIGN 4, linear, pitch 64 bytes (16 texels a row).
 *  - Gen9 (SKL PRM vol. 5 "1D Surfaces"): the levels side by side in one
 *    row, each rounded up to 64 elements ("1D Alignment Requirements":
 *    64 for Tiled Resource Mode NONE, whatever HALIGN says): x 0, 64,
 *    128; array layers QPitch *pixels* apart: QPitch 192 pixels (the three
 *    aligned levels) = 12 rows of the pitch.
 *  - Gen8: the 2D layout: level 1 below level 0 (1 row rounded up to
 *    VALIGN 4), level 2 right of level 1 (5 -> 8): (0, 0), (0, 4), (8, 4);
 *    layers QPitch 12 rows apart.
 * Texel x of level l, layer L holds (40 l + 10, x, L, 255). */
#include "sampler_fixture.h"

#define BASE 0x8000u
#define PITCH 64u

static void put(struct fixture *f, uint32_t xt, uint32_t row, unsigned l, unsigned x,
		unsigned layer)
{
	uint8_t *p = f->mem + BASE + row * PITCH + xt * 4;
	p[0] = (uint8_t)(40 * l + 10);
	p[1] = (uint8_t)x;
	p[2] = (uint8_t)layer;
	p[3] = 255;
}

/* ld of texel u of level lod, layer (v) on channel 0 (gen9 order u, v,
 * lod; gen8 u, lod, v); checks the texel's values. */
static void ld(struct fixture *f, int gen, unsigned u, unsigned layer, unsigned lod)
{
	eu_thread_init(f->t, 8, 0x01);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 0, u);
	eu_grf_set_ud(f->t, FX_PAYLOAD + 1, 0, gen >= 9 ? layer : lod);
	eu_grf_set_ud(f->t, FX_PAYLOAD + 2, 0, gen >= 9 ? lod : layer);
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_LD, 8), 8, 3, 4, false, 0x01), 0);
	const float want[4] = { (40 * lod + 10) / 255.0f, u / 255.0f, layer / 255.0f, 1.0f };
	for (unsigned c = 0; c < 4; c++)
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 0), want[c]);
}

static void run(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	static const uint32_t w[3] = { 10, 5, 2 };
	static const uint32_t gen9_x[3] = { 0, 64, 128 };
	static const uint32_t gen8_x[3] = { 0, 0, 8 }, gen8_y[3] = { 0, 4, 4 };
	for (unsigned layer = 0; layer < 2; layer++)
		for (unsigned l = 0; l < 3; l++)
			for (unsigned x = 0; x < w[l]; x++) {
				if (gen >= 9) {
					uint32_t px = layer * 192 + gen9_x[l] + x;  /* QPitch pixels */
					put(&f, px % 16, px / 16, l, x, layer);
				} else {
					put(&f, gen8_x[l] + x, layer * 12 + gen8_y[l], l, x, layer);
				}
			}
	struct fx_surf s = { .type = 0, .format = 199, .width = 10, .height = 1, .depth = 2,
			     .array = true, .pitch = PITCH, .tiling = 0,
			     .qpitch = gen >= 9 ? 192 : 12, .mip_count = 2, .base = BASE };
	fx_surface(&f, 0, &s);
	for (unsigned layer = 0; layer < 2; layer++)
		for (unsigned l = 0; l < 3; l++)
			for (unsigned x = 0; x < w[l]; x++)
				ld(&f, gen, x, layer, l);
	fx_fini(&f);
}

int main(void)
{
	run(9);
	run(8);
	return test_exit();
}
