/* Render target writes through gen9 split sends (sends/sendc with the
 * payload in two parts, SFID and ex_mlen in the extended descriptor: SKL
 * PRM vol. 2a "sends", vol. 7 "Render Target Write"), as Mesa emits them
 * on SKL, against the same writes through one send; the extended
 * descriptor as an immediate and from a0.2. Oracle: the colour is
 * the same constant at every vertex, so every pixel holds its UNORM8
 * conversion (0.2, 0.4, 0.6, 0.8) -> (51, 102, 153, 204). */
#include "integration/render/backend_fixture.h"

#define W 8
#define H 8
#define PITCH (W * 4)

/* the interpolated colour into g120-g123 */
#define PLN_COLOUR \
	"pln(8)          g120<1>F        g4<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n" \
	"pln(8)          g121<1>F        g4.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n" \
	"pln(8)          g122<1>F        g5<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n" \
	"pln(8)          g123<1>F        g5.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"

/* header g118-g119 (g0, g1) in the first part, the colour in the second:
 * desc mlen 2, header present, RT write SIMD8, last RT; ex_desc SFID 5
 * (render cache, the instruction's SFID field; Mesa prints ex_desc without
 * it), ex_mlen 4 */
static const char header_fs[] = PLN_COLOUR
	"mov(16)         g118<1>UD       g0<8,8,1>UD                     { align1 WE_all 1H };\n"
	"sends(8)        nullUD          g118UD          g120UD          0x040b1400      0x00000100\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 2 ex_mlen 4 rlen 0 { align1 1Q EOT };\n";

/* no header: R, G in the first part (g120-g121), B, A in the second
 * (g122-g123): mlen 2, ex_mlen 2 */
static const char split_colour_fs[] = PLN_COLOUR
	"sendsc(8)       nullUD          g120UD          g122UD          0x04031400      0x00000080\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 2 ex_mlen 2 rlen 0 { align1 1Q EOT };\n";

/* header_fs with the extended descriptor from a0.2 (SFID 5 in its bits
 * 3:0 too, as Mesa loads it, ex_mlen 4 in bits 9:6) */
static const char reg_ex_desc_fs[] = PLN_COLOUR
	"mov(16)         g118<1>UD       g0<8,8,1>UD                     { align1 WE_all 1H };\n"
	"mov(1)          a0.2<1>UD       0x00000105UD                    { align1 WE_all 1N };\n"
	"sends(8)        nullUD          g118UD          g120UD          0x040b1400      a0.2<0>UD\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 2 rlen 0 { align1 1Q EOT };\n";

/* the same through one send: the reference */
static const char send_fs[] = PLN_COLOUR
	"sendc(8)        null<1>UW       g120<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

static int draw(const char *fs)
{
	static const float colour[4] = { 0.2f, 0.4f, 0.6f, 0.8f };
	fx_gen = 9;
	fx_reset(fs, FMT_R8G8B8A8_UNORM, W, H, PITCH);
	fx_begin();
	static const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
	for (unsigned i = 0; i < 4; i++)
		fx_vertex(i, pos[i][0], pos[i][1], 0.5f, 1, colour);
	return fx_draw(4, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

static void check(const char *what)
{
	static const uint8_t want[4] = { 51, 102, 153, 204 };
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = fx_px(PITCH, 4, x, y);
			if (memcmp(p, want, 4) && bad++ < 4)
				fprintf(stderr, "%s: pixel (%d, %d) %u %u %u %u\n", what, x, y,
					p[0], p[1], p[2], p[3]);
		}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	fx_init();
	CHECK_EQ(draw(send_fs), 0);
	check("send");
	CHECK_EQ(draw(header_fs), 0);
	check("sends with header");
	CHECK_EQ(draw(split_colour_fs), 0);
	check("sendsc, colour split");
	CHECK_EQ(draw(reg_ex_desc_fs), 0);
	check("sends, ex_desc from a0.2");
	fx_fini();
	return test_exit();
}
