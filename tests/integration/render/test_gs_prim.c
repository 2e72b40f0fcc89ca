/* Primitive assembly as a GS receives it (prim.c through stage.h): the
 * vertex orders of the adjacency topologies against GL 4.6 section 10.1,
 * written here as the spec's tables (1-based vertex numbers), for runs of
 * 6 to 14 vertices, with Reorder Mode TRAILING (GL) and LEADING (the
 * first vertex first: Vulkan's order, odd triangles rotated), and cuts;
 * the hidden inner edges of a POLYGON's fan. */
#include <stdio.h>
#include <string.h>

#include "gpu/render/stage.h"
#include "gpu/render/topology.h"
#include "test.h"

struct capture {
	struct prim_stage s;
	unsigned n;
	struct vue_prim p[64];
};

static int take(struct prim_stage *s, const struct vue_prim *p)
{
	struct capture *c = (struct capture *)s;
	if (c->n < 64)
		c->p[c->n++] = *p;
	return 0;
}

/* Vertices 1..n of one run (VUE references = the vertex numbers). */
static void run(struct capture *c, uint32_t topo, bool trailing, unsigned n)
{
	struct prim_asm pa;
	memset(c, 0, sizeof(*c));
	c->s.prim = take;
	prim_begin(&pa, topo, trailing, &c->s);
	for (unsigned v = 1; v <= n; v++)
		CHECK_EQ(prim_vertex(&pa, v), 0);
	CHECK_EQ(prim_end(&pa), 0);
}

/* GL 4.6 table 10.1, triangle strips with adjacency: primitive i of m as
 * (1st, 2nd, 3rd, adjacent 1/2, 2/3, 3/1). */
static void gl_strip_adj(unsigned i, unsigned m, unsigned out[6])
{
	bool first = i == 0, last = i == m - 1, odd = i & 1;
	unsigned a = 2 * i;
	if (first && last) {
		const unsigned t[6] = { 1, 3, 5, 2, 6, 4 };
		memcpy(out, t, sizeof(t));
	} else if (first) {
		const unsigned t[6] = { 1, 3, 5, 2, 7, 4 };
		memcpy(out, t, sizeof(t));
	} else if (odd) {
		const unsigned t[6] = { a + 3, a + 1, a + 5, a - 1, a + 4, last ? a + 6 : a + 7 };
		memcpy(out, t, sizeof(t));
	} else {
		const unsigned t[6] = { a + 1, a + 3, a + 5, a - 1, last ? a + 6 : a + 7, a + 4 };
		memcpy(out, t, sizeof(t));
	}
}

static void strip_adjacency(void)
{
	struct capture c;
	for (unsigned n = 6; n <= 14; n++)
		for (int trailing = 0; trailing < 2; trailing++) {
			run(&c, PRIM_TRISTRIP_ADJ, trailing, n);
			unsigned m = n / 2 - 2;
			CHECK_EQ(c.n, m);
			CHECK_EQ(prim_count(PRIM_TRISTRIP_ADJ, n), m);
			for (unsigned i = 0; i < c.n; i++) {
				unsigned t[6];
				gl_strip_adj(i, m, t);
				/* GS input order: 1st, adj 1/2, 2nd, adj 2/3, 3rd, adj 3/1 */
				unsigned want[6] = { t[0], t[3], t[1], t[4], t[2], t[5] };
				/* LEADING: odd triangles start at their leading strip
				 * vertex 2i + 1, GL's 2nd: (2nd, adj 2/3, 3rd, adj 3/1,
				 * 1st, adj 1/2) of GL's; Vulkan's table (first vertex
				 * provoking) gives the same */
				if (!trailing && (i & 1)) {
					unsigned r[6] = { want[2], want[3], want[4], want[5], want[0],
							  want[1] };
					memcpy(want, r, sizeof(r));
				}
				CHECK_EQ(c.p[i].n, 6);
				bool same = true;
				for (unsigned k = 0; k < 6; k++)
					same &= c.p[i].vue[k] == want[k];
				if (!same)
					fprintf(stderr, "n %u %s primitive %u: got %u %u %u %u %u %u, "
						"want %u %u %u %u %u %u\n", n, trailing ? "TRAILING" :
						"LEADING", i, c.p[i].vue[0], c.p[i].vue[1],
						c.p[i].vue[2], c.p[i].vue[3], c.p[i].vue[4],
						c.p[i].vue[5], want[0], want[1], want[2], want[3],
						want[4], want[5]);
				CHECK(same);
			}
		}
}

