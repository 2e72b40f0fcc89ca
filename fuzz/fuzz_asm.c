/* Target asm: the EU assembler (src/gpu/eu/asm*.c) on fuzzed text.
 * Input: one byte choosing the generation (even: Gen8, odd: Gen9), then
 * the program text. What assembles is disassembled again (the bytes the
 * assembler produced must decode) and the text of that disassembly
 * assembled once more: both must succeed, since the disassembler prints
 * the assembler's own syntax. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "fuzz_target.h"
#include "gpu/eu/asm.h"
#include "gpu/eu/disasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int gen = data[0] & 1 ? 9 : 8;
	struct eu_asm_result res;
	if (eu_assemble(gen, (const char *)data + 1, size - 1, "fuzz.asm", &res))
		return 0;
	size_t bad = 0;
	char *text = eu_disasm_program(gen, res.bytes, res.len, &bad);
	if (!text && res.len) {
		fprintf(stderr, "assembled program does not decode at byte %zu\n", bad);
		abort();
	}
	if (text) {
		struct eu_asm_result again;
		if (!eu_assemble(gen, text, strlen(text), "disasm.asm", &again))
			eu_asm_result_free(&again);
		free(text);
	}
	eu_asm_result_free(&res);
	return 0;
}
