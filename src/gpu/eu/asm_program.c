/* The assembler's statements: labels, predicates, mnemonics with their
 * modifiers, operands, options; then label resolution and encoding. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/eu/asm_internal.h"
#include "gpu/eu/isa_names.h"

struct label_def {
	char name[64];
	long offset;
};

struct pending {
	struct eu_inst in;
	long offset;
	size_t pos;                     /* source position, for errors */
	struct asm_ref jip, uip;        /* label names ("" when numeric) */
};

struct asm_prog {
	struct pending *v;
	size_t n, cap;
	struct label_def *labels;
	size_t nlabels, cap_labels;
	long offset;
};

static void *grow(struct asm_cur *c, void *p, size_t *cap, size_t need, size_t sz)
{
	if (need <= *cap)
		return p;
	size_t n = *cap ? *cap * 2 : 64;
	while (n < need)
		n *= 2;
	void *q = realloc(p, n * sz);
	if (!q)
		asm_error(c, "out of memory");
	*cap = n;
	return q;
}

static const char *const cond_names[] = { "", "z", "nz", "g", "ge", "l", "le",
					  "r", "o", "u" };
static const char *const pred_a1[] = { "", "", "anyv", "allv", "any2h", "all2h",
				       "any4h", "all4h", "any8h", "all8h", "any16h",
				       "all16h", "any32h", "all32h" };
static const char *const pred_a16[] = { "", "", "x", "y", "z", "w", "any4h", "all4h" };

static void flag_reg(struct asm_cur *c, struct eu_inst *in, bool *have)
{
	size_t at = c->pos;
	if (c->pos >= c->len || c->s[c->pos] != 'f')
		asm_error(c, "expected a flag register f0.0 .. f1.1");
	c->pos++;
	long nr = asm_int(c);
	if (c->pos >= c->len || c->s[c->pos] != '.')
		asm_error(c, "expected '.' in the flag register");
	c->pos++;
	long sub = asm_int(c);
	if (nr < 0 || nr > 1 || sub < 0 || sub > 1)
		asm_error_at(c, at, "flag registers are f0.0, f0.1, f1.0 and f1.1");
	if (*have && (in->flag_nr != nr || in->flag_subnr != sub))
		asm_error_at(c, at, "predicate and condition name different flags");
	in->flag_nr = (uint8_t)nr;
	in->flag_subnr = (uint8_t)sub;
	*have = true;
}

/* "(+f0.1.any4h)" — the access mode is not known yet, so the suffix is
 * kept and resolved after the options. */
static void predicate(struct asm_cur *c, struct eu_inst *in, bool *have_flag,
		      char *suffix, size_t *suffix_pos)
{
	asm_expect(c, '(');
	asm_skip_ws(c);
	if (asm_accept(c, '-'))
		in->pred_inv = true;
	else
		asm_accept(c, '+');
	asm_skip_ws(c);
	flag_reg(c, in, have_flag);
	in->pred = EU_PRED_NORMAL;
	suffix[0] = 0;
	if (c->pos < c->len && c->s[c->pos] == '.') {
		c->pos++;
		*suffix_pos = c->pos;
		if (!asm_ident(c, suffix, 16))
			asm_error(c, "expected a predicate control");
	}
	asm_expect(c, ')');
}

static void resolve_pred(struct asm_cur *c, struct eu_inst *in, const char *suffix,
			 size_t at)
{
	if (!suffix[0])
		return;
	bool a16 = in->access_mode == EU_ALIGN16;
	const char *const *tbl = a16 ? pred_a16 : pred_a1;
	unsigned n = a16 ? 8 : 14;
	for (unsigned i = 2; i < n; i++)
		if (!strcmp(tbl[i], suffix)) {
			in->pred = (uint8_t)i;
			return;
		}
	asm_error_at(c, at, "'%s' is not an %s predicate control", suffix,
		     a16 ? "align16" : "align1");
}

