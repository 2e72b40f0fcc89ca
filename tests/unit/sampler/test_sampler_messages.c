/* The sampler's newer messages and rules against values computed here
 * from the PRM's and OpenGL's formulas (never from the sampler's code):
 *  - lod (textureQueryLOD) on a grid of subspan derivatives of a 16x8
 *    texture with 5 levels: G = log2(max(|(du/dx W, dv/dx H)|,
 *    |(du/dy W, dv/dy H)|)) (OpenGL 4.6 eq. 8.6) in the hardware's 8
 *    fraction bits, + bias; R clamped to [Min LOD, Max LOD] and the
 *    levels (mip linear), or the nearest level, .5 down (mip nearest:
 *    ARB_texture_query_lod's ceil(lod + 0.5) - 1);
 *  - every shadow function, texel by texel (PRM: 0.0 where `texel OP ref`
 *    holds), with linear filtering (compare, then weigh), and the
 *    reference clamped to [0, 1] for a UNORM depth format (GL 8.22.1);
 *  - gather4_po's per-channel offsets (6-bit signed) against textureGather
 *    with the footprint moved;
 *  - seamless cube filtering: a bilinear footprint at a face edge blends
 *    the adjacent face's texels (table 8.19 names which), not with a
 *    programmed clamp;
 *  - ld2dss/ld2dms/ld_mcs on a 4x multisampled surface with MCS: the
 *    sample s of a pixel in array slice s (MSS), the MCS remap (2 bits a
 *    sample), all-ones MCS = clear colour, ld_mcs's element read. */
#include "sampler_fixture.h"

#define LOD_BASE 0x8000u     /* 16x8 linear, 5 levels (2D layout, pitch 64) */
#define Z_BASE 0xa000u       /* R32_FLOAT 2x1 and R16_UNORM 2x1 */
#define G_BASE 0xa100u       /* 4x4 RGBA8 */
#define CUBE_BASE 0xb000u    /* 2x2 faces, RGBA8, 6 layers, QPitch 4 */
#define MS_BASE 0xc000u      /* 4x4 R32_UINT, 4 samples */
#define MCS_BASE 0xe000u     /* its MCS: Y-tiled, pitch 128 */

static void uv_channel(struct fixture *f, unsigned reg, unsigned ch, float u, float v)
{
	fx_set_f(f, reg, ch, u);
	fx_set_f(f, reg + 1, ch, v);
}

/* ---- lod ---- */

static void test_lod_grid(struct fixture *f)
{
	struct fx_surf s = { .type = 1, .format = 199, .width = 16, .height = 8, .pitch = 64,
			     .mip_count = 4, .base = LOD_BASE };
	fx_surface(f, 0, &s);
	fx_sampler(f, 0, &(struct fx_samp){ .mip = 3, .min_lod = 0.5f, .max_lod = 3 });
	fx_sampler(f, 1, &(struct fx_samp){ .mip = 1, .max_lod = 14, .bias = 1.0f });
	f->unit.pixel_shader = true;
	static const float d[] = { 0.0f, 1.0f / 64, 1.0f / 16, 0.1f, 0.25f, 1.0f };
	const unsigned nd = sizeof(d) / sizeof(d[0]);
	for (unsigned samp = 0; samp < 2; samp++)
		for (unsigned a = 0; a < nd; a++)
			for (unsigned b = 0; b < nd; b++) {
				/* subspan: u steps d[a] along x, v steps d[b] along y, plus a
				 * shear of d[b] / 2 in u along y */
				float dudx = d[a], dvdx = 0, dudy = d[b] / 2, dvdy = d[b];
				eu_thread_init(f->t, 8, 0xff);
				for (unsigned ch = 0; ch < 8; ch++) {
					unsigned px = ch & 1, py = ch >> 1 & 1;
					uv_channel(f, FX_PAYLOAD, ch, 0.3f + px * dudx + py * dudy,
						   0.4f + px * dvdx + py * dvdy);
				}
				CHECK_EQ(fx_send(f, fx_desc(0, samp, SMP_LOD, 8), 8, 2, 2, false,
						 0xff), 0);
				double rx = hypot(dudx * 16, dvdx * 8), ry = hypot(dudy * 16, dvdy * 8);
				double rho = rx > ry ? rx : ry;
				double bias = samp == 1 ? 1.0 : 0.0;
				float expect_g = rho > 0 ? (float)(round(log2(rho) * 256) / 256 + bias)
							 : -INFINITY;
				double lo = samp == 0 ? 0.5 : 0, hi = samp == 0 ? 3 : 4;
				double c = expect_g < lo ? lo : expect_g > hi ? hi : expect_g;
				if (samp == 1)
					c = ceil(c + 0.5) - 1;
				for (unsigned ch = 0; ch < 8; ch++) {
					float g = fx_get_f(f, FX_RESP + 1, ch);
					if (isinf(expect_g))
						CHECK(isinf(g) && g < 0);
					else
						CHECK(fabs(g - expect_g) < 1e-4);
					CHECK(fabs(fx_get_f(f, FX_RESP, ch) - c) < 1e-4);
				}
			}
	f->unit.pixel_shader = false;
}