static void lists_and_strips(void)
{
	struct capture c;
	/* LINESTRIP_ADJ: (i, i+1, i+2, i+3) */
	run(&c, PRIM_LINESTRIP_ADJ, true, 6);
	CHECK_EQ(c.n, 3);
	for (unsigned i = 0; i < c.n; i++)
		for (unsigned k = 0; k < 4; k++)
			CHECK_EQ(c.p[i].vue[k], i + k + 1);
	/* LINELIST_ADJ and TRILIST_ADJ: consecutive groups, a partial one dropped */
	run(&c, PRIM_LINELIST_ADJ, true, 9);
	CHECK_EQ(c.n, 2);
	CHECK_EQ(c.p[1].vue[0], 5);
	CHECK_EQ(c.p[1].vue[3], 8);
	run(&c, PRIM_TRILIST_ADJ, true, 13);
	CHECK_EQ(c.n, 2);
	CHECK_EQ(c.p[1].vue[0], 7);
	CHECK_EQ(c.p[1].vue[5], 12);
	/* TRISTRIP: GL's TRAILING (2, 1, 3) and LEADING (1, 3, 2) for the odd one */
	run(&c, PRIM_TRISTRIP, true, 4);
	CHECK_EQ(c.n, 2);
	CHECK(c.p[1].vue[0] == 3 && c.p[1].vue[1] == 2 && c.p[1].vue[2] == 4);
	run(&c, PRIM_TRISTRIP, false, 4);
	CHECK(c.p[1].vue[0] == 2 && c.p[1].vue[1] == 4 && c.p[1].vue[2] == 3);
	/* primitive IDs count on through a cut */
	struct prim_asm pa;
	memset(&c, 0, sizeof(c));
	c.s.prim = take;
	prim_begin(&pa, PRIM_TRILIST, false, &c.s);
	for (unsigned v = 1; v <= 4; v++)
		prim_vertex(&pa, v);
	prim_end(&pa);                   /* the 4th vertex is dropped */
	for (unsigned v = 5; v <= 7; v++)
		prim_vertex(&pa, v);
	prim_end(&pa);
	CHECK_EQ(c.n, 2);
	CHECK_EQ(c.p[1].vue[0], 5);
	CHECK_EQ(c.p[1].prim_id, 1);
}

/* A POLYGON of n vertices is the fan (1, k, k + 1) whose only boundary
 * edges are the polygon's own (GL 4.6 section 10.1.10): 1-2 in the first
 * triangle, k-(k+1) in every one, (k+1)-1 in the last; the inner edges are
 * hidden (bit e: the edge from vertex e to e + 1 mod 3). */
static void polygon_edges(void)
{
	struct capture c;
	for (unsigned n = 3; n <= 7; n++) {
		run(&c, PRIM_POLYGON, false, n);
		CHECK_EQ(c.n, n - 2);
		for (unsigned k = 0; k < c.n; k++) {
			unsigned hidden = (k > 0 ? 1u : 0) | (k + 1 < c.n ? 4u : 0);
			CHECK(c.p[k].vue[0] == 1 && c.p[k].vue[1] == k + 2 && c.p[k].vue[2] == k + 3);
			CHECK_EQ(c.p[k].hidden_edges, hidden);
			CHECK_EQ(c.p[k].prim_id, k);
		}
	}
	/* a fan's triangles are polygons of their own: every edge drawn */
	run(&c, PRIM_TRIFAN, false, 5);
	for (unsigned k = 0; k < c.n; k++)
		CHECK_EQ(c.p[k].hidden_edges, 0);
}

int main(void)
{
	strip_adjacency();
	lists_and_strips();
	polygon_edges();
	return test_exit();
}