/* mnemonic[.sat][.cond[.fN.M]] */
static const struct eu_opcode_info *mnemonic(struct asm_cur *c, struct eu_inst *in,
					     bool *have_flag)
{
	char word[64];
	size_t at = c->pos, k = 0;
	while (c->pos < c->len && (isalnum((unsigned char)c->s[c->pos]) ||
				   c->s[c->pos] == '_' || c->s[c->pos] == '.')) {
		if (k + 1 >= sizeof(word))
			asm_error_at(c, at, "mnemonic too long");
		word[k++] = c->s[c->pos++];
	}
	word[k] = 0;
	char *save, *part = strtok_r(word, ".", &save);
	if (!part)
		asm_error_at(c, at, "expected an instruction");
	unsigned gens;
	int opc = eu_opcode_by_name(c->gen, part, &gens);
	if (opc < 0 && gens)
		asm_error_at(c, at, "'%s' is not an instruction of gen%d (the opcode "
			     "table has it from gen%d)", part, c->gen, __builtin_ctz(gens));
	if (opc < 0)
		asm_error_at(c, at, "unknown instruction '%s' on gen%d", part, c->gen);
	in->opcode = (uint8_t)opc;
	while ((part = strtok_r(NULL, ".", &save))) {
		if (!strcmp(part, "sat")) {
			in->saturate = true;
			continue;
		}
		if (!strcmp(part, "breakpoint")) {
			in->debug = true;
			continue;
		}
		if ((part[0] == 'f') && isdigit((unsigned char)part[1])) {
			char *sub = strtok_r(NULL, ".", &save);
			long nr = strtol(part + 1, NULL, 10);
			long sn = sub ? strtol(sub, NULL, 10) : -1;
			if (nr < 0 || nr > 1 || sn < 0 || sn > 1)
				asm_error_at(c, at, "bad flag register in '%.*s'",
					     (int)(c->pos - at), c->s + at);
			if (*have_flag && (in->flag_nr != nr || in->flag_subnr != sn))
				asm_error_at(c, at, "predicate and condition name different flags");
			in->flag_nr = (uint8_t)nr;
			in->flag_subnr = (uint8_t)sn;
			*have_flag = true;
			continue;
		}
		unsigned i;
		for (i = 1; i < sizeof(cond_names) / sizeof(cond_names[0]); i++)
			if (!strcmp(part, cond_names[i]))
				break;
		if (i == sizeof(cond_names) / sizeof(cond_names[0]))
			asm_error_at(c, at, "unknown modifier '.%s'", part);
		in->cond = (uint8_t)i;
	}
	return eu_opcode_lookup(c->gen, in->opcode);
}

static void branch_target(struct asm_cur *c, const char *which, struct asm_ref *ref,
			  int32_t *value)
{
	if (!asm_accept_word(c, which))
		asm_error(c, "expected '%s'", which);
	asm_skip_ws(c);
	int line, col;
	asm_where(c, c->pos, &line, &col);
	int p = asm_peek(c);
	if (p == '-' || (p >= '0' && p <= '9')) {
		*value = (int32_t)asm_int(c);
		ref->name[0] = 0;
		return;
	}
	if (!asm_ident(c, ref->name, sizeof(ref->name)))
		asm_error(c, "expected a label or a byte offset after %s", which);
	ref->line = line;
	ref->col = col;
}

static bool options_say_align16(const struct asm_cur *c)
{
	for (size_t p = c->pos; p < c->len && c->s[p] != ';'; p++)
		if (c->s[p] == '{') {
			for (; p < c->len && c->s[p] != '}'; p++)
				if (!strncmp(c->s + p, "align16", 7))
					return true;
			return false;
		}
	return false;
}

