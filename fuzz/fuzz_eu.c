/* Target eu: EU programs (src/gpu/eu) from raw instruction bytes: decoded
 * (eu_program_decode and one instruction at a time), disassembled, and
 * executed on one thread with a bounded instruction budget.
 *
 * Input: gen (bit 0 of the first byte), SIMD width, dispatch mask, 256
 * bytes spread over the first GRFs (the payload: g0 headers, addresses,
 * values), then the program's bytes. A send reaches a stand-in shared
 * function on every SFID that reads the whole payload and fills the whole
 * response, so the executor's message plumbing (split sends, register
 * ranges, EOT) runs without a device. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "fuzz_target.h"
#include "gpu/eu/disasm.h"
#include "gpu/eu/exec.h"
#include "gpu/eu/isa.h"
#include "gpu/eu/send.h"

#define EU_BUDGET 20000

static int any_message(void *units, struct eu_thread *t, const struct eu_send *msg)
{
	uint32_t sum = 0;
	for (unsigned k = 0; k < msg->mlen; k++) {
		const uint8_t *r = eu_send_payload(t, msg, k);
		if (!r)
			return eu_thread_fault(t, "payload register %u of %u missing", k, msg->mlen);
		for (unsigned b = 0; b < 32; b++)
			sum += r[b];
	}
	for (unsigned k = 0; k < msg->rlen; k++) {
		uint8_t *r = eu_send_response(t, msg, k);
		if (!r)
			return eu_thread_fault(t, "response register %u of %u missing", k, msg->rlen);
		memset(r, (int)(sum + k), 32);
	}
	return 0;
}

static const struct sfid_table every_sfid = { .fn = {
	any_message, any_message, any_message, any_message,
	any_message, any_message, any_message, any_message,
	any_message, any_message, any_message, any_message,
	any_message, any_message, any_message, any_message,
} };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct eu_thread t;   /* 64-byte aligned (thread.h) */
	struct fuzz_input in = fuzz_input(data, size);
	uint8_t how = fuzz_u8(&in);
	int gen = how & 1 ? 9 : 8;
	unsigned simd = 8u << ((how >> 1) % 3);
	uint32_t mask = fuzz_u32(&in);
	uint8_t payload[256];
	fuzz_bytes(&in, payload, sizeof(payload));
	size_t len = fuzz_left(&in);
	/* An exact-size copy of the program: ASan sees reads past its end. */
	uint8_t *bytes = malloc(len ? len : 1);
	if (!bytes)
		return 0;
	fuzz_bytes(&in, bytes, len);

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

	/* What decodes (up to the first undecodable byte) runs. */
	struct eu_program prog;
	memset(&prog, 0, sizeof(prog));
	eu_program_decode(gen, bytes, len, &prog, &bad);
	if (prog.count) {
		struct exec_prog *p = exec_prog_build(gen, prog.insts, prog.offsets, prog.count);
		if (p) {
			eu_thread_init(&t, simd, mask);
			memcpy(t.regs, payload, sizeof(payload));
			t.sfids = &every_sfid;
			exec_run(&t, p, EU_BUDGET);
			exec_prog_free(p);
		}
	}
	eu_program_free(&prog);
	free(bytes);
	return 0;
}
