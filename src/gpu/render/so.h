/* Stream output (PRM vol. 2a 3DSTATE_STREAMOUT, 3DSTATE_SO_DECL_LIST,
 * 3DSTATE_SO_BUFFER; vol. 7 "Stream Output Logic"): the primitives that
 * leave the last geometry stage are written, vertex by vertex, into up to
 * four buffers from the VUEs' rows the stream's decls name. Four streams;
 * the write offsets live in the SO_WRITE_OFFSETn registers and the
 * counts in SO_NUM_PRIMS_WRITTENn / SO_PRIM_STORAGE_NEEDEDn, so
 * MI_LOAD/STORE_REGISTER_MEM reach them. */
#ifndef GTSIM_RENDER_SO_H
#define GTSIM_RENDER_SO_H

#include <stdbool.h>
#include <stdint.h>

#define SO_STREAMS 4
#define SO_BUFFERS 4
#define SO_MAX_DECLS 128     /* Num Entries is 8 bits; the list holds 128 */

struct render_state;
struct render_env;
struct cmd_desc;

/* One 3DSTATE_SO_BUFFER (kept per SO Buffer Index in render_state). */
struct so_buffer {
	bool enable, offset_addr_enable;
	uint64_t base, offset_addr;
	uint64_t size;              /* bytes: (Surface Size + 1) dwords */
};

/* 3DSTATE_SO_BUFFER: keeps the buffer and, with Stream Offset Write
 * Enable, sets SO_WRITE_OFFSETn from Stream Offset or, when that is
 * 0xFFFFFFFF, from the dword at Stream Output Buffer Offset Address. */
int so_buffer_command(struct render_state *rs, const struct render_env *env,
		      const uint32_t *dw, uint32_t len);

/* A draw's stream output: so_draw_begin reads the recorded
 * 3DSTATE_STREAMOUT and 3DSTATE_SO_DECL_LIST (env->state) and, when SO
 * Function Enable or Rendering Disable is set, sets rs->so; so_draw_end
 * stores the write offsets to the offset addresses and adds the
 * statistics, and clears rs->so. */
int so_draw_begin(struct render_state *rs, const struct render_env *env);
int so_draw_end(struct render_state *rs);

/* One primitive of `stream` leaving the last geometry stage: n VUE
 * handles (1 point, 2 line, 3 triangle) in the order primitive assembly
 * gives them. `reordered` says a triangle-strip triangle came with its
 * last two vertices swapped ((v0, v2, v1), the LEADING order); TRAILING
 * reorder mode then writes it (v1, v0, v2). Returns true when the
 * primitive goes on to the clipper (not Rendering Disable, and stream is
 * the Render Stream Select). Faults are kept in the draw (so_draw_end
 * returns -1). */
struct so_draw;
bool so_primitive(struct so_draw *so, unsigned stream, uint32_t topology,
		  const uint32_t *handles, unsigned n, bool reordered);

#endif
