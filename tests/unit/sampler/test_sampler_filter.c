/* Sampler messages on a 4x4 R8G8B8A8_UNORM texture against values computed
 * here from the texels: nearest and bilinear filtering, the wrap modes
 * (repeat, mirror, clamp, border), linear filtering into the border
 * colour, header texel offsets and channel masks, SIMD16 response layout,
 * shader channel selects, the execution mask, sample_c with the shadow
 * functions iris programs (GL_LESS -> LEQUAL, GL_GREATER -> GEQUAL),
 * gather4's texel order (OpenGL's textureGather), cube face selection
 * (OpenGL's table of major axes), and faults for what the sampler
 * refuses. */
#include "sampler_fixture.h"

#define TEX_W 4

static uint8_t texel(unsigned x, unsigned y, unsigned c)
{
	switch (c) {
	case 0: return (uint8_t)(10 * x + 1);
	case 1: return (uint8_t)(10 * y + 2);
	case 2: return (uint8_t)(100 + x + 4 * y);
	default: return (uint8_t)(255 - x);
	}
}

static float tf(int x, int y, unsigned c)
{
	return texel((unsigned)x, (unsigned)y, c) / 255.0f;
}

static const float border[4] = { 0.25f, 0.5f, 0.75f, 1.0f };

static void setup(struct fixture *f)
{
	fx_init(f, 8);
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++)
			for (unsigned c = 0; c < 4; c++)
				f->mem[FX_TEX + y * 16 + x * 4 + c] = texel(x, y, c);
	struct fx_surf s = { .type = 1, .format = 199, .width = 4, .height = 4, .pitch = 16,
			     .base = FX_TEX };
	fx_surface(f, 0, &s);
	s.scs[0] = 6;        /* R <- B, G <- G, B <- R, A <- ONE */
	s.scs[1] = 5;
	s.scs[2] = 4;
	s.scs[3] = 1;
	fx_surface(f, 1, &s);
	/* R32_FLOAT depth-like texture, 2x1: 0.25, 0.75 */
	float d[2] = { 0.25f, 0.75f };
	memcpy(f->mem + FX_TEX + 0x100, d, sizeof(d));
	struct fx_surf z = { .type = 1, .format = 216, .width = 2, .height = 1, .pitch = 8,
			     .base = FX_TEX + 0x100 };
	fx_surface(f, 2, &z);
	/* a surface in the unmapped last page */
	struct fx_surf bad = s;
	bad.base = (FX_PAGES - 1) * 4096;
	fx_surface(f, 3, &bad);
	memcpy(f->mem + FX_BORDER, border, sizeof(border));
	fx_sampler(f, 0, &(struct fx_samp){ .max_lod = 14 });                       /* nearest */
	fx_sampler(f, 1, &(struct fx_samp){ .min = 1, .mag = 1, .max_lod = 14 });   /* bilinear */
	fx_sampler(f, 2, &(struct fx_samp){ .wrap_x = 1, .max_lod = 14 });          /* mirror */
	fx_sampler(f, 3, &(struct fx_samp){ .wrap_x = 2, .max_lod = 14 });          /* clamp */
	fx_sampler(f, 4, &(struct fx_samp){ .wrap_x = 4, .max_lod = 14 });          /* border */
	fx_sampler(f, 5, &(struct fx_samp){ .shadow = 4, .max_lod = 14 });          /* LEQUAL */
	fx_sampler(f, 6, &(struct fx_samp){ .min = 1, .mag = 1, .shadow = 4, .max_lod = 14 });
	fx_sampler(f, 7, &(struct fx_samp){ .shadow = 7, .max_lod = 14 });          /* GEQUAL */
	fx_sampler(f, 8, &(struct fx_samp){ .min = 1, .mag = 1, .wrap_x = 4, .max_lod = 14 });
	fx_sampler(f, 9, &(struct fx_samp){ .wrap_x = 6, .max_lod = 14 });          /* half border */
	fx_sampler(f, 10, &(struct fx_samp){ .min = 1, .mag = 1, .wrap_x = 6, .max_lod = 14 });
}

