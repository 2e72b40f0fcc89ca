/* The seeds' vertex shaders (seed_shaders.h). */
#include "drv/seed_shaders.h"

const char gtdrv_green_vs[] =
	"mov(8)          g119<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q compacted };\n"
	"mov(8)          g120<1>F        g2<8,8,1>F                      { align1 1Q compacted };\n"
	"mov(8)          g121<1>F        g3<8,8,1>F                      { align1 1Q compacted };\n"
	"mov(8)          g122<1>F        g4<8,8,1>F                      { align1 1Q compacted };\n"
	"mov(8)          g123<1>F        g5<8,8,1>F                      { align1 1Q compacted };\n"
	"mov(8)          g124<1>F        [0F, 0F, 0F, 0F]VF              { align1 1Q compacted };\n"
	"mov(8)          g125<1>F        1F                              { align1 1Q };\n"
	"mov(8)          g126<1>F        [0F, 0F, 0F, 0F]VF              { align1 1Q compacted };\n"
	"mov(8)          g127<1>F        1F                              { align1 1Q };\n"
	"send(8)         null            g119<8,8,1>F\n"
	"                            urb 1 SIMD8 write mlen 9 rlen 0                 { align1 1Q EOT };\n";

const char gtdrv_gradient_vs[] =
	"mov(8)          g119<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q };\n"
	"mov(8)          g120<1>F        g2<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g121<1>F        g3<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g122<1>F        g4<8,8,1>F                      { align1 1Q };\n"
	"mov(8)          g123<1>F        g5<8,8,1>F                      { align1 1Q };\n"
	"cmp.z.f0.0(8)   g124<1>D        g6<8,8,1>D      0D              { align1 1Q };\n"
	"cmp.z.f0.0(8)   g125<1>D        g6<8,8,1>D      1D              { align1 1Q };\n"
	"cmp.z.f0.0(8)   g126<1>D        g6<8,8,1>D      2D              { align1 1Q };\n"
	"and(8)          g124<1>UD       g124<8,8,1>UD   0x3f800000UD    { align1 1Q };\n"
	"and(8)          g125<1>UD       g125<8,8,1>UD   0x3f800000UD    { align1 1Q };\n"
	"and(8)          g126<1>UD       g126<8,8,1>UD   0x3f800000UD    { align1 1Q };\n"
	"mov(8)          g127<1>F        1F                              { align1 1Q };\n"
	"send(8)         null<1>F        g119<8,8,1>F\n"
	"                            urb 1 SIMD8 write mlen 9 rlen 0                 { align1 1Q EOT };\n";

const char gtdrv_color_fs[] =
	"pln(8)          g124<1>F        g4<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g125<1>F        g4.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g126<1>F        g5<0,1,0>F      g2<8,8,1>F      { align1 1Q };\n"
	"pln(8)          g127<1>F        g5.4<0,1,0>F    g2<8,8,1>F      { align1 1Q };\n"
	"sendc(8)        null<1>UW       g124<8,8,1>F    0x88031400\n"
	"                render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };\n";

const float gtdrv_square[4][4] = {
	{ -1, -1, 0, 1 }, { 1, -1, 0, 1 }, { -1, 1, 0, 1 }, { 1, 1, 0, 1 },
};