/* ---- shadow ---- */

/* PRM vol. 7 Shadow Function: 0 where texel OP ref holds. */
static float prm_shadow(unsigned func, float t, float r)
{
	bool hold = func == 0 ? true : func == 1 ? false : func == 2 ? t < r : func == 3 ? t == r :
		    func == 4 ? t <= r : func == 5 ? t > r : func == 6 ? t != r : t >= r;
	return hold ? 0.0f : 1.0f;
}

static void test_shadow(struct fixture *f)
{
	const float texels[2] = { 0.25f, 0.75f };
	memcpy(f->mem + Z_BASE, texels, 8);
	struct fx_surf z = { .type = 1, .format = 216, .width = 2, .height = 1, .pitch = 8,
			     .base = Z_BASE };
	fx_surface(f, 1, &z);
	static const float refs[] = { 0.0f, 0.25f, 0.5f, 0.75f, 1.0f };
	for (unsigned func = 0; func < 8; func++) {
		fx_sampler(f, 2, &(struct fx_samp){ .shadow = func, .max_lod = 14,
						     .wrap_x = 2, .wrap_y = 2 });
		fx_sampler(f, 3, &(struct fx_samp){ .shadow = func, .min = 1, .mag = 1,
						     .max_lod = 14, .wrap_x = 2, .wrap_y = 2 });
		for (unsigned r = 0; r < 5; r++) {
			/* sample_c: ref, u, v; channel 0 on texel 0, 1 on texel 1,
			 * 2 halfway between (u = 0.5 at the shared edge) */
			eu_thread_init(f->t, 8, 0x07);
			const float us[3] = { 0.25f, 0.75f, 0.5f };
			for (unsigned ch = 0; ch < 3; ch++) {
				fx_set_f(f, FX_PAYLOAD, ch, refs[r]);
				uv_channel(f, FX_PAYLOAD + 1, ch, us[ch], 0.5f);
			}
			CHECK_EQ(fx_send(f, fx_desc(1, 2, SMP_SAMPLE_C, 8), 8, 3, 1, false, 0x07), 0);
			CHECK_NEAR(fx_get_f(f, FX_RESP, 0), prm_shadow(func, texels[0], refs[r]));
			CHECK_NEAR(fx_get_f(f, FX_RESP, 1), prm_shadow(func, texels[1], refs[r]));
			/* linear: both texels weigh 1/2, each compared first */
			CHECK_EQ(fx_send(f, fx_desc(1, 3, SMP_SAMPLE_C, 8), 8, 3, 1, false, 0x07), 0);
			CHECK_NEAR(fx_get_f(f, FX_RESP, 2), 0.5 * prm_shadow(func, texels[0], refs[r]) +
				   0.5 * prm_shadow(func, texels[1], refs[r]));
		}
	}
	/* R16_UNORM texel 65535 (1.0), ref 1.5 clamped to 1.0: EQUAL holds (0);
	 * R32_FLOAT keeps 1.5 */
	uint16_t one[2] = { 65535, 65535 };
	memcpy(f->mem + Z_BASE + 0x40, one, 4);
	struct fx_surf u16 = { .type = 1, .format = 266, .width = 2, .height = 1, .pitch = 4,
			       .base = Z_BASE + 0x40 };
	fx_surface(f, 2, &u16);
	fx_sampler(f, 2, &(struct fx_samp){ .shadow = 3, .max_lod = 14 });
	eu_thread_init(f->t, 8, 0x01);
	fx_set_f(f, FX_PAYLOAD, 0, 1.5f);
	uv_channel(f, FX_PAYLOAD + 1, 0, 0.25f, 0.5f);
	CHECK_EQ(fx_send(f, fx_desc(2, 2, SMP_SAMPLE_C, 8), 8, 3, 1, false, 0x01), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 0), 0.0f);
	fx_set_f(f, FX_PAYLOAD, 0, -0.5f);          /* clamped to 0: 1.0 != 0 */
	CHECK_EQ(fx_send(f, fx_desc(2, 2, SMP_SAMPLE_C, 8), 8, 3, 1, false, 0x01), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 0), 1.0f);
}

