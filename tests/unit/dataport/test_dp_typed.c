/* Typed surface read/write: format conversion (R8G8B8A8_UNORM packed with
 * round-to-nearest, R16G16_UINT, R32_FLOAT buffers), the upper and lower
 * slot groups and header M0.7's slot enables, channel masks that keep the
 * other channels, a Y-tiled surface (the PRM's tile formula written here),
 * array layers from Minimum Array Element, the level from Surface Min LOD
 * and the message's LOD (within MIP Count/LOD, as isl binds storage images),
 * and coordinates outside (reads 0, writes dropped). */
#include "dp_fixture.h"

#define GRP_LO (1u << 4)
#define GRP_HI (2u << 4)

static float fx_getf(struct fixture *f, unsigned reg, unsigned i)
{
	uint32_t u = fx_get(f, reg, i);
	float v;
	memcpy(&v, &u, 4);
	return v;
}

static void header(struct fixture *f, uint32_t m07)
{
	for (unsigned i = 0; i < 8; i++)
		fx_set(f, FX_PAYLOAD, i, i == 7 ? m07 : 0);
}

static void test_unorm(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	struct fx_surf s = { .type = 1, .format = FX_R8G8B8A8_UNORM, .width = 4, .height = 2,
			     .pitch = 16, .base = FX_DATA };
	fx_surface(&f, 0, &s);
	/* write RGBA = (1, 0.5, 0, 0.25) to (i % 4, i / 4); slot 6 disabled by
	 * the header; slot 7 at x = 4: out */
	header(&f, 0xbf);
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD + 1, i, i == 7 ? 4 : i % 4);
		fx_set(&f, FX_PAYLOAD + 2, i, i / 4);
		fx_set(&f, FX_PAYLOAD + 3, i, fbits(1.0f));
		fx_set(&f, FX_PAYLOAD + 4, i, fbits(0.5f));
		fx_set(&f, FX_PAYLOAD + 5, i, fbits(0.0f));
		fx_set(&f, FX_PAYLOAD + 6, i, fbits(0.25f));
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(13, GRP_LO, 0), 8, 7, 0, true, 0xff), 0);
	/* 255, 127.5 -> 128, 0, 63.75 -> 64 */
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_dw(&f, FX_DATA)[i], i == 6 || i == 7 ? 0 : 0x400080ffu);
	/* read back R and A only (11:8 = 0b0110), the upper slot group with
	 * M0.7 15:8 */
	fx_dw(&f, FX_DATA)[6] = 0x33221100;
	header(&f, 0xff00);
	fx_fill_resp(&f, 2, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(5, GRP_HI | 0x6, 0), 8, 3, 2, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++) {
		bool out = i == 7;
		float r = out ? 0 : i == 6 ? 0.0f : 1.0f;
		float a = out ? 0 : i == 6 ? 0x33 / 255.0f : 64 / 255.0f;
		CHECK(fabsf(fx_getf(&f, FX_RESP, i) - r) < 1e-6f);
		CHECK(fabsf(fx_getf(&f, FX_RESP + 1, i) - a) < 1e-6f);
	}
	fx_fini(&f);
}

static void test_uint_partial(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	struct fx_surf s = { .type = 1, .format = FX_R16G16_UINT, .width = 8, .height = 1,
			     .pitch = 32, .base = FX_DATA };
	fx_surface(&f, 1, &s);
	for (unsigned i = 0; i < 8; i++)
		fx_dw(&f, FX_DATA)[i] = 0x11110000 + i;
	/* write only G (11:8 = 0b1101): R is kept; G = 0x12345 is clamped to
	 * 0xffff as the render target's UINT conversion does */
	header(&f, 0xff);
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD + 1, i, i);
		fx_set(&f, FX_PAYLOAD + 2, i, i == 0 ? 0x12345 : 0x50 + i);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(13, GRP_LO | 0xd, 1), 8, 3, 0, true, 0xff),
		 0);
	CHECK_EQ(fx_dw(&f, FX_DATA)[0], 0xffff0000);
	for (unsigned i = 1; i < 8; i++)
		CHECK_EQ(fx_dw(&f, FX_DATA)[i], (0x50 + i) << 16 | i);
	fx_fini(&f);
}