static void options(struct asm_cur *c, struct eu_inst *in)
{
	static const char *const grp[] = { "1Q", "2Q", "3Q", "4Q", "1H", "2H",
					   "1N", "2N", "3N", "4N", "5N", "6N", "7N", "8N" };
	static const uint8_t grp_v[] = { 0, 8, 16, 24, 0, 16, 0, 4, 8, 12, 16, 20, 24, 28 };
	if (!asm_accept(c, '{'))
		return;
	char w[32];
	for (;;) {
		asm_skip_ws(c);
		if (asm_accept(c, '}'))
			break;
		if (asm_accept(c, ','))
			continue;
		size_t at = c->pos, k = 0;
		while (c->pos < c->len && (isalnum((unsigned char)c->s[c->pos]) ||
					   c->s[c->pos] == '_') && k + 1 < sizeof(w))
			w[k++] = c->s[c->pos++];
		w[k] = 0;
		if (!k)
			asm_error(c, "expected an instruction option or '}'");
		unsigned i;
		for (i = 0; i < sizeof(grp) / sizeof(grp[0]); i++)
			if (!strcmp(w, grp[i]))
				break;
		if (i < sizeof(grp) / sizeof(grp[0]))
			in->group = grp_v[i];
		else if (!strcmp(w, "align1")) in->access_mode = EU_ALIGN1;
		else if (!strcmp(w, "align16")) in->access_mode = EU_ALIGN16;
		else if (!strcmp(w, "WE_all") || !strcmp(w, "NoMask")) in->no_mask = true;
		else if (!strcmp(w, "NoDDClr")) in->dep_ctrl |= 1;
		else if (!strcmp(w, "NoDDChk")) in->dep_ctrl |= 2;
		else if (!strcmp(w, "compacted")) in->compacted = true;
		else if (!strcmp(w, "atomic")) in->thread_ctrl = 1;
		else if (!strcmp(w, "switch")) in->thread_ctrl = 2;
		else if (!strcmp(w, "BranchCtrl")) in->branch_ctrl = true;
		else if (!strcmp(w, "AccWrEnable")) in->acc_wr = true;
		else if (!strcmp(w, "EOT")) in->eot = true;
		else if (!strcmp(w, "Breakpoint")) in->debug = true;
		else asm_error_at(c, at, "unknown instruction option '%s'", w);
	}
}

/* Fields that the text does not show, set as Mesa's assembler sets them
 * (observed in its gen8 test vectors). */
static void conventions(struct eu_inst *in, const struct eu_opcode_info *op)
{
	switch (op->kind) {
	case EU_KIND_BRANCH:
		in->dst.file = EU_FILE_ARF;
		in->dst.nr = in->opcode == EU_OP_CONTINUE ? EU_ARF_IP : EU_ARF_NULL;
		in->dst.type = in->opcode == EU_OP_ENDIF || in->opcode == EU_OP_CONTINUE ?
			       EU_TYPE_UD : EU_TYPE_D;
		in->dst.hstride = in->opcode == EU_OP_ENDIF ? 0 : 1;
		in->src[0].file = EU_FILE_IMM;
		in->src[0].type = EU_TYPE_D;
		if (!op->has_uip) {
			in->src[1].file = EU_FILE_ARF;
			in->src[1].type = EU_TYPE_D;
		}
		break;
	case EU_KIND_WAIT:
		in->src[0] = in->dst;
		in->src[0].vstride = 0; in->src[0].width = 1; in->src[0].hstride = 0;
		memset(&in->src[1], 0, sizeof(in->src[1]));
		in->src[1].type = EU_TYPE_F;
		in->src[1].vstride = 8; in->src[1].width = 8; in->src[1].hstride = 1;
		break;
	case EU_KIND_JMPI:
		if (in->opcode == EU_OP_JMPI) {
			in->src[1] = in->src[0];
			memset(&in->dst, 0, sizeof(in->dst));
			memset(&in->src[0], 0, sizeof(in->src[0]));
			in->dst.nr = in->src[0].nr = EU_ARF_IP;
			in->dst.hstride = 1;
			in->src[0].width = 1;
			if (in->src[1].file == EU_FILE_IMM)
				in->jip = (int32_t)(uint32_t)in->src[1].imm;
		}
		break;
	default:
		break;
	}
	if (in->opcode == EU_OP_GOTO && in->acc_wr) {
		/* Mesa prints goto's BranchCtrl bit as AccWrEnable */
		in->acc_wr = false;
		in->branch_ctrl = true;
	}
	if (in->dst.type == 0xff)   /* bare "null" destination */
		in->dst.type = in->src[0].file == EU_FILE_IMM ? EU_TYPE_F : in->src[0].type;
	if ((op->kind == EU_KIND_ALU || op->kind == EU_KIND_MATH) && op->nsrc == 1) {
		memset(&in->src[1], 0, sizeof(in->src[1]));
		/* Mesa copies the immediate's type code into src1's type
		 * field, except in compacted instructions (its precompact
		 * step clears it: every table entry with an immediate src0
		 * has src1 type 0). */
		if (in->src[0].file == EU_FILE_IMM && !in->compacted)
			in->src[1].type = in->src[0].type;
	}
}

