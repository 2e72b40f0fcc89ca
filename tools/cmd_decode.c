/* gtsim decode FILE: decode a raw batch dump (little-endian dwords) the way
 * INTEL_DEBUG=bat prints batches, with gtsim's command tables. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "common/devinfo.h"
#include "gpu/cmd/decode.h"

static int parse_engine(const char *s, enum gt_engine_id *id)
{
	static const char *const names[] = { "rcs", "bcs", "vcs", "vecs" };
	for (int i = 0; i < GT_NUM_ENGINES; i++)
		if (!strcmp(s, names[i])) {
			*id = (enum gt_engine_id)i;
			return 0;
		}
	return -1;
}

static int run_decode(int argc, char **argv)
{
	const struct gt_devinfo *info = devinfo_from_env();
	int gen = info ? info->gen : 8;
	enum gt_engine_id engine = ENGINE_RCS;
	unsigned long long addr = 0;
	const char *path = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--gen") && i + 1 < argc) {
			gen = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--engine") && i + 1 < argc) {
			if (parse_engine(argv[++i], &engine)) {
				fprintf(stderr, "gtsim decode: unknown engine '%s'\n", argv[i]);
				return 1;
			}
		} else if (!strcmp(argv[i], "--addr") && i + 1 < argc) {
			addr = strtoull(argv[++i], NULL, 0);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "gtsim decode: unknown option '%s'\n", argv[i]);
			return 1;
		} else {
			path = argv[i];
		}
	}
	if (!path || (gen != 8 && gen != 9)) {
		fprintf(stderr, "usage: gtsim decode FILE [--gen 8|9] "
			"[--engine rcs|bcs|vcs|vecs] [--addr ADDRESS]\n");
		return 1;
	}
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "gtsim decode: %s: %s\n", path, strerror(errno));
		return 1;
	}
	size_t cap = 4096, n = 0;
	uint32_t *dw = malloc(cap * sizeof(uint32_t));
	size_t got;
	while (dw && (got = fread(dw + n, sizeof(uint32_t), cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint32_t *more = realloc(dw, 2 * cap * sizeof(uint32_t));
			if (!more)
				break;
			dw = more;
			cap *= 2;
		}
	}
	if (f != stdin)
		fclose(f);
	if (!dw) {
		fprintf(stderr, "gtsim decode: out of memory\n");
		return 1;
	}
	int ret = cmd_decode_buffer(stdout, gen, engine, addr, dw, (uint32_t)n);
	free(dw);
	return ret < 0 ? 1 : 0;
}

const struct gtsim_command command_decode = {
	.name = "decode",
	.usage = "FILE [--gen 8|9] [--engine rcs|bcs|vcs|vecs]: decode a raw batch dump",
	.run = run_decode,
};
