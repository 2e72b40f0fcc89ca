/* Mip levels, LOD selection and integer messages against values computed
 * here: an 8x8 X-tiled R8G8B8A8_UNORM texture with 4 levels laid out as
 * the PRM's 2D surface layout says (level 1 below level 0, level 2 right
 * of level 1, level 3 below level 2, 4x4 alignment), written with the
 * PRM's X-tile formula; sample_l with mip nearest/linear, LOD clamps,
 * Surface Min LOD, implicit LOD from 2x2 subspans (and sample_b), resinfo,
 * ld in and out of bounds (Gen8 and Gen9 parameter orders, ld_lz), and a
 * Y-tiled 2D array (QPitch, layer rounding and clamping, Minimum Array
 * Element). */
#include "sampler_fixture.h"

#define MIP_BASE 0x8000u      /* X-tiled: 512-byte pitch, 16 rows = 2 tiles */
#define ARR_BASE 0xc000u      /* Y-tiled: 128-byte pitch, 12 rows */

static const unsigned lvl_x[4] = { 0, 0, 4, 4 }, lvl_y[4] = { 0, 8, 8, 12 };

/* PRM vol. 5 "X-Major Tile": 512 B x 8 rows per 4 KiB tile, row-major. */
static uint32_t xtile(uint32_t xb, uint32_t y, uint32_t pitch)
{
	return (y / 8) * (pitch / 512) * 4096 + (xb / 512) * 4096 + (y % 8) * 512 + xb % 512;
}

/* PRM vol. 5 "Y-Major Tile": 128 B x 32 rows, 16-byte columns of 32 rows. */
static uint32_t ytile(uint32_t xb, uint32_t y, uint32_t pitch)
{
	return (y / 32) * (pitch / 128) * 4096 + (xb / 128) * 4096 + ((xb % 128) / 16) * 512 +
	       (y % 32) * 16 + xb % 16;
}

/* Texel (x, y) of level l: R = 40 l + 10, G = x, B = y, A = 255. */
static float mip(unsigned l, unsigned x, unsigned y, unsigned c)
{
	const unsigned v[4] = { 40 * l + 10, x, y, 255 };
	return v[c] / 255.0f;
}

static void setup(struct fixture *f, int gen)
{
	fx_init(f, gen);
	for (unsigned l = 0; l < 4; l++)
		for (unsigned y = 0; y < (8u >> l); y++)
			for (unsigned x = 0; x < (8u >> l); x++) {
				uint8_t *p = f->mem + MIP_BASE + xtile((lvl_x[l] + x) * 4, lvl_y[l] + y, 512);
				p[0] = (uint8_t)(40 * l + 10);
				p[1] = (uint8_t)x;
				p[2] = (uint8_t)y;
				p[3] = 255;
			}
	struct fx_surf s = { .type = 1, .format = 199, .width = 8, .height = 8, .pitch = 512,
			     .tiling = 2, .mip_count = 3, .base = MIP_BASE };
	fx_surface(f, 0, &s);
	s.min_lod = 1;          /* a view from level 1: levels 1..3 */
	s.mip_count = 2;
	fx_surface(f, 1, &s);
	/* 4x4 array of 3 layers, Y-tiled, QPitch 4 rows: layer L texel =
	 * (200 + L, x, y, 255) */
	for (unsigned L = 0; L < 3; L++)
		for (unsigned y = 0; y < 4; y++)
			for (unsigned x = 0; x < 4; x++) {
				uint8_t *p = f->mem + ARR_BASE + ytile(x * 4, L * 4 + y, 128);
				p[0] = (uint8_t)(200 + L);
				p[1] = (uint8_t)x;
				p[2] = (uint8_t)y;
				p[3] = 255;
			}
	struct fx_surf a = { .type = 1, .format = 199, .width = 4, .height = 4, .depth = 3,
			     .array = true, .pitch = 128, .tiling = 3, .qpitch = 4,
			     .base = ARR_BASE };
	fx_surface(f, 2, &a);
	a.min_array = 1;        /* a view of layers 1..2 */
	a.depth = 2;
	fx_surface(f, 3, &a);
	fx_sampler(f, 0, &(struct fx_samp){ .mip = 1, .max_lod = 14 });     /* mip nearest */
	fx_sampler(f, 1, &(struct fx_samp){ .mip = 3, .max_lod = 14 });     /* mip linear */
	fx_sampler(f, 2, &(struct fx_samp){ .mip = 1, .min_lod = 2, .max_lod = 14 });
	fx_sampler(f, 3, &(struct fx_samp){ .mip = 1, .max_lod = 1 });
}

