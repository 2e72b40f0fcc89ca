/* gtsim disasm [--gen 8|9] FILE.bin: prints raw EU instruction bytes as
 * Mesa-syntax assembly (with LABELn: lines at branch targets). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "gpu/eu/disasm.h"

static int cmd_disasm(int argc, char **argv)
{
	int gen = 8;
	const char *in = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--gen") && i + 1 < argc) {
			gen = atoi(argv[++i]);
		} else if (!strncmp(argv[i], "--gen=", 6)) {
			gen = atoi(argv[i] + 6);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "gtsim disasm: unknown option %s\n", argv[i]);
			return 2;
		} else {
			in = argv[i];
		}
	}
	if (!in || (gen != 8 && gen != 9)) {
		fprintf(stderr, "usage: gtsim disasm [--gen 8|9] FILE.bin\n");
		return 2;
	}
	FILE *f = fopen(in, "rb");
	if (!f) {
		perror(in);
		return 1;
	}
	size_t cap = 4096, n = 0, got;
	uint8_t *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *b = realloc(buf, cap *= 2);
			if (!b)
				free(buf);
			buf = b;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "gtsim disasm: out of memory\n");
		return 1;
	}
	size_t bad = 0;
	char *text = eu_disasm_program(gen, buf, n, &bad);
	if (!text) {
		/* print what decodes, then name the bad offset */
		char *part = bad ? eu_disasm_program(gen, buf, bad, NULL) : NULL;
		if (part)
			fputs(part, stdout);
		free(part);
		fprintf(stderr, "%s: offset 0x%zx: not a valid gen%d instruction\n", in, bad, gen);
		free(buf);
		return 1;
	}
	fputs(text, stdout);
	free(text);
	free(buf);
	return 0;
}

const struct gtsim_command command_disasm = {
	.name = "disasm",
	.usage = "[--gen 8|9] FILE.bin: print EU code as Mesa-syntax assembly",
	.run = cmd_disasm,
};
