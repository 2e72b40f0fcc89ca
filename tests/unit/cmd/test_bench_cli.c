/* `gtsim bench nop` (seed 004's gem_exec_nop): it must run empty batches on
 * each engine asked for, async and sync, and print one line per engine with
 * microseconds per batch and a non-zero batch count; a bad engine name is
 * a usage error (exit 1). Speed itself is a benchmark figure, not checked
 * here. argv[1] is the gtsim executable. */
#include <sys/wait.h>

#include "test.h"

static const char *gtsim;

/* Runs gtsim bench nop ARGS; counts engine lines "  NAME  X us per batch
 * (N batches, MODE" with N > 0 and the expected mode. Returns the exit
 * status. */
static int bench(const char *args, const char *mode, unsigned *engines_seen)
{
	char cmd[512], line[512];
	snprintf(cmd, sizeof(cmd), "%s bench nop --seconds 0.05 %s 2>&1",
		 gtsim, args);
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	static const char *const names[] = { "rcs", "bcs", "vcs", "vecs" };
	*engines_seen = 0;
	while (p && fgets(line, sizeof(line), p)) {
		char name[16], m[16];
		double us;
		unsigned long batches;
		if (sscanf(line, " %15s %lf us per batch (%lu batches, %15[a-z]", name, &us, &batches,
			   m) != 4)
			continue;
		for (unsigned i = 0; i < 4; i++)
			if (!strcmp(name, names[i]) && batches > 0 && us > 0 && !strcmp(m, mode))
				*engines_seen |= 1u << i;
	}
	int status = p ? pclose(p) : -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		test_skip("usage: test_bench_cli GTSIM");
	gtsim = argv[1];
	unsigned seen;
	CHECK_EQ(bench("--engine all", "async", &seen), 0);
	CHECK_EQ(seen, 0xf);
	CHECK_EQ(bench("--engine bcs --sync", "sync", &seen), 0);
	CHECK_EQ(seen, 0x2);
	CHECK_EQ(bench("--engine xyz", "async", &seen), 1);
	CHECK_EQ(seen, 0);
	return test_exit();
}
