/* The fuzz targets without libFuzzer: runs a target's entry point once on
 * every file named on the command line (a directory: every file in it), as
 * the regression tests of the corpus under any compiler and sanitizer.
 * Prints the number of inputs run; a crash or a sanitizer report is the
 * failure. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_target.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, n = 0, got;
	uint8_t *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	fclose(f);
	if (!buf)
		return -1;
	/* An exact-size copy, as libFuzzer hands inputs over. */
	uint8_t *exact = malloc(n ? n : 1);
	if (!exact) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order. Returns the number run or -1. */
static int run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		perror(dir);
		return -1;
	}
	char **names = NULL;
	size_t count = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char **nn = realloc(names, (count + 1) * sizeof(*names));
		if (!nn)
			break;
		names = nn;
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		names[count] = malloc(len);
		if (names[count])
			snprintf(names[count++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, count, sizeof(*names), cmp);
	int run = 0;
	for (size_t i = 0; i < count; i++) {
		struct stat st;
		if (!stat(names[i], &st) && S_ISREG(st.st_mode)) {
			fprintf(stderr, "replay %s\n", names[i]);
			if (run_file(names[i]) == 0)
				run++;
		}
		free(names[i]);
	}
	free(names);
	return run;
}

int main(int argc, char **argv)
{
	int run = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st)) {
			perror(argv[i]);
			return 1;
		}
		int n = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]) == 0;
		if (n < 0)
			return 1;
		run += n;
	}
	printf("%d inputs replayed\n", run);
	return 0;
}
