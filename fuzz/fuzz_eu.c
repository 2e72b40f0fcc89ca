/* Target eu: EU programs (src/gpu/eu) from raw instruction bytes: decoded
 * (eu_program_decode and one instruction at a time), disassembled, and
 * executed in the interpreter on one thread with a bounded instruction
 * budget. Input and the stand-in shared function: fuzz_eu.h. The same
 * programs compiled against interpreted: target eu_jit. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_eu.h"
#include "fuzz_target.h"
#include "gpu/eu/disasm.h"
#include "gpu/eu/isa.h"
#include "gpu/eu/jit/jit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct eu_thread t;   /* 64-byte aligned (thread.h) */
	struct eu_case c;
	eu_case_read(&c, data, size);
	if (!c.bytes)
		return 0;
	int gen = c.gen;
	const uint8_t *bytes = c.bytes;
	size_t len = c.len;

	/* One instruction at a time, each disassembled alone. */
	struct eu_text text = { 0 };
	for (size_t off = 0; off < len; ) {
		struct eu_inst inst;
		size_t used = 0;
		if (eu_decode(gen, bytes + off, len - off, &inst, &used) || !used)
			break;
		eu_disasm_inst(&text, gen, &inst, (long)off, NULL, NULL);
		eu_disasm_send_desc(&text, gen, &inst);
		uint8_t enc[16];
		eu_encode(gen, &inst, enc, true);
		off += used;
	}
	eu_text_free(&text);

	size_t bad = 0;
	free(eu_disasm_program(gen, bytes, len, &bad));

	/* What decodes (up to the first undecodable byte) runs, interpreted:
	 * the target never compiles (exec_jit_configure below), so its speed
	 * stays the interpreter's. */
	static bool once;
	if (!once) {
		exec_jit_configure(EXEC_JIT_OFF, 0);
		once = true;
	}
	struct eu_program prog;
	memset(&prog, 0, sizeof(prog));
	eu_program_decode(gen, bytes, len, &prog, &bad);
	if (prog.count) {
		struct exec_prog *p = exec_prog_build(gen, prog.insts, prog.offsets, prog.count);
		if (p) {
			eu_case_start(&t, &c, NULL);
			exec_run(&t, p, EU_BUDGET);
			exec_prog_free(p);
		}
	}
	eu_program_free(&prog);
	free(c.bytes);
	return 0;
}
