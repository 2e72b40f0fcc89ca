/* Operands: registers, regions, types, swizzles and immediates. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/eu/asm_internal.h"
#include "gpu/eu/isa_fields.h"

static const struct { const char *name; uint8_t nr; bool numbered; } arfs[] = {
	{ "null", EU_ARF_NULL, false }, { "acc", EU_ARF_ACC0, true },
	{ "a", EU_ARF_A0, true }, { "f", EU_ARF_F0, true },
	{ "mask", EU_ARF_CE0, true }, { "ce", EU_ARF_CE0, true },
	{ "msd", 0x60, true }, { "ms", 0x50, true },
	{ "sr", EU_ARF_SR0, true }, { "cr", EU_ARF_CR0, true },
	{ "n", EU_ARF_N0, true }, { "ip", EU_ARF_IP, false },
	{ "tdr", EU_ARF_TDR0, true }, { "tm", EU_ARF_TM0, true },
};

/* Type letters; longest match wins. */
static int type_from_text(struct asm_cur *c)
{
	asm_skip_ws(c);
	size_t p = c->pos, n = 0;
	while (p + n < c->len && isupper((unsigned char)c->s[p + n]))
		n++;
	for (unsigned t = 0; t < EU_TYPE_NUM; t++) {
		const char *l = eu_type_letters(t);
		if (strlen(l) == n && !strncmp(l, c->s + p, n)) {
			c->pos += n;
			return (int)t;
		}
	}
	return -1;
}

static unsigned need_type(struct asm_cur *c, bool imm_ok)
{
	size_t at = c->pos;
	int t = type_from_text(c);
	if (t < 0 || (!imm_ok && (t == EU_TYPE_V || t == EU_TYPE_UV || t == EU_TYPE_VF)))
		asm_error_at(c, at, "expected a register type (UD, D, UW, W, UB, B, F, DF, HF, Q, UQ)");
	return (unsigned)t;
}

/* A register name: GRF gN or an ARF. Returns false for "g[" (indirect). */
static bool reg_name(struct asm_cur *c, struct eu_operand *op)
{
	char name[32];
	size_t at = c->pos;
	asm_skip_ws(c);
	at = c->pos;
	if (c->pos + 1 < c->len && c->s[c->pos] == 'g' && c->s[c->pos + 1] == '[')
		return false;
	/* letters then digits: "g10UD" (split send) is g10 then UD */
	size_t n = 0;
	while (c->pos < c->len && n + 1 < sizeof(name) && islower((unsigned char)c->s[c->pos]))
		name[n++] = c->s[c->pos++];
	while (c->pos < c->len && n + 1 < sizeof(name) && isdigit((unsigned char)c->s[c->pos]))
		name[n++] = c->s[c->pos++];
	name[n] = 0;
	if (!n)
		asm_error(c, "expected a register");
	size_t k = 0;
	while (name[k] && !isdigit((unsigned char)name[k]))
		k++;
	long num = name[k] ? strtol(name + k, NULL, 10) : -1;
	name[k] = 0;
	if (!strcmp(name, "g") && num >= 0) {
		if (num > 127)
			asm_error_at(c, at, "g%ld: there are 128 GRF registers", num);
		op->file = EU_FILE_GRF;
		op->nr = (uint8_t)num;
		return true;
	}
	for (size_t i = 0; i < sizeof(arfs) / sizeof(arfs[0]); i++) {
		if (strcmp(name, arfs[i].name))
			continue;
		if (arfs[i].numbered != (num >= 0) || num > 15)
			break;
		op->file = EU_FILE_ARF;
		op->nr = (uint8_t)(arfs[i].nr + (num > 0 ? num : 0));
		return true;
	}
	asm_error_at(c, at, "unknown register '%.*s'", (int)(c->pos - at), c->s + at);
}

