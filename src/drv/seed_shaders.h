/* The vertex shaders of the seeds' squares, in Mesa's INTEL_DEBUG syntax,
 * for gtsim's assembler: the green square's VS exactly as seed 001 lists
 * it, and a hand-written VS for seed 000's gradient square. Both read the
 * vertex (gl_Vertex) from g2-g5 and write the position at URB offset 1
 * (DWords 4-7) followed by the colour; the seeds' fragment shader passes
 * the interpolated colour on (gtdrv_color_fs). */
#ifndef GTSIM_DRV_SEED_SHADERS_H
#define GTSIM_DRV_SEED_SHADERS_H

/* color = vec4(0, 1, 0, 1); gl_Position = gl_Vertex; */
extern const char gtdrv_green_vs[];
/* color = vec4(gl_VertexID == 0, gl_VertexID == 1, gl_VertexID == 2, 1),
 * with VertexID in g6 (3DSTATE_VF_SGVS: VUE row 1, component 0). */
extern const char gtdrv_gradient_vs[];
/* gl_FragColor = color: the varying's plane (g4/g5 with the dispatch GRF
 * start at 4, after g0, g1 and the perspective pixel barycentrics g2-g3)
 * interpolated with pln into g124-g127 and written with a SIMD8 render
 * target write to binding table entry 0. */
extern const char gtdrv_color_fs[];
/* "draw rect -1 -1 2 2" as a 4-vertex triangle strip: x, y, z, w */
extern const float gtdrv_square[4][4];

#endif
