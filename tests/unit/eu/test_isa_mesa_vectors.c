/* Acceptance: Mesa's gen8 assembler test vectors (imported into
 * vectors/gen8/ by vectors/import_mesa_vectors.py). Every file's text must
 * assemble to the expected bytes, and disassembling those bytes must give
 * the same text (white space normalised, label names compared by order of
 * appearance). */
#include <dirent.h>

#include "test.h"
#include "test_isa_util.h"
#include "gpu/eu/asm.h"
#include "gpu/eu/disasm.h"

static void split(char *s, char **text, char **bytes)
{
	*text = strstr(s, "%text\n");
	*bytes = strstr(s, "%bytes\n");
	if (!*text || !*bytes)
		return;
	**bytes = 0;
	*text += 6;
	*bytes += 7;
}

/* Compare line by line, printing the first differences. */
static int compare_lines(const char *name, const char *want, const char *got)
{
	int bad = 0;
	while (*want || *got) {
		const char *we = strchr(want, '\n'), *ge = strchr(got, '\n');
		size_t wl = we ? (size_t)(we - want) : strlen(want);
		size_t gl = ge ? (size_t)(ge - got) : strlen(got);
		if (wl != gl || strncmp(want, got, wl)) {
			if (bad++ < 5)
				fprintf(stderr, "%s: text differs:\n  want: %.*s\n   got: %.*s\n",
					name, (int)wl, want, (int)gl, got);
		}
		want += wl + (we != NULL);
		got += gl + (ge != NULL);
	}
	return bad;
}

static void check_file(const char *dir, const char *file)
{
	char path[2048];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	char *s = read_file(path, NULL);
	CHECK(s != NULL);
	if (!s)
		return;
	char *text, *hex;
	split(s, &text, &hex);
	CHECK(text && hex);
	if (!text || !hex) {
		free(s);
		return;
	}
	static uint8_t want[1 << 20];
	size_t wlen = parse_hex(hex, want, sizeof(want));

	struct eu_asm_result r;
	int rc = eu_assemble(8, text, strlen(text), file, &r);
	CHECK_EQ(rc, 0);
	if (rc) {
		fprintf(stderr, "%s\n", r.error);
		free(s);
		return;
	}
	CHECK_EQ(r.len, wlen);
	int shown = 0;
	for (size_t off = 0; off + 16 <= wlen && off + 16 <= r.len; off += 16) {
		if (memcmp(r.bytes + off, want + off, 16)) {
			CHECK(!"assembled bytes differ");
			if (shown++ < 5) {
				fprintf(stderr, "%s: instruction %zu:\n  want:", file, off / 16);
				for (int i = 0; i < 16; i++)
					fprintf(stderr, " %02x", want[off + i]);
				fprintf(stderr, "\n   got:");
				for (int i = 0; i < 16; i++)
					fprintf(stderr, " %02x", r.bytes[off + i]);
				fprintf(stderr, "\n");
			}
		}
	}
	eu_asm_result_free(&r);

	size_t bad = 0;
	char *dis = eu_disasm_program(8, want, wlen, &bad);
	CHECK(dis != NULL);
	if (dis) {
		char *a = normalize_asm(text), *b = normalize_asm(dis);
		int diffs = compare_lines(file, a, b);
		CHECK_EQ(diffs, 0);
		free(a);
		free(b);
		free(dis);
	} else {
		fprintf(stderr, "%s: bytes at offset %zu do not decode\n", file, bad);
	}
	free(s);
}

int main(void)
{
	const char *root = getenv("GTSIM_SOURCE_ROOT");
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s/tests/unit/eu/vectors/gen8", root ? root : ".");
	DIR *d = opendir(dir);
	CHECK(d != NULL);
	if (!d)
		return test_exit();
	struct dirent *e;
	int files = 0;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n > 4 && !strcmp(e->d_name + n - 4, ".txt")) {
			check_file(dir, e->d_name);
			files++;
		}
	}
	closedir(d);
	CHECK(files >= 40);
	return test_exit();
}
