/* The 3D pipeline's front end: state recorded from the command stream,
 * 3DPRIMITIVE, the vertex fetcher (VF), the URB and its VUEs, and vertex
 * shader threads on the EU (seeds 000, 001).
 *
 * The command streamer hands every 3D command of the render engine to
 * render_command(); everything the pipeline needs from the engine comes in
 * a struct render_env (device, address space, register file). */
#ifndef GTSIM_RENDER_RENDER_H
#define GTSIM_RENDER_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/devinfo.h"
#include "gpu/cmd/cmd.h"
#include "gpu/mem/mem.h"

struct render_state;
struct cs_regs;

struct cs_state;

struct render_env {
	struct gt_vm vm;          /* the batch's address space */
	struct cs_regs *regs;     /* 3DPRIM_* and statistics registers; may be NULL */
	/* The engine's recorded state commands, for the back end after the
	 * VS (wm.h). NULL: the draw stops after the VS (front-end tests). */
	const struct cs_state *state;
	bool predicate;           /* MI_PREDICATE's result, for Predicate Enable */
};

struct render_state *render_state_create(const struct gt_devinfo *info);
void render_state_destroy(struct render_state *rs);

/* Execute one command of the 3D pipeline. Returns 0 when done, 1 when d is
 * not a command of the front end (the caller handles or ignores it), -1 on
 * a GPU fault (render_fault() says why). */
int render_command(struct render_state *rs, const struct render_env *env,
		   const struct cmd_desc *d, const uint32_t *dw, uint32_t len);
const char *render_fault(const struct render_state *rs);

/* The front-end state of a render engine, created with its first 3D
 * command (NULL when out of memory). Read it while the engine is idle. */
struct gt_engine;
struct render_state *render_engine_state(struct gt_engine *e);

/* Where a draw's time goes (bench_vf): the vertex fetcher, building VS
 * payloads, and the EU running the VS. Off by default (it reads the clock
 * around every vertex). */
struct render_profile {
	uint64_t fetch_ns, dispatch_ns, eu_ns;
	uint64_t vertices, threads;
};
void render_set_profiling(struct render_state *rs, bool on);
void render_get_profile(const struct render_state *rs, struct render_profile *out);

/* The URB's bytes (for traces, tests and the later pipeline stages). */
uint8_t *render_urb(struct render_state *rs, size_t *size);

/* VUE handles (64-byte URB units) of the vertices of the last draw, in the
 * order the VS wrote them, and how many there were (at most max). */
size_t render_last_vues(const struct render_state *rs, uint32_t *handles, size_t max);

#endif