static void test_buffer_and_tiled(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	/* an R32_FLOAT buffer of 6 entries, stride 4 */
	struct fx_surf b = { .type = 4, .format = FX_R32_FLOAT, .width = 6, .pitch = 4,
			     .base = FX_DATA };
	fx_surface(&f, 0, &b);
	header(&f, 0xff);
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD + 1, i, 7 - i);
		fx_set(&f, FX_PAYLOAD + 2, i, fbits(0.5f * i));
	}
	/* cmask 0b1110: R only */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(13, GRP_LO | 0xe, 0), 8, 3, 0, true, 0xff), 0);
	for (unsigned e = 0; e < 8; e++)
		CHECK_EQ(fx_dw(&f, FX_DATA)[e], e < 6 ? fbits(0.5f * (7 - e)) : 0);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(5, GRP_LO | 0xe, 0), 8, 2, 1, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), 7 - i < 6 ? fbits(0.5f * i) : 0);

	/* Y-tiled R32_UINT 32x32, pitch 128 (one tile): byte (bx, y) of a
	 * Y tile is at (bx / 16) * 512 + y * 16 + bx % 16 */
	struct fx_surf t = { .type = 1, .format = FX_R32_UINT, .width = 32, .height = 32,
			     .pitch = 128, .tiling = 3, .base = FX_DATA + 0x1000 };
	fx_surface(&f, 1, &t);
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD + 1, i, 5 + i);
		fx_set(&f, FX_PAYLOAD + 2, i, 3 * i);
		fx_set(&f, FX_PAYLOAD + 3, i, 0x1234 + i);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(13, GRP_LO | 0xe, 1), 8, 4, 0, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++) {
		unsigned bx = 4 * (5 + i), y = 3 * i;
		CHECK_EQ(fx_dw(&f, FX_DATA + 0x1000 + (bx / 16) * 512 + y * 16 + bx % 16)[0],
			 0x1234 + i);
	}
	fx_fini(&f);
}

static void test_array_and_level(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	/* 2D array 4x4, QPitch 4 rows, pitch 16, R32_UINT, a view of 2
	 * layers (Depth 1: the layers from Minimum Array Element) from
	 * Minimum Array Element 1: layer r is slice 1 + r, r = 2 is out */
	struct fx_surf s = { .type = 1, .format = FX_R32_UINT, .width = 4, .height = 4,
			     .depth = 2, .pitch = 16, .qpitch = 4, .array = true, .min_array = 1,
			     .base = FX_DATA };
	fx_surface(&f, 0, &s);
	header(&f, 0xff);
	for (unsigned i = 0; i < 8; i++) {
		fx_set(&f, FX_PAYLOAD + 1, i, 1);
		fx_set(&f, FX_PAYLOAD + 2, i, 1);
		fx_set(&f, FX_PAYLOAD + 3, i, i < 2 ? i : 2);
		fx_set(&f, FX_PAYLOAD + 4, i, 0xaa + i);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(13, GRP_LO | 0xe, 0), 8, 5, 0, true, 0x3), 0);
	/* slice 1 + r: rows 4 (1 + r) + 1, column 1 */
	CHECK_EQ(fx_dw(&f, FX_DATA + (4 * 1 + 1) * 16 + 4)[0], 0xaa);
	CHECK_EQ(fx_dw(&f, FX_DATA + (4 * 2 + 1) * 16 + 4)[0], 0xab);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(13, GRP_LO | 0xe, 0), 8, 5, 0, true, 0x4), 0);
	for (unsigned k = 0; k < 16 * 16; k++)
		if (k != ((4 * 1 + 1) * 16 + 4) / 4 && k != ((4 * 2 + 1) * 16 + 4) / 4)
			CHECK_EQ(fx_dw(&f, FX_DATA)[k], 0);

	/* a level: 8x8 R32_UINT with 3 levels bound at level 1 as Mesa's isl
	 * binds a storage image (Surface Min LOD 1, MIP Count/LOD 0): level 1
	 * starts below level 0 (row 8); (1, 1) of level 1 */
	struct fx_surf m = { .type = 1, .format = FX_R32_UINT, .width = 8, .height = 8,
			     .pitch = 32, .min_lod = 1, .base = FX_DATA + 0x2000 };
	fx_surface(&f, 1, &m);
	fx_set(&f, FX_PAYLOAD + 1, 0, 1);
	fx_set(&f, FX_PAYLOAD + 2, 0, 1);
	fx_set(&f, FX_PAYLOAD + 3, 0, 0x77);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(13, GRP_LO | 0xe, 1), 8, 4, 0, true, 0x1), 0);
	CHECK_EQ(fx_dw(&f, FX_DATA + 0x2000 + (8 + 1) * 32 + 4)[0], 0x77);
	CHECK_EQ(fx_dw(&f, FX_DATA + 0x2000 + 1 * 32 + 4)[0], 0);   /* not level 0 */
	/* x = 4 is past level 1's 4 pixels */
	fx_set(&f, FX_PAYLOAD + 1, 0, 4);
	fx_set(&f, FX_RESP, 0, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(5, GRP_LO | 0xe, 1), 8, 3, 1, true, 0x1), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0);
	/* the message's LOD 1 is past MIP Count/LOD 0: out (read 0) */
	fx_dw(&f, FX_DATA + 0x2000 + 8 * 32 + 4 * 4)[0] = 0x99;  /* level 2 (0, 0): right of level 1's 4 (HALIGN 4) columns, row 8 */
	fx_set(&f, FX_PAYLOAD + 1, 0, 0);
	fx_set(&f, FX_PAYLOAD + 2, 0, 0);
	fx_set(&f, FX_PAYLOAD + 3, 0, 0);                /* R: layer 0 */
	fx_set(&f, FX_PAYLOAD + 4, 0, 1);                /* LOD 1 */
	fx_set(&f, FX_RESP, 0, 0xdeadbeef);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(5, GRP_LO | 0xe, 1), 8, 5, 1, true, 0x1), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0);
	/* with MIP Count/LOD 1 the same read is level 2's texel (0, 0) */
	m.lod = 1;
	fx_surface(&f, 1, &m);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(5, GRP_LO | 0xe, 1), 8, 5, 1, true, 0x1), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0x99);
	fx_fini(&f);
}

