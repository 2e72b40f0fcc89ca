/* The sampler through a real draw (the back end's fixture): a SIMD8 PS
 * interpolates a texture coordinate, samples a 4x4 R8G8B8A8_UNORM texture
 * (binding table entry 1, SAMPLER_STATE 0: nearest, repeat) and writes the
 * result to a 16x16 target. Pixel (x, y) has its centre at texture
 * coordinate ((x + 0.5) / 16, (y + 0.5) / 16) * k for corner coordinates
 * k = 1 and k = 2 (the texture repeated twice), so its texel is
 * ((x * k / 4) mod 4, (y * k / 4) mod 4): the target must hold that
 * texel's bytes exactly. */
#include "integration/render/backend_fixture.h"
#include "gpu/render/topology.h"

#define W 16
#define H 16
#define PITCH (W * 4)
#define TEX 0xa0000u
#define SAMPLER_OFF 0x500u     /* from FX_DYN */

static const char tex_fs[] =
	"pln(8)          g124<1>F        g4<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g125<1>F        g4.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"send(8)         g120<1>UW       g124<8,8,1>UD   0x04420001\n"
	"                sampler MsgDesc: sample SIMD8 Surface = 1 Sampler = 0 mlen 2 rlen 4 { align1 1Q };\n"
	"sendc(8)        null<1>UW       g120<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

static uint8_t texel(unsigned x, unsigned y, unsigned c)
{
	const unsigned v[4] = { 16 * x + 3, 16 * y + 5, 7 * (x + 4 * y), 255 - 9 * x };
	return (uint8_t)v[c];
}

static void texture_state(void)
{
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++)
			for (unsigned c = 0; c < 4; c++)
				fx_mem[TEX + y * 16 + x * 4 + c] = texel(x, y, c);
	uint32_t entry = 0x80;
	memcpy(fx_mem + FX_SURF + 4, &entry, 4);
	PUT("RENDER_SURFACE_STATE", FX_SURF + 0x80, { "Surface Type", 1 },
	    { "Surface Format", FMT_R8G8B8A8_UNORM }, { "Width", 3 }, { "Height", 3 },
	    { "Surface Pitch", 15 }, { "Surface Horizontal Alignment", 1 },
	    { "Surface Vertical Alignment", 1 }, { "Shader Channel Select Red", 4 },
	    { "Shader Channel Select Green", 5 }, { "Shader Channel Select Blue", 6 },
	    { "Shader Channel Select Alpha", 7 }, { "Surface Base Address", TEX });
	/* nearest, repeat (address control 0), Max LOD 14 */
	PUT("SAMPLER_STATE", FX_DYN + SAMPLER_OFF, { "Max LOD", 14 * 256 });
}

static void draw(float k)
{
	fx_reset(tex_fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	texture_state();
	fx_begin();
	fx_rs->sampler_state[RS_PS] = SAMPLER_OFF;
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++) {
		float uv[4] = { pos[i][0] > 0 ? k : 0, pos[i][1] > 0 ? k : 0, 0, 1 };
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, uv);
	}
	CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);
	unsigned bad = 0;
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++) {
			unsigned tx = (unsigned)(x * k / 4) % 4, ty = (unsigned)(y * k / 4) % 4;
			const uint8_t *p = fx_px(PITCH, 4, (int)x, (int)y);
			for (unsigned c = 0; c < 4; c++)
				if (p[c] != texel(tx, ty, c) && bad++ < 5)
					fprintf(stderr, "k %g pixel (%u,%u).%u: %u, want %u\n", k, x,
						y, c, p[c], texel(tx, ty, c));
		}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	fx_init();
	draw(1);
	draw(2);
	fx_fini();
	return test_exit();
}