/* ---- gather4_po ---- */

static uint8_t gtex(unsigned x, unsigned y)
{
	return (uint8_t)(16 * y + x);
}

static void test_gather_po(struct fixture *f)
{
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++) {
			uint8_t *p = f->mem + G_BASE + y * 16 + x * 4;
			p[0] = gtex(x, y);
			p[1] = p[2] = 0;
			p[3] = 255;
		}
	struct fx_surf s = { .type = 1, .format = 199, .width = 4, .height = 4, .pitch = 16,
			     .base = G_BASE };
	fx_surface(f, 3, &s);
	fx_sampler(f, 4, &(struct fx_samp){ .max_lod = 14 });   /* wrap: repeat */
	/* u, v at the corner shared by texels (0..1, 0..1): i0 = 0, j0 = 0;
	 * channel k offsets (k, -k); textureGather: x (i0, j1), y (i1, j1),
	 * z (i1, j0), w (i0, j0), indices wrapping mod 4 */
	eu_thread_init(f->t, 8, 0x0f);
	for (unsigned ch = 0; ch < 4; ch++) {
		uv_channel(f, FX_PAYLOAD, ch, 0.5f, 0.5f);
		eu_grf_set_ud(f->t, FX_PAYLOAD + 2, ch, ch & 63);
		eu_grf_set_ud(f->t, FX_PAYLOAD + 3, ch, (uint32_t)(-(int32_t)ch) & 63);
	}
	CHECK_EQ(fx_send(f, fx_desc(3, 4, SMP_GATHER4_PO, 8), 8, 4, 4, false, 0x0f), 0);
	for (unsigned ch = 0; ch < 4; ch++) {
		int i0 = (int)(1 + ch) & 3, i1 = (int)(2 + ch) & 3;
		int j0 = (1 - (int)ch) & 3, j1 = (2 - (int)ch) & 3;
		CHECK_NEAR(fx_get_f(f, FX_RESP, ch), gtex((unsigned)i0, (unsigned)j1) / 255.0f);
		CHECK_NEAR(fx_get_f(f, FX_RESP + 1, ch), gtex((unsigned)i1, (unsigned)j1) / 255.0f);
		CHECK_NEAR(fx_get_f(f, FX_RESP + 2, ch), gtex((unsigned)i1, (unsigned)j0) / 255.0f);
		CHECK_NEAR(fx_get_f(f, FX_RESP + 3, ch), gtex((unsigned)i0, (unsigned)j0) / 255.0f);
	}
}