/* A Gen9 1D array bound at a level, as isl lays it out and binds it (the
 * piglit image level test's 1DArray case): R32_UINT, 16 texels, 5 levels
 * side by side in one row, each 64 texels aligned (SKL PRM "1D Alignment
 * Requirements"; HALIGN 4 in the state does not apply): levels at texels
 * 0, 64, 128, 192, 256; layers QPitch = 320 texels apart; Surface Pitch 0
 * (ignored for 1D). Bound at level 3 (Surface Min LOD 3, MIP Count/LOD 0)
 * from layer 1 (Minimum Array Element 1, Depth 1: 2 layers). The message's
 * U is the texel, V the layer. */
static void test_1d_array_level(void)
{
	struct fixture f;
	fx_init(&f, 9);
	struct fx_surf s = { .type = 0, .format = FX_R32_UINT, .width = 16, .height = 1,
			     .depth = 2, .pitch = 1, .qpitch = 320, .array = true, .min_lod = 3,
			     .min_array = 1, .base = FX_DATA };
	fx_surface(&f, 0, &s);
	uint32_t *img = fx_dw(&f, FX_DATA);
	img[1 * 320 + 192 + 0] = 0x1d30;   /* layer 1, level 3, texel 0 */
	img[2 * 320 + 192 + 1] = 0x1d31;   /* layer 2, level 3, texel 1 */
	img[1 * 320 + 64 + 0] = 0xbad1;    /* layer 1, level 1 (HALIGN 4 would put level 3 here) */
	header(&f, 0xff);
	/* reads: (0, 0) (1, 1) in; (2, 0) past level 3's 2 texels; (0, 2) past the layers */
	static const uint32_t u[4] = { 0, 1, 2, 0 }, v[4] = { 0, 1, 0, 2 };
	for (unsigned i = 0; i < 4; i++) {
		fx_set(&f, FX_PAYLOAD + 1, i, u[i]);
		fx_set(&f, FX_PAYLOAD + 2, i, v[i]);
		fx_set(&f, FX_RESP, i, 0xdeadbeef);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(5, GRP_LO | 0xe, 0), 8, 3, 1, true, 0xf), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 0), 0x1d30);
	CHECK_EQ(fx_get(&f, FX_RESP, 1), 0x1d31);
	CHECK_EQ(fx_get(&f, FX_RESP, 2), 0);
	CHECK_EQ(fx_get(&f, FX_RESP, 3), 0);
	/* a write of (1, 0): layer 1, level 3, texel 1; nothing else changes */
	fx_set(&f, FX_PAYLOAD + 1, 0, 1);
	fx_set(&f, FX_PAYLOAD + 2, 0, 0);
	fx_set(&f, FX_PAYLOAD + 3, 0, 0x5eed);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(13, GRP_LO | 0xe, 0), 8, 4, 0, true, 0x1), 0);
	for (unsigned k = 0; k < 3 * 320; k++) {
		uint32_t want = k == 1 * 320 + 193 ? 0x5eed : k == 1 * 320 + 192 ? 0x1d30 :
				k == 2 * 320 + 193 ? 0x1d31 : k == 1 * 320 + 64 ? 0xbad1 : 0;
		CHECK_EQ(img[k], want);
	}
	fx_fini(&f);
}

/* A 3D view (Gen9: slices QPitch rows apart at level 0): R counts from
 * Minimum Array Element up to Render Target View Extent, as isl binds one
 * slice of a 3D texture (KHR_gl_texture_3D_image, a non-layered binding) */
