/* Decoding a whole program once into an array (the executor runs from it). */
#include <stdlib.h>
#include <string.h>

#include "gpu/eu/isa.h"

int eu_program_decode(int gen, const void *bytes, size_t len,
		      struct eu_program *prog, size_t *bad_offset)
{
	const uint8_t *b = bytes;
	memset(prog, 0, sizeof(*prog));
	size_t max = len / 8;
	if (max == 0) {
		if (!len)
			return 0;
		if (bad_offset)
			*bad_offset = 0;
		return -1;
	}
	prog->insts = calloc(max, sizeof(*prog->insts));
	prog->offsets = calloc(max, sizeof(*prog->offsets));
	if (!prog->insts || !prog->offsets) {
		eu_program_free(prog);
		if (bad_offset)
			*bad_offset = 0;
		return -1;
	}
	size_t off = 0;
	while (off < len) {
		size_t used = 0;
		if (eu_decode(gen, b + off, len - off, &prog->insts[prog->count], &used)) {
			if (bad_offset)
				*bad_offset = off;
			prog->size = off;
			return -1;
		}
		prog->offsets[prog->count++] = (uint32_t)off;
		off += used;
	}
	prog->size = off;
	return 0;
}

void eu_program_free(struct eu_program *prog)
{
	free(prog->insts);
	free(prog->offsets);
	memset(prog, 0, sizeof(*prog));
}

long eu_program_index(const struct eu_program *prog, uint32_t off)
{
	size_t lo = 0, hi = prog->count;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (prog->offsets[mid] == off)
			return (long)mid;
		if (prog->offsets[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}
