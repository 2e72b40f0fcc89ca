/* The render target write's span path (rt_write.c write_span: eight
 * pixels packed at once by the format's eight-element packer, stored a
 * subspan row at a time where the two pixels are adjacent in memory)
 * against the per-pixel reference path (write_pixel, taken when blending
 * is on), bit for bit: a triangle with a colour per vertex (every pixel a
 * different colour, edges at odd pixels so subspans are partly lit) is
 * drawn twice into the same target, once without blending and once with
 * BLEND_STATE ONE * src + ZERO * dst (the same colours through the
 * reference path), for SIMD8 and SIMD16 threads, linear, X- and Y-tiled
 * targets and formats of 1, 2, 4, 8 and 16 bytes (the 16-byte elements
 * are never adjacent pairs in a Y tile's 16-byte OWords); the target is
 * smaller than the viewport (writes past it dropped). Which pixels are
 * written is checked against the triangle's edge functions at the pixel
 * centres computed here, and the memory around the target stays as it
 * was. The span path stores a subspan through one offset computation
 * (surface_view_subspan_offsets): the first draw must count subspans
 * there (rt_write_fast_subspans) and the blended one none. Also: two layers of an array target written by one draw. */
#include "backend_fixture.h"
#include "drv/seed_shaders.h"
#include "gpu/render/topology.h"
#include "gpu/render/wm_draw.h"

#define VW 32                    /* viewport */
#define VH 24
#define TW 27                    /* target: smaller than the viewport */
#define TH 21

/* NDC positions: window (x + 1) * VW / 2, (y + 1) * VH / 2 */
static const float tri[3][2] = { { -0.97f, -0.93f }, { 0.91f, -0.41f }, { -0.33f, 0.95f } };
static const float colours[3][4] = {
	{ 0.1f, 0.9f, 0.3f, 1.0f }, { 0.8f, 0.05f, 0.6f, 0.2f }, { 0.45f, 0.5f, 0.99f, 0.7f },
};

struct rt_fmt { uint32_t format; uint32_t cpp; };
static const struct rt_fmt fmts[] = {
	{ FMT_R8G8B8A8_UNORM, 4 }, { FMT_B8G8R8A8_UNORM, 4 }, { FMT_R10G10B10A2_UNORM, 4 },
	{ FMT_B5G6R5_UNORM, 2 }, { FMT_R8_UNORM, 1 }, { FMT_R16G16B16A16_FLOAT, 8 },
	{ FMT_R32G32B32A32_FLOAT, 16 }, { FMT_R16G16B16A16_UNORM, 8 },
};

static int draw(bool simd16, uint32_t format, uint32_t pitch, int tile_mode, bool blend)
{
	fx_reset(simd16 ? fx_simd16_fs : gtdrv_color_fs, format, VW, VH, pitch);
	fx_target(format, TW, TH, pitch, tile_mode);
	if (simd16)
		REC("3DSTATE_PS", { "8 Pixel Dispatch Enable", 0 }, { "16 Pixel Dispatch Enable", 1 },
		    { "Dispatch GRF Start Register For Constant/Setup Data 0", 6 });
	if (blend)
		PUT("BLEND_STATE_ENTRY", FX_DYN + FX_BLEND + 4, { "Color Buffer Blend Enable", 1 },
		    { "Source Blend Factor", BF_ONE }, { "Destination Blend Factor", BF_ZERO },
		    { "Source Alpha Blend Factor", BF_ONE },
		    { "Destination Alpha Blend Factor", BF_ZERO });
	memset(fx_mem + FX_RT, 0xee, 64 * 1024);
	fx_begin();
	for (unsigned i = 0; i < 3; i++)
		fx_vertex(i, tri[i][0], tri[i][1], 0.5f, 1, colours[i]);
	return fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2 }, 1, 3);
}

/* Whether the centre of pixel (x, y) is inside the triangle (no centre
 * lies on an edge with these vertices, so the fill rule plays no part). */
static bool inside(int x, int y)
{
	double px = x + 0.5, py = y + 0.5, s[3];
	for (int i = 0; i < 3; i++) {
		const float *a = tri[i], *b = tri[(i + 1) % 3];
		double ax = fx_win(a[0], VW), ay = fx_win(a[1], VH);
		double bx = fx_win(b[0], VW), by = fx_win(b[1], VH);
		s[i] = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
	}
	return (s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0);
}

static enum ref_tiling ref_of(int tile_mode)
{
	return tile_mode == 2 ? REF_TILE_X : tile_mode == 3 ? REF_TILE_Y : REF_LINEAR;
}