/* u, v of channel ch at g2/g3 (SIMD8). */
static void uv8(struct fixture *f, unsigned ch, float u, float v)
{
	fx_set_f(f, FX_PAYLOAD, ch, u);
	fx_set_f(f, FX_PAYLOAD + 1, ch, v);
}

static void check_texel(struct fixture *f, unsigned ch, int x, int y)
{
	for (unsigned c = 0; c < 4; c++)
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, ch), tf(x, y, c));
}

static void test_nearest(struct fixture *f)
{
	eu_thread_init(f->t, 8, 0xff);
	for (unsigned ch = 0; ch < 8; ch++)
		uv8(f, ch, ((ch % 4) + 0.5f) / TEX_W, ((ch / 4) + 0.5f) / TEX_W);
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLE, 8), 8, 2, 4, false, 0xff), 0);
	for (unsigned ch = 0; ch < 8; ch++)
		check_texel(f, ch, (int)(ch % 4), (int)(ch / 4));
	/* only the enabled channels get texels; the others read 0 */
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLE, 8), 8, 2, 4, false, 0x0f), 0);
	check_texel(f, 3, 3, 0);
	for (unsigned c = 0; c < 4; c++)
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 5), 0.0f);
}

static void test_bilinear(struct fixture *f)
{
	eu_thread_init(f->t, 8, 0x0f);
	uv8(f, 0, 0.5f, 0.125f);       /* s = 1.5: texels 1 and 2, half each */
	uv8(f, 1, 0.5f, 0.5f);         /* the four texels (1..2, 1..2) */
	uv8(f, 2, 0.3125f, 0.125f);    /* s = 0.75: 1/4 of texel 0, 3/4 of texel 1 */
	uv8(f, 3, 0.125f, 0.125f);     /* a texel centre: that texel */
	CHECK_EQ(fx_send(f, fx_desc(0, 1, SMP_SAMPLE, 8), 8, 2, 4, false, 0x0f), 0);
	for (unsigned c = 0; c < 4; c++) {
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 0), (tf(1, 0, c) + tf(2, 0, c)) / 2);
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 1),
			   (tf(1, 1, c) + tf(2, 1, c) + tf(1, 2, c) + tf(2, 2, c)) / 4);
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 2), 0.25f * tf(0, 0, c) + 0.75f * tf(1, 0, c));
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 3), tf(0, 0, c));
	}
	/* linear filtering into the border: u = 0 is half texel -1 (the
	 * border colour), half texel 0 */
	CHECK_EQ(fx_send(f, fx_desc(0, 8, SMP_SAMPLE, 8), 8, 2, 4, false, 0x0f), 0);
	uv8(f, 0, 0.0f, 0.125f);
	CHECK_EQ(fx_send(f, fx_desc(0, 8, SMP_SAMPLE, 8), 8, 2, 4, false, 0x01), 0);
	for (unsigned c = 0; c < 4; c++)
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 0), (border[c] + tf(0, 0, c)) / 2);
}

/* TEXCOORDMODE_HALF_BORDER, which iris programs for GL_CLAMP with every
 * filter: OpenGL 2.1's CLAMP (section 3.8.8), the coordinate clamped to
 * [0, 1]: nearest takes the edge texel however far outside (i = floor(u),
 * u = 4 gives i = 3); linear at or past the edge weighs the edge texel and
 * the border colour half each; inside, as any other mode. */
static void test_half_border(struct fixture *f)
{
	eu_thread_init(f->t, 8, 0x0f);
	uv8(f, 0, 1.75f, 0.125f);
	uv8(f, 1, -3.0f, 0.125f);
	uv8(f, 2, 1.0f, 0.125f);
	uv8(f, 3, 0.625f, 0.125f);
	CHECK_EQ(fx_send(f, fx_desc(0, 9, SMP_SAMPLE, 8), 8, 2, 4, false, 0x0f), 0);
	check_texel(f, 0, 3, 0);
	check_texel(f, 1, 0, 0);
	check_texel(f, 2, 3, 0);
	check_texel(f, 3, 2, 0);
	CHECK_EQ(fx_send(f, fx_desc(0, 10, SMP_SAMPLE, 8), 8, 2, 4, false, 0x0f), 0);
	for (unsigned c = 0; c < 4; c++) {
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 0), (tf(3, 0, c) + border[c]) / 2);
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 1), (tf(0, 0, c) + border[c]) / 2);
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 2), (tf(3, 0, c) + border[c]) / 2);
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 3), (tf(2, 0, c) + tf(2, 0, c)) / 2);
	}
}

