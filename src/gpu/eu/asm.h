/* Assembler for Mesa's INTEL_DEBUG EU syntax (what disasm.h prints), also
 * accepting the older spelling of the seeds (`compacted`, `[0F, 0F, 0F,
 * 0F]VF`, a send whose descriptor is only given as text such as
 * `urb 1 SIMD8 write mlen 9 rlen 0`). Labels: `NAME:` lines, used as
 * `JIP: NAME`; a number after JIP:/UIP: is a byte offset. Instructions are
 * compacted exactly when their options say `compacted`. */
#ifndef GTSIM_EU_ASM_H
#define GTSIM_EU_ASM_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/eu/inst.h"

struct eu_asm_result {
	uint8_t *bytes;          /* malloc'd program (caller frees) */
	size_t len;
	struct eu_inst *insts;   /* malloc'd, one per instruction */
	size_t count;
	char error[512];         /* "file.asm:12:7: error: ..." on failure */
};

/* Returns 0, or -1 with res->error set (nothing allocated then). */
int eu_assemble(int gen, const char *text, size_t len, const char *filename,
		struct eu_asm_result *res);
void eu_asm_result_free(struct eu_asm_result *res);

#endif
