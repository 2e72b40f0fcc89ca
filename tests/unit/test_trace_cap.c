/* The trace file's bound (issue 16) and its completeness when a process is
 * killed (issue 14).
 *
 * Four processes append to one GTSIM_TRACE_FILE with GTSIM_TRACE_MAX=64K,
 * 3000 numbered lines each (about 330 KB in all) plus a multi-line dump
 * through trace_stream(). Expected, from the rule as documented: the file
 * is at most 65536 bytes and within one line and the marker's room of it
 * (nothing dropped early); exactly one marker line, the last, naming the
 * limit, the last; every other line whole; each process's kept lines are a prefix
 * 0..k-1 of its own (a line is dropped only after the file is full).
 * A fifth process finding the file full adds nothing (no second marker).
 * Then, with no bound in reach, a process writing 500 lines and killed by
 * SIGKILL (no exit handlers, no stdio flush) leaves all 500 behind. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/trace.h"
#include "test.h"

#define CAP 65536
#define WRITERS 4
#define LINES 3000
#define PAD "................................................................................"

static char path[256];

static void writer(int id, int lines, bool kill_self)
{
	trace_init_from_env();
	trace_set("gem");
	for (int i = 0; i < lines; i++) {
		TRACE(TRACE_GEM, "writer %d line %d %s", id, i, PAD);
		if (i == lines / 2) {   /* a dump of several lines */
			trace_lock();
			fprintf(trace_stream(), "[gem] writer %d dump a\n[gem] writer %d dump b\n", id, id);
			trace_unlock();
		}
	}
	if (kill_self)
		raise(SIGKILL);
	exit(0);
}

static void run_writers(int first, int n, int lines, bool kill_self)
{
	pid_t pids[WRITERS + 1];
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			writer(first + i, lines, kill_self);
	}
	for (int i = 0; i < n; i++) {
		int status;
		CHECK_EQ(waitpid(pids[i], &status, 0), pids[i]);
		if (kill_self)
			CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		else
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

static long file_size(void)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Checks every line; returns the number of numbered lines of writer id
 * (-1: all writers). */
static int after_marker;   /* lines after the marker (racing writers) */

static int check_lines(int id, int *markers, bool *marker_last)
{
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return 0;
	char line[512];
	int next[WRITERS + 2] = { 0 }, count = 0;
	*markers = 0;
	*marker_last = false;
	after_marker = 0;
	while (fgets(line, sizeof(line), f)) {
		after_marker += *markers > 0;
		CHECK(strchr(line, '\n') != NULL);   /* whole */
		int w, n, used = 0;
		char pad[128];
		if (strstr(line, "[trace] GTSIM_TRACE_FILE reached GTSIM_TRACE_MAX=65536 bytes") == line) {
			(*markers)++;
			*marker_last = true;
		} else if (sscanf(line, "[gem] writer %d line %d %127s%n", &w, &n, pad, &used) == 3) {
			CHECK(w >= 0 && w <= WRITERS);
			CHECK_EQ(strcmp(pad, PAD), 0);
			CHECK_EQ(line[used], '\n');
			if (w >= 0 && w <= WRITERS) {
				CHECK_EQ(n, next[w]);   /* a prefix of the writer's lines */
				next[w] = n + 1;
				count += id < 0 || w == id;
			}
		} else {
			CHECK(sscanf(line, "[gem] writer %d dump ", &w) == 1);
		}
	}
	fclose(f);
	return count;
}

int main(void)
{
	/* the limit's syntax */
	CHECK_EQ(trace_parse_max("4096"), 4096);
	CHECK_EQ(trace_parse_max("64K"), 65536);
	CHECK_EQ(trace_parse_max("3M"), 3u << 20);
	CHECK_EQ(trace_parse_max("1g"), 1ull << 30);
	CHECK_EQ(trace_parse_max(NULL), TRACE_MAX_DEFAULT);
	CHECK_EQ(trace_parse_max(""), TRACE_MAX_DEFAULT);
	CHECK_EQ(trace_parse_max("abc"), 0);
	CHECK_EQ(trace_parse_max("12Q"), 0);
	CHECK_EQ(trace_parse_max("-4096"), 0);
	CHECK_EQ(trace_parse_max("100"), 0);   /* no room for the marker */
	CHECK_EQ(trace_parse_max("99999999999999999999G"), 0);

	const char *tmp = getenv("TMPDIR");
	snprintf(path, sizeof(path), "%s/gtsim-trace-cap-%d.log", tmp && *tmp ? tmp : "/tmp",
		 (int)getpid());
	unlink(path);
	setenv("GTSIM_TRACE_FILE", path, 1);
	setenv("GTSIM_TRACE_MAX", "64K", 1);

	run_writers(0, WRITERS, LINES, false);
	long size = file_size();
	int markers;
	bool marker_last;
	int kept = check_lines(-1, &markers, &marker_last);
	/* a numbered line is about 120 bytes: WRITERS * LINES of them would
	 * be far past the cap */
	fprintf(stderr, "bounded: %ld bytes, %d numbered lines kept of %d, %d marker(s)\n", size,
		kept, WRITERS * LINES, markers);
	CHECK(size <= CAP);
	CHECK(size >= CAP - TRACE_MARKER_ROOM - 200);
	CHECK(kept > 400 && kept < WRITERS * LINES);
	CHECK_EQ(markers, 1);
	CHECK_EQ(after_marker, 0);   /* the marker is last */

	/* a later process adds nothing to a full file */
	run_writers(WRITERS, 1, 10, false);
	CHECK_EQ(file_size(), size);
	check_lines(-1, &markers, &marker_last);
	CHECK_EQ(markers, 1);

	/* killed: every finished line is in the file */
	unlink(path);
	setenv("GTSIM_TRACE_MAX", "1M", 1);
	run_writers(0, 1, 500, true);
	int lines = check_lines(0, &markers, &marker_last);
	fprintf(stderr, "killed after 500 lines: %d in the file\n", lines);
	CHECK_EQ(lines, 500);
	CHECK_EQ(markers, 0);
	unlink(path);
	return test_exit();
}
