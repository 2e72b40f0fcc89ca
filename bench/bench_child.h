/* What the Mesa benchmarks share: they run their own executable as a child
 * (through `gtsim run` or on llvmpipe) and read one line of figures back. */
#ifndef GTSIM_BENCH_CHILD_H
#define GTSIM_BENCH_CHILD_H

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs argv as a child with the variables env (name, value pairs, then
 * NULL) set; its first line of output into line. Its exit status, or -1. */
static inline int bench_run_child(char *const *argv, const char *const *env, char *line,
				  size_t size)
{
	int fd[2];
	if (pipe(fd))
		return -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		for (int i = 0; env && env[i]; i += 2)
			setenv(env[i], env[i + 1], 1);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	FILE *f = fdopen(fd[0], "r");
	line[0] = 0;
	if (f) {
		if (!fgets(line, (int)size, f))
			line[0] = 0;
		fclose(f);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* One table cell: "failed" when the child failed or printed fewer
 * figures than expected (ok false), "wrong result" for a figure of 0 (its
 * check failed), else v / scale in the format fmt. */
static inline void bench_figure(char *buf, size_t n, int ok, double v, double scale,
				const char *fmt)
{
	if (!ok)
		snprintf(buf, n, "failed");
	else if (v <= 0)
		snprintf(buf, n, "wrong result");
	else
		snprintf(buf, n, fmt, v / scale);
}

/* This executable's path into self and the gtsim tool beside it
 * (build/tools/gtsim from build/bench/) into gtsim; -1 on failure. */
static inline int bench_paths(char self[PATH_MAX], char gtsim[PATH_MAX + 32])
{
	ssize_t n = readlink("/proc/self/exe", self, PATH_MAX - 1);
	if (n <= 0)
		return -1;
	self[n] = 0;
	char *copy = strdup(self);
	if (!copy)
		return -1;
	snprintf(gtsim, PATH_MAX + 32, "%s/../tools/gtsim", dirname(copy));
	free(copy);
	return 0;
}

#endif
