/* Character-level scanning for the assembler. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/eu/asm_internal.h"

void asm_where(const struct asm_cur *c, size_t pos, int *line, int *col)
{
	int l = 1;
	size_t ls = 0;
	for (size_t i = 0; i < pos && i < c->len; i++)
		if (c->s[i] == '\n') {
			l++;
			ls = i + 1;
		}
	*line = l;
	*col = (int)(pos - ls) + 1;
}

void asm_error_at(struct asm_cur *c, size_t pos, const char *fmt, ...)
{
	int line, col;
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	asm_where(c, pos, &line, &col);
	snprintf(c->err, 512, "%s:%d:%d: error: %s", c->file, line, col, msg);
	longjmp(c->fail, 1);
}

void asm_skip_ws(struct asm_cur *c)
{
	while (c->pos < c->len) {
		char ch = c->s[c->pos];
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') {
			c->pos++;
		} else if (ch == '/' && c->pos + 1 < c->len && c->s[c->pos + 1] == '*') {
			size_t start = c->pos;
			c->pos += 2;
			while (c->pos + 1 < c->len &&
			       !(c->s[c->pos] == '*' && c->s[c->pos + 1] == '/'))
				c->pos++;
			if (c->pos + 1 >= c->len)
				asm_error_at(c, start, "unterminated comment");
			c->pos += 2;
		} else if (ch == '/' && c->pos + 1 < c->len && c->s[c->pos + 1] == '/') {
			while (c->pos < c->len && c->s[c->pos] != '\n')
				c->pos++;
		} else if (ch == '#') {
			while (c->pos < c->len && c->s[c->pos] != '\n')
				c->pos++;
		} else {
			break;
		}
	}
}

int asm_peek(struct asm_cur *c)
{
	asm_skip_ws(c);
	return c->pos < c->len ? (unsigned char)c->s[c->pos] : -1;
}

bool asm_accept(struct asm_cur *c, char ch)
{
	if (asm_peek(c) == (unsigned char)ch) {
		c->pos++;
		return true;
	}
	return false;
}

void asm_expect(struct asm_cur *c, char ch)
{
	if (!asm_accept(c, ch)) {
		int p = asm_peek(c);
		if (p < 0)
			asm_error(c, "expected '%c' but the file ends", ch);
		asm_error(c, "expected '%c' but found '%c'", ch, p);
	}
}

bool asm_accept_word(struct asm_cur *c, const char *w)
{
	size_t n = strlen(w);
	asm_skip_ws(c);
	if (c->pos + n > c->len || strncmp(c->s + c->pos, w, n))
		return false;
	char next = c->pos + n < c->len ? c->s[c->pos + n] : ' ';
	if (isalnum((unsigned char)w[n - 1]) && (isalnum((unsigned char)next) || next == '_'))
		return false;
	c->pos += n;
	return true;
}

bool asm_ident(struct asm_cur *c, char *buf, size_t n)
{
	asm_skip_ws(c);
	size_t p = c->pos, k = 0;
	if (p >= c->len || !(isalpha((unsigned char)c->s[p]) || c->s[p] == '_'))
		return false;
	while (p < c->len && (isalnum((unsigned char)c->s[p]) || c->s[p] == '_')) {
		if (k + 1 >= n)
			asm_error(c, "name too long");
		buf[k++] = c->s[p++];
	}
	buf[k] = 0;
	c->pos = p;
	return true;
}

long asm_int(struct asm_cur *c)
{
	asm_skip_ws(c);
	size_t start = c->pos;
	bool neg = false;
	if (c->pos < c->len && (c->s[c->pos] == '-' || c->s[c->pos] == '+'))
		neg = c->s[c->pos++] == '-';
	int base = 10;
	if (c->pos + 1 < c->len && c->s[c->pos] == '0' &&
	    (c->s[c->pos + 1] == 'x' || c->s[c->pos + 1] == 'X')) {
		base = 16;
		c->pos += 2;
	}
	long v = 0;
	size_t digits = 0;
	while (c->pos < c->len) {
		int ch = (unsigned char)c->s[c->pos], d;
		if (isdigit(ch))
			d = ch - '0';
		else if (base == 16 && isxdigit(ch))
			d = tolower(ch) - 'a' + 10;
		else
			break;
		if (v > 0x7fffffffffffL / base)
			asm_error_at(c, start, "number too large");
		v = v * base + d;
		c->pos++;
		digits++;
	}
	if (!digits)
		asm_error_at(c, start, "expected a number");
	return neg ? -v : v;
}