/* "g[a0.N off]" */
static void indirect(struct asm_cur *c, struct eu_operand *op, long *sub)
{
	c->pos += 2;
	if (!asm_accept_word(c, "a0"))
		asm_error(c, "expected a0 in an indirect register");
	*sub = 0;
	if (asm_accept(c, '.'))
		*sub = asm_int(c);
	if (*sub < 0 || *sub > 15)
		asm_error(c, "address subregister out of range");
	op->file = EU_FILE_GRF;
	op->addr_mode = EU_ADDR_INDIRECT;
	if (asm_peek(c) != ']') {
		long off = asm_int(c);
		if (off < -512 || off > 511)
			asm_error(c, "indirect offset %ld out of range (-512..511)", off);
		op->indirect_offset = (int16_t)off;
	}
	asm_expect(c, ']');
}

static unsigned stride_value(struct asm_cur *c, bool vstride)
{
	asm_skip_ws(c);
	if (vstride && asm_accept_word(c, "VxH"))
		return EU_VSTRIDE_VXH;
	size_t at = c->pos;
	long v = asm_int(c);
	if (v < 0 || v > 32 || (v & (v - 1)))
		asm_error_at(c, at, "bad region value %ld", v);
	return (unsigned)v;
}

static uint8_t writemask_or_swizzle(struct asm_cur *c, bool swizzle, uint8_t swz[4])
{
	/* after '.', lowercase x y z w */
	static const char xyzw[] = "xyzw";
	size_t at = c->pos;
	unsigned n = 0, mask = 0;
	uint8_t sel[4];
	while (c->pos < c->len && strchr(xyzw, c->s[c->pos]) && c->s[c->pos]) {
		if (n == 4)
			asm_error_at(c, at, "too many components");
		sel[n++] = (uint8_t)(strchr(xyzw, c->s[c->pos]) - xyzw);
		mask |= 1u << sel[n - 1];
		c->pos++;
	}
	if (swizzle) {
		if (n != 1 && n != 4)
			asm_error_at(c, at, "a swizzle has 1 or 4 components");
		for (int i = 0; i < 4; i++)
			swz[i] = sel[n == 1 ? 0 : i];
	}
	return (uint8_t)mask;
}

bool asm_at_operand(struct asm_cur *c)
{
	int p = asm_peek(c);
	return p >= 0 && p != '{' && p != ';';
}

void asm_dst(struct asm_cur *c, struct eu_inst *in, bool three_src)
{
	struct eu_operand *d = &in->dst;
	long sub = 0, isub = 0;
	memset(d, 0, sizeof(*d));
	d->hstride = 1;
	d->width = 1;
	d->writemask = 0xf;
	if (!reg_name(c, d))
		indirect(c, d, &isub);
	if (d->file == EU_FILE_ARF && (d->nr == EU_ARF_IP || d->nr == EU_ARF_TDR0)) {
		d->type = EU_TYPE_UD;
		return;
	}
	if (c->pos < c->len && c->s[c->pos] == '.')
		c->pos++, sub = asm_int(c);
	if (c->pos >= c->len || c->s[c->pos] != '<') {
		/* old spelling: a bare "null" */
		if (d->file == EU_FILE_ARF && d->nr == EU_ARF_NULL && !sub) {
			d->type = 0xff; /* filled in from the sources */
			return;
		}
		asm_error(c, "expected '<' after the destination register");
	}
	c->pos++;
	d->hstride = (uint8_t)stride_value(c, false);
	asm_expect(c, '>');
	if (c->pos < c->len && c->s[c->pos] == '.') {
		c->pos++;
		d->writemask = writemask_or_swizzle(c, false, NULL);
	}
	d->type = (uint8_t)need_type(c, false);
	unsigned esz = eu_type_size(d->type);
	if (sub < 0 || sub * esz > 31)
		asm_error(c, "subregister %ld out of range", sub);
	d->subnr = (uint8_t)(sub * esz);
	if (d->addr_mode == EU_ADDR_INDIRECT)
		d->indirect_subnr = (uint8_t)(isub * esz);
	if (three_src && (d->file != EU_FILE_GRF || d->addr_mode))
		asm_error(c, "a 3-source destination must be a GRF");
}

