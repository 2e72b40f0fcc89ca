/* End to end: programs in Mesa's assembly syntax (test_exec_*.asm, written
 * for these tests) go through eu-isa's assembler and decoder, then run.
 * Checks that byte-offset branches (JIP/UIP, with a compacted instruction
 * in the stream) drive per-channel control flow correctly. */
#include <stdlib.h>

#include "gpu/eu/asm.h"
#include "test_exec_util.h"

static struct exec_prog *load(const char *name)
{
	const char *root = getenv("GTSIM_SOURCE_ROOT");
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/unit/eu/%s", root ? root : ".", name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return NULL;
	}
	static char text[16384];
	size_t len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	struct eu_asm_result r;
	if (eu_assemble(8, text, len, path, &r)) {
		fprintf(stderr, "%s\n", r.error);
		return NULL;
	}
	size_t bad = 0;
	struct exec_prog *p = exec_prog_from_bytes(8, r.bytes, r.len, &bad);
	eu_asm_result_free(&r);
	return p;
}

int main(void)
{
	/* for (k = 1; k <= i; k++) sum += k odd ? k : -k, per channel i */
	struct exec_prog *p = load("test_exec_loop.asm");
	CHECK(p != NULL);
	if (!p)
		return test_exit();
	static struct eu_thread t;
	uint32_t masks[2] = { 0xffff, 0xa5c3 };
	for (unsigned m = 0; m < 2; m++) {
		eu_thread_init(&t, 16, masks[m]);
		for (unsigned i = 0; i < 16; i++)
			setud(&t, 2, i, i);
		exec_run(&t, p, 100000);
		CHECK(ran_to_end(&t));
		for (unsigned i = 0; i < 16; i++) {
			if (!((masks[m] >> i) & 1)) {
				CHECK_EQ(rud(&t, 10, i), 0);
				continue;
			}
			int want = i & 1 ? (int)(i + 1) / 2 : -(int)i / 2;
			CHECK_EQ((int32_t)rud(&t, 10, i), want);
			CHECK(rf(&t, 14, i) == (float)want);
		}
	}
	exec_prog_free(p);
	return test_exit();
}
