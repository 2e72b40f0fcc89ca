/* Recorded commands by id (recorded.h). */
#include "gpu/render/recorded.h"

#include <pthread.h>

/* Per generation (8, 9): command id -> its entry of the table. Built
 * once; the table's entries are what the command streamer records under. */
static const struct cmd_desc *by_id[2][CMD_ID_COUNT];
static pthread_once_t by_id_once = PTHREAD_ONCE_INIT;

static void build_by_id(void)
{
	for (int g = 0; g < 2; g++) {
		const struct cmd_table *t = cmd_table(8 + g);
		for (uint32_t i = 0; t && i < t->num_cmds; i++)
			if (t->cmds[i].id < CMD_ID_COUNT)
				by_id[g][t->cmds[i].id] = &t->cmds[i];
	}
}

const struct cmd_desc *render_cmd_desc(int gen, enum cmd_id id)
{
	if (gen < 8 || gen > 9 || (unsigned)id >= CMD_ID_COUNT)
		return NULL;
	pthread_once(&by_id_once, build_by_id);
	return by_id[gen - 8][id];
}

const uint32_t *render_recorded(const struct cs_state *st, int gen, enum cmd_id id,
				uint32_t *len)
{
	static const uint32_t zeros[1];
	const struct cmd_desc *d = render_cmd_desc(gen, id);
	uint32_t n = 0;
	const uint32_t *dw = d && st ? cs_state_get(st, d, &n) : NULL;
	if (!dw || n < d->length) {
		*len = 0;
		return zeros;
	}
	*len = n;
	return dw;
}
