/* `gtsim exec FILE.bin`: raw batches written here, dwords encoded by hand
 * from the BDW/SKL PRM, replayed by the gtsim executable (argv[1]) on each
 * engine. A batch ending in MI_BATCH_BUFFER_END prints "completed" and
 * exits 0; one with a command gtsim does not implement prints "GPU hang:"
 * with the command's name, header dword and address, then the error
 * state's path, and exits 1; the error state names the command and
 * intel_error_decode reads it. A looping batch is a hang found by
 * hangcheck, named by the command at ACTHD. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hang_check.h"
#include "test.h"

static const char *gtsim;
/* A TMPDIR of this test's own: error states in a shared /tmp are pruned
 * to the newest 16 by whichever process writes the next one, so a test
 * running beside this one could remove a file before it is read. */
static char tmpdir[] = "/tmp/gtsim-test-exec-dirXXXXXX";

struct run {
	int status;
	char line[2][512];
};

static void run_exec(const char *path, const char *args, struct run *r)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "TMPDIR=%s GTSIM_HANGCHECK_MS=100 %s exec %s %s 2>/dev/null",
		 tmpdir, gtsim, path, args);
	memset(r, 0, sizeof(*r));
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	if (!p)
		return;
	for (int i = 0; i < 2 && fgets(r->line[i], sizeof(r->line[i]), p); i++)
		r->line[i][strcspn(r->line[i], "\n")] = 0;
	int st = pclose(p);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_batch(const char *path, const uint32_t *dw, size_t n)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ(fwrite(dw, 4, n, f), n);
	fclose(f);
}

static const struct {
	const char *engine, *engine0;
	uint32_t dw[16];
	size_t n;
	const char *expect;   /* the "GPU hang: " line */
} cases[] = {
	/* MI_NOOP, MI_URB_CLEAR, MI_BATCH_BUFFER_END */
	{ "rcs", "rcs0", { 0, 0x0c800000, 0x00020001, 0x05000000 }, 4,
	  "GPU hang: MI_URB_CLEAR 0x0c800000 at 0x100004: not implemented in gtsim "
	  "(dwords 0c800000 00020001)" },
	/* XY_FULL_BLT (10 dwords; the reason names the first five) */
	{ "bcs", "bcs0", { 0, 0x55400008, 0x03cc0040, 0x00010001, 0x00020002, 0x1000, 0,
			   0x11, 0x22, 0, 0, 0x05000000 }, 12,
	  "GPU hang: XY_FULL_BLT 0x55400008 at 0x100004: not implemented in gtsim "
	  "(dwords 55400008 03cc0040 00010001 00020002 00001000 ...)" },
	/* MFX_WAIT */
	{ "vcs", "vcs0", { 0, 0x68000000, 0x05000000 }, 3,
	  "GPU hang: MFX_WAIT 0x68000000 at 0x100004: not implemented in gtsim "
	  "(dwords 68000000)" },
	/* a header no gen8 command has on the video enhancement engine */
	{ "vecs", "vecs0", { 0, 0x1f800000, 0x05000000 }, 3,
	  "GPU hang: unknown command 0x1f800000 at 0x100004 (batch): not a gen8 vecs0 "
	  "command" },
};

int main(int argc, char **argv)
{
	if (argc < 2)
		test_skip("usage: test_cs_exec_cli GTSIM");
	gtsim = argv[1];
	CHECK(mkdtemp(tmpdir) != NULL);
	unsetenv("GTSIM_ERROR_STATE");
	char path[] = "/tmp/gtsim-test-execXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	struct run r;

	/* MI_STORE_DATA_IMM to the batch itself, MI_BATCH_BUFFER_END. */
	const uint32_t ok[] = { 0x10000002, 0x100040, 0, 0x1234, 0x05000000, 0 };
	write_batch(path, ok, 6);
	const char *engines[] = { "rcs", "bcs", "vcs", "vecs" };
	for (int i = 0; i < 4; i++)
		for (int gen = 8; gen <= 9; gen++) {
			char args[64];
			snprintf(args, sizeof(args), "--engine %s --gen %d", engines[i], gen);
			run_exec(path, args, &r);
			CHECK_EQ(r.status, 0);
			CHECK_STR(r.line[0], "completed");
		}

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		write_batch(path, cases[i].dw, cases[i].n);
		char args[64];
		snprintf(args, sizeof(args), "--engine %s", cases[i].engine);
		run_exec(path, args, &r);
		CHECK_EQ(r.status, 1);
		CHECK_STR(r.line[0], cases[i].expect);
		CHECK(!strncmp(r.line[1], "error state: ", 13));
		const char *state = r.line[1] + 13;
		FILE *f = fopen(state, "r");
		CHECK(f != NULL);
		if (!f)
			continue;
		char first[512] = "";
		CHECK(fgets(first, sizeof(first), f) != NULL);
		fclose(f);
		/* i915's first line: ecode gen:engine:IPEHR, then the reason */
		char want[64];
		snprintf(want, sizeof(want), "GPU HANG: ecode 8:%zu:%08x", i, cases[i].dw[1]);
		CHECK(strstr(first, want) != NULL);
		CHECK(strstr(first, cases[i].expect + strlen("GPU hang: ")) != NULL);
		char batch_line[64];
		snprintf(batch_line, sizeof(batch_line), "batch (%s) at 0x00000000_00100000",
			 cases[i].engine0);
		const char *decoded[] = { "Detected GEN8 chipset", batch_line, NULL };
		check_error_decode(state, decoded);
		unlink(state);
	}

	/* A batch that jumps to itself: hangcheck (100 ms here) finds it, and
	 * the reason names the command at ACTHD. */
	const uint32_t loop[] = { 0x18800101, 0x100000, 0, 0x05000000 };
	write_batch(path, loop, 4);
	run_exec(path, "--engine rcs", &r);
	CHECK_EQ(r.status, 1);
	CHECK(!strncmp(r.line[0], "GPU hang: no progress for ", 26));
	CHECK(strstr(r.line[0], ", at MI_BATCH_BUFFER_START 0x18800101 at 0x100000") != NULL);
	if (!strncmp(r.line[1], "error state: ", 13))
		unlink(r.line[1] + 13);

	/* Bad arguments: exit 2. */
	run_exec(path, "--engine xcs", &r);
	CHECK_EQ(r.status, 2);
	run_exec("/nonexistent/batch.bin", "", &r);
	CHECK_EQ(r.status, 2);
	unlink(path);
	CHECK_EQ(rmdir(tmpdir), 0);
	return test_exit();
}
