/* What one stage of a draw's front end hands the next (docs/ARCHITECTURE.md
 * "One draw"): primitives, each its vertices' VUEs in the URB and a
 * 3DPRIM_* topology, in draw order. The stages chain
 *     VS -> [HS -> TE -> DS] -> [GS] -> [SO] -> the back end (rs->prim_sink)
 * and a stage that is off is simply not in the chain. draw.c builds the
 * chain from the back end up; a stage receives primitives through prim(),
 * may buffer them (a GS thread takes up to 8), and must have consumed every
 * VUE it was given when flush() returns: the VS's entries are reused after
 * each batch of VS threads. */
#ifndef GTSIM_RENDER_STAGE_H
#define GTSIM_RENDER_STAGE_H

#include <stdbool.h>
#include <stdint.h>

/* A VUE reference: bits 15:0 the URB handle of an entry (64-byte units, as
 * the hardware's handles), bits 31:16 the vertex's offset inside it in
 * 128-bit units. A VS or DS VUE is a whole entry (offset 0); a GS output
 * vertex lies inside its thread's output entry, after the vertex count and
 * the control data header. */
#define VUE_REF(handle, off128) ((uint32_t)(handle) | (uint32_t)(off128) << 16)
static inline uint32_t vue_ref_handle(uint32_t ref) { return ref & 0xffff; }
static inline uint32_t vue_ref_byte_offset(uint32_t ref) { return (ref >> 16) * 16; }

#define VUE_PRIM_MAX 32          /* a 32-vertex patch */

struct vue_prim {
	uint32_t topology;       /* 3DPRIM_*: the topology the primitive came from */
	uint32_t stream;         /* GS stream ID (0 without a GS or without SID headers) */
	uint32_t prim_id;        /* primitive ID (counts from 0 per instance) */
	unsigned n;              /* vertices: 1 point, 2 line, 3 triangle, 4/6 adjacency, patches */
	/* an odd triangle of a strip, its vertices reordered to keep the
	 * winding (prim.c: LEADING (v0, v2, v1) or TRAILING (v1, v0, v2)):
	 * the provoking vertex and stream output's Reorder Mode refer to the
	 * strip's own order */
	bool reordered;
	/* triangle edges that are not polygon boundaries (bit k: the edge from
	 * vertex k to vertex k + 1 mod 3): the inner edges of a POLYGON's fan,
	 * which wireframe and point fill modes do not draw */
	uint8_t hidden_edges;
	/* the first primitive of its run (a strip's or loop's first segment:
	 * where the line stipple restarts) */
	bool first;
	uint32_t vue[VUE_PRIM_MAX]; /* VUE_REF()s, in the order the topology gives */
};

struct prim_stage {
	/* One primitive; 0, or -1 after a fault recorded with render_set_fault. */
	int (*prim)(struct prim_stage *s, const struct vue_prim *p);
	/* Run what is buffered and pass it on (then call next->flush); 0 or -1. */
	int (*flush)(struct prim_stage *s);
	struct prim_stage *next;
};

/* Primitive assembly (prim.c): vertices in, primitives of one topology out
 * to `next`. Strips restart at prim_end (a cut, the end of an instance or
 * of a GS output strip). trailing: Reorder Mode TRAILING (3DSTATE_GS), the
 * order GL gives a GS for the odd triangles of strips: (1, 0, 2) instead
 * of (0, 2, 1). */
struct prim_asm {
	uint32_t topology;
	bool trailing;
	struct prim_stage *next;
	uint32_t stream;   /* stamped on each primitive */
	uint32_t v[32];    /* the last vertices of the current run (patches: 32) */
	uint32_t seen;     /* vertices in the run */
	uint32_t first;    /* first vertex of the run (fans, loops) */
	uint32_t prim_id;  /* the next primitive's ID */
	bool reordered;    /* the primitive being emitted is a reordered odd strip triangle */
	/* POLYGON: the fan triangle waiting to learn whether it is the last
	 * (its closing edge a boundary) */
	bool poly_pending;
	uint32_t poly[3];
	uint8_t poly_hidden;
	uint64_t prims;    /* primitives emitted */
	uint32_t run_prims; /* primitives emitted in the current run */
};
void prim_begin(struct prim_asm *pa, uint32_t topology, bool trailing, struct prim_stage *next);
int prim_vertex(struct prim_asm *pa, uint32_t vue);
int prim_end(struct prim_asm *pa); /* cut or the end of a run */
uint64_t prim_count(uint32_t topology, uint64_t n);
/* Vertices of one primitive of the topology as a GS receives it (3 for
 * fans and strips, 6 for triangles with adjacency...); 0 if none. */
unsigned prim_vertices(uint32_t topology);

#endif