/* A texel offset moves the unnormalized coordinate before the address
 * mode (GL 4.6 section 8.14.2: u' = u + offset, then the wrap), which shows
 * where the mode clamps: HALF_BORDER (GL_CLAMP) nearest at u = -2 with
 * offset +2 is u' = 0, texel 0 (clamping first would give texel 2);
 * linear at u = 6 with offset -1 is u' = 5, clamped to 4: the edge texel
 * and the border half each (clamping first: texels 2 and 3). Sent with a
 * header whose M0.2 11:8 holds the U offset. */
static void offset_send(struct fixture *f, unsigned sampler, int uoff, float u)
{
	eu_thread_init(f->t, 8, 0x01);
	memset(eu_grf(f->t, FX_PAYLOAD), 0, 32);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 2, ((unsigned)uoff & 0xf) << 8);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 3, FX_SAMPLER(0));
	fx_set_f(f, FX_PAYLOAD + 1, 0, u);
	fx_set_f(f, FX_PAYLOAD + 2, 0, 0.125f);
	CHECK_EQ(fx_send(f, fx_desc(0, sampler, SMP_SAMPLE, 8), 8, 3, 4, true, 0x01), 0);
}

static void test_offset_half_border(struct fixture *f)
{
	offset_send(f, 9, 2, -0.5f);
	check_texel(f, 0, 0, 0);
	offset_send(f, 9, -2, 0.875f);          /* inside: 3.5 - 2 = 1.5, texel 1 */
	check_texel(f, 0, 1, 0);
	offset_send(f, 10, -1, 1.5f);
	for (unsigned c = 0; c < 4; c++)
		CHECK_NEAR(fx_get_f(f, FX_RESP + c, 0), (tf(3, 0, c) + border[c]) / 2);
}

static void test_wrap(struct fixture *f)
{
	/* texels -1, 4, -2 and 8 of row 0 */
	const float u[4] = { -0.125f, 1.125f, -0.375f, 2.125f };
	const int want[4][4] = {
		{ 3, 0, 2, 0 },        /* sampler 0: repeat */
		{ 0, 3, 1, 0 },        /* 2: mirror (period 8: -1 -> 0, -2 -> 1, 8 -> 0) */
		{ 0, 3, 0, 3 },        /* 3: clamp to edge */
		{ -1, -1, -1, -1 },    /* 4: border colour */
	};
	const unsigned sampler[4] = { 0, 2, 3, 4 };
	for (unsigned m = 0; m < 4; m++) {
		eu_thread_init(f->t, 8, 0x0f);
		for (unsigned ch = 0; ch < 4; ch++)
			uv8(f, ch, u[ch], 0.125f);
		CHECK_EQ(fx_send(f, fx_desc(0, sampler[m], SMP_SAMPLE, 8), 8, 2, 4, false, 0x0f), 0);
		for (unsigned ch = 0; ch < 4; ch++)
			for (unsigned c = 0; c < 4; c++)
				CHECK_NEAR(fx_get_f(f, FX_RESP + c, ch),
					   want[m][ch] < 0 ? border[c] : tf(want[m][ch], 0, c));
	}
}