/* ---- seamless cube ---- */

static void test_cube_seamless(struct fixture *f)
{
	/* face k: every texel R = 10 + 20 k */
	for (unsigned face = 0; face < 6; face++)
		for (unsigned y = 0; y < 2; y++)
			for (unsigned x = 0; x < 2; x++) {
				uint8_t *p = f->mem + CUBE_BASE + (face * 4 + y) * 8 + x * 4;
				p[0] = (uint8_t)(10 + 20 * face);
				p[3] = 255;
			}
	struct fx_surf c = { .type = 3, .format = 199, .width = 2, .height = 2, .pitch = 8,
			     .qpitch = 4, .base = CUBE_BASE };
	fx_surface(f, 4, &c);
	/* linear, TEXCOORDMODE_CUBE (3) in x and y: seamless; clamp: not */
	fx_sampler(f, 5, &(struct fx_samp){ .min = 1, .mag = 1, .max_lod = 14, .wrap_x = 3,
					     .wrap_y = 3 });
	fx_sampler(f, 6, &(struct fx_samp){ .min = 1, .mag = 1, .max_lod = 14, .wrap_x = 2,
					     .wrap_y = 2 });
	/* direction (1, 0, 1 - 2^-10): face +X, sc = -z: u just above 0, so
	 * the footprint's left column is past +X's edge at sc = -1, i.e. the
	 * +Z face (table 8.19: +Z's sc = x = 1 is its right edge); tc = -y = 0:
	 * v = 1/2, the rows weigh (t = 0.5 texel) 1/2 each, both in the face */
	eu_thread_init(f->t, 8, 0x01);
	fx_set_f(f, FX_PAYLOAD, 0, 1.0f);
	fx_set_f(f, FX_PAYLOAD + 1, 0, 0.0f);
	fx_set_f(f, FX_PAYLOAD + 2, 0, 1.0f - 1.0f / 1024);
	CHECK_EQ(fx_send(f, fx_desc(4, 5, SMP_SAMPLE, 8), 8, 3, 1, false, 0x01), 0);
	double u = (1.0 / 1024 / (1.0)) * 0.5;           /* (sc / ma + 1) / 2, sc ~ -1 */
	u = (-(1.0 - 1.0 / 1024) + 1) * 0.5;
	double t = u * 2 - 0.5, w_left = 1 - (t - floor(t));
	double expect = w_left * 90 + (1 - w_left) * 10;   /* +Z is face 4: 90 */
	CHECK(fabs(fx_get_f(f, FX_RESP, 0) * 255 - expect) < 0.01);
	eu_thread_init(f->t, 8, 0x01);
	CHECK_EQ(fx_send(f, fx_desc(4, 6, SMP_SAMPLE, 8), 8, 3, 1, false, 0x01), 0);
	CHECK_NEAR(fx_get_f(f, FX_RESP, 0), 10 / 255.0f);
}

/* The implicit LOD of a cube map at a face's corner: a subspan whose
 * pixel 3 is the face +X's corner texel centre and whose pixels 0-2 are
 * helpers beyond its edges, their directions normalised to a major
 * component of 1 as Mesa gives them (so pixel 0's ties y and z, which
 * picks another face). Pixel 3's LOD: the differences of the four
 * directions projected on ITS face (+X: s = -z / x, t = -y / x, OpenGL
 * table 8.19; u = (s + 1) / 2), rho = max(|(du/dx, dv/dx)|, |(du/dy,
 * dv/dy)|) * 32 (eq. 8.6): one texel a pixel, LOD 0. Projected on pixel
 * 0's face it was 0.52 (piglit fbo-cubemap: the corner pixel read the
 * next level). */
