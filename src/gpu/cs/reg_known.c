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

struct known_reg {
	uint32_t offset;     /* absolute offset of one dword */
	uint8_t flags;       /* CMD_F_* of its register (CMD_F_MASKED) */
};

struct known_regs {
	struct known_reg *regs;  /* sorted by offset */
	uint32_t count;
};

static struct known_regs known[2];
static pthread_once_t known_once = PTHREAD_ONCE_INIT;

static int cmp_offset(const void *a, const void *b)
{
	uint32_t x = ((const struct known_reg *)a)->offset, y = ((const struct known_reg *)b)->offset;
	return x < y ? -1 : x > y;
}

static void add(struct known_regs *k, uint32_t off, uint32_t dwords, uint8_t flags)
{
	for (uint32_t i = 0; i < dwords; i++)
		k->regs[k->count++] = (struct known_reg){ off + 4 * i, flags };
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
		known[g].regs = malloc((max ? max : 1) * sizeof(struct known_reg));
		if (!known[g].regs)
			continue;
		for (uint32_t i = 0; i < t->num_regs; i++) {
			const struct cmd_desc *r = &t->regs[i];
			uint32_t n = r->length ? r->length : 1;
			if (!r->engines) {
				add(&known[g], r->match, n, r->flags);
				continue;
			}
			for (int id = 0; id < GT_NUM_ENGINES; id++)
				if (r->engines & (1u << id))
					add(&known[g], engine_mmio_base((enum gt_engine_id)id) + r->match, n, r->flags);
		}
		qsort(known[g].regs, known[g].count, sizeof(struct known_reg), cmp_offset);
	}
}

static const struct known_reg *find(const struct gt_engine *e, uint32_t reg)
{
	int g = e->gpu && e->gpu->info ? e->gpu->info->gen - 8 : 0;
	if (g < 0 || g > 1)
		return NULL;
	pthread_once(&known_once, build);
	struct known_reg key = { reg & ~3u, 0 };
	return known[g].regs ? bsearch(&key, known[g].regs, known[g].count,
				       sizeof(struct known_reg), cmp_offset) : NULL;
}

bool cs_reg_known(const struct gt_engine *e, uint32_t reg)
{
	/* Another engine's registers (its ring, or the render unit's for a
	 * non-render engine): cross-engine writes are not modelled. */
	enum gt_engine_id owner = engine_of_reg(reg);
	if (owner != GT_NUM_ENGINES && owner != e->id)
		return false;
	return find(e, reg) != NULL;
}

bool cs_reg_readable(const struct gt_engine *e, uint32_t reg)
{
	if (cs_reg_known(e, reg))
		return true;
	/* Another engine's RING_TIMESTAMP: a read of its register, counted
	 * by the clock all engines share (cs_reg_read). IGT's gem_ctx_create
	 * reads the render engine's from every engine and orders the values. */
	enum gt_engine_id owner = engine_of_reg(reg);
	if (owner == GT_NUM_ENGINES)
		return false;
	uint32_t rel = (reg & ~3u) - engine_mmio_base(owner);
	return rel == RING_TIMESTAMP || rel == RING_TIMESTAMP_UDW;
}

bool cs_reg_masked(const struct gt_engine *e, uint32_t reg)
{
	const struct known_reg *k = find(e, reg);
	return k && (k->flags & CMD_F_MASKED);
}