static void test_header(struct fixture *f)
{
	/* header: g0 copied, M0.2 = U offset +1 (11:8), V offset -1 (7:4),
	 * channels G and A not returned (bits 13, 15) */
	eu_thread_init(f->t, 8, 0x01);
	memset(eu_grf(f->t, FX_PAYLOAD), 0, 32);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 2, 1u << 8 | 0xfu << 4 | 0xau << 12);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 3, FX_SAMPLER(0));
	fx_set_f(f, FX_PAYLOAD + 1, 0, 1.5f / TEX_W);    /* texel (1, 1) + (1, -1) = (2, 0) */
	fx_set_f(f, FX_PAYLOAD + 2, 0, 1.5f / TEX_W);
	eu_grf_set_ud(f->t, FX_RESP + 2, 0, 0xdeadbeef);
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLE, 8), 8, 3, 2, true, 0x01), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 0), tf(2, 0, 0));       /* R */
	CHECK_NEAR(fx_get_f(f, FX_RESP + 1, 0), tf(2, 0, 2));   /* B */
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP + 2, 0), 0xdeadbeef);  /* rlen 2: untouched */
	/* the header's sampler state pointer replaces the thread's: sampler
	 * 0 of the table at FX_SAMPLER(1) is the bilinear one */
	eu_grf_set_ud(f->t, FX_PAYLOAD, 2, 0);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 3, 0);
	fx_set_f(f, FX_PAYLOAD + 1, 0, 0.5f);
	fx_set_f(f, FX_PAYLOAD + 2, 0, 0.125f);
	f->unit.sampler_state = FX_SAMPLER(0);
	memcpy(fx_dw(f, 0x2200), fx_dw(f, FX_SAMPLER(1)), 16);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 3, 0x2200);
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLE, 8), 8, 3, 4, true, 0x01), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 0), (tf(1, 0, 0) + tf(2, 0, 0)) / 2);
}

static void test_simd16_and_swizzle(struct fixture *f)
{
	eu_thread_init(f->t, 16, 0xffff);
	for (unsigned ch = 0; ch < 16; ch++) {
		fx_set_f(f, FX_PAYLOAD, ch, ((ch % 4) + 0.5f) / TEX_W);      /* u: g2-g3 */
		fx_set_f(f, FX_PAYLOAD + 2, ch, ((ch / 4) + 0.5f) / TEX_W);  /* v: g4-g5 */
	}
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLE, 16), 16, 4, 8, false, 0xffff), 0);
	for (unsigned ch = 0; ch < 16; ch++)
		for (unsigned c = 0; c < 4; c++)   /* R in g40-41, G in g42-43, ... */
			CHECK_NEAR(fx_get_f(f, FX_RESP + 2 * c, ch),
				   tf((int)(ch % 4), (int)(ch / 4), c));
	/* surface 1 selects (B, G, R, ONE) */
	CHECK_EQ(fx_send(f, fx_desc(1, 0, SMP_SAMPLE, 16), 16, 4, 8, false, 0xffff), 0);
	for (unsigned ch = 0; ch < 16; ch++) {
		int x = (int)(ch % 4), y = (int)(ch / 4);
		CHECK_NEAR(fx_get_f(f, FX_RESP + 0, ch), tf(x, y, 2));
		CHECK_NEAR(fx_get_f(f, FX_RESP + 2, ch), tf(x, y, 1));
		CHECK_NEAR(fx_get_f(f, FX_RESP + 4, ch), tf(x, y, 0));
		CHECK_NEAR(fx_get_f(f, FX_RESP + 6, ch), 1.0f);
	}
}

static void test_compare(struct fixture *f)
{
	/* sample_c: ref, u, v. GL_LESS (iris: LEQUAL) passes when ref < texel */
	eu_thread_init(f->t, 8, 0x07);
	const float ref[3] = { 0.5f, 0.5f, 0.5f }, u[3] = { 0.25f, 0.75f, 0.5f };
	for (unsigned ch = 0; ch < 3; ch++) {
		fx_set_f(f, FX_PAYLOAD, ch, ref[ch]);
		fx_set_f(f, FX_PAYLOAD + 1, ch, u[ch]);
		fx_set_f(f, FX_PAYLOAD + 2, ch, 0.5f);
	}
	CHECK_EQ(fx_send(f, fx_desc(2, 5, SMP_SAMPLE_C, 8), 8, 3, 4, false, 0x03), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 0), 0.0f);      /* 0.5 < 0.25: no */
	CHECK_NEAR(fx_get_f(f, FX_RESP, 1), 1.0f);      /* 0.5 < 0.75: yes */
	/* GL_GREATER (iris: GEQUAL) passes when ref > texel */
	CHECK_EQ(fx_send(f, fx_desc(2, 7, SMP_SAMPLE_C, 8), 8, 3, 4, false, 0x03), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 0), 1.0f);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 1), 0.0f);
	/* bilinear: the two comparisons (0 and 1) averaged */
	CHECK_EQ(fx_send(f, fx_desc(2, 6, SMP_SAMPLE_C, 8), 8, 3, 4, false, 0x04), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 2), 0.5f);
}