/* sample_l on channel 0: lod, u, v at g2, g3, g4. */
static void sample_l(struct fixture *f, unsigned bti, unsigned sampler, float lod, float u,
		     float v)
{
	eu_thread_init(f->t, 8, 1);
	fx_set_f(f, FX_PAYLOAD, 0, lod);
	fx_set_f(f, FX_PAYLOAD + 1, 0, u);
	fx_set_f(f, FX_PAYLOAD + 2, 0, v);
	CHECK_EQ(fx_send(f, fx_desc(bti, sampler, SMP_SAMPLE_L, 8), 8, 3, 4, false, 1), 0);
}

static void check_mip(struct fixture *f, unsigned ch, unsigned l, unsigned x, unsigned y)
{
	for (unsigned c = 0; c < 4; c++)
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, ch), mip(l, x, y, c));
}

static void test_sample_l(struct fixture *f)
{
	/* u = v = 0.3: texel floor(0.3 * size) of each level */
	const unsigned at[4] = { 2, 1, 0, 0 };
	for (unsigned l = 0; l < 4; l++) {
		sample_l(f, 0, 0, (float)l, 0.3f, 0.3f);
		check_mip(f, 0, l, at[l], at[l]);
	}
	sample_l(f, 0, 0, 1.4f, 0.3f, 0.3f);     /* nearest level: 1 */
	check_mip(f, 0, 1, 1, 1);
	sample_l(f, 0, 0, 1.6f, 0.3f, 0.3f);     /* 2 */
	check_mip(f, 0, 2, 0, 0);
	sample_l(f, 0, 0, 9.0f, 0.3f, 0.3f);     /* past the last level: 3 */
	check_mip(f, 0, 3, 0, 0);
	sample_l(f, 0, 0, -2.0f, 0.3f, 0.3f);    /* magnified: level 0 */
	check_mip(f, 0, 0, 2, 2);
	/* mip linear at 1.25: 3/4 of level 1, 1/4 of level 2 */
	sample_l(f, 0, 1, 1.25f, 0.3f, 0.3f);
	for (unsigned c = 0; c < 4; c++)
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 0), 0.75f * mip(1, 1, 1, c) + 0.25f * mip(2, 0, 0, c));
	/* SAMPLER_STATE Min LOD 2 and Max LOD 1 */
	sample_l(f, 0, 2, 0.0f, 0.3f, 0.3f);
	check_mip(f, 0, 2, 0, 0);
	sample_l(f, 0, 3, 3.0f, 0.3f, 0.3f);
	check_mip(f, 0, 1, 1, 1);
	/* Surface Min LOD 1: LOD 0 is level 1, LOD 5 the view's last (3) */
	sample_l(f, 1, 0, 0.0f, 0.3f, 0.3f);
	check_mip(f, 0, 1, 1, 1);
	sample_l(f, 1, 0, 5.0f, 0.3f, 0.3f);
	check_mip(f, 0, 3, 0, 0);
}

