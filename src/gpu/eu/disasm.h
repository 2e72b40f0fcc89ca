/* Disassembler: Mesa's INTEL_DEBUG text syntax (brw_disasm.c layout).
 * Text is produced into a caller-owned growing buffer. */
#ifndef GTSIM_EU_DISASM_H
#define GTSIM_EU_DISASM_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/eu/isa.h"

struct eu_text {
	char *buf;
	size_t len, cap;
	int column;
	int oom;
};

void eu_text_puts(struct eu_text *t, const char *s);
void eu_text_printf(struct eu_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void eu_text_pad(struct eu_text *t, int col);
void eu_text_newline(struct eu_text *t);
void eu_text_free(struct eu_text *t);

/* Branch targets are printed as " LABEL<n>" when label_of returns n >= 0
 * for the target byte offset; with label_of NULL nothing is printed after
 * "JIP:"/"UIP:" (as Mesa without labels). */
typedef int (*eu_label_fn)(void *ctx, long target_offset);

/* One instruction, ending in ";\n". offset: its byte offset in the program. */
void eu_disasm_inst(struct eu_text *t, int gen, const struct eu_inst *in,
		    long offset, eu_label_fn label_of, void *ctx);
/* Send message descriptor text: "urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0". */
void eu_disasm_send_desc(struct eu_text *t, int gen, const struct eu_inst *in);

/* A whole binary with "LABELn:" lines before branch targets (numbered in
 * address order). Returns a malloc'd string (caller frees) or NULL when
 * the bytes do not decode; *bad_offset then names the offset. */
char *eu_disasm_program(int gen, const void *bytes, size_t len,
			size_t *bad_offset);

#endif