static void test_gather(struct fixture *f)
{
	/* gather4 of G (header M0.2 bits 17:16 = 1) at the point between
	 * texels 1..2 x 1..2: x (i0, j1), y (i1, j1), z (i1, j0), w (i0, j0) */
	eu_thread_init(f->t, 8, 0x01);
	memset(eu_grf(f->t, FX_PAYLOAD), 0, 32);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 2, 1u << 16);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 3, FX_SAMPLER(0));
	fx_set_f(f, FX_PAYLOAD + 1, 0, 0.5f);
	fx_set_f(f, FX_PAYLOAD + 2, 0, 0.5f);
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_GATHER4, 8), 8, 3, 4, true, 0x01), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP + 0, 0), tf(1, 2, 1));
	CHECK_NEAR(fx_get_f(f, FX_RESP + 1, 0), tf(2, 2, 1));
	CHECK_NEAR(fx_get_f(f, FX_RESP + 2, 0), tf(2, 1, 1));
	CHECK_NEAR(fx_get_f(f, FX_RESP + 3, 0), tf(1, 1, 1));
}

static void test_cube(struct fixture *f)
{
	/* a cube of 2x2 faces, linear, faces QPitch 4 rows apart; face F
	 * texel (x, y) = (10 + 20 F, x, y, 255) */
	const uint32_t base = FX_TEX + 0x400;
	for (unsigned face = 0; face < 6; face++)
		for (unsigned y = 0; y < 2; y++)
			for (unsigned x = 0; x < 2; x++) {
				uint8_t *p = f->mem + base + (face * 4 + y) * 8 + x * 4;
				p[0] = (uint8_t)(10 + 20 * face);
				p[1] = (uint8_t)x;
				p[2] = (uint8_t)y;
				p[3] = 255;
			}
	struct fx_surf c = { .type = 3, .format = 199, .width = 2, .height = 2, .pitch = 8,
			     .qpitch = 4, .base = base };
	fx_surface(f, 5, &c);
	/* OpenGL 4.6 table 8.19: the major axis picks the face; on +X,
	 * s = -z, t = -y; on -Y, s = x, t = -z; on +Z, s = x, t = -y */
	const float dir[8][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 },
				  { 0, 0, 1 }, { 0, 0, -1 }, { 1, -0.5f, -0.5f }, { 0.5f, -1, 0.5f } };
	const unsigned face[8] = { 0, 1, 2, 3, 4, 5, 0, 3 };
	const unsigned tx[8][2] = { { 1, 1 }, { 1, 1 }, { 1, 1 }, { 1, 1 }, { 1, 1 }, { 1, 1 },
				    { 1, 1 }, { 1, 0 } };
	eu_thread_init(f->t, 8, 0xff);
	for (unsigned ch = 0; ch < 8; ch++)
		for (unsigned k = 0; k < 3; k++)
			fx_set_f(f, FX_PAYLOAD + k, ch, dir[ch][k]);
	CHECK_EQ(fx_send(f, fx_desc(5, 0, SMP_SAMPLE, 8), 8, 3, 4, false, 0xff), 0);
	for (unsigned ch = 0; ch < 8; ch++) {
		CHECK_NEAR(fx_get_f(f, FX_RESP, ch), (10 + 20 * face[ch]) / 255.0f);
		if (ch >= 6) {
			CHECK_NEAR(fx_get_f(f, FX_RESP + 1, ch), tx[ch][0] / 255.0f);
			CHECK_NEAR(fx_get_f(f, FX_RESP + 2, ch), tx[ch][1] / 255.0f);
		}
	}
}

