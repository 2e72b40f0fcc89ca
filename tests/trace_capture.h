/* Tests of a trace category: send the trace of some categories to a fresh
 * temporary file, and read the file back. */
#ifndef GTSIM_TESTS_TRACE_CAPTURE_H
#define GTSIM_TESTS_TRACE_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/trace.h"

/* Creates a file from path (a mkstemp template) and traces cats (as in
 * GTSIM_TRACE) into it; -1 when the file cannot be made. */
static inline int trace_capture_start(char *path, const char *cats)
{
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	setenv("GTSIM_TRACE_FILE", path, 1);
	setenv("GTSIM_TRACE", cats, 1);
	trace_init_from_env();
	return 0;
}

/* Flushes the trace and returns the file's text (up to size - 1 bytes,
 * in buf), removing the file; NULL when it cannot be read. */
static inline char *trace_capture_read(const char *path, char *buf, size_t size)
{
	fflush(trace_stream());
	FILE *in = fopen(path, "r");
	unlink(path);
	if (!in)
		return NULL;
	size_t n = fread(buf, 1, size - 1, in);
	buf[n] = 0;
	fclose(in);
	return buf;
}

#endif
