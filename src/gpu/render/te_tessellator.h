/* The fixed-function tessellator (PRM vol. 2 "Tessellation Engine (TE)"):
 * from the tessellation factors of one patch, the domain points (u, v)
 * and the primitives that connect them, in the order the hardware emits
 * them. GEN8/9's TE implements the D3D11 reference tessellation (16.16
 * fixed-point point placement, ruler-function transition stitching);
 * docs/tessellation.md states the rules. A pure module: no render state. */
#ifndef GTSIM_TE_TESSELLATOR_H
#define GTSIM_TE_TESSELLATOR_H

#include <stdint.h>

/* The 3DSTATE_TE encodings. */
enum te_domain { TE_DOMAIN_QUAD = 0, TE_DOMAIN_TRI = 1, TE_DOMAIN_ISOLINE = 2 };
enum te_partitioning {
	TE_PART_INTEGER = 0, TE_PART_ODD_FRACTIONAL = 1, TE_PART_EVEN_FRACTIONAL = 2,
};
enum te_topology { TE_TOPO_POINT = 0, TE_TOPO_LINE = 1, TE_TOPO_TRI_CW = 2, TE_TOPO_TRI_CCW = 3 };

/* Bounds for factors up to 64: a quad of 65 x 65 points, 2 triangles a
 * cell plus the transition rings. */
#define TE_MAX_POINTS 4500
#define TE_MAX_INDICES (3 * 9000)

/* One patch's factors as the TE reads them from the patch header:
 *   QUAD:    outer = U==0, V==0, U==1, V==1 edges; inner = U, V
 *   TRI:     outer = U==0, V==0, W==0 edges; inner[0]
 *   ISOLINE: outer[0] = line density (lines along V), outer[1] = line
 *            detail (segments along U). */
struct te_factors {
	float outer[4];
	float inner[2];
};

struct te_output {
	unsigned npoints;          /* domain points, in the order the DS gets them */
	unsigned nindices;         /* prim_vertices per primitive */
	unsigned prim_vertices;    /* 1 points, 2 lines, 3 triangles */
	float u[TE_MAX_POINTS], v[TE_MAX_POINTS];
	uint32_t index[TE_MAX_INDICES];
};

/* Tessellates one patch into *out (npoints == 0: the patch is culled, a
 * factor was <= 0 or NaN). Topologies TRI_* on ISOLINE make lines. */
void te_tessellate(enum te_domain domain, enum te_partitioning part, enum te_topology topo,
		   const struct te_factors *f, struct te_output *out);

#endif
