pln(16)         g10<1>F         g6<0,1,0>F      g2<8,8,1>F      { align1 1H };
math inv(16)    g12<1>F         g10<8,8,1>F     null<8,8,1>F    { align1 1H };
mad(16)         g14<1>F         g12<4,4,1>F     g10<4,4,1>F     g10<4,4,1>F { align16 1H };
cmp.l.f0.0(16)  null<1>F        g10<8,8,1>F     0x40400000F     { align1 1H };
(+f0.0) sel(16) g16<1>F         g14<8,8,1>F     0x00000000F     { align1 1H };
mov.sat(16)     g120<1>F        g10<8,8,1>F                     { align1 1H };
mov(16)         g122<1>F        g12<8,8,1>F                     { align1 1H };
mov(16)         g124<1>F        g14<8,8,1>F                     { align1 1H };
mov(16)         g126<1>F        g16<8,8,1>F                     { align1 1H };
sendc(16)       null<1>UW       g120<8,8,1>F    0x90031000
                            render MsgDesc: RT write SIMD16 LastRT Surface = 0 mlen 8 rlen 0 { align1 1H EOT };
