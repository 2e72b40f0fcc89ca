/* One draw's stream output state (so.h), shared by so_state.c (set up and
 * finish) and so_write.c (the primitives). */
#ifndef GTSIM_RENDER_SO_DRAW_H
#define GTSIM_RENDER_SO_DRAW_H

#include "gpu/render/so.h"

struct so_decl {
	uint8_t buffer, reg, mask;  /* Output Buffer Slot, Register Index, Component Mask */
	bool hole;
};

struct so_draw {
	struct render_state *rs;
	const struct render_env *env;
	bool function;              /* SO Function Enable */
	bool stats;                 /* SO Statistics Enable */
	bool render;                /* primitives go on to the clipper */
	bool trailing;              /* Reorder Mode */
	unsigned render_stream;
	uint32_t pitch[SO_BUFFERS];
	uint32_t read_row[SO_STREAMS], read_rows[SO_STREAMS]; /* in 128-bit rows */
	uint32_t select[SO_STREAMS];                           /* buffer mask */
	unsigned ndecl[SO_STREAMS];
	struct so_decl decl[SO_STREAMS][SO_MAX_DECLS];
	uint64_t offset[SO_BUFFERS];                            /* SO_WRITE_OFFSETn */
	uint64_t written[SO_STREAMS], needed[SO_STREAMS];
	bool fault;
};

#endif
