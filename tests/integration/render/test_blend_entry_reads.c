/* BLEND_STATE is read an entry at a time, by the render target writes that
 * need it (PRM vol. 2d BLEND_STATE: a header dword, then one entry of two
 * dwords per render target): BLEND_STATE placed in the last 64 bytes of
 * mapped memory has its header and entries 0-6 there, and entry 7 (bytes
 * 60-67) crosses into unmapped memory. A PS whose message writes render
 * target 0 draws; the same PS writing render target 7 (the message
 * header's M0.2 Render Target Index) is a page fault on BLEND_STATE entry
 * 7 that names it and changes no pixel. */
#include "backend_fixture.h"
#include "gpu/render/topology.h"

#define W 8
#define H 8
#define FILL 0x33

/* r0/r1 as the message header, M0.2 = the render target index, the
 * colour (1, 0, 0, 1); SIMD8 RT write with header: mlen 6. */
static void ps_text(char *buf, size_t cap, unsigned rti)
{
	snprintf(buf, cap,
		 "mov(16)         g120<1>UD       g0<8,8,1>UD                     { align1 WE_all 1H };\n"
		 "mov(1)          g120.2<1>UD     0x%08xUD                        { align1 WE_all 1N };\n"
		 "mov(8)          g122<1>F        1F                              { align1 1Q };\n"
		 "mov(8)          g123<1>F        0F                              { align1 1Q };\n"
		 "mov(8)          g124<1>F        0F                              { align1 1Q };\n"
		 "mov(8)          g125<1>F        1F                              { align1 1Q };\n"
		 "sendc(8)        null<1>UW       g120<8,8,1>F    0x8c0b1400\n"
		 "                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 6 rlen 0 { align1 1Q EOT };\n",
		 rti);
}

static int draw(unsigned rti)
{
	char ps[1024];
	ps_text(ps, sizeof(ps), rti);
	fx_reset(ps, FMT_R8G8B8A8_UNORM, W, H, W * 4);
	REC("3DSTATE_BLEND_STATE_POINTERS", { "Blend State Pointer", FX_MEM_SIZE - FX_DYN - 64 },
	    { "Blend State Pointer Valid", 1 });
	memset(fx_mem + FX_RT, FILL, W * H * 4);
	static const float col[4] = { 0, 0, 0, 1 };
	fx_begin();
	fx_square(0.5f, col);
	fx_last_fault[0] = 0;
	return fx_draw(PRIM_TRILIST, (const unsigned[]){ 0, 1, 2, 2, 1, 3 }, 2, 3);
}

int main(void)
{
	fx_init();
	CHECK_EQ(draw(0), 0);
	int red = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			red += !memcmp(fx_px(W * 4, 4, x, y), (const uint8_t[]){ 255, 0, 0, 255 }, 4);
	CHECK_EQ(red, W * H);
	CHECK(draw(7) != 0);
	CHECK(strstr(fx_last_fault, "BLEND_STATE entry 7") != NULL);
	int changed = 0;
	for (int i = 0; i < W * H * 4; i++)
		changed += fx_mem[FX_RT + i] != FILL;
	CHECK_EQ(changed, 0);
	fx_fini();
	return test_exit();
}