static void instruction(struct asm_cur *c, struct asm_prog *pr)
{
	struct pending pd;
	memset(&pd, 0, sizeof(pd));
	struct eu_inst *in = &pd.in;
	pd.pos = c->pos;
	bool have_flag = false;
	char psuffix[16] = "";
	size_t psuffix_pos = 0;
	if (asm_peek(c) == '(')
		predicate(c, in, &have_flag, psuffix, &psuffix_pos);
	asm_skip_ws(c);
	const struct eu_opcode_info *op = mnemonic(c, in, &have_flag);
	in->num_srcs = op->nsrc;
	in->access_mode = options_say_align16(c) ? EU_ALIGN16 : EU_ALIGN1;
	if (op->kind == EU_KIND_MATH) {
		char fn[16];
		size_t at = c->pos;
		if (!asm_ident(c, fn, sizeof(fn)))
			asm_error(c, "expected a math function");
		unsigned i;
		for (i = 1; i < 16; i++)
			if (eu_math_fn_names[i] && !strcmp(eu_math_fn_names[i], fn))
				break;
		if (i == 16)
			asm_error_at(c, at, "unknown math function '%s'", fn);
		in->math_fn = (uint8_t)i;
		if (in->cond)
			asm_error_at(c, at, "math takes no conditional modifier");
	}
	in->exec_size = 1;
	if (in->opcode != EU_OP_NOP) {
		asm_expect(c, '(');
		size_t at = c->pos;
		long es = asm_int(c);
		if (es != 1 && es != 2 && es != 4 && es != 8 && es != 16 && es != 32)
			asm_error_at(c, at, "execution size must be 1, 2, 4, 8, 16 or 32");
		in->exec_size = (uint8_t)es;
		asm_expect(c, ')');
	}
	bool three = op->kind == EU_KIND_ALU3;
	switch (op->kind) {
	case EU_KIND_BRANCH:
		/* Mesa prints goto/join/brd/brc bare (JIP = UIP = 0 then);
		 * their targets may be given as an extension */
		asm_skip_ws(c);
		if (!eu_opcode_shows_targets(in->opcode) &&
		    (c->len - c->pos < 4 || memcmp(c->s + c->pos, "JIP:", 4)))
			break;
		branch_target(c, "JIP:", &pd.jip, &in->jip);
		if (op->has_uip)
			branch_target(c, "UIP:", &pd.uip, &in->uip);
		break;
	case EU_KIND_NOP:
		break;
	case EU_KIND_WAIT:
		asm_dst(c, in, false);
		break;
	case EU_KIND_JMPI:
		if (in->opcode == EU_OP_JMPI) {
			asm_src(c, in, 0, false);
			break;
		}
		/* call/calla/ret: Mesa prints no operands; dst, src0 and
		 * src1 may be given as an extension */
		asm_skip_ws(c);
		if (asm_peek(c) == '{' || asm_peek(c) == ';')
			break;
		asm_dst(c, in, false);
		asm_src(c, in, 0, false);
		asm_src(c, in, 1, false);
		break;
	case EU_KIND_SENDS: {
		struct eu_operand *o[3] = { &in->dst, &in->src[0], &in->src[1] };
		for (int i = 0; i < 3; i++)
			asm_sends_reg(c, o[i]);
		asm_skip_ws(c);
		if (asm_accept_word(c, "a0")) {
			if (!asm_accept_word(c, "<0>UD"))
				asm_error(c, "expected a0<0>UD");
			in->desc_is_reg = true;
		} else {
			in->desc = (uint32_t)asm_int(c) & 0x7fffffffu;
		}
		if (asm_accept_word(c, "a0")) {
			if (asm_accept(c, '.'))
				in->ex_desc_subnr = (uint8_t)(asm_int(c) & 7);
			if (!asm_accept_word(c, "<0>UD"))
				asm_error(c, "expected a0.N<0>UD");
			in->ex_desc_is_reg = true;
		} else {
			in->ex_desc = (uint32_t)asm_int(c);
		}
		asm_send_desc(c, in, true);
		break;
	}
	case EU_KIND_SEND: {
		asm_dst(c, in, false);
		asm_src(c, in, 0, false);
		asm_skip_ws(c);
		bool hex = false;
		if (asm_accept_word(c, "a0") ) {
			c->pos -= 2;
			asm_src(c, in, 1, false);
			in->desc_is_reg = true;
		}
		asm_skip_ws(c);
		if (c->pos + 1 < c->len && c->s[c->pos] == '0' && c->s[c->pos + 1] == 'x') {
			long v = asm_int(c);
			hex = true;
			if (!in->desc_is_reg) {
				in->desc = (uint32_t)v & 0x7fffffffu;
				in->eot = ((uint32_t)v >> 31) & 1;
				in->src[1].file = EU_FILE_IMM;
				in->src[1].type = EU_TYPE_UD;
			}
		} else if (!in->desc_is_reg) {
			in->src[1].file = EU_FILE_IMM;
			in->src[1].type = EU_TYPE_UD;
		}
		asm_send_desc(c, in, hex);
		break;
	}
	default:
		asm_dst(c, in, three);
		for (int i = 0; i < op->nsrc; i++) {
			if (op->kind == EU_KIND_MATH && i == 1 && !asm_at_operand(c)) {
				in->src[1].type = EU_TYPE_F;
				in->src[1].vstride = 8; in->src[1].width = 8; in->src[1].hstride = 1;
				break;
			}
			asm_src(c, in, i, three);
		}
	}
	bool eot_in_hex = in->eot;
	options(c, in);
	in->eot = in->eot || eot_in_hex;
	resolve_pred(c, in, psuffix, psuffix_pos);
	asm_accept(c, ';');
	conventions(in, op);
	pd.offset = pr->offset;
	pr->offset += in->compacted ? 8 : 16;
	pr->v = grow(c, pr->v, &pr->cap, pr->n + 1, sizeof(*pr->v));
	pr->v[pr->n++] = pd;
}