static void test_3d_view(void)
{
	struct fixture f;
	fx_init(&f, 9);
	struct fx_surf s = { .type = 2, .format = FX_R32_UINT, .width = 4, .height = 4,
			     .depth = 4, .pitch = 16, .qpitch = 4, .min_array = 2, .rtve = 0,
			     .base = FX_DATA };
	fx_surface(&f, 0, &s);
	header(&f, 0xff);
	/* slot 0 (1, 2, R 0) -> slice 2; slot 1 (1, 2, R 1) past the extent */
	for (unsigned i = 0; i < 2; i++) {
		fx_set(&f, FX_PAYLOAD + 1, i, 1);
		fx_set(&f, FX_PAYLOAD + 2, i, 2);
		fx_set(&f, FX_PAYLOAD + 3, i, i);
		fx_set(&f, FX_PAYLOAD + 4, i, 0x3d0 + i);
	}
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(13, GRP_LO | 0xe, 0), 8, 5, 0, true, 0x3), 0);
	for (unsigned k = 0; k < 4 * 4 * 4; k++)
		CHECK_EQ(fx_dw(&f, FX_DATA)[k], k == (4 * 2 + 2) * 4 + 1 ? 0x3d0 : 0);
	/* with an extent of 1, R 1 is slice 3 */
	s.rtve = 1;
	fx_surface(&f, 0, &s);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(13, GRP_LO | 0xe, 0), 8, 5, 0, true, 0x2), 0);
	CHECK_EQ(fx_dw(&f, FX_DATA)[(4 * 3 + 2) * 4 + 1], 0x3d1);
	fx_fini(&f);
}

static void test_headers(void)
{
	struct fixture f;
	fx_init(&f, 8);
	struct fx_surf s = { .type = 4, .format = FX_R32_UINT, .width = 8, .pitch = 4,
			     .base = FX_DATA };
	fx_surface(&f, 0, &s);
	/* Gen8 requires the header */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(5, GRP_LO | 0xe, 0), 8, 1, 1, false, 0xff),
		 -1);
	CHECK(strstr(f.t->fault, "typed surface read") != NULL);
	fx_fini(&f);
	/* Gen9 does not: every slot the send enables */
	fx_init(&f, 9);
	fx_surface(&f, 0, &s);
	for (unsigned i = 0; i < 8; i++)
		fx_dw(&f, FX_DATA)[i] = 0x60 + i;
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD, i, i);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(5, GRP_LO | 0xe, 0), 8, 1, 1, false, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), 0x60 + i);
	fx_fini(&f);
}

/* The same binding table entry, its RENDER_SURFACE_STATE rewritten in
 * place between two messages of one unit: the second message sees the new
 * base and format (the data port may keep decoded states only while their
 * bytes are unchanged). R32_FLOAT texels are stored bit for bit: a NaN
 * payload and a denormal survive a write and a read. */
static void test_state_rewritten(int gen)
{
	struct fixture f;
	fx_init(&f, gen);
	struct fx_surf s = { .type = 4, .format = FX_R32_UINT, .width = 8, .pitch = 4,
			     .base = FX_DATA };
	fx_surface(&f, 0, &s);
	for (unsigned i = 0; i < 8; i++) {
		fx_dw(&f, FX_DATA)[i] = 0x100 + i;
		fx_dw(&f, FX_DATA + 64)[i] = 0x200 + i;
	}
	header(&f, 0xff);
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD + 1, i, i);
	/* read R (11:8 = 0b1110) */
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(5, GRP_LO | 0xe, 0), 8, 2, 1, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), 0x100 + i);
	s.base = FX_DATA + 64;
	s.format = FX_R32_FLOAT;
	fx_surface(&f, 0, &s);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(5, GRP_LO | 0xe, 0), 8, 2, 1, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), 0x200 + i);
	/* width 4 now: slots 4..7 out of bounds, read as 0 */
	s.width = 4;
	fx_surface(&f, 0, &s);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(5, GRP_LO | 0xe, 0), 8, 2, 1, true, 0xff), 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_get(&f, FX_RESP, i), i < 4 ? 0x200 + i : 0);
	/* float bits: quiet NaN with payload, smallest denormal, -0 */
	const uint32_t bits[4] = { 0x7fc12345u, 0x00000001u, 0x80000000u, 0x3f800000u };
	for (unsigned i = 0; i < 8; i++)
		fx_set(&f, FX_PAYLOAD + 2, i, bits[i % 4]);
	CHECK_EQ(fx_send(&f, EU_SFID_DP_DC1, fx_desc(13, GRP_LO | 0xe, 0), 8, 3, 0, true, 0xff),
		 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK_EQ(fx_dw(&f, FX_DATA + 64)[i], i < 4 ? bits[i] : 0x200 + i);
	fx_fini(&f);
}

int main(void)
{
	test_unorm(8);
	test_unorm(9);
	test_uint_partial(8);
	test_uint_partial(9);
	test_buffer_and_tiled(8);
	test_buffer_and_tiled(9);
	test_array_and_level(8);
	test_array_and_level(9);
	test_3d_view();
	test_1d_array_level();
	test_headers();
	test_state_rewritten(8);
	test_state_rewritten(9);
	return test_exit();
}
