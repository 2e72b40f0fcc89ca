/* 3D and media state recorded by the command streamer for the pipeline
 * units: the dwords of the most recent instance of each state command
 * (3DSTATE_*, STATE_BASE_ADDRESS, MEDIA_*...), keyed by its table entry.
 * Written on the engine's thread while it executes; read by the pipeline
 * from the same thread (3DPRIMITIVE, GPGPU_WALKER handlers). */
#ifndef GTSIM_CS_STATE_H
#define GTSIM_CS_STATE_H

#include <stdint.h>

#include "gpu/cmd/cmd.h"

struct cs_state;

struct cs_state *cs_state_create(void);
void cs_state_destroy(struct cs_state *s);
/* Record (a copy of) the command. -1 when out of memory. */
int cs_state_record(struct cs_state *s, const struct cmd_desc *d,
		    const uint32_t *dw, uint32_t len);
/* The last recorded dwords of command d (NULL when never seen), and in
 * *len their number. */
const uint32_t *cs_state_get(const struct cs_state *s, const struct cmd_desc *d,
			     uint32_t *len);
void cs_state_clear(struct cs_state *s);

/* The 3D pipeline's own state for this logical context (render/render.h:
 * struct render_state, with its URB): owned by the recorded state, so it
 * follows MI_SET_CONTEXT with it, and freed by free_fn when the state is
 * cleared or destroyed. NULL until set. */
void *cs_state_render(const struct cs_state *s);
void cs_state_set_render(struct cs_state *s, void *render, void (*free_fn)(void *));
/* The same for the compute pipeline's state (gpgpu/gpgpu.h). */
void *cs_state_gpgpu(const struct cs_state *s);
void cs_state_set_gpgpu(struct cs_state *s, void *gpgpu, void (*free_fn)(void *));

#endif