static uint8_t span_img[64 * 1024];

static void one(bool simd16, const struct rt_fmt *f, int tile_mode)
{
	uint32_t pitch = tile_mode == 2 ? 512 : tile_mode == 3 ? 128 * ((TW * f->cpp + 127) / 128) :
			 TW * f->cpp + 8;
	uint64_t fast = rt_write_fast_subspans();
	CHECK_EQ(draw(simd16, f->format, pitch, tile_mode, false), 0);
	CHECK(rt_write_fast_subspans() > fast);
	memcpy(span_img, fx_mem + FX_RT, sizeof(span_img));
	fast = rt_write_fast_subspans();
	CHECK_EQ(draw(simd16, f->format, pitch, tile_mode, true), 0);
	CHECK_EQ(rt_write_fast_subspans(), fast);
	int diff = 0, wrong = 0, written = 0;
	for (size_t i = 0; i < sizeof(span_img); i++)
		if (span_img[i] != fx_mem[FX_RT + i] && diff++ < 3)
			fprintf(stderr, "SIMD%d format %u tile %d: byte 0x%zx span %02x reference %02x\n",
				simd16 ? 16 : 8, f->format, tile_mode, i, span_img[i], fx_mem[FX_RT + i]);
	CHECK_EQ(diff, 0);
	/* written pixels: exactly those inside, within the target */
	uint8_t untouched[16];
	memset(untouched, 0xee, sizeof(untouched));
	size_t bytes = 0;
	for (int y = 0; y < TH; y++)
		for (int x = 0; x < TW; x++) {
			uint64_t off = ref_tiled_offset(ref_of(tile_mode), (uint64_t)x * f->cpp,
							(uint64_t)y, pitch);
			bool w = memcmp(span_img + off, untouched, f->cpp) != 0;
			written += w;
			if (w != inside(x, y) && wrong++ < 3)
				fprintf(stderr, "SIMD%d format %u tile %d: pixel %d,%d %s\n",
					simd16 ? 16 : 8, f->format, tile_mode, x, y,
					w ? "written outside" : "not written inside");
			bytes += w ? f->cpp : 0;
		}
	CHECK_EQ(wrong, 0);
	CHECK(written > 100);
	/* nothing else written: every byte not 0xee belongs to a written pixel */
	size_t changed = 0;
	for (size_t i = 0; i < sizeof(span_img); i++)
		changed += span_img[i] != 0xee;
	CHECK(changed <= bytes);
}

/* Two triangles of one draw on two layers of a 2D array target (Render
 * Target Array Index 0 from vertex 0, 1 from vertex 2, the provoking
 * vertices): the view each RT write uses is cached per thread slot and
 * layer, so the second triangle's writes must land in layer 1 (QPitch 16
 * rows below) and the first's in layer 0, every pixel in exactly one;
 * on one host thread and on the pool. */
static void layers_in_one_draw(const char *threads)
{
	/* one host thread: the same slot (and cache) runs both triangles */
	setenv("GTSIM_THREADS", threads, 1);
	enum { S = 16, PITCH = S * 4 };
	static const float green[4] = { 0, 1, 0, 1 };
	fx_reset(gtdrv_color_fs, FMT_R8G8B8A8_UNORM, S, S, PITCH);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x40, { "Surface Array", 1 }, { "Depth", 1 },
	    { "Surface QPitch", S / 4 });
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++) {
		uint32_t rtai = i == 2;
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, green);
		memcpy(fx_vue(i) + 1, &rtai, 4);
	}
	CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
	int bad = 0, in0 = 0, in1 = 0;
	for (int y = 0; y < S; y++)
		for (int x = 0; x < S; x++) {
			bool l0 = fx_px(PITCH, 4, x, y)[1] != 0, l1 = fx_px(PITCH, 4, x, y + S)[1] != 0;
			in0 += l0;
			in1 += l1;
			/* the diagonal from (S, 0) to (0, S) splits them */
			bad += l0 == l1 || (l0 && x + y + 1 > S) || (l1 && x + y + 1 < S);
		}
	CHECK_EQ(bad, 0);
	CHECK(in0 > 100 && in1 > 100);
}

int main(void)
{
	fx_init();
	for (int simd16 = 0; simd16 < 2; simd16++)
		for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++)
			for (int tile_mode = 0; tile_mode <= 3; tile_mode++)
				if (tile_mode != 1)
					one(simd16, &fmts[f], tile_mode);
	layers_in_one_draw("1");
	layers_in_one_draw("4");
	fx_fini();
	return test_exit();
}