static void test_implicit_lod(struct fixture *f)
{
	/* pixel shader: subspan 0 steps 2 texels of level 0 per pixel (LOD
	 * 1), subspan 1 steps 4 (LOD 2); pixel order (0,0) (1,0) (0,1) (1,1) */
	f->unit.pixel_shader = true;
	eu_thread_init(f->t, 8, 0xff);
	const float step[2] = { 2.0f / 8, 4.0f / 8 };
	for (unsigned ch = 0; ch < 8; ch++) {
		float st = step[ch / 4];
		fx_set_f(f, FX_PAYLOAD, ch, 0.05f + (ch & 1) * st);
		fx_set_f(f, FX_PAYLOAD + 1, ch, 0.05f + (ch >> 1 & 1) * st);
	}
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLE, 8), 8, 2, 4, false, 0xff), 0);
	check_mip(f, 0, 1, 0, 0);
	check_mip(f, 3, 1, 1, 1);       /* u = 0.3 at level 1 (4 wide): texel 1 */
	check_mip(f, 4, 2, 0, 0);
	check_mip(f, 7, 2, 1, 1);       /* u = 0.55 at level 2 (2 wide): texel 1 */
	/* the view from level 1 (Surface Min LOD 1): GL 4.6 8.14.1 scales the
	 * derivatives by the base level's size (w_t = 4 here), and the level is
	 * base + lambda: rho = 2/8 * 4 = 1 (lambda 0, level 1) and 4/8 * 4 = 2
	 * (lambda 1, level 2) -- the same levels as the full texture. Scaling
	 * by level 0's size gave levels 2 and 3 (piglit tex-miplevel-selection) */
	CHECK_EQ(fx_send(f, fx_desc(1, 0, SMP_SAMPLE, 8), 8, 2, 4, false, 0xff), 0);
	check_mip(f, 0, 1, 0, 0);
	check_mip(f, 4, 2, 0, 0);
	/* sample_b: bias 1 on top (g2), then u, v */
	for (unsigned ch = 0; ch < 8; ch++) {
		float st = step[ch / 4];
		fx_set_f(f, FX_PAYLOAD, ch, 1.0f);
		fx_set_f(f, FX_PAYLOAD + 1, ch, 0.05f + (ch & 1) * st);
		fx_set_f(f, FX_PAYLOAD + 2, ch, 0.05f + (ch >> 1 & 1) * st);
	}
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLE_B, 8), 8, 3, 4, false, 0xff), 0);
	check_mip(f, 0, 2, 0, 0);
	check_mip(f, 4, 3, 0, 0);
	/* a vertex shader has no subspans: LOD 0 */
	f->unit.pixel_shader = false;
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLE_B, 8), 8, 3, 4, false, 0xff), 0);
	check_mip(f, 0, 1, 0, 0);       /* bias 1 alone */
}

static void test_resinfo(struct fixture *f)
{
	eu_thread_init(f->t, 8, 0x0f);
	const uint32_t lod[4] = { 0, 1, 3, 4 };
	for (unsigned ch = 0; ch < 4; ch++)
		eu_grf_set_ud(f->t, FX_PAYLOAD, ch, lod[ch]);
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_RESINFO, 8), 8, 1, 4, false, 0x0f), 0);
	const uint32_t want[4][4] = { { 8, 8, 0, 4 }, { 4, 4, 0, 4 }, { 1, 1, 0, 4 }, { 0, 0, 0, 4 } };
	for (unsigned ch = 0; ch < 4; ch++)
		for (unsigned c = 0; c < 4; c++)
			CHECK_EQ(eu_grf_ud(f->t, FX_RESP + c, ch), want[ch][c]);
	/* the view from level 1: 3 levels, LOD 0 is 4x4 */
	CHECK_EQ(fx_send(f, fx_desc(1, 0, SMP_RESINFO, 8), 8, 1, 4, false, 0x01), 0);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP, 0), 4);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP + 3, 0), 3);
	/* the array: B is the layer count */
	CHECK_EQ(fx_send(f, fx_desc(2, 0, SMP_RESINFO, 8), 8, 1, 4, false, 0x01), 0);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP, 0), 4);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP + 2, 0), 3);
	/* sampleinfo: one sample (header only) */
	memset(eu_grf(f->t, FX_PAYLOAD), 0, 32);
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLEINFO, 8), 8, 1, 4, true, 0x01), 0);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP, 0), 1);
}

/* A RAW buffer (Mesa's SSBOs; its length() is a resinfo on the SSBO's
 * surface): resinfo gives the entry count in R, which Width 6:0, Height
 * 20:7 hold as count - 1 (PRM vol. 2d RENDER_SURFACE_STATE, SURFTYPE_BUFFER);
 * reading texels of it faults (RAW is no format the sampler decodes). */
