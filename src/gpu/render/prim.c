/* Primitive assembly (PRM vol. 2 "Primitive Topologies"; GL 4.6 section
 * 10.1 for the vertex orders of the adjacency topologies): how many
 * primitives a run of vertices makes for each 3DPRIM_* topology, and the
 * vertices of each, handed to the next stage (stage.h). A cut (primitive
 * restart), the end of an instance or the end of a GS output strip ends
 * a run. */
#include "gpu/render/stage.h"
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

unsigned prim_vertices(uint32_t topo)
{
	unsigned size, step;
	shape(topo, &size, &step);
	return size;
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

void prim_begin(struct prim_asm *pa, uint32_t topology, bool trailing, struct prim_stage *next)
{
	*pa = (struct prim_asm){ .topology = topology, .trailing = trailing, .next = next };
}

static int emit_hidden(struct prim_asm *pa, const uint32_t *h, unsigned n, uint8_t hidden)
{
	struct vue_prim p = { .topology = pa->topology, .stream = pa->stream,
			      .prim_id = pa->prim_id++, .n = n, .reordered = pa->reordered,
			      .hidden_edges = hidden, .first = pa->run_prims++ == 0 };
	pa->reordered = false;
	for (unsigned i = 0; i < n; i++)
		p.vue[i] = h[i];
	pa->prims++;
	return pa->next ? pa->next->prim(pa->next, &p) : 0;
}

static int emit(struct prim_asm *pa, const uint32_t *h, unsigned n)
{
	return emit_hidden(pa, h, n, 0);
}

/* A POLYGON's triangle (first, previous, this) (PRM vol. 2 "Polygon"): its
 * edge first-previous is a boundary only in the first triangle and its
 * edge this-first only in the last, so each triangle waits for the next
 * vertex (or the end of the run) to learn whether it is the last. */
static int polygon_vertex(struct prim_asm *pa, uint32_t vue)
{
	int r = 0;
	if (pa->poly_pending)
		r = emit_hidden(pa, pa->poly, 3, pa->poly_hidden | 4);
	pa->poly_pending = true;
	pa->poly[0] = pa->first;
	pa->poly[1] = pa->v[0];
	pa->poly[2] = vue;
	pa->poly_hidden = pa->seen == 3 ? 0 : 1;
	return r;
}

static int polygon_end(struct prim_asm *pa)
{
	if (!pa->poly_pending)
		return 0;
	pa->poly_pending = false;
	return emit_hidden(pa, pa->poly, 3, pa->poly_hidden);
}

/* Triangle strips with adjacency (GL 4.6 table 10.1; Vulkan "Triangle
 * Strips With Adjacency"): primitive i of a run uses vertices 2i + off[k]
 * in the order (1st, adjacent 1-2, 2nd, adjacent 2-3, 3rd, adjacent 3-1).
 * The first, last and only primitives and the odd ones differ; LEADING
 * keeps the first vertex first, TRAILING (GL) rotates odd triangles so the
 * last stays last. The run's vertices are kept in a ring of 16 (a
 * primitive reaches back 2 and forward 7). */
static int strip_adj_prim(struct prim_asm *pa, uint32_t i, bool last)
{
	bool first = i == 0, even = !(i & 1) || first;
	int off[6] = { 0, first ? 1 : even ? -2 : 3, even ? 2 : 4, last ? 5 : 6,
		       even ? 4 : 2, even ? 3 : -2 };
	uint32_t h[6];
	for (unsigned k = 0; k < 6; k++) {
		unsigned j = pa->trailing && !even ? (k + 4) % 6 : k;
		h[k] = pa->v[(2 * i + (uint32_t)off[j]) % 16];
	}
	return emit(pa, h, 6);
}

static int strip_adj_vertex(struct prim_asm *pa, uint32_t vue)
{
	pa->v[pa->seen % 16] = vue;
	pa->seen++;
	/* primitive i is not the last once vertex 2i + 7 exists */
	if (pa->seen >= 8 && pa->seen % 2 == 0)
		return strip_adj_prim(pa, (pa->seen - 8) / 2, false);
	return 0;
}

int prim_vertex(struct prim_asm *pa, uint32_t vue)
{
	unsigned size, step;
	shape(pa->topology, &size, &step);
	if (!size)
		return 0;
	if (pa->topology == PRIM_TRISTRIP_ADJ)
		return strip_adj_vertex(pa, vue);
	if (pa->seen == 0)
		pa->first = vue;
	pa->seen++;
	if (!step) {
		/* fans/polygons: (first, previous, this); loops: (previous, this) */
		int r = 0;
		if (pa->topology == PRIM_LINELOOP) {
			if (pa->seen >= 2)
				r = emit(pa, (uint32_t[]){ pa->v[0], vue }, 2);
		} else if (pa->seen >= 3 && pa->topology == PRIM_POLYGON) {
			r = polygon_vertex(pa, vue);
		} else if (pa->seen >= 3) {
			r = emit(pa, (uint32_t[]){ pa->first, pa->v[0], vue }, 3);
		}
		pa->v[0] = vue;
		return r;
	}
	/* A window of the last `size` vertices; a primitive each `step`. */
	unsigned have = pa->seen < size ? pa->seen : size;
	for (unsigned i = 0; i + 1 < size; i++)
		pa->v[i] = pa->v[i + 1];
	pa->v[size - 1] = vue;
	if (have < size || (pa->seen - size) % step)
		return 0;
	uint32_t h[32];
	for (unsigned i = 0; i < size; i++)
		h[i] = pa->v[i];
	/* odd triangles of a strip keep their winding: LEADING (0, 2, 1),
	 * TRAILING (1, 0, 2) */
	if ((pa->topology == PRIM_TRISTRIP || pa->topology == PRIM_TRISTRIP_REVERSE) &&
	    ((pa->seen - size) & 1) == (pa->topology == PRIM_TRISTRIP)) {
		uint32_t a = h[0], b = h[1], c = h[2];
		pa->reordered = true;
		if (pa->trailing) {
			h[0] = b; h[1] = a; h[2] = c;
		} else {
			h[1] = c; h[2] = b;
		}
	}
	return emit(pa, h, size);
}

int prim_end(struct prim_asm *pa)
{
	int r = 0;
	/* a line loop closes back to its first vertex */
	if (pa->topology == PRIM_LINELOOP && pa->seen >= 2)
		r = emit(pa, (uint32_t[]){ pa->v[0], pa->first }, 2);
	/* the last (or only) triangle of a strip with adjacency */
	if (pa->topology == PRIM_TRISTRIP_ADJ && pa->seen >= 6)
		r = strip_adj_prim(pa, pa->seen / 2 - 3, true);
	if (pa->topology == PRIM_POLYGON)
		r = polygon_end(pa);
	pa->seen = 0;
	pa->run_prims = 0;
	return r;
}
