/* Shared checks of an error state left by a GPU fault: the text names the
 * fault, and intel_error_decode (Debian intel-gpu-tools, when installed)
 * reads it: the generation, the hung engine's batch at its address and
 * the offending command by name. */
#ifndef GTSIM_TEST_HANG_CHECK_H
#define GTSIM_TEST_HANG_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"

/* Runs intel_error_decode on the error state in file path; each of want[]
 * (NULL-terminated) must be in its output. Skips (loudly) when it is not
 * installed. */
static inline void check_error_decode(const char *path, const char *const *want)
{
	if (access("/usr/bin/intel_error_decode", X_OK)) {
		printf("SKIP (part): /usr/bin/intel_error_decode not installed "
		       "(Debian package intel-gpu-tools)\n");
		return;
	}
	char cmd[1100];
	snprintf(cmd, sizeof(cmd), "/usr/bin/intel_error_decode %s < /dev/null 2>&1", path);
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	if (!p)
		return;
	bool found[16] = { false };
	char line[1024];
	while (fgets(line, sizeof(line), p))
		for (int i = 0; want[i] && i < 16; i++)
			found[i] |= strstr(line, want[i]) != NULL;
	CHECK_EQ(pclose(p), 0);
	for (int i = 0; want[i] && i < 16; i++) {
		if (!found[i])
			printf("intel_error_decode did not print '%s'\n", want[i]);
		CHECK(found[i]);
	}
}

/* The same for an error state held in memory. */
static inline void check_error_decode_text(const char *text, const char *const *want)
{
	char path[] = "/tmp/gtsim-test-hangXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ(write(fd, text, strlen(text)), (long long)strlen(text));
	close(fd);
	check_error_decode(path, want);
	unlink(path);
}

#endif