static void test_resinfo_raw_buffer(struct fixture *f)
{
	uint32_t *ss = fx_dw(f, FX_SS(5));
	memset(ss, 0, 64);
	fx_bits(&ss[0], 31, 29, 4);             /* SURFTYPE_BUFFER */
	fx_bits(&ss[0], 26, 18, 511);           /* RAW */
	fx_bits(&ss[2], 6, 0, 175 & 0x7f);      /* 176 entries: 175 = 1 << 7 | 47 */
	fx_bits(&ss[2], 29, 16, 175 >> 7);
	ss[8] = FX_TEX;
	fx_dw(f, FX_BT)[5] = FX_SS(5);
	eu_thread_init(f->t, 8, 0x01);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 0, 0);
	CHECK_EQ(fx_send(f, fx_desc(5, 0, SMP_RESINFO, 8), 8, 1, 4, false, 0x01), 0);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP, 0), 176);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP + 3, 0), 1);    /* levels: 1 */
	CHECK_EQ(fx_send(f, fx_desc(5, 0, SMP_LD, 8), 8, 3, 4, false, 0x01), -1);
	CHECK(strstr(f->t->fault, "RAW") != NULL);
}

static void test_ld(struct fixture *f)
{
	/* Gen8 ld: u, lod, v (integers) */
	eu_thread_init(f->t, 8, 0x1f);
	const int32_t u[5] = { 3, 4, 0, 1, -1 }, lod[5] = { 1, 1, 4, 0, 0 }, v[5] = { 2, 0, 0, 7, 0 };
	for (unsigned ch = 0; ch < 5; ch++) {
		eu_grf_set_ud(f->t, FX_PAYLOAD, ch, (uint32_t)u[ch]);
		eu_grf_set_ud(f->t, FX_PAYLOAD + 1, ch, (uint32_t)lod[ch]);
		eu_grf_set_ud(f->t, FX_PAYLOAD + 2, ch, (uint32_t)v[ch]);
	}
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_LD, 8), 8, 3, 4, false, 0x1f), 0);
	check_mip(f, 0, 1, 3, 2);
	check_mip(f, 3, 0, 1, 7);
	for (unsigned ch = 1; ch < 5; ch += ch == 2 ? 2 : 1)   /* x 4 at level 1, lod 4, x -1 */
		for (unsigned c = 0; c < 4; c++)
			CHECK_EQ(eu_grf_ud(f->t, FX_RESP + c, ch), 0);
	/* the Y-tiled array: ld's r is the layer; past the layers: 0 */
	eu_thread_init(f->t, 8, 0x07);
	const int32_t r[3] = { 2, 3, 0 };
	for (unsigned ch = 0; ch < 3; ch++) {
		eu_grf_set_ud(f->t, FX_PAYLOAD, ch, 1);          /* u */
		eu_grf_set_ud(f->t, FX_PAYLOAD + 1, ch, 0);      /* lod */
		eu_grf_set_ud(f->t, FX_PAYLOAD + 2, ch, 3);      /* v */
		eu_grf_set_ud(f->t, FX_PAYLOAD + 3, ch, (uint32_t)r[ch]);
	}
	CHECK_EQ(fx_send(f, fx_desc(2, 0, SMP_LD, 8), 8, 4, 4, false, 0x07), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 0), 202 / 255.0f);
	CHECK_NEAR(fx_get_f(f, FX_RESP + 1, 0), 1 / 255.0f);
	CHECK_NEAR(fx_get_f(f, FX_RESP + 2, 0), 3 / 255.0f);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP + 3, 1), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 2), 200 / 255.0f);
	/* the view from layer 1: layer 0 is layer 1, layer 1 is 2, 2 is past it */
	CHECK_EQ(fx_send(f, fx_desc(3, 0, SMP_LD, 8), 8, 4, 4, false, 0x07), 0);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP, 0), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 2), 201 / 255.0f);
}