static void test_faults(struct fixture *f)
{
	eu_thread_init(f->t, 8, 0x01);
	uv8(f, 0, 0.5f, 0.5f);
	/* message type 12 does not exist on Gen8/9 */
	CHECK_EQ(fx_send(f, fx_desc(0, 0, 12, 8), 8, 2, 4, false, 1), -1);
	CHECK_EQ(f->t->state, EU_THREAD_FAULT);
	CHECK(strstr(f->t->fault, "message type 12") != NULL);
	/* ld2dms on a single-sample surface */
	eu_thread_init(f->t, 8, 0x01);
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_LD2DMS, 8), 8, 2, 4, false, 1), -1);
	CHECK(strstr(f->t->fault, "single-sample") != NULL);
	/* sample_lz is a Gen9 message */
	eu_thread_init(f->t, 8, 0x01);
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLE_LZ, 8), 8, 2, 4, false, 1), -1);
	/* SIMD4x2 */
	eu_thread_init(f->t, 8, 0x01);
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLE, 8) & ~(3u << 17), 8, 2, 4, false, 1), -1);
	CHECK(strstr(f->t->fault, "SIMD4x2") != NULL);
	/* an unbound binding table entry */
	eu_thread_init(f->t, 8, 0x01);
	CHECK_EQ(fx_send(f, fx_desc(9, 0, SMP_SAMPLE, 8), 8, 2, 4, false, 1), -1);
	CHECK(strstr(f->t->fault, "unbound") != NULL);
	/* texels in an unmapped page: a fault, not a host read */
	eu_thread_init(f->t, 8, 0x01);
	CHECK_EQ(fx_send(f, fx_desc(3, 0, SMP_SAMPLE, 8), 8, 2, 4, false, 1), -1);
	CHECK(strstr(f->t->fault, "page fault") != NULL);
	/* a sampler state table in an unmapped page */
	eu_thread_init(f->t, 8, 0x01);
	f->unit.sampler_state = (FX_PAGES - 1) * 4096;
	CHECK_EQ(fx_send(f, fx_desc(0, 0, SMP_SAMPLE, 8), 8, 2, 4, false, 1), -1);
	f->unit.sampler_state = FX_SAMPLER(0);
	/* a reserved shader channel select (3) is refused */
	struct fx_surf rsv = { .type = 1, .format = 199, .width = 4, .height = 4, .pitch = 16,
			       .base = FX_TEX, .scs = { 4, 5, 3, 7 } };
	fx_surface(f, 5, &rsv);
	eu_thread_init(f->t, 8, 0x01);
	CHECK_EQ(fx_send(f, fx_desc(5, 0, SMP_SAMPLE, 8), 8, 2, 4, false, 1), -1);
	CHECK(strstr(f->t->fault, "channel select") != NULL);
	/* a format gtsim does not read (P8A8_UNORM_PALETTE0, 290) is refused */
	struct fx_surf bc1 = { .type = 1, .format = 290, .width = 8, .height = 4, .pitch = 16,
			       .base = FX_TEX };
	fx_surface(f, 4, &bc1);
	eu_thread_init(f->t, 8, 0x01);
	CHECK_EQ(fx_send(f, fx_desc(4, 0, SMP_SAMPLE, 8), 8, 2, 4, false, 1), -1);
}

int main(void)
{
	struct fixture f;
	setup(&f);
	test_nearest(&f);
	test_bilinear(&f);
	test_wrap(&f);
	test_half_border(&f);
	test_offset_half_border(&f);
	test_header(&f);
	test_simd16_and_swizzle(&f);
	test_compare(&f);
	test_gather(&f);
	test_cube(&f);
	test_faults(&f);
	fx_fini(&f);
	return test_exit();
}