static bool label_def(struct asm_cur *c, struct asm_prog *pr)
{
	size_t save = c->pos;
	char name[64];
	if (!asm_ident(c, name, sizeof(name)))
		return false;
	if (c->pos >= c->len || c->s[c->pos] != ':') {
		c->pos = save;
		return false;
	}
	c->pos++;
	for (size_t i = 0; i < pr->nlabels; i++)
		if (!strcmp(pr->labels[i].name, name))
			asm_error_at(c, save, "label '%s' defined twice", name);
	pr->labels = grow(c, pr->labels, &pr->cap_labels, pr->nlabels + 1,
			  sizeof(*pr->labels));
	memcpy(pr->labels[pr->nlabels].name, name, sizeof(name));
	pr->labels[pr->nlabels++].offset = pr->offset;
	return true;
}

static void resolve(struct asm_cur *c, struct asm_prog *pr, struct asm_ref *ref,
		    long from, int32_t *value)
{
	if (!ref->name[0])
		return;
	for (size_t i = 0; i < pr->nlabels; i++)
		if (!strcmp(pr->labels[i].name, ref->name)) {
			*value = (int32_t)(pr->labels[i].offset - from);
			return;
		}
	snprintf(c->err, 512, "%s:%d:%d: error: undefined label '%s'", c->file,
		 ref->line, ref->col, ref->name);
	longjmp(c->fail, 1);
}

