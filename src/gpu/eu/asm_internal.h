/* Internal state of the assembler: a character cursor with line/column
 * tracking, and error exits (longjmp back to eu_assemble). */
#ifndef GTSIM_EU_ASM_INTERNAL_H
#define GTSIM_EU_ASM_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "gpu/eu/asm.h"
#include "gpu/eu/isa.h"

struct asm_ref {                 /* a label used by a branch */
	char name[64];
	int line, col;
};

struct asm_cur {
	const char *s;
	size_t len, pos;
	int line;
	size_t line_start;
	const char *file;
	int gen;
	jmp_buf fail;
	char *err;               /* where the message goes (512 bytes) */
};

void asm_error_at(struct asm_cur *c, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
#define asm_error(c, ...) asm_error_at((c), (c)->pos, __VA_ARGS__)

void asm_skip_ws(struct asm_cur *c);        /* blanks, newlines, comments */
int asm_peek(struct asm_cur *c);            /* after skipping blanks; -1 at end */
bool asm_accept(struct asm_cur *c, char ch);
void asm_expect(struct asm_cur *c, char ch);
bool asm_accept_word(struct asm_cur *c, const char *w);
/* [A-Za-z_][A-Za-z0-9_]* into buf; false (nothing consumed) if none. */
bool asm_ident(struct asm_cur *c, char *buf, size_t n);
long asm_int(struct asm_cur *c);            /* decimal or 0x hex, signed */
void asm_where(const struct asm_cur *c, size_t pos, int *line, int *col);

/* Operands (asm_operand.c). */
void asm_dst(struct asm_cur *c, struct eu_inst *in, bool three_src);
void asm_src(struct asm_cur *c, struct eu_inst *in, int i, bool three_src);
bool asm_at_operand(struct asm_cur *c);
/* A split-send operand: gN[.1]UD or nullUD (no region). */
void asm_sends_reg(struct asm_cur *c, struct eu_operand *o);
/* Immediates with a type suffix; returns false if no number here. */
bool asm_imm(struct asm_cur *c, struct eu_operand *op);

/* Send descriptors written as text (asm_send.c). */
void asm_send_desc(struct asm_cur *c, struct eu_inst *in, bool have_hex);

#endif