/* Numbers with a type suffix: 0x40c00000F, -1023D, 1F, 0x0008UW, 2.5F. */
bool asm_imm(struct asm_cur *c, struct eu_operand *op)
{
	asm_skip_ws(c);
	size_t at = c->pos, p = c->pos;
	if (p < c->len && c->s[p] == '[') {
		/* [a F, b F, c F, d F]VF */
		c->pos++;
		uint32_t v = 0;
		for (int i = 0; i < 4; i++) {
			if (i)
				asm_expect(c, ',');
			asm_skip_ws(c);
			char *end;
			float f = strtof(c->s + c->pos, &end);
			if (end == c->s + c->pos)
				asm_error(c, "expected a number");
			c->pos = (size_t)(end - c->s);
			if (c->pos < c->len && c->s[c->pos] == 'F')
				c->pos++;
			int vf = eu_float_to_vf(f);
			if (vf < 0)
				asm_error(c, "%g cannot be a VF vector element", (double)f);
			v |= (uint32_t)vf << (8 * i);
		}
		asm_expect(c, ']');
		if (!asm_accept_word(c, "VF"))
			asm_error(c, "expected VF after a vector of floats");
		op->file = EU_FILE_IMM;
		op->type = EU_TYPE_VF;
		op->imm = v;
		return true;
	}
	if (p < c->len && (c->s[p] == '-' || c->s[p] == '+'))
		p++;
	if (p >= c->len || !(isdigit((unsigned char)c->s[p]) ||
			     (c->s[p] == '.' && p + 1 < c->len && isdigit((unsigned char)c->s[p + 1]))))
		return false;
	/* the token: digits, letters, '.', and a sign after an exponent */
	bool hex = p + 1 < c->len && c->s[p] == '0' && (c->s[p + 1] == 'x' || c->s[p + 1] == 'X');
	size_t e = p;
	while (e < c->len && (isalnum((unsigned char)c->s[e]) || c->s[e] == '.' ||
			      ((c->s[e] == '-' || c->s[e] == '+') && e > p && !hex &&
			       c->s[e - 1] == 'e')))
		e++;
	int type = -1;
	size_t body_end = e;
	for (size_t n = 2; n >= 1 && type < 0; n--) {
		if (e - at <= n)
			continue;
		for (unsigned t = 0; t < EU_TYPE_NUM; t++) {
			const char *l = eu_type_letters(t);
			if (strlen(l) == n && !strncmp(c->s + e - n, l, n) &&
			    (!hex || e - n > p + 2)) {
				type = (int)t;
				body_end = e - n;
				break;
			}
		}
	}
	if (type < 0)
		asm_error_at(c, at, "an immediate needs a type suffix (e.g. 1F, 0x10UD)");
	char tok[80];
	if (body_end - at >= sizeof(tok))
		asm_error_at(c, at, "number too long");
	memcpy(tok, c->s + at, body_end - at);
	tok[body_end - at] = 0;
	char *end;
	op->file = EU_FILE_IMM;
	op->type = (uint8_t)type;
	if (hex) {
		bool neg = tok[0] == '-';
		uint64_t v = strtoull(tok + (neg || tok[0] == '+'), &end, 16);
		op->imm = neg ? (uint64_t)-v : v;
	} else if (strpbrk(tok, ".eE") || type == EU_TYPE_F || type == EU_TYPE_DF ||
		   type == EU_TYPE_VF || type == EU_TYPE_HF) {
		double d = strtod(tok, &end);
		if (type == EU_TYPE_DF) {
			union { double d; uint64_t u; } u = { .d = d };
			op->imm = u.u;
		} else if (type == EU_TYPE_F) {
			union { float f; uint32_t u; } u = { .f = (float)d };
			op->imm = u.u;
		} else if (type == EU_TYPE_Q || type == EU_TYPE_UQ) {
			op->imm = (uint64_t)(int64_t)d;
		} else {
			op->imm = (uint32_t)(int64_t)d;
		}
	} else {
		op->imm = (uint64_t)strtoll(tok, &end, 10);
	}
	if (*end)
		asm_error_at(c, at, "bad number '%s'", tok);
	if (type == EU_TYPE_W || type == EU_TYPE_UW)
		op->imm = (op->imm & 0xffff) | (op->imm & 0xffff) << 16; /* as Mesa */
	else if (eu_type_size((unsigned)type) < 8)
		op->imm &= 0xffffffffu;
	if (type == EU_TYPE_UB || type == EU_TYPE_B)
		asm_error_at(c, at, "byte types cannot be immediates");
	c->pos = e;
	return true;
}

