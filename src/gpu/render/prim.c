/* Primitive assembly after the VS (PRM vol. 2 "Primitive Topologies"): how
 * many primitives a run of vertices makes for each 3DPRIM_* topology, and
 * the vertices of each, handed to the later stages. A cut (primitive
 * restart) or the end of a draw ends a run. */
#include "gpu/render/render_state.h"
#include "gpu/render/topology.h"


/* Vertices per primitive and how far the window moves (list: = size,
 * strip: 1 or 2); 0 for fans, polygons and loops, which keep the first. */
static void shape(uint32_t topo, unsigned *size, unsigned *step)
{
	*size = 0;
	*step = 0;
	switch (topo) {
	case PRIM_POINTLIST: case PRIM_POINTLIST_BF: *size = 1; *step = 1; break;
	case PRIM_LINELIST: *size = 2; *step = 2; break;
	case PRIM_LINESTRIP: case PRIM_LINESTRIP_CONT: case PRIM_LINESTRIP_BF:
	case PRIM_LINESTRIP_CONT_BF: *size = 2; *step = 1; break;
	case PRIM_TRILIST: case PRIM_RECTLIST: *size = 3; *step = 3; break;
	case PRIM_TRISTRIP: case PRIM_TRISTRIP_REVERSE: *size = 3; *step = 1; break;
	case PRIM_QUADLIST: *size = 4; *step = 4; break;
	case PRIM_QUADSTRIP: *size = 4; *step = 2; break;
	case PRIM_LINELIST_ADJ: *size = 4; *step = 4; break;
	case PRIM_LINESTRIP_ADJ: *size = 4; *step = 1; break;
	case PRIM_TRILIST_ADJ: *size = 6; *step = 6; break;
	case PRIM_TRISTRIP_ADJ: *size = 6; *step = 2; break;
	case PRIM_TRIFAN: case PRIM_TRIFAN_NOSTIPPLE: case PRIM_POLYGON:
		*size = 3; break;          /* first vertex + a moving edge */
	case PRIM_LINELOOP: *size = 2; break;
	default:
		if (topo >= PRIM_PATCHLIST_1 && topo <= PRIM_PATCHLIST_32) {
			*size = topo - PRIM_PATCHLIST_1 + 1;
			*step = *size;
		}
		break;
	}
}

uint64_t prim_count(uint32_t topo, uint64_t n)
{
	unsigned size, step;
	shape(topo, &size, &step);
	if (!size || n < size)
		return topo == PRIM_LINELOOP && n >= 2 ? n : 0;
	if (topo == PRIM_LINELOOP)
		return n;
	if (!step)                           /* fans, polygons */
		return n - 2;
	return (n - size) / step + 1;
}

void prim_begin(struct prim_asm *pa, uint32_t topology)
{
	pa->topology = topology;
	pa->seen = 0;
	pa->reordered = false;
	pa->prims = 0;
}

static void emit(struct prim_asm *pa, struct render_state *rs, const uint32_t *h, unsigned n)
{
	pa->prims++;
	rs->prim_reordered = pa->reordered;
	if (rs->so && !so_primitive(rs->so, 0, pa->topology, h, n, pa->reordered))
		return;
	if (rs->prim_sink)
		rs->prim_sink(rs->prim_ctx, pa->topology, h, n);
}

void prim_vertex(struct prim_asm *pa, struct render_state *rs, uint32_t handle)
{
	unsigned size, step;
	shape(pa->topology, &size, &step);
	if (!size)
		return;
	if (pa->seen == 0)
		pa->first = handle;
	pa->seen++;
	if (!step) {
		/* fans/polygons: (first, previous, this); loops: (previous, this) */
		if (pa->topology == PRIM_LINELOOP) {
			if (pa->seen >= 2)
				emit(pa, rs, (uint32_t[]){ pa->v[0], handle }, 2);
		} else if (pa->seen >= 3) {
			emit(pa, rs, (uint32_t[]){ pa->first, pa->v[0], handle }, 3);
		}
		pa->v[0] = handle;
		return;
	}
	/* A window of the last `size` vertices; a primitive each `step`. */
	unsigned have = pa->seen < size ? pa->seen : size;
	for (unsigned i = 0; i + 1 < size; i++)
		pa->v[i] = pa->v[i + 1];
	pa->v[size - 1] = handle;
	if (have == size && (pa->seen - size) % step == 0) {
		uint32_t h[32];
		for (unsigned i = 0; i < size; i++)
			h[i] = pa->v[i];
		/* odd triangles of a strip keep their winding: swap 1 and 2 */
		pa->reordered = (pa->topology == PRIM_TRISTRIP ||
				 pa->topology == PRIM_TRISTRIP_REVERSE) &&
				((pa->seen - size) & 1) == (pa->topology == PRIM_TRISTRIP);
		if (pa->reordered) {
			uint32_t x = h[1];
			h[1] = h[2];
			h[2] = x;
		}
		emit(pa, rs, h, size);
	}
}

void prim_end(struct prim_asm *pa, struct render_state *rs)
{
	/* a line loop closes back to its first vertex */
	if (pa->topology == PRIM_LINELOOP && pa->seen >= 2)
		emit(pa, rs, (uint32_t[]){ pa->v[0], pa->first }, 2);
	pa->seen = 0;
}
