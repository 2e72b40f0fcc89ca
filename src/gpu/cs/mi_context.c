/* MI_SET_CONTEXT (BDW PRM vol. 2a "MI_SET_CONTEXT"; vol. 7 "Logical
 * Context"): in ring-buffer submission the render engine saves its
 * logical context, the 3D/media state the pipeline keeps between batches
 * (PIPELINE_SELECT, STATE_BASE_ADDRESS, every 3DSTATE_*), for the context
 * it was running and loads the one at Logical Context Address. Restore
 * Inhibit starts the new context from the power-on state (a context's
 * first use). Switching to the current context does nothing (with Force
 * Restore too: gtsim keeps the live state rather than reloading the one
 * last saved).
 *
 * gtsim keeps the images on the host (struct cs_state), keyed by their
 * GGTT address, and never reads or writes that memory;
 * engine_forget_context() (engine.h) drops an image when the kernel
 * destroys its context.
 * The register file (GPRs, predicates, statistics) stays per engine. */
#include "gpu/cs/mi.h"

#include <stdlib.h>

#include "common/trace.h"
#include "gpu/cs/state.h"

static struct cs_context_image *find_image(struct gt_engine *e, uint32_t key)
{
	for (uint32_t i = 0; i < e->num_images; i++)
		if (e->images[i].key == key)
			return &e->images[i];
	return NULL;
}

static void drop_image(struct gt_engine *e, struct cs_context_image *img)
{
	*img = e->images[--e->num_images];
}

/* Keep the current state as the image of the current context. */
static bool save_current(struct gt_engine *e)
{
	if (e->num_images == e->cap_images) {
		uint32_t cap = e->cap_images ? 2 * e->cap_images : 8;
		struct cs_context_image *n = realloc(e->images, cap * sizeof(*n));
		if (!n)
			return false;
		e->images = n;
		e->cap_images = cap;
	}
	e->images[e->num_images++] = (struct cs_context_image){ e->ctx_key, e->state };
	return true;
}

MI_HANDLER(mi_set_context)
{
	struct cmd_MI_SET_CONTEXT c;
	cmd_MI_SET_CONTEXT_unpack(cs_gen(e), dw, len, &c);
	uint32_t key = (uint32_t)c.logical_context_address;
	bool inhibit = c.restore_inhibit != 0;

	if (e->ctx_valid && key == e->ctx_key && !inhibit)
		return CS_NEXT;
	struct cs_state *next = NULL;
	struct cs_context_image *img = key == e->ctx_key && e->ctx_valid ? NULL : find_image(e, key);
	if (img) {
		next = img->state;
		drop_image(e, img);
	} else if (e->ctx_valid && key == e->ctx_key) {
		next = e->state;       /* Restore Inhibit of the current one */
	}
	if (!next && !(next = cs_state_create()))
		return cs_fault(e, "MI_SET_CONTEXT: out of memory for a logical context");
	if (inhibit)
		cs_state_clear(next);
	if (next != e->state) {
		if (e->ctx_valid) {
			if (!save_current(e)) {
				cs_state_destroy(next);
				return cs_fault(e, "MI_SET_CONTEXT: out of memory for a logical context");
			}
		} else {
			cs_state_destroy(e->state);   /* state of no context */
		}
	}
	TRACE(TRACE_CS, "%s: logical context 0x%x -> 0x%x%s", e->name,
	      e->ctx_valid ? e->ctx_key : 0, key, inhibit ? " (restore inhibit)" : "");
	e->state = next;
	e->ctx_key = key;
	e->ctx_valid = true;
	return CS_NEXT;
}

void cs_context_forget(struct gt_engine *e, uint32_t addr)
{
	struct cs_context_image *img = find_image(e, addr);
	if (img) {
		cs_state_destroy(img->state);
		drop_image(e, img);
	} else if (e->ctx_valid && e->ctx_key == addr) {
		e->ctx_valid = false;          /* its state now belongs to none */
	}
}

void cs_context_images_free(struct gt_engine *e)
{
	for (uint32_t i = 0; i < e->num_images; i++)
		cs_state_destroy(e->images[i].state);
	free(e->images);
	e->images = NULL;
	e->num_images = e->cap_images = 0;
}
