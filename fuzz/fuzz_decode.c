/* Target decode: the batch decoder (src/gpu/cmd/decode.c, `gtsim decode`
 * and trace category `batch`) on fuzzed dumps. Input: a byte choosing the
 * generation and engine, then the dump's dwords (the raw little-endian
 * format `gtsim decode` and `gtsim exec` read). The text goes to
 * /dev/null: what counts is that every field of every command prints
 * without reading past the dump. The field formatter is also fed the
 * fuzzed values directly. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "fuzz_target.h"
#include "gpu/cmd/decode.h"

static FILE *out;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!out)
		out = fopen("/dev/null", "w");
	if (!out || size < 1)
		return 0;
	struct fuzz_input in = fuzz_input(data, size);
	uint8_t how = fuzz_u8(&in);
	int gen = how & 1 ? 9 : 8;
	enum gt_engine_id engine = (enum gt_engine_id)((how >> 1) % GT_NUM_ENGINES);
	uint64_t addr = (uint64_t)(how >> 3) << 12;
	size_t n = fuzz_left(&in) / 4;
	/* An exact-size copy: ASan sees a read past the dump. */
	uint32_t *dw = malloc(n ? n * 4 : 1);
	if (!dw)
		return 0;
	fuzz_bytes(&in, dw, n * 4);
	cmd_decode_buffer(out, gen, engine, addr, dw, (uint32_t)n);
	/* Every command the first dwords name on any engine, decoded alone,
	 * cut short when the dump ends before its length (as a trace of a
	 * command running past its batch prints it). */
	for (size_t i = 0; i < n && i < 64; i++) {
		const struct cmd_desc *d = cmd_find_any(gen, dw[i]);
		if (!d)
			continue;
		uint32_t len = cmd_length(d, dw[i]);
		if (len > n - i)
			len = (uint32_t)(n - i);
		cmd_decode_print(out, d, addr + 4 * i, dw + i, len);
	}
	free(dw);
	return 0;
}