static void test_cube_corner_lod(struct fixture *f)
{
	struct fx_surf c = { .type = 3, .format = 199, .width = 32, .height = 32, .pitch = 128,
			     .qpitch = 52, .mip_count = 5, .base = 0x20000 };
	fx_surface(f, 6, &c);
	fx_sampler(f, 7, &(struct fx_samp){ .mip = 3, .max_lod = 14 });
	f->unit.pixel_shader = true;
	const double a = 1.0 / 32;     /* half a texel in s, t */
	/* (i, j): column and row of the face, -1 outside: s = -1 + (2i+1) a */
	double dir[4][3];
	for (unsigned p = 0; p < 4; p++) {
		int i = (int)(p & 1) - 1, j = (int)(p >> 1) - 1;  /* 0: (-1, -1), 3: (0, 0) */
		double sc = -1 + (2 * i + 1) * a, tc = -1 + (2 * j + 1) * a;
		double v[3] = { 1, -tc, -sc };      /* x, y = -t, z = -s */
		double m = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));
		for (int k = 0; k < 3; k++)
			dir[p][k] = v[k] / m;
	}
	eu_thread_init(f->t, 8, 0x0f);
	for (unsigned p = 0; p < 4; p++)
		for (unsigned k = 0; k < 3; k++)
			fx_set_f(f, FX_PAYLOAD + k, p, (float)dir[p][k]);
	CHECK_EQ(fx_send(f, fx_desc(6, 7, SMP_LOD, 8), 8, 3, 2, false, 0x0f), 0);
	/* oracle: the projections on +X */
	double u[4], v[4];
	for (unsigned p = 0; p < 4; p++) {
		u[p] = (-dir[p][2] / dir[p][0] + 1) / 2;
		v[p] = (-dir[p][1] / dir[p][0] + 1) / 2;
	}
	double rx = hypot(u[1] - u[0], v[1] - v[0]) * 32, ry = hypot(u[2] - u[0], v[2] - v[0]) * 32;
	double expect = round(log2(fmax(rx, ry)) * 256) / 256;
	CHECK(fabs(expect) < 0.02);         /* the hand computation above */
	CHECK(fabs(fx_get_f(f, FX_RESP + 1, 3) - expect) < 1e-4);
	f->unit.pixel_shader = false;
}

/* ---- multisample ---- */

