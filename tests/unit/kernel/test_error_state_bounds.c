/* Error states are bounded (issue: one piglit test left 510 files, 60 MB):
 *  - error_state_prune keeps the newest `keep` gtsim-error-* files of a
 *    folder by modification time and leaves other files alone;
 *  - error_state_bound cuts a text longer than the cap at a line end and
 *    says so, leaving a text within the cap untouched.
 * Oracle: the files' ages set by hand (utimensat), lengths counted here. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/request.h"
#include "test.h"

static void touch(const char *dir, const char *name, time_t age_s)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK_EQ(write(fd, "x", 1), 1);
		close(fd);
	}
	struct timespec t[2] = { { .tv_sec = 1700000000 - age_s }, { .tv_sec = 1700000000 - age_s } };
	CHECK_EQ(utimensat(AT_FDCWD, path, t, 0), 0);
}

static bool exists(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

int main(void)
{
	char dir[] = "/tmp/gtsim-test-errstateXXXXXX";
	if (!mkdtemp(dir))
		test_skip("mkdtemp failed");
	char name[64];
	for (int i = 0; i < 20; i++) {            /* gtsim-error-100 is the oldest */
		snprintf(name, sizeof(name), "gtsim-error-%d", 100 + i);
		touch(dir, name, 1000 - i);
	}
	touch(dir, "other-file", 5000);             /* not an error state */
	CHECK_EQ(error_state_prune(dir, 16), 4);
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "gtsim-error-%d", 100 + i);
		CHECK_EQ(exists(dir, name), i >= 4);
	}
	CHECK(exists(dir, "other-file"));
	CHECK_EQ(error_state_prune(dir, 16), 0);
	CHECK_EQ(error_state_prune("/nonexistent-gtsim-dir", 1), 0);
	for (int i = 4; i < 20; i++) {
		snprintf(name, sizeof(name), "%s/gtsim-error-%d", dir, 100 + i);
		unlink(name);
	}
	snprintf(name, sizeof(name), "%s/other-file", dir);
	unlink(name);
	rmdir(dir);

	/* 100 lines of 10 bytes; a cap of 300 keeps whole lines and the note. */
	char text[1001];
	for (int i = 0; i < 100; i++)
		memcpy(text + 10 * i, "line-xxxx\n", 10);
	text[1000] = 0;
	char copy[1001];
	memcpy(copy, text, sizeof(text));
	CHECK_EQ(error_state_bound(copy, 2000), 1000);
	CHECK_EQ(memcmp(copy, text, sizeof(text)), 0);
	size_t len = error_state_bound(copy, 300);
	CHECK(len <= 300);
	CHECK_EQ(len, strlen(copy));
	const char *note = strstr(copy, "(error state truncated by gtsim at 300 bytes)\n");
	CHECK(note != NULL);
	if (note) {
		size_t kept = (size_t)(note - copy);
		CHECK_EQ(kept % 10, 0);                 /* at a line end */
		CHECK_EQ(memcmp(copy, text, kept), 0);
		CHECK(kept >= 300 - 10 - strlen(note));
	}
	return test_exit();
}
