/* The registers gtsim knows: the register entries of the description
 * (src/gpu/cmd/desc/genN.cmds), an engine register at each engine's base.
 * A command that writes a register outside them, or another engine's
 * register, is a GPU fault: gtsim neither guesses what the register does
 * nor drops the write silently. */
#include "gpu/cs/cs.h"

#include <pthread.h>
#include <stdlib.h>

#include "gpu/cmd/cmd_structs.h"
#include "common/devinfo.h"

struct known_regs {
	uint32_t *offsets;   /* sorted absolute offsets of every dword */
	uint32_t count;
};

static struct known_regs known[2];
static pthread_once_t known_once = PTHREAD_ONCE_INIT;

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void add(struct known_regs *k, uint32_t off, uint32_t dwords)
{
	for (uint32_t i = 0; i < dwords; i++)
		k->offsets[k->count++] = off + 4 * i;
}

static void build(void)
{
	for (int g = 0; g < 2; g++) {
		const struct cmd_table *t = cmd_table(8 + g);
		if (!t)
			continue;
		uint32_t max = 0;
		for (uint32_t i = 0; i < t->num_regs; i++)
			max += (t->regs[i].engines ? GT_NUM_ENGINES : 1) * (t->regs[i].length ? t->regs[i].length : 1);
		known[g].offsets = malloc((max ? max : 1) * sizeof(uint32_t));
		if (!known[g].offsets)
			continue;
		for (uint32_t i = 0; i < t->num_regs; i++) {
			const struct cmd_desc *r = &t->regs[i];
			uint32_t n = r->length ? r->length : 1;
			if (!r->engines) {
				add(&known[g], r->match, n);
				continue;
			}
			for (int id = 0; id < GT_NUM_ENGINES; id++)
				if (r->engines & (1u << id))
					add(&known[g], engine_mmio_base((enum gt_engine_id)id) + r->match, n);
		}
		qsort(known[g].offsets, known[g].count, sizeof(uint32_t), cmp_u32);
	}
}

bool cs_reg_known(const struct gt_engine *e, uint32_t reg)
{
	int g = e->gpu->info->gen - 8;
	if (g < 0 || g > 1)
		return false;
	/* Another engine's registers (its ring, or the render unit's for a
	 * non-render engine): cross-engine writes are not modelled. */
	enum gt_engine_id owner = engine_of_reg(reg);
	if (owner != GT_NUM_ENGINES && owner != e->id)
		return false;
	pthread_once(&known_once, build);
	reg &= ~3u;
	return known[g].offsets &&
	       bsearch(&reg, known[g].offsets, known[g].count, sizeof(uint32_t), cmp_u32);
}