void asm_src(struct asm_cur *c, struct eu_inst *in, int i, bool three_src)
{
	struct eu_operand *s = &in->src[i];
	memset(s, 0, sizeof(*s));
	for (int k = 0; k < 4; k++)
		s->swizzle[k] = (uint8_t)k;
	asm_skip_ws(c);
	if (asm_imm(c, s)) {
		if (three_src)
			asm_error(c, "3-source instructions take no immediates on gen8/9");
		return;
	}
	if (asm_accept(c, '-') || asm_accept(c, '~'))
		s->negate = true;
	if (asm_accept_word(c, "(abs)"))
		s->abs = true;
	long sub = 0, isub = 0;
	if (!reg_name(c, s))
		indirect(c, s, &isub);
	s->indirect_subnr = (uint8_t)isub;
	if (s->file == EU_FILE_ARF && (s->nr == EU_ARF_IP || s->nr == EU_ARF_TDR0)) {
		s->type = EU_TYPE_UD;
		s->vstride = 4; s->width = 1; s->hstride = 0;
		return;
	}
	if (c->pos < c->len && c->s[c->pos] == '.')
		c->pos++, sub = asm_int(c);
	if (c->pos >= c->len || c->s[c->pos] != '<') {
		if (s->file == EU_FILE_ARF && s->nr == EU_ARF_NULL && !sub) {
			/* old spelling: a bare "null" (Mesa's brw_null_reg) */
			s->type = EU_TYPE_F;
			s->vstride = 8; s->width = 8; s->hstride = 1;
			return;
		}
		asm_error(c, "expected a region '<...>' after the source register");
	}
	c->pos++;
	s->vstride = (uint8_t)stride_value(c, true);
	bool a16 = in->access_mode == EU_ALIGN16 && !three_src;
	if (asm_accept(c, ',')) {
		s->width = (uint8_t)stride_value(c, false);
		asm_expect(c, ',');
		s->hstride = (uint8_t)stride_value(c, false);
		if (s->width == 0 || s->width > 16 || s->hstride > 4)
			asm_error(c, "bad region");
	} else {
		s->width = 4;
		s->hstride = 1;
		if (!a16)
			asm_error(c, "an align1 region needs <vstride,width,hstride>");
	}
	asm_expect(c, '>');
	if (c->pos < c->len && c->s[c->pos] == '.') {
		c->pos++;
		writemask_or_swizzle(c, true, s->swizzle);
	} else if (three_src && s->vstride == 0 && s->hstride == 0) {
		/* a replicated scalar: Mesa leaves the swizzle at .xxxx */
		memset(s->swizzle, 0, sizeof(s->swizzle));
	}
	s->type = (uint8_t)need_type(c, false);
	unsigned esz = eu_type_size(s->type);
	if (sub < 0 || sub * esz > 31)
		asm_error(c, "subregister %ld out of range", sub);
	s->subnr = (uint8_t)(sub * esz);
	if (three_src && (s->file != EU_FILE_GRF || s->addr_mode))
		asm_error(c, "3-source operands must be GRFs");
}

void asm_sends_reg(struct asm_cur *c, struct eu_operand *o)
{
	memset(o, 0, sizeof(*o));
	asm_skip_ws(c);
	size_t at = c->pos;
	if (!reg_name(c, o))
		asm_error(c, "split sends take no indirect registers");
	if (o->file == EU_FILE_ARF && o->nr != EU_ARF_NULL)
		asm_error_at(c, at, "split send operands are GRFs or null");
	if (c->pos < c->len && c->s[c->pos] == '.') {
		c->pos++;
		if (asm_int(c) != 1)
			asm_error(c, "a split send register offset is .1 (16 bytes)");
		o->subnr = 16;
	}
	o->type = (uint8_t)need_type(c, false);
	o->vstride = 8; o->width = 8; o->hstride = 1; o->writemask = 0xf;
	for (int k = 0; k < 4; k++)
		o->swizzle[k] = (uint8_t)k;
}