static void test_array_sample(struct fixture *f)
{
	/* sample: u, v, r (layer, rounded to nearest, clamped) */
	eu_thread_init(f->t, 8, 0x0f);
	const float r[4] = { 1.4f, 1.6f, 5.0f, -3.0f };
	const unsigned want[4] = { 1, 2, 2, 0 };
	for (unsigned ch = 0; ch < 4; ch++) {
		fx_set_f(f, FX_PAYLOAD, ch, 0.375f);         /* texel 1 */
		fx_set_f(f, FX_PAYLOAD + 1, ch, 0.875f);     /* texel 3 */
		fx_set_f(f, FX_PAYLOAD + 2, ch, r[ch]);
	}
	CHECK_EQ(fx_send(f, fx_desc(2, 0, SMP_SAMPLE, 8), 8, 3, 4, false, 0x0f), 0);
	for (unsigned ch = 0; ch < 4; ch++) {
		CHECK_NEAR(fx_get_f(f, FX_RESP, ch), (200 + want[ch]) / 255.0f);
		CHECK_NEAR(fx_get_f(f, FX_RESP + 1, ch), 1 / 255.0f);
		CHECK_NEAR(fx_get_f(f, FX_RESP + 2, ch), 3 / 255.0f);
	}
	/* ties round to even (Vulkan's and D3D's layer = roundEven(r)):
	 * 0.5 -> 0, 1.5 -> 2, -0.5 -> 0, 2.5 -> 2; GL's floor(r + 1/2) would
	 * read layer 1 for 0.5 */
	const float ties[4] = { 0.5f, 1.5f, -0.5f, 2.5f };
	const unsigned tie_want[4] = { 0, 2, 0, 2 };
	for (unsigned ch = 0; ch < 4; ch++)
		fx_set_f(f, FX_PAYLOAD + 2, ch, ties[ch]);
	CHECK_EQ(fx_send(f, fx_desc(2, 0, SMP_SAMPLE, 8), 8, 3, 4, false, 0x0f), 0);
	for (unsigned ch = 0; ch < 4; ch++)
		CHECK_NEAR(fx_get_f(f, FX_RESP, ch), (200 + tie_want[ch]) / 255.0f);
	for (unsigned ch = 0; ch < 4; ch++)
		fx_set_f(f, FX_PAYLOAD + 2, ch, r[ch]);
	/* Minimum Array Element 1, two layers: r = 0 -> 1, r = 5 -> 2 */
	CHECK_EQ(fx_send(f, fx_desc(3, 0, SMP_SAMPLE, 8), 8, 3, 4, false, 0x0f), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 2), 202 / 255.0f);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 3), 201 / 255.0f);
}

static void test_gen9(void)
{
	struct fixture f;
	setup(&f, 9);
	/* Gen9 ld: u, v, lod */
	eu_thread_init(f.t, 8, 0x01);
	eu_grf_set_ud(f.t, FX_PAYLOAD, 0, 3);
	eu_grf_set_ud(f.t, FX_PAYLOAD + 1, 0, 2);
	eu_grf_set_ud(f.t, FX_PAYLOAD + 2, 0, 1);
	CHECK_EQ(fx_send(&f, fx_desc(0, 0, SMP_LD, 8), 8, 3, 4, false, 0x01), 0);
	check_mip(&f, 0, 1, 3, 2);
	/* ld_lz: u, v at level 0 */
	CHECK_EQ(fx_send(&f, fx_desc(0, 0, SMP_LD_LZ, 8), 8, 2, 4, false, 0x01), 0);
	check_mip(&f, 0, 0, 3, 2);
	/* sample_lz: level 0 whatever the derivatives */
	fx_set_f(&f, FX_PAYLOAD, 0, 0.3f);
	fx_set_f(&f, FX_PAYLOAD + 1, 0, 0.3f);
	CHECK_EQ(fx_send(&f, fx_desc(0, 0, SMP_SAMPLE_LZ, 8), 8, 2, 4, false, 0x01), 0);
	check_mip(&f, 0, 0, 2, 2);
	fx_fini(&f);
}

int main(void)
{
	struct fixture f;
	setup(&f, 8);
	test_sample_l(&f);
	test_implicit_lod(&f);
	test_resinfo(&f);
	test_resinfo_raw_buffer(&f);
	test_ld(&f);
	test_array_sample(&f);
	fx_fini(&f);
	test_gen9();
	return test_exit();
}