/* text must be followed by a NUL: the lexer reads numbers and words with
 * the C library's string functions (strtof, strtol, strncmp). */
static int assemble_terminated(int gen, const char *text, size_t len, const char *filename,
			       struct eu_asm_result *res)
{
	struct asm_cur cur = { .s = text, .len = len, .file = filename ? filename : "<input>",
			       .gen = gen, .err = res->error };
	/* Heap state: locals changed after setjmp are unreliable after longjmp. */
	struct asm_prog *const prp = calloc(1, sizeof(*prp));
	if (!prp) {
		snprintf(res->error, sizeof(res->error), "out of memory");
		return -1;
	}
#define pr (*prp)
	res->bytes = NULL;
	res->insts = NULL;
	res->len = res->count = 0;
	res->error[0] = 0;
	if (setjmp(cur.fail)) {
		free(pr.v);
		free(pr.labels);
		free(prp);
		free(res->bytes);
		free(res->insts);
		res->bytes = NULL;
		res->insts = NULL;
		res->len = res->count = 0;
		return -1;
	}
	if (gen != 8 && gen != 9)
		asm_error(&cur, "only gen8 and gen9 are supported");
	while (asm_peek(&cur) >= 0) {
		if (label_def(&cur, &pr))
			continue;
		instruction(&cur, &pr);
	}
	res->bytes = malloc(pr.offset ? (size_t)pr.offset : 1);
	res->insts = malloc((pr.n ? pr.n : 1) * sizeof(*res->insts));
	if (!res->bytes || !res->insts)
		asm_error(&cur, "out of memory");
	for (size_t i = 0; i < pr.n; i++) {
		struct pending *p = &pr.v[i];
		resolve(&cur, &pr, &p->jip, p->offset, &p->in.jip);
		resolve(&cur, &pr, &p->uip, p->offset, &p->in.uip);
		uint8_t buf[16];
		int n = eu_encode(gen, &p->in, buf, p->in.compacted);
		if (n < 0)
			asm_error_at(&cur, p->pos, "this instruction cannot be encoded");
		if (p->in.compacted && n != 8)
			asm_error_at(&cur, p->pos, "this instruction has no compacted form");
		memcpy(res->bytes + p->offset, buf, (size_t)n);
		res->insts[i] = p->in;
	}
	res->len = (size_t)pr.offset;
	res->count = pr.n;
	free(pr.v);
	free(pr.labels);
	free(prp);
#undef pr
	return 0;
}

/* The caller's text need not end in a NUL (a file's bytes as read): the
 * assembler works on a terminated copy. */
int eu_assemble(int gen, const char *text, size_t len, const char *filename,
		struct eu_asm_result *res)
{
	char *copy = malloc(len + 1);
	if (!copy) {
		res->bytes = NULL;
		res->insts = NULL;
		res->len = res->count = 0;
		snprintf(res->error, sizeof(res->error), "out of memory");
		return -1;
	}
	memcpy(copy, text, len);
	copy[len] = 0;
	int ret = assemble_terminated(gen, copy, len, filename, res);
	free(copy);
	return ret;
}

void eu_asm_result_free(struct eu_asm_result *res)
{
	free(res->bytes);
	free(res->insts);
	res->bytes = NULL;
	res->insts = NULL;
}
