mov(16)         g10<1>D         0D                              { align1 1H };
mov(16)         g12<1>D         0D                              { align1 1H };
LOOP:
add(16)         g12<1>D         g12<8,8,1>D     1D              { align1 1H };
cmp.g.f0.0(16)  null<1>D        g12<8,8,1>D     g2<8,8,1>D      { align1 1H };
(+f0.0) break(16) JIP: ENDLOOP  UIP: ENDLOOP                    { align1 1H };
and.nz.f0.0(16) null<1>UD       g12<8,8,1>UD    0x00000001UD    { align1 1H };
(+f0.0) if(16)  JIP: ELSE1      UIP: ENDIF1                     { align1 1H };
add(16)         g10<1>D         g10<8,8,1>D     g12<8,8,1>D     { align1 1H };
else(16)        JIP: ENDIF1     UIP: ENDIF1                     { align1 1H };
ELSE1:
add(16)         g10<1>D         g10<8,8,1>D     -g12<8,8,1>D    { align1 1H };
ENDIF1:
endif(16)       JIP: ENDLOOP                                    { align1 1H };
ENDLOOP:
while(16)       JIP: LOOP                                       { align1 1H };
mov(16)         g14<1>F         g10<8,8,1>D                     { align1 1H compacted };
