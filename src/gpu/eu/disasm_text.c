/* A growing text buffer that tracks the output column, as Mesa's
 * disassembler pads fields to fixed columns. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/eu/disasm.h"

void eu_text_puts(struct eu_text *t, const char *s)
{
	size_t n = strlen(s);
	if (t->oom)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		while (cap < t->len + n + 1)
			cap *= 2;
		char *b = realloc(t->buf, cap);
		if (!b) {
			t->oom = 1;
			return;
		}
		t->buf = b;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, s, n + 1);
	t->len += n;
	const char *nl = strrchr(s, '\n');
	t->column = nl ? (int)strlen(nl + 1) : t->column + (int)n;
}

void eu_text_printf(struct eu_text *t, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	eu_text_puts(t, tmp);
}

void eu_text_pad(struct eu_text *t, int col)
{
	do
		eu_text_puts(t, " ");
	while (t->column < col);
}

void eu_text_newline(struct eu_text *t)
{
	eu_text_puts(t, "\n");
}

void eu_text_free(struct eu_text *t)
{
	free(t->buf);
	memset(t, 0, sizeof(*t));
}
