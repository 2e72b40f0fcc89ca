/* Helpers shared by the ISA tests: reading files, normalising assembly
 * text (white space collapsed, LABELn renamed in order of appearance). */
#ifndef GTSIM_TEST_ISA_UTIL_H
#define GTSIM_TEST_ISA_UTIL_H

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		if (len)
			*len = (size_t)n;
	}
	return buf;
}

/* Collapse white space, drop space next to ';', rename LABELn to Ln in the
 * order labels first appear. Result is malloc'd. */
static inline char *normalize_asm(const char *s)
{
	size_t n = strlen(s);
	char *out = malloc(2 * n + 16), *o = out;
	int map[256];
	int next = 0;
	for (int i = 0; i < 256; i++)
		map[i] = -1;
	bool space = false;
	for (size_t i = 0; i < n;) {
		if (isspace((unsigned char)s[i])) {
			space = true;
			i++;
			continue;
		}
		if (space && o != out && s[i] != ';' && o[-1] != '\n')
			*o++ = ' ';
		space = false;
		if (!strncmp(s + i, "LABEL", 5) && isdigit((unsigned char)s[i + 5])) {
			int num = atoi(s + i + 5);
			i += 5;
			while (isdigit((unsigned char)s[i]))
				i++;
			if (num >= 0 && num < 256) {
				if (map[num] < 0)
					map[num] = next++;
				o += sprintf(o, "L%d", map[num]);
			}
			continue;
		}
		*o++ = s[i];
		if (s[i] == ';' || s[i] == ':')
			*o++ = '\n', space = false;
		i++;
	}
	*o = 0;
	return out;
}

/* Hex bytes separated by blanks ("01 00 60 ..."), at most max. */
static inline size_t parse_hex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	unsigned v;
	int used;
	while (n < max && sscanf(s, " %2x%n", &v, &used) == 1) {
		out[n++] = (uint8_t)v;
		s += used;
	}
	return n;
}

#endif
