/* The layouts of the description, from the generated tables of both
 * generations: every field's bits are ordered and lie inside its command
 * or structure (or inside one element of its repeated part), a nested
 * structure spans exactly the structure's length, and two fields of one
 * placement share bits only where the description marks the second as an
 * overlay of the first ("alt": the PRM gives the same bits two meanings,
 * e.g. RENDER_SURFACE_STATE's auxiliary pitch and the UV plane offset). */
#include "test.h"

#include "gpu/cmd/cmd.h"

static bool same_placement(const struct cmd_field *a, const struct cmd_field *b)
{
	return a->in_group == b->in_group && (!a->in_group ||
		(a->group_start == b->group_start && a->group_size == b->group_size &&
		 a->group_count == b->group_count));
}

/* name is one of the ';'-separated names of list */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p; ) {
		const char *e = strchr(p, ';');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !strncmp(p, name, n))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

static unsigned overlays;

/* Number of places a field occupies: 1, or its group's fixed count. */
static unsigned places(const struct cmd_field *f)
{
	return f->in_group ? f->group_count : 1;
}

static uint64_t place_start(const struct cmd_field *f, unsigned k)
{
	return (f->in_group ? f->group_start + (uint64_t)k * f->group_size : 0) + f->start;
}

/* Fields of the fixed part (outside groups or in groups of a fixed count)
 * are compared at every place they occupy; fields of one repeated part
 * that runs to the end, within one element. */
static bool shares_bits(const struct cmd_field *f, const struct cmd_field *g)
{
	bool fv = f->in_group && !f->group_count, gv = g->in_group && !g->group_count;
	if (fv || gv)
		return same_placement(f, g) && f->start <= g->end && g->start <= f->end;
	for (unsigned a = 0; a < places(f); a++)
		for (unsigned b = 0; b < places(g); b++) {
			uint64_t fs = place_start(f, a), gs = place_start(g, b);
			if (fs <= gs + (g->end - g->start) && gs <= fs + (f->end - f->start))
				return true;
		}
	return false;
}

static void check_item(int gen, const struct cmd_desc *d)
{
	uint64_t bits = (uint64_t)d->length * 32;
	for (unsigned i = 0; i < d->num_fields; i++) {
		const struct cmd_field *f = &d->fields[i];
		unsigned width = f->end - f->start + 1u;
		bool ok = f->start <= f->end;
		if (f->type == CMD_T_STRUCT) {
			/* a nested structure's fields fit the bits it is given */
			ok = ok && f->sub;
			for (unsigned k = 0; ok && k < f->sub->num_fields; k++)
				ok = f->sub->fields[k].end < width;
		} else {
			ok = ok && width <= 64;
		}
		if (f->in_group)
			ok = ok && f->group_size && f->end < f->group_size;
		if (!ok)
			fprintf(stderr, "gen%d %s: field \"%s\" bits %u..%u\n", gen, d->name, f->name,
				f->start, f->end);
		CHECK(ok);
		/* inside the length: a structure's or register's fields lie in
		 * its length; a command with a DWord Length field may be longer
		 * than its usual length (MI_STORE_DATA_IMM's second dword,
		 * MI_ATOMIC's inline operands), up to what DWord Length can say */
		uint64_t end = !f->in_group ? f->end + 1u : f->group_count ?
			f->group_start + (uint64_t)f->group_size * f->group_count : f->group_start;
		uint64_t limit = d->len_mask ? ((uint64_t)(d->len_mask >> __builtin_ctz(d->len_mask)) +
			d->bias) * 32 : bits;
		if (end > limit)
			fprintf(stderr, "gen%d %s: \"%s\" ends at bit %llu, past %llu\n", gen, d->name,
				f->name, (unsigned long long)end, (unsigned long long)limit);
		CHECK(end <= limit);
		for (unsigned j = i + 1; j < d->num_fields; j++) {
			const struct cmd_field *g = &d->fields[j];
			if (!shares_bits(f, g))
				continue;
			bool declared = listed(g->alt, f->name) || listed(f->alt, g->name);
			if (!declared)
				fprintf(stderr, "gen%d %s: \"%s\" and \"%s\" share bits\n", gen, d->name,
					f->name, g->name);
			CHECK(declared);
			overlays++;
		}
	}
}

int main(void)
{
	for (int gen = 8; gen <= 9; gen++) {
		const struct cmd_table *t = cmd_table(gen);
		CHECK(t != NULL);
		if (!t)
			continue;
		for (unsigned i = 0; i < t->num_cmds; i++)
			check_item(gen, &t->cmds[i]);
		for (unsigned i = 0; i < t->num_structs; i++)
			check_item(gen, &t->structs[i]);
		for (unsigned i = 0; i < t->num_regs; i++)
			check_item(gen, &t->regs[i]);
	}
	/* the overlays the PRM has (35 pairs over both generations, see
	 * docs/cmd.md); a new one must be declared with alt */
	CHECK_EQ(overlays, 35);
	return test_exit();
}