static void test_multisample(struct fixture *f)
{
	/* 4x4 R32_UINT, 4 samples, MSS: sample s of pixel (x, y) in slice s,
	 * QPitch 4 rows; value 1000 s + 10 y + x */
	for (unsigned s = 0; s < 4; s++)
		for (unsigned y = 0; y < 4; y++)
			for (unsigned x = 0; x < 4; x++) {
				uint32_t v = 1000 * s + 10 * y + x;
				memcpy(f->mem + MS_BASE + (s * 4 + y) * 16 + x * 4, &v, 4);
			}
	struct fx_surf m = { .type = 1, .format = 215, .width = 4, .height = 4, .pitch = 16,
			     .qpitch = 4, .base = MS_BASE };
	fx_surface(f, 5, &m);
	uint32_t *ss = fx_dw(f, FX_SS(5));
	fx_bits(&ss[4], 5, 3, 2);                 /* Number of Multisamples: 4 */
	fx_bits(&ss[4], 6, 6, 0);                 /* MSFMT_MSS */
	/* MCS: AUX_MCS, aux pitch 128 (field: tiles - 1), aux base; element of
	 * pixel (x, y) at the Y-tile offset of byte x, row y */
	fx_bits(&ss[6], 2, 0, 1);
	fx_bits(&ss[6], 11, 3, 0);
	ss[10] = MCS_BASE;
	/* pixel (1, 2): samples 0..3 stored in slices 2, 0, 3, 1 (2 bits each);
	 * pixel (2, 2): all ones, cleared */
	uint8_t mcs12 = 2 | 0 << 2 | 3 << 4 | 1 << 6;
	f->mem[MCS_BASE + 2 * 16 + 1] = mcs12;       /* Y tile: (x, y) -> y*16 + x */
	f->mem[MCS_BASE + 2 * 16 + 2] = 0xff;
	/* ld_mcs (u, v, r, lod) on pixels (1, 2) and (2, 2) */
	eu_thread_init(f->t, 8, 0x03);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 0, 1);
	eu_grf_set_ud(f->t, FX_PAYLOAD + 1, 0, 2);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 1, 2);
	eu_grf_set_ud(f->t, FX_PAYLOAD + 1, 1, 2);
	CHECK_EQ(fx_send(f, fx_desc(5, 0, SMP_LD_MCS, 8), 8, 2, 2, false, 0x03), 0);
	if (f->t->fault[0])
		fprintf(stderr, "fault: %s\n", f->t->fault);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP, 0), mcs12);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP, 1), 0xffu);
	/* ld2dss (si, u, v): slice = si */
	eu_thread_init(f->t, 8, 0x0f);
	for (unsigned ch = 0; ch < 4; ch++) {
		eu_grf_set_ud(f->t, FX_PAYLOAD, ch, ch);
		eu_grf_set_ud(f->t, FX_PAYLOAD + 1, ch, 1);
		eu_grf_set_ud(f->t, FX_PAYLOAD + 2, ch, 2);
	}
	CHECK_EQ(fx_send(f, fx_desc(5, 0, SMP_LD2DSS, 8), 8, 3, 1, false, 0x0f), 0);
	for (unsigned ch = 0; ch < 4; ch++)
		CHECK_EQ(eu_grf_ud(f->t, FX_RESP, ch), 1000 * ch + 21);
	/* ld2dms (si, mcs, u, v): slices through the MCS value */
	eu_thread_init(f->t, 8, 0x0f);
	static const unsigned slice[4] = { 2, 0, 3, 1 };
	for (unsigned ch = 0; ch < 4; ch++) {
		eu_grf_set_ud(f->t, FX_PAYLOAD, ch, ch);
		eu_grf_set_ud(f->t, FX_PAYLOAD + 1, ch, mcs12);
		eu_grf_set_ud(f->t, FX_PAYLOAD + 2, ch, 1);
		eu_grf_set_ud(f->t, FX_PAYLOAD + 3, ch, 2);
	}
	CHECK_EQ(fx_send(f, fx_desc(5, 0, SMP_LD2DMS, 8), 8, 4, 1, false, 0x0f), 0);
	for (unsigned ch = 0; ch < 4; ch++)
		CHECK_EQ(eu_grf_ud(f->t, FX_RESP, ch), 1000 * slice[ch] + 21);
	/* all-ones MCS: the clear colour (gen8: one bit a channel; R set) */
	fx_bits(&ss[7], 31, 31, 1);
	eu_thread_init(f->t, 8, 0x01);
	eu_grf_set_ud(f->t, FX_PAYLOAD, 0, 3);
	eu_grf_set_ud(f->t, FX_PAYLOAD + 1, 0, 0xff);
	eu_grf_set_ud(f->t, FX_PAYLOAD + 2, 0, 2);
	eu_grf_set_ud(f->t, FX_PAYLOAD + 3, 0, 2);
	CHECK_EQ(fx_send(f, fx_desc(5, 0, SMP_LD2DMS, 8), 8, 4, 1, false, 0x01), 0);
	CHECK_EQ(eu_grf_ud(f->t, FX_RESP, 0), 1u);
	/* a filtered lookup on it is refused */
	eu_thread_init(f->t, 8, 0x01);
	CHECK_EQ(fx_send(f, fx_desc(5, 0, SMP_SAMPLE, 8), 8, 2, 1, false, 0x01), -1);
	CHECK(strstr(f->t->fault, "4-sample") != NULL);
}

int main(void)
{
	struct fixture f;
	fx_init(&f, 8);
	test_lod_grid(&f);
	test_shadow(&f);
	test_gather_po(&f);
	test_cube_seamless(&f);
	test_cube_corner_lod(&f);
	test_multisample(&f);
	fx_fini(&f);
	return test_exit();
}
