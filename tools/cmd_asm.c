/* gtsim asm [--gen 8|9] FILE.asm -o FILE.bin: assembles Mesa-syntax EU
 * assembly into raw instruction bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "gpu/eu/asm.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *b = realloc(buf, cap *= 2);
			if (!b) {
				free(buf);
				buf = NULL;
			}
			buf = b;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

static int cmd_asm(int argc, char **argv)
{
	int gen = 8;
	const char *in = NULL, *out = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--gen") && i + 1 < argc) {
			gen = atoi(argv[++i]);
		} else if (!strncmp(argv[i], "--gen=", 6)) {
			gen = atoi(argv[i] + 6);
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "gtsim asm: unknown option %s\n", argv[i]);
			return 2;
		} else {
			in = argv[i];
		}
	}
	if (!in || !out || (gen != 8 && gen != 9)) {
		fprintf(stderr, "usage: gtsim asm [--gen 8|9] FILE.asm -o FILE.bin\n");
		return 2;
	}
	size_t len;
	char *text = slurp(in, &len);
	if (!text) {
		perror(in);
		return 1;
	}
	struct eu_asm_result r;
	int rc = eu_assemble(gen, text, len, in, &r);
	free(text);
	if (rc) {
		fprintf(stderr, "%s\n", r.error);
		return 1;
	}
	FILE *f = fopen(out, "wb");
	if (!f || fwrite(r.bytes, 1, r.len, f) != r.len || fclose(f)) {
		perror(out);
		eu_asm_result_free(&r);
		return 1;
	}
	eu_asm_result_free(&r);
	return 0;
}

const struct gtsim_command command_asm = {
	.name = "asm",
	.usage = "[--gen 8|9] FILE.asm -o FILE.bin: assemble EU code (Mesa syntax)",
	.run = cmd_asm,
};
