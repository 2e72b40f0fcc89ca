/* Which PS kernel a draw runs when 3DSTATE_PS enables several dispatch
 * widths. Three kernels, each filling a 16x16 target with a colour of its
 * own (SIMD8 red, SIMD16 green, SIMD32 blue), at three kernel start
 * pointers placed as the PRM's table "Dispatch enables to Kernel Start
 * Pointer" says (BDW/SKL 3DSTATE_PS), written out below:
 *
 *   enabled 8 16 32   KSP0     KSP1     KSP2
 *           1  0  0   SIMD8    -        -
 *           0  1  0   SIMD16   -        -
 *           0  0  1   SIMD32   -        -
 *           1  1  0   SIMD8    -        SIMD16
 *           1  0  1   SIMD8    SIMD32   -
 *           0  1  1   -        SIMD32   SIMD16
 *           1  1  1   SIMD8    SIMD32   SIMD16
 *
 * and the windower dispatches the widest enabled width (a whole 16x16
 * quad allows every width): every pixel must have that kernel's colour. */
#include "backend_fixture.h"
#include "gpu/render/topology.h"

#define W 16
#define H 16
#define PITCH (W * 4)

/* where each kernel is (64-byte aligned: KSP bits 63:6) */
#define AT8 0x0u
#define AT16 0x400u
#define AT32 0x800u

static const char simd8_red[] =
	"mov(8)          g124<1>F        0x3f800000F                     { align1 1Q };\n"
	"mov(8)          g125<1>F        0x0F                            { align1 1Q };\n"
	"mov(8)          g126<1>F        0x0F                            { align1 1Q };\n"
	"mov(8)          g127<1>F        0x3f800000F                     { align1 1Q };\n"
	"sendc(8)        null<1>UW       g124<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

static const char simd16_green[] =
	"mov(16)         g120<1>F        0x0F                            { align1 1H };\n"
	"mov(16)         g122<1>F        0x3f800000F                     { align1 1H };\n"
	"mov(16)         g124<1>F        0x0F                            { align1 1H };\n"
	"mov(16)         g126<1>F        0x3f800000F                     { align1 1H };\n"
	"sendc(16)       null<1>UW       g120<8,8,1>F    0x90031000\n"
	"                render MsgDesc: RT write SIMD16 LastRT Surface = 0 mlen 8 rlen 0 { align1 1H EOT };\n";

/* two SIMD16 halves (1H, 2H), each with its RT write (slot group 1 for
 * the second), as Mesa writes SIMD32 */
static const char simd32_blue[] =
	"mov(16)         g100<1>F        0x0F                            { align1 1H };\n"
	"mov(16)         g102<1>F        0x0F                            { align1 1H };\n"
	"mov(16)         g104<1>F        0x3f800000F                     { align1 1H };\n"
	"mov(16)         g106<1>F        0x3f800000F                     { align1 1H };\n"
	"sendc(16)       null<1>UW       g100<8,8,1>F    0x10031000\n"
	"                render MsgDesc: RT write SIMD16 LastRT Surface = 0 mlen 8 rlen 0 { align1 1H };\n"
	"mov(16)         g110<1>F        0x0F                            { align1 2H };\n"
	"mov(16)         g112<1>F        0x0F                            { align1 2H };\n"
	"mov(16)         g114<1>F        0x3f800000F                     { align1 2H };\n"
	"mov(16)         g116<1>F        0x3f800000F                     { align1 2H };\n"
	"sendc(16)       null<1>UW       g110<8,8,1>F    0x90031800\n"
	"                render MsgDesc: RT write SIMD16 LastRT Surface = 0 mlen 8 rlen 0 { align1 2H EOT };\n";

static void put_kernel(const char *text, uint32_t at)
{
	struct eu_asm_result res;
	if (eu_assemble(fx_gen, text, strlen(text), "ps.asm", &res)) {
		fprintf(stderr, "%s\n", res.error);
		CHECK(0);
		return;
	}
	CHECK(res.len <= 0x400);
	memcpy(fx_mem + at, res.bytes, res.len);
	eu_asm_result_free(&res);
}

/* The PRM's table above: the kernel start pointer slot of each width. */
struct layout {
	bool e8, e16, e32;
	int slot8, slot16, slot32;   /* -1: not enabled */
};
static const struct layout layouts[] = {
	{ 1, 0, 0, 0, -1, -1 },
	{ 0, 1, 0, -1, 0, -1 },
	{ 0, 0, 1, -1, -1, 0 },
	{ 1, 1, 0, 0, 2, -1 },
	{ 1, 0, 1, 0, -1, 1 },
	{ 0, 1, 1, -1, 2, 1 },
	{ 1, 1, 1, 0, 2, 1 },
};

static void draw_with(const struct layout *l)
{
	fx_reset(simd8_red, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	put_kernel(simd16_green, AT16);
	put_kernel(simd32_blue, AT32);
	uint64_t ksp[3] = { 0, 0, 0 };
	if (l->slot8 >= 0)
		ksp[l->slot8] = AT8;
	if (l->slot16 >= 0)
		ksp[l->slot16] = AT16;
	if (l->slot32 >= 0)
		ksp[l->slot32] = AT32;
	REC("3DSTATE_PS", { "Kernel Start Pointer 0", ksp[0] }, { "Kernel Start Pointer 1", ksp[1] },
	    { "Kernel Start Pointer 2", ksp[2] }, { "8 Pixel Dispatch Enable", l->e8 },
	    { "16 Pixel Dispatch Enable", l->e16 }, { "32 Pixel Dispatch Enable", l->e32 },
	    { "Dispatch GRF Start Register For Constant/Setup Data 0", 4 },
	    { "Dispatch GRF Start Register For Constant/Setup Data 1", 4 },
	    { "Dispatch GRF Start Register For Constant/Setup Data 2", 4 });
	/* the kernels read no attribute: none is set up, so a payload wider
	 * than the GRF start of 4 (SIMD16, SIMD32) overlaps nothing */
	REC("3DSTATE_SBE", { "Number of SF Output Attributes", 0 });
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	static const float c[4] = { 0, 0, 0, 1 };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, c);
	CHECK_EQ(fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3), 0);

	/* the widest enabled width */
	unsigned want = l->e32 ? 32 : l->e16 ? 16 : 8;
	uint8_t rgb[3] = { want == 8 ? 255 : 0, want == 16 ? 255 : 0, want == 32 ? 255 : 0 };
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			if ((p[0] != rgb[0] || p[1] != rgb[1] || p[2] != rgb[2] || p[3] != 255) &&
			    bad++ < 2)
				fprintf(stderr, "enables 8:%d 16:%d 32:%d: pixel %d,%d = %u,%u,%u,%u, "
					"want SIMD%u's %u,%u,%u,255\n", l->e8, l->e16, l->e32, x, y,
					p[0], p[1], p[2], p[3], want, rgb[0], rgb[1], rgb[2]);
		}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	fx_init();
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		draw_with(&layouts[i]);
	fx_fini();
	return test_exit();
}
