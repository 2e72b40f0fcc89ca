/* The engine register file: an open-addressing hash map (see regs.h). */
#include "gpu/cs/regs.h"

static uint32_t slot_of(const struct cs_regs *r, uint32_t reg, bool *found)
{
	uint32_t h = (reg >> 2) * 2654435761u;
	uint32_t i = (h >> 16) & (CS_REGS_CAP - 1);

	for (uint32_t n = 0; n < CS_REGS_CAP; n++, i = (i + 1) & (CS_REGS_CAP - 1)) {
		if (r->key[i] == reg + 1) {
			*found = true;
			return i;
		}
		if (!r->key[i]) {
			*found = false;
			return i;
		}
	}
	*found = false;
	return CS_REGS_CAP;
}

uint32_t regs_get(const struct cs_regs *r, uint32_t reg)
{
	bool found;
	uint32_t i = slot_of(r, reg, &found);
	return found ? r->val[i] : 0;
}

bool regs_set(struct cs_regs *r, uint32_t reg, uint32_t val)
{
	bool found;
	uint32_t i = slot_of(r, reg, &found);

	if (!found) {
		/* Keep a quarter free so probes stay short. */
		if (i == CS_REGS_CAP || r->used >= CS_REGS_CAP * 3 / 4)
			return false;
		r->key[i] = reg + 1;
		r->used++;
	}
	r->val[i] = val;
	return true;
}

uint64_t regs_get64(const struct cs_regs *r, uint32_t reg)
{
	return regs_get(r, reg) | (uint64_t)regs_get(r, reg + 4) << 32;
}

bool regs_set64(struct cs_regs *r, uint32_t reg, uint64_t val)
{
	return regs_set(r, reg, (uint32_t)val) && regs_set(r, reg + 4, (uint32_t)(val >> 32));
}

uint32_t cs_global_read(struct cs_global_regs *g, uint32_t reg)
{
	pthread_mutex_lock(&g->lock);
	uint32_t v = regs_get(&g->regs, reg);
	pthread_mutex_unlock(&g->lock);
	return v;
}

void cs_global_write(struct cs_global_regs *g, uint32_t reg, uint32_t val)
{
	pthread_mutex_lock(&g->lock);
	regs_set(&g->regs, reg, val);
	pthread_mutex_unlock(&g->lock);
}
