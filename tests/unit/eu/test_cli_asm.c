/* The CLI: `gtsim asm [--gen 8|9] FILE.asm -o FILE.bin` and
 * `gtsim disasm [--gen 8|9] FILE.bin`, run as programs (argv[1] is the
 * built gtsim). Oracles: Mesa's gen8 assembler vectors (text -> bytes,
 * bytes -> the same text) and, for Gen9, the bytes iga64 -p=9 assembles
 * from `(W) sends (8|M0) null:ud r10 r20 0xCC 0x04000000 {EOT}`. Errors
 * name file, line and column and exit non-zero. */
#include "test.h"
#include "test_isa_util.h"

static char dir[] = "/tmp/gtsim-cli-XXXXXX";
static const char *gtsim;

static int run(const char *cmd)
{
	int rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

/* text -> gtsim asm -> bytes == want; want -> gtsim disasm -> text */
static void round_trip(int gen, const char *name, const char *text,
		       const uint8_t *want, size_t wlen)
{
	char asm_path[128], bin[128], out[128], cmd[1024];
	snprintf(asm_path, sizeof(asm_path), "%s/%s.asm", dir, name);
	snprintf(bin, sizeof(bin), "%s/%s.bin", dir, name);
	snprintf(out, sizeof(out), "%s/%s.txt", dir, name);
	write_text(asm_path, text);
	snprintf(cmd, sizeof(cmd), "%s asm --gen %d %s -o %s", gtsim, gen, asm_path, bin);
	CHECK_EQ(run(cmd), 0);
	size_t len = 0;
	char *got = read_file(bin, &len);
	CHECK(got != NULL);
	CHECK_EQ(len, wlen);
	if (got && len == wlen && memcmp(got, want, len)) {
		CHECK(!"gtsim asm bytes differ from the oracle");
		fprintf(stderr, "%s: bytes differ\n", name);
	}
	free(got);
	/* disassemble the oracle's bytes */
	FILE *f = fopen(bin, "wb");
	if (f) {
		fwrite(want, 1, wlen, f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "%s disasm --gen %d %s > %s", gtsim, gen, bin, out);
	CHECK_EQ(run(cmd), 0);
	char *dis = read_file(out, NULL);
	CHECK(dis != NULL);
	if (dis) {
		char *a = normalize_asm(text), *b = normalize_asm(dis);
		CHECK(!strcmp(a, b));
		if (strcmp(a, b))
			fprintf(stderr, "%s: disasm text differs:\n--- want\n%s--- got\n%s", name, a, b);
		free(a);
		free(b);
	}
	free(dis);
}

static void mesa_vector(const char *name)
{
	const char *root = getenv("GTSIM_SOURCE_ROOT");
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/unit/eu/vectors/gen8/%s.txt",
		 root ? root : ".", name);
	char *s = read_file(path, NULL);
	CHECK(s != NULL);
	if (!s)
		return;
	char *text = strstr(s, "%text\n"), *hex = strstr(s, "%bytes\n");
	CHECK(text && hex);
	if (text && hex) {
		*hex = 0;
		static uint8_t want[65536];
		size_t wlen = parse_hex(hex + 7, want, sizeof(want));
		round_trip(8, name, text + 6, want, wlen);
	}
	free(s);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_cli_asm PATH-TO-gtsim\n");
		return 2;
	}
	gtsim = argv[1];
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return test_exit();
	}
	static const char *const vectors[] = { "mov", "if", "while", "send", "math", "mad" };
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++)
		mesa_vector(vectors[i]);

	static const uint8_t sends_iga[16] = {
		0x33, 0x00, 0x60, 0x0c, 0x14, 0x40, 0x01, 0x00,
		0x43, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x84,
	};
	round_trip(9, "sends",
		   "sends(8)        nullUD          g10UD           g20UD           "
		   "0x04000000      0x000000c0\n"
		   "                            dp data 1 MsgDesc: (*** invalid DP DC1 "
		   "message type value 0 , Surface = 0, 0x0) mlen 2 ex_mlen 3 rlen 0 "
		   "{ align1 WE_all 1Q EOT };\n",
		   sends_iga, sizeof(sends_iga));

	/* an error names file:line:column and fails */
	char bad[128], cmd[1024], err[128];
	snprintf(bad, sizeof(bad), "%s/bad.asm", dir);
	snprintf(err, sizeof(err), "%s/err.txt", dir);
	write_text(bad, "mov(8) g1<1>F g2<8,8,1>F { align1 1Q };\nfrob(8) g1<1>F;\n");
	snprintf(cmd, sizeof(cmd), "%s asm %s -o %s/bad.bin 2> %s", gtsim, bad, dir, err);
	CHECK(run(cmd) != 0);
	char *e = read_file(err, NULL);
	char where[160];
	snprintf(where, sizeof(where), "%s:2:1:", bad);
	CHECK(e && strstr(e, where));
	if (e && !strstr(e, where))
		fprintf(stderr, "error text: %s\n", e);
	free(e);
	/* usage errors */
	snprintf(cmd, sizeof(cmd), "%s asm --gen 7 %s -o %s/x.bin 2>/dev/null", gtsim, bad, dir);
	CHECK_EQ(run(cmd), 2);
	snprintf(cmd, sizeof(cmd), "%s disasm --gen 8 %s/missing.bin 2>/dev/null", gtsim, dir);
	CHECK(run(cmd) != 0);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	run(cmd);
	return test_exit();
}
