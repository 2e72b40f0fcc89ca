/* Recorded 3D/media state (state.h): a small map from command descriptor to
 * its last dwords. */
#include "gpu/cs/state.h"

#include <stdlib.h>
#include <string.h>

#define STATE_SLOTS 512u

struct state_slot {
	const struct cmd_desc *desc;
	uint32_t *dw;
	uint32_t len, cap;
};

struct cs_state {
	struct state_slot slot[STATE_SLOTS];
	void *render;                  /* cs_state_render() */
	void (*render_free)(void *);
	void *gpgpu;                   /* cs_state_gpgpu() */
	void (*gpgpu_free)(void *);
};

struct cs_state *cs_state_create(void)
{
	return calloc(1, sizeof(struct cs_state));
}

void cs_state_clear(struct cs_state *s)
{
	cs_state_set_render(s, NULL, NULL);
	cs_state_set_gpgpu(s, NULL, NULL);
	for (uint32_t i = 0; i < STATE_SLOTS; i++) {
		free(s->slot[i].dw);
		memset(&s->slot[i], 0, sizeof(s->slot[i]));
	}
}

void cs_state_destroy(struct cs_state *s)
{
	if (!s)
		return;
	cs_state_clear(s);
	free(s);
}

static struct state_slot *find(struct cs_state *s, const struct cmd_desc *d, bool add)
{
	uint32_t i = (uint32_t)(((uintptr_t)d >> 4) * 2654435761u) % STATE_SLOTS;
	for (uint32_t n = 0; n < STATE_SLOTS; n++, i = (i + 1) % STATE_SLOTS) {
		if (s->slot[i].desc == d)
			return &s->slot[i];
		if (!s->slot[i].desc) {
			if (!add)
				return NULL;
			s->slot[i].desc = d;
			return &s->slot[i];
		}
	}
	return NULL;
}

int cs_state_record(struct cs_state *s, const struct cmd_desc *d,
		    const uint32_t *dw, uint32_t len)
{
	struct state_slot *sl = find(s, d, true);
	if (!sl)
		return -1;
	if (sl->cap < len) {
		uint32_t *n = realloc(sl->dw, len * sizeof(uint32_t));
		if (!n)
			return -1;
		sl->dw = n;
		sl->cap = len;
	}
	memcpy(sl->dw, dw, len * sizeof(uint32_t));
	sl->len = len;
	return 0;
}

const uint32_t *cs_state_get(const struct cs_state *s, const struct cmd_desc *d,
			     uint32_t *len)
{
	struct state_slot *sl = find((struct cs_state *)s, d, false);
	if (!sl || !sl->dw)
		return NULL;
	if (len)
		*len = sl->len;
	return sl->dw;
}

void *cs_state_render(const struct cs_state *s)
{
	return s->render;
}

void cs_state_set_render(struct cs_state *s, void *render, void (*free_fn)(void *))
{
	if (s->render && s->render_free && s->render != render)
		s->render_free(s->render);
	s->render = render;
	s->render_free = free_fn;
}

void *cs_state_gpgpu(const struct cs_state *s)
{
	return s->gpgpu;
}

void cs_state_set_gpgpu(struct cs_state *s, void *gpgpu, void (*free_fn)(void *))
{
	if (s->gpgpu && s->gpgpu_free && s->gpgpu != gpgpu)
		s->gpgpu_free(s->gpgpu);
	s->gpgpu = gpgpu;
	s->gpgpu_free = free_fn;
}
