/* Compressed textures through the sampler: a 16x8 BC1 2D array of 2
 * layers and 3 levels (16x8, 8x4, 4x2 texels: 4x2, 2x1, 1x1 blocks of 4x4
 * texels, 8 bytes each), linear, pitch 64 bytes (8 blocks a row), laid out
 * in blocks (PRM vol. 5 "Surface Layout": "an element is ... a compression
 * block in compressed surface formats"), positions worked out here:
 *  - Gen8: HALIGN/VALIGN 4 count pixels, one block: level 0 at block (0, 0),
 *    level 1 below it at (0, 2), level 2 right of level 1 at (2, 2);
 *    QPitch in rows of the uncompressed surface: 24 rows = 6 block rows.
 *  - Gen9: HALIGN/VALIGN 4 count blocks: level 0 (4x2 blocks rounded to
 *    4x4) at (0, 0), level 1 at (0, 4), level 2 at (4, 4) (level 1's 2
 *    blocks rounded to 4); QPitch 8 block rows.
 * Every block is one solid colour (c0 == c1, indices 0): R5 = 8 level +
 * block x, G6 = 8 layer + 4 block y + 1, B5 = 31. */
#include "sampler_fixture.h"

#define BASE 0x8000u
#define PITCH 64u

static uint16_t colour(unsigned layer, unsigned l, unsigned bx, unsigned by)
{
	return (uint16_t)((8 * l + bx) << 11 | (8 * layer + 4 * by + 1) << 5 | 31);
}

static void put_block(struct fixture *f, unsigned row, unsigned col, uint16_t c)
{
	uint8_t *p = f->mem + BASE + row * PITCH + col * 8;
	p[0] = p[2] = (uint8_t)c;
	p[1] = p[3] = (uint8_t)(c >> 8);
	p[4] = p[5] = p[6] = p[7] = 0;
}

static void expect(struct fixture *f, unsigned ch, uint16_t c)
{
	CHECK_NEAR(fx_get_f(f, FX_RESP + 0, ch), (c >> 11) / 31.0);
	CHECK_NEAR(fx_get_f(f, FX_RESP + 1, ch), (c >> 5 & 63) / 63.0);
	CHECK_NEAR(fx_get_f(f, FX_RESP + 2, ch), 1.0);
	CHECK_NEAR(fx_get_f(f, FX_RESP + 3, ch), 1.0);
}

static void ld(struct fixture *f, int gen, unsigned x, unsigned y, unsigned layer, unsigned lod)
{
	eu_thread_init(f->t, 8, 0x01);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 0, x);
	eu_grf_set_ud(f->t, FX_PAYLOAD + 1, 0, gen >= 9 ? y : lod);
	eu_grf_set_ud(f->t, FX_PAYLOAD + 2, 0, gen >= 9 ? lod : y);
	eu_grf_set_ud(f->t, FX_PAYLOAD + 3, 0, layer);
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_LD, 8), 8, 4, 4, false, 0x01), 0);
	expect(f, 0, colour(layer, lod, x / 4, y / 4));
}

static void run(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	static const unsigned bw[3] = { 4, 2, 1 }, bh[3] = { 2, 1, 1 };
	static const unsigned gen8_x[3] = { 0, 0, 2 }, gen8_y[3] = { 0, 2, 2 };
	static const unsigned gen9_x[3] = { 0, 0, 4 }, gen9_y[3] = { 0, 4, 4 };
	unsigned qpitch_blocks = gen >= 9 ? 8 : 6;
	for (unsigned layer = 0; layer < 2; layer++)
		for (unsigned l = 0; l < 3; l++)
			for (unsigned by = 0; by < bh[l]; by++)
				for (unsigned bx = 0; bx < bw[l]; bx++)
					put_block(&f, layer * qpitch_blocks + by +
						  (gen >= 9 ? gen9_y[l] : gen8_y[l]),
						  bx + (gen >= 9 ? gen9_x[l] : gen8_x[l]),
						  colour(layer, l, bx, by));
	struct fx_surf s = { .type = 1, .format = 390 /* BC1_UNORM */, .width = 16, .height = 8,
			     .depth = 2, .array = true, .pitch = PITCH,
			     .qpitch = gen >= 9 ? 8 : 24, .mip_count = 2, .base = BASE };
	fx_surface(&f, 0, &s);
	static const unsigned w[3] = { 16, 8, 4 }, h[3] = { 8, 4, 2 };
	for (unsigned layer = 0; layer < 2; layer++)
		for (unsigned l = 0; l < 3; l++)
			for (unsigned y = 0; y < h[l]; y++)
				for (unsigned x = 0; x < w[l]; x++)
					ld(&f, gen, x, y, layer, l);
	/* bilinear at LOD 0 across the edge of blocks (0, 0) and (1, 0):
	 * u = 4/16 weighs texels 3 and 4 by 1/2, v = 1.5/8 hits row 1 */
	struct fx_samp smp = { .min = 1, .mag = 1, .mip = 0, .wrap_x = 2, .wrap_y = 2,
			       .wrap_z = 2, .max_lod = 14 };
	fx_sampler(&f, 0, &smp);
	eu_thread_init(f.t, 8, 0x01);
	fx_set_f(&f, FX_PAYLOAD, 0, 0.0f);          /* lod */
	fx_set_f(&f, FX_PAYLOAD + 1, 0, 4 / 16.0f);
	fx_set_f(&f, FX_PAYLOAD + 2, 0, 1.5f / 8);
	fx_set_f(&f, FX_PAYLOAD + 3, 0, 1.0f);      /* layer 1 */
	CHECK_EQ(fx_send(&f, fx_desc(0, 0, SMP_SAMPLE_L, 8), 8, 4, 4, false, 0x01), 0);
	uint16_t a = colour(1, 0, 0, 0), b = colour(1, 0, 1, 0);
	CHECK_NEAR(fx_get_f(&f, FX_RESP + 0, 0), ((a >> 11) + (b >> 11)) / 62.0);
	CHECK_NEAR(fx_get_f(&f, FX_RESP + 1, 0), (a >> 5 & 63) / 63.0);
	fx_fini(&f);
}

/* A compressed buffer or 1D surface faults (no such layouts). */
static void faults(void)
{
	struct fixture f;
	fx_init(&f, 9);
	struct fx_surf s = { .type = 0, .format = 390 /* BC1_UNORM */, .width = 16, .height = 1,
			     .pitch = PITCH, .base = BASE };
	fx_surface(&f, 0, &s);
	eu_thread_init(f.t, 8, 0x01);
	CHECK_EQ(fx_send(&f, fx_desc(0, 0, SMP_LD, 8), 8, 3, 4, false, 0x01), -1);
	CHECK(strstr(f.t->fault, "compressed") != NULL);
	fx_fini(&f);
}

int main(void)
{
	run(8);
	run(9);
	faults();
	return test_exit();
}
