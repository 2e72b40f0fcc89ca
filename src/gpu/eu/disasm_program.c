/* A whole program as text, with LABELn: lines before branch targets. */
#include <stdlib.h>

#include "gpu/eu/disasm.h"

struct labels {
	long *off;
	size_t n;
};

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return x < y ? -1 : x > y;
}

static int label_of(void *ctx, long target)
{
	const struct labels *l = ctx;
	long *hit = bsearch(&target, l->off, l->n, sizeof(long), cmp_long);
	return hit ? (int)(hit - l->off) : -1;
}

static void collect(int gen, const struct eu_program *p, struct labels *l)
{
	size_t n = 0;
	for (size_t i = 0; i < p->count; i++) {
		const struct eu_inst *in = &p->insts[i];
		const struct eu_opcode_info *op = eu_opcode_lookup(gen, in->opcode);
		if (!op || !eu_opcode_shows_targets(in->opcode))
			continue;
		l->off[n++] = (long)p->offsets[i] + in->jip;
		if (op->has_uip)
			l->off[n++] = (long)p->offsets[i] + in->uip;
	}
	qsort(l->off, n, sizeof(long), cmp_long);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (u == 0 || l->off[u - 1] != l->off[i])
			l->off[u++] = l->off[i];
	l->n = u;
}

char *eu_disasm_program(int gen, const void *bytes, size_t len, size_t *bad_offset)
{
	struct eu_program p;
	if (eu_program_decode(gen, bytes, len, &p, bad_offset)) {
		eu_program_free(&p);
		return NULL;
	}
	struct labels l = { calloc(2 * p.count + 1, sizeof(long)), 0 };
	struct eu_text t = { 0 };
	if (!l.off) {
		eu_program_free(&p);
		return NULL;
	}
	collect(gen, &p, &l);
	size_t next = 0;
	for (size_t i = 0; i <= p.count; i++) {
		long off = i < p.count ? (long)p.offsets[i] : (long)p.size;
		/* Labels before this instruction (and, at the end, any that
		 * point at or past the end of the program). */
		while (next < l.n && (l.off[next] <= off || i == p.count)) {
			if (l.off[next] == off || i == p.count)
				eu_text_printf(&t, "LABEL%zu:\n", next);
			next++;
		}
		if (i < p.count)
			eu_disasm_inst(&t, gen, &p.insts[i], off, label_of, &l);
	}
	if (!t.buf)
		eu_text_puts(&t, "");
	free(l.off);
	eu_program_free(&p);
	if (t.oom) {
		eu_text_free(&t);
		return NULL;
	}
	return t.buf;
}
