#include <sys/wait.h>
/* `gtsim urb-config` prints the partition of seed 003: push constants first,
 * then one line per stage. Expected lines are the hand-computed BDW VS 2 +
 * GS 4 case of test_urb_config.c. */
#include "test.h"

static void run(const char *args, const char *want, int want_status)
{
	const char *root = getenv("GTSIM_BUILD_ROOT");
	char cmd[1024], out[4096] = "";
	if (!root)
		test_skip("GTSIM_BUILD_ROOT not set (run through meson test)");
	snprintf(cmd, sizeof(cmd), "%s/tools/gtsim urb-config %s 2>/dev/null", root, args);
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	if (!p)
		return;
	size_t n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	int status = pclose(p);
	CHECK_EQ(WEXITSTATUS(status), want_status);
	CHECK_STR(out, want);
}

int main(void)
{
	run("--device bdw --vs-size 2 --gs-size 4",
	    "PUSH size_kb=32 start=0\n"
	    "VS entries=1600 size=2 start=4\n"
	    "HS entries=0 size=1 start=0\n"
	    "DS entries=0 size=1 start=0\n"
	    "GS entries=608 size=4 start=29\n", 0);
	/* 128 KB = 16 chunks: VS gets 16 - 4 = 12 chunks = 1536 entries. */
	run("--device bdw --urb-kb 128 --vs-size 1",
	    "PUSH size_kb=32 start=0\n"
	    "VS entries=1536 size=1 start=4\n"
	    "HS entries=0 size=1 start=0\n"
	    "DS entries=0 size=1 start=0\n"
	    "GS entries=0 size=1 start=0\n", 0);
	run("--device bdw --vs-size 1 --hs-size 1", "", 1);
	run("--device nope --vs-size 1", "", 1);
	run("--gs-size 1", "", 1);
	return test_exit();
}
